"""scripts/make_samples.sh: the seeds of each fresh sample, and one sentence for a bad name."""

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(tmp_path, *letters):
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "cribcam").write_text('#!/bin/sh\necho cribcam "$@"\n')
    (fake / "cribcam").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    cmd = ["bash", str(REPO / "scripts" / "make_samples.sh"), *letters]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)


def test_each_letter_names_its_own_seeds_and_folders(tmp_path):
    done = _run(tmp_path, "y")  # a sample no session has made, so every set is asked for
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split("--seed ")[1].split()[0] for line in lines] == ["2408", "2407", "24142414", "24142414"]
    assert [line.split("--out ")[1].split()[0] for line in lines] == [
        "data/heldout1280y",
        "data/unseen1280y",
        "data/twins1280y",
        "data/webcam1280y",
    ]
    assert "--four-colour-twins" in lines[2] and "gnome-anglo-4c" in lines[2]
    assert "--webcam 1.0" in lines[3] and "--webcam" not in lines[2]  # the twins' scenes again, as webcam frames


def test_a_bad_sample_name_gets_one_sentence(tmp_path):
    for bad in ("a", "bb", "1"):
        done = _run(tmp_path, bad)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip() == f"A sample is named by one letter from b to z (got '{bad}')."

"""scripts/make_samples.sh: the seeds of each fresh sample, and one sentence for a bad name."""

import os
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _run(tmp_path, *letters):
    """The script run from a copy of scripts/ in an empty checkout (its data/ holds no sample yet), with a
    ``cribcam`` that prints what it is asked."""
    fake = tmp_path / "bin"
    fake.mkdir(exist_ok=True)
    (fake / "cribcam").write_text('#!/bin/sh\necho cribcam "$@"\n')
    (fake / "cribcam").chmod(0o755)
    scripts = tmp_path / "checkout" / "scripts"
    scripts.mkdir(parents=True, exist_ok=True)
    for name in ("make_samples.sh", "decks.sh"):
        shutil.copy(REPO / "scripts" / name, scripts / name)
    env = {**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"}
    cmd = ["bash", str(scripts / "make_samples.sh"), *letters]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)


def test_each_name_names_its_own_seeds_and_folders(tmp_path):
    done = _run(tmp_path, "ay")  # an empty checkout: every set is asked for
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    seeds = [line.split("--seed ")[1].split()[0] for line in lines]
    assert seeds == ["5008", "5007", "50145014", "50145014", "50165016", "5013"]
    assert [line.split("--out ")[1].split()[0] for line in lines] == [
        "data/heldout1280ay",
        "data/unseen1280ay",
        "data/twins1280ay",
        "data/webcam1280ay",
        "data/webcamsingles1280ay",
        "data/negatives1280ay",
    ]
    assert "--four-colour-twins" in lines[2] and "gnome-anglo-4c" in lines[2]
    assert "--webcam 1.0" in lines[3] and "--webcam" not in lines[2]  # the twins' scenes again, as webcam frames
    assert "--index-px 24 240" in lines[3] and "--layout" not in lines[3]
    singles = lines[4]  # loose four-colour cards with large corners, as webcam frames
    assert "--layout singles" in singles and "--index-px 40 240" in singles and "--webcam 1.0" in singles
    assert "--four-colour-twins" in singles
    assert "--empty 1.0" in lines[5] and "--empty" not in lines[0]  # no cards at all, the held-out decks' tables


def test_one_and_two_letter_names_never_share_seeds(tmp_path):
    names = ["b", "z", "aa", "az", "ba", "zz"]
    done = _run(tmp_path, "--dry-seeds", *names)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "25", "26", "51", "52", "701"]


def test_a_bad_sample_name_gets_one_sentence(tmp_path):
    for bad in ("a", "bbb", "1", "A"):
        done = _run(tmp_path, bad)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip() == (
            f"A sample is named by one letter from b to z, or two from aa to zz (got '{bad}')."
        )

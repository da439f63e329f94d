"""scripts/link_sets.py: one training set of links to several, names that cannot collide."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _synth(folder: Path, names: list[str]) -> Path:
    for part, suffix in (("images", ".jpg"), ("labels", ".txt"), ("cards", ".json")):
        for split in ("train", "val"):
            (folder / part / split).mkdir(parents=True)
            for name in names:
                (folder / part / split / f"{name}{suffix}").write_text(f"{folder.name} {part} {split} {name}")
    (folder / "data.yaml").write_text(f"path: /somewhere/{folder.name}\nnames: [corner]\n")
    return folder


def _link(*args):
    return subprocess.run(
        [sys.executable, str(REPO / "scripts" / "link_sets.py"), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_files_of_each_source_are_linked_under_their_own_prefix(tmp_path):
    _synth(tmp_path / "synth16", ["000001", "000002"])
    _synth(tmp_path / "synth17", ["000001"])
    done = _link(tmp_path / "synth1617", tmp_path / "synth16", tmp_path / "synth17")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{tmp_path / 'synth1617'}: 3 train and 3 val images"
    images = tmp_path / "synth1617" / "images" / "train"
    assert sorted(p.name for p in images.iterdir()) == ["s16_000001.jpg", "s16_000002.jpg", "s17_000001.jpg"]
    assert (images / "s17_000001.jpg").read_text() == "synth17 images train 000001"
    assert (tmp_path / "synth1617" / "labels" / "val" / "s16_000002.txt").read_text() == "synth16 labels val 000002"
    assert "/somewhere/synth1617" in (tmp_path / "synth1617" / "data.yaml").read_text()
    again = _link(tmp_path / "synth1617", tmp_path / "synth16", tmp_path / "synth17")  # links there are kept
    assert again.stdout == done.stdout


def test_a_source_that_is_not_a_synth_folder_gets_one_sentence(tmp_path):
    _synth(tmp_path / "synth16", ["000001"])
    done = _link(tmp_path / "out", tmp_path / "synth16", tmp_path / "nothing")
    assert done.returncode == 2
    assert done.stderr.strip() == f"Not a 'cribcam synth' folder beside {tmp_path / 'out'}: {tmp_path / 'nothing'}."
    assert not (tmp_path / "out").exists()


def test_a_drawn_set_is_not_linked_into(tmp_path):
    _synth(tmp_path / "synth6", ["000001"])
    drawn = _synth(tmp_path / "synth67", ["000001"])  # seed 67's scenes, where synth6 + synth7's links once went
    done = _link(drawn, tmp_path / "synth6")
    assert done.returncode == 2
    assert done.stderr.strip() == f"{drawn} holds drawn scenes, not links to them; link into a folder of another name."
    assert sorted(p.name for p in (drawn / "images" / "train").iterdir()) == ["000001.jpg"]

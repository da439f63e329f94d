"""scripts/gpu_cards.py: card art packed as WebP for a GPU machine comes back pixel for pixel."""

import json

import numpy as np
from conftest import load_script
from PIL import Image


def run(*args) -> int:
    return load_script("gpu_cards").main([str(a) for a in args])


def test_packed_art_unpacks_to_the_same_pixels_and_skipped_decks_stay_behind(tmp_path):
    cache = tmp_path / "cards"
    rng = np.random.default_rng(0)
    for deck in ("kept", "unseen"):
        (cache / deck).mkdir(parents=True)
        rgba = rng.integers(0, 256, (36, 24, 4), dtype=np.uint8)
        rgba[:4, :, 3] = 0  # colour under transparent pixels must survive too
        Image.fromarray(rgba, "RGBA").save(cache / deck / "AS.png")
    (cache / "index.json").write_text(json.dumps({"decks": []}))

    assert run("pack", cache, tmp_path / "packed", "--skip", "unseen") == 0
    assert sorted(p.name for p in (tmp_path / "packed").iterdir()) == ["index.json", "kept"]
    assert run("unpack", tmp_path / "packed", tmp_path / "back") == 0

    before = np.asarray(Image.open(cache / "kept" / "AS.png"))
    after = np.asarray(Image.open(tmp_path / "back" / "kept" / "AS.png"))
    assert np.array_equal(before, after)
    assert (tmp_path / "back" / "index.json").read_text() == (cache / "index.json").read_text()


def test_a_folder_without_an_index_gets_one_sentence(tmp_path, capsys):
    assert run("unpack", tmp_path, tmp_path / "out") == 2
    assert capsys.readouterr().err == f"{tmp_path} holds no card art index (index.json).\n"

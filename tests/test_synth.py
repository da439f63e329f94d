"""The synthetic-photo generator: exact boxes, the visibility rule, splits by deck, determinism, layout."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scorer.cards import CLASS_NAMES
from vision.training.synth import VISIBLE_FRACTION, DeckArt, generate, held_out_decks, render_scene
from vision.training.synth.compose import Canvas, corner_label, premultiply, translation
from vision.training.synth.testdeck import CARD_H, CARD_W, INDEX_BOX, make_test_deck


def _scale(k: float) -> np.ndarray:
    return np.diag([k, k, 1.0])


def _white_canvas(size: int = 400) -> Canvas:
    return Canvas(np.full((size, size, 3), 255, np.float32))


@pytest.fixture(scope="module")
def deck():
    return make_test_deck()


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("synth")
    decks = [make_test_deck("plain"), make_test_deck("four", four_colour=True)]
    stats = generate(out, n=60, seed=3, imgsz=320, workers=1, decks=decks, progress=False)
    return out, stats


def test_card_placed_with_known_transform_gets_exact_box(deck):
    canvas = _white_canvas()
    h = translation(100, 50) @ _scale(0.5)
    canvas.paste(premultiply(deck.cards["7D"].image()), h, layer=0)
    x1, y1, x2, y2 = INDEX_BOX
    fraction, box = corner_label(canvas.ids, deck.cards["7D"].corners[0] * 0.5 + (100, 50), 0)
    assert fraction == 1.0
    assert box == (100 + x1 / 2, 50 + y1 / 2, 100 + x2 / 2, 50 + y2 / 2)


def test_corner_rotated_half_turn_gets_box_of_its_turned_quad(deck):
    canvas = _white_canvas()
    half_turn = translation(300, 380) @ np.diag([-1.0, -1.0, 1.0])  # card upside down, moved into view
    canvas.paste(premultiply(deck.cards["KS"].image()), half_turn, layer=0)
    quad = deck.cards["KS"].corners[1]  # the bottom-right index, now at the top-left
    turned = (300, 380) - quad
    _, box = corner_label(canvas.ids, turned, 0)
    assert box == (
        300 - (CARD_W - INDEX_BOX[0]),
        380 - (CARD_H - INDEX_BOX[1]),
        300 - (CARD_W - INDEX_BOX[2]),
        380 - (CARD_H - INDEX_BOX[3]),
    )


def _covered(deck, cover_x: float) -> tuple[float, tuple | None]:
    """Card 0 at the origin; card 1 on top of it with its left edge at ``cover_x`` (card pixels)."""
    canvas = _white_canvas()
    canvas.paste(premultiply(deck.cards["AS"].image()), translation(20, 20), layer=0)
    canvas.paste(premultiply(deck.cards["2S"].image()), translation(20 + cover_x, 20), layer=1)
    return corner_label(canvas.ids, deck.cards["AS"].corners[0] + 20, 0)


def test_fully_covered_corner_is_dropped(deck):
    fraction, box = _covered(deck, cover_x=0)
    assert fraction == 0.0 and box is None


def test_partly_covered_corner_is_kept_with_box_of_its_visible_part(deck):
    x1, _y1, x2, _y2 = INDEX_BOX
    cover_x = x1 + (x2 - x1) * 0.75  # a quarter of the index hidden
    fraction, box = _covered(deck, cover_x)
    assert VISIBLE_FRACTION <= fraction < 0.85
    assert box is not None
    assert box[0] == 20 + x1 and box[2] == pytest.approx(20 + cover_x, abs=1.0)


def test_mostly_covered_corner_is_dropped_by_the_rule(deck):
    x1, _, x2, _ = INDEX_BOX
    fraction, box = _covered(deck, x1 + (x2 - x1) * 0.5)
    assert fraction < VISIBLE_FRACTION and box is None


def test_corner_mostly_outside_the_image_is_dropped(deck):
    canvas = _white_canvas(100)
    canvas.paste(premultiply(deck.cards["AS"].image()), translation(-40, -60), layer=0)
    fraction, box = corner_label(canvas.ids, deck.cards["AS"].corners[0] + (-40, -60), 0)
    assert 0 < fraction < VISIBLE_FRACTION and box is None


def test_corner_beyond_the_image_is_dropped(deck):
    canvas = _white_canvas(100)
    assert corner_label(canvas.ids, deck.cards["AS"].corners[0] + (200, 0), 0) == (0.0, None)


def test_held_out_decks_are_whole_families_with_a_four_colour_one():
    decks = [make_test_deck(f"deck{i}") for i in range(8)]
    decks += [make_test_deck(f"{f}-{v}", four_colour=v == "4c", family=f) for f in ("x", "y") for v in ("2c", "4c")]
    held = held_out_decks(decks)
    families = {d.family for d in decks if d.name in held}
    assert all(d.name in held for d in decks if d.family in families)
    assert any(d.four_colour for d in decks if d.name in held)
    assert 2 <= len(held) <= 4
    assert held == held_out_decks(list(reversed(decks)))


def test_every_class_appears_in_a_small_run(dataset):
    _, stats = dataset
    assert all(count > 0 for count in stats["class_counts"].values())


def test_train_and_val_never_share_a_deck(dataset):
    out, stats = dataset
    assert set(stats["decks"]["train"]).isdisjoint(stats["decks"]["val"])

    for split in ("train", "val"):
        for path in (out / "cards" / split).glob("*.json"):
            assert json.loads(path.read_text())["deck"] in stats["decks"][split]


def test_output_is_a_valid_ultralytics_dataset(dataset):
    yaml = pytest.importorskip("yaml")
    out, stats = dataset
    data = yaml.safe_load((out / "data.yaml").read_text())
    assert Path(data["path"]).is_absolute() and Path(data["path"]) == out.resolve()
    assert [data["names"][i] for i in range(52)] == list(CLASS_NAMES) and data["nc"] == 52
    for split in ("train", "val"):
        images = sorted(p.stem for p in (out / data[split]).glob("*.jpg"))
        labels = sorted(p.stem for p in (out / "labels" / split).glob("*.txt"))
        assert images and images == labels
        assert len(images) == stats["images"][split]
    for path in (out / "labels").rglob("*.txt"):
        for line in path.read_text().splitlines():
            parts = line.split()
            assert len(parts) == 5 and 0 <= int(parts[0]) < 52
            assert all(0.0 <= float(v) <= 1.0 for v in parts[1:])
    assert (out / "preview.png").stat().st_size > 0


def test_same_seed_gives_same_bytes_whatever_the_worker_count(tmp_path):
    decks = [make_test_deck("a"), make_test_deck("b")]
    one = generate(tmp_path / "one", n=6, seed=11, imgsz=256, workers=1, decks=decks, progress=False)
    two = generate(tmp_path / "two", n=6, seed=11, imgsz=256, workers=2, decks=decks, progress=False)
    assert one["class_counts"] == two["class_counts"]
    files = sorted(p.relative_to(tmp_path / "one") for p in (tmp_path / "one").rglob("*") if p.is_file())
    files = [f for f in files if f.name not in ("stats.json", "data.yaml")]
    assert len(files) == 6 * 3 + 1
    for f in files:
        assert (tmp_path / "one" / f).read_bytes() == (tmp_path / "two" / f).read_bytes(), f


def test_different_seeds_give_different_images(tmp_path):
    decks = [make_test_deck("a"), make_test_deck("b")]
    generate(tmp_path / "s1", n=2, seed=1, imgsz=128, workers=1, decks=decks, progress=False)
    generate(tmp_path / "s2", n=2, seed=2, imgsz=128, workers=1, decks=decks, progress=False)
    first = (tmp_path / "s1" / "images" / "train" / "000000.jpg").read_bytes()
    assert first != (tmp_path / "s2" / "images" / "train" / "000000.jpg").read_bytes()


def test_cli_writes_a_dataset_and_refuses_to_overwrite_silently(tmp_path, capsys):
    from cribcam.cli import main

    args = ["synth", "--out", str(tmp_path), "--n", "3", "--imgsz", "128", "--workers", "1", "--test-deck", "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["images"] == {"train": 2, "val": 1}
    assert main(args) == 2
    assert "--overwrite" in capsys.readouterr().err


def test_index_range_scaled_with_the_image_frames_the_same_scene_at_more_pixels(deck):
    art = DeckArt(deck)
    for seed in range(4):
        small = render_scene(np.random.default_rng(seed), art, 256)
        big = render_scene(np.random.default_rng(seed), art, 512, index_px=(24.0, 240.0))
        assert small.record["layout"] == big.record["layout"]
        assert sorted(c for c, *_ in small.labels) == sorted(c for c, *_ in big.labels)
        heights = [np.median([y2 - y1 for _, _, y1, _, y2 in shot.labels]) for shot in (small, big)]
        assert heights[1] == pytest.approx(2 * heights[0], rel=0.1)


def test_layout_draws_every_scene_as_that_kind_and_an_unknown_one_is_refused(tmp_path, capsys):
    from cribcam.cli import main

    args = ["synth", "--n", "4", "--imgsz", "128", "--workers", "1", "--test-deck", "--json", "--layout", "singles"]
    assert main([*args, "--out", str(tmp_path / "singles")]) == 0
    assert json.loads(capsys.readouterr().out)["layouts"] == {"singles": 4}
    assert main([*args[:-1], "spiral", "--out", str(tmp_path / "spiral")]) == 2
    assert "Unknown layout 'spiral'" in capsys.readouterr().err
    assert not (tmp_path / "spiral").exists()

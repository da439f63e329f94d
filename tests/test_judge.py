"""vision.training.judge: pooled card F1, the paired bootstrap, and cached boxes that read as the whole pipeline."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.card_faces import drop_face_patterns
from vision.detector import CardDetector
from vision.model_location import models_dir
from vision.training.evaluate import evaluate_photos, synthetic_photos
from vision.training.judge import (
    boxes_key,
    card_f1,
    card_fbeta,
    counted_mean,
    false_per_100,
    judge,
    main,
    paired_interval,
    parse_set,
    print_report,
    rule_failures,
    sample_sets,
    set_name,
    whole_card_precision,
)
from vision.training.quantize import float_copy
from vision.training.synth import generate
from vision.training.synth.testdeck import make_test_deck


def test_card_f1_pools_counts():
    # 10 labelled, 8 read, 6 right, 5 found: P 0.75, R 0.5
    assert card_f1(np.array([10, 8, 6, 5])) == pytest.approx(2 * 0.75 * 0.5 / 1.25)
    assert card_f1(np.array([4, 0, 0, 0])) == 0.0


def test_card_fbeta_weighs_recall_beta_times_as_much_as_precision():
    # 10 labelled, 8 read, 8 right, 8 found: P 1, R 0.8
    counts = np.array([10, 8, 8, 8])
    assert card_fbeta(counts, 1.0) == card_f1(counts) == pytest.approx(2 * 0.8 / 1.8)
    assert card_fbeta(counts, 0.5) == pytest.approx(1.25 * 0.8 / (0.25 + 0.8)), "F0.5 near precision"
    assert card_fbeta(counts, 2.0) == pytest.approx(5 * 0.8 / (4 + 0.8)), "F2 near recall"
    swapped = np.array([8, 10, 8, 8])  # P 0.8, R 1: the same F1, a lower F0.5
    assert card_fbeta(swapped, 1.0) == pytest.approx(card_f1(counts))
    assert card_fbeta(swapped, 0.5) < card_fbeta(counts, 0.5)
    assert card_fbeta(np.array([4, 0, 0, 0]), 0.5) == 0.0


def test_whole_card_precision_counts_the_right_card_on_its_own_covered_corner_right():
    # 10 labelled, 8 read, 6 right, 5 found, 1 more the right card on its own covered corner
    assert whole_card_precision(np.array([10, 8, 6, 5, 1])) == pytest.approx(7 / 8)
    assert whole_card_precision(np.array([4, 0, 0, 0, 0])) == 0.0


def test_paired_interval_of_a_copy_is_zero_and_of_a_better_reader_above_zero():
    rng = np.random.default_rng(1)
    base = np.stack([np.full(200, 10), np.full(200, 10), rng.integers(6, 10, 200), np.zeros(200, int)], axis=1)
    base[:, 3] = base[:, 2]
    assert paired_interval(base, base, resamples=200) == (0.0, 0.0, 0.0)
    better = base.copy()
    better[:, 2] = better[:, 3] = np.minimum(base[:, 2] + 1, 10)
    change, low, high = paired_interval(better, base, resamples=200)
    assert change > 0 and 0 < low <= change <= high
    with pytest.raises(ValueError, match="same photos"):
        paired_interval(better[:5], base)


def test_false_cards_per_100_photos_and_their_paired_change():
    # columns: true, read, correct, found; 4 photos, 3 false cards in all
    base = np.array([[5, 5, 5, 5], [5, 6, 5, 5], [0, 2, 0, 0], [0, 0, 0, 0]])
    assert false_per_100(base) == pytest.approx(75.0)
    assert false_per_100(base[:0]) == 0.0
    cleaner = base.copy()
    cleaner[:, 1] = cleaner[:, 2]  # the same right cards, no false ones
    change, low, high = paired_interval(cleaner, base, resamples=200, statistic=false_per_100)
    assert change == pytest.approx(-75.0) and low <= change <= high <= 0
    assert paired_interval(base, base, resamples=50, statistic=false_per_100) == (0.0, 0.0, 0.0)


@pytest.fixture(scope="module")
def small_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("judge") / "set"
    deck = make_test_deck("plain")
    generate(
        out, n=7, seed=5, imgsz=640, workers=1, decks=[deck], val_decks=["plain"], val_fraction=1.0, progress=False
    )
    return out


def test_cached_boxes_read_as_the_whole_pipeline(small_set, tmp_path):
    shipped = models_dir()
    first = judge(shipped, [shipped, shipped], [small_set], tmp_path / "cache", resamples=50)
    again = judge(shipped, [shipped], [small_set], tmp_path / "cache", resamples=50)  # from the cache
    assert len(list((tmp_path / "cache").rglob("*.npz"))) == 6
    row = first["sets"][str(small_set)]["candidates"][str(shipped)]
    assert row["change"] == 0.0 and again["sets"][str(small_set)]["candidates"][str(shipped)]["f1"] == row["f1"]
    total, _ = evaluate_photos(CardDetector(shipped), synthetic_photos(small_set), corner_filter=drop_face_patterns)
    summary = total.summary()
    precision, recall = summary["card_precision"], summary["card_recall"]
    # F1 from the counts, not from the P and R rounded to four places
    exact_p, exact_r = total.cards_correct / total.cards_read, total.cards_found / total.cards_true
    assert row["f1"] == round(2 * exact_p * exact_r / (exact_p + exact_r), 4)
    assert (row["precision"], row["recall"]) == (precision, recall)
    assert row["precision_whole_card"] == summary["card_precision_whole_card"] >= precision


def test_a_missing_folder_gets_one_sentence(tmp_path, capsys):
    assert main([str(tmp_path / "nowhere"), "--sets", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Not a models folder") and err.count("\n") == 1


def test_samples_stand_for_the_six_sets_each_pooled_over_them():
    names = [set_name(s) for s in sample_sets(["dx", "dy"])]
    assert names == [
        f"data/{kind}1280dx+data/{kind}1280dy"
        for kind in ("heldout", "twins", "unseen", "webcam", "webcamsingles", "negatives")
    ]
    assert sample_sets(["h"], Path("elsewhere"))[0] == Path("elsewhere/heldout1280h")  # one sample: plain sets
    assert sample_sets([]) == []
    with pytest.raises(ValueError, match="got a1, B"):
        sample_sets(["dx", "a1", "B"])


def test_samples_that_are_not_there_or_misnamed_or_no_sets_at_all_get_one_sentence(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv, start in (
        (["--samples", "zz"], "Not a models folder or a 'cribcam synth' set: data/heldout1280zz, data/twins1280zz"),
        (["--samples", "dx", "x-y"], "A sample is named by one letter"),
        ([], "Name the sets to judge"),
    ):
        assert main([str(models_dir()), *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith(start) and err.count("\n") == 1, err


def test_cached_boxes_are_kept_for_a_new_classifier_and_found_again_for_new_detector_settings(tmp_path):
    copy = tmp_path / "models"
    shutil.copytree(models_dir(), copy)
    manifest = json.loads((copy / "cribcam.json").read_text())
    manifest["calibration"]["bias"] += 1.0
    manifest["runs"] = []
    (copy / "cribcam.json").write_text(json.dumps(manifest))
    assert boxes_key(copy) == boxes_key(models_dir())
    manifest["detector"]["unread_zoom_out"] = not manifest["detector"].get("unread_zoom_out", False)  # acts later
    (copy / "cribcam.json").write_text(json.dumps(manifest))
    assert boxes_key(copy) == boxes_key(models_dir())
    manifest["detector"]["conf"] += 0.05  # another threshold keeps other boxes
    (copy / "cribcam.json").write_text(json.dumps(manifest))
    assert boxes_key(copy) != boxes_key(models_dir())


def test_boxes_cached_ahead_are_the_ones_the_judge_reads_and_no_card_is_read_to_cache_them(small_set, tmp_path, capsys):
    shipped, cache = models_dir(), tmp_path / "cache"
    assert main([str(shipped), "--sets", str(small_set), "--boxes-only"]) == 2  # no cache to fill
    assert "give --cache FOLDER" in capsys.readouterr().err
    assert main([str(shipped), str(shipped), "--sets", str(small_set), "--cache", str(cache), "--boxes-only"]) == 0
    printed, photos = capsys.readouterr().out, len(list(synthetic_photos(small_set, "val")))
    assert printed.count("\n") == 1 and f"{boxes_key(shipped)}: boxes found for {photos} more photos" in printed
    written = {p: p.stat().st_mtime_ns for p in cache.rglob("*.npz")}
    assert len(written) == photos > 0
    ahead = judge(None, [shipped], [small_set], cache, resamples=50)
    assert {p: p.stat().st_mtime_ns for p in cache.rglob("*.npz")} == written  # read, none found again
    fresh = judge(None, [shipped], [small_set], tmp_path / "fresh", resamples=50)
    assert ahead["sets"] == fresh["sets"]
    assert main([str(shipped), "--sets", str(small_set), "--cache", str(cache), "--boxes-only"]) == 0
    assert "boxes found for 0 more photos" in capsys.readouterr().out
    assert not list(cache.rglob("*.part.npz"))  # each file written whole, then renamed
    other = tmp_path / "other"
    shutil.copytree(shipped, other)
    manifest = json.loads((other / "cribcam.json").read_text())
    manifest["detector"]["conf"] += 0.05  # another detector's boxes
    (other / "cribcam.json").write_text(json.dumps(manifest))
    argv = [str(other), "--boxes", str(shipped), "--sets", str(small_set), "--cache", str(cache), "--boxes-only"]
    assert main(argv) == 0  # under --boxes every candidate reads that folder's boxes: no other detector runs
    assert "boxes found for 0 more photos" in capsys.readouterr().out and not (cache / boxes_key(other)).exists()
    assert main([*argv, "--float"]) == 2 and "leave out --float" in capsys.readouterr().err


def test_each_folder_reads_its_own_detectors_boxes_unless_told_one(small_set, tmp_path):
    shipped = models_dir()
    strict = tmp_path / "strict"
    shutil.copytree(shipped, strict)
    manifest = json.loads((strict / "cribcam.json").read_text())
    manifest["detector"]["conf"] = 0.9
    (strict / "cribcam.json").write_text(json.dumps(manifest))
    own = judge(None, [shipped, strict], [small_set], tmp_path / "cache", resamples=50)
    alone = judge(strict, [strict], [small_set], tmp_path / "cache", resamples=50)
    shared = judge(shipped, [shipped, strict], [small_set], tmp_path / "cache", resamples=50)
    assert {p.name for p in (tmp_path / "cache").iterdir()} == {boxes_key(shipped), boxes_key(strict)}
    rows = [r["sets"][str(small_set)]["candidates"][str(strict)] for r in (own, alone, shared)]
    assert rows[0]["f1"] == rows[1]["f1"]
    assert rows[0]["recall"] < rows[2]["recall"], "a detector that keeps only its surest boxes finds fewer cards"


def test_float_judges_each_folders_float_export_under_the_names_given(small_set, tmp_path):
    shipped = models_dir()
    as_shipped = judge(None, [shipped], [small_set], tmp_path / "cache", resamples=50)
    floated = judge(None, [shipped], [small_set], tmp_path / "cache", resamples=50, in_float=True)
    found = {p.name for p in (tmp_path / "cache").iterdir()}  # before the float copy by hand finds its own
    by_hand = judge(None, [float_copy(shipped, tmp_path / "f")], [small_set], tmp_path / "cache", resamples=50)
    assert found == {boxes_key(shipped), boxes_key(tmp_path / "f")}
    assert boxes_key(shipped) != boxes_key(tmp_path / "f"), "the int8 and float detectors keep their own boxes"
    row = floated["sets"][str(small_set)]["candidates"][str(shipped)]
    assert row == by_hand["sets"][str(small_set)]["candidates"][str(tmp_path / "f")]
    assert (floated["detectors"], as_shipped["detectors"]) == ("float", "as shipped")
    assert floated["baseline"] == str(shipped) and list(floated["mean_change"]) == [str(shipped)]
    assert list(floated["mean_false_change"]) == [str(shipped)], "both means under the names given"
    weighed = judge(None, [shipped], [small_set], tmp_path / "cache", 300, 50, True, beta=0.5, recall_guard=0.007)
    assert (weighed["beta"], weighed["recall_guard"], weighed["detectors"]) == (0.5, 0.007, "float")
    half = weighed["sets"][str(small_set)]["candidates"][str(shipped)]
    precision, recall = half["precision"], half["recall"]
    assert half["f1"] == row["f1"], "the same reads"
    assert half["f_beta"] == pytest.approx(1.25 * precision * recall / (0.25 * precision + recall), abs=2e-4)


def test_a_pooled_set_counts_every_parts_photos_on_their_own_cached_boxes(small_set, tmp_path):
    shipped = models_dir()
    alone = judge(None, [shipped], [small_set], tmp_path / "cache", resamples=50)
    pooled = judge(None, [shipped], [parse_set(f"{small_set}+{small_set}")], tmp_path / "cache", resamples=50)
    photos = alone["sets"][str(small_set)]["photos"]
    assert len(list((tmp_path / "cache").rglob("*.npz"))) == photos, "a part's boxes are cached once, under its name"
    name = f"{small_set}+{small_set}"
    assert list(pooled["sets"]) == [name] and pooled["sets"][name]["photos"] == 2 * photos
    assert (
        pooled["sets"][name]["candidates"][str(shipped)]["f1"]
        == alone["sets"][str(small_set)]["candidates"][str(shipped)]["f1"]
    ), "the same photos twice pool to the same card F1"
    assert parse_set(str(small_set)) == small_set


def test_a_missing_part_of_a_pooled_set_gets_one_sentence(small_set, tmp_path, capsys):
    assert main([str(models_dir()), "--sets", f"{small_set}+{tmp_path / 'nowhere'}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Not a models folder") and "nowhere" in err and str(small_set) + "," not in err


@pytest.fixture(scope="module")
def no_card_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("judge") / "nocards"
    deck = make_test_deck("plain")
    generate(
        out,
        n=5,
        seed=6,
        imgsz=640,
        workers=1,
        decks=[deck],
        val_decks=["plain"],
        val_fraction=1.0,
        empty=1.0,
        hard=1.0,
        progress=False,
    )
    return out


def test_a_no_card_set_is_judged_on_its_false_cards_and_left_out_of_the_mean(small_set, no_card_set, tmp_path, capsys):
    shipped = models_dir()
    strict = strict_copy(shipped, tmp_path)
    report = judge(None, [shipped, strict], [small_set, no_card_set], tmp_path / "cache", resamples=50)
    nocards, labelled = report["sets"][str(no_card_set)], report["sets"][str(small_set)]
    assert nocards["labelled"] is False and labelled["labelled"] is True
    change = labelled["candidates"][str(strict)]["change"]
    assert change != 0 and report["mean_change"][str(strict)] == round(change, 9), "a no-card set has no F1 to average"
    for result in (labelled, nocards):
        rows = result["candidates"]
        assert rows[str(strict)]["false_change"] == pytest.approx(
            rows[str(strict)]["false_per_100"] - rows[str(shipped)]["false_per_100"], abs=0.01
        )
        total, _ = evaluate_photos(
            CardDetector(shipped), synthetic_photos(result_path(result, report)), corner_filter=drop_face_patterns
        )
        assert rows[str(shipped)]["false_per_100"] == round(100 * len(total.false_cards) / result["photos"], 2)
    assert labelled["candidates"][str(shipped)]["false_per_100"] > 0, "the small set's reading has false cards"
    print_report(report)
    out = capsys.readouterr().out
    assert f"{no_card_set} ({nocards['photos']} photos), no labelled cards;" in out
    assert "mean change over the counted labelled sets (F1; false cards per 100 photos), and the judging rule" in out
    verdict = "passes" if not rule_failures(report, str(strict)) else "fails: "
    fewer = report["mean_false_change"][str(strict)]
    assert fewer == labelled["candidates"][str(strict)]["false_change"], "a no-card set has no mean false change"
    assert f"{report['mean_change'][str(strict)]:+.4f}  false {fewer:+.2f}  {verdict}" in out


def strict_copy(shipped: Path, tmp_path: Path) -> Path:
    """A copy of the shipped folder that keeps only its surest boxes: another card F1 and other false cards."""
    strict = tmp_path / "strict"
    shutil.copytree(shipped, strict)
    manifest = json.loads((strict / "cribcam.json").read_text())
    manifest["detector"]["conf"] = 0.9
    (strict / "cribcam.json").write_text(json.dumps(manifest))
    return strict


def test_a_report_only_set_is_judged_but_left_out_of_the_means_and_the_rule(small_set, no_card_set, tmp_path, capsys):
    shipped = models_dir()
    strict = strict_copy(shipped, tmp_path)
    mixed = parse_set(f"{small_set}+{no_card_set}")  # labelled, with other figures than small_set's
    alone = judge(None, [shipped, strict], [small_set], tmp_path / "cache", resamples=50)
    counted = judge(None, [shipped, strict], [small_set, mixed], tmp_path / "cache", resamples=50)
    report = judge(None, [shipped, strict], [small_set], tmp_path / "cache", resamples=50, report_only=[mixed])
    aside = report["sets"][f"{small_set}+{no_card_set}"]
    assert aside["report_only"] is True and report["sets"][str(small_set)]["report_only"] is False
    assert aside["candidates"][str(strict)] == counted["sets"][f"{small_set}+{no_card_set}"]["candidates"][str(strict)]
    assert report["mean_change"] == alone["mean_change"]
    assert report["mean_false_change"] == alone["mean_false_change"] != counted["mean_false_change"], "moved if counted"
    assert rule_failures(report, str(strict)) == rule_failures(alone, str(strict))
    print_report(report)
    heading = f"{small_set}+{no_card_set} ({aside['photos']} photos), for the report only"
    assert heading + " (not in the means or the rule)" in capsys.readouterr().out
    again = small_set.parent / ".." / small_set.parent.name / small_set.name  # the same folder by another path
    assert main([str(shipped), "--sets", str(small_set), "--report-only", str(again)]) == 2
    assert capsys.readouterr().err == f"A set is judged once, counted or reported only, not twice: {again}.\n"
    with pytest.raises(ValueError, match="not twice"):
        judge(None, [shipped], [mixed, parse_set(f"{no_card_set}+{small_set}")], None)


def result_path(result: dict, report: dict) -> Path:
    """The set folder a report's result belongs to."""
    return Path(next(name for name, r in report["sets"].items() if r is result))


def rule_report(labelled: dict, nocards: dict, mean: float) -> dict:
    """A judge report with one candidate "c" on one labelled and one no-card set (baseline "b")."""
    zero = dict.fromkeys(("change", "low", "high", "false_per_100", "false_change", "false_low", "false_high"), 0.0)
    nocards_row = {**zero, "low": -0.5, "high": -0.1, **nocards}  # a no-card set's F1 figures mean nothing
    return {
        "baseline": "b",
        "sets": {
            "cards": {"photos": 9, "labelled": True, "candidates": {"b": zero, "c": {**zero, **labelled}}},
            "nocards": {"photos": 9, "labelled": False, "candidates": {"b": zero, "c": nocards_row}},
        },
        "mean_change": {"b": 0.0, "c": mean},
        "mean_false_change": {"b": 0.0, "c": labelled.get("false_change", 0.0)},
    }


def test_the_judging_rule_names_each_reason_a_candidate_fails(capsys):
    good = {"change": 0.001, "low": -0.001, "high": 0.003, "false_change": -0.2, "false_low": -1.0, "false_high": 0.5}
    assert rule_failures(rule_report(good, {"false_low": -0.2, "false_high": 0.0}, 0.001), "c") == []
    same = rule_report({**good, "false_change": 0.0}, {}, 0.001)
    assert rule_failures(same, "c") == ["false cards not fewer on average (+0.00 per 100 photos)"]
    risen = rule_failures(rule_report(good, {"false_change": 0.17, "false_low": 0.0, "false_high": 0.5}, 0.001), "c")
    assert risen == ["more false cards on nocards (+0.17 per 100 photos)"], "a no-card set's false cards may not rise"
    older = rule_report({**good, "false_change": 0.0}, {}, 0.001)
    del older["mean_false_change"]  # a report written before the judge kept this mean: made again from its sets
    assert rule_failures(older, "c") == ["false cards not fewer on average (+0.00 per 100 photos)"]
    cancel = rule_report(good, {}, 0.001)
    for name, change in (("more", 0.83), ("fewer", 0.17)):  # -1.00 + 0.83 + 0.17: a float's -9.3e-18 unrounded
        rows = {"b": good, "c": {**good, "false_change": change}}
        cancel["sets"][name] = {"photos": 9, "labelled": True, "candidates": rows}
    cancel["sets"]["cards"]["candidates"]["c"]["false_change"] = -1.0
    assert float(np.mean([-1.0, 0.83, 0.17])) < 0, "the case rounding is for"
    assert counted_mean(cancel, "false_change")["c"] == 0.0
    aside = rule_report({**good, "high": -0.0001, "false_low": 0.1}, {}, 0.001)
    assert len(rule_failures(aside, "c")) == 2
    aside["sets"]["cards"]["report_only"] = True  # the means come from the other sets (here given as they were)
    assert rule_failures(aside, "c") == [], "a set judged for the report only is not in the rule"
    assert rule_failures(rule_report(good, {}, 0.0), "c") == ["mean F1 change +0.0000"]
    down = {**good, "low": -0.004, "high": -0.0001}
    assert rule_failures(rule_report(down, {}, 0.001), "c") == ["F1 down on cards [-0.0040, -0.0001]"]
    more = {**good, "false_low": 0.28, "false_high": 2.0}
    assert rule_failures(rule_report(more, {}, 0.001), "c") == ["more false cards on cards [+0.28, +2.00]"]
    fails = rule_failures(rule_report(good, {"false_low": 0.1, "false_high": 0.4}, 0.001), "c")
    assert fails == ["more false cards on nocards [+0.10, +0.40]"]
    nocards_only = rule_report(good, {"false_low": 0.1, "false_high": 0.4}, 0.001)
    del nocards_only["sets"]["cards"]
    nocards_only["mean_change"] = {}
    assert rule_failures(nocards_only, "c") == fails, "with no labelled set there is no mean to judge"
    print_report(nocards_only)
    out = capsys.readouterr().out
    assert "  b" in out and "(the baseline)" in out
    assert out.rstrip().endswith("fails: more false cards on nocards [+0.10, +0.40]"), "a verdict with no mean too"


def test_a_rule_in_f_beta_with_a_recall_guard_says_so_and_fails_recall_lost_past_the_guard(capsys):
    good = {"change": 0.001, "low": -0.001, "high": 0.003, "false_change": -0.2, "false_low": -1.0, "false_high": 0.5}
    report = rule_report({**good, "recall_change": -0.007}, {}, 0.0)
    report.update(beta=0.5, recall_guard=0.007)
    assert rule_failures(report, "c") == ["mean F0.5 change +0.0000"], "a loss of exactly the guard is allowed"
    report["sets"]["cards"]["candidates"]["c"]["recall_change"] = -0.00704  # shown as -0.0070, still past the guard
    assert rule_failures(report, "c")[1:] == ["recall down -0.0070 on cards, past the guard of 0.007"]
    report["sets"]["cards"]["candidates"]["c"].update(recall_change=-0.0071, high=-0.0001)
    assert rule_failures(report, "c") == [
        "mean F0.5 change +0.0000",
        "F0.5 down on cards [-0.0010, -0.0001]",
        "recall down -0.0071 on cards, past the guard of 0.007",
    ]
    del report["recall_guard"]
    assert "recall" not in " ".join(rule_failures(report, "c")), "no guard, no recall test"
    for row in report["sets"]["cards"]["candidates"].values():  # the figures a labelled set's line prints
        row.update(precision=0.99, recall=0.98, f1=0.985, precision_whole_card=0.99)
    print_report({**report, "recall_guard": 0.007})
    out = capsys.readouterr().out
    assert "card P / R, F1, F0.5 and its change, card P by whole card, recall change;" in out
    assert '(F0.5; false cards per 100 photos), and the judging rule (models/README.md, "Stop 67": in F0.5, ' in out
    assert "recall guard 0.007):" in out
    assert "nocards (9 photos), no labelled cards;" in out
    assert "0.9900 / 0.9800  0.9850  +0.0010 [-0.0010, -0.0001]  whole-card P 0.9900  recall -0.0071  false" in out
    old = rule_report({**good, "recall": 0.95}, {}, 0.001)  # a report from before stop 67: no recall change kept
    old["sets"]["cards"]["candidates"]["b"]["recall"] = 0.96
    lost = ["recall down -0.0100 on cards, past the guard of 0.005"]
    assert rule_failures({**old, "recall_guard": 0.005}, "c") == lost
    assert rule_failures({**old, "recall_guard": 0.011}, "c") == []


def test_the_judge_in_f_beta_changes_the_change_and_keeps_the_f1(small_set, tmp_path, capsys):
    shipped = models_dir()
    strict = strict_copy(shipped, tmp_path)
    in_f1 = judge(None, [shipped, strict], [small_set], tmp_path / "cache", resamples=50)
    out = tmp_path / "report.json"
    cache = str(tmp_path / "cache")
    args = [str(shipped), str(strict), "--sets", str(small_set), "--cache", cache, "--resamples", "50"]
    assert main([*args, "--beta", "0.5", "--recall-guard", "0.01", "--json", str(out)]) == 0
    in_half = json.loads(out.read_text())
    assert (in_half["beta"], in_half["recall_guard"], in_f1["beta"], in_f1["recall_guard"]) == (0.5, 0.01, 1.0, None)
    f1_rows, half_rows = in_f1["sets"][str(small_set)]["candidates"], in_half["sets"][str(small_set)]["candidates"]
    for name in (str(shipped), str(strict)):
        assert half_rows[name]["f1"] == f1_rows[name]["f1"], "F1 is reported either way"
        p, r = half_rows[name]["precision"], half_rows[name]["recall"]
        expected = 1.25 * p * r / (0.25 * p + r) if p + r else 0.0
        assert half_rows[name]["f_beta"] == pytest.approx(expected, abs=2e-4)
    expected = half_rows[str(strict)]["f_beta"] - half_rows[str(shipped)]["f_beta"]
    assert half_rows[str(strict)]["change"] == pytest.approx(expected, abs=2e-4) != f1_rows[str(strict)]["change"]
    recall = half_rows[str(strict)]["recall"] - half_rows[str(shipped)]["recall"]
    assert recall < 0, "the strict copy finds fewer cards"
    assert half_rows[str(strict)]["recall_change"] == pytest.approx(recall, abs=2e-4)
    assert f"recall down {half_rows[str(strict)]['recall_change']:+.4f}" in capsys.readouterr().out
    for flag, bad in (("--beta", "0"), ("--beta", "inf"), ("--recall-guard", "-0.1"), ("--recall-guard", "nan")):
        assert main([*args, flag, bad]) == 2
        must = "a number above zero" if flag == "--beta" else "a number zero or more"
        assert capsys.readouterr().err == f"{flag} must be {must} (got {float(bad)}).\n"

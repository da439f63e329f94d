"""Candidate models judged on the same photos, each on its detector's cached boxes, with paired-bootstrap intervals.

Finding corners is most of a photo's time and the same for every candidate with the same detector, so each
photo's boxes are found once per detector (its weights and settings, ``boxes_key``) and cached; each candidate
folder then reads its own detector's boxes with its own classifier, reading settings and calibration, exactly
as ``cribcam eval`` would: the face check, ``cards_from_corners``, the card-level scoring of
``vision.training.evaluate``. Classifier candidates copied from one models folder share its boxes; a detector
candidate gets its own. ``--boxes FOLDER`` makes every candidate read that folder's detector's boxes instead.
A folder whose manifest sets ``detector.unread_zoom_out`` tries a photo whose cached corners read as no card shrunk,
as ``cribcam eval`` does (``CardDetector.read_found``), with its own detector even under ``--boxes``, uncached.
``--float`` reads every folder's float detector export instead of its int8 copy: the int8 rounding moves a set's
card F1 by as much as an hour of training, differently for each detector's weights (and the shipped int8 form was
picked on samples h and j), so judge weights in float and decide on the int8 copy on fresh photos. A set given as
``A+B+C`` pools those sets' photos into one (each part keeps its own cached boxes): one 300-photo sample is too
small to decide an int8 copy (models/README.md, "Stop 38").
Card F1 is pooled over a set's photos; the change against the baseline (the first folder) gets a 95% interval
from a paired bootstrap over photos, and so does the change in false cards per 100 photos (cards read that are not
right). A set with no labelled card (``make_samples.sh``'s no-card photos, ``negatives1280<letter>``) has no F1: it
is judged on its false cards alone and left out of the means. Sets given with ``--report-only`` (the webcam
singles, from stop 57 to stop 61) are judged and printed but left out of the means and the rule. ``--samples dx dy``
stands for stop 62's counted sets, each pooled over those ``make_samples.sh`` samples (``sample_sets``).
``--beta 0.5`` puts each change, its interval, the means and the rule in card F-beta (precision weighing twice as
much as recall) and ``--recall-guard 0.007`` also fails a candidate whose pooled recall on a counted labelled set falls
by more than 0.007: stop 67's rule (models/README.md, "Stop 67").

    python -m vision.training.judge --sets data/heldout1280h data/twins1280h data/unseen1280h \\
        --cache runs/boxes models runs/c35/models runs/d37/models
    python -m vision.training.judge models runs/k62a --cache runs/boxes --samples dx dy
    python -m vision.training.judge runs/k64a/models --cache runs/boxes --samples el em --boxes-only  # boxes ahead

Prints one line per candidate and set (card precision, recall, F1, the change, and card precision by whole card:
the right card read on its own covered corner counted right, as the real photos are scored; the rule does not use
it; with ``--beta`` or ``--recall-guard``, F-beta and the recall change too), the means over the sets the rule counts
and whether each candidate passes the judging rule (``rule_failures``, stop 47's, or stop 67's); ``--json OUT`` writes
every figure.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.card_faces import drop_face_patterns
from vision.detections import Detections
from vision.detector import AFTER_FINDING, CardDetector
from vision.photo_io import Photo, load_photo
from vision.training.evaluate import score_photo, synthetic_photos
from vision.training.quantize import float_copy

SAMPLE_SETS = ("heldout1280", "twins1280", "unseen1280", "webcam1280", "webcamsingles1280", "negatives1280")
"""The sets ``scripts/make_samples.sh`` draws for each sample, all counted by the rule since stop 62."""
SAMPLE_NAME = re.compile(r"[b-z]|[a-z][a-z]")
"""A sample's name, as ``scripts/make_samples.sh`` takes it."""

COUNTS = ("cards_true", "cards_read", "cards_correct", "cards_found", "cards_own_corner")
"""Per-photo counts kept for each candidate: card F1 over any subset of photos is a function of their sums."""


def precision_recall(counts: np.ndarray) -> tuple[float, float]:
    """Pooled card precision and recall from summed ``COUNTS``; 0 where nothing was read or labelled."""
    true, read, correct, found = (float(x) for x in counts[:4])
    return (correct / read if read else 0.0), (found / true if true else 0.0)


def whole_card_precision(counts: np.ndarray) -> float:
    """Pooled card precision from summed ``COUNTS`` with the right card on its own covered corner counted right,
    as a photo labelled by whole card counts it (``vision.training.evaluate``); 0 where nothing was read."""
    read, correct, own = (
        float(counts[COUNTS.index(name)]) for name in ("cards_read", "cards_correct", "cards_own_corner")
    )
    return (correct + own) / read if read else 0.0


def card_fbeta(counts: np.ndarray, beta: float = 1.0) -> float:
    """Pooled card F-beta from summed ``COUNTS`` (true, read, correct, found): recall weighs ``beta`` times as much
    as precision (beta 0.5: precision twice as much); 0 when nothing was read or labelled."""
    precision, recall = precision_recall(counts)
    weighted = beta * beta * precision + recall
    return (1 + beta * beta) * precision * recall / weighted if weighted else 0.0


def card_f1(counts: np.ndarray) -> float:
    """Pooled card F1 from summed ``COUNTS``; 0 when nothing was read or labelled."""
    return card_fbeta(counts, 1.0)


def pooled_fbeta(counts: np.ndarray, beta: float = 1.0) -> float:
    """Card F-beta pooled over a photos x ``COUNTS`` array."""
    return card_fbeta(counts.sum(axis=0), beta)


def pooled_f1(counts: np.ndarray) -> float:
    """Card F1 pooled over a photos x ``COUNTS`` array."""
    return pooled_fbeta(counts, 1.0)


def score_name(beta: float) -> str:
    """What a report's change measures: "F1", or "F0.5" for beta 0.5."""
    return f"F{beta:g}"


def false_per_100(counts: np.ndarray) -> float:
    """Cards read that are not right, per 100 photos of a photos x ``COUNTS`` array (0 for no photos)."""
    read, correct = COUNTS.index("cards_read"), COUNTS.index("cards_correct")
    return 100.0 * float((counts[:, read] - counts[:, correct]).sum()) / len(counts) if len(counts) else 0.0


def paired_interval(
    candidate: np.ndarray,
    baseline: np.ndarray,
    resamples: int = 2000,
    seed: int = 0,
    statistic: Callable[[np.ndarray], float] = pooled_f1,
) -> tuple[float, float, float]:
    """The change in ``statistic`` (candidate - baseline; card F1 unless told) and its 95% paired-bootstrap
    interval over photos.

    ``candidate`` and ``baseline`` are photos x ``COUNTS`` arrays for the same photos in the same order."""
    if candidate.shape != baseline.shape:
        raise ValueError("The candidate and the baseline must be counted on the same photos.")
    change = statistic(candidate) - statistic(baseline)
    rng = np.random.default_rng(seed)
    n = len(candidate)
    picks = rng.integers(0, n, size=(resamples, n))
    diffs = np.array([statistic(candidate[p]) - statistic(baseline[p]) for p in picks])
    low, high = np.percentile(diffs, [2.5, 97.5])
    return change, float(low), float(high)


def boxes_key(models_dir: Path) -> str:
    """A short digest of the detector weights and the manifest's detector settings: cached boxes are found again
    when either changes, not when only the classifier, its calibration or the run records do."""
    manifest = json.loads((models_dir / "cribcam.json").read_text())
    digest = hashlib.sha256((models_dir / manifest["detector"]["onnx"]).read_bytes())
    finding = {k: v for k, v in manifest["detector"].items() if k not in AFTER_FINDING}
    digest.update(json.dumps(finding, sort_keys=True).encode())
    return digest.hexdigest()[:12]


def cache_path(cache: Path, key: str, part: Path, photo: Path) -> Path:
    """Where a photo of set folder ``part`` keeps the boxes of the detector ``key`` (``boxes_key``) under ``cache``."""
    return cache / key / part.name / f"{photo.stem}.npz"


def cached_corners(detector: CardDetector, rgb: np.ndarray, cache: Path | None) -> Detections:
    """``detector.find_corners(rgb)``, read from ``cache`` (an .npz) when it is there, written there when not."""
    if cache is not None and cache.is_file():
        saved = np.load(cache)
        return Detections(saved["xyxy"], saved["confidence"])
    corners = detector.find_corners(rgb)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        part = cache.with_name(f"{cache.stem}.part.npz")  # written whole, then renamed: no half file if stopped
        np.savez(part, xyxy=corners.xyxy, confidence=corners.confidence)
        part.replace(cache)
    return corners


def read_as_eval(reader: CardDetector, loaded: Photo, corners: Detections) -> Detections:
    """A photo's found ``corners`` read as ``cribcam eval`` reads them: ``reader``'s classifier and settings, then
    the face check, in the photo's own pixels."""
    return drop_face_patterns(reader.read_found(loaded.rgb, corners).scaled(*loaded.scale))


SetParts = Path | tuple[Path, ...]
"""One judged set: a 'cribcam synth' folder, or several whose photos are pooled."""


def sample_sets(samples: list[str], data: Path = Path("data")) -> list[SetParts]:
    """``SAMPLE_SETS``, each pooled over the named samples: ``["dx", "dy"]`` gives
    ``data/heldout1280dx+data/heldout1280dy`` and so on.

    >>> [set_name(s) for s in sample_sets(["dx", "dy"], Path("d"))][:2]
    ['d/heldout1280dx+d/heldout1280dy', 'd/twins1280dx+d/twins1280dy']
    """
    bad = [name for name in samples if not SAMPLE_NAME.fullmatch(name)]
    if bad:
        raise ValueError(f"A sample is named by one letter from b to z, or two from aa to zz (got {', '.join(bad)}).")
    if not samples:
        return []
    return [parse_set("+".join(str(data / f"{kind}{name}") for name in samples)) for kind in SAMPLE_SETS]


def set_parts(dataset: SetParts) -> tuple[Path, ...]:
    """The folders of a judged set, one or several."""
    return dataset if isinstance(dataset, tuple) else (dataset,)


def set_name(dataset: SetParts) -> str:
    """How the report names a judged set: its folder, or its folders joined by "+"."""
    return "+".join(str(part) for part in set_parts(dataset))


def parse_set(text: str) -> SetParts:
    """``A+B+C`` on the command line: the photos of three sets pooled; a plain folder stays one set."""
    parts = tuple(Path(part) for part in text.split("+"))
    return parts if len(parts) > 1 else parts[0]


def cache_boxes(folders: list[Path], sets: list[SetParts], cache: Path, limit: int = 300) -> dict[str, int]:
    """Find and cache each folder's detector boxes on every photo the judge would read, reading no card, so that a
    candidate's boxes are ready before any figure of it is seen; photos found now, by ``boxes_key``."""
    found: dict[str, int] = {}
    for folder in folders:
        key, detector = boxes_key(folder), None
        if key in found:  # another folder with the same detector: its boxes are the ones just found
            continue
        found[key] = 0
        for dataset in sets:
            for part in set_parts(dataset):
                for photo in synthetic_photos(part, "val", limit):
                    where = cache_path(cache, key, part, photo.path)
                    if where.is_file():
                        continue
                    detector = detector or CardDetector(folder)
                    cached_corners(detector, load_photo(photo.path).rgb, where)
                    found[key] += 1
    return found


def count_set(
    dataset: SetParts,
    finders: list[tuple[str, CardDetector]],
    readers: list[CardDetector],
    cache: Path | None,
    limit: int,
) -> np.ndarray:
    """Readers x photos x ``COUNTS`` for the labelled photos of one synthetic set (its val split, ``limit`` photos
    of each part when pooled); reader ``r`` reads the boxes of ``finders[r]`` (a ``boxes_key`` and its detector)."""
    photos = [(part, photo) for part in set_parts(dataset) for photo in synthetic_photos(part, "val", limit)]
    counts = np.zeros((len(readers), len(photos), len(COUNTS)), np.int64)
    for p, (part, photo) in enumerate(photos):
        loaded = load_photo(photo.path)
        found: dict[str, Detections] = {}
        for r, reader in enumerate(readers):
            key, finder = finders[r]
            if key not in found:
                where = cache_path(cache, key, part, photo.path) if cache is not None else None
                found[key] = cached_corners(finder, loaded.rgb, where)
            read = read_as_eval(reader, loaded, found[key])
            tally = score_photo(
                read,
                photo.boxes,
                photo.class_ids,
                calibration=reader.manifest.calibration,
                corner_quads=photo.corner_quads,
                pixel_scale=loaded.scale[0],
            )
            counts[r, p] = [getattr(tally, name) for name in COUNTS]
    return counts


def float_form(models: Path, out: Path) -> Path:
    """``models`` itself when its detector runs in float, else a copy at ``out`` that runs its float export."""
    manifest = json.loads((models / "cribcam.json").read_text())
    return float_copy(models, out) if "int8" in manifest["detector"] else models


def judge(
    boxes: Path | None,
    folders: list[Path],
    sets: list[SetParts],
    cache: Path | None,
    limit: int = 300,
    resamples: int = 2000,
    in_float: bool = False,
    report_only: list[SetParts] | None = None,
    beta: float = 1.0,
    recall_guard: float | None = None,
) -> dict:
    """Every folder's card F1 on every set, and each candidate's change against ``folders[0]`` with its interval.

    The change is in card F-beta (``beta``; F1 unless told) and the rule takes it; ``recall_guard`` adds to the rule
    that no counted labelled set's pooled recall falls by more than that. Both are written into the report.

    Each folder reads its own detector's boxes, or with ``boxes`` (a models folder) that folder's; ``in_float``
    runs every detector's float export instead of its int8 copy (the report still names the folders given).
    ``report_only`` sets are judged after ``sets`` and marked so, outside the means and the rule. A set given twice
    (in either list, by any path to the same folders) raises ``RepeatedSets``."""
    report_only = report_only or []
    twice = repeated([*sets, *report_only])
    if twice:
        raise RepeatedSets(f"A set is judged once, counted or reported only, not twice: {', '.join(twice)}.")
    if in_float:
        with tempfile.TemporaryDirectory() as tmp:
            floats = [float_form(f, Path(tmp) / str(i)) for i, f in enumerate(folders)]
            float_boxes = float_form(boxes, Path(tmp) / "boxes") if boxes is not None else None
            report = judge(
                float_boxes,
                floats,
                sets,
                cache,
                limit,
                resamples,
                report_only=report_only,
                beta=beta,
                recall_guard=recall_guard,
            )
        names = {str(f): str(g) for f, g in zip(floats, folders, strict=True)}
        for result in report["sets"].values():
            result["candidates"] = {names[k]: v for k, v in result["candidates"].items()}
        for means in ("mean_change", "mean_false_change"):
            report[means] = {names[k]: v for k, v in report[means].items()}
        report.update(baseline=str(folders[0]), detectors="float", boxes=str(boxes) if boxes else "each folder's own")
        return report
    readers = [CardDetector(folder) for folder in folders]
    if boxes is None:
        finders = [(boxes_key(folder), reader) for folder, reader in zip(folders, readers, strict=True)]
    else:
        finders = [(boxes_key(boxes), CardDetector(boxes))] * len(folders)
    report: dict = {
        "boxes": str(boxes) if boxes else "each folder's own",
        "baseline": str(folders[0]),
        "detectors": "as shipped",
        "beta": beta,
        "recall_guard": recall_guard,
        "sets": {},
    }
    score = functools.partial(pooled_fbeta, beta=beta)
    for dataset, aside in [*((d, False) for d in sets), *((d, True) for d in report_only)]:
        counts = count_set(dataset, finders, readers, cache, limit)
        rows = {}
        _, base_recall = precision_recall(counts[0].sum(axis=0))
        for folder, mine in zip(folders, counts, strict=True):
            change, low, high = paired_interval(mine, counts[0], resamples, statistic=score)
            more, fewest, most = paired_interval(mine, counts[0], resamples, statistic=false_per_100)
            totals = mine.sum(axis=0)
            precision, recall = precision_recall(totals)
            rows[str(folder)] = {
                "f1": round(card_f1(totals), 4),
                "f_beta": round(card_fbeta(totals, beta), 4),
                "precision": round(precision, 4),
                "recall": round(recall, 4),
                "recall_change": recall - base_recall,
                "precision_whole_card": round(whole_card_precision(totals), 4),
                "change": change,
                "low": low,
                "high": high,
                "false_per_100": round(false_per_100(mine), 2),
                "false_change": more,
                "false_low": fewest,
                "false_high": most,
            }
        labelled = bool(counts[0, :, COUNTS.index("cards_true")].sum())
        report["sets"][set_name(dataset)] = {
            "photos": int(counts.shape[1]),
            "labelled": labelled,
            "report_only": aside,
            "candidates": rows,
        }
    report["mean_change"] = counted_mean(report, "change")
    report["mean_false_change"] = counted_mean(report, "false_change")
    return report


def repeated(sets: list[SetParts]) -> list[str]:
    """The names of the sets given more than once, compared by their folders' resolved paths (order kept)."""
    seen, twice = set(), []
    for dataset in sets:
        key = tuple(sorted(str(p.resolve()) for p in set_parts(dataset)))
        if key in seen:
            twice.append(set_name(dataset))
        seen.add(key)
    return twice


class RepeatedSets(ValueError):
    """A set given more than once to ``judge``; its message is the one sentence the command line prints."""


def counted(result: dict) -> bool:
    """Whether a set's result counts in the means and the rule (not one judged for the report only)."""
    return not result.get("report_only", False)


def counted_mean(report: dict, figure: str) -> dict[str, float]:
    """Each folder's mean ``figure`` over the counted labelled sets (no-card sets have no F1); empty if none.

    Rounded to 9 places, so that changes that cancel give 0 and not a float's -3e-17."""
    results = [r for r in report["sets"].values() if counted(r) and r.get("labelled", True)]
    if not results:
        return {}
    return {
        f: round(float(np.mean([r["candidates"][f][figure] for r in results])), 9) for f in results[0]["candidates"]
    }


def recall_change(report: dict, result: dict, folder: str) -> float:
    """``folder``'s change in pooled recall on a set's ``result`` against the baseline (a report written before stop
    67 has none kept: made from the rounded recalls)."""
    row = result["candidates"][folder]
    if "recall_change" in row:
        return row["recall_change"]
    return row["recall"] - result["candidates"][report["baseline"]]["recall"]


def rule_failures(report: dict, folder: str) -> list[str]:
    """Why ``folder`` fails the judging rule of models/README.md ("Stop 47", or "Stop 67" for a report in F-beta or
    with a recall guard), one phrase a reason; none if it passes.

    Over the sets the rule counts (``counted``), a candidate passes when its mean card F1 change over the labelled
    sets is above zero, no labelled set's F1 interval lies wholly below zero, no set's interval of its change in false
    cards per 100 photos (no-card sets too) lies wholly above zero, its mean change in false cards over the labelled
    sets is below zero, and no no-card set reads more false cards (each such set on its own: stricter than stop 47's
    pooled count when there are several). The rule's last part, no slower on the 12 MP photo, is
    ``bench/bench_models.py``'s. With no labelled set counted, a candidate is judged on its false cards alone.
    A report judged in F-beta (its ``beta``, stop 67) has its changes in F-beta; one with a ``recall_guard`` also
    fails a candidate whose pooled recall on a counted labelled set falls by more than the guard."""
    reasons = []
    name_of_score = score_name(report.get("beta", 1.0))
    guard = report.get("recall_guard")
    mean = report["mean_change"].get(folder)
    if mean is not None and mean <= 0:
        reasons.append(f"mean {name_of_score} change {mean:+.4f}")
    means = report["mean_false_change"] if "mean_false_change" in report else counted_mean(report, "false_change")
    fewer = means.get(folder)  # an older report has no false-card mean: made again from its sets
    if fewer is not None and fewer >= 0:
        reasons.append(f"false cards not fewer on average ({fewer:+.2f} per 100 photos)")
    for name, result in report["sets"].items():
        if not counted(result):
            continue
        row = result["candidates"][folder]
        labelled = result.get("labelled", True)
        if labelled and row["high"] < 0:
            reasons.append(f"{name_of_score} down on {name} [{row['low']:+.4f}, {row['high']:+.4f}]")
        if labelled and guard is not None:
            lost = recall_change(report, result, folder)
            if lost < -guard:
                reasons.append(f"recall down {lost:+.4f} on {name}, past the guard of {guard:g}")
        if row["false_low"] > 0:
            reasons.append(f"more false cards on {name} [{row['false_low']:+.2f}, {row['false_high']:+.2f}]")
        elif not labelled and row["false_change"] > 0:
            reasons.append(f"more false cards on {name} ({row['false_change']:+.2f} per 100 photos)")
    return reasons


def not_found(models_folders: list[Path], sets: list[SetParts]) -> str | None:
    """One sentence naming the folders that are not a models folder or a 'cribcam synth' set with a val split."""
    missing = [str(p) for p in models_folders if not (p / "cribcam.json").is_file()]
    missing += [str(p) for s in sets for p in set_parts(s) if not (p / "images" / "val").is_dir()]
    return f"Not a models folder or a 'cribcam synth' set: {', '.join(missing)}." if missing else None


def print_report(report: dict) -> None:
    name_of_score = score_name(report.get("beta", 1.0))
    weighed = report.get("beta", 1.0) != 1.0 or report.get("recall_guard") is not None
    for dataset, result in report["sets"].items():
        detectors = " (float detectors)" if report.get("detectors") == "float" else ""
        what = "card P / R, F1 and its change, card P by whole card"
        if weighed:
            what = f"card P / R, F1, {name_of_score} and its change, card P by whole card, recall change"
        if not result.get("labelled", True):
            what = "no labelled cards"
        only = "" if counted(result) else ", for the report only (not in the means or the rule)"
        print(
            f"{dataset} ({result['photos']} photos){detectors}{only}, {what}; false cards per 100 photos and their "
            f"change; against {report['baseline']}:"
        )
        for folder, row in result["candidates"].items():
            f1 = (
                f"{row['precision']:.4f} / {row['recall']:.4f}  {row['f1']:.4f}  "
                + (f"{name_of_score} {row['f_beta']:.4f}  " if weighed and "f_beta" in row else "")
                + f"{row['change']:+.4f} [{row['low']:+.4f}, {row['high']:+.4f}]  "
                f"whole-card P {row['precision_whole_card']:.4f}  "
                + (f"recall {recall_change(report, result, folder):+.4f}  " if weighed else "")
                if result.get("labelled", True)
                else ""
            )
            print(
                f"  {folder:40s} {f1}false {row['false_per_100']:.2f} "
                f"{row['false_change']:+.2f} [{row['false_low']:+.2f}, {row['false_high']:+.2f}]"
            )
    folders = list(next(iter(report["sets"].values()))["candidates"]) if report["sets"] else []
    means, fewer = report["mean_change"], report.get("mean_false_change", {})
    lead = f"mean change over the counted labelled sets ({name_of_score}; false cards per 100 photos), and "
    print(f"{lead if means else ''}the judging rule ({rule_title(report)}):")
    for folder in folders:
        mean = f"{means[folder]:+.4f}  " if folder in means else ""
        mean += f"false {fewer[folder]:+.2f}  " if folder in fewer else ""
        if folder == report["baseline"]:
            verdict = "(the baseline)"
        else:
            reasons = rule_failures(report, folder)
            verdict = "fails: " + "; ".join(reasons) if reasons else "passes"
        print(f"  {folder:40s} {mean}{verdict}")


def rule_title(report: dict) -> str:
    """Where a report's rule is written, with what stop 67 may add to stop 47's:
    'models/README.md, "Stop 67": in F0.5, recall guard 0.007', or 'models/README.md, "Stop 47"'."""
    terms = [f"in {score_name(report['beta'])}"] if report.get("beta", 1.0) != 1.0 else []
    if report.get("recall_guard") is not None:
        terms.append(f"recall guard {report['recall_guard']:g}")
    return f'models/README.md, "Stop 67": {", ".join(terms)}' if terms else 'models/README.md, "Stop 47"'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.judge", description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="models folders; the first is the baseline")
    parser.add_argument(
        "--boxes",
        type=Path,
        help="a models folder whose detector finds every candidate's boxes (default: each its own)",
    )
    parser.add_argument(
        "--sets", nargs="+", type=parse_set, default=[], help="'cribcam synth' folders (val split); A+B pools two"
    )
    parser.add_argument(
        "--samples",
        nargs="+",
        default=[],
        metavar="NAME",
        help="make_samples.sh samples (dx dy): their six sets, each pooled over them, added to --sets",
    )
    parser.add_argument(
        "--report-only",
        nargs="+",
        type=parse_set,
        default=[],
        help="more sets, judged and printed but left out of the means and the rule (e.g. the webcam singles)",
    )
    parser.add_argument("--cache", type=Path, help="a folder for the found boxes (reused by later calls)")
    parser.add_argument(
        "--float", dest="in_float", action="store_true", help="run each detector's float export, not its int8 copy"
    )
    parser.add_argument("--limit", type=int, default=300, help="photos per set (per part of a pooled set)")
    parser.add_argument("--resamples", type=int, default=2000)
    parser.add_argument("--json", type=Path, help="write the report here too")
    parser.add_argument(
        "--beta",
        type=float,
        default=1.0,
        help="judge changes in card F-beta: 0.5 weighs precision twice as much as recall (default 1: F1)",
    )
    parser.add_argument(
        "--recall-guard",
        type=float,
        metavar="DROP",
        help="the rule also fails a candidate whose recall on a counted labelled set falls by more than DROP",
    )
    parser.add_argument(
        "--boxes-only",
        action="store_true",
        help="only find and cache each folder's detector boxes (needs --cache); read no card, judge nothing",
    )
    args = parser.parse_args(argv)
    if not 0 < args.beta < np.inf:
        print(f"--beta must be a number above zero (got {args.beta}).", file=sys.stderr)
        return 2
    if args.recall_guard is not None and not 0 <= args.recall_guard < np.inf:
        print(f"--recall-guard must be a number zero or more (got {args.recall_guard}).", file=sys.stderr)
        return 2
    try:
        args.sets = [*args.sets, *sample_sets(args.samples)]
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    if not args.sets:
        print("Name the sets to judge: --sets FOLDER ... or --samples NAME ...", file=sys.stderr)
        return 2
    named = [args.boxes, *args.folders] if args.boxes else args.folders
    missing = not_found(named, [*args.sets, *args.report_only])
    if missing:
        print(missing, file=sys.stderr)
        return 2
    if args.boxes_only:
        if args.cache is None or args.in_float:
            print("--boxes-only fills a box cache: give --cache FOLDER, and leave out --float.", file=sys.stderr)
            return 2
        finders = [args.boxes] if args.boxes else args.folders  # under --boxes, the judge reads that folder's alone
        for key, n in cache_boxes(finders, [*args.sets, *args.report_only], args.cache, args.limit).items():
            print(f"{key}: boxes found for {n} more photos, cached in {args.cache / key}")
        return 0
    try:
        report = judge(
            args.boxes,
            args.folders,
            args.sets,
            args.cache,
            args.limit,
            args.resamples,
            in_float=args.in_float,
            report_only=args.report_only,
            beta=args.beta,
            recall_guard=args.recall_guard,
        )
    except RepeatedSets as error:
        print(error, file=sys.stderr)
        return 2
    print_report(report)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``cribcam eval``: the shipped models on real photos (held-out split), synthetic held-out decks, speed.

``--edje test`` adds the edje photos (a second real deck, labelled by whole card): card precision and
recall, false cards per photo and each false card with its confidence. ``--negatives FOLDER`` adds pictures
with no cards in them, where every card read is false (false cards per 100 pictures). Card confidences are
calibrated when the manifest holds a calibration (``cribcam calibrate``); each real set's calibration error
is printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="measure the models on real photos and synthetic held-out decks")
    p.add_argument(
        "--models", type=Path, help="folder with cribcam.json (default: CRIBCAM_MODELS, else the shipped models)"
    )
    p.add_argument("--backend", default="onnx", choices=("onnx", "ultralytics"))
    p.add_argument("--real", type=Path, help="folder with labels.json (default: ../shared/real_photos/bidly)")
    p.add_argument(
        "--split",
        choices=("heldout", "train", "all"),
        default="heldout",
        help="which real photos: the held-out deals 4-7 (default), the fine-tuning deals 1-3, or all",
    )
    p.add_argument(
        "--edje",
        nargs="+",
        default=[],
        choices=("test", "train", "all"),
        help="also the edje photos (whole-card labels) of these splits: report on test, choose settings on train",
    )
    p.add_argument(
        "--edje-root", type=Path, help="folder with the edje labels.json (default: ../shared/real_photos/edje)"
    )
    p.add_argument(
        "--no-face-check",
        action="store_true",
        help="keep corners that vision.card_faces would drop (the reader before the face check)",
    )
    p.add_argument(
        "--synthetic",
        type=Path,
        nargs="+",
        default=[],
        metavar="DATASET",
        help="'cribcam synth' datasets whose val splits (held-out decks) to use; each is a set named by its folder",
    )
    p.add_argument(
        "--negatives",
        type=Path,
        nargs="+",
        default=[],
        metavar="FOLDER",
        help="folders of pictures with no cards in them (every card read is false; scripts/get_negative_photos.sh)",
    )
    p.add_argument("--limit", type=int, default=200, help="synthetic images to use from each dataset")
    p.add_argument("--out", type=Path, default=Path("runs/eval"), help="folder for eval.json and the plots")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json
    from vision.card_faces import drop_face_patterns
    from vision.detector import CardDetector
    from vision.training.evaluate import (
        evaluate_photos,
        photos_without_cards,
        plot_confusion,
        plot_precision_recall,
        synthetic_photos,
        write_report,
    )
    from vision.training.real_photos import HELDOUT_PHOTOS, TRAIN_PHOTOS, load_card_photos, load_photos

    detector = CardDetector(args.models, backend=args.backend)
    names = {"heldout": HELDOUT_PHOTOS, "train": TRAIN_PHOTOS, "all": None}[args.split]
    report: dict = {"backend": args.backend, "face_check": not args.no_face_check}
    corner_filter = None if args.no_face_check else drop_face_patterns
    sets = {f"real_{args.split}": load_photos(args.real, names)}
    for split in args.edje:
        sets[f"edje_{split}"] = load_card_photos(args.edje_root, split)
    for dataset in args.synthetic:
        if not (dataset / "images" / "val").is_dir():
            print(f"{dataset} is not a 'cribcam synth' dataset (no images/val folder).", file=sys.stderr)
            return 2
        sets[f"synthetic_{dataset.name}"] = synthetic_photos(dataset, "val", args.limit)
    for folder in args.negatives:
        photos = photos_without_cards(folder, args.limit)
        if not photos:
            print(f"{folder} holds no JPEG, PNG or WebP pictures.", file=sys.stderr)
            return 2
        named = folder.parent.parent if folder.parts[-2:] == ("images", "val") else folder  # a synth set's photos
        sets[f"negatives_{named.name}"] = photos
    args.out.mkdir(parents=True, exist_ok=True)
    for name, photos in sets.items():
        total, rows = evaluate_photos(detector, photos, corner_filter=corner_filter)
        if name.startswith("negatives"):  # no labels: only the false cards count
            report[name] = {"photos": len(photos), **total.summary(), "per_photo": []}
            continue
        real = name.startswith(("real", "edje"))
        report[name] = {"photos": len(photos), **total.summary(), "per_photo": rows if real else []}
        if real:
            plot_precision_recall(total, args.out / f"{name}_card_pr.png", f"{name}: card precision/recall", cards=True)
        else:
            del report[name]["false_cards"]  # hundreds on a synthetic set; the count stays
        if not name.startswith("edje"):
            plot_confusion(total, args.out / f"{name}_confusion.png", f"{name}: corners, true vs read")
            plot_precision_recall(total, args.out / f"{name}_pr.png", f"{name}: corner precision/recall")
    write_report(report, args.out)
    if args.json:
        print_json(report)
        return 0
    width = max(16, *map(len, sets))
    heads = (
        ("corner P", 9),
        ("corner R", 9),
        ("located", 8),
        ("card P", 7),
        ("card R", 7),
        ("whole P", 7),  # card precision by whole card (the right card on its own covered corner counted right)
        ("false/ph", 8),
    )
    print(f"{'set':<{width}} {'photos':>6} " + " ".join(f"{h:>{w}}" for h, w in heads) + f" {'ms':>7}")
    for name in sets:
        r = report[name]
        print(
            f"{name:<{width}} {r['photos']:>6} {_f(r['corner_precision'])} {_f(r['corner_recall'])} "
            f"{_f(r['corner_located_recall'], 8)} {_f(r['card_precision'], 7)} {_f(r['card_recall'], 7)} "
            f"{_f(r['card_precision_whole_card'], 7)} {_f(r['false_cards_per_photo'], 8)} "
            f"{r['ms_per_photo_median'] or 0:>7.0f}"
        )
    for name in sets:
        if name.startswith("negatives"):
            false = report[name]["false_cards"]
            print(
                f"{name}: {len(false)} false cards in {len(sets[name])} pictures with no cards "
                f"({100 * len(false) / len(sets[name]):.1f} per 100)"
            )
            _print_false_cards(false)
    for name in sets:
        sizes = report[name]["corner_recall_by_px"]
        if sizes:
            cells = ", ".join(f"{k} px {_f(v['recall'], 0).strip()} ({v['corners']})" for k, v in sizes.items())
            print(f"{name} corner recall by corner size: {cells}")
    for name in sets:
        if name.startswith(("real", "edje")):
            curve = ", ".join(
                f">={c['threshold']}: {_f(c['precision'], 0).strip()}/{_f(c['recall'], 0).strip()}"
                for c in report[name]["card_curve"]
            )
            print(f"{name} card P/R by confidence: {curve}")
            print(f"{name} card calibration error: {_f(report[name]['card_calibration_error'], 0).strip()}")
            _print_false_cards(report[name]["false_cards"])
    print(f"written: {args.out / 'eval.json'} and plots")
    return 0


def _print_false_cards(cards: list[dict]) -> None:
    for card in cards:
        print(f"  false card {card['card']} ({card['confidence']:.2f}) in {card['photo']} at {card['box']}")


def _f(value: float | None, width: int = 9) -> str:
    return f"{'-' if value is None else f'{value:.3f}':>{width}}"

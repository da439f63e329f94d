"""What the false cards of a synthetic set are: misreads, covered corners, poor boxes, decoys, or elsewhere.

``card_losses.py``'s counterpart for precision. Each card the reader reports that is not right (none of its
corners lies on a labelled corner of that card, IoU >= 0.5) falls in the first of these that holds, judged on
its corners:
  misread (a corner lies on a labelled corner of another card, IoU >= 0.5; named by ``misread_kind``),
  own corner (the scene holds that card and a corner overlaps the bounds of one of its own corner quads, IoU >=
  0.3: the right card, read where its index is but too covered to be labelled, or labelled by its visible part
  only; a photo scored by whole card, as the real ones are, would count it right),
  poor box (a corner overlaps a labelled corner, IoU 0.1-0.5), on a decoy (a corner overlaps print or a card
  face the scene recorded, IoU >= 0.3), elsewhere (none of these).
Each kind's median confidence and how many were read from one corner alone are printed beside it; the misreads
are also counted by the scene's deck, with each deck's commonest. Last, how many cards the app flags to check
(as the app flags them: under the calibration's ``check_below``, or without one under ``LOW_CONFIDENCE``), false and
all, and the precision of the cards it does not flag.

    python scripts/false_cards.py data/heldout1280h data/unseen1280h [--models X] [--cache runs/boxes]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from card_losses import misread_kind  # noqa: E402

from scorer.cards import Card  # noqa: E402
from vision.cards_from_corners import LOW_CONFIDENCE, cards_from_corners  # noqa: E402
from vision.detections import box_iou  # noqa: E402
from vision.detector import CardDetector  # noqa: E402
from vision.photo_io import load_photo  # noqa: E402
from vision.training.classifier_data import decoys_of, read_scene  # noqa: E402
from vision.training.evaluate import own_corner, synthetic_photos  # noqa: E402
from vision.training.judge import boxes_key, cached_corners, read_as_eval  # noqa: E402

KINDS = ("misread", "own corner", "poor box", "on a decoy", "elsewhere")


def false_kind(label_ious: np.ndarray, decoy_ious: np.ndarray, own: bool = False) -> str:
    """The kind of one false card from its corners' IoUs with the labelled corners and with the decoys (corners x
    labels, x decoys; either may have no columns), and whether it lies on its own covered corner
    (``vision.training.evaluate.own_corner``)."""
    best = float(label_ious.max()) if label_ious.size else 0.0
    if best >= 0.5:
        return "misread"
    if own:
        return "own corner"
    if best >= 0.1:
        return "poor box"
    if decoy_ious.size and float(decoy_ious.max()) >= 0.3:
        return "on a decoy"
    return "elsewhere"


def photo_false_cards(
    detector: CardDetector,
    photo,
    decoys: np.ndarray,
    cache: Path | None,
    quads: dict[int, np.ndarray] | None = None,
) -> tuple[list[dict], Counter]:
    """The false cards of one labelled photo, read as ``cribcam eval`` reads it (kind, card, confidence,
    corners, and for a misread the card whose corner it lay on), and the cards read: "read", "alone" (read
    from one corner), "flagged" (to check)."""
    loaded = load_photo(photo.path)
    read = read_as_eval(detector, loaded, cached_corners(detector, loaded.rgb, cache))
    if not len(read):
        return [], Counter()
    found = cards_from_corners(read, calibration=detector.manifest.calibration, pixel_scale=loaded.scale[0])
    to_labels = box_iou(read.xyxy, photo.boxes) if len(photo.boxes) else np.zeros((len(read), 0), np.float32)
    to_decoys = box_iou(read.xyxy, decoys) if len(decoys) else np.zeros((len(read), 0), np.float32)
    out = []
    for row, members in enumerate(found.members):
        card = int(found.cards.class_id[row])
        mine = to_labels[list(members)]
        if (mine[:, photo.class_ids == card] >= 0.5).any():
            continue
        own = own_corner(read.xyxy[list(members)], mine, quads.get(card) if quads else None)
        kind = false_kind(mine, to_decoys[list(members)], own)
        false = {
            "kind": kind,
            "card": card,
            "confidence": float(found.cards.confidence[row]),
            "corners": len(members),
            "flagged": row in found.to_confirm,
        }
        if kind == "misread":
            false["true"] = int(photo.class_ids[np.unravel_index(mine.argmax(), mine.shape)[1]])
        out.append(false)
    alone = sum(len(m) == 1 for m in found.members)
    return out, Counter(read=len(found.members), alone=alone, flagged=len(found.to_confirm))


def check_below(detector: CardDetector) -> float:
    """The confidence under which the app asks to check a card (the calibration's, else ``LOW_CONFIDENCE``)."""
    calibration = detector.manifest.calibration
    return calibration.check_below if calibration is not None else LOW_CONFIDENCE


def summary(falses: list[dict], read: Counter, check: float | None = None) -> str:
    """A line for the cards read and one a kind: count, median confidence, how many read from one corner; the
    commonest misreads, by deck too; and, given the app's ``check`` threshold, the cards flagged to check."""
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for false in falses:
        by_kind[false["kind"]].append(false)
    alone = sum(f["corners"] == 1 for f in falses)
    lines = [
        f"{len(falses)} false cards of {read['read']} read; from one corner alone {alone} false of {read['alone']}"
    ]
    for kind in KINDS:
        rows = by_kind.get(kind, [])
        if rows:
            median = float(np.median([r["confidence"] for r in rows]))
            single = sum(r["corners"] == 1 for r in rows)
            lines.append(f"  {kind}: {len(rows)}, median confidence {median:.2f}, {single} from one corner")
    rows = by_kind.get("misread", [])
    kinds = [misread_kind(Card.from_index(r["true"]), Card.from_index(r["card"])) for r in rows]
    if kinds:
        lines.append("  most common misreads: " + ", ".join(f"{k} {n}" for k, n in Counter(kinds).most_common(8)))
    by_deck: dict[str, Counter] = defaultdict(Counter)
    for r, kind in zip(rows, kinds, strict=True):
        by_deck[r.get("deck") or "?"][kind] += 1
    if by_deck and set(by_deck) != {"?"}:  # sets drawn before scenes named their deck have nothing to say here
        ranked = sorted(by_deck.items(), key=lambda item: -item[1].total())
        lines.append(
            "  misreads by deck (commonest): "
            + ", ".join(f"{deck} {c.total()} ({kind} {n})" for deck, c in ranked for kind, n in c.most_common(1))
        )
    if check is not None:
        false_flagged = sum(bool(f.get("flagged")) for f in falses)
        stated = read["read"] - read["flagged"]
        right = stated - (len(falses) - false_flagged)
        lines.append(
            f"  flagged to check (under {check:g}): {false_flagged} of the {len(falses)} false cards, "
            f"{read['flagged']} of the {read['read']} read; precision of the cards not flagged "
            + (f"{right / stated:.4f} ({right} of {stated})" if stated else "-")
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="'cribcam synth' folders (their val split)")
    parser.add_argument("--models", type=Path, default=REPO / "models", help="models folder (default: shipped)")
    parser.add_argument("--limit", type=int, default=300, help="photos per set (default 300)")
    parser.add_argument("--cache", type=Path, help="the judge's box cache (python -m vision.training.judge --cache)")
    args = parser.parse_args()
    bad = [str(s) for s in args.sets if not (s / "images" / "val").is_dir()]
    if bad:
        print(f"Not a 'cribcam synth' set with a val split: {', '.join(bad)}.", file=sys.stderr)
        return 2
    detector = CardDetector(args.models)
    cache = args.cache / boxes_key(args.models) if args.cache else None
    for folder in args.sets:
        falses: list[dict] = []
        read: Counter = Counter()
        for photo in synthetic_photos(folder, "val", args.limit):
            scene = read_scene(folder / "cards" / "val" / f"{photo.path.stem}.json")
            where = cache / folder.name / f"{photo.path.stem}.npz" if cache else None
            mine, cards = photo_false_cards(detector, photo, decoys_of(scene), where, photo.corner_quads)
            falses += [{**false, "deck": scene.get("deck")} for false in mine]
            read += cards
        print(f"{folder.name}: {summary(falses, read, check_below(detector))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``cribcam photo IMAGE [--starter auto|CARD] [--crib] [--annotate OUT.jpg] [--json] [--backend onnx]``.

Reads the cards in a photo and, when they make a hand plus its starter, counts the hand; when they make
a whole show (two to five groups of four and the starter alone, ``vision.show``), counts every group,
nearest the photographer first, as a hand and as the crib.
Unusable input (not an image, no cards, a card seen twice, not a hand) prints what was found,
then one line on stderr, and exits with code 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from scorer import Card, HandScore, score_hand


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("photo", help="read the cards in a photo and count the hand")
    p.add_argument("image", help="a photo: JPEG, PNG, WebP or HEIC")
    p.add_argument("--starter", default="auto", help="the starter card (e.g. 5D), or auto to guess it from the photo")
    p.add_argument("--crib", action="store_true", help="count as the crib (flush needs all five)")
    p.add_argument("--annotate", metavar="OUT.jpg", help="write the photo with boxes and card names drawn")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument(
        "--backend",
        choices=("onnx", "ultralytics"),
        default="onnx",
        help="inference backend; ultralytics unpickles the .pt files, so it reads only the shipped models "
        "unless --trust-models is given",
    )
    p.add_argument("--trust-models", action="store_true", help="let --backend ultralytics unpickle --models' .pt files")
    p.add_argument(
        "--models", help="folder with cribcam.json and the models (default: CRIBCAM_MODELS, else the shipped models)"
    )
    p.set_defaults(func=run)


def make_detector(models_dir: str | None, backend: str):
    """The detector the command uses (a seam for tests)."""
    from vision.detector import CardDetector

    return CardDetector(models_dir, backend=backend)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json
    from vision.annotate import annotate, save_rgb
    from vision.photo_io import load_photo
    from vision.reading import read_photo

    starter = None if args.starter.lower() == "auto" else Card.parse(args.starter)
    if args.annotate:
        check_output_path(args.annotate)
    if args.backend == "ultralytics" and not args.trust_models and not uses_shipped_models(args.models):
        raise ValueError(
            "--backend ultralytics unpickles the .pt files, which can run code; use it with --models only "
            "for models you made, and say so with --trust-models."
        )
    photo = load_photo(args.image)
    reading = read_photo(photo, make_detector(args.models, args.backend))
    if args.annotate:
        save_rgb(args.annotate, annotate(photo.rgb, reading))
    score: HandScore | None = None
    problem = None
    shows = show_counts(reading, starter)
    if not reading.card_list:
        problem = f"No cards found in {Path(args.image).name}; photograph the cards face up, corners in view."
    elif shows is None:
        try:
            hand, chosen = reading.hand_and_starter(starter)
            score = score_hand(hand, chosen, crib=args.crib)
        except ValueError as error:
            problem = str(error)
    if args.json:
        data = reading.to_dict()
        data["starter"] = shows[0]["starter"] if shows else None if score is None else str(score.starter)
        data["score"] = None if score is None else score.to_dict()
        data["shows"] = shows or []
        data["error"] = problem
        print_json(data)
    elif reading.card_list:
        print(describe(reading, Path(args.image).name, score))
        if shows:
            print(describe_shows(shows))
    if problem:
        raise ValueError(problem)
    return 0


def show_counts(reading, starter: Card | None) -> list[dict] | None:
    """Each group of four of a show photo with its counts as a hand and as the crib, or ``None`` if no show.

    With the starter guessed, the show is the reading's own layout; a named starter splits the cards again.
    """
    from vision.layout import SHOW_REASON
    from vision.show import HAND_SIZE, split_show

    if reading.conflicts or not reading.card_list:
        return None
    cards = reading.card_list
    if starter is None:
        if reading.starter_reason != SHOW_REASON:
            return None
        groups, starter = [g for g in reading.groups if len(g) == HAND_SIZE], cards[reading.starter]
    else:
        at = cards.index(starter) if starter in cards else None
        members = [np.flatnonzero(reading.corner_card == i) for i in range(len(cards))]
        show = split_show(reading.cards, reading.corners, members, at, starter_in_photo=at is not None)
        if show is None:
            return None
        groups = show.groups
    counted = []
    for group in groups:
        hand = [cards[i] for i in group]
        as_hand, as_crib = score_hand(hand, starter), score_hand(hand, starter, crib=True)
        counted.append(
            {
                "cards": [str(c) for c in hand],
                "starter": str(starter),
                "total": as_hand.total,
                "spoken": as_hand.spoken(),
                "crib_total": as_crib.total,
            }
        )
    return counted


def describe_shows(shows: list[dict]) -> str:
    """Plain text: each group of the show, nearest the photographer first, and its count."""
    lines = [f"the show: {len(shows)} groups of four, starter {shows[0]['starter']} (nearest you first)"]
    for n, show in enumerate(shows, start=1):
        crib = "" if show["crib_total"] == show["total"] else f" ({show['crib_total']} if it is the crib)"
        lines.append(f"  {n}. {' '.join(show['cards'])}: {show['total']}{crib}. {show['spoken']}")
    return "\n".join(lines)


def uses_shipped_models(models: str | None) -> bool:
    """Whether the models to load are the ones that came with cribcam (``--models``, else ``CRIBCAM_MODELS``)."""
    from vision.model_location import models_dir, shipped_models_dir

    return models_dir(models).resolve() == shipped_models_dir().resolve()


ANNOTATE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


def check_output_path(path: str) -> None:
    """Refuse, before any work, an --annotate path that cannot be written as an image."""
    out = Path(path)
    if out.suffix.lower() not in ANNOTATE_SUFFIXES:
        raise ValueError(f"--annotate {path}: the drawn photo is written as .jpg, .png or .webp; name it so.")
    if out.is_dir():
        raise ValueError(f"--annotate {path} is a folder; give a file name such as {out / 'hand.jpg'}.")
    if not out.parent.is_dir():
        raise ValueError(f"--annotate {path}: the folder {out.parent} does not exist.")


def describe(reading, name: str, score: HandScore | None) -> str:
    """Plain text: the cards with confidence and group, the starter, warnings, then the count."""
    from cribcam.commands.score import format_breakdown

    cards = reading.card_list
    group_of = {i: n for n, group in enumerate(reading.groups, start=1) for i in group}
    total_ms = reading.timings_ms.get("total", 0.0)
    lines = [f"{name}: {len(cards)} card(s) in {len(reading.groups)} group(s), {total_ms:.0f} ms"]
    for i, card in enumerate(cards):
        other = reading.runner_up(i) if i in reading.to_confirm else None
        mark = "  check" if i in reading.to_confirm else ""
        if other is not None:
            mark += f" (a second {other}?)" if reading.read_too(other) else f" (or {other}?)"
        lines.append(f"  {card!s:<4} {reading.cards.confidence[i]:.2f}  group {group_of.get(i, '-')}{mark}")
    if reading.starter is not None:
        lines.append(f"starter guess: {cards[reading.starter]} ({reading.starter_reason}; change with --starter)")
    lines += [f"warning: {w}" for w in reading.warnings]
    if score is not None:
        what = "crib" if score.crib else "hand"
        lines.append(f"{what}: {' '.join(map(str, score.hand))}  starter: {score.starter}")
        lines.append(format_breakdown(score))
    return "\n".join(lines)

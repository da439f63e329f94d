"""``cribcam synth --out DIR --n 20000 --seed 0 --imgsz 640 --workers 2`` writes a synthetic training set."""

from __future__ import annotations

import argparse
import os


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="generate synthetic photos of cards with corner-index labels (YOLO format)")
    p.add_argument("--out", required=True, help="dataset folder to write, e.g. data/synth")
    p.add_argument("--n", type=int, default=20000, help="number of images (default 20000)")
    p.add_argument("--seed", type=int, default=0, help="random seed; the same seed gives the same bytes")
    p.add_argument("--imgsz", type=int, default=640, help="image side in pixels (default 640)")
    p.add_argument(
        "--index-px",
        type=float,
        nargs=2,
        metavar=("LO", "HI"),
        help="corner-index heights scenes aim for, pixels (default 12 120; scaled with --imgsz: the same framing)",
    )
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="processes (default 2)")
    p.add_argument("--val-fraction", type=float, default=0.1, help="share of images in val (default 0.1)")
    p.add_argument("--val-decks", nargs="+", metavar="DECK", help="decks kept for val (default: the fixed rule)")
    p.add_argument("--test-deck", action="store_true", help="use two procedural decks instead of the card art")
    p.add_argument("--decks", nargs="+", metavar="DECK", help="use only these package decks")
    p.add_argument("--skip-decks", nargs="+", default=[], metavar="DECK", help="package decks left out entirely")
    p.add_argument(
        "--styled",
        type=int,
        default=0,
        metavar="N",
        help="add N procedural decks drawn with the system fonts, to train only (vision.training.synth.styled_deck)",
    )
    p.add_argument("--styled-only", action="store_true", help="train only on the styled decks (val keeps its decks)")
    p.add_argument(
        "--hard",
        type=float,
        default=0.0,
        metavar="P",
        help="share of scenes with hard negatives: print that is not a card, timestamps, face decoys (default 0)",
    )
    p.add_argument(
        "--empty", type=float, default=0.0, metavar="P", help="share of photos with no cards in them (default 0)"
    )
    p.add_argument(
        "--webcam",
        type=float,
        default=0.0,
        metavar="P",
        help="share of photos made a backlit webcam's frame: dark, washed out, soft, noisy (default 0)",
    )
    p.add_argument(
        "--four-colour-twins",
        action="store_true",
        help="add a twin of each two-colour package deck with blue diamonds and green clubs (a val deck's twin is val)",
    )
    p.add_argument(
        "--layout",
        metavar="KIND",
        help="draw every scene as this kind (e.g. singles: one to three loose cards; default: kinds drawn by weight)",
    )
    p.add_argument("--overwrite", action="store_true", help="replace a dataset already in --out")
    p.add_argument("--json", action="store_true", help="print the stats as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json
    from vision.training.synth import generate
    from vision.training.synth.scene import INDEX_PX

    decks, val_decks = _decks(args)
    stats = generate(
        args.out,
        args.n,
        seed=args.seed,
        imgsz=args.imgsz,
        workers=args.workers,
        val_fraction=args.val_fraction,
        decks=decks,
        val_decks=val_decks,
        overwrite=args.overwrite,
        progress=not args.json,
        index_px=tuple(args.index_px or INDEX_PX),
        hard=args.hard,
        empty=args.empty,
        webcam=args.webcam,
        layout=args.layout,
    )
    if args.json:
        print_json(stats)
        return 0
    images = stats["images"]
    print(f"wrote {images['train']} train + {images['val']} val images, {stats['boxes']} boxes, to {args.out}")
    print(f"val decks (never in train): {', '.join(stats['decks']['val'])}")
    print(f"{stats['images_per_second']} images/s with {stats['workers']} workers; preview: {args.out}/preview.png")
    return 0


def _decks(args: argparse.Namespace) -> tuple[list | None, list[str] | None]:
    """The decks to draw from and the val deck names, from --test-deck, --decks, --skip-decks, --styled and
    --four-colour-twins."""
    from vision.training.synth import held_out_decks
    from vision.training.synth.four_colour import with_twins
    from vision.training.synth.styled_deck import make_styled_deck
    from vision.training.synth.testdeck import make_test_deck

    if args.test_deck:
        decks = [make_test_deck("test"), make_test_deck("test-4c", four_colour=True)]
    elif args.decks or args.skip_decks or args.styled or args.four_colour_twins:
        from vision.training.cardart import load_decks

        decks = [d for d in load_decks() if d.name not in set(args.skip_decks)]
        decks = [d for d in decks if d.name in set(args.decks)] if args.decks else decks
    else:
        return None, args.val_decks
    val = args.val_decks or held_out_decks(decks)
    if args.four_colour_twins:
        decks, val = with_twins(decks, list(val))
    styled = [make_styled_deck(seed) for seed in range(args.styled)]
    if args.styled_only:
        decks = [d for d in decks if d.name in set(val)]
    return decks + styled, val

"""``cribcam cards [--cache DIR] [--force] [--sheet OUT.png] [--json]``: render the packaged card decks."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "cards",
        help="render the card decks for the synthetic photos, locate their corner indices",
        description="Render every packaged deck (scripts/install_card_art.sh installs them) once into a "
        "cache, keep those with English indices and all 52 cards, and locate each corner index.",
    )
    p.add_argument("--cache", type=Path, default=None, help="cache folder (default .cache/cards in the repo)")
    p.add_argument("--force", action="store_true", help="render the cards again even if the cache has them")
    p.add_argument("--sheet", type=Path, help="write a contact sheet PNG (AS 10H QD KC, boxes drawn)")
    p.add_argument("--json", action="store_true", help="print the decks as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import CribcamError, print_json
    from vision.training import cardart

    cache = args.cache or cardart.DEFAULT_CACHE
    if not cardart.GNOME_DIR.is_dir() and not cardart.KDE_DIR.is_dir():
        raise CribcamError("no card decks installed; run scripts/install_card_art.sh first.")
    decks = cardart.render_all(cache, force=args.force)
    index = cardart.read_index(cache)
    rows = [
        {
            "deck": e["name"],
            "source": e["source"],
            "licence": e["licence"],
            "four_colour": e["four_colour"],
            "jumbo": e["jumbo"],
            "corners": e["corners_per_card"],
            "status": "kept",
        }
        for e in index["decks"]
    ]
    rows += [{"deck": name, "status": f"dropped: {why}"} for name, why in index["dropped"].items()]
    if args.sheet:
        import cv2

        sheet = cardart.deck_sheet(decks, cell_h=110, columns=4)
        args.sheet.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(args.sheet), cv2.cvtColor(sheet, cv2.COLOR_RGB2BGR)):
            raise CribcamError(f"cannot write {args.sheet}")
    if args.json:
        print_json({"cache": str(cache), "kept": len(decks), "decks": rows})
        return 0
    print(format_table(rows))
    print(f"{len(decks)} decks kept, {len(rows) - len(decks)} dropped; cache {cache}")
    return 0


def format_table(rows: list[dict]) -> str:
    """A plain-text table: deck, source, licence, four-colour, jumbo, corners, kept or why dropped."""
    lines = [f"{'deck':<28} {'source':<40} {'licence':<22} {'4col':<4} {'jumbo':<5} {'idx':<3} status"]
    for r in rows:
        if r["status"] == "kept":
            lines.append(
                f"{r['deck']:<28} {r['source'][:40]:<40} {r['licence'][:22]:<22} "
                f"{'yes' if r['four_colour'] else '':<4} {'yes' if r['jumbo'] else '':<5} {r['corners']:<3} kept"
            )
        else:
            lines.append(f"{r['deck']:<28} {r['status']}")
    return "\n".join(lines)

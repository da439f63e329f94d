"""``cribcam score 5H 5C 5S JD --starter 5D [--crib] [--json]``."""

from __future__ import annotations

import argparse

from scorer import parse_cards, score_hand


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="count a hand or crib with its starter")
    p.add_argument("cards", nargs="+", help="four cards, e.g. 5H 5C 5S JD (or five with no --starter)")
    p.add_argument("--starter", help="the starter card, e.g. 5D")
    p.add_argument("--crib", action="store_true", help="count as the crib (flush needs all five)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json

    score = score_hand(parse_cards(" ".join(args.cards)), args.starter, crib=args.crib)
    if args.json:
        print_json(score.to_dict())
        return 0
    print(format_breakdown(score))
    return 0


def format_breakdown(score) -> str:
    """A plain-text table of the items, the total and the spoken count."""
    lines = [f"{'kind':<8} {'cards':<20} points"]
    lines += [f"{i.kind:<8} {' '.join(map(str, i.cards)):<20} {i.points:>6}" for i in score.items]
    lines.append(f"{'total':<29} {score.total:>6}")
    lines.append(score.spoken())
    return "\n".join(lines)

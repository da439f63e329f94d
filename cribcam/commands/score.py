"""``cribcam score 5H 5C 5S JD --starter 5D [--crib] [--json]``, or five cards with the starter last."""

from __future__ import annotations

import argparse

from scorer import parse_cards, score_hand
from scorer.cards import Card, CardLike
from scorer.hand import HandScore


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="count a hand or crib with its starter",
        description="Count four cards and the starter. Give the starter with --starter, or as the fifth card: "
        "like the app's typed box, five cards without --starter are four and the starter last.",
    )
    p.add_argument("cards", nargs="+", help="four cards, e.g. 5H 5C 5S JD; or five, the fifth being the starter")
    p.add_argument("--starter", help="the starter card, e.g. 5D")
    p.add_argument("--crib", action="store_true", help="count as the crib (flush needs all five)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def read_hand(cards: list[str], starter: str | None) -> tuple[list[Card], CardLike]:
    """The four hand cards and the starter: ``starter`` if given, else the fifth card."""
    hand = parse_cards(" ".join(cards), at_most=5, what="A hand with its starter")
    if starter is not None and len(hand) != 4:
        raise ValueError(f"With --starter give the four cards in hand; got {len(hand)}.")
    if starter is None and len(hand) != 5:
        raise ValueError(f"Give four cards and --starter, or five cards with the starter last; got {len(hand)}.")
    return (hand, starter) if starter is not None else (hand[:4], hand[4])


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json

    hand, starter = read_hand(args.cards, args.starter)
    score = score_hand(hand, starter, crib=args.crib)
    if args.json:
        print_json(score.to_dict())
        return 0
    given = "" if args.starter is not None else " (the fifth card; use --starter to name another)"
    print(f"hand {' '.join(map(str, score.hand))}, starter {score.starter}{given}")
    print(format_breakdown(score))
    return 0


def format_breakdown(score: HandScore) -> str:
    """A plain-text table of the items, the total and the spoken count."""
    lines = [f"{'kind':<8} {'cards':<20} points"]
    lines += [f"{i.kind:<8} {' '.join(map(str, i.cards)):<20} {i.points:>6}" for i in score.items]
    lines.append(f"{'total':<29} {score.total:>6}")
    lines.append(score.spoken())
    return "\n".join(lines)

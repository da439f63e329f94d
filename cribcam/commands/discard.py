"""``cribcam discard 5H 5C JD QS 2C 3D --crib mine|theirs [--json]``: what to throw, best first."""

from __future__ import annotations

import argparse

from scorer.cards import parse_cards
from scorer.discard import DiscardAdvice, advise


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("discard", help="rank every throw to the crib by exact expected points")
    p.add_argument("cards", nargs="+", help="the dealt hand: six cards (two players) or five (three or four)")
    p.add_argument("--crib", choices=("mine", "theirs"), required=True, help="whose crib the thrown cards go to")
    p.add_argument("--exposed", default="", help="cards known to be out of play, e.g. '7C KD'")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json

    dealt = parse_cards(" ".join(args.cards), at_most=6, what="The dealt hand")
    advice = advise(dealt, my_crib=args.crib == "mine", exposed=args.exposed)
    if args.json:
        print_json(advice.to_dict())
        return 0
    print(format_table(advice))
    return 0


def format_table(advice: DiscardAdvice) -> str:
    """A plain-text table of the options, best first."""
    sign = "+" if advice.my_crib else "-"
    lines = [
        f"{' '.join(map(str, advice.cards))}, crib {'mine' if advice.my_crib else 'theirs'}; "
        f"averaged over {advice.unseen} unseen cards",
        f"{'#':>2}  {'keep':<16}{'throw':<10}{'hand':>6}{'min':>5}{'max':>5}{'crib':>7}{'net':>8}",
    ]
    for i, o in enumerate(advice.options, 1):
        lines.append(
            f"{i:>2}  {' '.join(map(str, o.keep)):<16}{' '.join(map(str, o.discard)):<10}"
            f"{float(o.hand.mean):>6.2f}{o.hand.min:>5}{o.hand.max:>5}"
            f"{sign + format(float(o.crib_mean), '.2f'):>7}{float(o.net):>8.2f}"
        )
    return "\n".join(lines)

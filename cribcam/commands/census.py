"""``cribcam census --rules hand|crib [--json]``: every hand with every starter."""

from __future__ import annotations

import argparse

from scorer import census


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("census", help="score all 12,994,800 hand + starter combinations")
    p.add_argument("--rules", choices=("hand", "crib"), default="hand")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json

    result = census(args.rules)
    if args.json:
        print_json(result.to_dict())
        return 0
    print(f"{args.rules} rules: {result.total:,} combinations in {result.seconds:.2f} s")
    for score, count in enumerate(result.histogram):
        print(f"{score:>3} {count:>10,}")
    print(f"mean {float(result.mean):.6f} ({result.mean.numerator}/{result.mean.denominator})")
    return 0

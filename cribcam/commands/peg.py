"""``cribcam peg "P1:5H P2:10S P1:KH P2:go P1:go P2:3C" [--players P1,P2] [--hand P1=5H,6D,7C,8S] [--json]``.

Without ``--hand`` the plays are still checked for what the sequence alone rules out: a card twice, a count
past 31, a play out of turn, a go while any card would fit.
"""

from __future__ import annotations

import argparse

from scorer.play import Play

MAX_MOVES = 200  # far more than any deal's cards and goes
_SHOWN = 20  # characters of a bad move repeated back in a message


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "peg",
        help="replay the play (pegging) and show each card's count and points",
        description="Replay the play and show each card's count and points. Without --hand the plays are still "
        "refused when the sequence alone rules them out: a card twice, a count past 31, a play out of turn, "
        "or a go while any card would fit (a count under 22).",
    )
    p.add_argument("moves", nargs="+", help='plays in order, like "P1:5H P2:10S P1:KH P2:go P1:go P2:3C"')
    p.add_argument("--players", help="seat order, comma separated (default: order of first play)")
    p.add_argument(
        "--hand",
        action="append",
        default=[],
        metavar="NAME=CARDS",
        help="a player's four cards, e.g. P1=5H,6D,7C,8S; give every hand to have legality checked",
    )
    p.add_argument("--cards-each", type=int, default=4, help="cards each player holds (default 4)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def parse_moves(text: str) -> list[tuple[str, str]]:
    """``"P1:5H P2:go"`` as ``[("P1", "5H"), ("P2", "go")]``; more than ``MAX_MOVES`` is refused."""
    tokens = text.replace(",", " ").split()
    if len(tokens) > MAX_MOVES:
        raise ValueError(f"A play can have at most {MAX_MOVES} moves; this one has {len(tokens)}.")
    moves = []
    for token in tokens:
        name, sep, what = token.rpartition(":")
        if not sep or not name or not what:
            shown = token if len(token) <= _SHOWN else token[: _SHOWN - 1] + "…"
            raise ValueError(f"'{shown}' is not a play; write NAME:CARD or NAME:go, like P1:5H.")
        moves.append((name, "go" if what.lower() == "go" else what))
    if not moves:
        raise ValueError("Give the plays, like P1:5H P2:10S P1:go.")
    return moves


def parse_hands(items: list[str]) -> dict[str, str] | None:
    if not items:
        return None
    hands = {}
    for item in items:
        name, sep, cards = item.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"'{item}' is not a hand; write NAME=CARDS, like P1=5H,6D,7C,8S.")
        hands[name.strip()] = cards.replace(",", " ")
    return hands


def replay(
    moves: list[tuple[str, str]],
    players: list[str] | None = None,
    hands: dict[str, str] | None = None,
    cards_each: int = 4,
) -> Play:
    """Run ``moves`` through the play engine; the first mover leads."""
    if players is None:
        players = list(dict.fromkeys(name for name, _ in moves))
        players += [name for name in (hands or {}) if name not in players]
    play = Play(players, leader=moves[0][0], hands=hands, cards_each=cards_each)
    for name, what in moves:
        if what == "go":
            play.go(name)
        else:
            play.play(name, what)
    return play


def partnerships(players: tuple[str, ...]) -> dict[str, list[str]]:
    """Four players: seats 1 and 3 against 2 and 4."""
    if len(players) != 4:
        return {}
    return {
        f"{players[0]} & {players[2]}": [players[0], players[2]],
        f"{players[1]} & {players[3]}": [players[1], players[3]],
    }


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json

    players = [p.strip() for p in args.players.split(",")] if args.players else None
    play = replay(parse_moves(" ".join(args.moves)), players, parse_hands(args.hand), args.cards_each)
    points = play.points()
    sides = {name: sum(points[p] for p in members) for name, members in partnerships(play.players).items()}
    if args.json:
        print_json(
            {
                "players": list(play.players),
                "turns": [t.to_dict() for t in play.turns],
                "points": points,
                "partnerships": sides or None,
                "over": play.is_over,
                "count": play.count,
            }
        )
        return 0
    width = max(len(p) for p in play.players)
    for turn in play.turns:
        what = "go" if turn.card is None else str(turn.card)
        pegged = ", ".join(
            peg.reason if peg.player == turn.player else f"{peg.reason} to {peg.player}" for peg in turn.pegs
        )
        print(f"{turn.player:<{width}}  {what:<3}  count {turn.count:>2}  {pegged}".rstrip())
    print("points: " + ", ".join(f"{p} {n}" for p, n in points.items()))
    if sides:
        print("partnerships: " + ", ".join(f"{s} {n}" for s, n in sides.items()))
    return 0

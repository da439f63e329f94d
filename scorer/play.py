"""The play (pegging): cards laid one at a time, the running count, and the points they peg.

>>> play = Play(["Ann", "Bob"])
>>> play.play("Ann", "5H"), play.play("Bob", "10S")
((), (Peg('Bob', 2, 'fifteen for 2'),))

With ``hands`` the engine knows whose turn it is, which cards may be played and when the play is over.
Without them it still refuses what the sequence alone shows impossible: a card twice, a count past 31,
a play out of turn, or a go while every card would fit (a count of 21 or less).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scorer.cards import DECK, Card, CardLike, check_distinct, parse_cards, to_card

MAX_COUNT = 31
GO_FROM = MAX_COUNT - 9  # below this count every card (worth 10 at most) fits, so nobody can say go
PAIR_NAMES = {2: "pair", 3: "pair royal", 4: "double pair royal"}
PAIR_POINTS = {2: 2, 3: 6, 4: 12}


@dataclass(frozen=True, slots=True)
class Peg:
    """Points pegged in the play: ``kind`` is fifteen, 31, pair, run, go or last card."""

    player: str
    points: int
    kind: str
    reason: str

    def __repr__(self) -> str:
        return f"Peg({self.player!r}, {self.points}, {self.reason!r})"

    def to_dict(self) -> dict:
        return {"player": self.player, "points": self.points, "kind": self.kind, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Turn:
    """One entry of the play: a card laid (``card``) or a go (``card is None``), the count after it
    (31 stays 31 here though the next count starts from 0) and the points it caused."""

    player: str
    card: Card | None
    count: int
    pegs: tuple[Peg, ...]

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "card": None if self.card is None else str(self.card),
            "count": self.count,
            "pegs": [p.to_dict() for p in self.pegs],
        }


def score_card(sequence: Sequence[Card], player: str, count: int | None = None) -> list[Peg]:
    """The points for the last card of ``sequence`` (the cards laid since the count last started);
    ``count`` is their total, if already known."""
    pegs: list[Peg] = []
    if count is None:
        count = sum(c.value for c in sequence)
    if count == 15:
        pegs.append(Peg(player, 2, "fifteen", "fifteen for 2"))
    if count == MAX_COUNT:
        pegs.append(Peg(player, 2, "31", "31 for 2"))
    rank = sequence[-1].rank
    same = 1
    while same < len(sequence) and sequence[-1 - same].rank == rank:
        same += 1
    if same >= 2:
        name, points = PAIR_NAMES[same], PAIR_POINTS[same]
        pegs.append(Peg(player, points, "pair", f"{name} for {points}"))
    run = longest_run(sequence)
    if run:
        pegs.append(Peg(player, run, "run", f"run of {run} for {run}"))
    return pegs


def longest_run(sequence: Sequence[Card]) -> int:
    """Length of the longest run (3 or more) formed by the last cards of ``sequence`` in any order, else 0.

    A rank repeated inside the window breaks it: ``2 3 3 4`` has no run, ``2 3 3 4 5`` ends in a run of 3.
    """
    ranks = [c.rank for c in sequence]
    for length in range(len(ranks), 2, -1):
        window = ranks[-length:]
        if len(set(window)) == length and max(window) - min(window) == length - 1:
            return length
    return 0


class Play:
    """The play of one deal, for players in seat order; ``leader`` lays the first card.

    ``hands`` (player -> cards) makes the engine strict: turns, legal cards, go only when stuck, the end.
    Without hands each player is taken to hold ``cards_each`` cards; turns still go round the table, and a
    card from a player who said go closes the count (the others' goes left unsaid) when that player leads next.
    State to read: ``count`` (running count), ``sequence`` (cards since the count began), ``to_play``,
    ``said_go``, ``turns`` (every card and go with its points), ``is_over``.

    >>> p = Play(["A", "B"], hands={"A": "5H 6D 7C 8S", "B": "5C 6H 7S 9D"})
    >>> p.to_play, [str(c) for c in p.legal_cards("A")]
    ('A', ['5H', '6D', '7C', '8S'])
    """

    def __init__(
        self,
        players: Sequence[str],
        leader: str | None = None,
        hands: Mapping[str, Iterable[CardLike] | str] | None = None,
        cards_each: int = 4,
        lenient: bool = False,
    ) -> None:
        self.players: tuple[str, ...] = tuple(players)
        self.lenient = lenient
        """Without hands, take turns and goes as entered (replaying games saved before turns were checked)."""
        if not 2 <= len(self.players) <= 4:
            raise ValueError(f"The play needs 2, 3 or 4 players, not {len(self.players)}.")
        if len(set(self.players)) != len(self.players):
            raise ValueError("Each player needs a different name.")
        self.leader = self.players[0] if leader is None else leader
        self._check_player(self.leader)
        self.hands: dict[str, list[Card]] | None = None
        if hands is not None:
            self.hands = {}
            for player in self.players:
                if player not in hands:
                    raise ValueError(f"No hand was given for {player}; give every player's cards or none.")
                self.hands[player] = parse_cards(hands[player])
            extra = set(hands) - set(self.players)
            if extra:
                raise ValueError(f"{sorted(extra)[0]} is not one of the players {', '.join(self.players)}.")
            check_distinct(c for cards in self.hands.values() for c in cards)
            self._left = {p: len(cards) for p, cards in self.hands.items()}
            self._dealt = {p: tuple(cards) for p, cards in self.hands.items()}
        else:
            if not 1 <= cards_each <= len(DECK) // len(self.players):
                most = len(DECK) // len(self.players)
                raise ValueError(f"With {len(self.players)} players each holds 1 to {most} cards, not {cards_each}.")
            self._left = {p: cards_each for p in self.players}
        self.cards_each = cards_each
        self.turns: list[Turn] = []
        self.sequence: list[Card] = []
        self.count = 0
        self._unplayed = sum(self._left.values())
        self.said_go: set[str] = set()
        self.last_player: str | None = None
        self.to_play: str | None = self.leader
        self._played: set[Card] = set()

    @property
    def known(self) -> bool:
        """True when the hands were given, so the engine enforces turns and legality."""
        return self.hands is not None

    @property
    def is_over(self) -> bool:
        """True once every card has been laid."""
        return self._unplayed == 0

    @property
    def pegs(self) -> list[Peg]:
        """Every point pegged so far, in order."""
        return [peg for turn in self.turns for peg in turn.pegs]

    def points(self) -> dict[str, int]:
        """Points pegged by each player."""
        totals = dict.fromkeys(self.players, 0)
        for peg in self.pegs:
            totals[peg.player] += peg.points
        return totals

    def cards_left(self, player: str) -> int:
        self._check_player(player)
        return self._left[player]

    def legal_cards(self, player: str) -> list[Card]:
        """The cards ``player`` may lay now (known hands only); empty when it is not their turn."""
        if self.hands is None:
            raise ValueError("The hands are not known, so the engine cannot say which cards may be played.")
        self._check_player(player)
        if player != self.to_play:
            return []
        room = MAX_COUNT - self.count
        return [c for c in self.hands[player] if c.value <= room]

    def play(self, player: str, card: CardLike) -> tuple[Peg, ...]:
        """Lay ``card`` for ``player``; returns the points it pegs (a closing go first, if it caused one)."""
        self._check_player(player)
        card = to_card(card)
        if self.is_over:
            raise ValueError(f"The play is over; every card has been laid, so {card} cannot be played.")
        if card in self._played:
            raise ValueError(f"{card} has already been played in this deal.")
        if self.hands is not None:
            if card not in self.hands[player]:
                raise ValueError(f"{player} does not hold {card}.")
            if player != self.to_play:
                raise ValueError(f"It is {self.to_play}'s turn, not {player}'s.")
        elif self._left[player] == 0:
            raise ValueError(f"{player} has no cards left to play.")
        # Announced plays: a player who said go laying a card means that count was over.
        closing = player in self.said_go and self.hands is None
        if player in self.said_go and not closing:
            raise ValueError(f"{player} said go and cannot play again until the count starts afresh.")
        if closing and player != self._next_leader() and not self.lenient:
            raise ValueError(
                f"It is {self.to_play}'s turn, not {player}'s; {player} said go, "
                f"and {self._next_leader()} leads the next count."
            )
        if self.hands is None and not closing and player != self.to_play and not self.lenient:
            raise ValueError(self._out_of_turn(player, self.to_play))
        before = 0 if closing else self.count
        if before + card.value > MAX_COUNT:
            raise ValueError(
                f"{card} would take the count from {before} to {before + card.value}, past 31; "
                f"play a lower card or say go."
            )
        pegs: list[Peg] = self._close_series() if closing else []
        self.sequence.append(card)
        self.count = before + card.value
        self._unplayed -= 1
        self._played.add(card)
        self._left[player] -= 1
        if self.hands is not None:
            self.hands[player].remove(card)
        self.last_player = player
        count = self.count
        pegs += score_card(self.sequence, player, count)
        if count == MAX_COUNT:
            self._reset()
        elif self.is_over:
            pegs.append(Peg(player, 1, "last card", "last card for 1"))
        elif not self._active():
            pegs += self._close_series()
        else:
            self._advance(player)
        if self.is_over:
            self.to_play = None
        self.turns.append(Turn(player, card, count, tuple(pegs)))
        return tuple(pegs)

    def go(self, player: str) -> tuple[Peg, ...]:
        """``player`` cannot lay a card; returns the go point if nobody else can play either."""
        self._check_player(player)
        if self.is_over:
            raise ValueError("The play is over; nobody needs to say go.")
        if player in self.said_go:
            raise ValueError(f"{player} has already said go in this count.")
        if self._left[player] == 0:
            raise ValueError(f"{player} has no cards left, so there is nothing to say go about.")
        if player != self.to_play and not (self.lenient and self.hands is None):
            raise ValueError(self._out_of_turn(player, self.to_play))
        if self.hands is not None:
            playable = self.legal_cards(player)
            if playable:
                raise ValueError(
                    f"{player} cannot say go while holding {playable[0]}, which fits under 31 (count {self.count})."
                )
        if not self.sequence:
            raise ValueError(f"{player} must lead a card; go is only said when a card would pass 31.")
        if self.count < GO_FROM and not (self.lenient and self.hands is None):
            raise ValueError(
                f"{player} cannot say go at {self.count}; below {GO_FROM} any card keeps the count at 31 or less."
            )
        count = self.count
        self.said_go.add(player)
        pegs: tuple[Peg, ...] = ()
        if not self._active():
            pegs = tuple(self._close_series())
        else:
            self._advance(player)
        self.turns.append(Turn(player, None, count, pegs))
        return pegs

    def to_dict(self) -> dict:
        """Players, leader, hands (if known) and every turn, enough to rebuild with ``from_dict``."""
        return {
            "players": list(self.players),
            "leader": self.leader,
            "hands": None if self.hands is None else {p: [str(c) for c in h] for p, h in self._dealt.items()},
            "cards_each": self.cards_each,
            "turns": [t.to_dict() for t in self.turns],
        }

    @classmethod
    def from_dict(cls, data: Mapping) -> Play:
        """Rebuild a play by replaying its turns; raises ``ValueError`` if the record is inconsistent."""
        try:
            play = cls(data["players"], data["leader"], data.get("hands"), data.get("cards_each") or 4)
            for turn in data["turns"]:
                if turn["card"] is None:
                    play.go(turn["player"])
                else:
                    play.play(turn["player"], turn["card"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"This play record is damaged ({error!r} missing or wrong).") from None
        return play

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise ValueError(f"{player!r} is not one of the players {', '.join(self.players)}.")

    def _active(self) -> list[str]:
        """Players who may still lay a card in this count (not said go, cards left)."""
        return [p for p in self.players if p not in self.said_go and self._left[p] > 0]

    def _after(self, player: str) -> list[str]:
        """Every player in seat order starting with the one after ``player``, ending with ``player``."""
        i = self.players.index(player)
        return [self.players[(i + k) % len(self.players)] for k in range(1, len(self.players) + 1)]

    def _next_leader(self) -> str | None:
        """Who leads the next count: the first player after the last to lay a card who has cards left."""
        assert self.last_player is not None
        return next((p for p in self._after(self.last_player) if self._left[p] > 0), None)

    def _out_of_turn(self, player: str, expected: str | None) -> str:
        """One sentence for a play or go by ``player`` when it is ``expected``'s turn."""
        if player == self.last_player and self.sequence:
            others = [p for p in self._active() if p != player]
            waiting = f"{others[0]} says" if len(others) == 1 else "the others say"
            return (
                f"It is {expected}'s turn, not {player}'s; {player} laid the last card "
                f"and plays again only once {waiting} go."
            )
        return f"It is {expected}'s turn, not {player}'s."

    def _advance(self, player: str) -> None:
        active = self._active()
        self.to_play = next((p for p in self._after(player) if p in active), None)

    def _close_series(self) -> list[Peg]:
        """Nobody can play: the last to lay a card pegs 1 for the go and the count starts again."""
        assert self.last_player is not None
        peg = Peg(self.last_player, 1, "go", "go for 1")
        self._reset()
        return [peg]

    def _reset(self) -> None:
        self.sequence = []
        self.count = 0
        self.said_go = set()
        self.to_play = self._next_leader()

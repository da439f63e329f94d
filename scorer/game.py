"""A game of cribbage to 121 (or 61) as it happens at the table, one entry at a time.

>>> game = Game.new(["Ann", "Bob"])
>>> game.cut_for_deal({"Ann": "3H", "Bob": "9C"})
'Ann'
>>> game.turn_starter("JD")[0].reason
'his heels for 2'
>>> _ = game.peg("Bob", 2, "fifteen for 2")
>>> game.end_play()
>>> game.next_show, game.show(8)[0].reason, game.next_show
('Bob', 'hand for 8', 'Ann')

Every entry is kept, so ``undo()`` takes back the last one and ``to_json()`` / ``Game.from_json()``
store and restore the whole game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from scorer.board import Pegboard, PegPair
from scorer.cards import Card, CardLike, check_distinct, parse_cards, to_card
from scorer.hand import score_hand
from scorer.play import Play

FORMAT = "cribcam-game"
VERSION = 1
TARGETS = (121, 61)
SCHEMES = ("none", "lurch", "skunk")
PHASES = ("cut", "starter", "play", "show", "over")
CRIB = "crib"


@dataclass(frozen=True, slots=True)
class DealSize:
    """Cards dealt to each player, cards each puts in the crib, cards added to the crib from the deck."""

    hand: int
    to_crib: int
    from_deck: int


DEAL_SIZES: dict[int, DealSize] = {2: DealSize(6, 2, 0), 3: DealSize(5, 1, 1), 4: DealSize(5, 1, 0)}


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """Points pegged in deal ``round`` (from 1), ``phase`` starter, play or show, by ``player``."""

    round: int
    phase: str
    player: str
    side: str
    points: int
    kind: str
    reason: str
    entry: int = -1
    """Which entry of the game pegged it (index into ``Game.actions``): one entry's points are one peg move."""

    def to_dict(self) -> dict:
        return {
            "round": self.round,
            "phase": self.phase,
            "player": self.player,
            "side": self.side,
            "points": self.points,
            "kind": self.kind,
            "reason": self.reason,
            "entry": self.entry,
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game counts: ``games`` won by ``winner`` and the ``kind`` (win, lurch, skunk,
    double skunk), judged on the best-placed loser; ``loser`` (lowest score) deals the next game."""

    winner: str
    loser: str
    games: int
    kind: str
    scores: dict[str, int]

    def to_dict(self) -> dict:
        return {
            "winner": self.winner,
            "loser": self.loser,
            "games": self.games,
            "kind": self.kind,
            "scores": dict(self.scores),
        }


def result_kind(loser_score: int, target: int, scheme: str) -> tuple[str, int]:
    """The result's name and games won for a loser on ``loser_score``.

    skunk: short of three quarters of the target is a skunk (2 games), short of half a double skunk
    (4 games); in a 121 game that is 90 or less and 60 or less. lurch: short of half is a lurch (2 games),
    30 or less in a 61 game. none: every win is one game.
    """
    if scheme not in SCHEMES:
        raise ValueError(f"The scoring scheme must be one of {', '.join(SCHEMES)}, not {scheme!r}.")
    if scheme == "skunk":
        if 2 * loser_score < target:
            return "double skunk", 4
        if 4 * loser_score < 3 * target:
            return "skunk", 2
    if scheme == "lurch" and 2 * loser_score < target:
        return "lurch", 2
    return "win", 1


def cut_winner(cards: Mapping[str, CardLike]) -> str | None:
    """Who deals after a cut: the lowest card (ace low, by rank); ``None`` when the lowest ties."""
    cut = {player: to_card(card) for player, card in cards.items()}
    check_distinct(cut.values())
    low = min(card.rank for card in cut.values())
    lowest = [player for player, card in cut.items() if card.rank == low]
    return lowest[0] if len(lowest) == 1 else None


def _plain(value: object) -> object:
    """An entry as JSON-ready data: cards as text."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


class Game:
    """One game for 2 or 3 players, or 4 in two partnerships (partners sit opposite).

    Use ``Game.new(players, target=121, partnerships=None, muggins=False, scheme=None, dealer=None)``.
    Entries: ``cut_for_deal`` or ``choose_dealer``; each deal ``turn_starter``, optionally ``set_hands``,
    the play (``play`` / ``go`` card by card, or ``peg`` quick points, then ``end_play``), then ``show``
    once per hand in order (``next_show``), the crib last, after which the deal passes to the left.
    ``phase`` is one of cut, starter, play, show, over; ``events`` lists every point with its reason.
    """

    def __init__(
        self,
        players: Sequence[str],
        target: int = 121,
        partnerships: Sequence[Sequence[str]] | None = None,
        muggins: bool = False,
        scheme: str | None = None,
        dealer: str | None = None,
    ) -> None:
        self.players: tuple[str, ...] = tuple(players)
        if not 2 <= len(self.players) <= 4:
            raise ValueError(f"Cribbage is for 2, 3 or 4 players, not {len(self.players)}.")
        if len(set(self.players)) != len(self.players) or not all(
            isinstance(p, str) and p.strip() for p in self.players
        ):
            raise ValueError("Each player needs a different, non-empty name.")
        if any(p == CRIB for p in self.players):
            raise ValueError(f"'{CRIB}' cannot be a player's name; it names the dealer's extra hand.")
        if target not in TARGETS:
            raise ValueError(f"A game is played to 121 or 61, not {target}.")
        self.target = target
        self.scheme = ("skunk" if target == 121 else "lurch") if scheme is None else scheme
        result_kind(0, target, self.scheme)
        self.muggins = bool(muggins)
        self.partnerships = self._check_partnerships(partnerships)
        if len(set(self.sides)) != len(self.sides):
            raise ValueError(
                f"The sides {' and '.join(repr(s) for s in self.sides)} have the same name; "
                "give the players names that keep them apart."
            )
        self.first_dealer = dealer
        if dealer is not None:
            self._check_player(dealer)
        self.actions: list[dict] = []
        self._lenient = False
        """Replaying a game saved before turns and goes were checked: take its plays as entered."""
        self._start()

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        target: int = 121,
        partnerships: Sequence[Sequence[str]] | None = None,
        muggins: bool = False,
        scheme: str | None = None,
        dealer: str | None = None,
    ) -> Game:
        """A new game; without ``dealer`` it starts with the cut for deal."""
        return cls(players, target, partnerships, muggins, scheme, dealer)

    # -- derived facts ---------------------------------------------------------------------------

    @property
    def sides(self) -> tuple[str, ...]:
        """The scoring sides: the players, or the two partnerships as ``"Ann & Cat"``."""
        if self.partnerships is None:
            return self.players
        return tuple(" & ".join(pair) for pair in self.partnerships)

    def side_of(self, player: str) -> str:
        self._check_player(player)
        if self.partnerships is None:
            return player
        return next(" & ".join(pair) for pair in self.partnerships if player in pair)

    @property
    def deal_size(self) -> DealSize:
        return DEAL_SIZES[len(self.players)]

    @property
    def scores(self) -> dict[str, int]:
        """Points per side (the winner's may pass the target by the points that took it out)."""
        return dict(self._scores)

    @property
    def winner(self) -> str | None:
        """The side that reached the target first, else ``None``."""
        return self._winner

    @property
    def is_over(self) -> bool:
        return self._winner is not None

    @property
    def result(self) -> GameResult | None:
        """Games won and the kind of win, once the game is over."""
        if self._winner is None:
            return None
        scores = self.scores
        losers = [s for s in self.sides if s != self._winner]
        best = max(scores[s] for s in losers)
        kind, games = result_kind(best, self.target, self.scheme)
        loser = min(losers, key=lambda s: scores[s])
        return GameResult(self._winner, loser, games, kind, scores)

    @property
    def next_show(self) -> str | None:
        """Whose count is next in the show: a player's name or ``"crib"``; ``None`` outside the show."""
        if self.phase not in ("play", "show"):
            return None
        order = self.show_order()
        return order[self._shows_done] if self._shows_done < len(order) else None

    def show_order(self) -> list[str]:
        """Players left of the dealer first, the dealer, then the crib."""
        if self.dealer is None:
            return []
        return [*self._after(self.dealer), CRIB]

    @property
    def pone(self) -> str | None:
        """The player left of the dealer, who leads the play."""
        return None if self.dealer is None else self._after(self.dealer)[0]

    def pegs(self) -> dict[str, PegPair]:
        """Front and back peg of each side, as ``board.peg_positions`` derives them from ``events``.

        All the points one entry pegs for a side (a fifteen and a pair royal) are one move: the back peg marks
        the score before that entry.
        """
        return dict(self._board.pegs)

    def round_points(self, round_number: int) -> dict[str, dict[str, int]]:
        """Points per phase (starter, play, show) per side in one deal."""
        table = {phase: dict.fromkeys(self.sides, 0) for phase in ("starter", "play", "show")}
        for event in self.events:
            if event.round == round_number:
                table[event.phase][event.side] += event.points
        return table

    # -- entries ---------------------------------------------------------------------------------

    def cut_for_deal(self, cards: Mapping[str, CardLike]) -> str | None:
        """Each player cuts a card; the lowest deals. Returns the dealer, or ``None`` on a tie (cut again)."""
        self._do({"do": "cut", "cards": {p: to_card(c) for p, c in cards.items()}})
        return self.dealer

    def choose_dealer(self, player: str) -> None:
        """Set the first dealer without a cut."""
        self._do({"do": "dealer", "player": player})

    def turn_starter(self, card: CardLike | None) -> tuple[ScoreEvent, ...]:
        """The starter is cut; a jack pegs 2 for the dealer (his heels). ``None`` if it was not recorded."""
        return self._do({"do": "starter", "card": None if card is None else to_card(card)})

    def set_hands(self, hands: Mapping[str, Iterable[CardLike] | str], crib: Iterable[CardLike] | str) -> None:
        """Record the four cards each player kept and the crib, so the play is checked card by card
        and ``show()`` can count the hands itself."""
        self._do(
            {
                "do": "hands",
                "hands": {p: parse_cards(cards) for p, cards in hands.items()},
                "crib": parse_cards(crib),
            }
        )

    def play(self, player: str, card: CardLike) -> tuple[ScoreEvent, ...]:
        """``player`` lays ``card`` in the play; returns the points it pegged."""
        return self._do({"do": "play", "player": player, "card": to_card(card)})

    def go(self, player: str) -> tuple[ScoreEvent, ...]:
        """``player`` says go; returns the go point if that closed the count."""
        return self._do({"do": "go", "player": player})

    def peg(self, player: str, points: int, reason: str = "") -> tuple[ScoreEvent, ...]:
        """Quick points in the play (``+2``) when the cards are not entered one by one."""
        return self._do({"do": "peg", "player": player, "points": points, "reason": reason})

    def end_play(self, unentered: bool = False) -> None:
        """The play is finished (needed only when it was entered as quick points).

        ``unentered``: the rest of the play was pegged without entering its cards (the page switched to quick
        points part way), so cards still to play are no reason to refuse.
        """
        self._do({"do": "end_play", **({"unentered": True} if unentered else {})})

    def show(
        self,
        points: int | None = None,
        cards: Iterable[CardLike] | str | None = None,
        mugger: str | None = None,
    ) -> tuple[ScoreEvent, ...]:
        """Count the next hand in the show (``next_show``): ``points`` as claimed, or ``cards`` to count them.

        With both and muggins on, points the hand holds beyond the claim go to ``mugger`` (default the
        next opponent in turn). With hands set by ``set_hands``, ``show()`` alone counts the known hand.
        """
        return self._do(
            {
                "do": "show",
                "points": points,
                "cards": None if cards is None else parse_cards(cards),
                "mugger": mugger,
            }
        )

    def undo(self) -> dict:
        """Take back the last entry (a card, a go, points, a show...); returns it."""
        if not self.actions:
            raise ValueError("There is nothing to undo; no entry has been made in this game.")
        undone = _plain(self.actions[-1])
        self._replay(self.actions[:-1])
        return undone

    def next_game(self) -> Game:
        """A new game with the same players and rules; the loser of this one deals first."""
        result = self.result
        if result is None:
            raise ValueError("This game is not over yet, so there is no next game.")
        dealer = next(p for p in self.players if self.side_of(p) == result.loser)
        return Game(self.players, self.target, self.partnerships, self.muggins, self.scheme, dealer)

    # -- storage ---------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        """The rules, every entry and every scoring event with its reason."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "players": list(self.players),
            "target": self.target,
            "partnerships": None if self.partnerships is None else [list(p) for p in self.partnerships],
            "muggins": self.muggins,
            "scheme": self.scheme,
            "dealer": self.first_dealer,
            "actions": [_plain(a) for a in self.actions],
            "events": [e.to_dict() for e in self.events],
            "result": None if self.result is None else self.result.to_dict(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping) -> Game:
        """Rebuild a game by replaying its entries; raises ``ValueError`` if the record is damaged."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ValueError("This is not a saved cribcam game (its format mark is missing).")
        if data.get("version") != VERSION:
            raise ValueError(f"This saved game has version {data.get('version')!r}; cribcam reads {VERSION}.")
        try:
            game = cls(
                data["players"],
                data["target"],
                data["partnerships"],
                data["muggins"],
                data["scheme"],
                data["dealer"],
            )
            actions = data["actions"]
            if not isinstance(actions, list):
                raise TypeError("actions")
            try:
                game._replay_saved(actions)
            except ValueError:  # saved before the play checked turns and goes: take its plays as entered
                game._lenient = True
                game._replay_saved(actions)
            saved = data.get("events")
        except (KeyError, TypeError, AttributeError) as error:
            raise ValueError(f"This saved game is damaged: {error} is missing or malformed.") from None
        if saved is not None and [_without_entry(e) for e in saved] != [
            _without_entry(e.to_dict()) for e in game.events
        ]:
            raise ValueError("This saved game's scores do not match its entries; the record is damaged.")
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as error:
            raise ValueError(f"This saved game is not valid JSON ({error}).") from None
        return cls.from_dict(data)

    # -- internals -------------------------------------------------------------------------------

    def _start(self) -> None:
        self.events: list[ScoreEvent] = []
        self.dealer: str | None = self.first_dealer
        self.phase = "cut" if self.dealer is None else "starter"
        self.round = 1 if self.dealer is not None else 0
        self.starter: Card | None = None
        self.current_play: Play | None = None
        self.hands: dict[str, tuple[Card, ...]] | None = None
        self.crib: tuple[Card, ...] | None = None
        self.cuts: list[dict[str, Card]] = []
        self._shows_done = 0
        self._winner: str | None = None
        self._scores = dict.fromkeys(self.sides, 0)
        self._board = Pegboard(self.sides, self.target)

    def _replay_saved(self, actions: list) -> None:
        """Replay a saved game's entries from the start; ``ValueError`` naming the first that fails."""
        self._start()
        self.actions = []
        for number, action in enumerate(actions, 1):
            try:
                self._do(dict(action))
            except ValueError as error:
                raise ValueError(f"Entry {number} of this saved game cannot be replayed: {error}") from None

    def _replay(self, actions: list[dict]) -> None:
        self._start()
        self.actions = []
        for action in actions:
            self._do(action)

    def _do(self, action: dict) -> tuple[ScoreEvent, ...]:
        handler = getattr(self, f"_do_{action.get('do')}", None)
        if handler is None:
            raise ValueError(f"{action.get('do')!r} is not a game entry.")
        if self.is_over:
            raise ValueError(f"The game is over: {self._winner} won; start the next game.")
        before = len(self.events)
        try:
            handler(action)
        except ValueError:
            self._replay(list(self.actions))
            raise
        self.actions.append(action)
        return tuple(self.events[before:])

    def _expect(self, *phases: str, doing: str) -> None:
        if self.phase not in phases:
            wanted = {
                "cut": "cut for the first deal",
                "starter": "turn the starter",
                "play": "finish the play",
                "show": "count the show",
            }[self.phase]
            raise ValueError(f"Cannot {doing} now; first {wanted}.")

    def _score(self, phase: str, player: str, points: int, kind: str, reason: str) -> None:
        if self._winner is not None:
            return
        side = self.side_of(player)
        entry = len(self.actions)
        self.events.append(ScoreEvent(self.round, phase, player, side, points, kind, reason, entry))
        self._scores[side] += points
        self._board.peg(side, points, entry)
        if self._scores[side] >= self.target:
            self._winner = side
            self.phase = "over"

    def _do_cut(self, action: dict) -> None:
        self._expect("cut", doing="cut for deal")
        cut = {p: to_card(c) for p, c in action["cards"].items()}
        if set(cut) != set(self.players):
            raise ValueError(f"Every player cuts for deal: {', '.join(self.players)}.")
        dealer = cut_winner(cut)
        self.cuts.append(cut)
        if dealer is not None:
            self._begin(dealer)

    def _do_dealer(self, action: dict) -> None:
        self._expect("cut", doing="choose the dealer")
        self._check_player(action["player"])
        self._begin(action["player"])

    def _begin(self, dealer: str) -> None:
        self.dealer = dealer
        self.round = 1
        self.phase = "starter"

    def _do_starter(self, action: dict) -> None:
        self._expect("starter", doing="turn the starter")
        card = None if action["card"] is None else to_card(action["card"])
        self.starter = card
        self.phase = "play"
        self.current_play = self._new_play()
        if card is not None and card.rank == 11:
            assert self.dealer is not None
            self._score("starter", self.dealer, 2, "heels", "his heels for 2")

    def _do_hands(self, action: dict) -> None:
        self._expect("play", doing="record the hands")
        if self.current_play is not None and self.current_play.turns:
            raise ValueError("The play has begun; record the hands before the first card.")
        hands = {p: tuple(parse_cards(c)) for p, c in action["hands"].items()}
        crib = tuple(parse_cards(action["crib"]))
        if set(hands) != set(self.players):
            raise ValueError(f"Give the kept cards of every player: {', '.join(self.players)}.")
        for player, cards in hands.items():
            if len(cards) != 4:
                raise ValueError(f"{player} should keep 4 cards after the discard, not {len(cards)}.")
        if len(crib) != 4:
            raise ValueError(f"The crib holds 4 cards, not {len(crib)}.")
        everything = [c for cards in hands.values() for c in cards] + list(crib)
        if self.starter is not None:
            everything.append(self.starter)
        check_distinct(everything)
        self.hands, self.crib = hands, crib
        self.current_play = self._new_play()

    def _new_play(self) -> Play:
        assert self.pone is not None
        hands = None if self.hands is None else {p: list(c) for p, c in self.hands.items()}
        return Play(self.players, self.pone, hands, lenient=self._lenient)

    def _engine(self) -> Play:
        self._expect("play", doing="play a card")
        assert self.current_play is not None
        return self.current_play

    def _do_play(self, action: dict) -> None:
        engine = self._engine()
        self._peg_all(engine.play(action["player"], action["card"]))
        if engine.is_over and self.phase == "play":
            self.phase = "show"

    def _do_go(self, action: dict) -> None:
        engine = self._engine()
        self._peg_all(engine.go(action["player"]))

    def _peg_all(self, pegs: Iterable) -> None:
        for peg in pegs:
            self._score("play", peg.player, peg.points, peg.kind, peg.reason)

    def _do_peg(self, action: dict) -> None:
        self._expect("play", doing="peg points in the play")
        player, points = action["player"], action["points"]
        self._check_player(player)
        if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= 29:
            raise ValueError(f"Points pegged in the play are a whole number from 1 to 29, not {points!r}.")
        reason = action.get("reason") or f"{points} in the play"
        self._score("play", player, points, "points", reason)

    def _do_end_play(self, action: dict) -> None:
        self._expect("play", doing="end the play")
        unfinished = self.current_play is not None and self.current_play.turns and not self.current_play.is_over
        if unfinished and not action.get("unentered"):
            raise ValueError("Cards are still to be played; finish the play before the show.")
        self.phase = "show"

    def _do_show(self, action: dict) -> None:
        self._expect("play", "show", doing="count a hand")
        if self.phase == "play":
            self._do_end_play(action)
        whose = self.next_show
        assert whose is not None and self.dealer is not None
        player = self.dealer if whose == CRIB else whose
        is_crib = whose == CRIB
        claimed, cards, mugger = action["points"], action["cards"], action["mugger"]
        if cards is None and claimed is None:
            if self.hands is None or self.crib is None:
                raise ValueError(f"Give the points or the cards for {whose}'s count; the hands are not known.")
            cards = list(self.crib if is_crib else self.hands[player])
        actual = None
        if cards is not None:
            if self.starter is None:
                raise ValueError("The starter was not recorded, so the cards cannot be counted; give the points.")
            actual = score_hand(parse_cards(cards), self.starter, crib=is_crib).total
        if claimed is None:
            claimed = actual
        if not isinstance(claimed, int) or isinstance(claimed, bool) or not 0 <= claimed <= 29:
            raise ValueError(f"A count in the show is a whole number from 0 to 29, not {claimed!r}.")
        if claimed in (19, 25, 26, 27):
            raise ValueError(f"No hand counts {claimed}; check the count.")
        if actual is not None and claimed > actual:
            raise ValueError(f"{whose} claims {claimed} but the cards count {actual}; correct the claim.")
        missed = 0 if actual is None else actual - claimed
        if mugger is not None and (not self.muggins or actual is None):
            raise ValueError("Muggins needs the muggins rule on and the cards of the hand.")
        taker = self._default_mugger(player) if mugger is None else mugger
        self._check_player(taker)
        if self.side_of(taker) == self.side_of(player):
            raise ValueError(f"{taker} is on {player}'s side and cannot call muggins on that count.")
        label = "crib" if is_crib else "hand"
        self._score("show", player, claimed, label, f"{label} for {claimed}")
        if self.muggins and missed > 0:
            self._score("show", taker, missed, "muggins", f"muggins for {missed}")
        self._shows_done += 1
        if is_crib and self.phase != "over":
            self._next_deal()

    def _default_mugger(self, player: str) -> str:
        return next(p for p in self._after(player) if self.side_of(p) != self.side_of(player))

    def _next_deal(self) -> None:
        assert self.dealer is not None
        self.dealer = self._after(self.dealer)[0]
        self.round += 1
        self.phase = "starter"
        self.starter = None
        self.current_play = None
        self.hands = None
        self.crib = None
        self._shows_done = 0

    def _after(self, player: str) -> list[str]:
        """Seat order starting left of ``player`` and ending with ``player``."""
        i = self.players.index(player)
        n = len(self.players)
        return [self.players[(i + k) % n] for k in range(1, n + 1)]

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise ValueError(f"{player!r} is not one of the players {', '.join(self.players)}.")

    def _check_partnerships(self, partnerships: Sequence[Sequence[str]] | None) -> tuple[tuple[str, str], ...] | None:
        n = len(self.players)
        if n != 4:
            if partnerships:
                raise ValueError(f"Partnerships are for four players; this game has {n}.")
            return None
        if partnerships is None:
            a, b, c, d = self.players
            return ((a, c), (b, d))
        pairs = tuple(tuple(pair) for pair in partnerships)
        if len(pairs) != 2 or any(len(pair) != 2 for pair in pairs):
            raise ValueError("Four players play as two partnerships of two.")
        if sorted(p for pair in pairs for p in pair) != sorted(self.players):
            raise ValueError("Each of the four players must be in exactly one partnership.")
        for x, y in pairs:
            if abs(self.players.index(x) - self.players.index(y)) != 2:
                raise ValueError(f"Partners sit opposite each other; {x} and {y} are seated side by side.")
        return pairs  # type: ignore[return-value]


ACC_POINTS = {"win": 2, "lurch": 3, "skunk": 3, "double skunk": 3}
"""Match points a game's winner takes, as the American Cribbage Congress scores them: 2 a win, 3 a skunk."""


@dataclass(frozen=True, slots=True)
class SittingLine:
    """One side's record over the games of a sitting."""

    side: str
    wins: int
    skunks: int
    points: int


def sitting_table(results: Sequence[Mapping], sides: Sequence[str]) -> list[SittingLine]:
    """Wins, skunks (any win worth more than one game) and ACC match points per side, from finished games'
    ``GameResult.to_dict()``; results naming other sides are ignored.

    >>> [line.points for line in sitting_table([{"winner": "Ann", "kind": "skunk", "games": 2}], ["Ann", "Bob"])]
    [3, 0]
    """
    lines = {side: [0, 0, 0] for side in sides}
    for result in results:
        line = lines.get(str(result.get("winner")))
        if line is None:
            continue
        line[0] += 1
        line[1] += int(result.get("games", 1)) > 1
        line[2] += ACC_POINTS.get(str(result.get("kind")), 2)
    return [SittingLine(side, *lines[side]) for side in sides]


class Match:
    """Games played one after another; totals in games won, and the loser deals the next game.

    >>> match = Match(["Ann", "Bob"])
    >>> match.current.choose_dealer("Ann")
    >>> match.totals()
    {'Ann': 0, 'Bob': 0}
    """

    def __init__(
        self,
        players: Sequence[str],
        target: int = 121,
        partnerships: Sequence[Sequence[str]] | None = None,
        muggins: bool = False,
        scheme: str | None = None,
        games: Sequence[Game] | None = None,
    ) -> None:
        self.games: list[Game] = list(games) if games else [Game(players, target, partnerships, muggins, scheme)]

    @property
    def current(self) -> Game:
        return self.games[-1]

    def totals(self) -> dict[str, int]:
        """Games won by each side over the finished games (a skunk counts 2, a double skunk 4)."""
        totals = dict.fromkeys(self.current.sides, 0)
        for game in self.games:
            if game.result is not None:
                totals[game.result.winner] += game.result.games
        return totals

    def next_game(self) -> Game:
        """Start the next game; the current one must be over."""
        self.games.append(self.current.next_game())
        return self.current

    def to_json(self) -> str:
        return json.dumps({"format": "cribcam-match", "games": [g.to_dict() for g in self.games]})

    @classmethod
    def from_json(cls, text: str) -> Match:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as error:
            raise ValueError(f"This saved match is not valid JSON ({error}).") from None
        if not isinstance(data, dict) or data.get("format") != "cribcam-match" or not data.get("games"):
            raise ValueError("This is not a saved cribcam match (its format mark or games are missing).")
        games = [Game.from_dict(g) for g in data["games"]]
        first = games[0]
        return cls(first.players, first.target, first.partnerships, first.muggins, first.scheme, games)


def _without_entry(event: object) -> object:
    """A saved event without its ``entry`` (games saved before events carried it compare equal)."""
    return {k: v for k, v in event.items() if k != "entry"} if isinstance(event, dict) else event

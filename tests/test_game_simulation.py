"""Random complete games with random legal play: the engine's invariants hold in every one.

Checked after every entry: each side's score and front peg equal the sum of the events returned so far;
the game ends exactly when a side reaches the target and accepts nothing after. Checked every deal:
the deal's points equal his heels plus the play engine's pegs plus the show, with the show counted by the
table-driven ``score_many`` (a different implementation from the game's ``score_hand``).
"""

import numpy as np
import pytest

from scorer.board import peg_positions
from scorer.cards import DECK
from scorer.game import Game
from scorer.tables import score_many


def deals(rng: np.random.Generator, players: list[str], game: Game, count: int = 12):
    """``count`` deals at once: kept hands, crib, starter and the show counted by the numpy tables."""
    n, size = len(players), game.deal_size
    decks = rng.permuted(np.tile(np.arange(52), (count, 1)), axis=1)
    hands = decks[:, : n * size.hand].reshape(count, n, size.hand)
    kept = hands[:, :, size.to_crib :]
    crib = np.concatenate(
        [hands[:, :, : size.to_crib].reshape(count, -1), decks[:, n * size.hand :][:, : size.from_deck]], axis=1
    )
    starter = decks[:, n * size.hand + size.from_deck]
    hand_totals = score_many(kept.reshape(-1, 4), np.repeat(starter, n)).reshape(count, n)
    crib_totals = score_many(crib, starter, crib=True)
    for k in range(count):
        shows = dict(zip(players, map(int, hand_totals[k]), strict=True)) | {"crib": int(crib_totals[k])}
        yield (
            {p: [DECK[i] for i in kept[k, j]] for j, p in enumerate(players)},
            [DECK[i] for i in crib[k]],
            DECK[starter[k]],
            shows,
        )


class Tracker:
    """Runs entries on a game and checks the running invariants after each."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.totals = dict.fromkeys(game.sides, 0)

    def enter(self, method: str, *args) -> None:
        game = self.game
        returned = getattr(game, method)(*args)
        for event in returned if isinstance(returned, tuple) else ():
            self.totals[event.side] += event.points
        reached = [side for side, total in self.totals.items() if total >= game.target]
        assert game.scores == self.totals
        pegs = game.pegs()
        assert all(pegs[side].front == min(total, game.target) for side, total in self.totals.items())
        if reached:
            assert reached == [game.winner] and game.is_over
            last = game.events[-1]
            assert last.side == game.winner and self.totals[game.winner] - last.points < game.target
        else:
            assert not game.is_over


def play_random_game(rng: np.random.Generator, players: list[str], target: int, count_cards: bool) -> Game:
    """One game from the cut to the winning peg; the show is entered as cards or as points."""
    game = Game.new(players, target=target)
    track = Tracker(game)
    while game.dealer is None:
        cut = rng.choice(52, len(players), replace=False)
        track.enter("cut_for_deal", {p: DECK[i] for p, i in zip(players, cut, strict=True)})
    dealt = deals(rng, players, game)
    while not game.is_over:
        kept, crib, starter, shows = next(dealt, None) or next(dealt := deals(rng, players, game))
        before, dealer = game.scores, game.dealer
        expected = dict.fromkeys(players, 0)
        track.enter("turn_starter", starter)
        if starter.rank == 11:
            expected[dealer] += 2
        if game.is_over:
            break
        track.enter("set_hands", kept, crib)
        engine = game.current_play
        while game.phase == "play":
            player = engine.to_play
            legal = engine.legal_cards(player)
            if legal:
                track.enter("play", player, legal[rng.integers(len(legal))])
            else:
                track.enter("go", player)
        for player, points in engine.points().items():
            expected[player] += points
        if game.is_over:
            break
        for whose in game.show_order():
            expected[dealer if whose == "crib" else whose] += shows[whose]
            assert game.next_show == whose
            if count_cards:
                track.enter("show")
            else:
                track.enter("show", shows[whose])
            if game.is_over:
                break
        if not game.is_over:
            after = game.scores
            assert {p: after[p] - before[p] for p in players} == expected
            assert game.dealer == players[(players.index(dealer) + 1) % len(players)]
    with pytest.raises(ValueError, match="The game is over"):
        game.peg(players[0], 1)
    assert game.pegs() == peg_positions(game.events, game.sides, game.target)
    return game


def run_games(count: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for i in range(count):
        players = ["Ann", "Bob"] if i % 2 == 0 else ["Ann", "Bob", "Cat"]
        target = 61 if i % 5 == 4 else 121
        game = play_random_game(rng, players, target, count_cards=i % 10 < 2)
        result = game.result
        assert result is not None and result.winner == game.winner
        if i % 101 == 0:
            restored = Game.from_json(game.to_json())
            assert restored.events == game.events and restored.result == result


def test_ten_thousand_random_two_and_three_player_games():
    run_games(10_000, seed=2026)


@pytest.mark.slow
def test_twenty_thousand_more_random_games():
    run_games(20_000, seed=121)

"""Two phones on one game: both show the same version, phone 1 makes an entry, then phone 2 makes its own,
now stale, entry. Phone 2 is told in one sentence what phone 1 entered and shows the game as it is now; the
stored game holds phone 1's entry once and nothing of phone 2's. One test per kind of entry."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from scorer.game import Game
from ui.common import picker_keys
from ui.game_page import CARDS, QUICK
from ui.store import GameStore, StoredGame

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def _phones(db: Path, game: Game, mode: str = QUICK) -> tuple[AppTest, AppTest, str]:
    """Two phones that opened the same game (version 1)."""
    game_id = GameStore(db).create(game, {"play_mode": mode})
    phones = []
    for _ in range(2):
        at = AppTest.from_file(APP, default_timeout=30)
        at.query_params["game"] = game_id
        phones.append(at.run())
        assert not at.exception and not at.error
    return phones[0], phones[1], game_id


def _click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    return at


def _entered(at: AppTest, key: str) -> None:
    _click(at, key)
    assert not at.error and not at.warning, [m.value for m in [*at.error, *at.warning]]


def _refused(at: AppTest) -> str:
    """The one sentence a stale entry gets: what the other phone did, and that nothing was saved."""
    assert not at.error, [e.value for e in at.error]
    (notice,) = at.warning
    sentence = notice.value
    assert sentence.startswith("Another phone already") and "not saved" in sentence
    assert sentence.endswith(".") and ". " not in sentence
    return sentence


def _stored(db: Path, game_id: str) -> StoredGame:
    return GameStore(db).load(game_id)


def _dealt(**kwargs) -> Game:
    game = Game.new(["Ann", "Bob"], dealer="Ann", **kwargs)
    game.turn_starter("5D")
    return game


def _pick(at: AppTest, key: str, card: str) -> None:
    rank_key, suit_key = picker_keys(key, at.session_state)
    at.button_group(key=rank_key).set_value(card[:-1]).run()
    at.button_group(key=suit_key).set_value(card[-1]).run()


def test_a_hand_is_scored_once_when_two_phones_score_it(db):
    game = _dealt()
    game.end_play()
    one, two, game_id = _phones(db, game)
    one.number_input(key="show_1_Bob_points").set_value(8).run()
    two.number_input(key="show_1_Bob_points").set_value(12).run()
    _entered(one, "show_1_Bob_go")
    _click(two, "show_1_Bob_go")
    assert "Another phone already entered Bob's hand for 8," in _refused(two)
    assert [(e.player, e.reason) for e in _stored(db, game_id).game.events] == [("Bob", "hand for 8")]
    assert two.button(key="show_1_Ann_go")  # phone 2 now shows Ann's hand, and its next entry counts
    two.number_input(key="show_1_Ann_points").set_value(12).run()
    _entered(two, "show_1_Ann_go")
    assert [e.reason for e in _stored(db, game_id).game.events] == ["hand for 8", "hand for 12"]


def test_the_crib_is_scored_once_when_two_phones_score_it(db):
    game = _dealt()
    game.end_play()
    game.show(8)
    game.show(12)
    one, two, game_id = _phones(db, game)
    one.number_input(key="show_1_crib_points").set_value(4).run()
    two.number_input(key="show_1_crib_points").set_value(6).run()
    _entered(one, "show_1_crib_go")
    _click(two, "show_1_crib_go")
    assert "entered Ann's crib for 4," in _refused(two)
    stored = _stored(db, game_id).game
    assert stored.scores == {"Ann": 16, "Bob": 8} and stored.round == 2 and stored.phase == "starter"


def test_plus_two_from_two_phones_pegs_two(db):
    one, two, game_id = _phones(db, _dealt())
    _entered(one, "quick_2")
    _click(two, "quick_2")
    assert "entered Bob's 2 points," in _refused(two)
    assert _stored(db, game_id).game.scores == {"Ann": 0, "Bob": 2}
    assert [m.value for m in two.metric][:2] == ["0", "2"]


def test_a_card_chosen_while_the_other_phone_played_is_not_laid(db):
    one, two, game_id = _phones(db, _dealt(), CARDS)
    _pick(two, "play_card", "8C")  # phone 2 chooses Bob's card...
    _pick(one, "play_card", "7H")
    _entered(one, "play_card_go")  # ...while phone 1 plays Bob's 7
    _click(two, "play_card_go")
    assert "entered Bob's 7♥," in _refused(two)
    play = _stored(db, game_id).game.current_play
    assert [str(c) for c in play.sequence] == ["7H"] and play.count == 7
    assert "Ann" in two.button(key="play_card_go").label  # phone 2 shows Ann to play


def test_go_from_two_phones_is_said_once(db):
    game = _dealt()
    for player, card in (("Bob", "KH"), ("Ann", "QH"), ("Bob", "5C")):
        game.play(player, card)
    one, two, game_id = _phones(db, game, CARDS)
    _entered(one, "play_go")
    _click(two, "play_go")
    assert "entered Ann's go," in _refused(two)
    turns = _stored(db, game_id).game.current_play.turns
    assert [(t.player, t.card) for t in turns[3:]] == [("Ann", None)]


def test_undo_from_two_phones_takes_back_one_entry(db):
    game = _dealt()
    game.peg("Ann", 3, "run of 3")
    game.peg("Bob", 2)  # the typo
    one, two, game_id = _phones(db, game)
    _entered(one, "game_undo")
    assert one.success[0].value == "Took back Bob's 2 points."
    _click(two, "game_undo")
    assert "already took back Bob's 2 points," in _refused(two)
    assert _stored(db, game_id).game.scores == {"Ann": 3, "Bob": 0}


def test_the_end_of_the_play_from_two_phones_is_entered_once(db):
    one, two, game_id = _phones(db, _dealt())
    _entered(one, "play_end")
    _click(two, "play_end")
    assert "entered the end of the play," in _refused(two)
    assert [a["do"] for a in _stored(db, game_id).game.to_dict()["actions"]] == ["starter", "end_play"]


def test_the_play_entry_mode_set_on_two_phones_is_saved_once(db):
    one, two, game_id = _phones(db, _dealt())
    one.button_group(key="play_mode_pick").set_value(CARDS).run()
    two.button_group(key="play_mode_pick").set_value(CARDS).run()
    assert "set the play to card by card," in _refused(two)
    stored = _stored(db, game_id)
    assert stored.settings == {"play_mode": CARDS} and stored.version == 2
    assert two.button_group(key="play_mode_pick").value == CARDS and two.button(key="play_card_go")


def test_a_stale_mode_change_shows_the_other_phones_mode(db):
    one, two, game_id = _phones(db, _dealt())
    one.button_group(key="play_mode_pick").set_value(CARDS).run()
    _click(two, "quick_2")
    assert "set the play to card by card," in _refused(two)
    assert two.button_group(key="play_mode_pick").value == CARDS
    assert _stored(db, game_id).game.scores["Bob"] == 0


def test_the_dealer_chosen_on_two_phones_is_the_first_choice(db):
    one, two, game_id = _phones(db, Game.new(["Ann", "Bob"]))
    for at in (one, two):
        at.button_group(key="cut_how").set_value("Choose the dealer").run()
    _entered(one, "cut_dealer_Ann")
    _click(two, "cut_dealer_Bob")
    assert "entered Ann as the dealer," in _refused(two)
    stored = _stored(db, game_id).game
    assert stored.dealer == "Ann" and len(stored.actions) == 1


def test_the_starter_turned_on_two_phones_is_the_first_one(db):
    one, two, game_id = _phones(db, Game.new(["Ann", "Bob"], dealer="Ann"))
    _pick(two, "starter", "JD")
    _entered(one, "starter_none")
    _click(two, "starter_go")
    assert "entered no starter," in _refused(two)
    stored = _stored(db, game_id).game
    assert stored.starter is None and stored.scores == {"Ann": 0, "Bob": 0} and len(stored.actions) == 1


def test_next_game_from_two_phones_makes_one_game_both_follow(db):
    game = Game.new(["Ann", "Bob"], target=61, dealer="Ann")
    game.turn_starter(None)
    game.peg("Ann", 29)
    game.peg("Ann", 29)
    game.peg("Ann", 3)
    assert game.is_over
    one, two, finished = _phones(db, game)
    _entered(one, "game_next")
    _click(two, "game_next")
    assert two.warning[0].value == "Another phone already started the next game; this phone follows it."
    following = one.query_params["game"]
    assert following != finished and two.query_params["game"] == following
    assert len(GameStore(db).recent()) == 2 and _stored(db, finished).successor == following
    assert two.button(key="starter_go") and _stored(db, following).game.dealer == "Bob"

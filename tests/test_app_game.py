"""The game page: a scripted game played to the end through the widgets, and a reload by game id."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scorer.game import Game
from ui.common import picker_keys
from ui.game_page import NAME_CHARS, player_names
from ui.store import GameStore

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def _app(**params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def _click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    return at


def _pick(at: AppTest, key: str, rank: str, suit: str) -> None:
    """Tap ``rank`` and ``suit`` in card picker ``key`` (whose pills get new keys each time it is cleared)."""
    rank_key, suit_key = picker_keys(key, at.session_state)
    at.button_group(key=rank_key).set_value(rank).run()
    at.button_group(key=suit_key).set_value(suit).run()


def _show(at: AppTest, game, points: int) -> AppTest:
    key = f"show_{game.round}_{game.next_show}"
    at.number_input(key=f"{key}_points").set_value(points).run()
    return _click(at, f"{key}_go")


def _game(db: Path):
    store = GameStore(db)
    (summary,) = store.recent()
    return summary.id, store.load(summary.id).game


def _start(db: Path) -> tuple[AppTest, str]:
    at = _app(page="game")
    at.button_group(key="new_first").set_value("Choose the dealer").run()
    at.button_group(key="new_dealer").set_value("Ann").run()
    _click(at, "new_start")
    game_id, _ = _game(db)
    assert at.query_params["game"] == game_id
    return at, game_id


def test_scripted_game_to_a_skunk_with_pegs_and_history(db):
    at, _ = _start(db)
    # Deal 1, Ann deals: the starter is a jack (his heels), Bob pegs 2 in the play, then the show.
    _pick(at, "starter", "J", "D")
    _click(at, "starter_go")
    assert "his heels for 2" in at.success[0].value
    at.button_group(key="quick_who").set_value("Bob").run()
    _click(at, "quick_2")
    _click(at, "play_end")
    for points in (24, 29, 29):  # Bob's hand, Ann's hand, Ann's crib
        _show(at, _game(db)[1], points)
    # Deal 2, Bob deals: no starter recorded, a quiet play.
    _click(at, "starter_none")
    _click(at, "play_end")
    for points in (29, 24, 20):  # Ann, Bob, Bob's crib
        _show(at, _game(db)[1], points)
    # Deal 3: Ann's crib takes her out.
    _click(at, "starter_none")
    _click(at, "play_end")
    for points in (0, 29, 29):
        _show(at, _game(db)[1], points)

    _, game = _game(db)
    assert game.winner == "Ann"
    assert game.scores == {"Ann": 147, "Bob": 70}
    pegs = game.pegs()
    assert (pegs["Ann"].front, pegs["Ann"].back) == (121, 118)
    assert (pegs["Bob"].front, pegs["Bob"].back) == (70, 50)  # a hand of 0 moves no peg
    assert any("Ann wins with a skunk (2 games)" in s.value for s in at.success)
    summary = at.table[0].value
    assert (
        list(summary["Pegging"]) == [2, 2] and list(summary["Hand"]) == [87, 48] and list(summary["Crib"]) == [58, 20]
    )
    finished = at.query_params["game"]
    _click(at, "game_next")
    assert at.query_params["game"] != finished
    following = GameStore(db).load(at.query_params["game"]).game
    assert following.dealer == "Bob" and following.scores == {"Ann": 0, "Bob": 0}  # the loser deals next


def test_reload_by_game_id_loses_nothing(db):
    at, game_id = _start(db)
    _click(at, "starter_none")
    at.button_group(key="quick_who").set_value("Bob").run()
    _click(at, "quick_3")
    _click(at, "quick_31")
    before = _game(db)[1].to_json()

    again = _app(game=game_id)  # a reload, or another phone opening the same link
    assert not again.exception
    assert [m.value for m in again.metric][:2] == ["0", "5"]
    assert again.button(key="quick_1")  # still in the play of deal 1
    assert GameStore(db).load(game_id).game.to_json() == before
    _click(again, "game_undo")
    assert again.success[0].value == "Took back Bob's 2 points."
    assert _game(db)[1].scores["Bob"] == 3


def test_card_by_card_play_scores_with_the_running_count(db):
    at, _ = _start(db)
    _click(at, "starter_none")
    at.button_group(key="play_mode_pick").set_value("Card by card").run()
    for rank, suit in (("7", "H"), ("8", "C")):
        _pick(at, "play_card", rank, suit)
        _click(at, "play_card_go")
    assert "Ann: fifteen for 2" in at.success[0].value
    assert "15" in [m.value for m in at.metric]


def test_a_database_that_cannot_be_opened_is_one_sentence(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CRIBCAM_DB", str(blocker / "games.sqlite"))
    at = _app(page="game")
    assert not at.exception
    assert "cannot be opened" in at.error[0].value


def test_cut_for_deal_lowest_card_deals_and_a_tie_cuts_again(db):
    at = _app(page="game")
    _click(at, "new_start")
    for player, rank, suit in (("Ann", "9", "C"), ("Bob", "9", "H")):
        _pick(at, f"cut_{player}", rank, suit)
    _click(at, "cut_go")
    assert "tie" in at.success[0].value
    for player, rank, suit in (("Ann", "K", "C"), ("Bob", "3", "H")):
        _pick(at, f"cut_{player}", rank, suit)
    _click(at, "cut_go")
    assert _game(db)[1].dealer == "Bob"


def test_four_players_score_as_partnerships_and_muggins_takes_missed_points(db):
    at = _app(page="game")
    at.button_group(key="new_players").set_value("4 (partners)").run()
    at.toggle(key="new_muggins").set_value(True).run()
    at.button_group(key="new_first").set_value("Choose the dealer").run()
    at.button_group(key="new_dealer").set_value("Dan").run()
    _click(at, "new_start")
    assert [m.label for m in at.metric][:2] == ["Ann & Cat", "Bob & Dan"]
    _pick(at, "starter", "5", "D")
    _click(at, "starter_go")
    _click(at, "play_end")
    key = "show_1_Ann"
    for rank, suit in (("5", "H"), ("5", "C"), ("5", "S"), ("J", "D")):
        _pick(at, f"{key}_pick", rank, suit)
        _click(at, f"{key}_pick_add")
    assert at.text_input(key=f"{key}_cards").value == "5H 5C 5S JD"
    at.number_input(key=f"{key}_points").set_value(20).run()
    _click(at, f"{key}_go")
    assert "Ann: hand for 20" in at.success[0].value and "Bob: muggins for 9" in at.success[0].value
    assert _game(db)[1].scores == {"Ann & Cat": 20, "Bob & Dan": 9}


def test_two_tables_run_two_games_side_by_side(db):
    store = GameStore(db)
    first = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    second = store.create(Game.new(["Cat", "Dan", "Eve"], dealer="Eve"))
    one, two = _app(game=first), _app(game=second)
    _click(one, "starter_none")
    assert [m.label for m in one.metric] == ["Ann", "Bob"]
    assert [m.label for m in two.metric] == ["Cat", "Dan", "Eve"] and two.button(key="starter_go")
    assert store.load(second).game.phase == "starter" and store.load(first).game.phase == "play"


def test_a_saved_game_is_opened_from_the_list_or_by_its_id(db):
    game_id = GameStore(db).create(Game.new(["Ann", "Bob"], dealer="Ann"))
    at = _app(page="game")
    _click(at, f"open_{game_id}")
    assert at.query_params["game"] == game_id and at.button(key="starter_go")
    at = _app(page="game")
    at.text_input(key="open_id").input(game_id.upper())
    _click(at, "open_go")
    assert at.query_params["game"] == game_id and at.button(key="starter_go")


def test_an_unknown_game_id_says_so_with_a_way_out(db):
    at = _app(game="0badc0de")
    assert "There is no game 0badc0de" in at.warning[0].value
    _click(at, "game_leave_missing")
    assert "game" not in at.query_params


def test_a_file_that_is_not_a_database_is_one_sentence(db):
    db.write_bytes(b"this is not SQLite" * 100)
    at = _app(page="game")
    assert not at.exception and "cannot be opened" in at.error[0].value and "CRIBCAM_DB" in at.error[0].value


def test_an_upper_case_game_id_in_the_link_opens_the_game(db):
    game_id = GameStore(db).create(Game.new(["Ann", "Bob"], dealer="Ann"))
    at = _app(game=game_id.upper())
    assert not at.exception and not at.warning and at.button(key="starter_go")
    assert at.query_params["game"] == game_id


@pytest.mark.parametrize("link", ["[Log in again](https://evil.example)", "nosuchid", "**0badc0de**"])
def test_a_link_whose_game_id_is_not_an_id_is_refused_as_plain_text(db, link):
    at = _app(game=link)
    assert not at.exception
    (warning,) = at.warning
    assert warning.value.startswith("That is not a game id:") and link not in warning.value
    assert not any("evil" in m.value for m in at.markdown)
    _click(at, "game_leave_bad_id")
    assert "game" not in at.query_params


def test_a_typed_text_that_is_not_a_game_id_is_refused_in_one_sentence(db):
    at = _app(page="game")
    at.text_input(key="open_id").input("[x](y)")
    at.button(key="open_go").click().run()
    assert "game" not in at.query_params and at.error[0].value.startswith("That is not a game id:")


def test_four_names_that_make_both_partnerships_one_name_are_refused(db):
    at = _app(page="game")
    at.button_group(key="new_players").set_value("4 (partners)").run()
    for i, name in enumerate(["A & B", "A", "C", "B & C"]):
        at.text_input(key=f"new_name_{i}").input(name).run()
    at.button(key="new_start").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == ["Both partnerships would be called A & B & C; give the players other names."]
    assert GameStore(db).recent() == []


@pytest.mark.parametrize(
    ("names", "says"),
    [
        (["Ann", " ann "], "Players 1 and 2 are both called ann"),
        (["Ann", "Bob", "ANN  LEE", "ann lee"], "Players 3 and 4 are both called"),
        (["Ann", "   "], "Player 2 needs a name"),
        (["Ann", "B" * (NAME_CHARS + 1)], f"keep it to {NAME_CHARS}"),
        (["Ann", "Bo\x07b"], "letters, digits, spaces"),
        (["Ann", "Bob\u202e"], "letters, digits, spaces"),
        (["Ann", "[x](https://e.vil)"], "letters, digits, spaces"),
    ],
)
def test_player_names_that_cannot_be_told_apart_or_shown_are_refused(names, says):
    with pytest.raises(ValueError, match=says):
        player_names(names)


def test_player_names_keep_letters_of_any_script_and_tidy_spaces():
    assert player_names(["  José  María ", "O'Brien-Smith", "李雷", "Zoë 🃏"]) == [
        "José María",
        "O'Brien-Smith",
        "李雷",
        "Zoë 🃏",
    ]
    assert player_names(["a", "b", "A & B", "c"]) == ["a", "b", "A & B", "c"]  # sides 'a & A & B', 'b & c'

"""The game page at the table: the whole show in one photo, the starter from a photo, the end of a quick play."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MODELS
from streamlit.testing.v1 import AppTest

from scorer.cards import Card
from scorer.game import Game
from scorer.hand import score_hand
from ui import photos
from ui.chips import chip_key
from ui.common import picker_keys
from ui.store import GameStore

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def _opened(db: Path, game: Game, mode: str = "Quick points") -> tuple[AppTest, str]:
    game_id = GameStore(db).create(game, {"play_mode": mode})
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["game"] = game_id
    at.run()
    assert not at.exception
    return at, game_id


def _upload(at: AppTest, key: str, data: bytes) -> AppTest:
    at.file_uploader(key=f"{key}_upload").set_value(("photo.jpg", data, "image/jpeg")).run()
    assert not at.exception, at.exception
    return at


def _reads_as(
    monkeypatch, cards: str, starter: str | None = None, groups: list[str] | None = None, checks: str = ""
) -> None:
    """Stand in for the detector: every photo 'shows' these cards (and groups); ``checks`` as "QD>JD": cards to
    check and the card each most likely is ("->JD": a place left out, most likely JD)."""
    result = photos.PhotoResult(
        cards=[Card.parse(c) for c in cards.split()],
        starter=None if starter is None else Card.parse(starter),
        groups=[[Card.parse(c) for c in g.split()] for g in groups or []],
        checks=[
            photos.CardCheck(None if card == "-" else Card.parse(card), Card.parse(other))
            for card, other in (pair.split(">") for pair in checks.split())
        ],
        seconds=0.1,
    )
    monkeypatch.setattr(photos, "models_present", lambda: True)
    monkeypatch.setattr(photos, "read", lambda data: result)


def _at_the_show(**kwargs) -> Game:
    game = Game.new(["Ann", "Bob"], dealer="Ann", **kwargs)
    game.turn_starter("5D")
    game.end_play()
    return game


# --- the whole show in one photo ------------------------------------------------------------------------------


@pytest.mark.skipif(not (MODELS / "cribcam.json").is_file(), reason="no trained model in models/ yet")
def test_one_photo_of_the_show_counts_pone_dealer_and_crib_in_order(db):
    from ui.sample import show_photo

    bob, ann, crib = ["2C", "3C", "4D", "9S"], ["5H", "5C", "5S", "JD"], ["KH", "QH", "JH", "10H"]
    at, game_id = _opened(db, _at_the_show())
    key = "whole_1_3"
    _upload(at, key, show_photo([bob, ann, crib], "5D"))
    assert not at.warning, [w.value for w in at.warning]
    assert [at.session_state[f"{key}_cards_{i}"] for i in range(3)] == [bob, ann, crib]
    assert [at.button_group(key=f"{key}_whose_{i}").value for i in range(3)] == ["Bob", "Ann", "crib"]
    at.button(key=f"{key}_go").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    game = GameStore(db).load(game_id).game
    shows = [(e.player, e.kind, e.points) for e in game.events if e.phase == "show"]
    assert shows == [
        ("Bob", "hand", score_hand(bob, "5D").total),
        ("Ann", "hand", 29),
        ("Ann", "crib", score_hand(crib, "5D", crib=True).total),
    ]
    assert game.round == 2 and game.phase == "starter"


def test_a_misread_group_is_fixed_and_owners_are_changed_before_counting(db, monkeypatch):
    _reads_as(monkeypatch, "2C 3C 4D 9S 5H 5C 5S QD AH AS AD AC", groups=["2C 3C 4D 9S", "5H 5C 5S QD", "AH AS AD AC"])
    at, game_id = _opened(db, _at_the_show())
    key = "whole_1_3"
    _upload(at, key, b"stand-in")
    chip = chip_key(f"{key}_cards_1", 3, at.session_state)  # QD was a misread JD: fixed on its chip
    assert at.get_by_key(f"{chip}_pop").proto.popover.label == ":red[Q♦]"
    at.button_group(key=f"{chip}_rank").set_value("J").run()
    at.button_group(key=f"{key}_whose_0").set_value("Ann").run()
    at.button_group(key=f"{key}_whose_1").set_value("Bob").run()
    at.button(key=f"{key}_go").click().run()
    game = GameStore(db).load(game_id).game
    expected = [
        ("Bob", 29),
        ("Ann", score_hand(["2C", "3C", "4D", "9S"], "5D").total),
        ("Ann", score_hand(["AH", "AS", "AD", "AC"], "5D", crib=True).total),
    ]
    assert [(e.player, e.points) for e in game.events if e.phase == "show"] == expected


def test_a_card_to_check_in_the_whole_show_is_fixed_in_one_tap_in_its_group(db, monkeypatch):
    groups = ["2C 3C 4D 9S", "5H 5C 5S QD", "AH AS AD AC"]
    # no Remove (each group has the four a count needs), no Add (no group for it): 9S's runner-up is the starter
    _reads_as(monkeypatch, " ".join(groups), groups=groups, checks="QD>JD AD>2D 9S>5D ->KH")
    at, game_id = _opened(db, _at_the_show())
    key = "whole_1_3"
    _upload(at, key, b"stand-in")
    assert [b.label for b in at.button if "_fix_" in b.key] == ["Change QD to JD", "Change AD to 2D"]
    at.button(key=f"{key}_fix_QD_JD").click().run()
    assert at.session_state[f"{key}_cards_1"] == ["5H", "5C", "5S", "JD"]
    assert at.session_state[f"{key}_cards_2"] == ["AH", "AS", "AD", "AC"]  # the other group untouched
    assert [b.label for b in at.button if "_fix_" in b.key] == ["Change AD to 2D"]
    at.button(key=f"{key}_go").click().run()
    shows = [(e.player, e.points) for e in GameStore(db).load(game_id).game.events if e.phase == "show"]
    assert shows[1] == ("Ann", 29)


def test_a_card_to_check_in_one_hands_photo_is_fixed_in_one_tap_in_the_typed_cards(db, monkeypatch):
    # five cards for a hand of four; 4D's runner-up is the starter 5D, shown apart: 4D is likely its second corner
    _reads_as(monkeypatch, "5H 5C QD 4D 5S", checks="QD>JD 4D>5D")
    at, game_id = _opened(db, _at_the_show())
    key = "show_1_Bob"
    _upload(at, key, b"stand-in")
    assert [b.label for b in at.button if "_fix_" in b.key] == ["Change QD to JD", "Remove 4D"]
    at.button(key=f"{key}_fix_QD_JD").click().run()
    at.button(key=f"{key}_fix_4D_5D").click().run()
    assert at.text_input(key=f"{key}_cards").value == "5H 5C JD 5S"
    assert not [b for b in at.button if "_fix_" in b.key]
    at.button(key=f"{key}_go").click().run()
    assert [e.points for e in GameStore(db).load(game_id).game.events if e.phase == "show"] == [29]


def test_a_place_left_out_in_one_hands_photo_is_added_in_one_tap_to_the_typed_cards(db, monkeypatch):
    _reads_as(monkeypatch, "5H 5C JD", checks="->5S ->5D")  # 5D is the starter: not offered
    at, _ = _opened(db, _at_the_show())
    key = "show_1_Bob"
    _upload(at, key, b"stand-in")
    assert [b.label for b in at.button if "_fix_" in b.key] == ["Add 5S"]
    at.button(key=f"{key}_fix_add_5S").click().run()
    assert at.text_input(key=f"{key}_cards").value == "5H 5C JD 5S"


def test_a_group_read_short_gets_its_missed_card_added_and_a_false_one_removed_on_chips(db, monkeypatch):
    _reads_as(monkeypatch, "2C 3C 4D 9S 5H 5C 5S JD AH AS AD AC", groups=["2C 3C 4D 9S", "5H 5C 5S JD", "AH AS AD AC"])
    at, game_id = _opened(db, _at_the_show())
    key = "whole_1_3"
    _upload(at, key, b"stand-in")
    group = f"{key}_cards_2"
    at.button(key=f"{chip_key(group, 0, at.session_state)}_remove").click().run()  # not AH: a king of hearts
    assert at.session_state[group] == ["AS", "AD", "AC"]
    rank, suit = picker_keys(f"{group}_add", at.session_state)
    at.button_group(key=rank).set_value("K").run()
    at.button_group(key=suit).set_value("H").run()
    at.button(key=f"{group}_add_button").click().run()
    at.button(key=f"{key}_go").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    crib = [e.points for e in GameStore(db).load(game_id).game.events if e.phase == "show" and e.kind == "crib"]
    assert crib == [score_hand(["AS", "AD", "AC", "KH"], "5D", crib=True).total]


def test_the_same_owner_for_two_groups_is_one_sentence_and_nothing_saved(db, monkeypatch):
    _reads_as(monkeypatch, "2C 3C 4D 9S 5H 5C 5S JD AH AS AD AC", groups=["2C 3C 4D 9S", "5H 5C 5S JD", "AH AS AD AC"])
    at, game_id = _opened(db, _at_the_show())
    _upload(at, "whole_1_3", b"stand-in")
    at.button_group(key="whole_1_3_whose_1").set_value("Bob").run()
    at.button(key="whole_1_3_go").click().run()
    assert at.error[0].value == "Give each group a different owner: every hand and the crib once."
    assert GameStore(db).load(game_id).version == 1


def test_counting_the_whole_show_stops_when_someone_reaches_the_target(db, monkeypatch):
    game = Game.new(["Ann", "Bob"], dealer="Ann")
    game.turn_starter("5D")
    for _ in range(4):
        game.peg("Bob", 29)  # 116: Bob's hand (pone, first to count) takes him out
    game.end_play()
    _reads_as(monkeypatch, "2C 3C 4D 9S 5H 5C 5S JD AH AS AD AC", groups=["2C 3C 4D 9S", "5H 5C 5S JD", "AH AS AD AC"])
    at, game_id = _opened(db, game)
    _upload(at, "whole_1_3", b"stand-in")
    at.button(key="whole_1_3_go").click().run()
    stored = GameStore(db).load(game_id).game
    assert stored.is_over and stored.result.winner == "Bob"
    assert [e.player for e in stored.events if e.phase == "show"] == ["Bob"]  # Ann's hand and crib never counted


def test_a_photo_without_groups_of_four_says_what_the_show_needs(db, monkeypatch):
    _reads_as(monkeypatch, "2C 3C 4D 9S 5H", groups=["2C 3C 4D 9S", "5H"])
    at, _ = _opened(db, _at_the_show())
    _upload(at, "whole_1_3", b"stand-in")
    assert "the show still needs 3" in at.warning[0].value
    assert "whole_1_3_go" not in [b.key for b in at.button]


def test_a_hand_photo_in_the_show_does_not_ask_for_the_known_starter(db, monkeypatch):
    _reads_as(monkeypatch, "5H 5C 5S JD 5D")
    at, _ = _opened(db, _at_the_show())
    _upload(at, "show_1_Bob", b"stand-in")
    assert not [w.value for w in at.warning if "starter" in w.value]


# --- the starter from a photo -------------------------------------------------------------------------------


def test_a_photo_of_several_cards_at_the_starter_step_offers_none_silently(db, monkeypatch):
    _reads_as(monkeypatch, "5H 5C 5S JD 5D")
    at, _ = _opened(db, Game.new(["Ann", "Bob"], dealer="Ann"))
    _upload(at, "starter_1", b"stand-in")
    assert "shows 5 cards" in at.warning[0].value
    assert not [b for b in at.button if b.key == "starter_from_photo"]


@pytest.mark.parametrize(("cards", "starter"), [("7D", None), ("5H 5C 5S JD 7D", "7D")])
def test_one_card_or_one_set_apart_is_offered_as_the_starter(db, monkeypatch, cards, starter):
    _reads_as(monkeypatch, cards, starter)
    at, game_id = _opened(db, Game.new(["Ann", "Bob"], dealer="Ann"))
    _upload(at, "starter_1", b"stand-in")
    at.button(key="starter_from_photo").click().run()
    assert GameStore(db).load(game_id).game.starter == Card.parse("7D")


# --- the play -----------------------------------------------------------------------------------------------


def test_switching_to_quick_points_mid_play_keeps_the_way_on_to_the_show(db):
    game = Game.new(["Ann", "Bob"], dealer="Ann")
    game.turn_starter("5D")
    game.play("Bob", "7H")
    at, game_id = _opened(db, game, mode="Card by card")
    assert not [b for b in at.button if b.key == "play_end"]  # card by card: the play is not over yet
    at.button_group(key="play_mode_pick").set_value("Quick points").run()
    at.button(key="play_end").click().run()
    assert GameStore(db).load(game_id).game.phase == "show"


# --- the match across a sitting -----------------------------------------------------------------------------


def _won_by_ann() -> Game:
    game = Game.new(["Ann", "Bob"], dealer="Ann")
    game.turn_starter("5D")
    while not game.is_over:
        game.peg("Ann", 29)
    return game


def test_the_next_game_keeps_the_match_so_far_with_wins_skunks_and_acc_points(db):
    at, first_id = _opened(db, _won_by_ann())  # Bob on 0: a double skunk
    line = "The match so far, 1 game: Ann 1 won (1 skunked), 3 pts · Bob 0 won (0 skunked), 0 pts"
    assert any(line in c.value for c in at.caption)
    at.button(key="game_next").click().run()
    second_id = at.query_params["game"][0] if isinstance(at.query_params["game"], list) else at.query_params["game"]
    assert second_id != first_id
    at.run()
    assert any("The match so far, 1 game: Ann 1 won" in c.value for c in at.caption)
    store = GameStore(db)
    assert store.load(second_id).settings["sitting"][0]["winner"] == "Ann"

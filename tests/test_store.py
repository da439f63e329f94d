"""The games store: every change is a compare-and-swap on the version the person saw, one next game per
finished game, damaged records and odd ids refused in one sentence. Real SQLite files, two connections."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from scorer.game import Game
from ui.store import GameStore, StaleGame, StoreError, parse_id


def _finished() -> Game:
    game = Game.new(["Ann", "Bob"], target=61, dealer="Ann")
    game.turn_starter(None)
    game.end_play()
    game.show(29)  # Bob
    game.show(29)  # Ann
    game.show(29)  # Ann's crib: 58
    game.turn_starter(None)
    game.end_play()
    game.show(24)  # Ann, out
    assert game.is_over
    return game


def _rows(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def test_update_applies_to_the_version_seen_and_refuses_a_stale_one(tmp_path):
    path = tmp_path / "games.sqlite"
    one, two = GameStore(path), GameStore(path)  # two phones, two connections
    game_id = one.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    one.update(game_id, 1, lambda s: s.game.turn_starter(None))
    one.update(game_id, 2, lambda s: s.game.peg("Bob", 2))
    with pytest.raises(StaleGame) as refused:
        two.update(game_id, 2, lambda s: s.game.peg("Bob", 2))  # the same +2, from the phone that showed version 2
    assert refused.value.current.version == 3
    stored = one.load(game_id)
    assert stored.version == 3 and stored.game.scores == {"Ann": 0, "Bob": 2}


def test_a_save_between_load_and_swap_is_refused_by_the_swap(tmp_path):
    path = tmp_path / "games.sqlite"
    one, two = GameStore(path), GameStore(path)
    game_id = one.create(Game.new(["Ann", "Bob"], dealer="Ann"))

    def slow_change(stored):  # another phone saves while this change is being made
        two.update(game_id, 1, lambda s: s.game.turn_starter("JD"))
        stored.game.turn_starter(None)

    with pytest.raises(StaleGame):
        one.update(game_id, 1, slow_change)
    stored = one.load(game_id)
    assert stored.version == 2 and stored.game.starter is not None and stored.game.scores["Ann"] == 2


def test_save_is_a_compare_and_swap_on_the_loaded_version(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    first, second = store.load(game_id), store.load(game_id)
    first.settings["play_mode"] = "Card by card"
    store.save(first)
    second.settings["play_mode"] = "Quick points"
    with pytest.raises(StaleGame) as refused:
        store.save(second)
    assert refused.value.current.settings == {"play_mode": "Card by card"} and refused.value.current.version == 2
    assert store.load(game_id).settings == {"play_mode": "Card by card"} and first.version == 2


def test_an_entry_the_rules_refuse_saves_nothing(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    with pytest.raises(ValueError, match="Cannot peg"):
        store.update(game_id, 1, lambda s: s.game.peg("Bob", 2))
    assert store.load(game_id).version == 1


def test_next_game_asked_twice_gives_one_game(tmp_path):
    path = tmp_path / "games.sqlite"
    one, two = GameStore(path), GameStore(path)
    finished = one.create(_finished(), {"play_mode": "Card by card"})
    following = one.start_next(finished, 1)
    with pytest.raises(StaleGame) as second:
        two.start_next(finished, 1)
    assert second.value.current.successor == following
    assert _rows(path) == 2
    assert one.load(finished).successor == following
    new = one.load(following)
    assert new.game.dealer == "Bob" and new.settings == {"play_mode": "Card by card"} and new.version == 1


def test_a_lost_next_game_race_leaves_no_orphan_game(tmp_path):
    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    finished = store.create(_finished())
    store.update(finished, 1, lambda s: s.settings.update(note="x"))  # another phone saved: now version 2
    with pytest.raises(StaleGame):
        store.start_next(finished, 1)
    assert _rows(path) == 1 and store.load(finished).successor is None


def test_a_game_whose_next_game_started_takes_no_more_entries(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    finished = store.create(_finished())
    store.start_next(finished, 1)
    with pytest.raises(StoreError, match="next game"):
        store.update(finished, 2, lambda s: s.game.undo())
    assert store.load(finished).game.is_over


def test_next_game_of_a_game_not_over_is_refused(tmp_path):
    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    with pytest.raises(ValueError, match="not over"):
        store.start_next(game_id, 1)
    assert _rows(path) == 1


@pytest.mark.parametrize(
    ("column", "value", "says"),
    [
        ("settings", "{not json", "settings or version are damaged"),
        ("settings", "[1, 2]", "settings or version are damaged"),
        ("version", "x", "settings or version are damaged"),
        ("successor", "[x](https://evil.example)", "link to the next game is damaged"),
    ],
)
def test_a_damaged_record_is_one_sentence(tmp_path, column, value, says):
    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    with sqlite3.connect(path) as db:
        db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
    with pytest.raises(StoreError, match=says):
        store.load(game_id)


def test_a_database_made_before_next_game_links_is_upgraded(tmp_path):
    path = tmp_path / "games.sqlite"
    game = _finished()
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, updated REAL NOT NULL, "
            "version INTEGER NOT NULL, players TEXT NOT NULL, game TEXT NOT NULL, settings TEXT NOT NULL DEFAULT '{}')"
        )
        db.execute("INSERT INTO games VALUES ('0badc0de', 0, 0, 4, 'Ann · Bob', ?, '{}')", (game.to_json(),))
    store = GameStore(path)
    assert store.load("0badc0de").version == 4
    following = store.start_next("0badc0de", 4)
    assert store.load("0badc0de").successor == following


def test_game_ids_are_found_in_any_case(tmp_path):
    store = GameStore(tmp_path / "games.sqlite")
    game_id = store.create(Game.new(["Ann", "Bob"]))
    assert store.load(f" {game_id.upper()} ").id == game_id


@pytest.mark.parametrize("odd", ["[Log in again](https://evil.example)", "nosuchid", "0badc0de0", "", "x' OR 1=1 --"])
def test_a_text_that_is_not_a_game_id_is_refused_before_any_query(tmp_path, odd):
    store = GameStore(tmp_path / "games.sqlite")
    store._db.close()  # any query would now raise sqlite3.ProgrammingError
    with pytest.raises(ValueError, match="not a game id"):
        store.load(odd)
    with pytest.raises(ValueError, match="not a game id"):
        parse_id(odd)

"""The games store: every change is a compare-and-swap on the version the person saw, one next game per
finished game, damaged records and odd ids refused in one sentence. Each rule on both backends, a real SQLite
file and a real PostgreSQL server (``database``, in conftest.py; PostgreSQL skips without ``CRIBCAM_TEST_PG``),
two stores (two phones) on one database; then what only PostgreSQL has: URLs, its pool and its schema lock."""

from __future__ import annotations

import re
import socket
import sqlite3
import threading
import time
from contextlib import closing

import psycopg
import pytest

from scorer.game import Game
from ui.store import GameStore, StaleGame, StoreError, parse_id
from ui.store_postgres import CONNECT_TIMEOUT, POOL_SIZE, create_schema


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


def _sql(database: str, sql: str, params: tuple = ()) -> list[tuple]:
    """Run ``sql`` (``?`` parameters) on the database itself, around the store: to count or to damage rows."""
    if database.startswith("postgresql://"):
        with psycopg.connect(database, autocommit=True) as db:
            cursor = db.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if cursor.description else []
    with closing(sqlite3.connect(database)) as db, db:
        return db.execute(sql, params).fetchall()


def _rows(database: str) -> int:
    return _sql(database, "SELECT COUNT(*) FROM games")[0][0]


def test_update_applies_to_the_version_seen_and_refuses_a_stale_one(database):
    one, two = GameStore(database), GameStore(database)  # two phones, two stores
    game_id = one.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    one.update(game_id, 1, lambda s: s.game.turn_starter(None))
    one.update(game_id, 2, lambda s: s.game.peg("Bob", 2))
    with pytest.raises(StaleGame) as refused:
        two.update(game_id, 2, lambda s: s.game.peg("Bob", 2))  # the same +2, from the phone that showed version 2
    assert refused.value.current.version == 3
    stored = one.load(game_id)
    assert stored.version == 3 and stored.game.scores == {"Ann": 0, "Bob": 2}


def test_a_save_between_load_and_swap_is_refused_by_the_swap(database):
    one, two = GameStore(database), GameStore(database)
    game_id = one.create(Game.new(["Ann", "Bob"], dealer="Ann"))

    def slow_change(stored):  # another phone saves while this change is being made
        two.update(game_id, 1, lambda s: s.game.turn_starter("JD"))
        stored.game.turn_starter(None)

    with pytest.raises(StaleGame):
        one.update(game_id, 1, slow_change)
    stored = one.load(game_id)
    assert stored.version == 2 and stored.game.starter is not None and stored.game.scores["Ann"] == 2


def test_save_is_a_compare_and_swap_on_the_loaded_version(database):
    store = GameStore(database)
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    first, second = store.load(game_id), store.load(game_id)
    first.settings["play_mode"] = "Card by card"
    store.save(first)
    second.settings["play_mode"] = "Quick points"
    with pytest.raises(StaleGame) as refused:
        store.save(second)
    assert refused.value.current.settings == {"play_mode": "Card by card"} and refused.value.current.version == 2
    assert store.load(game_id).settings == {"play_mode": "Card by card"} and first.version == 2


def test_an_entry_the_rules_refuse_saves_nothing(database):
    store = GameStore(database)
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    with pytest.raises(ValueError, match="Cannot peg"):
        store.update(game_id, 1, lambda s: s.game.peg("Bob", 2))
    assert store.load(game_id).version == 1


def test_next_game_asked_twice_gives_one_game(database):
    one, two = GameStore(database), GameStore(database)
    finished = one.create(_finished(), {"play_mode": "Card by card"})
    following = one.start_next(finished, 1)
    with pytest.raises(StaleGame) as second:
        two.start_next(finished, 1)
    assert second.value.current.successor == following
    assert _rows(database) == 2
    assert one.load(finished).successor == following
    new = one.load(following)
    assert new.game.dealer == "Bob" and new.version == 1
    assert new.settings == {"play_mode": "Card by card", "sitting": [one.load(finished).game.result.to_dict()]}


def test_the_sitting_grows_by_one_result_a_game(database):
    store = GameStore(database)
    second = store.start_next(store.create(_finished()), 1)
    store.update(second, 1, lambda s: _play_out(s.game))
    third = store.load(store.start_next(second, 2))
    assert [r["winner"] for r in third.settings["sitting"]] == ["Ann", store.load(second).game.result.winner]


def _play_out(game: Game) -> None:
    """Peg the dealer out (the pone first when there is no dealer yet)."""
    if game.phase == "cut":
        game.choose_dealer(game.players[0])
    if game.phase == "starter":
        game.turn_starter(None)
    while not game.is_over:
        game.peg(game.dealer, 29)


def test_a_lost_next_game_race_leaves_no_orphan_game(database):
    store = GameStore(database)
    finished = store.create(_finished())
    store.update(finished, 1, lambda s: s.settings.update(note="x"))  # another phone saved: now version 2
    with pytest.raises(StaleGame):
        store.start_next(finished, 1)
    assert _rows(database) == 1 and store.load(finished).successor is None


def test_a_game_whose_next_game_started_takes_no_more_entries(database):
    store = GameStore(database)
    finished = store.create(_finished())
    store.start_next(finished, 1)
    with pytest.raises(StoreError, match="next game"):
        store.update(finished, 2, lambda s: s.game.undo())
    assert store.load(finished).game.is_over


def test_next_game_of_a_game_not_over_is_refused(database):
    store = GameStore(database)
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    with pytest.raises(ValueError, match="not over"):
        store.start_next(game_id, 1)
    assert _rows(database) == 1


@pytest.mark.parametrize(
    ("column", "value", "says"),
    [
        ("settings", "{not json", "settings or version are damaged"),
        ("settings", "[1, 2]", "settings or version are damaged"),
        ("version", 0, "settings or version are damaged"),
        ("successor", "[x](https://evil.example)", "link to the next game is damaged"),
    ],
)
def test_a_damaged_record_is_one_sentence(database, column, value, says):
    store = GameStore(database)
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    _sql(database, f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
    with pytest.raises(StoreError, match=says):
        store.load(game_id)


def test_a_sqlite_version_that_is_not_a_number_is_one_sentence(tmp_path):
    path = str(tmp_path / "games.sqlite")  # SQLite keeps any type in any column; PostgreSQL refuses the write
    store = GameStore(path)
    game_id = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    _sql(path, "UPDATE games SET version = 'x' WHERE id = ?", (game_id,))
    with pytest.raises(StoreError, match="settings or version are damaged"):
        store.load(game_id)


def test_a_sqlite_database_made_before_next_game_links_is_upgraded(tmp_path):
    path = str(tmp_path / "games.sqlite")
    _sql(
        path,
        "CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, updated REAL NOT NULL, "
        "version INTEGER NOT NULL, players TEXT NOT NULL, game TEXT NOT NULL, settings TEXT NOT NULL DEFAULT '{}')",
    )
    _sql(path, "INSERT INTO games VALUES ('0badc0de', 0, 0, 4, 'Ann · Bob', ?, '{}')", (_finished().to_json(),))
    store = GameStore(path)
    assert store.load("0badc0de").version == 4
    following = store.start_next("0badc0de", 4)
    assert store.load("0badc0de").successor == following


def test_game_ids_are_found_in_any_case(database):
    store = GameStore(database)
    game_id = store.create(Game.new(["Ann", "Bob"]))
    assert store.load(f" {game_id.upper()} ").id == game_id


def test_recent_lists_the_games_saved_last_first(database):
    store = GameStore(database)
    first = store.create(Game.new(["Ann", "Bob"], dealer="Ann"))
    second = store.create(Game.new(["Cat", "Dan"], dealer="Cat"))
    store.update(first, 1, lambda s: s.game.turn_starter(None))
    assert [(g.id, g.players) for g in store.recent()] == [(first, "Ann · Bob"), (second, "Cat · Dan")]
    assert [g.id for g in store.recent(limit=1)] == [first]


@pytest.mark.parametrize("odd", ["[Log in again](https://evil.example)", "nosuchid", "0badc0de0", "", "x' OR 1=1 --"])
def test_a_text_that_is_not_a_game_id_is_refused_before_any_query(database, odd):
    store = GameStore(database)
    store._db = None  # any query would now raise AttributeError
    with pytest.raises(ValueError, match="not a game id"):
        store.load(odd)
    with pytest.raises(ValueError, match="not a game id"):
        parse_id(odd)


def test_many_phones_entering_at_once_save_one_entry(database):
    game_id = GameStore(database).create(Game.new(["Ann", "Bob"], dealer="Ann"))
    GameStore(database).update(game_id, 1, lambda s: s.game.turn_starter(None))
    phones = 8
    together = threading.Barrier(phones, timeout=20)
    outcomes: list[str] = []

    def enter() -> None:
        def peg(stored):  # every phone has loaded version 2 before any of them writes
            together.wait()
            stored.game.peg("Bob", 2)

        try:
            GameStore(database).update(game_id, 2, peg)
            outcomes.append("saved")
        except StaleGame:
            outcomes.append("stale")

    threads = [threading.Thread(target=enter) for _ in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["saved"] + ["stale"] * (phones - 1)
    stored = GameStore(database).load(game_id)
    assert stored.version == 3 and stored.game.scores == {"Ann": 0, "Bob": 2}


# -- PostgreSQL: URLs, the pool, the schema lock ---------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://127.0.0.1:1/games", "cannot be opened (connection failed"),
        ("postgres://localhost:notaport/games", "cannot be opened"),
        ("postgresql:///games?host=/nonexistent/folder", "cannot be opened"),
        ("postgresql://127.0.0.1/games?nosuchoption=1", "cannot be opened"),
        ("mysql://club@db.example/games", "is a mysql URL; set CRIBCAM_DB to a SQLite file or a postgresql:// URL"),
    ],
)
def test_a_database_url_that_cannot_be_used_is_one_sentence_and_makes_no_folder(tmp_path, monkeypatch, url, says):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CRIBCAM_DB", url)
    with pytest.raises(StoreError, match=re.escape(says)) as refused:
        GameStore()
    sentence = str(refused.value)
    assert "\n" not in sentence and sentence.endswith(".") and sentence.count(". ") == 0, sentence
    assert list(tmp_path.iterdir()) == [], "a URL was taken for a file name"


def test_a_server_that_does_not_answer_is_reported_within_seconds():
    with socket.socket() as silent:  # accepts the connection, never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        start = time.monotonic()
        with pytest.raises(StoreError, match=r"cannot be opened \(connection timeout"):
            GameStore(f"postgresql://127.0.0.1:{silent.getsockname()[1]}/games")
    assert time.monotonic() - start < CONNECT_TIMEOUT + 3


def test_a_password_in_the_url_is_never_shown():
    with pytest.raises(StoreError) as refused:
        GameStore("postgresql://club:s3cret@127.0.0.1:1/games?password=s3cret")
    assert "s3cret" not in str(refused.value) and "club:***@127.0.0.1:1" in str(refused.value)


def test_a_store_per_click_takes_its_connection_from_one_pool_per_process(postgres_url):
    ((start,),) = _sql(postgres_url, "SELECT now()")  # other tests' connections, closing, may still be listed
    stores = [GameStore(postgres_url) for _ in range(3 * POOL_SIZE)]  # kept alive, as the app's are while in use
    game_id = stores[0].create(Game.new(["Ann", "Bob"], dealer="Ann"))
    for store in stores:
        assert store.load(game_id).version == 1
    ((connections,),) = _sql(
        postgres_url,
        "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'cribcam' AND backend_start >= ?",
        (start,),
    )
    assert 1 <= connections <= 2, f"{len(stores)} stores hold {connections} connections"  # the pool's, and the table's


def test_app_processes_starting_together_create_the_table_once(postgres_url):
    starting = 8
    connections = [psycopg.connect(postgres_url, autocommit=True) for _ in range(starting)]
    together = threading.Barrier(starting, timeout=20)
    errors: list[Exception] = []

    def start(connection: psycopg.Connection) -> None:
        together.wait()
        try:
            create_schema(connection)
        except psycopg.Error as error:
            errors.append(error)

    threads = [threading.Thread(target=start, args=(c,)) for c in connections]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for connection in connections:
        connection.close()
    assert errors == []
    assert GameStore(postgres_url).recent() == []

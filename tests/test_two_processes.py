"""A club night in small: two ``streamlit run app.py`` processes on two ports share one database (PostgreSQL when
the tests have a server, else a SQLite file), and two phones, headless chromium, one on each, follow one game.
Entries made on either process show on the other after a reload, and when both phones show the same version and
both enter, the second is refused in one sentence as it is on one process. The browser set-up is
test_e2e_browser's."""

from __future__ import annotations

import os

import pytest
from test_e2e_browser import CHROMIUM, CHROMIUM_ARGS, PHONE, _settle, sync_playwright

from scorer.game import Game
from ui.store import GameStore

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no chromium at /usr/bin/chromium (apt-get install chromium)"),
    pytest.mark.skipif(sync_playwright is None, reason="playwright (python) is not installed: pip install -e '.[dev]'"),
]

SCORES = '[data-testid="stMetricValue"]'


@pytest.fixture
def shared_database(request: pytest.FixtureRequest, tmp_path) -> str:
    """The database both app processes use: PostgreSQL when the tests have a server, else a SQLite file."""
    if os.environ.get("CRIBCAM_TEST_PG"):
        return request.getfixturevalue("postgres_url")
    return str(tmp_path / "games.sqlite")


@pytest.fixture
def phones():
    """Two phones: two browser contexts (two Streamlit sessions) in one headless chromium."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield [browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page() for _ in range(2)]
        browser.close()


def _shows(page, scores: list[str], button: str) -> None:
    """Wait until ``page`` shows the board at ``scores`` (Ann, Bob) and the ``button`` for the next entry."""
    page.get_by_role("button", name=button, exact=True).wait_for(timeout=30000)
    page.wait_for_function(
        "want => [...document.querySelectorAll('" + SCORES + "')].map(e => e.innerText.trim()).join() === want",
        arg=",".join(scores),
        timeout=30000,
    )
    _settle(page)


def _tap(page, button: str) -> None:
    page.get_by_role("button", name=button, exact=True).click()


def test_two_app_processes_share_one_game_and_refuse_a_stale_entry(streamlit_apps, shared_database, phones):
    game_id = GameStore(shared_database).create(Game.new(["Ann", "Bob"], dealer="Ann"), {"play_mode": "Quick points"})
    one, two = phones
    for page, address in zip(phones, streamlit_apps(shared_database, count=2), strict=True):
        page.goto(f"{address}/?page=game&game={game_id}")
        _shows(page, ["0", "0"], "Not recorded")

    _tap(two, "Not recorded")  # process 2 turns the starter
    _shows(two, ["0", "0"], "+2")
    one.reload()
    _shows(one, ["0", "0"], "+2")  # process 1 shows it
    _tap(one, "+2")  # process 1 pegs Bob's 2
    _shows(one, ["0", "2"], "+2")
    two.reload()
    _shows(two, ["0", "2"], "+2")  # process 2 shows it

    _tap(one, "+2")  # both phones show version 3; both peg
    _shows(one, ["0", "4"], "+2")
    _tap(two, "+2")
    notice = two.get_by_text("Another phone already entered Bob's 2 points, so your entry was not saved")
    notice.wait_for(timeout=30000)
    _shows(two, ["0", "4"], "+2")  # the refused phone shows the game as it is now
    stored = GameStore(shared_database).load(game_id)
    assert stored.version == 4 and stored.game.scores == {"Ann": 0, "Bob": 4}

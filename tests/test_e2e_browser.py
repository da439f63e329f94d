"""End to end in a real browser: Debian's chromium at phone width drives ``streamlit run app.py``.

Uploads a rendered hand through the file input (typed cards instead while no detector is trained),
waits for the count, checks nothing scrolls sideways, and saves screenshots of the three pages
(to ``CRIBCAM_SCREENSHOTS`` when set, e.g. ``docs/screenshots``, else the test's temporary folder).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from PIL import Image

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright
except ImportError:  # the dev extra is not installed
    sync_playwright = None

from scorer.hand import score_hand
from ui import photos
from ui.sample import sample_photo

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 412, "height": 915}
TOTAL = ".cc-total"
"""The Count page's total."""

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no chromium at /usr/bin/chromium (apt-get install chromium)"),
    pytest.mark.skipif(sync_playwright is None, reason="playwright (python) is not installed: pip install -e '.[dev]'"),
]


@pytest.fixture
def app_url(streamlit_apps, tmp_path) -> str:
    """The app served on a free local port with a games file of this test's own (``conftest.streamlit_apps``)."""
    return streamlit_apps(str(tmp_path / "games.sqlite"))[0]


@pytest.fixture
def page():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
        yield context.new_page()
        browser.close()


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("CRIBCAM_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _screenshot(page, path: Path) -> None:
    """The whole page at phone width (Streamlit scrolls inside its main area, so grow the window to fit)."""
    height = page.evaluate(
        "Math.max(...[...document.querySelectorAll('[data-testid=\"stMain\"], body')].map(e => e.scrollHeight))"
    )
    page.set_viewport_size({"width": PHONE["width"], "height": min(int(height) + 40, 6000)})
    page.wait_for_timeout(500)
    page.screenshot(path=str(path))
    page.set_viewport_size(PHONE)
    with Image.open(path) as shot:  # a 256-colour PNG is a quarter of the size and looks the same
        small = shot.convert("RGB").quantize(256)
    small.save(path, optimize=True)


def _no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide at {PHONE['width']} px: it scrolls sideways"


IDLE = """() => {
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  const running = status && /Running|Stop/.test(status.innerText);
  return !running && !document.querySelector('[data-stale="true"]');
}"""


def _settle(page) -> None:
    """Wait for the script run to finish, so a click is not lost in a rerun."""
    page.wait_for_timeout(400)
    page.wait_for_function(IDLE, timeout=30000)
    page.wait_for_timeout(200)


def test_phone_counts_an_uploaded_hand_and_shows_every_page(app_url, page, tmp_path):
    shots = _shots(tmp_path)
    page.goto(f"{app_url}/?page=count")
    page.get_by_text("Count a hand").first.wait_for(timeout=60000)
    total = page.locator(TOTAL)
    if photos.models_present():
        timings = []
        for hand, starter, count in ((["4H", "5C", "6S", "6D"], "KC", "14"), (["5H", "5C", "5S", "JD"], "5D", "29")):
            photo = tmp_path / f"hand_{count}.jpg"
            photo.write_bytes(sample_photo(hand, starter))
            start = time.perf_counter()
            page.locator('input[type="file"]').first.set_input_files(str(photo))
            try:
                page.locator(TOTAL, has_text=count).first.wait_for(timeout=60000)
            except PlaywrightTimeout:
                chips = page.locator('[data-testid="stPopover"]').all_inner_texts()
                pytest.fail(f"{hand} + {starter} was not counted {count}; the page shows cards {chips}")
            timings.append(time.perf_counter() - start)
            _settle(page)
        report = (
            f"choosing the photo to the count shown, at 412 px in headless chromium: first photo {timings[0]:.2f} s "
            f"(loads the detector), next photo {timings[1]:.2f} s\n"
        )
        print(report)
        (tmp_path / "upload_to_count.txt").write_text(report)
    else:
        box = page.get_by_label("Or type the cards, starter last")
        box.fill("5H 5C 5S JD 5D")
        box.press("Enter")
        total.first.wait_for(timeout=30000)
    assert total.first.inner_text().strip() == "29"
    page.get_by_text("nobs is twenty-nine", exact=False).first.wait_for()
    _settle(page)
    _no_sideways_scroll(page)
    _screenshot(page, shots / "count.png")

    page.goto(f"{app_url}/?page=game")
    page.get_by_role("button", name="Start the game").wait_for(timeout=30000)
    _settle(page)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("radio", name="Choose the dealer").wait_for(timeout=30000)
    _settle(page)
    page.get_by_role("radio", name="Choose the dealer").click()
    page.get_by_role("button", name="Ann deals").wait_for(timeout=30000)
    _settle(page)
    page.get_by_role("button", name="Ann deals").click()
    page.get_by_role("button", name="Turn the starter").wait_for(timeout=30000)
    assert "game=" in page.url
    _settle(page)
    page.get_by_role("button", name="Not recorded").click()
    page.get_by_role("button", name="+2", exact=True).wait_for(timeout=30000)
    _settle(page)
    page.get_by_role("button", name="+2", exact=True).click()
    page.get_by_text("Bob: 2 in the play").wait_for(timeout=30000)
    _settle(page)
    _no_sideways_scroll(page)
    _screenshot(page, shots / "game.png")

    page.goto(f"{app_url}/?page=learn")
    page.get_by_role("button", name="Check").wait_for(timeout=30000)
    _settle(page)
    _no_sideways_scroll(page)
    _screenshot(page, shots / "learn.png")


def test_a_deal_is_played_with_the_show_photographed_once(app_url, page, tmp_path):
    from ui.sample import show_photo

    if not photos.models_present():
        pytest.skip("no trained detector: the show cannot be read from a photo")
    bob, ann, crib = ["2C", "3C", "4D", "9S"], ["5H", "5C", "5S", "JD"], ["KH", "QH", "JH", "10H"]
    photo = tmp_path / "show.jpg"
    photo.write_bytes(show_photo([bob, ann, crib], "5D"))
    page.goto(f"{app_url}/?page=game")
    for name, role in (("Start the game", "button"), ("Choose the dealer", "radio"), ("Ann deals", "button")):
        page.get_by_role(role, name=name).wait_for(timeout=30000)
        _settle(page)
        page.get_by_role(role, name=name).click()
    page.get_by_role("button", name="Turn the starter").wait_for(timeout=30000)
    _settle(page)
    for pill in ("5", "♦"):  # the starter picker's rank and suit pills
        page.locator('[data-testid="stButtonGroup"] button', has_text=pill).first.click()
        _settle(page)
    page.get_by_role("button", name="Turn the starter").click()
    page.get_by_role("button", name="+2", exact=True).wait_for(timeout=30000)
    _settle(page)
    page.get_by_role("button", name="+2", exact=True).click()  # Bob, the pone, pegs 2 in the play
    page.get_by_text("Bob: 2 in the play").wait_for(timeout=30000)
    _settle(page)
    page.get_by_role("button", name="The play is over: on to the show").click()
    page.get_by_text("Photograph the whole show at once").wait_for(timeout=30000)
    _settle(page)
    page.get_by_text("Photograph the whole show at once").click()
    _settle(page)
    page.locator('input[type="file"]').first.set_input_files(str(photo))
    page.get_by_role("button", name="Count the whole show").wait_for(timeout=90000)
    _settle(page)
    _no_sideways_scroll(page)
    _screenshot(page, _shots(tmp_path) / "show.png")
    page.get_by_role("button", name="Count the whole show").click()
    page.get_by_text("Deal 2").first.wait_for(timeout=30000)
    _settle(page)
    scores = dict(
        zip(
            page.locator('[data-testid="stMetricLabel"]').all_inner_texts(),
            page.locator('[data-testid="stMetricValue"]').all_inner_texts(),
            strict=False,
        )
    )
    expected_bob = 2 + score_hand(bob, "5D").total
    expected_ann = 29 + score_hand(crib, "5D", crib=True).total
    assert {k.strip(): v.strip() for k, v in scores.items()} == {"Ann": str(expected_ann), "Bob": str(expected_bob)}

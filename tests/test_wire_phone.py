"""The load bench's browserless phones (``bench/wire_phone.py``) against the real app and the committed model."""

from __future__ import annotations

import asyncio

import pytest

from bench.app_server import serve
from bench.wire_phone import WirePhone
from scorer.hand import score_hand
from ui.sample import sample_photo

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def _phones_count(url: str, photos: list[bytes]) -> tuple[list[tuple], list[WirePhone]]:
    phones = await asyncio.gather(*(WirePhone(url).open() for _ in photos))
    try:
        pairs = enumerate(zip(phones, photos, strict=True))
        uploads = (phone.upload(f"hand{i}.jpg", data) for i, (phone, data) in pairs)
        return await asyncio.gather(*uploads), phones
    finally:
        await asyncio.gather(*(p.close() for p in phones))


def test_wire_phones_get_their_own_counts_at_once():
    """Two sessions upload different hands at the same moment; each gets its own count and read time."""
    hands = [(["5H", "5C", "5S", "JD"], "5D"), (["2H", "3C", "9S", "KD"], "6S")]
    photos = [sample_photo(hand, starter) for hand, starter in hands]
    with serve() as server:
        results, phones = asyncio.run(_phones_count(server.url, photos))
    assert all(phone.finished and not phone.alerts for phone in phones)
    (first_s, first, first_read), (second_s, second, second_read) = results
    assert [first, second] == [str(score_hand(hand, starter).total) for hand, starter in hands]
    assert first_s is not None and second_s is not None and first_s > 0 and second_s > 0
    assert first_read is not None and second_read is not None


def test_wire_phone_reports_no_count_for_a_file_that_is_not_a_photo():
    """The server answers a file that is not a photo with one sentence and no count (not with silence)."""
    with serve() as server:
        results, (phone,) = asyncio.run(_phones_count(server.url, [b"not a photo at all"]))
    seconds, count, _ = results[0]
    assert (seconds, count) == (None, None)
    assert phone.finished
    assert len(phone.alerts) == 1 and phone.alerts[0].count(". ") == 0 and "photo" in phone.alerts[0].lower()

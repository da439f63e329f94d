"""Reading an uploaded photo for a page: the detector (loaded once), the reading, the drawn photo.

The app never shows a traceback for a photo: every failure becomes ``PhotoResult.error``, one sentence.
Photos are read on a few reader threads shared by every session (``READERS``), in the order they came:
many phones uploading at once queue rather than thrash the cores, and the big image buffers stay in
those threads' memory instead of one malloc arena per session (``bench/bench_load.py`` measures both).

>>> detector_status()  # doctest: +SKIP
'ready'
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import cv2
import numpy as np
import streamlit as st

from scorer.cards import Card
from vision.model_location import MANIFEST, models_dir

NOT_TRAINED = (
    "The card detector is missing ({path} is not there), so photos cannot be read; enter the cards by hand below."
)
SHOWN_MAX_SIDE = 1280
READERS = min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
"""Photos read at once: two overlap one photo's single-threaded steps (decoding, drawing) with another's
detector pass; one on a single core. Each reader keeps its own buffers (about 80 MB at the peak)."""
_READING = ThreadPoolExecutor(max_workers=READERS, thread_name_prefix="cribcam-read")


@dataclass(frozen=True)
class CardCheck:
    """A card the reader asks to check, and the card it most likely is if it is wrong (the classifier's runner-up); or,
    with ``card`` None, a place the reader left out (a card read twice far apart) and the card it most likely shows."""

    card: Card | None
    other: Card


@dataclass
class PhotoResult:
    """What a page needs from one photo: cards, starter guess, warnings, the drawn photo, timing."""

    cards: list[Card] = field(default_factory=list)
    starter: Card | None = None
    groups: list[list[Card]] = field(default_factory=list)
    """The cards as they lie in groups (hands, a crib, the starter alone), biggest and nearest first."""
    warnings: list[str] = field(default_factory=list)
    checks: list[CardCheck] = field(default_factory=list)
    """For one-tap fixes: the cards to check that have a likeliest other card, then the places left out of cards read
    twice far apart that have one (``card`` None)."""
    error: str | None = None
    annotated_jpeg: bytes | None = None
    seconds: float = 0.0
    timings_ms: dict[str, float] = field(default_factory=dict)


def models_present() -> bool:
    """Whether a manifest is where the detector will look (``CRIBCAM_MODELS``, else the shipped models)."""
    return (models_dir() / MANIFEST).is_file()


@st.cache_resource(show_spinner="Loading the card detector…")
def _detector(models_dir: str):
    from vision import CardDetector

    return CardDetector(models_dir)


def read(data: bytes) -> PhotoResult:
    """Read the cards in a photo's bytes; never raises for a bad photo or a missing model."""
    if not models_present():
        return PhotoResult(error=NOT_TRAINED.format(path=models_dir() / MANIFEST))
    start = time.perf_counter()
    try:
        from vision.detector import ModelNotFoundError

        try:
            detector = _detector(str(models_dir()))
        except ModelNotFoundError as error:
            return PhotoResult(error=f"{error} Enter the cards by hand below.")
        result = _READING.submit(_read_with, data, detector).result()
    except Exception as error:  # a failure inside the detector must not become a traceback on a phone
        return PhotoResult(
            error=f"The photo could not be read ({type(error).__name__}); try another photo or enter the cards."
        )
    result.seconds = time.perf_counter() - start
    return result


def _read_with(data: bytes, detector) -> PhotoResult:
    """On a reader thread: the reading and the drawn photo (``seconds`` is set by the caller)."""
    from vision import PhotoError, read_photo
    from vision.annotate import annotate

    try:
        reading = read_photo(data, detector)
    except PhotoError as error:
        return PhotoResult(error=str(error))
    picture = None if reading.image is None else _around_cards(annotate(reading.image, reading), reading)
    return PhotoResult(
        cards=list(reading.card_list),
        starter=reading.starter_card,
        groups=[[reading.card_list[i] for i in group] for group in reading.groups],
        warnings=list(reading.warnings),
        checks=[
            CardCheck(reading.card_list[i], other)
            for i in reading.to_confirm
            if (other := reading.runner_up(i)) is not None
        ]
        + [CardCheck(None, card) for conflict in reading.conflicts for card in conflict.instead if card is not None],
        annotated_jpeg=None if picture is None else _jpeg(picture),
        timings_ms=dict(reading.timings_ms),
    )


def _around_cards(picture: np.ndarray, reading) -> np.ndarray:
    """The drawn photo cut to the cards and a margin, so they are big enough to check on a phone."""
    boxes = reading.cards.xyxy
    if len(boxes) == 0:
        return picture
    height, width = picture.shape[:2]
    scale = np.array([width, height, width, height], np.float32) / np.array([*reading.image_size] * 2, np.float32)
    boxes = boxes * scale
    x1, y1 = boxes[:, :2].min(axis=0)
    x2, y2 = boxes[:, 2:].max(axis=0)
    margin = 0.25 * max(x2 - x1, y2 - y1, 0.2 * max(width, height))
    left, top = max(0, int(x1 - margin)), max(0, int(y1 - margin))
    right, bottom = min(width, int(x2 + margin * 2)), min(height, int(y2 + margin * 2))
    return picture[top:bottom, left:right]


def _jpeg(rgb: np.ndarray) -> bytes:
    height, width = rgb.shape[:2]
    scale = SHOWN_MAX_SIDE / max(height, width)
    if scale < 1:
        rgb = cv2.resize(rgb, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    ok, buffer = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 85])
    return buffer.tobytes() if ok else b""


def photo_inputs(key: str, label: str = "Take or choose a photo") -> tuple[str, bytes] | None:
    """The uploader (the phone's own camera at full resolution) and, on request, the in-page camera.

    Returns ``(file_id, bytes)`` of the newest photo, or ``None``.
    """
    uploaded = st.file_uploader(
        label,
        type=["jpg", "jpeg", "png", "webp", "heic", "heif"],
        key=f"{key}_upload",
        help="On a phone this opens the camera app, which takes full-resolution photos.",
    )
    camera = None
    if st.toggle("Use the in-page camera instead", key=f"{key}_camtoggle"):
        camera = st.camera_input("Photograph the cards", key=f"{key}_camera", resolution="1080p")
    chosen = camera or uploaded
    if chosen is None:
        return None
    return chosen.file_id, chosen.getvalue()


def cached_read(key: str, photo: tuple[str, bytes]) -> PhotoResult:
    """Read each photo once per session: reruns while editing the cards reuse the result."""
    file_id, data = photo
    memo = st.session_state.get(f"{key}_reading")
    if memo is not None and memo[0] == file_id:
        return memo[1]
    note = st.empty()  # still words, not st.spinner: a spinning icon redraws every frame while the phone waits
    note.caption("⏳ Reading the cards…")
    result = read(data)
    note.empty()
    st.session_state[f"{key}_reading"] = (file_id, result)
    return result

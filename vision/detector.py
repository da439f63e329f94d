"""``CardDetector``: find corner indices in a photo and read each one as a card.

Two models (see ``models/cribcam.json``): a one-class YOLO detector for corner indices and a small
classifier that reads a crop of each (``vision.crops``). Two backends run the same models:
``"onnx"`` (onnxruntime; the default, faster on CPU, and it never imports torch) and
``"ultralytics"`` (the ``.pt`` weights through ultralytics and torch; for parity checks).

Small corners (a whole table in one photo) are found by a second pass over overlapping tiles,
decided from the first pass (see ``tile_side``) and read ``TILE_READERS`` at once.

>>> detector = CardDetector()  # the shipped models, or CRIBCAM_MODELS  # doctest: +SKIP
>>> detector.detect("hand.jpg").cards  # doctest: +SKIP
[Card('5H'), Card('5H'), Card('JD'), ...]
"""

from __future__ import annotations

import json
import math
import os
import queue
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import cv2
import numpy as np

from scorer.cards import CLASS_NAMES
from vision.confidence import Calibration
from vision.crops import CROP_SCALE, CROP_SCALES, CROP_SIZE, BoxCrops, crop_boxes
from vision.detections import Detections, box_iou, nms_fused, nms_indices
from vision.model_location import MANIFEST
from vision.model_location import models_dir as find_models_dir
from vision.photo_io import Photo, PhotoSource, load_photo

if TYPE_CHECKING:
    import onnxruntime as ort

BACKENDS = ("onnx", "ultralytics")
DEFAULT_BACKEND = "onnx"
SECOND_READS = ("zoomed", "turns")
"""What a manifest's second classifier may read (``ModelManifest.second_reads``)."""
TILE_MERGES = ("surest", "mean")
"""How a corner seen by several looks gets its box (``ModelManifest.tile_merge``)."""
MAX_CLOSER_LOOK = 2.0
"""The most a closer look magnifies (``ModelManifest.closer_look``): its input's area grows as the square."""

MIN_CORNER_PX = 26.0
"""A first pass whose median corner (long side, detector-input px) is smaller than this is tiled.

26 (was 20 until stop 12) was chosen on the synthetic held-out sets: card F1 rose on all four
(synth12 val 0.897 -> 0.899, heldout640 0.858 -> 0.860, heldout1280 0.962 -> 0.966, unseen1280
0.910 -> 0.917), for up to 11% more median time per photo there. Of the seven real photos, deals 1
and 2 (median corner 24-25 px at the input) are now tiled (about 150 ms instead of 75); the held-out
deals 4-7 are not, and read as before."""
TARGET_CORNER_PX = 40.0
"""Tiles are sized so the median corner becomes about this big at the detector's input."""
EMPTY_ZOOM = 2.0
"""Magnification of the tiles tried when the first pass finds nothing in a big image."""
MIN_ZOOM = 1.5
"""Tiling that magnifies less than this is not worth its time."""
MAX_UPSCALE = 2.0
"""Tiles may magnify corners found too small this much even past a small photo's own pixels."""
MAX_DETECTIONS = 300
ZOOM_OUT = (0.5, 0.33, 0.22)
"""When the first pass finds nothing, the photo is tried again shrunk to these fractions of the detector's
input, so a close-up's corner indices (hundreds of pixels tall) come down to the sizes it was trained on."""
AFTER_FINDING = ("unread_zoom_out", "unread_below")
"""Detector settings of the manifest that act after ``find_corners`` (in ``CardDetector.read_found``): boxes found
and cached without them are the same boxes."""
MAX_CORNER_PX = 50.0
"""A first pass whose median corner is bigger than this (detector-input px) is a close-up: it is shrunk."""
STRIDE = 32
"""A detector export that takes any input size is fed the photo padded only to a multiple of this (YOLO's
largest stride), as ultralytics reads it: a 4:3 photo costs 640 x 480, not 640 x 640."""

TILE_READERS = min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
"""Tiles read at once, each by a single-threaded copy of the detector (onnx backend; one core: one at a time).
On two cores, a photo's tiles two at once took 0.66-0.84x the time of one two-threaded pass after another, the
same boxes, for 70-90 MB more at the peak (stop 37; ``bench/bench_models.py models --base-tile-readers 1``)."""


class ModelNotFoundError(FileNotFoundError):
    """The trained models are not where the manifest says; the message says what to do."""


def _choice(value: object, choices: tuple[str, ...], name: str) -> str:
    """``value`` if it is one of ``choices``; else a ValueError naming the setting."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return str(value)


def _flag(value: object, name: str) -> bool:
    """``value`` if it is true or false; else a ValueError naming the setting."""
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value


def _within(value: object, low: float, high: float, name: str) -> float:
    """``value`` as a float if it lies in [``low``, ``high``]; else a ValueError naming the setting."""
    number = float(value)  # type: ignore[arg-type]
    if not low <= number <= high:  # NaN fails too
        raise ValueError(f"{name} must be between {low:g} and {high:g}, not {value!r}")
    return number


@dataclass(frozen=True, slots=True)
class ModelManifest:
    """What ``models/cribcam.json`` says about the two models."""

    directory: Path
    detector_onnx: str
    detector_pt: str
    imgsz: int
    conf: float
    iou: float
    classifier_onnx: str
    classifier_pt: str
    crop_size: int
    crop_scale: float
    classes: tuple[str, ...]
    rotations: int = 1
    """Views of each crop the classifier reads (1, 2: and turned half round, 4: every quarter turn)."""
    min_prob: float = 0.0
    """Corners read with a lower (pooled) probability are dropped as unreadable."""
    sure: float | None = None
    """Corners read upright with at least this probability skip the turned views (None, or over 1: every corner is
    turned)."""
    shift: float = 0.0
    """Corners still read under ``shift_below`` after the turned views are read again from crops moved this
    share of their box along its diagonal, both ways (0: never)."""
    shift_below: float = 0.0
    """The pooled probability under which a corner gets that second look."""
    zoom: float = 0.0
    """The second look also reads each unsure corner's box grown and shrunk by this share about its centre (0:
    never)."""
    second_onnx: str | None = None
    """A second classifier's export, reading the views ``second_reads`` names (None: the first reads every view)."""
    second_pt: str | None = None
    """The same second classifier's PyTorch weights (the ultralytics backend's)."""
    second_reads: str = "zoomed"
    """What the second classifier reads: the second look's "zoomed" views, or the quarter "turns" (90 and 270
    degrees) of every pooled read, the first classifier the upright and half-turned views."""
    second_crop_scale: float | None = None
    """The crop scale the second classifier was trained at, which it reads its views at (None: ``crop_scale``)."""
    tile_merge: str = "surest"
    """A corner seen by the first pass and several tiles (or a closer look) keeps the "surest" look's box, or the
    "mean" of all its looks' boxes, weighted by the detector's score (``nms_fused``)."""
    closer_look: float = 0.0
    """With tiling "auto", a photo read from its first pass alone (not tiled, no shrunk pass kept) is read again
    whole at this many times that pass's scale (the input side rounded to the stride), its boxes merged with the
    first's as ``tile_merge`` says (1 or less: not; an export of one input size: never)."""
    closer_finds: bool = True
    """Whether the closer look may add corners the first pass missed (true), or not (false: its boxes that overlap
    none of the first pass's at ``iou`` are dropped, so it mostly moves the first pass's boxes)."""
    unread_zoom_out: bool = False
    """Whether a photo whose corners read as no card at all is tried again shrunk as a close-up (``ZOOM_OUT``),
    its shrunk pass's cards kept when it reads any: a court card filling the frame shows the detector its art, in
    boxes of index size, and its index too big to be found (``CardDetector.read_found``)."""
    unread_below: float | None = None
    """For ``unread_zoom_out``, a pass reads no card when none of its cards reads at least this probability, and a
    shrunk pass is kept when one does (None: ``min_prob``, so only a pass with no card left reads none). A looser
    ``min_prob`` keeps a court card's weak art reads; this keeps them from skipping the shrunk pass (stop 69)."""
    calibration: Calibration | None = None
    """Maps a card's features to the chance it is right (``vision.confidence``); None: raw confidences."""

    @classmethod
    def load(cls, models_dir: str | Path | None = None) -> ModelManifest:
        """The manifest in ``models_dir`` (default: ``CRIBCAM_MODELS``, else the models shipped with cribcam)."""
        directory = find_models_dir(models_dir)
        path = directory / MANIFEST
        if not directory.is_dir():
            raise ModelNotFoundError(
                f"No trained model: the models folder {directory} does not exist; set CRIBCAM_MODELS or --models "
                "to a folder with cribcam.json."
            )
        if not path.is_file():
            raise ModelNotFoundError(
                f"No trained model: {path} is missing; set CRIBCAM_MODELS or --models to a folder with cribcam.json."
            )
        try:
            data = json.loads(path.read_text())
            det, cls_ = data["detector"], data["classifier"]
            second = cls_.get("second") or {}
            if not isinstance(second, dict):
                raise TypeError("classifier.second must be an object with onnx, pt and reads")
            return cls(
                directory=directory,
                detector_onnx=det["onnx"],
                detector_pt=det["pt"],
                imgsz=int(det.get("imgsz", 640)),
                conf=_within(det.get("conf", 0.25), 0, 1, "detector.conf"),
                iou=_within(det.get("iou", 0.5), 0, 1, "detector.iou"),
                tile_merge=_choice(det.get("tile_merge", "surest"), TILE_MERGES, "detector.tile_merge"),
                closer_look=_within(det.get("closer_look", 0.0), 0, MAX_CLOSER_LOOK, "detector.closer_look"),
                closer_finds=_flag(det.get("closer_finds", True), "detector.closer_finds"),
                unread_zoom_out=_flag(det.get("unread_zoom_out", False), "detector.unread_zoom_out"),
                unread_below=(
                    None
                    if det.get("unread_below") is None
                    else _within(det["unread_below"], 0, 1, "detector.unread_below")
                ),
                classifier_onnx=cls_["onnx"],
                classifier_pt=cls_["pt"],
                crop_size=int(cls_.get("crop_size", CROP_SIZE)),
                crop_scale=float(cls_.get("crop_scale", CROP_SCALE)),
                classes=tuple(cls_.get("classes", [*CLASS_NAMES, "none"])),
                rotations=int(cls_.get("rotations", 1)),
                min_prob=_within(cls_.get("min_prob", 0.0), 0, 1, "classifier.min_prob"),
                sure=None if cls_.get("sure") is None else _within(cls_["sure"], 0, 2, "classifier.sure"),
                shift=_within(cls_.get("shift", 0.0), 0, 0.5, "classifier.shift"),
                shift_below=_within(cls_.get("shift_below", 0.0), 0, 2, "classifier.shift_below"),
                zoom=_within(cls_.get("zoom", 0.0), 0, 1, "classifier.zoom"),
                second_onnx=second.get("onnx"),
                second_pt=second.get("pt"),
                second_reads=_choice(second.get("reads", "zoomed"), SECOND_READS, "classifier.second.reads"),
                second_crop_scale=(
                    None
                    if second.get("crop_scale") is None
                    else _within(second["crop_scale"], *CROP_SCALES, "classifier.second.crop_scale")
                ),
                calibration=Calibration.from_json(data.get("calibration")),
            )
        except (KeyError, TypeError, ValueError, OSError) as error:
            raise ModelNotFoundError(f"{path} is not a valid model manifest ({error!r}).") from None

    def file(self, name: str) -> Path:
        path = self.directory / name
        if not path.is_file():
            raise ModelNotFoundError(f"{path} is missing; the manifest {self.directory / MANIFEST} names it.")
        return path

    def card_of_class(self) -> np.ndarray:
        """Card index for each classifier output (-1 for "none" or anything not a card)."""
        lookup = {name: i for i, name in enumerate(CLASS_NAMES)}
        return np.array([lookup.get(name, -1) for name in self.classes], dtype=np.int64)


class Backend(Protocol):
    """Both models behind one interface. A backend whose detector reads any input size also says ``any_size =
    True`` and takes ``corners(rgb, side=...)``: a closer look (``ModelManifest.closer_look``) asks only such a one."""

    input_size: tuple[int, int]
    """(height, width) of the detector's input."""

    def corners(self, rgb: np.ndarray) -> Detections:
        """Unclassified corner boxes (image pixels) after the confidence threshold and NMS."""

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """N x classes probabilities for N x C x C x 3 uint8 crops."""


class Classifier(Protocol):
    """Anything that reads crops as cards: a backend, or a manifest's second classifier."""

    def classify(self, crops: np.ndarray) -> np.ndarray:
        """N x classes probabilities for N x C x C x 3 uint8 crops."""


@dataclass
class DetectionRun:
    """How one ``detect`` went: milliseconds per stage and the tiling used."""

    timings_ms: dict[str, float] = field(default_factory=dict)
    tiles: int = 0
    tile_side: float | None = None
    zoom_out: float | None = None
    """The fraction of the input a close-up was shrunk to (when the first pass found nothing or very big corners, or
    with ``unread_zoom_out`` when the corners found read as no card)."""
    zoom_tried: bool = False
    """Whether every ``ZOOM_OUT`` fraction has been tried on this photo already."""
    closer_side: int | None = None
    """The input side of a closer look at a photo read in one pass (``ModelManifest.closer_look``)."""


class CardDetector:
    """Corner detector + classifier over one backend; ``detect`` returns classified corners."""

    def __init__(
        self, models_dir: str | Path | None = None, backend: str | Backend = DEFAULT_BACKEND, tiling: str = "auto"
    ):
        if isinstance(backend, str) and backend not in BACKENDS:
            raise ValueError(f"Unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}.")
        if tiling not in ("auto", "never", "always"):
            raise ValueError(f"tiling must be auto, never or always, not {tiling!r}.")
        self.manifest = ModelManifest.load(models_dir)
        self.tiling = tiling
        if backend == "onnx":
            self.backend: Backend = OnnxBackend(self.manifest)
        elif backend == "ultralytics":
            self.backend = UltralyticsBackend(self.manifest)
        else:
            self.backend = backend  # any object with ``input_size``, ``corners`` and ``classify``
        self.backend_name = backend if isinstance(backend, str) else type(backend).__name__
        self._card_of_class = self.manifest.card_of_class()

    def detect(self, image: PhotoSource | Photo) -> Detections:
        """Classified corner indices in original-photo pixels (one row per corner, not per card)."""
        photo = image if isinstance(image, Photo) else load_photo(image)
        found, _ = self.detect_photo(photo)
        return found.scaled(*photo.scale)

    def detect_photo(self, photo: Photo) -> tuple[Detections, DetectionRun]:
        """Classified corners in working-image pixels, and how long each stage took."""
        run = DetectionRun()
        start = time.perf_counter()
        corners = self.find_corners(photo.rgb, run)
        run.timings_ms["detect"] = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        cards = self.read_found(photo.rgb, corners, run)
        run.timings_ms["classify"] = (time.perf_counter() - start) * 1000
        return cards, run

    def read_found(self, rgb: np.ndarray, corners: Detections, run: DetectionRun | None = None) -> Detections:
        """``classify`` the corners ``find_corners`` found. With ``unread_zoom_out`` (tiling "auto"), when they read
        as no card (``reads_a_card``), the photo is tried shrunk as a close-up, and the shrunk pass's cards are
        returned if it reads one (``run`` then says which fraction, and no tiles or closer look)."""
        cards = self.classify(rgb, corners)
        if self.reads_a_card(cards) or not self.manifest.unread_zoom_out or self.tiling != "auto":
            return cards
        if run is not None and run.zoom_tried:  # find_corners shrank it already: the same passes, the same boxes
            return cards
        trial = DetectionRun()
        zoomed = self._zoomed_out(rgb, ZOOM_OUT, trial)
        again = self.classify(rgb, zoomed) if zoomed is not None else Detections.empty()
        if not self.reads_a_card(again):
            return cards
        if run is not None:
            run.zoom_out, run.tiles, run.tile_side, run.closer_side = trial.zoom_out, 0, None, None
        return again

    def reads_a_card(self, cards: Detections) -> bool:
        """Whether ``classify``'s cards hold one read at ``unread_below`` or more (any card, when it is None)."""
        floor = self.manifest.unread_below
        return bool(len(cards)) and (floor is None or bool((cards.confidence >= floor).any()))

    def find_corners(self, rgb: np.ndarray, run: DetectionRun | None = None) -> Detections:
        """Unclassified corner boxes: one pass; then, for a close-up, the photo shrunk (``zoom_out_fractions``),
        or overlapping tiles when the corners are too small (or nothing was found and shrinking found nothing)."""
        run = run if run is not None else DetectionRun()
        first = self.backend.corners(rgb)
        height, width = rgb.shape[:2]
        if self.tiling == "auto":
            fractions = zoom_out_fractions(first, (height, width), self.backend.input_size)
            zoomed = self._zoomed_out(rgb, fractions, run) if fractions else None
            if zoomed is not None:
                return zoomed
        side = None
        if self.tiling == "always":
            side = tile_side(Detections.empty(), (height, width), self.backend.input_size)
        elif self.tiling == "auto":
            side = tile_side(first, (height, width), self.backend.input_size)
        if side is None:
            return self._closer_look(rgb, first, run) if self.tiling == "auto" else first
        overlap = tile_overlap(side, first)
        windows = tile_windows(width, height, side, overlap)
        tiles = [rgb[y1:y2, x1:x2] for x1, y1, x2, y2 in windows]
        parts = list(zip(windows, corners_of_each(self.backend, tiles), strict=True))
        run.tiles, run.tile_side = len(windows), side
        return self._merge_looks(first, parts, (width, height))

    def _merge_looks(
        self, first: Detections, parts: list[tuple[tuple[int, int, int, int], Detections]], image_wh: tuple[int, int]
    ) -> Detections:
        """``merge_tiles`` as the manifest says: at its ``iou``, each corner's box the surest look's or their mean."""
        return merge_tiles(first, parts, image_wh, self.manifest.iou, fuse=self.manifest.tile_merge == "mean")

    def _closer_look(self, rgb: np.ndarray, first: Detections, run: DetectionRun) -> Detections:
        """``first``, and when the manifest asks for it and the backend reads any input size, merged with a second
        pass over the whole photo at ``closer_look`` times the scale (``merge_tiles`` with the photo as one tile)."""
        factor = self.manifest.closer_look
        if factor <= 1.0 or not getattr(self.backend, "any_size", False):
            return first
        side = round(max(self.backend.input_size) * factor / STRIDE) * STRIDE
        closer = self.backend.corners(rgb, side=side)
        if not self.manifest.closer_finds:
            overlaps = box_iou(closer.xyxy, first.xyxy)
            closer = closer.filter(overlaps.max(axis=1, initial=0.0) > self.manifest.iou)
        run.closer_side = side
        height, width = rgb.shape[:2]
        return self._merge_looks(first, [((0, 0, width, height), closer)], (width, height))

    def _zoomed_out(self, rgb: np.ndarray, fractions: tuple[float, ...], run: DetectionRun) -> Detections | None:
        """Corners too big for the detector (a close-up: indices hundreds of pixels tall), found by shrinking
        the photo into part of the detector's input: of ``fractions``, the pass with the surest corner wins;
        ``None`` if none finds any."""
        input_h, input_w = self.backend.input_size
        height, width = rgb.shape[:2]
        best, best_score = None, 0.0
        run.zoom_tried = run.zoom_tried or set(ZOOM_OUT) <= set(fractions)
        for fraction in fractions:
            scale = fraction * min(input_h / height, input_w / width)
            small = cv2.resize(rgb, (max(1, round(width * scale)), max(1, round(height * scale))), cv2.INTER_AREA)
            canvas = np.full((input_h, input_w, 3), 114, np.uint8)
            top, left = (input_h - small.shape[0]) // 2, (input_w - small.shape[1]) // 2
            canvas[top : top + small.shape[0], left : left + small.shape[1]] = small
            found = self.backend.corners(canvas)
            if len(found) and float(found.confidence.max()) > best_score:
                xyxy = (found.xyxy - np.array([left, top, left, top], np.float32)) / scale
                best, best_score = Detections(xyxy, found.confidence), float(found.confidence.max())
                run.zoom_out = fraction
        return best

    def corner_probabilities(self, rgb: np.ndarray, corners: Detections) -> np.ndarray:
        """Corners x classifier outputs: each box read upright, turned and shifted as the manifest says."""
        if len(corners) == 0:
            return np.zeros((0, len(self.manifest.classes)), np.float32)
        crops = self._crops(rgb, corners.xyxy)
        turn_crops = self._turn_crops(rgb, corners.xyxy)
        probs = classify_turned(
            self.backend, crops, self.manifest.rotations, self.manifest.sure, self._turn_reader, turn_crops
        )
        if self.manifest.shift > 0:
            unsure = np.flatnonzero(probs.max(axis=1) < self.manifest.shift_below)
            if len(unsure):
                probs = np.array(probs)  # a copy: unsure rows are replaced
                probs[unsure] = self._second_look(rgb, corners.xyxy[unsure], probs[unsure])
        return probs

    def read_corners(self, rgb: np.ndarray, corners: Detections) -> tuple[np.ndarray, np.ndarray]:
        """Every corner box's best read, nothing dropped: card indices (-1 for "not a corner") and probabilities."""
        return self._best_cards(self.corner_probabilities(rgb, corners))

    def _best_cards(self, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row's best class as a card index (-1 for "not a corner") and its probability."""
        best = probs.argmax(axis=1)
        return self._card_of_class[best], probs[np.arange(len(best)), best]

    def _second_look(self, rgb: np.ndarray, xyxy: np.ndarray, first: np.ndarray) -> np.ndarray:
        """Unsure corners read again from crops moved ``shift`` of their box toward its top left and its bottom
        right and, with ``zoom``, from their box grown and shrunk by that share, at every turn the first read used,
        and pooled with it (geometric mean, every view the same weight).

        A detector's box can sit a few pixels off the index; looks from either side outvote a crop that cut a digit
        short, and a look closer in and one farther out outvote a crop whose scale misled it. With a second
        classifier in the manifest (``second_onnx``), it reads the grown and shrunk views or the quarter turns
        (``second_reads``): two differently trained models pooled, for the same boxes, each cut at its own crop
        scale. Each classifier's looks are read in one batch. Chosen on the synthetic held-out sets
        (``models/README.md``, stops 25, 49 and 50)."""
        looks = [(shift_boxes(xyxy, sign * self.manifest.shift), self.backend) for sign in (1.0, -1.0)]
        if self.manifest.zoom > 0:
            zoomed = self._second if self.manifest.second_reads == "zoomed" else self.backend
            growth = 1 + self.manifest.zoom
            looks += [(scale_boxes(xyxy, factor), zoomed) for factor in (growth, 1 / growth)]
        reads = [first]
        for reader in dict.fromkeys(reader for _, reader in looks):  # each reader's looks in one batch
            boxes = np.concatenate([b for b, who in looks if who is reader])
            crops = self._crops(rgb, boxes, self._scale_of(reader))
            turn_crops = self._turn_crops(rgb, boxes)
            pooled = classify_turned(
                reader, crops, self.manifest.rotations, turn_reader=self._turn_reader, turn_crops=turn_crops
            )
            reads.extend(pooled.reshape(-1, len(xyxy), pooled.shape[1]))
        return geometric_mean(np.stack(reads))

    @property
    def _second(self) -> Classifier:
        """The manifest's second classifier, or the first where there is none."""
        return getattr(self.backend, "second", None) or self.backend

    @property
    def _turn_reader(self) -> Classifier | None:
        """Who reads the quarter-turned views when the second classifier reads them (None: the first)."""
        return self._second if self.manifest.second_reads == "turns" else None

    def _scale_of(self, reader: Classifier) -> float:
        """The crop scale ``reader`` reads at: the manifest's second classifier's own, else ``crop_scale``."""
        own = self.manifest.second_crop_scale
        if own is not None and reader is getattr(self.backend, "second", None):
            return own
        return self.manifest.crop_scale

    def _crop_size(self) -> int:
        return getattr(self.backend, "crop_size", self.manifest.crop_size)

    def _crops(self, rgb: np.ndarray, xyxy: np.ndarray, scale: float | None = None) -> np.ndarray:
        """The classifier's crops of these boxes (``vision.crops``) at the backend's crop size and ``scale``
        (default the first classifier's)."""
        return crop_boxes(rgb, xyxy, size=self._crop_size(), scale=scale or self.manifest.crop_scale)

    def _turn_crops(self, rgb: np.ndarray, xyxy: np.ndarray) -> BoxCrops | None:
        """The quarter turns' reader's own crops of these boxes, cut when read, where it reads at another crop scale
        than the first classifier (None: it reads the first's crops)."""
        reader = self._turn_reader
        scale = self.manifest.crop_scale if reader is None else self._scale_of(reader)
        return None if scale == self.manifest.crop_scale else BoxCrops(rgb, xyxy, self._crop_size(), scale)

    def classify(self, rgb: np.ndarray, corners: Detections) -> Detections:
        """Read each corner box as a card; boxes read as "not a corner" or below ``min_prob`` are dropped."""
        if len(corners) == 0:
            return corners
        probs = self.corner_probabilities(rgb, corners)
        card_ids, prob = self._best_cards(probs)
        keep = (card_ids >= 0) & (prob >= self.manifest.min_prob)
        return Detections(
            corners.xyxy[keep],
            prob[keep],
            card_ids[keep],
            corners.corner_confidence[keep],
            runner_ups(probs[keep], self._card_of_class),
        )


def runner_ups(probs: np.ndarray, card_of_class: np.ndarray) -> np.ndarray:
    """For each row of classifier outputs, the likeliest card after the best class (-1 where there is none).

    >>> runner_ups(np.array([[0.6, 0.1, 0.3], [0.2, 0.7, 0.1]]), np.array([4, -1, 9])).tolist()
    [9, 4]
    """
    order = np.argsort(-np.asarray(probs), axis=1, kind="stable")[:, 1:]  # every class but the best, likeliest first
    cards = card_of_class[order]
    if cards.shape[1] == 0:
        return np.full(len(cards), -1, np.int64)
    usable = cards >= 0  # "not a corner" is no card
    picked = np.take_along_axis(cards, usable.argmax(axis=1)[:, None], axis=1)[:, 0]
    return np.where(usable.any(axis=1), picked, -1).astype(np.int64)


def corners_of_each(backend: Backend, images: Sequence[np.ndarray]) -> list[Detections]:
    """``backend.corners`` of each image, several at once where the backend can (``OnnxBackend.corners_of_each``)."""
    at_once = getattr(backend, "corners_of_each", None)
    return at_once(images) if at_once is not None else [backend.corners(image) for image in images]


def shift_boxes(xyxy: np.ndarray, fraction: float) -> np.ndarray:
    """Boxes moved ``fraction`` of their own width right and of their height down (negative: left and up)."""
    xyxy = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4)
    size = xyxy[:, 2:] - xyxy[:, :2]
    return xyxy + fraction * np.concatenate([size, size], axis=1)


def scale_boxes(xyxy: np.ndarray, factor: float) -> np.ndarray:
    """Boxes grown (``factor`` > 1) or shrunk about their own centres."""
    xyxy = np.asarray(xyxy, dtype=np.float32).reshape(-1, 4)
    centre = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    half = (xyxy[:, 2:] - xyxy[:, :2]) * (factor / 2)
    return np.concatenate([centre - half, centre + half], axis=1)


def classify_turned(
    backend: Classifier,
    crops: np.ndarray,
    rotations: int = 1,
    sure: float | None = None,
    turn_reader: Classifier | None = None,
    turn_crops: BoxCrops | np.ndarray | None = None,
) -> np.ndarray:
    """Probabilities from ``rotations`` quarter-turned views of each crop, pooled by their geometric mean.

    The classifier learnt corners at every angle, so a turned crop is a second opinion; pooling
    log-probabilities lets views that agree outvote one confident mistake. With ``sure``, the
    upright view is read first and only crops it reads below ``sure`` get the turned views. With
    ``turn_reader`` (a second classifier), the quarter turns (90 and 270 degrees) are read by it, from
    ``turn_crops`` (the same corners cut at its own crop scale) when given.
    """
    if rotations <= 1:
        return backend.classify(crops)
    if sure is not None:
        upright = np.array(backend.classify(crops))  # a copy: unsure rows are replaced
        unsure = np.flatnonzero(upright.max(axis=1) < sure)
        if len(unsure):
            own = None if turn_crops is None else turn_crops[unsure]
            upright[unsure] = pool_views(backend, crops[unsure], rotations, upright[unsure], turn_reader, own)
        return upright
    own = None if turn_crops is None else turn_crops[np.arange(len(crops))]
    return pool_views(backend, crops, rotations, turn_reader=turn_reader, turn_crops=own)


def pool_views(
    backend: Classifier,
    crops: np.ndarray,
    rotations: int,
    first: np.ndarray | None = None,
    turn_reader: Classifier | None = None,
    turn_crops: np.ndarray | None = None,
) -> np.ndarray:
    """Geometric mean of the classifier's reads of ``rotations`` turns; ``first`` is the upright read if made;
    ``turn_reader``, if given, reads the odd quarter turns (of ``turn_crops``, if given, else of ``crops``)."""
    turns = list(range(0, 4, 4 // rotations))
    if first is not None:
        turns = turns[1:]
    readers = [backend if turn % 2 == 0 or turn_reader is None else turn_reader for turn in turns]
    probs = []
    for reader in dict.fromkeys(readers):  # each reader once, its views in one call
        mine = [turn for turn, who in zip(turns, readers, strict=True) if who is reader]
        source = turn_crops if reader is turn_reader and turn_crops is not None else crops
        views = np.concatenate([turned(source, k) for k in mine])
        probs.append(reader.classify(views).reshape(len(mine), len(crops), -1))
    probs = np.concatenate(probs)
    if first is not None:
        probs = np.concatenate([first[None], probs])
    return geometric_mean(probs)


QUARTER_TURNS = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}
"""``cv2.rotate``'s code for ``k`` quarter turns as ``np.rot90`` counts them (anticlockwise)."""


def turned(crops: np.ndarray, k: int) -> np.ndarray:
    """N x C x C x 3 crops turned ``k`` quarter turns anticlockwise (``np.rot90`` on each), as one new array;
    crop by crop through OpenCV, about 3x faster than numpy's strided copy of 3-byte pixels."""
    if k % 4 == 0:
        return np.array(crops)
    return np.stack([cv2.rotate(crop, QUARTER_TURNS[k % 4]) for crop in crops]) if len(crops) else crops.copy()


def to_blob(images: np.ndarray) -> np.ndarray:
    """N x H x W x 3 uint8 images (crops, or a letterboxed photo) as the models' N x 3 x H x W float input in
    [0, 1], in one pass (the same numbers as ``transpose``, ``astype`` and dividing, 2-3x faster)."""
    blob = np.empty((len(images), images.shape[3], images.shape[1], images.shape[2]), np.float32)
    np.divide(images.transpose(0, 3, 1, 2), np.float32(255), out=blob, dtype=np.float32)
    return blob


def geometric_mean(reads: np.ndarray) -> np.ndarray:
    """Views x N x classes probabilities pooled to N x classes by their (renormalised) geometric mean."""
    logp = np.log(np.clip(reads, 1e-9, None)).mean(axis=0)
    pooled = np.exp(logp - logp.max(axis=1, keepdims=True))
    return pooled / pooled.sum(axis=1, keepdims=True)


def zoom_out_fractions(first: Detections, image_hw: tuple[int, int], input_hw: tuple[int, int]) -> tuple[float, ...]:
    """How far to shrink a close-up into the detector's input (fractions to try, first found wins), or ().

    Nothing found: ``ZOOM_OUT``. Corners found bigger than ``MAX_CORNER_PX`` at the input: the one fraction
    that brings their median to ``TARGET_CORNER_PX``. Otherwise the first pass stands.
    """
    if not len(first):
        return ZOOM_OUT
    one_pass = min(input_hw[0] / image_hw[0], input_hw[1] / image_hw[1])
    median_px = float(np.median(first.long_sides)) * one_pass
    if median_px <= MAX_CORNER_PX:
        return ()
    return (max(min(ZOOM_OUT), TARGET_CORNER_PX / median_px),)


def tile_side(
    first: Detections,
    image_hw: tuple[int, int],
    input_hw: tuple[int, int],
    min_px: float = MIN_CORNER_PX,
    target_px: float = TARGET_CORNER_PX,
) -> float | None:
    """Side (image pixels) of square tiles for a second pass, or None when one pass is enough.

    One pass shrinks the image to the detector input; if the median corner found is smaller than
    ``min_px`` there (or nothing was found), tiles magnify it toward ``target_px``,
    beyond the image's own pixels only up to ``MAX_UPSCALE`` (and when nothing was found, never),
    and only when that magnifies by ``MIN_ZOOM`` or more.
    """
    long_side = max(image_hw)
    input_side = min(input_hw)
    one_pass = min(input_hw[0] / image_hw[0], input_hw[1] / image_hw[1])
    max_zoom = long_side / input_side
    if len(first):
        median_px = float(np.median(first.long_sides)) * one_pass
        if median_px >= min_px:
            return None
        zoom = target_px / max(median_px, 1.0)
        max_zoom = max(max_zoom, MAX_UPSCALE)
    else:
        zoom = EMPTY_ZOOM
    zoom = min(zoom, max_zoom)
    if zoom < MIN_ZOOM:
        return None
    return long_side / zoom


def tile_overlap(side: float, first: Detections) -> float:
    """Overlap between tiles: enough for any corner to lie whole inside some tile, at most half a tile.

    The cap matters when the first pass also found one big box (a whole card taken for a corner):
    an overlap near the tile's side would step the tiles a pixel at a time.
    """
    corner = float(np.max(first.long_sides)) if len(first) else 0.0
    return min(max(0.1 * side, 1.5 * corner), 0.5 * side)


def tile_windows(width: int, height: int, side: float, overlap: float) -> list[tuple[int, int, int, int]]:
    """Overlapping square windows (x1, y1, x2, y2) covering the image, spread evenly."""

    def starts(length: int) -> tuple[list[int], int]:
        tile = min(length, round(side))
        count = 1 if tile >= length else math.ceil((length - tile) / max(tile - overlap, tile / 2)) + 1
        return [round(s) for s in np.linspace(0, length - tile, count)], tile

    xs, tile_w = starts(width)
    ys, tile_h = starts(height)
    return [(x, y, x + tile_w, y + tile_h) for y in ys for x in xs]


def merge_tiles(
    first: Detections,
    parts: list[tuple[tuple[int, int, int, int], Detections]],
    image_wh: tuple[int, int],
    iou: float,
    edge_px: float = 2.0,
    fuse: bool = False,
) -> Detections:
    """One set of boxes from the first pass and the tiles (tile pixels), merged by NMS; with ``fuse``, each kept
    box moves to the score-weighted mean of the looks it suppressed and its own (``nms_fused``).

    A box touching a tile's edge inside the image is cut off there and dropped: the overlap
    guarantees the whole corner lies in a neighbouring tile.
    """
    width, height = image_wh
    shifted = [first]
    for (x1, y1, x2, y2), found in parts:
        boxes = found.scaled(1.0, 1.0, x1, y1)
        b = boxes.xyxy
        cut = (
            ((b[:, 0] <= x1 + edge_px) & (x1 > 0))
            | ((b[:, 1] <= y1 + edge_px) & (y1 > 0))
            | ((b[:, 2] >= x2 - edge_px) & (x2 < width))
            | ((b[:, 3] >= y2 - edge_px) & (y2 < height))
        )
        shifted.append(boxes.filter(~cut))
    merged = Detections.concat(shifted)
    if not fuse:
        return merged[nms_indices(merged.xyxy, merged.corner_confidence, iou)]
    keep, xyxy = nms_fused(merged.xyxy, merged.corner_confidence, iou)
    kept = merged[keep]
    return Detections(xyxy, kept.confidence, kept.class_id, kept.corner_confidence, kept.runner_up)


def letterbox(
    rgb: np.ndarray, input_hw: tuple[int, int], stride: int | None = None
) -> tuple[np.ndarray, float, tuple[float, float]]:
    """The image resized to fit ``input_hw`` and padded with grey 114, as ultralytics does: to ``input_hw``, or
    with a ``stride``, only to the next multiple of it each way (ultralytics' rectangular inference).

    Returns the padded image, the scale and the (left, top) padding.
    """
    height, width = rgb.shape[:2]
    r = min(input_hw[0] / height, input_hw[1] / width)
    new_w, new_h = max(1, round(width * r)), max(1, round(height * r))
    if stride:
        input_hw = (math.ceil(new_h / stride) * stride, math.ceil(new_w / stride) * stride)
    pad_w, pad_h = (input_hw[1] - new_w) / 2, (input_hw[0] - new_h) / 2
    left, top = round(pad_w - 0.1), round(pad_h - 0.1)
    right, bottom = input_hw[1] - new_w - left, input_hw[0] - new_h - top
    resized = cv2.resize(rgb, (new_w, new_h), interpolation=cv2.INTER_LINEAR) if r != 1 else rgb
    padded = cv2.copyMakeBorder(resized, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return padded, r, (float(left), float(top))


def decode_yolo(
    output: np.ndarray, conf: float, iou: float, r: float, pad: tuple[float, float], image_hw: tuple[int, int]
) -> Detections:
    """Corner boxes in image pixels from a raw one-class YOLO output (1 x 5 x A: cx, cy, w, h, score)."""
    rows = output[0].T
    scores = rows[:, 4]
    rows = rows[scores > conf]
    if len(rows) == 0:
        return Detections.empty()
    cx, cy, w, h = rows[:, 0], rows[:, 1], rows[:, 2], rows[:, 3]
    xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    keep = nms_indices(xyxy, rows[:, 4], iou)[:MAX_DETECTIONS]
    xyxy = (xyxy[keep] - np.array([pad[0], pad[1], pad[0], pad[1]], np.float32)) / r
    xyxy[:, [0, 2]] = xyxy[:, [0, 2]].clip(0, image_hw[1])
    xyxy[:, [1, 3]] = xyxy[:, [1, 3]].clip(0, image_hw[0])
    return Detections(xyxy, rows[keep, 4])


class OnnxBackend:
    """Both models through onnxruntime; imports neither torch nor ultralytics."""

    def __init__(self, manifest: ModelManifest, tile_readers: int = TILE_READERS):
        self.manifest = manifest
        self.detector = _session(manifest.file(manifest.detector_onnx))
        self.classifier = _session(manifest.file(manifest.classifier_onnx))
        self.second = OnnxClassifier(manifest.file(manifest.second_onnx)) if manifest.second_onnx else None
        self._tile_sessions: queue.SimpleQueue | None = None
        self._tile_pool: ThreadPoolExecutor | None = None
        if tile_readers > 1:
            self._tile_sessions = queue.SimpleQueue()
            for _ in range(tile_readers):
                self._tile_sessions.put(_session(manifest.file(manifest.detector_onnx), threads=1))
            self._tile_pool = ThreadPoolExecutor(tile_readers, thread_name_prefix="cribcam-tile")
        shape = self.detector.get_inputs()[0].shape
        static = len(shape) == 4 and all(isinstance(s, int) for s in shape[2:])
        self.input_size = (shape[2], shape[3]) if static else (manifest.imgsz, manifest.imgsz)
        self._stride = None if static else STRIDE  # an export of any input size: padded only to the stride
        self._det_input = self.detector.get_inputs()[0].name
        cls_input = self.classifier.get_inputs()[0]
        self._cls_input = cls_input.name
        self.crop_size = cls_input.shape[2] if isinstance(cls_input.shape[2], int) else manifest.crop_size

    @property
    def any_size(self) -> bool:
        """Whether the detector export takes any input size (so ``corners`` may be given a ``side``)."""
        return self._stride is not None

    def corners(
        self, rgb: np.ndarray, session: ort.InferenceSession | None = None, side: int | None = None
    ) -> Detections:
        """Corner boxes in ``rgb``, by ``session`` (default: the detector's own, on every core), fitted into the
        input size or, for an export of any size, into ``side`` x ``side``."""
        input_hw = (side, side) if side and self.any_size else self.input_size
        padded, r, pad = letterbox(rgb, input_hw, self._stride)
        blob = to_blob(padded[None])
        (output,) = (session or self.detector).run(None, {self._det_input: blob})
        return decode_yolo(output, self.manifest.conf, self.manifest.iou, r, pad, rgb.shape[:2])

    def corners_of_each(self, images: Sequence[np.ndarray]) -> list[Detections]:
        """``corners`` of each image (the tiles of one photo), ``tile_readers`` at once on single-threaded copies
        of the detector; the same boxes as one at a time."""
        if self._tile_pool is None or len(images) < 2:
            return [self.corners(image) for image in images]
        return list(self._tile_pool.map(self._corners_on_a_tile_session, images))

    def _corners_on_a_tile_session(self, rgb: np.ndarray) -> Detections:
        session = self._tile_sessions.get()
        try:
            return self.corners(rgb, session)
        finally:
            self._tile_sessions.put(session)

    def classify(self, crops: np.ndarray) -> np.ndarray:
        (probs,) = self.classifier.run(None, {self._cls_input: to_blob(crops)})
        return probs


class OnnxClassifier:
    """A classifier export alone through onnxruntime (the manifest's second classifier)."""

    def __init__(self, path: Path):
        self.session = _session(path)
        self._input = self.session.get_inputs()[0].name

    def classify(self, crops: np.ndarray) -> np.ndarray:
        (probs,) = self.session.run(None, {self._input: to_blob(crops)})
        return probs


def _session(path: Path, threads: int = 0) -> ort.InferenceSession:
    """An onnxruntime CPU session, fully optimised; ``threads`` 0: one per core."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.intra_op_num_threads = threads
    # Threads sleep between ops instead of spinning: on a shared server, spinning takes the cores from
    # the other photos and requests (bench/bench_load.py).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


class UltralyticsBackend:
    """The ``.pt`` weights through ultralytics (detector) and torch (classifier)."""

    any_size = True
    """Ultralytics reads the ``.pt`` weights at any input size (``corners``' ``side``)."""

    def __init__(self, manifest: ModelManifest):
        self.crop_size = manifest.crop_size
        from ultralytics import YOLO

        self.manifest = manifest
        self.input_size = (manifest.imgsz, manifest.imgsz)
        self.detector = YOLO(str(manifest.file(manifest.detector_pt)), task="detect")
        self._classifier = TorchClassifier(manifest.file(manifest.classifier_pt), len(manifest.classes))
        self.second = (
            TorchClassifier(manifest.file(manifest.second_pt), len(manifest.classes)) if manifest.second_pt else None
        )

    def corners(self, rgb: np.ndarray, side: int | None = None) -> Detections:
        (result,) = self.detector.predict(
            np.ascontiguousarray(rgb[:, :, ::-1]),
            imgsz=side or self.manifest.imgsz,
            conf=self.manifest.conf,
            iou=self.manifest.iou,
            max_det=MAX_DETECTIONS,
            verbose=False,
        )
        boxes = result.boxes
        return Detections(boxes.xyxy.cpu().numpy(), boxes.conf.cpu().numpy())

    def classify(self, crops: np.ndarray) -> np.ndarray:
        return self._classifier.classify(crops)


class TorchClassifier:
    """A classifier's ``.pt`` weights through torch (float)."""

    def __init__(self, path: Path, num_classes: int):
        import torch

        from vision.training.classifier_net import CornerClassifier

        state = torch.load(path, map_location="cpu", weights_only=True)
        if isinstance(state, dict) and "state_dict" in state:
            state = state["state_dict"]
        width = int(state["features.0.0.weight"].shape[0])  # the first conv's output channels
        self.net = CornerClassifier(width=width, num_classes=num_classes)
        self.net.load_state_dict(state)
        self.net.eval()
        self._torch = torch

    def classify(self, crops: np.ndarray) -> np.ndarray:
        torch = self._torch
        with torch.inference_mode():
            blob = torch.from_numpy(to_blob(crops))
            return torch.softmax(self.net(blob), dim=1).numpy()

"""The Count page: typed and photographed hands, fixing a misread by its chip, and the error sentences."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scorer.cards import Card
from scorer.hand import score_hand
from ui import photos
from ui.sample import blank_photo, sample_photo
from vision.detections import Detections
from vision.detector import DetectionRun

APP = str(Path(__file__).resolve().parent.parent / "app.py")
HAVE_MODEL = photos.models_present()


def _app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["page"] = "count"
    return at.run()


def _upload(at: AppTest, data: bytes, name: str = "hand.jpg") -> AppTest:
    at.file_uploader(key="count_upload").set_value((name, data, "image/jpeg")).run()
    assert not at.exception, at.exception
    return at


def _total(at: AppTest) -> str:
    return at.metric[0].value


@pytest.fixture
def fake_reading(monkeypatch):
    """Stand in for the detector: the photo 'shows' the given cards."""

    def install(cards: str, starter: str | None = None, warnings: tuple[str, ...] = ()) -> None:
        result = photos.PhotoResult(
            cards=[Card.parse(token) for token in cards.split()],
            starter=None if starter is None else Card.parse(starter),
            warnings=list(warnings),
            seconds=0.1,
        )
        monkeypatch.setattr(photos, "models_present", lambda: True)
        monkeypatch.setattr(photos, "read", lambda data: result)

    return install


def test_typed_hand_is_counted_with_the_breakdown_and_the_spoken_count():
    at = _app()
    at.text_input(key="count_typed").input("5H 5C 5S JD 5D").run()
    assert _total(at) == "29"
    assert any("nobs is twenty-nine" in m.value for m in at.markdown)
    table = at.table[0].value
    assert table["Points"].sum() == 29 and "his nobs" in set(table["Score"])


def test_crib_rules_drop_a_four_card_flush():
    at = _app()
    at.text_input(key="count_typed").input("5H 6H 7H 8H KC").run()
    assert _total(at) == "12"  # two fifteens, a run of four, a four-card flush
    at.button_group(key="count_kind").set_value("Crib").run()
    assert _total(at) == "8"


def test_a_misread_card_is_fixed_by_tapping_its_chip(fake_reading):
    fake_reading("5H 5C 5S QD 5D", starter="5D")
    at = _upload(_app(), b"photo")
    assert _total(at) == "28"
    at.button_group(key="chip_3_QD_rank").set_value("J").run()
    assert _total(at) == "29"
    assert at.button_group(key="starter_5H_5C_5S_JD_5D").value == 4  # the detector's starter guess stays


def test_a_false_card_is_removed_and_a_missed_one_added(fake_reading):
    fake_reading("5H 5C 5S JD 5D 2C", starter="5D")
    at = _upload(_app(), b"photo")
    assert "remove 1" in at.warning[0].value
    at.button(key="chip_5_2C_remove").click().run()
    assert _total(at) == "29"
    at.button(key="chip_1_5C_remove").click().run()
    assert "Add 1 more card" in at.info[-1].value
    at.button_group(key="count_add_rank").set_value("A").run()
    at.button_group(key="count_add_suit").set_value("C").run()
    at.button(key="count_add_button").click().run()
    at.button_group(key="starter_5H_5S_JD_5D_AC").set_value(2).run()
    assert _total(at) == str(score_hand("5H 5S 5D AC", "JD").total)


def test_a_duplicate_card_is_one_sentence_with_a_way_forward(fake_reading):
    fake_reading("5H 5H 5S JD 5D", starter="5D")
    at = _upload(_app(), b"photo")
    assert not at.metric
    assert at.error[0].value.startswith("5H appears twice") and "Tap one of them" in at.error[0].value


def test_a_typed_duplicate_is_refused_in_one_sentence():
    at = _app()
    at.text_input(key="count_typed").input("5H 5H 5S JD 5D").run()
    assert "5H appears twice" in at.error[0].value and not at.exception


def test_a_photo_with_no_cards_says_what_to_do(fake_reading):
    fake_reading("", warnings=("No cards found; photograph the cards face up, with their corners in view.",))
    at = _upload(_app(), blank_photo())
    assert at.warning[0].value.startswith("No cards found") and not at.metric


def test_without_a_model_the_page_says_so_and_typing_still_works(monkeypatch, tmp_path):
    monkeypatch.setenv("CRIBCAM_MODELS", str(tmp_path))
    at = _upload(_app(), sample_photo())
    assert any("detector is missing" in e.value and str(tmp_path) in e.value for e in at.error)
    at.text_input(key="count_typed").input("5H 5C 5S JD 5D").run()
    assert _total(at) == "29"


class StandInDetector:
    """Gives the corners of the sample photo's cards (working-image pixels), as a trained detector would."""

    def detect_photo(self, photo):
        names = ["5H", "5C", "5S", "JD", "5D"]
        boxes = [[120 + 170 * i, 185 + 12 * i, 165 + 170 * i, 270 + 12 * i] for i in range(4)] + [
            [1190, 735, 1235, 820]
        ]
        return Detections(boxes, [0.96] * 5, [Card.parse(n).index for n in names]), DetectionRun({"detect": 5.0})


def test_the_photo_path_reads_draws_and_times_with_a_stand_in_detector(monkeypatch):
    monkeypatch.setattr(photos, "models_present", lambda: True)
    monkeypatch.setattr(photos, "_detector", lambda models_dir: StandInDetector())
    at = _upload(_app(), sample_photo())
    assert sorted(at.session_state["count_cards"]) == sorted(["5H", "5C", "5S", "JD", "5D"])
    assert at.session_state["count_starter"] == "5D"  # set apart from the row: the starter guess
    assert _total(at) == "29"
    assert at.get("image") and any(c.value.startswith("Read in") for c in at.caption)


@pytest.mark.skipif(not HAVE_MODEL, reason="no trained detector yet (models/cribcam.json is missing)")
def test_an_uploaded_rendered_hand_is_read_and_counted():
    at = _upload(_app(), sample_photo(["5H", "5C", "5S", "JD"], "5D"))
    warnings = [w.value for w in at.warning] + [e.value for e in at.error]
    assert sorted(at.session_state["count_cards"]) == sorted(["5H", "5C", "5S", "JD", "5D"]), warnings
    assert _total(at) == "29"
    assert any(c.value.startswith("Read in") for c in at.caption)


@pytest.mark.skipif(not HAVE_MODEL, reason="no trained detector yet (models/cribcam.json is missing)")
def test_a_real_photo_of_an_empty_table_finds_no_cards():
    at = _upload(_app(), blank_photo())
    assert any("No cards found" in w.value for w in at.warning) and not at.metric


def test_typed_cards_replace_a_photo_reading_and_stay(fake_reading):
    fake_reading("5H 5C 5S QD 5D", starter="5D")
    at = _upload(_app(), b"photo")
    at.text_input(key="count_typed").input("AH 2H 3H 4H KS").run()
    at.button_group(key="count_kind").set_value("Crib").run()  # another rerun with the photo still there
    assert at.session_state["count_cards"] == ["AH", "2H", "3H", "4H", "KS"]
    assert _total(at) == "8"


def test_a_broken_model_manifest_is_one_sentence_and_typing_still_works(monkeypatch, tmp_path):
    (tmp_path / "cribcam.json").write_text("{}")
    monkeypatch.setenv("CRIBCAM_MODELS", str(tmp_path))
    at = _upload(_app(), sample_photo())
    assert "is not a valid model manifest" in at.error[0].value and "Enter the cards by hand" in at.error[0].value

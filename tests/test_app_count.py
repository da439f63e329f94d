"""The Count page: typed and photographed hands, fixing a misread by its chip, counting it yourself first,
and the error sentences."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scorer.cards import Card
from scorer.hand import score_hand
from ui import photos
from ui.chips import chip_key
from ui.common import picker_keys
from ui.sample import blank_photo, sample_photo
from vision.detections import Detections
from vision.detector import DetectionRun
from vision.reading import NO_STARTER

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


def _total(at: AppTest) -> str | None:
    """The total the Count page shows (``None``: none shown)."""
    shown = [re.search(r'class="cc-count cc-total">(\d+)<', m.value) for m in at.markdown]
    return next((found.group(1) for found in shown if found), None)


def _read_in(at: AppTest) -> bool:
    """The drawn photo is shown, its caption timing the reading."""
    images = at.get("image")
    return bool(images) and images[0].proto.imgs[0].caption.startswith("What the camera saw; read in ")


def _chip(at: AppTest, index: int) -> str:
    """The widget key prefix of the Count page's chip ``index`` as drawn now."""
    return chip_key("count_cards", index, at.session_state)


def _add_card(at: AppTest, card: str) -> tuple[str, str]:
    """Tap rank and suit in "+ Add a card", then Add; the picker's pill keys it was tapped on."""
    keys = picker_keys("count_cards_add", at.session_state)
    at.button_group(key=keys[0]).set_value(card[:-1]).run()
    at.button_group(key=keys[1]).set_value(card[-1]).run()
    at.button(key="count_cards_add_button").click().run()
    assert not at.exception, at.exception
    return keys


def _check(pair: str) -> photos.CardCheck:
    """ "QD>JD": QD to check, most likely JD; "->7D": a place left out, most likely 7D."""
    card, other = pair.split(">")
    return photos.CardCheck(Card.parse(card) if card != "-" else None, Card.parse(other))


@pytest.fixture
def fake_reading(monkeypatch):
    """Stand in for the detector: the photo 'shows' the given cards."""

    def install(cards: str, starter: str | None = None, warnings: tuple[str, ...] = (), checks: str = "") -> None:
        result = photos.PhotoResult(
            cards=[Card.parse(token) for token in cards.split()],
            starter=None if starter is None else Card.parse(starter),
            warnings=list(warnings),
            checks=[_check(pair) for pair in checks.split()],
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
    shown = next(m.value for m in at.markdown if "| Score | Cards | Points |" in m.value)
    table = shown[shown.index("| Score | Cards | Points |") :]
    rows = [line.strip("| ").split(" | ") for line in table.splitlines()[2:]]
    assert sum(int(row[2]) for row in rows) == 29 and ["his nobs", "J♦", "1"] in rows


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
    at.button_group(key=f"{_chip(at, 3)}_rank").set_value("J").run()
    assert _total(at) == "29"
    assert at.button_group(key="starter_5H_5C_5S_JD_5D").value == 4  # the detector's starter guess stays


def test_a_false_card_is_removed_and_a_missed_one_added(fake_reading):
    fake_reading("5H 5C 5S JD 5D 2C", starter="5D")
    at = _upload(_app(), b"photo")
    assert "remove 1" in at.warning[0].value
    at.button(key=f"{_chip(at, 5)}_remove").click().run()
    assert _total(at) == "29"
    at.button(key=f"{_chip(at, 1)}_remove").click().run()
    assert "Add 1 more card" in at.info[-1].value
    _add_card(at, "AC")
    at.button_group(key="starter_5H_5S_JD_5D_AC").set_value(2).run()
    assert _total(at) == str(score_hand("5H 5S 5D AC", "JD").total)


def test_a_card_to_check_is_fixed_in_one_tap_as_the_card_it_most_likely_is(fake_reading):
    # QD to check, most likely JD; 4S to check, most likely 5S, which the photo shows too: 5S's other corner misread
    fake_reading("5H 5C 5S QD 5D 4S", starter="5D", checks="QD>JD 4S>5S")
    at = _upload(_app(), b"photo")
    assert [b.label for b in at.button if b.key.startswith("count_fix_")] == ["Change QD to JD", "Remove 4S"]
    at.button(key="count_fix_QD_JD").click().run()
    assert at.session_state["count_cards"] == ["5H", "5C", "5S", "JD", "5D", "4S"]
    assert [b.label for b in at.button if b.key.startswith("count_fix_")] == ["Remove 4S"]
    at.button(key="count_fix_4S_5S").click().run()
    assert _total(at) == "29" and not [b for b in at.button if b.key.startswith("count_fix_")]
    assert at.button_group(key="starter_5H_5C_5S_JD_5D").value == 4  # the detector's starter guess stays


def test_each_card_is_offered_once_and_remove_or_add_only_where_the_count_needs_it(fake_reading):
    # five cards: no Remove (4S's runner-up 5S is here) and no Add; JD offered once, by the first check naming it
    fake_reading("5H 5C 5S QD 4S", starter="5H", checks="QD>JD 4S>5S ->JD ->7D ->7D")
    at = _upload(_app(), b"photo")
    assert [b.label for b in at.button if b.key.startswith("count_fix_")] == ["Change QD to JD"]


def test_a_place_left_out_of_a_card_read_twice_is_added_in_one_tap_as_its_likeliest_card(fake_reading):
    fake_reading("5H 5C 5S 5D", starter="5D", checks="->JD ->5C")  # 5C is among the cards: no button for it
    at = _upload(_app(), b"photo")
    assert [b.label for b in at.button if b.key.startswith("count_fix_")] == ["Add JD"]
    at.button(key="count_fix_add_JD").click().run()
    assert at.session_state["count_cards"] == ["5H", "5C", "5S", "5D", "JD"] and _total(at) == "29"
    assert not [b for b in at.button if b.key.startswith("count_fix_")]


def test_a_duplicate_card_is_one_sentence_with_a_way_forward(fake_reading):
    fake_reading("5H 5H 5S JD 5D", starter="5D")
    at = _upload(_app(), b"photo")
    assert _total(at) is None
    assert at.error[0].value.startswith("5H appears twice") and "Tap one of them" in at.error[0].value


def test_a_typed_duplicate_is_refused_in_one_sentence():
    at = _app()
    at.text_input(key="count_typed").input("5H 5H 5S JD 5D").run()
    assert "5H appears twice" in at.error[0].value and not at.exception


def test_a_photo_with_no_cards_says_what_to_do(fake_reading):
    fake_reading("", warnings=("No cards found; photograph the cards face up, with their corners in view.",))
    at = _upload(_app(), blank_photo())
    assert at.warning[0].value.startswith("No cards found") and _total(at) is None


def test_without_a_model_the_page_says_so_and_typing_still_works(monkeypatch, tmp_path):
    monkeypatch.setenv("CRIBCAM_MODELS", str(tmp_path))
    at = _upload(_app(), sample_photo())
    assert any("detector is missing" in e.value and str(tmp_path) in e.value for e in at.error)
    at.text_input(key="count_typed").input("5H 5C 5S JD 5D").run()
    assert _total(at) == "29"


class StandInDetector:
    """Gives the corners of the sample photo's cards (working-image pixels), as a trained detector would; with
    ``misread``, the JD is read as QD at 0.4, JD its runner-up."""

    def __init__(self, misread: bool = False):
        self.misread = misread

    def detect_photo(self, photo):
        names = ["5H", "5C", "5S", "QD" if self.misread else "JD", "5D"]
        boxes = [[120 + 170 * i, 185 + 12 * i, 165 + 170 * i, 270 + 12 * i] for i in range(4)] + [
            [1190, 735, 1235, 820]
        ]
        confidence = [0.96, 0.96, 0.96, 0.4 if self.misread else 0.96, 0.96]
        runner_up = [-1, -1, -1, Card.parse("JD").index, -1]
        ids = [Card.parse(n).index for n in names]
        return Detections(boxes, confidence, ids, None, runner_up), DetectionRun({"detect": 5.0})


def test_the_photo_path_reads_draws_and_times_with_a_stand_in_detector(monkeypatch):
    monkeypatch.setattr(photos, "models_present", lambda: True)
    monkeypatch.setattr(photos, "_detector", lambda models_dir: StandInDetector())
    at = _upload(_app(), sample_photo())
    assert sorted(at.session_state["count_cards"]) == sorted(["5H", "5C", "5S", "JD", "5D"])
    assert at.session_state["count_starter"] == "5D"  # set apart from the row: the starter guess
    assert _total(at) == "29"
    assert _read_in(at)


def test_a_misread_card_to_check_names_its_likeliest_card_and_one_tap_makes_it_so(monkeypatch):
    monkeypatch.setattr(photos, "models_present", lambda: True)
    monkeypatch.setattr(photos, "_detector", lambda models_dir: StandInDetector(misread=True))
    at = _upload(_app(), sample_photo())
    assert "Check QD: only about 40% likely read right; if not, it is most likely JD." in [w.value for w in at.warning]
    assert _total(at) == "28"
    at.button(key="count_fix_QD_JD").click().run()
    assert _total(at) == "29"


@pytest.mark.skipif(not HAVE_MODEL, reason="no trained detector yet (models/cribcam.json is missing)")
def test_an_uploaded_rendered_hand_is_read_and_counted():
    at = _upload(_app(), sample_photo(["5H", "5C", "5S", "JD"], "5D"))
    warnings = [w.value for w in at.warning] + [e.value for e in at.error]
    assert sorted(at.session_state["count_cards"]) == sorted(["5H", "5C", "5S", "JD", "5D"]), warnings
    assert _total(at) == "29"
    assert _read_in(at)


@pytest.mark.skipif(not HAVE_MODEL, reason="no trained detector yet (models/cribcam.json is missing)")
def test_a_real_photo_of_an_empty_table_finds_no_cards():
    at = _upload(_app(), blank_photo())
    assert any("No cards found" in w.value for w in at.warning) and _total(at) is None


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


# --- the chips: one popup per card, fixed in one open; the picker empty again after Add -------------------------


def _popover(at: AppTest, key: str):
    return at.get_by_key(key)


def _labels(pills) -> list[str]:
    """The pills' labels as the phone gets them (a lone symbol like ♠ travels as the pill's icon)."""
    return [option.content or option.content_icon for option in pills.proto.options]


def test_a_chip_keeps_its_popup_while_its_rank_and_then_its_suit_are_fixed(fake_reading):
    fake_reading("5H 5C 5S QC 5D", starter="5D")  # the jack of diamonds read as the queen of clubs
    at = _upload(_app(), b"photo")
    chip = _chip(at, 3)
    popup = _popover(at, f"{chip}_pop")
    at.button_group(key=f"{chip}_rank").set_value("J").run()
    assert _chip(at, 3) == chip  # the same popup (its id, so the phone keeps it open), now showing J♣
    assert _popover(at, f"{chip}_pop").proto.id == popup.proto.id
    assert _popover(at, f"{chip}_pop").proto.popover.label == "J♣"
    at.button_group(key=f"{chip}_suit").set_value("D").run()
    assert _popover(at, f"{chip}_pop").proto.popover.label == ":red[J♦]"
    assert at.session_state["count_cards"] == ["5H", "5C", "5S", "JD", "5D"]
    assert _total(at) == "29"


def test_tapping_a_chips_lit_rank_again_keeps_the_card_and_lights_it_again(fake_reading):
    fake_reading("5H 5C 5S JD 5D", starter="5D")
    at = _upload(_app(), b"photo")
    chip = _chip(at, 3)
    at.button_group(key=f"{chip}_rank").set_value(None).run()  # a tap on the lit J deselects it in the browser
    rank = at.button_group(key=f"{chip}_rank")
    assert rank.value == "J" and rank.proto.set_value  # the phone is told to light J again
    assert _total(at) == "29"


def test_hearts_and_diamonds_are_red_on_chips_and_their_suit_pills(fake_reading):
    fake_reading("5H 5C 5S JD 5D", starter="5D")
    at = _upload(_app(), b"photo")
    assert _popover(at, f"{_chip(at, 0)}_pop").proto.popover.label == ":red[5♥]"
    assert _popover(at, f"{_chip(at, 1)}_pop").proto.popover.label == "5♣"
    assert _labels(at.button_group(key=f"{_chip(at, 0)}_suit")) == ["♠", ":red[♥]", ":red[♦]", "♣"]
    add_suit = picker_keys("count_cards_add", at.session_state)[1]
    assert _labels(at.button_group(key=add_suit)) == ["♠", ":red[♥]", ":red[♦]", "♣"]


def test_add_a_card_opens_empty_again_after_add(fake_reading):
    fake_reading("5H 5C 5S", starter=None)
    at = _upload(_app(), b"photo")
    used = _add_card(at, "JD")
    now = picker_keys("count_cards_add", at.session_state)
    assert now != used  # new pills: the phone draws them unselected (old keys would stay lit there)
    assert at.button_group(key=now[0]).value is None and at.button_group(key=now[1]).value is None
    _add_card(at, "JS")  # the same rank again is a fresh tap, not a deselection
    assert at.session_state["count_cards"] == ["5H", "5C", "5S", "JD", "JS"]


def test_add_without_a_rank_and_a_suit_says_what_to_tap(fake_reading):
    fake_reading("5H 5C 5S JD", starter=None)
    at = _upload(_app(), b"photo")
    at.button_group(key=picker_keys("count_cards_add", at.session_state)[0]).set_value("5").run()
    at.button(key="count_cards_add_button").click().run()
    assert any(w.value == "Tap a rank and a suit to choose the card first." for w in at.warning)
    assert at.session_state["count_cards"] == ["5H", "5C", "5S", "JD"]


def test_a_fixed_starter_chip_stays_the_starter_and_a_removed_one_leaves_none(fake_reading):
    fake_reading("5H 5C 5S JD 4D", starter="4D")
    at = _upload(_app(), b"photo")
    at.button_group(key=f"{_chip(at, 4)}_rank").set_value("5").run()
    assert at.session_state["count_starter"] == "5D" and _total(at) == "29"
    at.button(key=f"{_chip(at, 4)}_remove").click().run()
    assert at.session_state["count_starter"] is None


# --- stale counts and warnings ------------------------------------------------------------------------------


def test_a_typing_error_clears_the_count_before_and_keeps_the_text_to_fix():
    at = _app()
    at.text_input(key="count_typed").input("5H 5C 5S JD 5D").run()
    assert _total(at) == "29"
    at.text_input(key="count_typed").input("5H 5C 5S JX 5D").run()
    assert _total(at) is None and at.session_state["count_cards"] == []
    assert at.error[0].value.startswith("'JX' is not a card")
    assert at.text_input(key="count_typed").value == "5H 5C 5S JX 5D"


def test_removing_a_photo_forgets_its_cards_and_never_brings_back_the_sample(fake_reading, monkeypatch):
    monkeypatch.setattr("ui.count_page._sample_bytes", lambda: b"sample")
    fake_reading("AH 2H 3H 4H KS", starter="KS")
    at = _app()
    at.button(key="count_sample").click().run()
    assert at.session_state["count_cards"]  # the sample hand
    _upload(at, b"photo")
    at.file_uploader(key="count_upload").set_value(None).run()
    assert not at.exception, at.exception
    assert at.session_state["count_cards"] == [] and _total(at) is None
    assert "count_use_sample" not in at.session_state


def test_the_choose_the_starter_warning_goes_once_the_starter_is_tapped(fake_reading):
    fake_reading("5H 5C 5S JD 5D", warnings=(NO_STARTER,))
    at = _upload(_app(), b"photo")
    assert [w.value for w in at.warning] == [NO_STARTER]
    at.button_group(key="starter_5H_5C_5S_JD_5D").set_value(4).run()
    assert not at.warning and _total(at) == "29"


# --- count it yourself first --------------------------------------------------------------------------------


def test_counting_it_yourself_hides_the_total_until_checked_then_names_what_was_missed():
    at = _app()
    at.toggle(key="count_yourself").set_value(True).run()
    at.text_input(key="count_typed").input("5H 10C 6S 6D QC").run()  # fifteen two, four, a pair: six
    assert _total(at) is None and not any("is six" in m.value for m in at.markdown)
    at.button(key="count_self_check").click().run()
    assert at.warning[0].value.startswith("Enter your count first") and _total(at) is None
    at.number_input(key="count_self_total").set_value(4).run()
    at.text_area(key="count_self_items").input("15 5H 10C\npair 6S 6D").run()
    at.button(key="count_self_check").click().run()
    assert at.error[0].value == "You said four; the count is six."
    said = [m.value for m in at.markdown]
    assert "- You missed five and queen make fifteen for two (5H QC)." in said
    assert _total(at) == "6"
    at.button_group(key="count_kind").set_value("Crib").run()  # another count: hidden again, answer emptied
    assert _total(at) is None and at.number_input(key="count_self_total").value is None

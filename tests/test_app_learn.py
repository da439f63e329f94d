"""The Learn page: the counting quiz marks a wrong count item by item; discard trainer, explainer, rules."""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from scorer.learn import deal_count_quiz, deal_discard_quiz
from ui.common import PHONE_CSS, card_label

APP = str(Path(__file__).resolve().parent.parent / "app.py")
SEED = 7


def _app(section: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["page"] = "learn"
    at.session_state["quiz_seed"] = SEED
    at.session_state["discard_seed"] = SEED
    at.run()
    if section:
        at.button_group(key="learn_section").set_value(section).run()
    assert not at.exception, at.exception
    return at


def test_quiz_marks_a_wrong_count_and_explains_it():
    quiz = deal_count_quiz(3, rng=SEED)
    at = _app()
    at.number_input(key="quiz_total").set_value(quiz.answer + 2).run()
    at.button(key="quiz_check").click().run()
    assert at.error[0].value.startswith("You said") and "the count is" in at.error[0].value
    assert not at.success


def test_quiz_marks_a_right_count_and_a_missed_item():
    quiz = deal_count_quiz(1, rng=SEED)  # fifteens only
    first, *rest = quiz.score.items
    at = _app()
    at.button_group(key="quiz_level").set_value(1).run()
    at.session_state["quiz_seed"] = SEED
    at.run()
    at.number_input(key="quiz_total").set_value(quiz.answer).run()
    at.text_area(key="quiz_items").input("15 " + " ".join(str(c) for c in first.cards)).run()
    at.button(key="quiz_check").click().run()
    assert at.success[0].value.startswith("Right")
    said = [m.value for m in at.markdown]
    assert any(line.startswith("- You found") for line in said)
    assert any(line.startswith("- You missed") for line in said) == bool(rest)


def test_discard_trainer_grades_a_throw_with_expected_values():
    quiz = deal_discard_quiz(2, rng=SEED)
    best = quiz.advice.best
    at = _app("Discard trainer")
    at.button_group(key="discard_throw").set_value(list(best.discard)).run()
    at.button(key="discard_check").click().run()
    assert "That is the best throw of the 15." in at.success[0].value
    assert len(at.dataframe[0].value) == 15


def test_discard_trainer_shows_cards_with_red_suits_and_speaks_them_in_words():
    quiz = deal_discard_quiz(2, rng=SEED)
    worst = quiz.advice.options[-1]
    at = _app("Discard trainer")
    pills = at.button_group(key="discard_throw")
    assert [o.content or o.content_icon for o in pills.proto.options] == [card_label(c) for c in quiz.cards]
    at.button_group(key="discard_throw").set_value(list(worst.discard)).run()
    at.button(key="discard_check").click().run()
    said = at.warning[0].value
    first, second = worst.discard
    assert said.startswith(f"You threw the {first.words()} and the {second.words()}:")
    assert not any(str(c) in said.split() for c in quiz.cards)  # no codes like "AS 8H"


def test_new_hand_empties_the_answer_on_the_phone_and_the_next_check_asks_for_one():
    at = _app()
    at.number_input(key="quiz_total").set_value(12).run()
    at.text_area(key="quiz_items").input("15 5H KS").run()
    at.button(key="quiz_new").click().run()
    total, items = at.number_input(key="quiz_total"), at.text_area(key="quiz_items")
    assert total.value is None and items.value == ""
    assert total.proto.set_value and items.proto.set_value  # the browser is told to empty both boxes
    at.button(key="quiz_check").click().run()
    assert at.warning[0].value.startswith("Enter your count first") and not at.error and not at.success


def test_new_deal_in_the_discard_trainer_unlights_the_last_throw():
    quiz = deal_discard_quiz(2, rng=SEED)
    at = _app("Discard trainer")
    at.button_group(key="discard_throw").set_value(list(quiz.cards[:2])).run()
    at.button(key="discard_new").click().run()
    throw = at.button_group(key="discard_throw")
    assert throw.value == [] and throw.proto.set_value


def _min_px(selector: str) -> tuple[float, float]:
    """The min-width and min-height PHONE_CSS gives ``selector`` (in px, 16 px a rem; 0 when unset)."""
    sizes = {"min-width": 0.0, "min-height": 0.0}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", PHONE_CSS):
        if selector in [s.strip() for s in selectors.split(",")]:
            for name, value, unit in re.findall(r"(min-width|min-height):\s*([\d.]+)(rem|px)", body):
                sizes[name] = max(sizes[name], float(value) * (16 if unit == "rem" else 1))
    return sizes["min-width"], sizes["min-height"]


def test_quiz_steppers_and_toggles_are_thumb_sized():
    for stepper in ('[data-testid="stNumberInputStepDown"]', '[data-testid="stNumberInputStepUp"]'):
        assert min(_min_px(stepper)) >= 44, stepper  # Streamlit draws them 32 x 38 px
    assert _min_px('[data-testid="stCheckbox"] label')[1] >= 44  # a toggle is 21 px tall


def test_explainer_walks_through_a_count():
    at = _app("Explain a hand")
    assert at.metric[0].value == "29"
    at.text_input(key="explain_starter").input("5H").run()
    assert "5H appears twice" in at.error[0].value


def test_rules_page_names_the_skunk_line():
    at = _app("Rules")
    assert any("skunked" in m.value for m in at.markdown)


def test_quiz_refuses_a_forty_card_claim_in_one_sentence():
    quiz = deal_count_quiz(3, rng=SEED)
    at = _app()
    at.number_input(key="quiz_total").set_value(quiz.answer).run()
    claim = "run " + " ".join(f"{rank}{suit}" for rank in range(1, 11) for suit in "SHDC")
    at.text_area(key="quiz_items").input(claim).run()
    at.button(key="quiz_check").click().run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "Line 1: A claim can have at most 5 cards; this one has 40. Fix that and check again."
    ]
    assert at.text_area(key="quiz_items").max_chars == 2000

"""The Learn page: the counting quiz marks a wrong count item by item; discard trainer, explainer, rules."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from scorer.learn import deal_count_quiz, deal_discard_quiz

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

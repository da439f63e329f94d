"""Learn: the counting quiz, the discard trainer, the hand explainer and the rules on one page."""

from __future__ import annotations

import random

import streamlit as st

from scorer.cards import parse_cards
from scorer.learn import (
    LEVELS,
    MAX_CLAIMS_TEXT,
    CountQuiz,
    deal_count_quiz,
    deal_discard_quiz,
    explain_hand,
    parse_claims,
)
from ui.common import button_row, card_label, show_cards

SECTIONS = ["Counting quiz", "Discard trainer", "Explain a hand", "Rules"]
TYPED_CHARS = 60  # room for four cards however they are spaced


def render() -> None:
    st.header("Learn to count")
    section = st.segmented_control("Section", SECTIONS, default=SECTIONS[0], key="learn_section") or SECTIONS[0]
    {
        "Counting quiz": _count_quiz,
        "Discard trainer": _discard_trainer,
        "Explain a hand": _explainer,
        "Rules": _rules,
    }[section]()


# ---------------------------------------------------------------- counting quiz


def _count_quiz() -> None:
    level = st.segmented_control(
        "Level",
        list(LEVELS),
        format_func=lambda n: f"{n} · {LEVELS[n].name}",
        default=3,
        key="quiz_level",
        on_change=_new_seed,
        args=("quiz_seed",),
    )
    level = level or 3
    st.caption(LEVELS[level].description)
    if "quiz_seed" not in st.session_state:
        _new_seed("quiz_seed")
    quiz = deal_count_quiz(level, rng=st.session_state["quiz_seed"])
    what = "crib" if quiz.level.crib else "hand"
    st.markdown(f"**Your {what}** and the starter:")
    show_cards(quiz.hand, quiz.starter)
    answer_inputs("quiz")
    with button_row("quiz_buttons"):
        check = st.button("Check", type="primary", key="quiz_check")
        st.button("New hand", key="quiz_new", on_click=_new_seed, args=("quiz_seed",))
    if check:
        show_feedback(quiz, "quiz")


def _new_seed(name: str) -> None:
    """A new deal; the last answer is emptied on the phone too (set, not deleted: a deleted widget state
    leaves the browser showing the old answer, which the next Check would grade)."""
    st.session_state[name] = random.randrange(1 << 30)
    if name == "quiz_seed":
        clear_answer("quiz")
    else:
        st.session_state["discard_throw"] = []


def answer_inputs(key: str) -> None:
    """The player's count and, if they like, what scores one item a line (``{key}_total``, ``{key}_items``)."""
    st.number_input("Your count", min_value=0, max_value=29, value=None, step=1, key=f"{key}_total")
    st.text_area(
        "What scores, one per line (optional)",
        key=f"{key}_items",
        placeholder="15 5H KS\npair 5H 5C\nrun 3H 4D 5C",
        height=100,
        max_chars=MAX_CLAIMS_TEXT,
    )


def clear_answer(key: str) -> None:
    """Empty ``answer_inputs(key)``, on the phone as well."""
    st.session_state[f"{key}_total"] = None
    st.session_state[f"{key}_items"] = ""


def show_feedback(quiz: CountQuiz, key: str) -> bool:
    """Grade the answer in ``answer_inputs(key)``: right or wrong, then found, missed and not there, item by
    item. False, with one sentence saying what to do, when there is nothing to grade yet."""
    total = st.session_state.get(f"{key}_total")
    if total is None:
        st.warning("Enter your count first (a number from 0 to 29).")
        return False
    try:
        claims = parse_claims(st.session_state.get(f"{key}_items") or "")
        feedback = quiz.check(int(total), claims or None)
    except ValueError as error:
        st.error(f"{error} Fix that and check again.")
        return False
    first, *rest = feedback.lines()
    (st.success if feedback.total_right else st.error)(first)
    for line in rest:
        st.markdown(f"- {line}")
    return True


# ---------------------------------------------------------------- discard trainer


@st.cache_data(show_spinner="Working out every throw…", max_entries=64)
def _advice_rows(cards: str, my_crib: bool) -> list[dict]:
    from scorer.discard import advise

    return [
        {
            "Throw": " ".join(c.pretty() for c in o.discard),
            "Keep": " ".join(c.pretty() for c in o.keep),
            "Hand": round(float(o.hand.mean), 2),
            "Crib": round(float(o.crib_mean), 2),
            "Net": round(float(o.net), 2),
        }
        for o in advise(cards, my_crib).options
    ]


def _discard_trainer() -> None:
    players = (
        st.segmented_control(
            "Players", [2, 3, 4], default=2, key="discard_players", on_change=_new_seed, args=("discard_seed",)
        )
        or 2
    )
    if "discard_seed" not in st.session_state:
        _new_seed("discard_seed")
    quiz = deal_discard_quiz(players, rng=st.session_state["discard_seed"])
    need = len(quiz.cards) - 4
    st.markdown(f"**Your deal** · the crib is **{'yours' if quiz.my_crib else 'theirs'}** · throw {need}:")
    show_cards(quiz.cards)
    throw = st.pills(
        "Tap the cards to throw",
        list(quiz.cards),
        selection_mode="multi",
        format_func=card_label,
        key="discard_throw",
    )
    with button_row("discard_buttons"):
        check = st.button("Check my throw", type="primary", key="discard_check")
        st.button("New deal", key="discard_new", on_click=_new_seed, args=("discard_seed",))
    if not check:
        return
    if len(throw) != need:
        st.warning(f"Tap exactly {need} card{'s' if need > 1 else ''} to throw, then check.")
        return
    feedback = quiz.check(throw)
    first, *rest = feedback.lines()
    (st.success if feedback.is_best else st.warning)(" ".join([first, *rest]))
    st.caption("Every throw with its expected points (hand and crib averaged over every starter and crib):")
    st.dataframe(_advice_rows(" ".join(str(c) for c in quiz.cards), quiz.my_crib), hide_index=True)


# ---------------------------------------------------------------- explainer


def _explainer() -> None:
    st.caption("Type four cards and the starter; see the count step by step, the way a teacher says it.")
    hand = st.text_input("Four cards", value="5H 5C 5S JD", key="explain_hand", max_chars=TYPED_CHARS)
    starter = st.text_input("Starter", value="5D", key="explain_starter", max_chars=TYPED_CHARS)
    crib = st.toggle("It is the crib", key="explain_crib")
    try:
        explanation = explain_hand(parse_cards(hand, at_most=4, what="A hand"), starter, crib=crib)
    except ValueError as error:
        st.error(f"{error} Fix the cards above.")
        return
    show_cards(explanation.score.hand, explanation.score.starter)
    st.metric("Total", explanation.total)
    st.table([{"Say": s.said, "Why": s.why, "Total": s.total} for s in explanation.steps] or [{"Say": "nineteen"}])
    for note in explanation.notes:
        st.info(note)


# ---------------------------------------------------------------- rules

RULES = """
**The deal.** Two players get six cards each and throw two to the crib; three or four players get five and
throw one (with three, one card from the deck goes to the crib too). The crib belongs to the dealer.
Four players play as two partnerships, partners sitting opposite.

**The starter.** The player right of the dealer cuts; the dealer turns the top card. A jack is **his heels**:
2 for the dealer at once.

**The play.** From the dealer's left, players lay cards in turn, calling the running total, never past 31.
Peg as you go: **fifteen** 2, **thirty-one** 2, **pair** 2, **pair royal** (three of a kind) 6, **double pair
royal** 12, **run** of three or more (in any order) 1 a card. Who cannot play says **go**; the last to lay a card
pegs 1 (**go**) or 2 for exactly 31, and the count starts again. The **last card** of the play pegs 1.

**The show.** Hands are counted from the dealer's left, the dealer last, then the crib, each with the starter:
every combination adding to **15**: 2 · each **pair**: 2 · each **run** of 3+: 1 a card (a double run of three
is 8, a double double run 16) · **flush**: 4 for four hand cards of one suit, 5 with the starter too (a crib
flush needs all five) · **his nobs**: 1 for the jack of the starter's suit. The best hand is 29;
no hand makes 19, 25, 26 or 27 (so "nineteen" means nothing).

**Winning.** First to 121 (or 61) wins at once, even mid-play. A loser short of 91 is **skunked** (two games),
short of 61 **double skunked** (four). In a 61 game, a loser short of 31 is **lurched**. With **muggins**, points a
player misses in the show are claimed by the opponent.
"""


def _rules() -> None:
    st.markdown(RULES)

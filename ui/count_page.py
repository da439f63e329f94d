"""Count a hand: photo (or typed cards) -> editable chips -> starter -> the itemised, spoken count.

With "Count it yourself first" on, the total waits until the player gives theirs, then shows what they missed,
item by item, as the Learn page's quiz does.
"""

from __future__ import annotations

import functools
from collections import Counter

import streamlit as st

from scorer.cards import Card, parse_cards
from scorer.hand import HandScore, score_hand
from scorer.learn import CountQuiz
from ui import photos
from ui.chips import card_chips, chip_cards, fix_buttons, replace_card, set_cards
from ui.common import card_label, cards_html, show_cards
from ui.learn_page import answer_inputs, clear_answer, show_feedback
from ui.sample import sample_photo
from vision.layout import HAND_SIZE
from vision.reading import NO_STARTER

KEY = "count"
CARDS = "count_cards"
SELF = "count_self"  # the player's own count, when they count it first
TYPED_CHARS = 80  # room for five cards however they are spaced


def _set_cards(cards: list[Card], starter: Card | None, from_photo: bool = False) -> None:
    set_cards(CARDS, cards)
    st.session_state["count_starter"] = None if starter is None else str(starter)
    st.session_state["count_from_photo"] = from_photo


def _follow_starter(old: Card | None, new: Card | None) -> None:
    """A fixed starter chip stays the starter; a removed one leaves none chosen."""
    if old is not None and st.session_state.get("count_starter") == str(old):
        st.session_state["count_starter"] = None if new is None else str(new)


def _typed() -> None:
    text = st.session_state.get("count_typed", "").strip()
    st.session_state.pop("count_typed_error", None)
    if not text:
        return
    try:
        cards = parse_cards(text, at_most=5, what="A typed hand with its starter")
    except ValueError as error:  # no count of the cards before stays on screen; the text stays to be fixed
        st.session_state["count_typed_error"] = str(error)
        _set_cards([], None)
        return
    _set_cards(cards, cards[-1] if len(cards) == 5 else None)


def _pick_starter(key: str) -> None:
    index = st.session_state.get(key)
    cards = chip_cards(CARDS)
    if key != _starter_key(cards):  # pills drawn for cards since replaced (a new photo): not for these cards
        return
    st.session_state["count_starter"] = None if index is None else str(cards[index])


def _checked(hand_id: str) -> None:
    st.session_state[f"{SELF}_checked"] = hand_id


def _forget_check() -> None:
    st.session_state.pop(f"{SELF}_checked", None)
    st.session_state.pop(f"{SELF}_hand", None)


@functools.cache
def _sample_bytes() -> bytes:
    return sample_photo()


def render() -> None:
    st.header("Count a hand")
    st.caption("Photograph four cards and the starter, set a little apart; or type them.")
    yourself = st.toggle(
        "Count it yourself first", key="count_yourself", help="The total waits for your count.", on_change=_forget_check
    )
    if not photos.models_present():
        st.info(photos.NOT_TRAINED)
    photo = _photo()
    if photo is not None:
        result = photos.cached_read(KEY, photo)
        if st.session_state.get("count_photo_id") != photo[0]:
            st.session_state["count_photo_id"] = photo[0]
            if result.error is None:
                _set_cards(result.cards, result.starter, from_photo=True)
        _show_reading(result)

    st.text_input(
        "Or type the cards, starter last",
        key="count_typed",
        placeholder="5H 5C 5S JD 5D",
        max_chars=TYPED_CHARS,
        on_change=_typed,
    )
    if st.session_state.get("count_typed_error"):
        st.error(st.session_state["count_typed_error"])

    cards = card_chips(CARDS, on_edit=_follow_starter, title="**Cards** (tap one to fix it)")
    if not cards:
        return
    starter_index = _starter(cards)
    crib = st.segmented_control("Counting", ["Hand", "Crib"], default="Hand", key="count_kind") == "Crib"
    _count(cards, starter_index, crib, yourself)


def _photo() -> tuple[str, bytes] | None:
    """The photo to read: the one given, else the sample once asked for. A real photo puts the sample away (only
    its button brings it back), and removing the photo forgets the cards it read."""
    photo = photos.photo_inputs(KEY)
    if photo is not None:
        st.session_state.pop("count_use_sample", None)
        return photo
    if st.session_state.get("count_photo_id") not in (None, "sample"):
        st.session_state.pop("count_photo_id")
        if st.session_state.get("count_from_photo"):
            _set_cards([], None)
    if not photos.models_present():
        return None
    if st.button("No cards to hand? Try a sample photo", key="count_sample"):
        st.session_state["count_use_sample"] = True
    return ("sample", _sample_bytes()) if st.session_state.get("count_use_sample") else None


def _show_reading(result: photos.PhotoResult) -> None:
    if result.error is not None:
        st.error(result.error)
        return
    if result.annotated_jpeg:
        st.image(result.annotated_jpeg, caption=seen_caption(result), width="stretch")
    for warning in result.warnings:
        if warning != NO_STARTER or st.session_state.get("count_starter") is None:
            st.warning(warning)
    fix = functools.partial(replace_card, CARDS, on_edit=_follow_starter)
    fix_buttons(result.checks, chip_cards(CARDS), "count", fix, need=HAND_SIZE + 1)


def seen_caption(result: photos.PhotoResult) -> str:
    """The drawn photo's caption, with the reading's time when it found cards (in the caption, not an element of its
    own: each element costs a phone CPU, ``bench/bench_load.py``).

    >>> seen_caption(photos.PhotoResult(cards=[Card.parse("5H")], seconds=0.5, timings_ms={"load": 100.0}))
    'What the camera saw; read in 0.50 s (load 0.10 s)'
    """
    if not result.cards:
        return "What the camera saw"
    parts = ", ".join(f"{k} {v / 1000:.2f}" for k, v in result.timings_ms.items() if k != "total")
    return f"What the camera saw; read in {result.seconds:.2f} s ({parts} s)"


def _starter_key(cards: list[Card]) -> str:
    """The starter pills' key: new for every set of cards, so a tap is never read against other cards."""
    return "starter_" + "_".join(str(c) for c in cards)


def _starter(cards: list[Card]) -> int | None:
    chosen = st.session_state.get("count_starter")
    default = next((i for i, c in enumerate(cards) if str(c) == chosen), None)
    key = _starter_key(cards)
    return st.pills(
        "Starter (tap the cut card)",
        list(range(len(cards))),
        format_func=lambda i: card_label(cards[i]),
        default=default,
        key=key,
        on_change=_pick_starter,
        args=(key,),
    )


def _count(cards: list[Card], starter_index: int | None, crib: bool, yourself: bool) -> None:
    twice = [c for c, n in Counter(cards).items() if n > 1]
    if twice:
        st.error(f"{twice[0]} appears twice; a deck has one of each card. Tap one of them to fix it or remove it.")
        return
    if len(cards) < 5:
        missing = 5 - len(cards)
        st.info(f"Add {missing} more card{'s' if missing > 1 else ''}: a count needs four cards and the starter.")
        return
    if len(cards) > 5:
        st.warning(
            f"{len(cards)} cards: remove {len(cards) - 5} (tap a card, then Remove) to leave four and the starter."
        )
        return
    if starter_index is None:
        st.info("Tap the starter (the cut card) above.")
        return
    starter = cards[starter_index]
    score = score_hand([c for i, c in enumerate(cards) if i != starter_index], starter, crib=crib)
    if yourself:
        _count_yourself(score)
    else:
        show_result(score)


def _count_yourself(score: HandScore) -> None:
    """The player's count first; the total, and what they missed, once they check it."""
    assert score.starter is not None
    hand_id = " ".join(str(c) for c in (*score.hand, score.starter)) + (" crib" if score.crib else "")
    if st.session_state.get(f"{SELF}_hand") != hand_id:  # a new hand: the last answer goes
        st.session_state[f"{SELF}_hand"] = hand_id
        clear_answer(SELF)
    show_cards(score.hand, score.starter)
    answer_inputs(SELF)
    st.button("Check my count", key=f"{SELF}_check", type="primary", on_click=_checked, args=(hand_id,))
    if st.session_state.get(f"{SELF}_checked") != hand_id:
        return
    if show_feedback(CountQuiz.of(score.hand, score.starter, crib=score.crib), SELF):
        show_result(score, cards=False)


def show_result(score: HandScore, cards: bool = True) -> None:
    """The count: the cards (unless ``cards`` is False), total in big type, the spoken count, the breakdown.

    One markdown element, not four: each element a phone draws costs it about 0.03 CPU-seconds
    (``bench/bench_load.py``: phone CPU per photo 0.56 -> 0.48 s)."""
    st.markdown(result_markdown(score, cards), unsafe_allow_html=True)


def result_markdown(score: HandScore, cards: bool = True) -> str:
    """The count as one markdown text: HTML blocks for the cards and total, then the spoken count and the table.

    >>> print(result_markdown(score_hand(["4H", "5C", "6S", "JD"], "KC"), cards=False).splitlines()[2])
    *Fifteen two, fifteen four, fifteen six, and a run of three is nine.*
    """
    assert score.starter is not None
    parts = [cards_html(score.hand, score.starter)] if cards else []
    parts += [total_html(score), "", f"*{score.spoken()}*"]  # a blank line ends the HTML block
    if score.items:
        parts += ["", breakdown_markdown(score)]
    return "\n".join(parts)


def total_html(score: HandScore) -> str:
    """The total in big type under its label: HTML in ``st.markdown``, not ``st.metric``, whose number formatting
    code each phone would fetch and compile to show one number (``bench/bench_phone_cpu.py``).

    >>> total_html(score_hand(["5H", "5C", "5S", "JD"], "5D"))
    '<div class="cc-total-label">Total</div><div class="cc-count cc-total">29</div>'
    """
    label = "Crib total" if score.crib else "Total"
    return f'<div class="cc-total-label">{label}</div><div class="cc-count cc-total">{score.total}</div>'


def breakdown_markdown(score: HandScore) -> str:
    """The breakdown as a markdown table (not ``st.table``, whose Arrow code is about 1 MB of JavaScript that
    each phone would fetch and compile to show one small table).

    >>> print(breakdown_markdown(score_hand(["4H", "5C", "6S", "JD"], "KC")).splitlines()[2])
    | fifteen | 5♣ J♦ | 2 |
    """
    lines = ["| Score | Cards | Points |", "| :-- | :-- | --: |"]
    for item in score.items:
        cards = " ".join(c.pretty() for c in item.cards)
        lines.append(f"| {item.describe().split(':')[0]} | {cards} | {item.points} |")
    return "\n".join(lines)

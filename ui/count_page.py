"""Count a hand: photo (or typed cards) -> editable chips -> starter -> the itemised, spoken count."""

from __future__ import annotations

import functools
from collections import Counter

import streamlit as st

from scorer.cards import RANK_NAMES, SUIT_SYMBOLS, SUITS, Card, parse_cards
from scorer.hand import HandScore, score_hand
from ui import photos
from ui.common import button_row, card_label, card_picker, show_cards
from ui.sample import sample_photo

KEY = "count"
TYPED_CHARS = 80  # room for five cards however they are spaced


def _cards() -> list[Card]:
    return [Card.parse(c) for c in st.session_state.get("count_cards", [])]


def _set_cards(cards: list[Card], starter: Card | None) -> None:
    st.session_state["count_cards"] = [str(c) for c in cards]
    st.session_state["count_starter"] = None if starter is None else str(starter)


def _replace(index: int, key: str) -> None:
    rank, suit = st.session_state.get(f"{key}_rank"), st.session_state.get(f"{key}_suit")
    if rank is None or suit is None:
        return
    cards = _cards()
    old = cards[index]
    cards[index] = Card.parse(f"{rank}{suit}")
    starter = st.session_state.get("count_starter")
    _set_cards(cards, cards[index] if starter == str(old) else (None if starter is None else Card.parse(starter)))


def _remove(index: int) -> None:
    cards = _cards()
    removed = cards.pop(index)
    starter = st.session_state.get("count_starter")
    _set_cards(cards, None if starter in (None, str(removed)) else Card.parse(starter))


def _add(key: str) -> None:
    rank, suit = st.session_state.get(f"{key}_rank"), st.session_state.get(f"{key}_suit")
    if rank is None or suit is None:
        return
    st.session_state["count_cards"] = [*st.session_state.get("count_cards", []), f"{rank}{suit}"]
    st.session_state.pop(f"{key}_rank", None)
    st.session_state.pop(f"{key}_suit", None)


def _typed() -> None:
    text = st.session_state.get("count_typed", "").strip()
    st.session_state.pop("count_typed_error", None)
    if not text:
        return
    try:
        cards = parse_cards(text, at_most=5, what="A typed hand with its starter")
    except ValueError as error:
        st.session_state["count_typed_error"] = str(error)
        return
    _set_cards(cards, cards[-1] if len(cards) == 5 else None)


def _pick_starter(key: str) -> None:
    index = st.session_state.get(key)
    cards = _cards()
    st.session_state["count_starter"] = None if index is None else str(cards[index])


@functools.cache
def _sample_bytes() -> bytes:
    return sample_photo()


def render() -> None:
    st.header("Count a hand")
    st.caption("Photograph four cards and the starter, set a little apart; or type them.")
    if not photos.models_present():
        st.info(photos.NOT_TRAINED)
    photo = photos.photo_inputs(KEY)
    if photo is None and photos.models_present():
        if st.button("No cards to hand? Try a sample photo", key="count_sample"):
            st.session_state["count_use_sample"] = True
        if st.session_state.get("count_use_sample"):
            photo = ("sample", _sample_bytes())
    if photo is not None:
        result = photos.cached_read(KEY, photo)
        if st.session_state.get("count_photo_id") != photo[0]:
            st.session_state["count_photo_id"] = photo[0]
            if result.error is None:
                _set_cards(result.cards, result.starter)
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

    cards = _cards()
    _chips(cards)
    if not cards:
        return
    starter_index = _starter(cards)
    crib = st.segmented_control("Counting", ["Hand", "Crib"], default="Hand", key="count_kind") == "Crib"
    _count(cards, starter_index, crib)


def _show_reading(result: photos.PhotoResult) -> None:
    if result.error is not None:
        st.error(result.error)
        return
    if result.annotated_jpeg:
        st.image(result.annotated_jpeg, caption="What the camera saw", width="stretch")
    for warning in result.warnings:
        st.warning(warning)
    if result.cards:
        parts = ", ".join(f"{k} {v / 1000:.2f}" for k, v in result.timings_ms.items() if k != "total")
        st.caption(f"Read in {result.seconds:.2f} s ({parts} s)")


def _chips(cards: list[Card]) -> None:
    """One tappable chip per card: change its rank or suit, or remove it; and one to add a card."""
    if cards:
        st.markdown("**Cards** (tap one to fix it)")
    with button_row("count_chips"):
        for i, card in enumerate(cards):
            key = f"chip_{i}_{card}"
            with st.popover(card_label(card), key=f"{key}_pop"):
                st.pills(
                    "Rank", RANK_NAMES, key=f"{key}_rank", default=card.rank_name, on_change=_replace, args=(i, key)
                )
                st.pills(
                    "Suit",
                    SUITS,
                    key=f"{key}_suit",
                    default=card.suit,
                    format_func=SUIT_SYMBOLS.get,
                    on_change=_replace,
                    args=(i, key),
                )
                st.button("Remove this card", key=f"{key}_remove", on_click=_remove, args=(i,))
        with st.popover("＋ Add a card", key="count_add_pop"):
            card_picker("count_add")
            st.button("Add", key="count_add_button", on_click=_add, args=("count_add",), type="primary")


def _starter(cards: list[Card]) -> int | None:
    chosen = st.session_state.get("count_starter")
    default = next((i for i, c in enumerate(cards) if str(c) == chosen), None)
    key = "starter_" + "_".join(str(c) for c in cards)
    return st.pills(
        "Starter (tap the cut card)",
        list(range(len(cards))),
        format_func=lambda i: card_label(cards[i]),
        default=default,
        key=key,
        on_change=_pick_starter,
        args=(key,),
    )


def _count(cards: list[Card], starter_index: int | None, crib: bool) -> None:
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
    hand = [c for i, c in enumerate(cards) if i != starter_index]
    show_result(score_hand(hand, starter, crib=crib))


def show_result(score: HandScore) -> None:
    """The count: total in big type, the spoken count, and the breakdown table."""
    assert score.starter is not None
    show_cards(score.hand, score.starter)
    st.metric("Total" if not score.crib else "Crib total", score.total)
    st.markdown(f"*{score.spoken()}*")
    if score.items:
        rows = [
            {
                "Score": item.describe().split(":")[0],
                "Cards": " ".join(c.pretty() for c in item.cards),
                "Points": item.points,
            }
            for item in score.items
        ]
        st.table(rows)

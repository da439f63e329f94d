"""Editable card chips: one popup per card to fix its rank or suit or remove it, and one to add a card.

The cards live in session state under their key as card codes (``["5H", "JD"]``): a page puts cards there with
``set_cards`` (read from a photo, typed) and draws them with ``card_chips``. A chip is keyed by its place and a
generation bumped whenever cards are set or removed, never by its card, so fixing the rank keeps the same popup
open on the phone to fix the suit too.

>>> chip_key("count_cards", 3, state={"count_cards_gen": 2})
'count_cards_2_3'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import streamlit as st

from scorer.cards import RANK_NAMES, SUITS, Card
from ui.common import button_row, card_label, card_picker, clear_picker, picked_card, suit_label

if TYPE_CHECKING:
    from ui.photos import CardCheck

OnEdit = Callable[[Card | None, Card | None], None]
"""Told of each change made by a chip: ``(old, new)`` fixed, ``(old, None)`` removed, ``(None, new)`` added."""


def chip_cards(key: str) -> list[Card]:
    """The cards under ``key``."""
    return [Card.parse(code) for code in st.session_state.get(key) or []]


def set_cards(key: str, cards: Iterable[Card]) -> None:
    """Put ``cards`` under ``key`` afresh: every chip gets new widgets showing its card."""
    st.session_state[key] = [str(card) for card in cards]
    _next_generation(key)


def chip_key(key: str, index: int, state: Mapping | None = None) -> str:
    """The widget key prefix of chip ``index`` (``_pop``, ``_rank``, ``_suit``, ``_remove``) as drawn now."""
    state = st.session_state if state is None else state  # or an AppTest's session_state, in tests
    return f"{key}_{state.get(f'{key}_gen', 0)}_{index}"


def card_chips(key: str, on_edit: OnEdit | None = None, title: str | None = None) -> list[Card]:
    """A chip per card under ``key`` (tap to fix its rank or suit, or remove it) and "+ Add a card"; the cards."""
    cards = chip_cards(key)
    if cards and title:
        st.markdown(title)
    with button_row(f"{key}_chips"):
        for index, card in enumerate(cards):
            _chip(key, index, card, on_edit)
        with st.popover("＋ Add a card", key=f"{key}_add_pop"):
            card_picker(f"{key}_add")
            st.button("Add", key=f"{key}_add_button", on_click=_add, args=(key, on_edit), type="primary")
            if st.session_state.get(f"{key}_add_error"):
                st.warning(st.session_state[f"{key}_add_error"])
    return cards


def _chip(key: str, index: int, card: Card, on_edit: OnEdit | None) -> None:
    chip = chip_key(key, index)
    st.session_state.setdefault(f"{chip}_rank", card.rank_name)  # the pills start on the card, no default needed
    st.session_state.setdefault(f"{chip}_suit", card.suit)
    with st.popover(card_label(card), key=f"{chip}_pop"):
        st.pills("Rank", RANK_NAMES, key=f"{chip}_rank", on_change=_fix, args=(key, index, on_edit))
        st.pills("Suit", SUITS, key=f"{chip}_suit", format_func=suit_label, on_change=_fix, args=(key, index, on_edit))
        st.button("Remove this card", key=f"{chip}_remove", on_click=_remove, args=(key, index, on_edit))


def _fix(key: str, index: int, on_edit: OnEdit | None) -> None:
    chip = chip_key(key, index)
    codes = list(st.session_state.get(key) or [])
    old = Card.parse(codes[index])
    rank, suit = st.session_state.get(f"{chip}_rank"), st.session_state.get(f"{chip}_suit")
    if rank is None or suit is None:  # the lit pill tapped again: keep the card and light it again
        st.session_state[f"{chip}_rank"], st.session_state[f"{chip}_suit"] = old.rank_name, old.suit
        return
    new = Card.parse(f"{rank}{suit}")
    codes[index] = str(new)
    st.session_state[key] = codes
    if on_edit is not None:
        on_edit(old, new)


def _remove(key: str, index: int, on_edit: OnEdit | None) -> None:
    codes = list(st.session_state.get(key) or [])
    old = Card.parse(codes.pop(index))
    st.session_state[key] = codes
    _next_generation(key)
    if on_edit is not None:
        on_edit(old, None)


def _add(key: str, on_edit: OnEdit | None) -> None:
    try:
        card = picked_card(f"{key}_add")
    except ValueError as error:
        st.session_state[f"{key}_add_error"] = str(error)
        return
    st.session_state.pop(f"{key}_add_error", None)
    st.session_state[key] = [*(st.session_state.get(key) or []), str(card)]
    clear_picker(f"{key}_add")
    if on_edit is not None:
        on_edit(None, card)


def replace_card(key: str, old: Card | None, new: Card | None, on_edit: OnEdit | None = None) -> None:
    """Put ``new`` where ``old`` is under ``key`` (``new`` None: remove ``old``; ``old`` None: add ``new`` at the
    end); nothing when ``old`` is not there or ``new`` is there already."""
    codes = list(st.session_state.get(key) or [])
    if old is None:
        if new is not None and str(new) not in codes:
            st.session_state[key] = [*codes, str(new)]
            _next_generation(key)
            if on_edit is not None:
                on_edit(None, new)
        return
    if str(old) not in codes or (new is not None and str(new) in codes):
        return
    index = codes.index(str(old))
    if new is None:
        codes.pop(index)
    else:
        codes[index] = str(new)
    st.session_state[key] = codes
    _next_generation(key)  # the chips are drawn afresh, their pills showing the new cards
    if on_edit is not None:
        on_edit(old, new)


def fix_buttons(
    checks: Iterable[CardCheck],
    cards: list[Card],
    key: str,
    fix: Callable[[Card | None, Card | None], None],
    need: int,
    known: Iterable[Card] = (),
) -> None:
    """One-tap fixes under a photo's reading, for the ``cards`` it left (``need`` of them make a count):
    - a card to check that is still among them: **Change 4S to 4D**, the card it most likely is; or, when that card is
      among them or ``known`` (a starter shown apart) and there are more cards than ``need``, **Remove 4S** (it is
      then likely a second corner of that card);
    - a place left out (``card`` None) while there are fewer cards than ``need``: **Add 7D**.
    Each card is offered once, first come first served. ``fix(old, new)`` makes the change (``old`` None: add; ``new``
    None: remove); ``key`` prefixes the buttons' keys."""
    present = {*cards, *known}
    offered: set[Card] = set()
    for check in checks:
        if check.other in offered:
            continue
        if check.card is None:
            if len(cards) >= need or check.other in present:
                continue
            label, old, new = f"Add {check.other}", None, check.other
        elif check.card not in cards:
            continue
        elif check.other in present:
            if len(cards) <= need:
                continue
            label, old, new = f"Remove {check.card}", check.card, None
        else:
            label, old, new = f"Change {check.card} to {check.other}", check.card, check.other
        offered.add(check.other)
        st.button(label, key=f"{key}_fix_{old or 'add'}_{check.other}", on_click=fix, args=(old, new))


def replace_in_any(keys: Iterable[str], old: Card | None, new: Card | None) -> None:
    """``replace_card`` under the first of ``keys`` that holds ``old`` (the whole show's groups; no add: ``old`` None
    does nothing, as a place left out belongs to no known group)."""
    if old is None:
        return
    for key in keys:
        if old in chip_cards(key):
            replace_card(key, old, new)
            return


def _next_generation(key: str) -> None:
    st.session_state[f"{key}_gen"] = st.session_state.get(f"{key}_gen", 0) + 1

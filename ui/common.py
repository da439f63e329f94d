"""Pieces every page uses: phone-first styling, card chips and the card picker.

>>> card_label(Card.parse("10H"))
'10♥'
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from scorer.cards import RANK_NAMES, SUIT_SYMBOLS, SUITS, Card

RED = {"H", "D"}

PHONE_CSS = """
<style>
/* Phones first: big touch targets, no horizontal scrolling, little padding. */
.block-container {padding: 3.2rem 0.75rem 4rem 0.75rem; max-width: 760px;}
html, body, [data-testid="stAppViewContainer"] {overflow-x: hidden;}
button[kind], [data-testid="stBaseButton-secondary"], [data-testid="stBaseButton-primary"] {
  min-height: 3rem; min-width: 3rem;
}
[data-testid="stButtonGroup"] button {min-height: 2.75rem; min-width: 2.75rem;}
[data-testid="stPopover"] button {min-height: 3rem; min-width: 3.2rem; font-size: 1.15rem;}
[data-testid="stImage"] img {max-width: 100%; height: auto;}
.cc-board svg {width: 100%; height: auto;}
.cc-count {font-size: 2.6rem; font-weight: 700; line-height: 1.1; margin: 0.2rem 0;}
.cc-cards {font-size: 1.6rem; letter-spacing: 0.05em; word-wrap: break-word;}
.cc-red {color: #c62828;}
.cc-starter {font-size: 0.9rem; color: #666; margin-left: 0.6rem; letter-spacing: 0;}
.cc-corner {float: right; border: 2px solid #888; border-radius: 8px; padding: 0.2rem 0.5rem;
  font-size: 1.3rem; margin-left: 0.5rem; background: #fff;}
</style>
"""


def style() -> None:
    """Inject the phone-first CSS once per run."""
    st.markdown(PHONE_CSS, unsafe_allow_html=True)


def card_label(card: Card) -> str:
    """The card as it looks on a chip: ``10♥``."""
    return card.pretty()


def _card_html(card: Card) -> str:
    return f'<span class="cc-red">{card.pretty()}</span>' if card.suit in RED else card.pretty()


def cards_html(cards: Sequence[Card], starter: Card | None = None) -> str:
    """Cards as large text with red hearts and diamonds, the starter set apart
    (for ``st.markdown(..., unsafe_allow_html=True)``)."""
    text = " ".join(_card_html(c) for c in cards)
    if starter is not None:
        text += f' <span class="cc-starter">starter</span> {_card_html(starter)}'
    return f'<div class="cc-cards">{text}</div>'


def show_cards(cards: Sequence[Card], starter: Card | None = None) -> None:
    st.markdown(cards_html(cards, starter), unsafe_allow_html=True)


def card_picker(key: str, default: Card | None = None) -> Card | None:
    """Rank and suit as two rows of tappable pills; returns the card once both are chosen."""
    rank = st.pills(
        "Rank",
        RANK_NAMES,
        key=f"{key}_rank",
        default=None if default is None else default.rank_name,
    )
    suit = st.pills(
        "Suit",
        SUITS,
        key=f"{key}_suit",
        format_func=lambda s: SUIT_SYMBOLS[s],
        default=None if default is None else default.suit,
    )
    if rank is None or suit is None:
        return None
    return Card(RANK_NAMES.index(rank) + 1, suit)


def button_row(key: str) -> st.delta_generator.DeltaGenerator:
    """A horizontal container: buttons stay on one line on a phone and wrap only when they must."""
    return st.container(horizontal=True, key=key, gap="small")

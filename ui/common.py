"""Pieces every page uses: phone-first styling, card chips and the card picker.

Hearts and diamonds are red wherever a card is shown, chips and pickers included (Streamlit's
``:red[...]`` markdown in widget labels). A picker is cleared by giving its pills new keys, so the phone
shows it empty again (deleting a widget's state alone leaves the old pills lit in the browser).

>>> card_label(Card.parse("10H"))
':red[10♥]'
>>> card_label(Card.parse("QS"))
'Q♠'
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
.cc-board svg {width: 100%; max-width: 26rem; height: auto; display: block; margin: 0 auto;}
.cc-count {font-size: 2.6rem; font-weight: 700; line-height: 1.1; margin: 0.2rem 0;}
.cc-total-label {font-size: 0.875rem;}
[data-testid="stMarkdownContainer"] table {width: 100%;}
.cc-cards {font-size: 1.6rem; letter-spacing: 0.05em; word-wrap: break-word;}
.cc-red {color: #c62828;}
.cc-starter {font-size: 0.9rem; color: #666; margin-left: 0.6rem; letter-spacing: 0;}
.cc-corner {float: right; border: 2px solid #888; border-radius: 8px; padding: 0.2rem 0.5rem;
  font-size: 1.3rem; margin-left: 0.5rem; background: #fff;}
/* Thumb-sized number steppers and toggles: 44 px at least, like every other touch target. */
[data-testid="stNumberInputContainer"] {height: auto;}
[data-testid="stNumberInputStepDown"], [data-testid="stNumberInputStepUp"] {min-width: 2.75rem; min-height: 2.75rem;}
[data-testid="stCheckbox"] label {min-height: 2.75rem; align-items: center;}
/* No animated "Running..." man: each phone repainted it 5 times a second while waiting for its reading
   (bench/bench_phone_cpu.py); a photo being read has its own still note (ui.photos.cached_read). */
[data-testid="stStatusWidget"] {display: none;}
</style>
"""


def style() -> None:
    """Inject the phone-first CSS once per run."""
    st.markdown(PHONE_CSS, unsafe_allow_html=True)


def card_label(card: Card) -> str:
    """The card as a widget label (markdown): ``:red[10♥]``, ``Q♠``."""
    return f":red[{card.pretty()}]" if card.suit in RED else card.pretty()


def suit_label(suit: str) -> str:
    """A suit as a widget label (markdown): red hearts and diamonds."""
    return f":red[{SUIT_SYMBOLS[suit]}]" if suit in RED else SUIT_SYMBOLS[suit]


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


def picker_keys(key: str, state=None) -> tuple[str, str]:
    """The session keys of picker ``key``'s rank and suit pills now (they change each time it is cleared)."""
    state = st.session_state if state is None else state  # or an AppTest's session_state, in tests
    round_ = state.get(f"{key}_round", 0)
    suffix = "" if not round_ else f"_{round_}"
    return f"{key}_rank{suffix}", f"{key}_suit{suffix}"


def card_picker(key: str, default: Card | None = None) -> Card | None:
    """Rank and suit as two rows of tappable pills; returns the card once both are chosen."""
    rank_key, suit_key = picker_keys(key)
    rank = st.pills("Rank", RANK_NAMES, key=rank_key, default=None if default is None else default.rank_name)
    suit = st.pills(
        "Suit", SUITS, key=suit_key, format_func=suit_label, default=None if default is None else default.suit
    )
    if rank is None or suit is None:
        return None
    return Card(RANK_NAMES.index(rank) + 1, suit)


def picked_card(key: str) -> Card:
    """The card picker ``key`` shows; ``ValueError`` (one sentence) until a rank and a suit are tapped."""
    rank_key, suit_key = picker_keys(key)
    rank, suit = st.session_state.get(rank_key), st.session_state.get(suit_key)
    if rank is None or suit is None:
        raise ValueError("Tap a rank and a suit to choose the card first.")
    return Card.parse(f"{rank}{suit}")


def clear_picker(key: str) -> None:
    """Empty picker ``key``: its pills get new keys, so the browser draws them unselected."""
    for old in picker_keys(key):
        st.session_state.pop(old, None)
    st.session_state[f"{key}_round"] = st.session_state.get(f"{key}_round", 0) + 1


def button_row(key: str) -> st.delta_generator.DeltaGenerator:
    """A horizontal container: buttons stay on one line on a phone and wrap only when they must."""
    return st.container(horizontal=True, key=key, gap="small")

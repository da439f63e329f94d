"""The app's frame: page config, phone styling, the page switcher kept in the URL (``?page=``)."""

from __future__ import annotations

import streamlit as st

from ui import count_page, game_page, learn_page
from ui.common import style

PAGES = {"count": "Count", "game": "Game", "learn": "Learn"}


def _page_changed() -> None:
    if st.session_state.get("nav"):
        st.query_params["page"] = st.session_state["nav"]


def main() -> None:
    st.set_page_config(page_title="cribcam", page_icon="🃏", layout="centered", initial_sidebar_state="collapsed")
    style()
    wanted = st.query_params.get("page") or ("game" if "game" in st.query_params else "count")
    if wanted not in PAGES:
        wanted = "count"
    if st.session_state.get("nav") != wanted:
        st.session_state["nav"] = wanted
    st.segmented_control(
        "Page",
        list(PAGES),
        format_func=PAGES.get,
        key="nav",
        label_visibility="collapsed",
        on_change=_page_changed,
        width="stretch",
    )
    page = st.session_state.get("nav") or wanted
    try:
        {"count": count_page.render, "game": game_page.render, "learn": learn_page.render}[page]()
    except Exception as error:  # the last line of defence: a sentence, never a traceback on a phone
        st.error(
            f"Something went wrong on this page ({type(error).__name__}: {error}). "
            "Reload the page; a saved game is kept."
        )

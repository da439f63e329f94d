"""Track a game: set it up, then each deal's starter, the play and the show, with the board after each entry.

The game itself lives in SQLite (``ui.store``); the URL carries its id (``?game=...``), so a reload, a phone
that slept or a second phone at the table all see the same game. Every entry is a ``Game`` method run in a
button callback: load, apply, save.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from scorer.board_svg import board_svg
from scorer.cards import Card, parse_cards
from scorer.game import CRIB, Game
from ui import photos
from ui.common import button_row, card_picker
from ui.store import GameStore, StoredGame, StoreError

FLASH = "game_flash"
ERROR = "game_error"
QUICK = "Quick points"
CARDS = "Card by card"


# ---------------------------------------------------------------- entries


def _entry(game_id: str, action: Callable[[Game], object], done: str = "") -> None:
    """Load the game, make one entry, save it; say what it scored (or what ``action`` returned as text),
    or why it was refused."""
    st.session_state.pop(ERROR, None)
    st.session_state.pop(FLASH, None)
    try:
        store = GameStore()
        stored = store.load(game_id)
        if stored is None:
            st.session_state[ERROR] = f"Game {game_id} is not in the database any more; start a new game."
            return
        before = len(stored.game.events)
        said = action(stored.game)
        store.save(stored)
    except (ValueError, StoreError) as error:  # an entry the rules refuse, or a database problem
        st.session_state[ERROR] = str(error)
        return
    scored = [f"{e.player}: {e.reason}" for e in stored.game.events[before:]]
    st.session_state[FLASH] = "; ".join(scored) or (said if isinstance(said, str) else done)


def _card_from(key: str) -> Card:
    rank, suit = st.session_state.get(f"{key}_rank"), st.session_state.get(f"{key}_suit")
    if rank is None or suit is None:
        raise ValueError("Tap a rank and a suit to choose the card first.")
    return Card.parse(f"{rank}{suit}")


def _clear_picker(key: str) -> None:
    st.session_state.pop(f"{key}_rank", None)
    st.session_state.pop(f"{key}_suit", None)


# ---------------------------------------------------------------- the page


def render() -> None:
    try:
        store = GameStore()
    except StoreError as error:
        st.header("Track a game")
        st.error(str(error))
        st.caption("Counting a hand and the quizzes work without the database.")
        return
    game_id = st.query_params.get("game")
    if not game_id:
        st.header("Track a game")
        _new_game_form(store)
        _recent(store)
        return
    try:
        stored = store.load(game_id)
    except StoreError as error:
        st.error(str(error))
        st.button("Start a new game", on_click=_leave_game, key="game_leave_broken")
        return
    if stored is None:
        st.warning(f"There is no game {game_id} in this database; check the link or start a new game.")
        st.button("Start a new game", on_click=_leave_game, key="game_leave_missing")
        return
    _game_view(stored)


def _forget_messages() -> None:
    st.session_state.pop(FLASH, None)
    st.session_state.pop(ERROR, None)


def _leave_game() -> None:
    _forget_messages()
    st.query_params.pop("game", None)
    st.query_params["page"] = "game"


# ---------------------------------------------------------------- new game


def _new_game_form(store: GameStore) -> None:
    count = st.segmented_control("Players", ["2", "3", "4 (partners)"], default="2", key="new_players", width="stretch")
    n = int((count or "2")[0])
    defaults = ["Ann", "Bob", "Cat", "Dan"]
    names = [
        st.text_input(f"Player {i + 1}", value=defaults[i], key=f"new_name_{i}", max_chars=20).strip() for i in range(n)
    ]
    if n == 4:
        st.caption(f"Partners sit opposite: {names[0]} & {names[2]} against {names[1]} & {names[3]}.")
    target = st.segmented_control("Game to", ["121", "61"], default="121", key="new_target", width="stretch")
    muggins = st.toggle("Muggins (points a player misses go to the opponent)", key="new_muggins")
    first = st.segmented_control(
        "First dealer", ["Cut for deal", "Choose the dealer"], default="Cut for deal", key="new_first"
    )
    dealer = None
    if first == "Choose the dealer":
        dealer = st.pills("Who deals first?", [name for name in names if name], key="new_dealer")
    if st.button("Start the game", type="primary", key="new_start", width="stretch"):
        try:
            game = Game.new(names, target=int(target or 121), muggins=muggins, dealer=dealer)
            game_id = store.create(game, {"play_mode": QUICK})
        except (ValueError, StoreError) as error:
            st.error(str(error))
            return
        _forget_messages()
        st.query_params["game"] = game_id
        st.query_params["page"] = "game"
        st.rerun()


def _recent(store: GameStore) -> None:
    try:
        games = store.recent()
    except StoreError as error:
        st.error(str(error))
        return
    st.subheader("Open a saved game")
    with st.form("open_game", border=False):
        st.text_input("Game id (from the other phone's page)", key="open_id", max_chars=16)
        st.form_submit_button("Open", key="open_go", on_click=_open_typed)
    for summary in games:
        st.button(
            f"{summary.players} · {summary.id}",
            key=f"open_{summary.id}",
            width="stretch",
            on_click=_open,
            args=(summary.id,),
        )


def _open(game_id: str) -> None:
    _forget_messages()
    st.query_params["page"] = "game"
    st.query_params["game"] = game_id


def _open_typed() -> None:
    game_id = (st.session_state.get("open_id") or "").strip().lower()
    if game_id:
        _open(game_id)


# ---------------------------------------------------------------- a game in progress


def _game_view(stored: StoredGame) -> None:
    game = stored.game
    gid = stored.id
    rules = f"to {game.target}" + (" · muggins" if game.muggins else "")
    st.subheader(" v ".join(game.sides))
    st.caption(f"Game {gid} · {rules} · share this page's address to follow the game on another phone.")
    _board(game)
    if st.session_state.get(ERROR):
        st.error(st.session_state[ERROR])
    elif st.session_state.get(FLASH):
        st.success(st.session_state[FLASH])

    if game.is_over:
        _over(stored)
    elif game.phase == "cut":
        _cut(gid, game)
    elif game.phase == "starter":
        _starter(gid, game)
    elif game.phase == "play":
        _play(stored)
    elif game.phase == "show":
        _show(gid, game)

    with button_row("game_tools"):
        st.button("↶ Undo", key="game_undo", on_click=_entry, args=(gid, _undo), disabled=not game.actions)
        st.button("New game", key="game_new", on_click=_leave_game)
    _history(game)


def _undo(game: Game) -> str:
    undone = game.undo()
    what = {
        "cut": "the cut",
        "dealer": "the choice of dealer",
        "starter": "the starter",
        "hands": "the hands",
        "play": f"{undone.get('player')}'s {undone.get('card')}",
        "go": f"{undone.get('player')}'s go",
        "peg": f"{undone.get('player')}'s {undone.get('points')} points",
        "end_play": "the end of the play",
        "show": "the last count in the show",
    }.get(undone.get("do"), "the last entry")
    return f"Took back {what}."


def _board(game: Game) -> None:
    scores = game.scores
    with button_row("game_scores"):
        for side in game.sides:
            st.metric(side, min(scores[side], game.target))
    st.markdown(
        f'<div class="cc-board">{board_svg(game.pegs(), game.target, title="The board")}</div>',
        unsafe_allow_html=True,
    )


def _cut(gid: str, game: Game) -> None:
    st.markdown("**Cut for deal**: each player cuts; the lowest card deals (ace is low).")
    how = st.segmented_control("How", ["Enter the cuts", "Choose the dealer"], default="Enter the cuts", key="cut_how")
    if how == "Choose the dealer":
        with button_row("cut_choose"):
            for player in game.players:
                st.button(f"{player} deals", key=f"cut_dealer_{player}", on_click=_entry, args=(gid, _choose(player)))
        return
    for player in game.players:
        with st.expander(f"{player}'s cut", expanded=True):
            card_picker(f"cut_{player}")
    st.button("Cut", type="primary", key="cut_go", on_click=_entry, args=(gid, _cut_entry(game.players)))


def _choose(player: str) -> Callable[[Game], object]:
    return lambda game: game.choose_dealer(player)


def _cut_entry(players: tuple[str, ...]) -> Callable[[Game], object]:
    def apply(game: Game) -> str:
        cards = {p: _card_from(f"cut_{p}") for p in players}
        dealer = game.cut_for_deal(cards)
        for p in players:
            _clear_picker(f"cut_{p}")
        return f"{dealer} deals." if dealer else "The lowest cards tie; cut again."

    return apply


def _starter(gid: str, game: Game) -> None:
    st.markdown(f"**Deal {game.round}** · {game.dealer} deals · {game.pone} leads the play.")
    st.markdown("Turn the **starter** (a jack is his heels: 2 for the dealer).")
    photo = photos.photo_inputs(f"starter_{game.round}", "Photograph the starter")
    if photo is not None:
        result = photos.cached_read(f"starter_{game.round}", photo)
        if result.error:
            st.error(result.error)
        elif not result.cards:
            for warning in result.warnings:
                st.warning(warning)
        else:
            card = result.starter or result.cards[0]
            st.button(
                f"Use {card.pretty()} from the photo",
                key="starter_from_photo",
                type="primary",
                on_click=_entry,
                args=(gid, _turn(card)),
            )
    card_picker("starter")
    with button_row("starter_buttons"):
        st.button("Turn the starter", key="starter_go", type="primary", on_click=_entry, args=(gid, _turn_picked))
        st.button("Not recorded", key="starter_none", on_click=_entry, args=(gid, _turn(None)))


def _turn(card: Card | None) -> Callable[[Game], object]:
    return lambda game: game.turn_starter(card)


def _turn_picked(game: Game) -> None:
    game.turn_starter(_card_from("starter"))
    _clear_picker("starter")


def _starter_corner(game: Game) -> None:
    text = "No starter" if game.starter is None else f"Starter {game.starter.pretty()}"
    st.markdown(f'<div class="cc-corner" title="starter">{text}</div>', unsafe_allow_html=True)


def _set_mode(gid: str) -> None:
    mode = st.session_state.get("play_mode_pick") or QUICK
    try:
        store = GameStore()
        stored = store.load(gid)
        if stored is not None:
            stored.settings["play_mode"] = mode
            store.save(stored)
    except StoreError as error:
        st.session_state[ERROR] = str(error)


def _play(stored: StoredGame) -> None:
    game, gid = stored.game, stored.id
    _starter_corner(game)
    st.markdown(f"**The play** · deal {game.round} · {game.pone} leads.")
    mode = st.segmented_control(
        "Enter the play",
        [QUICK, CARDS],
        default=stored.settings.get("play_mode", QUICK),
        key="play_mode_pick",
        on_change=_set_mode,
        args=(gid,),
    )
    play = game.current_play
    assert play is not None
    if mode == CARDS:
        _play_cards(gid, game)
    else:
        _play_quick(gid, game)
    if not play.turns or play.is_over:
        st.button(
            "The play is over: on to the show",
            key="play_end",
            width="stretch",
            on_click=_entry,
            args=(gid, lambda g: g.end_play(), "On to the show."),
        )


def _play_quick(gid: str, game: Game) -> None:
    who = st.segmented_control("Who pegs?", list(game.players), default=game.pone, key="quick_who", width="stretch")
    if who is None:
        return
    with button_row("quick_points"):
        for points in range(1, 7):
            st.button(f"+{points}", key=f"quick_{points}", on_click=_entry, args=(gid, _peg(who, points, "")))
        st.button("Go +1", key="quick_go", on_click=_entry, args=(gid, _peg(who, 1, "go for 1")))
        st.button("31 +2", key="quick_31", on_click=_entry, args=(gid, _peg(who, 2, "31 for 2")))


def _peg(player: str, points: int, reason: str) -> Callable[[Game], object]:
    return lambda game: game.peg(player, points, reason)


def _play_cards(gid: str, game: Game) -> None:
    play = game.current_play
    assert play is not None
    laid = " ".join(c.pretty() for c in play.sequence) or "–"
    st.metric("Count", play.count)
    st.caption(f"This count: {laid}")
    if play.is_over:
        st.info("Every card has been played.")
        return
    who = play.to_play or game.pone
    st.markdown(f"**{who}** to play ({play.cards_left(who)} card{'s' if play.cards_left(who) != 1 else ''} left).")
    card_picker("play_card")
    with button_row("play_buttons"):
        st.button(f"{who} plays it", key="play_card_go", type="primary", on_click=_entry, args=(gid, _lay(who)))
        st.button(f"{who} says go", key="play_go", on_click=_entry, args=(gid, _go(who), f"{who} says go."))


def _lay(player: str) -> Callable[[Game], object]:
    def apply(game: Game) -> None:
        card = _card_from("play_card")
        game.play(player, card)
        _clear_picker("play_card")

    return apply


def _go(player: str) -> Callable[[Game], object]:
    return lambda game: game.go(player)


def _show(gid: str, game: Game) -> None:
    _starter_corner(game)
    whose = game.next_show
    assert whose is not None and game.dealer is not None
    order = ", ".join(f"crib ({game.dealer})" if w == CRIB else w for w in game.show_order())
    st.markdown(f"**The show** · order: {order}")
    title = f"the crib ({game.dealer}'s)" if whose == CRIB else f"{whose}'s hand"
    st.markdown(f"### Count {title}")
    key = f"show_{game.round}_{whose}"
    photo = photos.photo_inputs(key, "Photograph the hand")
    if photo is not None:
        result = photos.cached_read(key, photo)
        if result.error:
            st.error(result.error)
        else:
            for warning in result.warnings:
                st.warning(warning)
            if st.session_state.get(f"{key}_used") != photo[0]:
                st.session_state[f"{key}_used"] = photo[0]
                st.session_state[f"{key}_cards"] = " ".join(str(c) for c in result.cards if c != game.starter)
            if result.annotated_jpeg:
                st.image(result.annotated_jpeg, width="stretch")
    st.text_input("The four cards", key=f"{key}_cards", placeholder="5H 5C 5S JD")
    with st.expander("Tap the cards instead of typing"):
        card_picker(f"{key}_pick")
        st.button("Add this card", key=f"{key}_pick_add", on_click=_add_picked, args=(key,))
    if game.muggins:
        st.caption("Muggins is on: give the cards and the points claimed; points missed go to the opponent.")
    claimed = st.number_input(
        "Points claimed (leave empty to count the cards)",
        min_value=0,
        max_value=29,
        value=None,
        step=1,
        key=f"{key}_points",
    )
    st.button(
        f"Score {title}",
        key=f"{key}_go",
        type="primary",
        width="stretch",
        on_click=_entry,
        args=(gid, _show_entry(key)),
    )
    if claimed is None and not st.session_state.get(f"{key}_cards"):
        st.caption("Give the cards (typed or photographed) and cribcam counts them, or give the points.")


def _add_picked(key: str) -> None:
    try:
        card = _card_from(f"{key}_pick")
    except ValueError as error:
        st.session_state[ERROR] = str(error)
        return
    text = (st.session_state.get(f"{key}_cards") or "").split()
    st.session_state[f"{key}_cards"] = " ".join([*text, str(card)])
    _clear_picker(f"{key}_pick")


def _show_entry(key: str) -> Callable[[Game], object]:
    def apply(game: Game) -> None:
        text = (st.session_state.get(f"{key}_cards") or "").strip()
        points = st.session_state.get(f"{key}_points")
        cards = parse_cards(text) if text else None
        if cards is not None and len(cards) != 4:
            raise ValueError(f"A hand in the show is four cards; {len(cards)} given. Fix the cards.")
        if cards is None and points is None:
            raise ValueError("Give the four cards or the points for this count.")
        game.show(points=None if points is None else int(points), cards=cards)

    return apply


def _over(stored: StoredGame) -> None:
    game = stored.game
    result = game.result
    assert result is not None
    kind = {"win": "wins", "skunk": "wins with a skunk", "double skunk": "wins with a double skunk"}.get(
        result.kind, f"wins with a {result.kind}"
    )
    st.success(f"{result.winner} {kind} ({result.games} game{'s' if result.games > 1 else ''}).")
    st.markdown(" · ".join(f"{side} {min(points, game.target)}" for side, points in result.scores.items()))
    if st.button("Play the next game (the loser deals)", key="game_next", type="primary", width="stretch"):
        try:
            new_id = GameStore().create(game.next_game(), stored.settings)
        except (ValueError, StoreError) as error:
            st.error(str(error))
            return
        _forget_messages()
        st.query_params["game"] = new_id
        st.rerun()


def _history(game: Game) -> None:
    if not game.events:
        return
    with st.expander("History and totals"):
        summary = {p: {"Player": p, "Pegging": 0, "Hand": 0, "Crib": 0, "Other": 0} for p in game.players}
        for event in game.events:
            column = {"play": "Pegging", "starter": "Pegging"}.get(event.phase) or {"hand": "Hand", "crib": "Crib"}.get(
                event.kind, "Other"
            )
            summary[event.player][column] += event.points
        rows = list(summary.values())
        if not any(r["Other"] for r in rows):
            for r in rows:
                del r["Other"]
        st.table(rows)
        last = max(e.round for e in game.events)
        for number in range(last, 0, -1):
            events = [e for e in game.events if e.round == number]
            if events:
                st.markdown(f"**Deal {number}**")
                st.table([{"Who": e.player, "Points": e.points, "For": e.reason} for e in events])

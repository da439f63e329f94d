"""Track a game: set it up, then each deal's starter, the play and the show, with the board after each entry.

The game itself lives in the games database (``ui.store``: SQLite, or PostgreSQL); the URL carries its id
(``?game=...``), so a reload, a phone that slept or a second phone at the table all see the same game. Every
entry (a score, a card, undo, a setting, the next game) is made on the version of the game its page showed: the
button carries that version, and the store applies the entry only if the game is still at it. Otherwise nothing
is saved, the phone is told in one sentence what the other phone entered, and it shows the game as it is now.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from functools import partial

import streamlit as st

from scorer.board_svg import board_svg
from scorer.cards import Card, card_words, parse_cards, to_card
from scorer.game import CRIB, Game, ScoreEvent, sitting_table
from ui import photos
from ui.chips import card_chips, chip_cards, fix_buttons, replace_in_any, set_cards
from ui.common import button_row, card_picker, clear_picker, picked_card
from ui.store import ID_CHARS, SITTING, GameStore, StaleGame, StoredGame, StoreError, parse_id
from vision.reading import NO_STARTER

FLASH = "game_flash"
ERROR = "game_error"
NOTICE = "game_notice"
SEEN = "game_seen_"  # + a game id: the version, entries and settings this phone last showed of that game
QUICK = "Quick points"
CARDS = "Card by card"
NAME_CHARS = 20
CARDS_CHARS = 40
NAME_PUNCTUATION = " '.-&’"


# ---------------------------------------------------------------- entries


def _entry(game_id: str, seen: int, action: Callable[[Game], object], done: str = "") -> None:
    """Make one entry on the game at version ``seen`` (what this phone showed) and save it."""
    _change(game_id, seen, lambda stored: action(stored.game), done)


def _change(game_id: str, seen: int, change: Callable[[StoredGame], object], done: str = "") -> None:
    """Apply ``change`` to the game at version ``seen`` and save it; say what it scored (or what ``change``
    returned as text), why it was refused, or what another phone entered first."""
    _forget_messages()
    try:
        stored, (before, said) = GameStore().update(game_id, seen, lambda s: (len(s.game.events), change(s)))
    except StaleGame as stale:
        _overtaken(game_id, seen, stale.current)
        return
    except (ValueError, StoreError) as error:  # an entry the rules refuse, or a database problem
        st.session_state[ERROR] = str(error)
        return
    scored = [f"{e.player}: {e.reason}" for e in stored.game.events[before:]]
    st.session_state[FLASH] = "; ".join(scored) or (said if isinstance(said, str) else done)


def _overtaken(game_id: str, seen: int, current: StoredGame | None) -> None:
    """Another phone saved the game after this one showed version ``seen``: say what it entered."""
    if current is None:
        st.session_state[ERROR] = f"Game {game_id} is not in the database any more; start a new game."
        return
    shown = st.session_state.get(SEEN + game_id)
    try:
        changes = _changes(shown, current) if shown and shown["version"] == seen else []
    except ValueError:  # what this phone showed cannot be replayed; say it more plainly
        changes = []
    what = _listed(changes) if changes else "changed this game"
    st.session_state[NOTICE] = f"Another phone already {what}, so your entry was not saved; here is the game now."


def _changes(shown: dict, current: StoredGame) -> list[str]:
    """What happened between the game this phone showed (``SEEN``) and ``current``, as short phrases."""
    game = current.game
    was, now = shown["actions"], game.to_dict()["actions"]
    same = next((i for i, (a, b) in enumerate(zip(was, now, strict=False)) if a != b), min(len(was), len(now)))
    taken_back = _described(_replayed(game, was), same) if len(was) > same else []
    changes = [f"took back {words}" for words in reversed(taken_back)]
    changes += [f"entered {words}" for words in _described(game, same)]
    mode = current.settings.get("play_mode", QUICK)
    if mode != shown["settings"].get("play_mode", QUICK):
        changes.append(f"set the play to {str(mode).lower()}")
    if current.successor:
        changes.append("started the next game")
    return changes


def _described(made: Game, start: int) -> list[str]:
    """The entries of ``made`` from ``start`` on in words, each with the points it scored (its events' entry)."""
    actions = made.to_dict()["actions"]
    return [_entry_words(actions[i], [e for e in made.events if e.entry == i]) for i in range(start, len(actions))]


def _replayed(game: Game, actions: list[dict]) -> Game:
    return Game.from_dict({**game.to_dict(), "actions": actions, "events": None})


def _entry_words(action: dict, scored: Sequence[ScoreEvent]) -> str:
    """One entry as a phrase: ``Bob's 7♥ (Bob: fifteen for 2)``, ``Bob's hand for 8``, ``Ann's go``."""
    player, do = action.get("player"), action.get("do")
    if do == "show" and scored:
        words, scored = f"{scored[0].player}'s {scored[0].reason}", scored[1:]
    elif do == "peg":
        words, scored = f"{player}'s {action.get('points')} points", ()
    elif do in ("play", "starter") and action.get("card") is not None:
        card = to_card(action["card"]).pretty()
        words = f"{player}'s {card}" if do == "play" else f"the starter {card}"
    else:
        words = {
            "cut": "the cut for deal",
            "dealer": f"{player} as the dealer",
            "starter": "no starter",
            "hands": "the hands",
            "go": f"{player}'s go",
            "end_play": "the end of the play",
        }.get(str(do), "an entry")
    return words + (f" ({', '.join(f'{e.player}: {e.reason}' for e in scored)})" if scored else "")


def _listed(phrases: list[str], most: int = 3) -> str:
    """``a, b and c``; past ``most`` phrases, the first few and how many more."""
    if len(phrases) > most:
        return f"{', '.join(phrases[: most - 1])} and made {len(phrases) - most + 1} more changes"
    return phrases[0] if len(phrases) == 1 else f"{', '.join(phrases[:-1])} and {phrases[-1]}"


def _enter(stored: StoredGame, action: Callable[[Game], object], done: str = "") -> dict:
    """A button's ``on_click`` and ``args``: make ``action`` on the game at the version this page shows."""
    return {"on_click": _entry, "args": (stored.id, stored.version, action, done)}


# ---------------------------------------------------------------- the page


def render() -> None:
    try:
        store = GameStore()
    except StoreError as error:
        st.header("Track a game")
        st.error(str(error))
        st.caption("Counting a hand and the quizzes work without the database.")
        return
    linked = st.query_params.get("game")
    if not linked:
        st.header("Track a game")
        _new_game_form(store)
        _recent(store)
        return
    try:
        game_id = parse_id(linked)
    except ValueError as error:
        st.warning(str(error))
        st.button("Start a new game", on_click=_leave_game, key="game_leave_bad_id")
        return
    if linked != game_id:
        st.query_params["game"] = game_id
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
    for key in (FLASH, ERROR, NOTICE):
        st.session_state.pop(key, None)


def _leave_game() -> None:
    _forget_messages()
    st.query_params.pop("game", None)
    st.query_params["page"] = "game"


# ---------------------------------------------------------------- new game


def player_names(typed: Sequence[str]) -> list[str]:
    """The names as typed with their spaces tidied; ``ValueError`` (one sentence) for a name that is empty, longer
    than ``NAME_CHARS``, holds anything but letters, digits, spaces, emoji and ' . - & (no control characters,
    nothing that formats text), repeats another in any case, or gives both partnerships one name.

    >>> player_names([" Ann  Lee", "Bob"])
    ['Ann Lee', 'Bob']
    """
    names = [" ".join(str(name).split()) for name in typed]
    for number, name in enumerate(names, 1):
        if not name:
            raise ValueError(f"Player {number} needs a name.")
        if len(name) > NAME_CHARS:
            raise ValueError(f"Player {number}'s name has {len(name)} characters; keep it to {NAME_CHARS}.")
        if not all(_name_char(c) for c in name):
            raise ValueError(f"Player {number}'s name may hold letters, digits, spaces, emoji and ' . - & only.")
    folded = [name.casefold() for name in names]
    for number, name in enumerate(folded, 1):
        if folded.index(name) + 1 < number:
            raise ValueError(
                f"Players {folded.index(name) + 1} and {number} are both called {names[number - 1]}; "
                "give each player a different name."
            )
    if len(names) == 4 and f"{folded[0]} & {folded[2]}" == f"{folded[1]} & {folded[3]}":
        raise ValueError(f"Both partnerships would be called {names[0]} & {names[2]}; give the players other names.")
    return names


def _name_char(char: str) -> bool:
    """Letters, digits, emoji and ``NAME_PUNCTUATION``; nothing that formats text or controls the terminal."""
    if char in NAME_PUNCTUATION or char.isalnum():
        return True
    return not char.isascii() and unicodedata.category(char) in ("Mn", "Mc", "Me", "So", "Sk")


def _new_game_form(store: GameStore) -> None:
    count = st.segmented_control("Players", ["2", "3", "4 (partners)"], default="2", key="new_players", width="stretch")
    n = int((count or "2")[0])
    defaults = ["Ann", "Bob", "Cat", "Dan"]
    names = [
        " ".join(st.text_input(f"Player {i + 1}", value=defaults[i], key=f"new_name_{i}", max_chars=NAME_CHARS).split())
        for i in range(n)
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
        dealer = st.pills("Who deals first?", list(dict.fromkeys(name for name in names if name)), key="new_dealer")
    if st.button("Start the game", type="primary", key="new_start", width="stretch"):
        try:
            game = Game.new(player_names(names), target=int(target or 121), muggins=muggins, dealer=dealer)
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
        st.text_input("Game id (from the other phone's page)", key="open_id", max_chars=ID_CHARS + 4)
        st.form_submit_button("Open", key="open_go", on_click=_open_typed)
    if st.session_state.get(ERROR):
        st.error(st.session_state[ERROR])
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
    typed = st.session_state.get("open_id") or ""
    if not typed.strip():
        return
    try:
        _open(parse_id(typed))
    except ValueError as error:
        st.session_state[ERROR] = str(error)


# ---------------------------------------------------------------- a game in progress


def _game_view(stored: StoredGame) -> None:
    game = stored.game
    st.session_state[SEEN + stored.id] = {
        "version": stored.version,
        "actions": game.to_dict()["actions"],
        "settings": dict(stored.settings),
    }
    rules = f"to {game.target}" + (" · muggins" if game.muggins else "")
    st.subheader(" v ".join(game.sides))
    st.caption(f"Game {stored.id} · {rules} · share this page's address to follow the game on another phone.")
    _board(game)
    _sitting(stored)
    if st.session_state.get(ERROR):
        st.error(st.session_state[ERROR])
    elif st.session_state.get(NOTICE):
        st.warning(st.session_state[NOTICE])
    elif st.session_state.get(FLASH):
        st.success(st.session_state[FLASH])

    if game.is_over:
        _over(stored)
    elif game.phase == "cut":
        _cut(stored)
    elif game.phase == "starter":
        _starter(stored)
    elif game.phase == "play":
        _play(stored)
    elif game.phase == "show":
        _show(stored)

    with button_row("game_tools"):
        st.button(
            "↶ Undo", key="game_undo", disabled=not game.actions or bool(stored.successor), **_enter(stored, _undo)
        )
        st.button("New game", key="game_new", on_click=_leave_game)
    _history(game)


def _undo(game: Game) -> str:
    events = list(game.events)
    undone = game.undo()
    return f"Took back {_entry_words(undone, events[len(game.events) :])}."


def _board(game: Game) -> None:
    scores = game.scores
    with button_row("game_scores"):
        for side in game.sides:
            st.metric(side, min(scores[side], game.target))
    st.markdown(
        f'<div class="cc-board">{board_svg(game.pegs(), game.target, title="The board")}</div>',
        unsafe_allow_html=True,
    )


def _sitting(stored: StoredGame) -> None:
    """The match so far at this table: wins, skunks and ACC match points over the games played one after another."""
    results = list(stored.settings.get(SITTING, []))
    if stored.game.result is not None:
        results.append(stored.game.result.to_dict())
    if not results:
        return
    table = sitting_table(results, stored.game.sides)
    games = f"{len(results)} game{'s' if len(results) != 1 else ''}"
    summary = " · ".join(f"{line.side} {line.wins} won ({line.skunks} skunked), {line.points} pts" for line in table)
    st.caption(f"The match so far, {games}: {summary} (2 points a win, 3 a skunk).")


def _cut(stored: StoredGame) -> None:
    game = stored.game
    st.markdown("**Cut for deal**: each player cuts; the lowest card deals (ace is low).")
    how = st.segmented_control("How", ["Enter the cuts", "Choose the dealer"], default="Enter the cuts", key="cut_how")
    if how == "Choose the dealer":
        with button_row("cut_choose"):
            for player in game.players:
                st.button(f"{player} deals", key=f"cut_dealer_{player}", **_enter(stored, _choose(player)))
        return
    for player in game.players:
        with st.expander(f"{player}'s cut", expanded=True):
            card_picker(f"cut_{player}")
    st.button("Cut", type="primary", key="cut_go", **_enter(stored, _cut_entry(game.players)))


def _choose(player: str) -> Callable[[Game], object]:
    return lambda game: game.choose_dealer(player)


def _cut_entry(players: tuple[str, ...]) -> Callable[[Game], object]:
    def apply(game: Game) -> str:
        cards = {p: picked_card(f"cut_{p}") for p in players}
        dealer = game.cut_for_deal(cards)
        for p in players:
            clear_picker(f"cut_{p}")
        return f"{dealer} deals." if dealer else "The lowest cards tie; cut again."

    return apply


def _starter(stored: StoredGame) -> None:
    game = stored.game
    st.markdown(f"**Deal {game.round}** · {game.dealer} deals · {game.pone} leads the play.")
    st.markdown("Turn the **starter** (a jack is his heels: 2 for the dealer).")
    photo = photos.photo_inputs(f"starter_{game.round}", "Photograph the starter")
    if photo is not None:
        result = photos.cached_read(f"starter_{game.round}", photo)
        card, problem = starter_from_photo(result)
        if problem:
            (st.error if result.error else st.warning)(problem)
        if card is not None:
            st.button(
                f"Use {card.pretty()} from the photo",
                key="starter_from_photo",
                type="primary",
                **_enter(stored, _turn(card)),
            )
    card_picker("starter")
    with button_row("starter_buttons"):
        st.button("Turn the starter", key="starter_go", type="primary", **_enter(stored, _turn_picked))
        st.button("Not recorded", key="starter_none", **_enter(stored, _turn(None)))


def starter_from_photo(result: photos.PhotoResult) -> tuple[Card | None, str]:
    """The starter a photo shows (one card, or one set apart from the rest), or why it shows none."""
    if result.error:
        return None, result.error
    if not result.cards:
        return None, " ".join(result.warnings) or "No card found; photograph the starter face up."
    if len(result.cards) == 1:
        return result.cards[0], ""
    if result.starter is not None:
        return result.starter, ""
    shown = " ".join(c.pretty() for c in result.cards)
    return None, f"The photo shows {len(result.cards)} cards ({shown}); photograph the starter alone, or tap it below."


def _turn(card: Card | None) -> Callable[[Game], object]:
    return lambda game: game.turn_starter(card)


def _turn_picked(game: Game) -> None:
    game.turn_starter(picked_card("starter"))
    clear_picker("starter")


def _starter_corner(game: Game) -> None:
    text = "No starter" if game.starter is None else f"Starter {game.starter.pretty()}"
    st.markdown(f'<div class="cc-corner" title="starter">{text}</div>', unsafe_allow_html=True)


def _set_mode(game_id: str, seen: int) -> None:
    mode = st.session_state.get("play_mode_pick") or QUICK
    _change(game_id, seen, lambda stored: stored.settings.update(play_mode=mode))


def _play(stored: StoredGame) -> None:
    game = stored.game
    _starter_corner(game)
    st.markdown(f"**The play** · deal {game.round} · {game.pone} leads.")
    shown = stored.settings.get("play_mode")
    st.session_state["play_mode_pick"] = shown if shown in (QUICK, CARDS) else QUICK  # the game's setting, not ours
    mode = st.segmented_control(
        "Enter the play",
        [QUICK, CARDS],
        key="play_mode_pick",
        on_change=_set_mode,
        args=(stored.id, stored.version),
    )
    play = game.current_play
    assert play is not None
    if mode == CARDS:
        _play_cards(stored)
    else:
        _play_quick(stored)
    if mode != CARDS or not play.turns or play.is_over:  # quick points: nobody knows when the play ends but you
        st.button(
            "The play is over: on to the show",
            key="play_end",
            width="stretch",
            **_enter(stored, lambda g: g.end_play(unentered=mode != CARDS), "On to the show."),
        )


def _play_quick(stored: StoredGame) -> None:
    game = stored.game
    who = st.segmented_control("Who pegs?", list(game.players), default=game.pone, key="quick_who", width="stretch")
    if who is None:
        return
    with button_row("quick_points"):
        for points in range(1, 7):
            st.button(f"+{points}", key=f"quick_{points}", **_enter(stored, _peg(who, points, "")))
        st.button("Go +1", key="quick_go", **_enter(stored, _peg(who, 1, "go for 1")))
        st.button("31 +2", key="quick_31", **_enter(stored, _peg(who, 2, "31 for 2")))


def _peg(player: str, points: int, reason: str) -> Callable[[Game], object]:
    return lambda game: game.peg(player, points, reason)


def _play_cards(stored: StoredGame) -> None:
    game = stored.game
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
        st.button(f"{who} plays it", key="play_card_go", type="primary", **_enter(stored, _lay(who)))
        st.button(f"{who} says go", key="play_go", **_enter(stored, _go(who), f"{who} says go."))


def _lay(player: str) -> Callable[[Game], object]:
    def apply(game: Game) -> None:
        card = picked_card("play_card")
        game.play(player, card)
        clear_picker("play_card")

    return apply


def _go(player: str) -> Callable[[Game], object]:
    return lambda game: game.go(player)


def _show(stored: StoredGame) -> None:
    game = stored.game
    _starter_corner(game)
    whose = game.next_show
    assert whose is not None and game.dealer is not None
    order = ", ".join(f"crib ({game.dealer})" if w == CRIB else w for w in game.show_order())
    st.markdown(f"**The show** · order: {order}")
    if game.starter is not None:
        _whole_show(stored)
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
                if warning != NO_STARTER:  # the starter is known in the show
                    st.warning(warning)
            if st.session_state.get(f"{key}_used") != photo[0]:
                st.session_state[f"{key}_used"] = photo[0]
                st.session_state[f"{key}_cards"] = " ".join(str(c) for c in result.cards if c != game.starter)
            starter = [game.starter] if game.starter is not None else []
            fix_buttons(result.checks, _typed_cards(key), key, partial(_fix_typed, key), need=4, known=starter)
            if result.annotated_jpeg:
                st.image(result.annotated_jpeg, width="stretch")
    st.text_input("The four cards", key=f"{key}_cards", placeholder="5H 5C 5S JD", max_chars=CARDS_CHARS)
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
        **_enter(stored, _show_entry(key)),
    )
    if claimed is None and not st.session_state.get(f"{key}_cards"):
        st.caption("Give the cards (typed or photographed) and cribcam counts them, or give the points.")


def _whole_show(stored: StoredGame) -> None:
    """One photo of every hand still to count, laid out on the table: propose whose each group is, then
    count them all in show order in one entry (stopping when someone reaches the target)."""
    game = stored.game
    left = game.show_order()[game.show_order().index(game.next_show) :]
    key = f"whole_{game.round}_{len(left)}"
    with st.expander("Photograph the whole show at once", expanded=False):
        st.caption("Lay each hand and the crib a little apart, face up, the starter on its own; one photo counts all.")
        photo = photos.photo_inputs(key, "Photograph every hand and the crib")
        if photo is None:
            return
        result = photos.cached_read(key, photo)
        groups = [g for g in result.groups if len(g) == 4]
        if result.error or len(groups) != len(left):
            st.warning(result.error or _whole_show_problem(result, len(left)))
            return
        if st.session_state.get(f"{key}_used") != photo[0]:
            st.session_state[f"{key}_used"] = photo[0]
            for i, (group, whose) in enumerate(zip(groups, left, strict=True)):
                set_cards(f"{key}_cards_{i}", group)
                st.session_state[f"{key}_whose_{i}"] = whose
        for warning in result.warnings:
            if warning != NO_STARTER:
                st.warning(warning)
        keys = [f"{key}_cards_{i}" for i in range(len(groups))]
        cards = [c for k in keys for c in chip_cards(k)]  # need: 4 a group, so no Remove, and no Add (no group)
        known = [game.starter] if game.starter is not None else []
        fix_buttons(result.checks, cards, key, partial(replace_in_any, keys), need=len(cards), known=known)
        if result.annotated_jpeg:
            st.image(result.annotated_jpeg, width="stretch")
        st.caption("Nearest you is taken to count first; tap whose each group is, and tap a misread card to fix it.")
        names = {w: f"crib ({game.dealer})" if w == CRIB else w for w in left}
        for i in range(len(groups)):
            st.segmented_control(f"Group {i + 1}", left, key=f"{key}_whose_{i}", format_func=names.get, width="stretch")
            card_chips(f"{key}_cards_{i}")
        st.button(
            "Count the whole show",
            key=f"{key}_go",
            type="primary",
            width="stretch",
            **_enter(stored, _whole_show_entry(key, left)),
        )


def _whole_show_problem(result: photos.PhotoResult, wanted: int) -> str:
    fours = sum(len(g) == 4 for g in result.groups)
    found = f"{len(result.cards)} card{'s' if len(result.cards) != 1 else ''} in {fours} group(s) of four"
    return f"The photo shows {found}; the show still needs {wanted}. Lay each hand apart and photograph them again."


def _whole_show_entry(key: str, left: list[str]) -> Callable[[Game], object]:
    def apply(game: Game) -> None:
        owners = [st.session_state.get(f"{key}_whose_{i}") for i in range(len(left))]
        if sorted(map(str, owners)) != sorted(left):
            raise ValueError("Give each group a different owner: every hand and the crib once.")
        hands = {w: parse_cards(st.session_state.get(f"{key}_cards_{i}") or "") for i, w in enumerate(owners)}
        for whose, cards in hands.items():
            if len(cards) != 4:
                raise ValueError(f"{whose}'s group has {len(cards)} cards; a hand in the show is four. Fix it.")
        for whose in left:
            if game.is_over:
                break
            game.show(cards=hands[whose])

    return apply


def _add_picked(key: str) -> None:
    try:
        card = picked_card(f"{key}_pick")
    except ValueError as error:
        st.session_state[ERROR] = str(error)
        return
    text = (st.session_state.get(f"{key}_cards") or "").split()
    st.session_state[f"{key}_cards"] = " ".join([*text, str(card)])
    clear_picker(f"{key}_pick")


def _typed_cards(key: str) -> list[Card]:
    """The cards typed (or read) for a show's hand, each word that names a card."""
    words = card_words(st.session_state.get(f"{key}_cards") or "")
    return [card for word in words if (card := _card_or_none(word)) is not None]


def _card_or_none(word: str) -> Card | None:
    try:
        return Card.parse(word)
    except ValueError:
        return None


def _fix_typed(key: str, old: Card | None, new: Card | None) -> None:
    """A one-tap fix in a show's typed cards: ``old`` made ``new``, removed (``new`` None) or ``new`` added (``old``
    None)."""
    words = card_words(st.session_state.get(f"{key}_cards") or "")
    if old is None:
        if new is not None and new not in _typed_cards(key):
            st.session_state[f"{key}_cards"] = " ".join([*words, str(new)])
        return
    at = next((i for i, word in enumerate(words) if _card_or_none(word) == old), None)
    if at is None:
        return
    words[at : at + 1] = [] if new is None else [str(new)]
    st.session_state[f"{key}_cards"] = " ".join(words)


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
    if stored.successor:
        st.button(
            "Go to the next game",
            key="game_next",
            type="primary",
            width="stretch",
            on_click=_open,
            args=(stored.successor,),
        )
    else:
        st.button(
            "Play the next game (the loser deals)",
            key="game_next",
            type="primary",
            width="stretch",
            on_click=_next_game,
            args=(stored.id, stored.version),
        )


def _next_game(game_id: str, seen: int) -> None:
    """Start the next game, or follow the one another phone started first: one next game for the table."""
    _forget_messages()
    try:
        successor = GameStore().start_next(game_id, seen)
    except StaleGame as stale:
        if stale.current is not None and stale.current.successor:
            _open(stale.current.successor)
            st.session_state[NOTICE] = "Another phone already started the next game; this phone follows it."
        else:
            _overtaken(game_id, seen, stale.current)
        return
    except (ValueError, StoreError) as error:
        st.session_state[ERROR] = str(error)
        return
    _open(successor)


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

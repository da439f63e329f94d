"""Hostile and clumsy text: whatever is typed, the answer is a result or one sentence, and the work is bounded.

Fuzzed with hypothesis: card strings, quiz claims and pegging sequences; then each typed box and CLI card list
at its cap.
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from cribcam.cli import main
from scorer.cards import DECK, MAX_CARDS, Card, parse_cards
from scorer.learn import MAX_CLAIM_CARDS, Claim, deal_count_quiz, parse_claims
from scorer.play import GO_FROM, MAX_COUNT, Peg, Play

FUZZ = settings(max_examples=200, deadline=timedelta(seconds=2))
CARD_CHARS = "A23456789TJQK10SHDCshdcqkjt♠♥♦♣♡ ,;\t\nX"


def is_one_sentence(error: ValueError) -> bool:
    """A message for people: one line, ending in a full stop."""
    text = str(error)
    return bool(text) and "\n" not in text and text.endswith(".")


near_cards = st.text(alphabet=CARD_CHARS, max_size=60)
any_text = st.text(max_size=200)


# -- cards ---------------------------------------------------------------------------------------


@FUZZ
@given(st.one_of(near_cards, any_text))
def test_card_parse_gives_a_card_or_a_value_error(text):
    try:
        card = Card.parse(text)
    except ValueError as error:
        assert str(error).endswith(".")
    else:
        assert Card.parse(str(card)) == card


@FUZZ
@given(st.one_of(near_cards, any_text))
def test_parse_cards_gives_distinct_cards_or_one_sentence(text):
    try:
        cards = parse_cards(text)
    except ValueError as error:
        assert is_one_sentence(error), str(error)
    else:
        assert len(set(cards)) == len(cards) <= MAX_CARDS
        assert parse_cards(" ".join(map(str, cards))) == cards


def test_a_huge_typed_list_is_refused_by_its_length():
    with pytest.raises(ValueError, match=r"^A list of cards can have at most 52 cards; this one has 300000\.$"):
        parse_cards("5H " * 300_000)


# -- quiz claims ---------------------------------------------------------------------------------

kinds = st.sampled_from(["15", "fifteen", "15:", "pair", "pairs", "run", "flush", "nobs", "nob", "sixteen", ""])
deck_names = st.sampled_from([str(c) for c in DECK])
card_tokens = st.one_of(
    st.lists(deck_names, unique=True, max_size=12), st.lists(st.one_of(deck_names, near_cards), max_size=12)
)
claim_lines = st.builds(
    lambda kind, cards, sep: kind + " " + sep.join(cards), kinds, card_tokens, st.sampled_from(" ,\t")
)


@FUZZ
@given(st.one_of(claim_lines, any_text), st.integers(1, 4), st.integers(0, 1000))
def test_a_typed_claim_is_marked_or_refused_in_one_sentence(text, level, seed):
    quiz = deal_count_quiz(level, rng=seed)
    try:
        claim = Claim.parse(text)
    except ValueError as error:
        assert is_one_sentence(error), str(error)
        return
    assert 1 <= len(claim.cards) <= MAX_CLAIM_CARDS
    assert len(claim.atoms()) <= 6
    feedback = quiz.check(quiz.answer, [claim])
    assert len(feedback.found) + len(feedback.not_there) == len(claim.atoms())
    assert all(isinstance(line, str) for line in feedback.lines())


@FUZZ
@given(st.one_of(st.lists(claim_lines, max_size=40).map("\n".join), any_text), st.integers(0, 1000))
def test_typed_claims_are_marked_or_refused_naming_the_line(text, seed):
    quiz = deal_count_quiz(3, rng=seed)
    try:
        claims = parse_claims(text)
    except ValueError as error:
        assert is_one_sentence(error), str(error)
        return
    feedback = quiz.check(quiz.answer, claims)
    assert len(feedback.found) + len(feedback.not_there) <= 6 * len(claims)


# -- pegging sequences ---------------------------------------------------------------------------

POOL = ["AH", "2S", "3D", "4C", "5H", "5S", "5D", "6C", "7H", "8S", "9D", "10C", "JH", "QS", "KD", "KC"]
moves = st.lists(st.tuples(st.integers(0, 3), st.sampled_from([*POOL, "go", "go", "go", "ZZ"])), max_size=40)


@FUZZ
@given(st.integers(2, 4), st.integers(1, 4), moves)
def test_any_peg_sequence_is_played_or_refused_in_one_sentence(n, each, tried):
    players = list("ABCD"[:n])
    play = Play(players, cards_each=each)
    for seat, what in tried:
        player = players[seat % n]
        before = (len(play.turns), play.count, play.to_play, frozenset(play.said_go))
        try:
            play.go(player) if what == "go" else play.play(player, what)
        except ValueError as error:
            assert is_one_sentence(error), str(error)
            assert (len(play.turns), play.count, play.to_play, frozenset(play.said_go)) == before
    check_the_rules(play, each)


def check_the_rules(play: Play, each: int) -> None:
    """Replay the turns independently: counts, goes, who may act, who pegs the go."""
    laid = [t.card for t in play.turns if t.card is not None]
    assert len(set(laid)) == len(laid)
    left = dict.fromkeys(play.players, each)
    count, said, last = 0, set(), None
    for turn in play.turns:
        pegs = list(turn.pegs)
        stuck_others = all(p in said or left[p] == 0 for p in play.players if p != turn.player)
        if turn.card is None:
            assert turn.count == count >= GO_FROM and turn.player not in said and left[turn.player] > 0
            assert turn.player != last or stuck_others  # a go by the last to lay a card: everyone else is out
            said.add(turn.player)
        else:
            if turn.player in said:  # a card from a player who said go: the others were stuck, the count closed
                assert pegs.pop(0) == Peg(last, 1, "go", "go for 1")
                count, said = 0, set()
            assert turn.player != last or count == 0 or stuck_others  # nobody plays twice while another can
            count += turn.card.value
            left[turn.player] -= 1
            assert left[turn.player] >= 0 and turn.count == count <= MAX_COUNT
            last = turn.player
        for peg in pegs:
            if peg.kind == "go":
                assert peg.player == last
        if count == MAX_COUNT or any(p.kind == "go" for p in pegs):
            count, said = 0, set()
    assert play.is_over == (len(laid) == each * len(play.players))
    assert Counter(t.player for t in play.turns if t.card is not None) <= Counter(dict.fromkeys(play.players, each))


@FUZZ
@given(
    st.lists(st.one_of(st.sampled_from(["P1:5H", "P2:KD", "P1:go", "P2:go", "P2:5H", "P3:2C"]), any_text), max_size=20)
)
def test_cribcam_peg_exits_0_or_2_with_one_line(tokens):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["peg", "--", " ".join(tokens) or "P1:5H"])
    assert code in (0, 2)
    if code == 2:
        assert err.getvalue().count("\n") == 1 and err.getvalue().startswith("cribcam peg: ")


# -- every typed box and CLI card list at its cap ------------------------------------------------

SIXTY = " ".join(str(c) for c in DECK) + " " + " ".join(str(c) for c in DECK[:8])


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["score", *SIXTY.split()], "A hand with its starter can have at most 5 cards; this one has 60."),
        (["discard", *SIXTY.split(), "--crib", "mine"], "The dealt hand can have at most 6 cards; this one has 60."),
        (
            ["discard", "5H 5C JD QS 2C 3D", "--crib", "mine", "--exposed", SIXTY],
            "A list of cards can have at most 52 cards; this one has 60.",
        ),
        (["peg", "A:5H B:6H", "--hand", "A=" + SIXTY, "--hand", "B=2C"], "A list of cards can have at most 52"),
        (["peg", "A:5H B:6H", "--cards-each", "1000000"], "With 2 players each holds 1 to 26 cards, not 1000000."),
    ],
)
def test_cli_card_lists_are_capped_in_one_sentence(capsys, argv, said):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cribcam {argv[0]}: {said}") and err.count("\n") == 1


APP = str(Path(__file__).resolve().parent.parent / "app.py")


def test_the_count_pages_typed_box_refuses_a_whole_deck_in_one_sentence():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["page"] = "count"
    at.run()
    # set_value, as a client ignoring the box's max_chars would send it (Streamlit cuts it to 80 characters)
    at.text_input(key="count_typed").set_value(" ".join(str(c) for c in DECK[:40])).run()
    assert not at.exception
    (error,) = at.error
    assert error.value.startswith("A typed hand with its starter can have at most 5 cards; this one has ")
    assert at.text_input(key="count_typed").max_chars == 80

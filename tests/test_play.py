"""The play (pegging): each rule with its sequence spelled out, as ``A:5H B:10S A:go``."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribcam.cli import main
from scorer.cards import DECK, parse_cards
from scorer.play import Play, longest_run


def replay(moves: str, players: str = "A B", hands: dict | None = None, cards_each: int = 4) -> Play:
    """Play ``moves`` (``A:5H``, ``B:go``) in order."""
    play = Play(players.split(), hands=hands, cards_each=cards_each)
    for move in moves.split():
        player, what = move.split(":")
        if what == "go":
            play.go(player)
        else:
            play.play(player, what)
    return play


def reasons(play: Play, turn: int = -1) -> list[str]:
    """What one turn pegged, as ``"B: fifteen for 2"``."""
    return [f"{p.player}: {p.reason}" for p in play.turns[turn].pegs]


def test_fifteen_scores_2():
    assert reasons(replay("A:5H B:10S")) == ["B: fifteen for 2"]


def test_fifteen_with_face_cards_counting_ten():
    assert reasons(replay("A:KH B:5S")) == ["B: fifteen for 2"]


def test_exactly_31_scores_2_and_the_count_starts_again():
    play = replay("A:10H B:KS A:5D B:6C")
    assert reasons(play) == ["B: 31 for 2"]
    assert play.turns[-1].count == 31
    assert play.count == 0
    assert play.to_play == "A"


def test_31_is_never_followed_by_a_go_point():
    play = replay("A:10H B:KS A:5D B:6C A:2H")
    assert [p.reason for p in play.pegs] == ["31 for 2"]


def test_31_on_the_last_card_scores_2_not_2_plus_1():
    play = replay("A:10H B:KS A:5D B:6C", cards_each=2)
    assert play.is_over
    assert reasons(play) == ["B: 31 for 2"]


def test_last_card_scores_1():
    play = replay("A:10H B:KS A:4D B:3C", cards_each=2)
    assert play.is_over
    assert reasons(play) == ["B: last card for 1"]


def test_a_card_that_would_pass_31_is_illegal():
    play = replay("A:10H B:KS A:9D")
    with pytest.raises(ValueError, match=r"3C would take the count from 29 to 32, past 31"):
        play.play("B", "3C")
    assert play.count == 29  # the refused card changed nothing


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ("A:5H B:5S", ["B: pair for 2"]),
        ("A:9H B:9S A:9D", ["A: pair royal for 6"]),
        ("A:2H B:2S A:2D B:2C", ["B: double pair royal for 12"]),
        ("A:QH B:QS A:QD", ["A: pair royal for 6"]),
    ],
)
def test_pairs_of_two_three_and_four(moves, expected):
    assert reasons(replay(moves)) == expected


def test_pair_needs_the_same_rank_not_the_same_value():
    assert reasons(replay("A:JH B:QS")) == []


def test_pair_only_between_consecutive_cards():
    assert reasons(replay("A:5H B:6S A:5D")) == []


def test_pair_royal_broken_by_a_card_between():
    # 4 4 6 4: the last 4 pairs with nothing (the 6 sits between).
    assert reasons(replay("A:4H B:4S A:6D B:4C")) == []


def test_pairs_never_count_across_a_reset():
    play = replay("A:10H B:KS A:JD B:go A:go B:JH")
    assert reasons(play, -2) == ["A: go for 1"]
    assert reasons(play) == []


def test_fifteen_and_pair_on_one_card_are_separate_events():
    play = replay("A:5H B:5S A:5D")
    assert reasons(play) == ["A: fifteen for 2", "A: pair royal for 6"]
    assert play.points() == {"A": 8, "B": 2}


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ("A:7H B:6S A:8D", ["A: run of 3 for 3"]),
        ("A:5H B:2S A:4D B:3C", ["B: run of 4 for 4"]),
        ("A:AH B:2S A:3D", ["A: run of 3 for 3"]),
        ("A:JH B:QS A:KD", ["A: run of 3 for 3"]),
        ("A:6H B:7S A:8D B:9C", ["B: run of 4 for 4"]),
    ],
)
def test_runs_in_any_order(moves, expected):
    assert reasons(replay(moves)) == expected


def test_ace_is_low_so_queen_king_ace_is_no_run():
    assert reasons(replay("A:QH B:KS A:AD")) == []


def test_run_extended_card_by_card_scores_each_time():
    play = replay("A:3H B:4S A:2D B:5C")
    assert reasons(play, 2) == ["A: run of 3 for 3"]
    assert reasons(play, 3) == ["B: run of 4 for 4"]


def test_run_of_five_and_fifteen_are_separate_events():
    # 3 4 2 5 A: count 15 and a run of five.
    play = replay("A:3H B:4S A:2D B:5C A:AC", players="A B", cards_each=3)
    assert reasons(play) == ["A: fifteen for 2", "A: run of 5 for 5"]


def test_run_broken_by_repeated_rank_scores_nothing():
    # 2 3 3 4: the window 2 3 3 4 repeats a 3, and 3 3 4 is no run.
    assert reasons(replay("A:2H B:3S A:3D B:4C")) == []


def test_later_card_forms_a_new_run_after_a_repeated_rank():
    # 2 3 3 4 5: the 5 makes a run of 3 with 3 4 5 (the one engine that scores 0 here is wrong).
    play = replay("A:2H B:3S A:3D B:4C A:5C", cards_each=3)
    assert reasons(play) == ["A: run of 3 for 3"]


def test_run_formed_again_by_a_repeated_rank_at_the_end():
    # 4 5 6 4: the last three cards 5 6 4 are a run.
    assert reasons(replay("A:4H B:5S A:6D B:4C")) == ["B: run of 3 for 3"]


def test_longest_run_needs_three_distinct_consecutive_ranks():
    cards = parse_cards("6H 7S 9D 8C")
    assert longest_run(cards) == 4
    assert longest_run(cards[:3]) == 0
    assert longest_run(cards[:2]) == 0


def test_go_point_to_the_last_player_to_lay_a_card():
    play = replay("A:10H B:KS A:9D B:go A:go")
    assert reasons(play) == ["A: go for 1"]
    assert play.count == 0


def test_after_a_go_the_next_player_after_the_last_to_play_leads():
    play = replay("A:10H B:KS A:9D B:go A:go")
    assert play.to_play == "B"


def test_player_who_said_go_sits_out_while_the_other_plays_on():
    # B says go at 25; A lays 3C (28) and 2D (30), then cannot play: A pegs the go.
    play = replay("A:KH B:QS A:5D B:go A:3C A:2D A:go", cards_each=5)
    assert [p.reason for p in play.pegs] == ["go for 1"]
    assert play.pegs[0].player == "A"


def test_combinations_still_score_when_one_player_lays_several_cards_after_a_go():
    play = replay("A:KH B:QS A:2D B:go A:3C A:4H", cards_each=5)
    assert reasons(play) == ["A: run of 3 for 3"]
    play = replay("A:KH B:QS A:5D B:go A:3C A:3D")
    assert reasons(play) == ["A: 31 for 2", "A: pair for 2"]


def test_go_does_not_rescore_the_previous_card():
    play = replay("A:10H B:5S A:9D B:go A:go")
    assert [p.reason for p in play.pegs] == ["fifteen for 2", "go for 1"]


def test_a_go_is_not_said_on_the_lead():
    with pytest.raises(ValueError, match="must lead a card"):
        replay("A:go")


def test_a_player_who_said_go_cannot_say_it_again():
    play = replay("A:KH B:QS A:5D B:go")
    with pytest.raises(ValueError, match="already said go"):
        play.go("B")


def test_announced_play_by_a_player_who_said_go_closes_the_count():
    # Without hands: B said go, then lays a card, so A's count was over and A pegs the go.
    play = replay("A:KH B:QS A:5D B:go A:3C B:4H")
    assert reasons(play) == ["A: go for 1"]
    assert play.count == 4


def test_go_point_goes_to_the_last_card_even_when_that_player_is_out_of_cards():
    # A lays their last card at 29; B cannot play: A pegs 1 and B leads the next count.
    play = replay("A:10H B:9S A:KD B:go", cards_each=2)
    assert reasons(play) == ["A: go for 1"]
    assert play.to_play == "B"


# -- what the sequence alone rules out, hands unknown --------------------------------------------


def test_a_player_cannot_play_twice_in_a_row_while_the_other_can_still_play():
    play = replay("A:5H B:6H")
    with pytest.raises(ValueError, match=r"^It is A's turn, not B's; B laid the last card .* once A says go\.$"):
        play.play("B", "4H")


def test_a_player_plays_on_after_the_other_says_go():
    play = replay("A:KH B:QS A:5D B:go A:3C")
    assert play.to_play == "A" and play.count == 28


def test_go_is_refused_while_every_card_would_fit():
    # At 21 or less even a ten-card keeps the count at 31 or less, so nobody can be stuck.
    play = replay("A:KH")
    with pytest.raises(ValueError, match=r"^B cannot say go at 10; below 22 any card keeps the count at 31 or less\.$"):
        play.go("B")
    play = replay("A:KH B:6S A:5D")
    with pytest.raises(ValueError, match="cannot say go at 21"):
        play.go("B")
    play = replay("A:KH B:9S A:3D B:go")  # at 22 a ten-card would pass 31
    assert play.said_go == {"B"} and play.to_play == "A"


def test_go_by_the_player_who_laid_the_last_card_is_out_of_turn():
    play = replay("A:KH B:QS A:5D")
    with pytest.raises(ValueError, match="It is B's turn, not A's"):
        play.go("A")


def test_a_card_from_a_player_who_said_go_must_be_the_next_lead():
    # A said go; B plays on; C says go. A's card would mean B is stuck too, but then C leads, not A.
    play = replay("A:KH B:QS C:5D A:go B:3C C:go", players="A B C")
    with pytest.raises(ValueError, match=r"^It is B's turn, not A's; A said go, and C leads the next count\.$"):
        play.play("A", "4H")
    play.play("C", "4H")  # C leading closes the count: B, who laid 3C, pegs the go
    assert reasons(play) == ["B: go for 1"]


def test_a_refused_move_changes_nothing():
    play = replay("A:KH B:QS A:5D")
    before = play.to_dict(), play.count, play.to_play, set(play.said_go)
    for move in (lambda: play.play("A", "2C"), lambda: play.go("A"), lambda: play.play("B", "KH")):
        with pytest.raises(ValueError):
            move()
    assert (play.to_dict(), play.count, play.to_play, set(play.said_go)) == before


def test_more_cards_each_than_the_deck_allows_is_refused():
    with pytest.raises(ValueError, match="With 4 players each holds 1 to 13 cards, not 14"):
        Play(list("ABCD"), cards_each=14)


def test_card_already_played_is_refused():
    play = replay("A:5H")
    with pytest.raises(ValueError, match="5H has already been played"):
        play.play("B", "5H")


def test_more_cards_than_held_is_refused():
    play = replay("A:AH B:AS", cards_each=1)
    with pytest.raises(ValueError, match="The play is over"):
        play.play("A", "2H")


def test_unknown_player_is_refused():
    with pytest.raises(ValueError, match="'C' is not one of the players A, B"):
        replay("C:5H")


# -- known hands ---------------------------------------------------------------------------------

HANDS = {"A": "5H 6D 7C KS", "B": "5C 9H 10S QD"}


def test_known_hands_say_whose_turn_and_which_cards_may_be_played():
    play = Play(["A", "B"], leader="B", hands=HANDS)
    assert play.to_play == "B"
    assert play.legal_cards("A") == []
    play.play("B", "QD")
    play.play("A", "KS")
    assert [str(c) for c in play.legal_cards("B")] == ["5C", "9H", "10S"]
    play.play("B", "10S")  # 30
    assert play.legal_cards("A") == []


def test_known_hands_refuse_a_card_not_held():
    play = Play(["A", "B"], hands=HANDS)
    with pytest.raises(ValueError, match="A does not hold 5C"):
        play.play("A", "5C")


def test_known_hands_refuse_a_play_out_of_turn():
    play = Play(["A", "B"], hands=HANDS)
    with pytest.raises(ValueError, match="It is A's turn, not B's"):
        play.play("B", "5C")


def test_known_hands_refuse_a_go_while_holding_a_playable_card():
    play = Play(["A", "B"], hands=HANDS)
    play.play("A", "KS")
    play.play("B", "QD")
    with pytest.raises(ValueError, match=r"A cannot say go while holding 5H, which fits under 31 \(count 20\)"):
        play.go("A")


def test_known_hands_play_to_the_end():
    play = Play(["A", "B"], hands=HANDS)
    for player, card in [("A", "KS"), ("B", "QD"), ("A", "7C")]:
        play.play(player, card)
    play.go("B")  # 27: B holds 5C 9H 10S
    assert play.to_play == "A"
    play.go("A")  # A holds 5H 6D: 5 would make 32
    assert play.to_play == "B"  # B is after A, who played last
    for player, card in [("B", "5C"), ("A", "5H"), ("B", "10S"), ("A", "6D")]:
        play.play(player, card)
    play.go("B")  # 26: B holds 9H; A is out of cards, so A pegs the go
    play.play("B", "9H")
    assert play.is_over and play.to_play is None
    assert [f"{p.player}: {p.reason}" for p in play.pegs] == [
        "A: go for 1",
        "A: pair for 2",
        "A: go for 1",
        "B: last card for 1",
    ]
    with pytest.raises(ValueError, match="The play is over"):
        play.go("A")


def test_known_hands_player_out_of_cards_is_skipped():
    play = Play(["A", "B"], hands={"A": "KH", "B": "2S 3S 4S"})
    play.play("A", "KH")
    play.play("B", "2S")
    assert play.to_play == "B"
    play.play("B", "3S")
    play.play("B", "4S")
    assert play.is_over
    assert [p.reason for p in play.pegs] == ["fifteen for 2", "run of 3 for 3", "last card for 1"]


def test_hands_must_not_share_a_card():
    with pytest.raises(ValueError, match="5H appears twice"):
        Play(["A", "B"], hands={"A": "5H 6H", "B": "5H 7H"})


# -- three and four players ----------------------------------------------------------------------

THREE = {"A": "KH 9S 9H 9D", "B": "QH 3C 2S 8C", "C": "5D 7S 7H 7D"}


def test_three_players_play_continues_until_no_one_can_play():
    play = Play(["A", "B", "C"], hands=THREE)
    play.play("A", "KH")
    play.play("B", "QH")
    play.play("C", "5D")  # 25
    play.go("A")
    play.play("B", "3C")  # 28: C is next, A has said go
    assert play.to_play == "C"
    play.go("C")
    play.play("B", "2S")  # 30: B plays on alone
    assert play.to_play == "B"
    assert play.go("B")[0].reason == "go for 1"
    assert play.points() == {"A": 0, "B": 1, "C": 0}
    assert play.to_play == "C"  # the player after B, who laid the last card


def test_three_players_run_across_three_hands():
    play = replay("A:4H B:6S C:5D", players="A B C")
    assert reasons(play) == ["C: fifteen for 2", "C: run of 3 for 3"]


def test_four_players_double_pair_royal_around_the_table():
    play = replay("A:7H B:7S C:7D D:7C", players="A B C D")
    assert reasons(play, 1) == ["B: pair for 2"]
    assert reasons(play, 2) == ["C: pair royal for 6"]
    assert reasons(play) == ["D: double pair royal for 12"]


def test_four_players_go_passes_round_the_table():
    # 10 10 9 (29): D, A, B cannot play; C laid the last card and pegs the go.
    play = replay("A:KH B:QS C:9D D:go A:go B:go C:go", players="A B C D")
    assert reasons(play) == ["C: go for 1"]
    assert play.to_play == "D"


def test_play_round_trips_through_a_dict():
    play = Play(["A", "B"], hands=HANDS)
    play.play("A", "KS")
    play.play("B", "5C")
    again = Play.from_dict(play.to_dict())
    assert again.turns == play.turns and again.to_play == play.to_play


# -- invariants ----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 4),
    st.permutations(range(52)),
    st.lists(st.integers(0, 3), min_size=40, max_size=40),
)
def test_random_legal_play_keeps_the_rules(n, order, choices):
    players = "ABCD"[:n]
    cards = [DECK[i] for i in order]
    hands = {p: cards[4 * i : 4 * i + 4] for i, p in enumerate(players)}
    play = Play(list(players), hands=hands)
    step = 0
    while not play.is_over:
        player = play.to_play
        legal = play.legal_cards(player)
        if legal:
            play.play(player, legal[choices[step % 40] % len(legal)])
        else:
            play.go(player)
        step += 1
        assert 0 <= play.count <= 31
    assert sorted(t.card for t in play.turns if t.card) == sorted(cards[: 4 * n])
    final = play.turns[-1].pegs
    kinds = [p.kind for p in final]
    assert ("last card" in kinds) != ("31" in kinds)  # the last card pegs 1, or 2 for 31, never both
    assert sum(p.kind in ("last card", "go") and p.points == 1 for p in final) <= 1
    # Every go point goes to the player who laid the most recent card (perhaps on this very turn).
    last_card_by = None
    for turn in play.turns:
        if turn.card is not None:
            last_card_by = turn.player
        for peg in turn.pegs:
            if peg.kind == "go":
                assert peg.player == last_card_by
    assert sum(play.points().values()) == sum(p.points for t in play.turns for p in t.pegs)


# -- cribcam peg ---------------------------------------------------------------------------------


def test_cli_peg_prints_each_count_and_points(capsys):
    assert main(["peg", "P1:5H P2:10S P1:KH P2:go P1:go P2:3C"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["P2", "10S", "count", "15", "fifteen", "for", "2"]
    assert lines[4].split() == ["P1", "go", "count", "25", "go", "for", "1"]
    assert lines[5].split() == ["P2", "3C", "count", "3"]
    assert lines[-1] == "points: P1 1, P2 2"


def test_cli_peg_json_and_partnerships(capsys):
    assert main(["peg", "A:7H B:7S C:7D D:7C", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["points"] == {"A": 0, "B": 2, "C": 6, "D": 12}
    assert data["partnerships"] == {"A & C": 6, "B & D": 14}
    assert data["turns"][3]["pegs"][0]["reason"] == "double pair royal for 12"


def test_cli_peg_illegal_play_is_one_line_and_exit_2(capsys):
    assert main(["peg", "A:10H B:KS A:9D B:3C"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "cribcam peg: 3C would take the count from 29 to 32, past 31; play a lower card or say go."


@pytest.mark.parametrize(
    ("moves", "said"),
    [
        ("P1:5H P2:6H P2:4H", "It is P1's turn, not P2's; P2 laid the last card and plays again only once P1 says go."),
        ("P1:KH P2:go P1:go", "P2 cannot say go at 10; below 22 any card keeps the count at 31 or less."),
        ("P1:5H P2:6H P1:5H", "5H has already been played in this deal."),
    ],
)
def test_cli_peg_refuses_what_the_sequence_alone_rules_out(capsys, moves, said):
    assert main(["peg", moves]) == 2
    assert capsys.readouterr().err == f"cribcam peg: {said}\n"


def test_cli_peg_refuses_more_moves_than_any_deal_has(capsys):
    moves = " ".join(f"P{i % 2 + 1}:go" for i in range(201))
    assert main(["peg", moves]) == 2
    assert capsys.readouterr().err == "cribcam peg: A play can have at most 200 moves; this one has 201.\n"


def test_cli_peg_with_hands_checks_legality(capsys):
    code = main(["peg", "A:5H B:6H", "--hand", "A=5H,6D,7C,8S", "--hand", "B=5C,9H,10S,QD"])
    assert code == 2
    assert "B does not hold 6H" in capsys.readouterr().err

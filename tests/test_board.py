"""The board: front and back pegs from the event log, and the SVG drawing of a 121-hole board."""

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from scorer.board import START, PegPair, peg_positions
from scorer.board_svg import board_svg, hole_xy
from scorer.game import Game

SVG = "{http://www.w3.org/2000/svg}"


def test_pegs_start_in_the_start_holes():
    assert peg_positions([], ["Ann", "Bob"]) == {"Ann": START, "Bob": START}
    assert PegPair(0, 0) == START


def test_back_peg_leapfrogs_to_the_front():
    pegs = peg_positions([("Ann", 2), ("Ann", 6), ("Bob", 4), ("Ann", 3)], ["Ann", "Bob"])
    assert pegs == {"Ann": PegPair(11, 8), "Bob": PegPair(4, 0)}


def test_no_points_moves_no_peg():
    assert peg_positions([("Ann", 5), ("Ann", 0)], ["Ann", "Bob"])["Ann"] == PegPair(5, 0)


def test_front_peg_stops_in_the_game_hole():
    assert peg_positions([("Ann", 119), ("Ann", 8)], ["Ann", "Bob"])["Ann"] == PegPair(121, 119)
    assert peg_positions([("Ann", 59), ("Ann", 8)], ["Ann", "Bob"], target=61)["Ann"] == PegPair(61, 59)


def test_one_play_that_pegs_a_fifteen_and_a_pair_royal_moves_the_pegs_once():
    game = Game.new(["Ann", "Bob"], dealer="Bob")
    game.turn_starter("JH")  # his heels: Bob 2
    game.play("Ann", "5H")
    game.play("Bob", "5C")  # a pair: Bob 4, back peg on 2
    game.play("Ann", "5S")  # fifteen two and a pair royal, two events of one entry: Ann 0 -> 8 in one move
    assert [e.points for e in game.events if e.player == "Ann"] == [2, 6]
    assert game.pegs()["Ann"] == PegPair(8, 0) and game.pegs()["Bob"] == PegPair(4, 2)
    assert peg_positions(game.events, game.sides) == game.pegs()
    game.undo()
    assert game.pegs()["Ann"] == START


def test_partnership_sides_that_would_share_a_name_are_refused():
    with pytest.raises(ValueError, match="have the same name"):
        Game.new(["A & B", "A", "C", "B & C"])  # sides "A & B & C" and "A & B & C"


def test_unknown_side_and_negative_points_are_refused():
    with pytest.raises(ValueError, match="'Cat' has no pegs on this board"):
        peg_positions([("Cat", 2)], ["Ann", "Bob"])
    with pytest.raises(ValueError, match="Pegs only move forward"):
        peg_positions([("Ann", -2)], ["Ann", "Bob"])


def test_game_pegs_follow_its_event_log_and_partnerships():
    game = Game.new(["Ann", "Bob", "Cat", "Dan"])
    game.choose_dealer("Dan")
    game.turn_starter("JC")
    game.peg("Bob", 2)
    game.peg("Ann", 3)
    game.peg("Cat", 1)
    assert game.pegs() == {"Ann & Cat": PegPair(4, 3), "Bob & Dan": PegPair(4, 2)}
    assert game.pegs() == peg_positions(game.events, game.sides)
    game.undo()
    assert game.pegs()["Ann & Cat"] == PegPair(3, 0)


# -- the drawing ---------------------------------------------------------------------------------


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def circles(root: ET.Element, cls: str) -> list[ET.Element]:
    return [c for c in root.iter(f"{SVG}circle") if c.get("class") == cls]


def centre(element: ET.Element) -> tuple[str, str]:
    return element.get("cx"), element.get("cy")


def test_board_has_sixty_holes_per_track_in_groups_of_five():
    for tracks in (2, 3):
        sides = ["Ann", "Bob", "Cat"][:tracks]
        root = parse(board_svg(dict.fromkeys(sides, START)))
        holes = circles(root, "hole")
        assert len(holes) == 60 * tracks
        assert len(circles(root, "game-hole")) == 1
        assert len(circles(root, "start")) == 2 * tracks
        xs = sorted({float(h.get("cx")) for h in holes})
        gaps = [round(b - a, 1) for a, b in pairwise(xs)]
        # 30 columns: within a group the pitch is even, and a wider gap every five holes.
        assert len(xs) == 30
        assert [i for i, g in enumerate(gaps) if g > min(gaps)] == [4, 9, 14, 19, 24]


def test_holes_go_out_along_one_street_and_back_along_the_other():
    x1, y1 = hole_xy(0, 2, 1)
    x30, y30 = hole_xy(0, 2, 30)
    x31, y31 = hole_xy(0, 2, 31)
    x60, y60 = hole_xy(0, 2, 60)
    assert y1 == y30 and x30 > x1
    assert y31 == y60 and x31 == x30 and x60 == x1 and y31 > y30
    assert hole_xy(0, 2, 61) == hole_xy(0, 2, 1)  # the second lap uses the same holes


def test_pegs_stand_in_their_holes():
    root = parse(board_svg({"Ann": PegPair(97, 37), "Bob": PegPair(121, 104)}))
    holes = {(h.get("data-track"), h.get("data-hole")): centre(h) for h in circles(root, "hole")}
    pegs = {(p.get("data-side"), p.get("data-peg")): p for p in circles(root, "peg")}
    assert centre(pegs["Ann", "back"]) == holes["0", "37"]
    assert centre(pegs["Ann", "front"]) == holes["0", "37"]  # 97 is hole 37 on the second lap
    assert centre(pegs["Bob", "back"]) == holes["1", "44"]
    assert centre(pegs["Bob", "front"]) == centre(circles(root, "game-hole")[0])


def test_pegs_at_the_start_sit_in_the_two_start_holes():
    root = parse(board_svg({"Ann": START, "Bob": PegPair(5, 0)}))
    starts = {centre(s) for s in circles(root, "start") if s.get("data-track") == "0"}
    pegs = {centre(p) for p in circles(root, "peg") if p.get("data-side") == "Ann"}
    assert pegs == starts and len(pegs) == 2


def test_61_board_reaches_the_game_hole_after_one_lap():
    root = parse(board_svg({"Ann": PegPair(61, 58), "Bob": PegPair(60, 40)}, target=61))
    pegs = {(p.get("data-side"), p.get("data-peg")): centre(p) for p in circles(root, "peg")}
    assert pegs["Ann", "front"] == centre(circles(root, "game-hole")[0])
    assert pegs["Bob", "front"] != pegs["Ann", "front"]


def test_names_are_escaped_and_shown_with_scores():
    svg = board_svg({"Ann & Cat": PegPair(12, 10), "<Bob>": PegPair(3, 0)})
    root = parse(svg)
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ["Ann & Cat: 12", "<Bob>: 3"]


def test_board_needs_two_or_three_sides():
    with pytest.raises(ValueError, match="two or three tracks; got 4 sides"):
        board_svg(dict.fromkeys("ABCD", START))

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

# A 412 px phone shows the board at the page's width less its side padding (0.75rem each side, PHONE_CSS).
PHONE = 412
ON_PHONE = PHONE - 2 * 12
SHAPE_TAGS = {f"{SVG}circle", f"{SVG}rect", f"{SVG}polygon"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def elements(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == cls]


def shape_centre(element: ET.Element) -> tuple[float, float]:
    """The centre of a circle, a rect or a polygon (its vertices' mean, a triangle's centroid), from its geometry."""
    if element.tag == f"{SVG}circle":
        return float(element.get("cx")), float(element.get("cy"))
    if element.tag == f"{SVG}rect":
        return (
            float(element.get("x")) + float(element.get("width")) / 2,
            float(element.get("y")) + float(element.get("height")) / 2,
        )
    points = [tuple(map(float, p.split(","))) for p in element.get("points").split()]
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def centre(element: ET.Element) -> tuple[float, float]:
    """A hole's centre, or a peg's: its data-cx/data-cy, which must be where its shape is drawn."""
    if element.get("class") != "peg":
        return shape_centre(element)
    said = float(element.get("data-cx")), float(element.get("data-cy"))
    assert shape_centre(element) == pytest.approx(said, abs=0.15)
    return said


def pegs_of(root: ET.Element) -> dict[tuple[str, str], tuple[float, float]]:
    return {(p.get("data-side"), p.get("data-peg")): centre(p) for p in elements(root, "peg")}


def view_width(root: ET.Element) -> float:
    return float(root.get("viewBox").split()[2])


def test_board_has_sixty_holes_per_track_in_groups_of_five_down_the_screen():
    for tracks in (2, 3):
        sides = ["Ann", "Bob", "Cat"][:tracks]
        root = parse(board_svg(dict.fromkeys(sides, START)))
        holes = elements(root, "hole")
        assert len(holes) == 60 * tracks
        assert len(elements(root, "game-hole")) == 1
        assert len(elements(root, "start")) == 2 * tracks
        assert len({centre(h)[0] for h in holes}) == 2 * tracks  # an up and a down street per track
        ys = sorted({centre(h)[1] for h in holes})
        gaps = [round(b - a, 1) for a, b in pairwise(ys)]
        # 30 rows: within a group the pitch is even, and a wider gap every five holes.
        assert len(ys) == 30
        assert [i for i, g in enumerate(gaps) if g > min(gaps)] == [4, 9, 14, 19, 24]


def test_holes_go_up_one_street_and_back_down_the_other():
    x1, y1 = hole_xy(0, 2, 1)
    x30, y30 = hole_xy(0, 2, 30)
    x31, y31 = hole_xy(0, 2, 31)
    x60, y60 = hole_xy(0, 2, 60)
    assert x1 == x30 and y30 < y1
    assert x31 == x60 and y31 == y30 and y60 == y1 and x31 > x30
    assert hole_xy(0, 2, 61) == hole_xy(0, 2, 1)  # the second lap uses the same holes


def test_board_is_upright_and_fits_one_phone_screen():
    for tracks in (2, 3):
        root = parse(board_svg(dict.fromkeys(["Ann", "Bob", "Cat"][:tracks], START)))
        _, _, width, height = map(float, root.get("viewBox").split())
        assert height > width
        assert height * PHONE / width <= 700  # even drawn the phone's full width


def test_holes_and_hole_numbers_are_legible_on_a_412_px_phone():
    for tracks in (2, 3):
        root = parse(board_svg(dict.fromkeys(["Ann", "Bob", "Cat"][:tracks], START)))
        to_screen = ON_PHONE / view_width(root)
        holes = elements(root, "hole") + elements(root, "start") + elements(root, "game-hole")
        assert min(float(h.get("r")) for h in holes) * to_screen >= 5
        assert len(elements(root, "hole-number")) == 14  # 1, 5, 10, ... 30 up; 31, 35, ... 60 down
        sizes = [float(t.get("font-size")) for t in root.iter() if t.get("font-size")]
        assert len(sizes) >= 14 and min(sizes) * to_screen >= 12


def test_second_lap_numbers_tell_31_from_91():
    root = parse(board_svg({"Ann": START, "Bob": START}))
    numbers = {int(t.get("data-hole")): t for t in elements(root, "hole-number")}
    assert "".join(numbers[31].itertext()).split(" · ") == ["31", "91"]
    for hole, label in numbers.items():
        assert "".join(label.itertext()).split(" · ") == [str(hole), str(hole + 60)]
        assert float(label.get("y")) == pytest.approx(hole_xy(0, 2, hole)[1], abs=8)  # its baseline, on the row
    one_lap = parse(board_svg({"Ann": START, "Bob": START}, target=61))
    assert ["".join(t.itertext()) for t in elements(one_lap, "hole-number") if t.get("data-hole") == "31"] == ["31"]


def test_sides_differ_in_peg_shape_as_in_the_legend():
    root = parse(board_svg({"Ann": PegPair(9, 4), "Bob": PegPair(8, 2), "Cat": PegPair(7, 0)}))
    shapes = {}
    for side in ("Ann", "Bob", "Cat"):
        pegs = {p.tag for p in elements(root, "peg") if p.get("data-side") == side}
        legend = {p.tag for p in elements(root, "legend-peg") if p.get("data-side") == side}
        assert len(pegs) == 1 and pegs == legend and pegs <= SHAPE_TAGS
        shapes[side] = pegs.pop()
    assert len(set(shapes.values())) == 3


def test_pegs_stand_in_their_holes_on_both_laps():
    root = parse(board_svg({"Ann": PegPair(97, 37), "Bob": PegPair(121, 104), "Cat": PegPair(3, 0)}))
    holes = {(h.get("data-track"), h.get("data-hole")): centre(h) for h in elements(root, "hole")}
    pegs = pegs_of(root)
    assert pegs["Ann", "back"] == holes["0", "37"]
    assert pegs["Ann", "front"] == holes["0", "37"]  # 97 is hole 37 on the second lap
    assert pegs["Bob", "back"] == holes["1", "44"]
    assert pegs["Bob", "front"] == centre(elements(root, "game-hole")[0])
    assert pegs["Cat", "front"] == holes["2", "3"]
    assert pegs["Cat", "back"] in {centre(s) for s in elements(root, "start") if s.get("data-track") == "2"}


def test_pegs_at_the_start_sit_in_the_two_start_holes():
    root = parse(board_svg({"Ann": START, "Bob": PegPair(5, 0)}))
    starts = {centre(s) for s in elements(root, "start") if s.get("data-track") == "0"}
    pegs = {centre(p) for p in elements(root, "peg") if p.get("data-side") == "Ann"}
    assert pegs == starts and len(pegs) == 2


def test_61_board_reaches_the_game_hole_after_one_lap():
    root = parse(board_svg({"Ann": PegPair(61, 58), "Bob": PegPair(60, 40)}, target=61))
    holes = {(h.get("data-track"), h.get("data-hole")): centre(h) for h in elements(root, "hole")}
    pegs = pegs_of(root)
    assert pegs["Ann", "front"] == centre(elements(root, "game-hole")[0])
    assert pegs["Ann", "back"] == holes["0", "58"]
    assert pegs["Bob", "front"] == holes["1", "60"]


def test_names_are_escaped_and_shown_with_scores():
    svg = board_svg({"Ann & Cat": PegPair(12, 10), "<Bob>": PegPair(3, 0)})
    root = parse(svg)
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ["Ann & Cat: 12", "<Bob>: 3"]


def test_board_needs_two_or_three_sides():
    with pytest.raises(ValueError, match="two or three tracks; got 4 sides"):
        board_svg(dict.fromkeys("ABCD", START))

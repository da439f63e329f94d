"""A cribbage board drawn as SVG for a phone: upright, the long way down the screen, with each side's two pegs.

Each side has a track of 60 holes in groups of five: 30 up an outer street, 30 back down an inner one, so
the tracks nest as loops. A 121 game goes round twice (hole 61 is hole 1 again, and the numbers say so:
"5 · 65"), a 61 game once. The start holes sit below each track's hole 1, the game hole below the inner
streets. Sides differ in shape as well as colour (round, square, triangular pegs), for colour-blind players.
The drawing is sized for a page about 400 px wide, shown with ``width: 100%``.

>>> from scorer.board import PegPair
>>> svg = board_svg({"Ann": PegPair(37, 30), "Bob": PegPair(12, 4)})
>>> svg.startswith("<svg") and svg.count('class="hole"')
120
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from scorer.board import PegPair

COLOURS = ("#c0392b", "#1f5fa8", "#1e8449")
STREET = 30  # holes along one street
LAP = 2 * STREET
GROUP = 5
WIDTH = 380  # the viewBox width: about one unit to a screen pixel on a phone
PITCH = 14  # distance between holes in a group
GROUP_GAP = 9  # extra space between groups
COLUMN = 36  # distance between neighbouring streets
MIDDLE = 48  # distance between the innermost up and down streets
LOOP = 11  # distance between the tops of the nested loops
TOP = 16 + 3 * LOOP + 4  # the row of holes 30 and 31
HOLE_R = 5.3
GAME_R = 8
PEG_R = 6.5  # a round peg's radius; the square and triangle are drawn to look the same size
FONT = 13
LEGEND_ROW = 21
WOOD, WOOD_EDGE, HOLE_FILL = "#c8955c", "#7a4e24", "#3b2412"
INK, INK_LAP2 = "#2b1808", "#6b3a12"


def _street_x(street: int, tracks: int) -> float:
    """Left-to-right centre of street ``street`` (0 to 2 * tracks - 1): the up streets, then the down streets."""
    span = (2 * tracks - 2) * COLUMN + (MIDDLE - COLUMN)
    left = (WIDTH - span) / 2
    return left + street * COLUMN + (MIDDLE - COLUMN if street >= tracks else 0)


def _row_y(column: int) -> float:
    """Top-to-bottom centre of row ``column`` (0 for holes 30 and 31, 29 for holes 1 and 60)."""
    return TOP + column * PITCH + (column // GROUP) * GROUP_GAP


def hole_xy(track: int, tracks: int, hole: int) -> tuple[float, float]:
    """Centre of ``hole`` (1 to 120) on ``track`` (0 outermost) of a board with ``tracks`` tracks.

    Holes 1 to 30 go up the track's outer street, 31 to 60 come down its inner one; 61 to 120 are the same holes.
    """
    if not 1 <= hole <= 2 * LAP:
        raise ValueError(f"Board holes are numbered 1 to {2 * LAP}, not {hole}.")
    place = (hole - 1) % LAP  # 0..59 round the loop
    street = track if place < STREET else 2 * tracks - 1 - track
    return _street_x(street, tracks), _hole_y(hole)


def _hole_y(hole: int) -> float:
    """Top-to-bottom centre of ``hole``'s row, the same on every track."""
    place = (hole - 1) % LAP
    return _row_y(STREET - 1 - place if place < STREET else place - STREET)


def _start_xy(track: int, tracks: int, peg: int) -> tuple[float, float]:
    """The two start holes of a track, below its hole 1."""
    x, y = hole_xy(track, tracks, 1)
    return x, y + PITCH + GROUP_GAP + peg * PITCH


def _game_xy(tracks: int) -> tuple[float, float]:
    """The game hole: below the down streets, level between the start holes."""
    x = (_street_x(tracks, tracks) + _street_x(2 * tracks - 1, tracks)) / 2
    return x, (_start_xy(0, tracks, 0)[1] + _start_xy(0, tracks, 1)[1]) / 2


def peg_xy(track: int, tracks: int, position: int, target: int, peg: int) -> tuple[float, float]:
    """Where a peg at ``position`` stands: start hole (0), the track, or the game hole (``target``)."""
    if position <= 0:
        return _start_xy(track, tracks, peg)
    if position >= target:
        return _game_xy(tracks)
    return hole_xy(track, tracks, position)


def peg_shape(side: int, x: float, y: float, attributes: str) -> str:
    """The peg of side ``side`` (0 round, 1 square, 2 triangular) centred on ``x, y``, as an SVG element.

    The centre is also written as ``data-cx`` and ``data-cy``, the same for every shape.
    """
    centre = f'data-cx="{x:.1f}" data-cy="{y:.1f}"'
    if side == 0:
        return f'<circle {attributes} {centre} cx="{x:.1f}" cy="{y:.1f}" r="{PEG_R}"/>'
    if side == 1:
        half = PEG_R * 0.9
        return (
            f'<rect {attributes} {centre} x="{x - half:.1f}" y="{y - half:.1f}" '
            f'width="{2 * half:.1f}" height="{2 * half:.1f}"/>'
        )
    r = PEG_R * 1.3  # an upright triangle whose centroid is the centre
    points = ((x, y - r), (x + r * 0.866, y + r / 2), (x - r * 0.866, y + r / 2))
    return f'<polygon {attributes} {centre} points="{" ".join(f"{px:.1f},{py:.1f}" for px, py in points)}"/>'


def _text(x: float, y: float, anchor: str, body: str, cls: str = "", extra: str = "") -> str:
    attribute = f' class="{cls}"' if cls else ""
    return (
        f'<text{attribute}{extra} x="{x:.1f}" y="{y + FONT * 0.35:.1f}" font-size="{FONT}" '
        f'font-family="sans-serif" text-anchor="{anchor}" fill="{INK}">{body}</text>'
    )


def _hole_numbers(tracks: int, target: int) -> list[str]:
    """Numbers beside the streets at holes 1, 5, 10, ... 30 (left) and 31, 35, ... 60 (right).

    On a 121 board each also names the same hole on the second lap, lighter: "31 · 91".
    """
    left = _street_x(0, tracks) - HOLE_R - 9
    right = _street_x(2 * tracks - 1, tracks) + HOLE_R + 9
    parts = []
    for hole in (1, *range(GROUP, LAP + 1, GROUP)):
        if hole == STREET + GROUP:
            parts.append(_number(STREET + 1, right, "start", target))
        up = hole <= STREET
        parts.append(_number(hole, left if up else right, "end" if up else "start", target))
    return parts


def _number(hole: int, x: float, anchor: str, target: int) -> str:
    y = _hole_y(hole)
    laps = [hole] if target <= LAP + 1 else [hole, hole + LAP]
    body = f'<tspan font-weight="bold">{hole}</tspan>'
    if len(laps) > 1:
        body += f'<tspan fill="{INK_LAP2}"> · {hole + LAP}</tspan>'
    extra = f' data-hole="{hole}" data-laps="{" ".join(map(str, laps))}"'
    return _text(x, y, anchor, body, "hole-number", extra)


def _loop(track: int, tracks: int, colour: str) -> str:
    """A band in the track's colour: from its start holes up, across the top, down, and on to the game hole."""
    x_up, bottom = _start_xy(track, tracks, 1)
    x_down, end = hole_xy(track, tracks, LAP)
    top = TOP - (tracks - track) * LOOP
    gx, gy = _game_xy(tracks)
    return (
        f'<path d="M{x_up:.1f},{bottom:.1f} V{top:.1f} H{x_down:.1f} V{end:.1f} L{gx:.1f},{gy:.1f}" fill="none" '
        f'stroke="{colour}" stroke-opacity="0.35" stroke-width="{2 * HOLE_R + 4:.1f}" stroke-linejoin="round" '
        'stroke-linecap="round"/>'
    )


def board_svg(
    pegs: Mapping[str, PegPair],
    target: int = 121,
    colours: Sequence[str] = COLOURS,
    title: str | None = None,
) -> str:
    """The board with the pegs of two or three sides (name -> ``PegPair``), as an SVG string.

    ``board_svg(game.pegs(), game.target)`` draws a game in progress.
    """
    sides = list(pegs)
    tracks = len(sides)
    if not 2 <= tracks <= 3:
        raise ValueError(f"A board has two or three tracks; got {tracks} sides.")
    if target not in (61, 121):
        raise ValueError(f"A board is played to 121 or 61, not {target}.")
    if len(colours) < tracks:
        raise ValueError(f"Give a colour for each of the {tracks} sides.")
    board_height = _start_xy(0, tracks, 1)[1] + PITCH
    height = board_height + 10 + LEGEND_ROW * tracks
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
        f'viewBox="0 0 {WIDTH} {height:.0f}" role="img" aria-label={quoteattr(title or "Cribbage board")}>',
        f'<rect class="board" x="2" y="2" width="{WIDTH - 4}" height="{board_height:.0f}" rx="12" '
        f'fill="{WOOD}" stroke="{WOOD_EDGE}" stroke-width="2"/>',
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.extend(_loop(track, tracks, colours[track]) for track in range(tracks))
    for track in range(tracks):
        colour = colours[track]
        for hole in range(1, LAP + 1):
            x, y = hole_xy(track, tracks, hole)
            parts.append(
                f'<circle class="hole" data-track="{track}" data-hole="{hole}" cx="{x:.1f}" cy="{y:.1f}" '
                f'r="{HOLE_R}" fill="{HOLE_FILL}" stroke="{colour}" stroke-width="1.2"/>'
            )
        for peg in (0, 1):
            x, y = _start_xy(track, tracks, peg)
            parts.append(
                f'<circle class="start" data-track="{track}" cx="{x:.1f}" cy="{y:.1f}" r="{HOLE_R}" '
                f'fill="{HOLE_FILL}" stroke="{colour}" stroke-width="1.2"/>'
            )
    gx, gy = _game_xy(tracks)
    parts.append(f'<circle class="game-hole" cx="{gx:.1f}" cy="{gy:.1f}" r="{GAME_R}" fill="{HOLE_FILL}"/>')
    parts.extend(_hole_numbers(tracks, target))
    start_x, start_y = _start_xy(0, tracks, 0)
    parts.append(_text(start_x - HOLE_R - 9, start_y + PITCH / 2, "end", "start"))
    game_x = _street_x(2 * tracks - 1, tracks) + HOLE_R + 9
    parts.append(_text(game_x, gy - FONT / 2 - 1, "start", "game"))
    parts.append(_text(game_x, gy + FONT / 2 + 1, "start", f'<tspan font-weight="bold">{target}</tspan>'))
    for track, side in enumerate(sides):
        pair = pegs[side]
        paint = f'fill="{colours[track]}" stroke="#111" stroke-width="1"'
        for peg, (position, kind, opacity) in enumerate(((pair.back, "back", 0.5), (pair.front, "front", 1.0))):
            x, y = peg_xy(track, tracks, position, target, 1 - peg)
            attributes = (
                f'class="peg" data-side={quoteattr(side)} data-peg="{kind}" data-position="{position}" '
                f'{paint} fill-opacity="{opacity}"'
            )
            parts.append(peg_shape(track, x, y, attributes))
        y = board_height + 10 + LEGEND_ROW * track + LEGEND_ROW / 2
        parts.append(peg_shape(track, 20, y, f'class="legend-peg" data-side={quoteattr(side)} {paint}'))
        parts.append(
            f'<text class="legend" x="36" y="{y + 5.5:.1f}" font-size="16" font-family="sans-serif" '
            f'fill="#222">{escape(side)}: {min(pair.front, target)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)

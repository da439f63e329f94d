"""A cribbage board drawn as SVG: the common 121-hole layout with each side's two pegs.

Each side has a track of 60 holes in groups of five: 30 out along the top, 30 back along the bottom,
so the tracks nest as loops. A 121 game goes round twice (hole 61 is hole 1 again), a 61 game once;
the game hole sits at the left between the start holes.

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
PITCH = 13  # distance between holes in a group
GROUP_GAP = 9  # extra space between groups
ROW = 16  # distance between streets
LEFT = 52  # room for the start and game holes
MARGIN = 14


def hole_xy(track: int, tracks: int, hole: int) -> tuple[float, float]:
    """Centre of ``hole`` (1 to 120) on ``track`` (0 outermost) of a board with ``tracks`` tracks."""
    if not 1 <= hole <= 2 * LAP:
        raise ValueError(f"Board holes are numbered 1 to {2 * LAP}, not {hole}.")
    place = (hole - 1) % LAP  # 0..59 round the loop
    out = place < STREET
    column = place if out else LAP - 1 - place
    x = MARGIN + LEFT + column * PITCH + (column // GROUP) * GROUP_GAP
    row = track if out else 2 * tracks - 1 - track
    y = MARGIN + row * ROW + (ROW if not out else 0)
    return x, y


def _start_xy(track: int, tracks: int, peg: int) -> tuple[float, float]:
    """The two start holes of a track, left of its first hole."""
    x, y = hole_xy(track, tracks, 1)
    return x - 2 * PITCH - peg * PITCH, y


def _game_xy(tracks: int) -> tuple[float, float]:
    top = hole_xy(tracks - 1, tracks, 1)[1]
    bottom = hole_xy(tracks - 1, tracks, LAP)[1]
    return MARGIN + 10, (top + bottom) / 2


def peg_xy(track: int, tracks: int, position: int, target: int, peg: int) -> tuple[float, float]:
    """Where a peg at ``position`` stands: start hole (0), the track, or the game hole (``target``)."""
    if position <= 0:
        return _start_xy(track, tracks, peg)
    if position >= target:
        return _game_xy(tracks)
    return hole_xy(track, tracks, position)


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
    right = hole_xy(0, tracks, STREET)[0] + MARGIN
    board_height = MARGIN + (2 * tracks) * ROW + ROW
    height = board_height + 22 + 18 * tracks
    width = right + MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label={quoteattr(title or "Cribbage board")}>',
        f'<rect class="board" x="2" y="2" width="{width - 4:.0f}" height="{board_height:.0f}" rx="10" '
        'fill="#c8955c" stroke="#7a4e24" stroke-width="2"/>',
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for track in range(tracks):
        colour = colours[track]
        for hole in range(1, LAP + 1):
            x, y = hole_xy(track, tracks, hole)
            parts.append(
                f'<circle class="hole" data-track="{track}" data-hole="{hole}" cx="{x:.1f}" cy="{y:.1f}" '
                f'r="2.6" fill="#3b2412" stroke="{colour}" stroke-width="0.6"/>'
            )
        for peg in (0, 1):
            x, y = _start_xy(track, tracks, peg)
            parts.append(
                f'<circle class="start" data-track="{track}" cx="{x:.1f}" cy="{y:.1f}" r="2.6" fill="#3b2412"/>'
            )
    gx, gy = _game_xy(tracks)
    parts.append(f'<circle class="game-hole" cx="{gx:.1f}" cy="{gy:.1f}" r="4" fill="#3b2412"/>')
    for column in range(0, STREET + 1, GROUP * 2):
        label_hole = max(column, 1) if column < STREET else STREET
        x, _ = hole_xy(0, tracks, label_hole)
        parts.append(
            f'<text x="{x:.1f}" y="{MARGIN - 4}" font-size="7" text-anchor="middle" fill="#4a2e14">{label_hole}</text>'
        )
    legend_y = board_height + 18
    for track, side in enumerate(sides):
        pair = pegs[side]
        colour = colours[track]
        for peg, (position, kind, opacity) in enumerate(((pair.back, "back", 0.55), (pair.front, "front", 1.0))):
            x, y = peg_xy(track, tracks, position, target, 1 - peg)
            parts.append(
                f'<circle class="peg" data-side={quoteattr(side)} data-peg="{kind}" data-position="{position}" '
                f'cx="{x:.1f}" cy="{y:.1f}" r="4.2" fill="{colour}" fill-opacity="{opacity}" '
                'stroke="#111" stroke-width="0.8"/>'
            )
        y = legend_y + 18 * track
        parts.append(f'<circle cx="{MARGIN + 6}" cy="{y - 4}" r="5" fill="{colour}"/>')
        parts.append(
            f'<text class="legend" x="{MARGIN + 16}" y="{y}" font-size="13" font-family="sans-serif" '
            f'fill="#222">{escape(side)}: {min(pair.front, target)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts)

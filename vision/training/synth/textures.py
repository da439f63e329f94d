"""Procedural table surfaces, clutter, card backs and skin, all float32 RGB 0-255 (or RGBA sprites).

>>> background(np.random.default_rng(0), 64).shape
(64, 64, 3)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.training.synth.compose import premultiply


def value_noise(rng: np.random.Generator, size: int, cells: int, octaves: int = 3) -> np.ndarray:
    """Smooth noise in [0, 1] (size x size): random grids, enlarged and blurred so no grid lines show."""
    out = np.zeros((size, size), np.float32)
    weight, total = 1.0, 0.0
    for o in range(octaves):
        n = max(2, cells * (2**o))
        m = min(size, 8 * n)
        grid = cv2.resize(rng.random((n, n), dtype=np.float32), (m, m), interpolation=cv2.INTER_LINEAR)
        grid = cv2.GaussianBlur(grid, (0, 0), m / n * 0.6, borderType=cv2.BORDER_REFLECT)
        out += weight * cv2.resize(grid, (size, size), interpolation=cv2.INTER_LINEAR)
        total += weight
        weight *= 0.5
    out /= total
    lo, hi = float(out.min()), float(out.max())
    return (out - lo) / max(hi - lo, 1e-6)


def _colour(rng: np.random.Generator, base: tuple[float, float, float], spread: float) -> np.ndarray:
    return np.clip(np.array(base, np.float32) + rng.normal(0, spread, 3), 0, 255).astype(np.float32)


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Per-pixel blend from colour ``a`` (t = 0) to colour ``b`` (t = 1)."""
    t = t.astype(np.float32)
    return cv2.merge([a[k] + (b[k] - a[k]) * t for k in range(3)])


def wood(rng: np.random.Generator, size: int) -> np.ndarray:
    """Wood grain: wavy stripes along one direction, fine fibres, sometimes plank seams."""
    n = max(4, size // 8)
    stretch = value_noise(rng, n, 3, 2)  # smooth in both directions, later stretched along the grain
    yy = np.mgrid[0:n, 0:n][0].astype(np.float32) / n
    phase = yy * rng.uniform(6, 25) + stretch * rng.uniform(1, 4)
    rings = (np.sin(phase * 2 * np.pi) * 0.5 + 0.5) ** rng.uniform(1, 3)
    rings = cv2.resize(rings.astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    fibres = cv2.resize(rng.random((size, max(2, size // 40)), dtype=np.float32), (size, size))
    t = np.clip(0.65 * rings + 0.35 * fibres, 0, 1)
    light = _colour(rng, rng.choice([(200, 150, 100), (170, 110, 60), (225, 190, 140), (120, 75, 45)]), 20)
    dark = light * rng.uniform(0.5, 0.8)
    img = _mix(light, dark, t)
    if rng.random() < 0.4:  # plank seams
        k = int(rng.integers(2, 6))
        for i in range(1, k):
            y = int(i * size / k + rng.normal(0, 5))
            img[max(y - 1, 0) : y + 1] *= 0.55
    m = cv2.getRotationMatrix2D((size / 2, size / 2), rng.uniform(0, 180), rng.uniform(1.45, 2.0))
    return cv2.warpAffine(img, m, (size, size), borderMode=cv2.BORDER_REFLECT)


def felt(rng: np.random.Generator, size: int) -> np.ndarray:
    base = _colour(rng, rng.choice([(30, 110, 60), (20, 70, 40), (120, 30, 35), (30, 50, 110), (60, 60, 65)]), 12)
    n = value_noise(rng, size, 8, 3) * 0.25 + rng.normal(1, 0.06, (size, size)).astype(np.float32) * 0.75
    return base[None, None, :] * n[..., None]


def cloth(rng: np.random.Generator, size: int) -> np.ndarray:
    """Woven cloth, a checked or striped tablecloth, or a printed pattern."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    a = _colour(rng, _muted(rng), 10)
    b = _colour(rng, _muted(rng), 10)
    kind = rng.integers(4)
    period = rng.uniform(8, 60)
    if kind == 0:  # gingham
        t = 0.5 * ((np.sin(xx * np.pi / period) > 0).astype(np.float32) + (np.sin(yy * np.pi / period) > 0))
    elif kind == 1:  # stripes
        t = (np.sin((xx + yy * rng.uniform(-1, 1)) * np.pi / period) > rng.uniform(-0.5, 0.5)).astype(np.float32)
    elif kind == 2:  # dots
        t = ((np.sin(xx * np.pi / period) * np.sin(yy * np.pi / period)) > 0.7).astype(np.float32)
    else:  # plain weave
        t = (np.sin(xx * 2.1) * np.sin(yy * 2.1)) * 0.25 + 0.5
    img = _mix(a, b, cv2.GaussianBlur(t, (0, 0), 0.8))
    img *= (0.85 + 0.3 * value_noise(rng, size, 4, 2))[..., None]  # folds
    m = cv2.getRotationMatrix2D((size / 2, size / 2), rng.uniform(0, 180), 1.45)
    return cv2.warpAffine(img, m, (size, size), borderMode=cv2.BORDER_REFLECT)


def stone(rng: np.random.Generator, size: int) -> np.ndarray:
    """Granite (speckles at a few scales) or marble (soft turbulent veins)."""
    grey = rng.uniform(60, 230)
    a = _colour(rng, (grey, grey, grey), 12)
    b = a * rng.uniform(0.45, 0.85)
    if rng.random() < 0.5:
        t = 0.5 * value_noise(rng, size, 5, 3) + 0.5 * cv2.GaussianBlur(
            rng.random((size, size), dtype=np.float32), (0, 0), 1.2
        )
        t = np.clip((t - 0.5) * 3 + 0.5, 0, 1)
    else:
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
        phase = (xx + 0.6 * yy) * rng.uniform(3, 8) + value_noise(rng, size, 3, 4) * rng.uniform(2, 5)
        t = np.abs(np.sin(phase * np.pi)) ** rng.uniform(0.15, 0.4)
        t = 1 - t * (0.6 + 0.4 * value_noise(rng, size, 6, 2))
    return _mix(a, b, t)


def cork(rng: np.random.Generator, size: int) -> np.ndarray:
    """A cork board or mat: tan granules of a few sizes."""
    a = _colour(rng, (200, 150, 100), 15)
    b = a * rng.uniform(0.6, 0.8)
    fine = cv2.GaussianBlur(rng.random((size, size), dtype=np.float32), (0, 0), rng.uniform(0.6, 1.2))
    coarse = value_noise(rng, size, int(size / rng.uniform(6, 12)), 1)
    t = np.clip((0.75 * fine + 0.25 * coarse - 0.5) * 5 + 0.5, 0, 1)
    specks = cv2.GaussianBlur((rng.random((size, size)) < 0.01).astype(np.float32), (0, 0), 0.8) * 2.5
    return _mix(a, b, np.clip(t + specks, 0, 1.6))


def paper(rng: np.random.Generator, size: int) -> np.ndarray:
    base = _colour(rng, (235, 230, 215), 15)
    n = 1 + 0.04 * (value_noise(rng, size, 20, 2) - 0.5)
    return base[None, None, :] * n[..., None]


def _muted(rng: np.random.Generator) -> tuple[float, ...]:
    """A household colour: a random hue, mostly well short of neon."""
    colour = rng.uniform(20, 250, 3)
    grey = colour.mean()
    return tuple(grey + (colour - grey) * rng.uniform(0.15, 0.9))


def plain(rng: np.random.Generator, size: int) -> np.ndarray:
    """A painted or laminated table top, lit a little unevenly."""
    base = _colour(rng, _muted(rng), 5)
    return base[None, None, :] * (0.92 + 0.16 * value_noise(rng, size, 2, 2))[..., None]


def poster(rng: np.random.Generator, size: int) -> np.ndarray:
    """Printed matter under the cards (a box, a magazine, a placemat): bold colour shapes and gradients."""
    img = _mix(
        _colour(rng, tuple(rng.uniform(0, 255, 3)), 5),
        _colour(rng, tuple(rng.uniform(0, 255, 3)), 5),
        value_noise(rng, size, 2, 1),
    )
    for _ in range(int(rng.integers(3, 9))):
        colour = rng.uniform(0, 255, 3).tolist()
        c = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
        axes = (int(rng.uniform(0.05, 0.5) * size), int(rng.uniform(0.02, 0.3) * size))
        if rng.random() < 0.5:
            cv2.ellipse(img, c, axes, rng.uniform(0, 180), 0, 360, colour, -1, cv2.LINE_AA)
        else:
            box = cv2.boxPoints((c, (axes[0] * 2, axes[1] * 2), rng.uniform(0, 180))).astype(np.int32)
            cv2.fillPoly(img, [box], colour, cv2.LINE_AA)
    return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 6))


SURFACES = {
    "wood": wood,
    "felt": felt,
    "cloth": cloth,
    "stone": stone,
    "cork": cork,
    "paper": paper,
    "plain": plain,
    "poster": poster,
}
_SURFACE_WEIGHTS = {
    "wood": 0.28,
    "felt": 0.13,
    "cloth": 0.18,
    "stone": 0.11,
    "cork": 0.08,
    "paper": 0.07,
    "plain": 0.15,
}


def background(rng: np.random.Generator, size: int) -> np.ndarray:
    """A random table surface, size x size float32 RGB (often made at half size: grain that fine is lost
    anyway when a phone photo is scaled down)."""
    names = list(_SURFACE_WEIGHTS)
    p = np.array([_SURFACE_WEIGHTS[n] for n in names])
    name = names[rng.choice(len(names), p=p / p.sum())]
    made = size // 2 if rng.random() < 0.7 else size
    img = np.clip(SURFACES[name](rng, made), 0, 255).astype(np.float32)
    return img if made == size else cv2.resize(img, (size, size), interpolation=cv2.INTER_LINEAR)


def draw_board(rng: np.random.Generator, img: np.ndarray, centre: tuple[float, float], length: float) -> None:
    """A cribbage board (a long wooden slab with rows of holes and a few pegs), drawn in place."""
    w, h = length, length * rng.uniform(0.18, 0.3)
    angle = rng.uniform(0, 180)
    rect = cv2.boxPoints((centre, (w, h), angle)).astype(np.int32)
    colour = _colour(rng, rng.choice([(150, 100, 60), (190, 150, 100), (90, 60, 40), (40, 40, 40)]), 15)
    cv2.fillPoly(img, [rect], colour.tolist(), cv2.LINE_AA)
    cv2.polylines(img, [rect], True, (colour * 0.6).tolist(), max(1, int(length / 150)), cv2.LINE_AA)
    rows = int(rng.integers(2, 4))
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    hole_r = max(1, int(h / 25))
    for r in range(rows):
        off = (r + 1) / (rows + 1) - 0.5
        for i in range(30):
            u = (i + 0.5) / 30 - 0.5
            if i % 5 == 0 and i:
                continue
            px = centre[0] + c * u * w * 0.92 - s * off * h
            py = centre[1] + s * u * w * 0.92 + c * off * h
            cv2.circle(img, (int(px), int(py)), hole_r, (colour * 0.3).tolist(), -1, cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 4))):
        u, off = rng.uniform(-0.45, 0.45), rng.uniform(-0.4, 0.4)
        px, py = centre[0] + c * u * w - s * off * h, centre[1] + s * u * w + c * off * h
        peg = rng.choice([(200, 30, 30), (30, 60, 200), (30, 160, 60), (220, 200, 40), (230, 230, 230)])
        cv2.circle(img, (int(px), int(py)), hole_r * 2 + 1, peg.tolist(), -1, cv2.LINE_AA)


def draw_cup(rng: np.random.Generator, img: np.ndarray, centre: tuple[float, float], radius: float) -> None:
    """A mug or glass seen from above: rim, inside and a drink."""
    body = _colour(rng, tuple(rng.uniform(40, 250, 3)), 10)
    c = (int(centre[0]), int(centre[1]))
    cv2.circle(img, c, int(radius), (body * 0.8).tolist(), -1, cv2.LINE_AA)
    cv2.circle(img, c, int(radius * 0.88), body.tolist(), -1, cv2.LINE_AA)
    drink = rng.choice([(60, 35, 20), (150, 90, 40), (200, 190, 150), (230, 230, 230)])
    cv2.circle(img, c, int(radius * 0.78), np.asarray(drink, float).tolist(), -1, cv2.LINE_AA)
    if rng.random() < 0.3:  # a reflection on the drink
        axes = (int(radius * 0.5), int(radius * 0.2))
        cv2.ellipse(img, c, axes, rng.uniform(0, 180), 0, 360, (255, 255, 255), -1, cv2.LINE_AA)


def draw_phone(rng: np.random.Generator, img: np.ndarray, centre: tuple[float, float], length: float) -> None:
    """A phone lying on the table: a dark rounded slab with a glassy screen."""
    angle = rng.uniform(0, 180)
    body = cv2.boxPoints((centre, (length, length * 0.48), angle)).astype(np.int32)
    shell = rng.choice([(20, 20, 22), (200, 200, 205), (60, 70, 90), (150, 40, 40)])
    cv2.fillPoly(img, [body], shell.tolist(), cv2.LINE_AA)
    screen = cv2.boxPoints((centre, (length * 0.9, length * 0.42), angle)).astype(np.int32)
    glass = np.asarray(rng.choice([(10, 10, 14), (30, 40, 60), (70, 90, 120)]), np.float64) + rng.uniform(0, 30)
    cv2.fillPoly(img, [screen], glass.tolist(), cv2.LINE_AA)


def draw_score_pad(rng: np.random.Generator, img: np.ndarray, centre: tuple[float, float], size: float) -> None:
    """A score pad or note with handwritten numbers and letters (digits that are not card indices)."""
    w, h = size * rng.uniform(0.6, 0.9), size
    angle = rng.uniform(0, 360)
    paper_col = rng.choice([(245, 245, 240), (250, 240, 170), (235, 235, 225)])
    page = np.zeros((int(h), int(w), 3), np.uint8) + np.asarray(paper_col, np.uint8)
    ink = rng.choice([(30, 30, 120), (20, 20, 20), (150, 20, 20)]).tolist()
    rows = int(rng.integers(4, 10))
    line_h = h / (rows + 1)
    font = int(rng.choice([cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN]))
    words = ("15", "2", "31", "go", "His nobs", "A", "K", "Q", "J", "10", "7", "29", "121", "skunk", "crib", "8")
    for r in range(1, rows + 1):
        y = int(r * line_h)
        cv2.line(page, (0, y), (int(w), y), (190, 200, 220), 1)
        text = " ".join(words[int(k)] for k in rng.integers(0, len(words), int(rng.integers(1, 4))))
        cv2.putText(page, text, (int(w * 0.08), y - 3), font, line_h / 30, ink, max(1, int(line_h / 14)), cv2.LINE_AA)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)  # turn the page about its centre ...
    m[:, 2] += np.array(centre) - (w / 2, h / 2)  # ... and move it into place
    mask = cv2.warpAffine(np.ones(page.shape[:2], np.float32), m, img.shape[1::-1])
    warped = cv2.warpAffine(page.astype(np.float32), m, img.shape[1::-1])
    img *= (1 - mask)[..., None]
    img += warped


def draw_small_things(rng: np.random.Generator, img: np.ndarray, scale: float) -> None:
    """Coins, pegs and pencils scattered on the surface."""
    size = img.shape[0]
    for _ in range(int(rng.integers(0, 6))):
        x, y = rng.uniform(0, size, 2)
        kind = rng.integers(3)
        if kind == 0:
            col = rng.choice([(200, 170, 90), (190, 190, 195), (170, 110, 70)])
            cv2.circle(img, (int(x), int(y)), max(2, int(scale * rng.uniform(0.08, 0.14))), col.tolist(), -1)
        elif kind == 1:
            col = rng.choice([(200, 30, 30), (30, 60, 200), (30, 160, 60), (220, 200, 40)])
            cv2.circle(img, (int(x), int(y)), max(1, int(scale * 0.03)), col.tolist(), -1, cv2.LINE_AA)
        else:
            a = rng.uniform(0, np.pi)
            d = scale * rng.uniform(0.5, 1.2)
            p2 = (int(x + np.cos(a) * d), int(y + np.sin(a) * d))
            col = _colour(rng, tuple(rng.uniform(30, 240, 3)), 5)
            cv2.line(img, (int(x), int(y)), p2, col.tolist(), max(2, int(scale * 0.06)), cv2.LINE_AA)


def procedural_back(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """A card back (RGBA uint8, rounded corners): white border around a coloured pattern."""
    from vision.training.synth.testdeck import rounded_alpha

    colour = rng.choice([(180, 30, 40), (30, 50, 150), (20, 100, 60), (40, 40, 40), (120, 40, 120)])
    img = np.full((height, width, 3), 245, np.uint8)
    border = int(width * rng.uniform(0.04, 0.09))
    inner = np.zeros((height - 2 * border, width - 2 * border, 3), np.uint8)
    inner[:] = colour
    yy, xx = np.mgrid[0 : inner.shape[0], 0 : inner.shape[1]]
    period = rng.uniform(6, 16)
    lines = (np.sin((xx + yy) / period) > 0.6) | (np.sin((xx - yy) / period) > 0.6)
    inner[lines] = np.clip(np.array(colour) + 70, 0, 255)
    img[border : height - border, border : width - border] = inner
    return premultiply(np.dstack([img, rounded_alpha(width, height, max(4, width // 14))]))


SKIN_TONES = ((255, 220, 190), (240, 195, 160), (225, 170, 130), (195, 140, 100), (150, 100, 70), (100, 65, 45))


def skin_tone(rng: np.random.Generator) -> np.ndarray:
    """An RGB skin colour (float32)."""
    return _colour(rng, SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], 10)


def palm_sprite(rng: np.random.Generator, tone: np.ndarray, width: int = 240, height: int = 100) -> np.ndarray:
    """A hand seen from the side of its palm (RGBA premultiplied): a wrist on the left widening to a
    rounded palm on the right, shaded across like a cylinder."""
    alpha = np.zeros((height, width), np.uint8)
    palm_r = height // 2 - 2
    wrist = int(height * rng.uniform(0.28, 0.38))
    cx = width - palm_r - 2
    pts = np.array([[0, height // 2 - wrist], [cx, 2], [cx, height - 3], [0, height // 2 + wrist]], np.int32)
    cv2.fillPoly(alpha, [pts], 255, cv2.LINE_AA)
    cv2.ellipse(alpha, (cx, height // 2), (palm_r, palm_r), 0, 0, 360, 255, -1, cv2.LINE_AA)
    across = np.linspace(-1, 1, height, dtype=np.float32)
    shade = 0.72 + 0.35 * np.sqrt(np.clip(1 - across**2, 0, 1)) - 0.06 * across
    img = tone[None, None, :] * shade[:, None, None] * np.ones((1, width, 1), np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return premultiply(np.dstack([img, alpha]))


def finger_sprite(rng: np.random.Generator, tone: np.ndarray, width: int = 192, height: int = 64) -> np.ndarray:
    """A thumb or finger pointing right (RGBA premultiplied): tapered, rounded, shaded, with a nail and creases."""
    alpha = np.zeros((height, width), np.uint8)
    r_base, r_tip = height / 2 - 1, height / 2 * rng.uniform(0.7, 0.9)
    tip_x = width - r_tip - 1
    top = [(0, height / 2 - r_base), (tip_x, height / 2 - r_tip)]
    bottom = [(tip_x, height / 2 + r_tip), (0, height / 2 + r_base)]
    cv2.fillPoly(alpha, [np.array(top + bottom, np.int32)], 255, cv2.LINE_AA)
    cv2.circle(alpha, (int(tip_x), height // 2), int(r_tip), 255, -1, cv2.LINE_AA)
    across = np.linspace(-1, 1, height, dtype=np.float32)
    shade = 0.7 + 0.4 * np.sqrt(np.clip(1 - across**2, 0, 1)) - 0.08 * across  # lit from above
    along = np.linspace(0.9, 1.05, width, dtype=np.float32)
    img = tone[None, None, :] * (shade[:, None] * along[None, :])[..., None]
    for k in (0.35, 0.6):  # knuckle creases
        x = int(tip_x * k + rng.normal(0, 3))
        cv2.ellipse(img, (x, height // 2), (3, int(r_base * 0.7)), 0, 0, 360, (tone * 0.75).tolist(), 1, cv2.LINE_AA)
    if rng.random() < 0.8:  # nail
        nail = (int(tip_x - r_tip * 0.2), height // 2 - int(r_tip * 0.1))
        colour = np.clip(tone * np.float32([1.05, 0.95, 0.95]) + 25, 0, 255)
        cv2.ellipse(img, nail, (int(r_tip * 0.9), int(r_tip * 0.6)), 0, 0, 360, colour.tolist(), -1, cv2.LINE_AA)
        cv2.ellipse(img, nail, (int(r_tip * 0.9), int(r_tip * 0.6)), 0, 0, 360, (tone * 0.8).tolist(), 1, cv2.LINE_AA)
    img = np.clip(img, 0, 255).astype(np.uint8)
    return premultiply(np.dstack([img, alpha]))

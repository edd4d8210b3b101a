"""Pure rule arithmetic of 魂陆: pips, rounding in halves, damage changes, 行动力, range squares,
flying-object paths and knockback sectors. No state, no dice: every function is a formula of the
seed, quoted where it is defined."""

from __future__ import annotations

import math

from gm_tool.core.grid import Cell

# l.41: 「15%，35%，50%，65%，85%，100%分别对应点数1-6」
PCT_PIPS = {0: 0, 15: 1, 35: 2, 50: 3, 65: 4, 85: 5, 100: 6}
PIPS_PCT = {v: k for k, v in PCT_PIPS.items()}
ATTRS = ("crit", "weakness", "dodge", "hit", "defence", "resist")
LINE_ELEMENTS = ("风", "火", "山")          # l.26: 风，火，山系魂将无法打击不与自己在同一条直线的目标
HALF_ATTACK_ELEMENTS = ("林", "山")         # l.63: 林，山系魂将的普攻伤害降低50%
ELEMENTS = ("风", "林", "火", "山", "雷")
DIRECTIONS: dict[str, Cell] = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def pips(pct: int) -> int:
    """A percentage as pips, signed (-85 -> -5)."""
    return PCT_PIPS[abs(pct)] * (1 if pct >= 0 else -1)


def clamp_pips(n: int) -> int:
    return 0 if n < 0 else 6 if n > 6 else n


def low_faces(n: int, face: int) -> bool:
    """Crit, dodge, hit, defence, 元抗 and chances trigger on faces 1..n (l.43)."""
    return face <= n


def high_faces(n: int, face: int) -> bool:
    """Weakness triggers on faces 7-n..6: 「弱点点数从6-1开始计算」 (l.41, l.44)."""
    return n > 0 and face >= 7 - n


def floor_half(x: float) -> float:
    """向下取整 (l.118): 3.1-3.4 -> 3, 3.6-3.9 -> 3.5."""
    return math.floor(x * 2 + 1e-9) / 2


def ceil_half(x: float) -> float:
    """向上取整 (l.117): 3.1-3.4 -> 3.5, 3.6-3.9 -> 4."""
    return math.ceil(x * 2 - 1e-9) / 2


def num(x: float) -> float | int:
    """A half-point value as JSON: 3.0 -> 3, 3.5 -> 3.5."""
    x = floor_half(x) if abs(x * 2 - round(x * 2)) > 1e-9 else round(x * 2) / 2
    return int(x) if x == int(x) else x


def change_damage(amount: float, increase: int, decrease: int) -> float:
    """l.140-144: only the strongest increase and the strongest decrease count; the integer part
    is changed and the fraction added back (1.5 +50 % -> 2; 0.5 unchanged), rounded down to a half."""
    whole = math.floor(amount + 1e-9)
    frac = amount - whole
    changed = whole * (100 + increase) / 100 * (100 - decrease) / 100
    return floor_half(changed) + frac if changed else frac


def resist_halve(amount: float) -> float:
    """l.40: 元抗 halves; an original damage of at most 0.5 becomes 0. Halves round up (ruling R13)."""
    if amount <= 0.5:
        return 0
    return ceil_half(amount / 2)


def effective_move(base: int, flats: list[int], pcts: list[int], caps: list[int]) -> int:
    """l.134-139: increases first, then the strongest % cut, then the strongest flat cut, then
    caps (至多); never below 0. A whole attribute rounds down (ruling R14)."""
    value = base + sum(f for f in flats if f > 0)
    cut_pct = max([p for p in pcts if p > 0], default=0)
    cut_flat = max([-f for f in flats if f < 0], default=0)
    value = math.floor(value * (100 - cut_pct) / 100 + 1e-9) - cut_flat
    for cap in caps:
        value = min(value, cap)
    return max(0, value)


def in_square(a: Cell, b: Cell, r: int) -> bool:
    """l.25-27: range r is the square of side 2r+1 centred on the general, border included."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= r


def same_line(a: Cell, b: Cell) -> bool:
    return a[0] == b[0] or a[1] == b[1]


def between(a: Cell, b: Cell) -> list[Cell]:
    """Grid points strictly inside the segment a-b (none when dx and dy are coprime)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    g = math.gcd(abs(dx), abs(dy))
    if g <= 1:
        return []
    sx, sy = dx // g, dy // g
    return [(a[0] + k * sx, a[1] + k * sy) for k in range(1, g)]


def push_direction(source: Cell, target: Cell) -> Cell:
    """l.94-101: away from the source; vertical when |dy| >= |dx| (diagonals go up/down), else
    horizontal. Row 1 is north (up = -y)."""
    dx, dy = target[0] - source[0], target[1] - source[1]
    if abs(dy) >= abs(dx):
        return (0, 1 if dy > 0 else -1)
    return (1 if dx > 0 else -1, 0)


def sector(source: Cell, target: Cell) -> int:
    """The seed's sector 1-8 of ``target`` seen from ``source`` (l.95-99): clockwise from north,
    1 上东北 (between north and north-east), 2 下东北, 3 上东南, 4 下东南, 5 下西南, 6 上西南,
    7 下西北, 8 上西北. Diagonals count as up/down (l.101): on the NE diagonal -> 1."""
    dx, dy = target[0] - source[0], source[1] - target[1]  # dy > 0: north
    if dx >= 0 and dy > 0:
        return 1 if dy >= dx else 2
    if dx > 0 and dy <= 0:
        return 3 if -dy < dx else 4
    if dx <= 0 and dy < 0:
        return 5 if -dy >= -dx else 6
    return 7 if dy < -dx else 8


def front_back(viewer: Cell, target: Cell) -> tuple[Cell, Cell]:
    """l.103-106: 身前 / 身后 of ``target`` seen from ``viewer``: its neighbour toward / away from the
    viewer along the knockback axis."""
    d = push_direction(viewer, target)
    return (target[0] - d[0], target[1] - d[1]), (target[0] + d[0], target[1] + d[1])

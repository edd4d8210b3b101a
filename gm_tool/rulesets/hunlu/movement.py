"""Movement (H20-H23): legs along a line, slides (knockbacks and dashes), obstacles by grade, the
天堑 a general falls into and its return at the next round start.

Plain functions taking the :class:`~gm_tool.rulesets.hunlu.engine.Game`; the game names them as
its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm_tool.core.grid import Cell, cell_name, in_bounds, parse_cell
from gm_tool.rulesets.hunlu import rules as R
from gm_tool.rulesets.hunlu.effects import kind_of
from gm_tool.rulesets.hunlu.skip import Skip

if TYPE_CHECKING:
    from gm_tool.rulesets.hunlu.engine import Game


def blocked(g: Game, c: Cell, flying: bool = False, dash: bool = False, airborne: bool = False) -> bool:
    """Is point ``c`` blocked (H21)? Units and bodies are grade I; 天堑 (III) blocks nothing."""
    grade = g.terrain.get(c)
    if grade == 4 or (grade == 2 and not airborne):
        return True
    if dash:
        return False  # dashes pass grade I
    return g.unit_at(c) is not None


def do_move(g: Game, u: dict[str, Any], legs: list[str]) -> None:
    g.pay_ap(u, len(legs))
    if g.has(u, "定身"):
        raise Skip("rooted")
    if u["legs"] + len(legs) > 2:
        raise Skip("third_leg", used=u["legs"])
    # check every leg before moving (a sheet's leg list is one action)
    c = g.at(u)
    budget = u["move"]
    plan = []
    for k, name in enumerate(legs):
        to = parse_cell(name)
        if to == c or not R.same_line(c, to):
            raise Skip("leg_not_straight", field=f"move.{k}" if len(legs) > 1 else "move", frm=cell_name(c),
                       to=name)
        d = ((to[0] > c[0]) - (to[0] < c[0]), (to[1] > c[1]) - (to[1] < c[1]))
        dist = max(abs(to[0] - c[0]), abs(to[1] - c[1]))
        if dist > budget:
            raise Skip("leg_too_far", field=f"move.{k}" if len(legs) > 1 else "move", dist=dist, left=budget)
        p = c
        fell = None
        for _ in range(dist):
            p = (p[0] + d[0], p[1] + d[1])
            grade = g.terrain.get(p)
            if grade == 3 and not g.has(u, "腾空"):
                fell = p
                break
            if g.blocked(p, airborne=g.has(u, "腾空")):
                raise Skip("leg_blocked", field=f"move.{k}" if len(legs) > 1 else "move", at=cell_name(p))
        plan.append((c, to, d, dist, fell))
        budget -= dist
        c = to
        if fell:
            break
    for frm, to, _d, dist, fell in plan:
        u["ap"] -= 1
        u["legs"] += 1
        if fell:
            steps = max(abs(fell[0] - frm[0]), abs(fell[1] - frm[1]))
            u["move"] -= steps
            g.emit("move", unit=u["id"], frm=cell_name(frm), dest=cell_name(fell), cells=steps, move=u["move"])
            g.fall(u, fell)
            return
        u["move"] -= dist
        u["pos"] = cell_name(to)
        g.emit("move", unit=u["id"], frm=cell_name(frm), dest=cell_name(to), cells=dist, move=u["move"])


def slide(g: Game, u: dict[str, Any], d: Cell, cells: int, dash: bool) -> tuple[int, dict[str, Any] | None, bool]:
    """Move ``u`` up to ``cells`` points along ``d`` (a knockback, or a dash when ``dash``: it
    passes grade I and ends on the farthest free point). Returns (points moved, the general it
    stopped against, stopped early by an obstacle or the edge). A general that crosses a
    天堑 is left on it with ``u["falling"]`` set: the caller tells the move, then ``fall``."""
    c = g.at(u)
    last_free = c
    moved = 0
    airborne = g.has(u, "腾空")
    for _ in range(cells):
        nxt = (c[0] + d[0], c[1] + d[1])
        if not in_bounds(nxt, g.width, g.height):
            u["pos"] = cell_name(last_free)
            return moved, None, True
        grade = g.terrain.get(nxt)
        occupant = g.unit_at(nxt)
        if grade == 4 or (grade == 2 and not airborne) or (occupant is not None and not dash):
            u["pos"] = cell_name(last_free)
            return moved, occupant if occupant is not None and occupant["alive"] else None, True
        c = nxt
        moved += 1
        if grade == 3 and not airborne:
            u["pos"], u["falling"] = cell_name(c), True
            return moved, None, False
        if occupant is None:
            last_free = c
    u["pos"] = cell_name(last_free)
    return moved, None, False


def landed(g: Game, u: dict[str, Any]) -> None:
    """After a slide is told: a general left on a 天堑 falls in (「立即移出战场」, l.126)."""
    if u.get("falling"):
        g.fall(u, g.at(u))


def fall(g: Game, u: dict[str, Any], c: Cell) -> None:
    """H21: onto a 天堑: removed from the field until the next round start."""
    u.pop("falling", None)
    u["chasm"] = cell_name(c)
    u["pos"] = None
    g.emit("chasm", unit=u["id"], pos=cell_name(c))


def knockback(g: Game, src_cell: Cell, tgt: dict[str, Any], spec: Any, att: dict[str, Any], extra: int = 0) -> None:
    if isinstance(spec, dict):
        cells, collide, behind = spec.get("cells", 1), spec.get("collide", 0), spec.get("push_behind", False)
    else:
        cells, collide, behind = spec, 0, False
    cells = int(cells + extra)
    tc = g.cell(tgt)
    if tc is None or not tgt["alive"] or cells <= 0:
        return
    d = R.push_direction(src_cell, tc)
    start = tgt["pos"]
    moved, blocker, early = g.slide(tgt, d, cells, dash=False)
    g.emit("knockback", unit=tgt["id"], source=att["id"], frm=start, dest=tgt["pos"], cells=moved,
              wanted=cells, direction=_dir_name(d))
    g.landed(tgt)
    if early and tgt["pos"] is not None:
        if collide:
            g.emit("collision", unit=tgt["id"], amount=collide)
            g.hurt(tgt, collide, att, "collision")
        if behind and blocker is not None:
            frm = blocker["pos"]
            bm, _, _ = g.slide(blocker, d, cells - moved, dash=False)
            g.emit("knockback", unit=blocker["id"], source=att["id"], frm=frm, dest=blocker["pos"], cells=bm,
                      wanted=cells - moved, direction=_dir_name(d))
            g.landed(blocker)


def dash(g: Game, u: dict[str, Any], e: dict[str, Any], act: dict[str, Any], tgts: list[dict[str, Any]]) -> None:
    start = u["pos"]
    kind, val = kind_of(e)
    kind.move(g, u, val, act, tgts)
    if u["pos"] != start:
        g.emit("dash", unit=u["id"], frm=start, dest=u["pos"])
    g.landed(u)


def chasm_return(g: Game, u: dict[str, Any]) -> None:
    """H21: back on a free point within range 1 of the 天堑 (standing choice, else reading
    order), with 10 % of max 精 rounded down to a half as damage."""
    ch = parse_cell(u["chasm"])
    free = [(ch[0] + dx, ch[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
    free = [c for c in free if in_bounds(c, g.width, g.height) and c not in g.terrain
            and g.unit_at(c) is None]
    if not free:
        g.emit("chasm_stuck", unit=u["id"])
        return
    pref = g.s["standing"].get(u["player"], {}).get("chasm_return", {}).get(u["id"]) or []
    pref = [pref] if isinstance(pref, str) else pref
    names = [cell_name(c) for c in sorted(free, key=lambda c: (c[1], c[0]))]
    pick = next((p for p in pref if p in names), names[0])
    u["pos"] = pick
    u["chasm"] = None
    g.emit("chasm_return", unit=u["id"], pos=pick)
    g.hurt(u, R.floor_half(u["max_jing"] / 10), None, "chasm")


def free_point(g: Game, near: Cell | None) -> str | None:
    cands = []
    if near is not None:
        cands = [(near[0] + dx, near[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
        cands.sort(key=lambda c: (c[1], c[0]))
    cands += [parse_cell(s) for s in g.s["map"]["spawns"]]
    cands += [(x, y) for y in range(g.height) for x in range(g.width)]
    for c in cands:
        if in_bounds(c, g.width, g.height) and c not in g.terrain and g.unit_at(c) is None:
            return cell_name(c)
    return None


def _dir_name(d: Cell) -> str:
    for k, v in R.DIRECTIONS.items():
        if v == d:
            return k
    return "?"

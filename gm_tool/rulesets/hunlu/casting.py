"""Casting a skill (H6, H25): its cost in 气 and 行动力 (with the 50 % overdraw), its targets by
shape, the caster's dash, then its effects per target through the table (effects.py).

Plain functions taking the :class:`~gm_tool.rulesets.hunlu.engine.Game`; the game names them as
its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm_tool.core.grid import in_bounds, parse_cell
from gm_tool.rulesets.hunlu import rules as R
from gm_tool.rulesets.hunlu.effects import kind_of
from gm_tool.rulesets.hunlu.skip import Skip

if TYPE_CHECKING:
    from gm_tool.rulesets.hunlu.engine import Game


def skill_cost(g: Game, u: dict[str, Any], sk: dict[str, Any]) -> float:
    return sk["qi"] + g.mod(u, sk["id"], "qi")


def do_skill(g: Game, u: dict[str, Any], act: dict[str, Any]) -> None:
    g.pay_ap(u, 1)
    sid = str(act.get("skill") or act.get("item"))
    item = act["kind"] == "item"
    if item:
        if sid not in u["items"]:
            raise Skip("item_unknown", field="item", item=sid, allowed=", ".join(u["items"]) or "-")
        sk = g.s["items_def"][sid]
    else:
        sk = g.skill(u, sid)
        if sk is None or sid not in [x["id"] for x in g.skills(u)]:
            raise Skip("skill_unknown", field="skill", skill=sid, allowed=", ".join(
                x["id"] for x in g.skills(u) if x["timing"] in ("active", "toggle")))
        if sk["timing"] not in ("active", "toggle"):
            raise Skip("skill_not_active", field="skill", skill=sid, timing=sk["timing"])
        if g.has(u, "沉默"):
            raise Skip("silenced", field="skill")
        if g.has(u, "蓄力"):
            raise Skip("charging", field="skill")
    if sk["timing"] == "toggle" and sid in u["toggles"]:
        u["ap"] -= 1
        u["toggles"].remove(sid)
        before = g.move_value(u)
        u["statuses"] = [st for st in u["statuses"] if st.get("skill") != sid]
        g.move_changed(u, before)
        g.emit("toggle_off", unit=u["id"], skill=sid, name=sk["name"])
        return
    g.cast(u, sk, act, first=False)
    if item:
        u["items"].remove(sid)
    g.check_victory()


def cast(g: Game, u: dict[str, Any], sk: dict[str, Any], act: dict[str, Any], first: bool) -> None:
    """Cast ``sk``: pay 气 and 行动力 (H6, with the 50 % overdraw), then its effects per target."""
    heart = any(kind.pays_on_reveal(val) for kind, val in map(kind_of, sk["effects"]))
    cost = 0 if heart else g.skill_cost(u, sk)  # 心战: 「心战技能的耗气将在展示卡牌后消耗」 (l.120)
    if u["qi"] < cost:
        raise Skip("qi_short", field="skill", need=R.num(cost), left=u["qi"])
    mc = sk["move_cost"]
    if u["move"] < mc and u["move"] * 2 < mc:
        raise Skip("move_short", field="skill", need=mc, left=u["move"])
    dashes = [e for e in sk["effects"] if kind_of(e)[0].moves_caster]
    if dashes and g.has(u, "定身"):
        raise Skip("rooted")
    tgts = g.targets(u, sk, act)
    if g.checking and not tgts and sk["shape"] != "self":
        g.warnings.append(Skip(g.why_no_target(u, sk, act), "direction" if "direction" in act else "",
                                  skill=sk["name"]))
    if not first:
        u["ap"] -= 1
    u["qi"] = R.num(u["qi"] - cost)
    overdraw = u["move"] < mc
    u["move"] = 0 if overdraw else u["move"] - mc
    if sk["timing"] == "toggle":
        u["toggles"].append(sk["id"])
    g.emit("skill", unit=u["id"], skill=sk["id"], name=sk["name"], qi=R.num(cost), qi_left=u["qi"],
              move_cost=mc, overdraw=overdraw, move=u["move"], targets=[t["id"] for t in tgts],
              direction=act.get("direction"), first=first)
    for e in dashes:
        g.dash(u, e, act, tgts)
    if u["pos"] is None:
        return  # fell into a 天堑: the rest is void (H21)
    at_once = first  # 先手 statuses count from the round they are cast in (ruling R3)
    card = act.get("card") or (g.s["standing"].get(u["player"], {}).get("heart_card") or {}).get(u["id"])
    for t in tgts:
        ctx: dict[str, Any] = {"at_once": at_once, "origin": g.cell(u), "card": card}
        judged = sk["chance"] is None
        for eff in sk["effects"]:
            kind = kind_of(eff)[0]
            if kind.moves_caster:
                continue
            if not judged and not kind.hurts:
                # H25: a skill's chance is judged per target after its strike's die (ruling R25)
                judged = True
                if not g.chance_check(u, sk["chance"], sk["name"], passive=False):
                    break
            if not g.effect(u, t, eff, sk, ctx):
                break
        if g.s["winner"] is not None:
            return


def targets(g: Game, u: dict[str, Any], sk: dict[str, Any], act: dict[str, Any]) -> list[dict[str, Any]]:
    shape = sk["shape"]
    r = g.range_of(u, sk)
    if shape == "self":
        return [u]
    if shape == "single":
        tid = act.get("target")
        if tid is None:
            raise Skip("need_target", field="target")
        t = g.target(tid)
        if not g.matches(u, t, sk["affects"]):
            raise Skip("not_affected", field="target", target=tid, affects=sk["affects"])
        why = g.reachable_target(u, t, r, flying=True) if t is not u else None
        if why:
            raise Skip(why, field="target", target=tid, range=r)
        return [t]
    if shape == "all":
        out = []
        c = g.at(u)
        for t in g.on_field():
            if t is u or not g.matches(u, t, sk["affects"]):
                continue
            tc = g.at(t)
            if R.in_square(c, tc, r) and (u["element"] not in R.LINE_ELEMENTS or R.same_line(c, tc)):
                out.append(t)
        return out
    if shape == "point":
        at = act.get("at")
        if at is None:
            raise Skip("need_at", field="at")
        p = parse_cell(at)
        if not R.in_square(g.at(u), p, r):
            raise Skip("out_of_range", field="at", target=at, range=r)
        there = g.unit_at(p)
        return [there] if there is not None and there["alive"] and g.matches(u, there, sk["affects"]) else []
    # first_in_direction and {line: N}: a flying object along the sheet's direction
    d = R.DIRECTIONS.get(act.get("direction") or "")
    if d is None:
        raise Skip("need_direction", field="direction")
    reach = shape["line"] if isinstance(shape, dict) else r
    c = g.at(u)
    for _ in range(reach):
        c = (c[0] + d[0], c[1] + d[1])
        if not in_bounds(c, g.width, g.height) or g.terrain.get(c) in (2, 4):
            return []
        met = g.unit_at(c)
        if met is not None:
            return [met] if met["alive"] and g.matches(u, met, sk["affects"]) else []
    return []


def target(g: Game, tid: str) -> dict[str, Any]:
    t = g.units.get(tid)
    if t is None:
        raise Skip("target_unknown", field="target", target=tid)
    return t


def why_no_target(g: Game, u: dict[str, Any], sk: dict[str, Any], act: dict[str, Any]) -> str:
    """Why a skill finds nobody: an ally first in its line, or nobody there at all."""
    shape, d = sk["shape"], R.DIRECTIONS.get(act.get("direction") or "")
    if d is not None and (shape == "first_in_direction" or isinstance(shape, dict)):
        c = g.at(u)
        for _ in range(shape["line"] if isinstance(shape, dict) else g.range_of(u, sk)):
            c = (c[0] + d[0], c[1] + d[1])
            if not in_bounds(c, g.width, g.height) or g.terrain.get(c) in (2, 4):
                break
            met = g.unit_at(c)
            if met is not None:
                return "no_target" if g.matches(u, met, sk["affects"]) else "ally_first"
    return "no_target"

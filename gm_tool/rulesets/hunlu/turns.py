"""Turn order and the round (H11, H15, H16): the next general able to act, a round's end and
start (substitutions, 天堑 returns, 先手 skills, 恢气), initiative and its roll-offs, deaths,
reserves and victory.

Plain functions taking the :class:`~gm_tool.rulesets.hunlu.engine.Game`; the game names them as
its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm_tool.core.grid import parse_cell
from gm_tool.rulesets.hunlu import rules as R
from gm_tool.rulesets.hunlu.skip import Skip
from gm_tool.rulesets.hunlu.statuses import CANT_ACT

if TYPE_CHECKING:
    from gm_tool.rulesets.hunlu.engine import Game


ROUND_GUARD = 20  # rounds that may pass in a row with nobody able to act before `next` is null


def advance(g: Game) -> None:
    """Everything automatic up to the next general able to act (sets ``next``)."""
    idle_rounds = 0
    while g.s["winner"] is None:
        while g.s["extra"]:
            u = g.units[g.s["extra"].pop(0)]
            if not u["alive"]:
                continue
            if g.can_act(u):
                u["ap"], u["move"], u["legs"] = 2, g.move_value(u), 0
                u["extra_turn"] = True
                g.s["next"] = {"unit": u["id"], "player": u["player"]}
                g.emit("next", unit=u["id"], extra=True)
                return
            # a general that cannot act now (stopped, asleep, 寂灭, in a 天堑) loses the turn
            # it was given; the stop of 「下回合无法行动」 still follows (ruling R5)
            g.emit("turn_skipped", unit=u["id"], reason=g.why_not(u), extra=True)
            if u.pop("stop_after_extra", False):
                g.stop_next_round(u)
        for uid in g.s["order"]:
            if uid in g.s["acted"]:
                continue
            u = g.units[uid]
            if g.can_act(u):
                g.s["next"] = {"unit": uid, "player": u["player"]}
                g.emit("next", unit=uid, extra=False)
                return
            g.s["acted"].append(uid)
            if u["alive"]:
                g.emit("turn_skipped", unit=uid, reason=g.why_not(u), extra=False)
        field = g.on_field()
        if field and all(g.has(u, "寂灭") for u in field):
            break  # nobody can ever act again: the GM amends (ruling R10)
        if idle_rounds > ROUND_GUARD:
            break
        g.end_round()
        if g.s["winner"] is not None:
            break
        g.s["round"] += 1
        g.start_round()
        idle_rounds += 1
    g.s["next"] = None


def end_turn(g: Game, u: dict[str, Any]) -> None:
    if u["id"] not in g.s["acted"]:
        g.s["acted"].append(u["id"])
    g.emit("turn_end", unit=u["id"], ap=u["ap"], move=u["move"])
    if u.pop("extra_turn", False) and u.pop("stop_after_extra", False):
        g.stop_next_round(u)


def why_not(g: Game, u: dict[str, Any]) -> str:
    """Why ``u`` cannot act: a status that stops it, 神 0, or being off the field."""
    if u["shen"] <= 0:
        return "寂灭"
    return next((n for n in CANT_ACT if g.has(u, n)), "off_field")


def stop_next_round(g: Game, u: dict[str, Any]) -> None:
    """战斗潜能's 「下回合无法行动」: stopped for the round after its extra turn (ruling R5)."""
    if u["alive"]:
        g.add_status(u, {"name": "停止行动", "rounds": 1}, u)


def start_round(g: Game) -> None:
    """H16 start: (a) substitutions, (b) 天堑 returns, (c) pending statuses, (d) points and
    行动力, (e) 天启 re-sort, (f) 先手 skills, (g) round-start effects; then 恢气."""
    r = g.s["round"]
    tianqi = r % 2 == 0
    g.emit("round_start", round=r, tianqi=tianqi)
    g.s["acted"] = []
    for u in list(g.s["units"]):
        rid = u.get("leaving") or (u.get("replaced_by") if u["role"] == "dead" else None)
        if rid and (u["role"] == "dead" and u.get("pos") is not None or u.get("leaving") or u.get("chasm")):
            g.swap(u, g.units[rid])
    for u in g.s["units"]:
        if u["alive"] and u.get("chasm"):
            g.chasm_return(u)
    for u in g.s["units"]:
        for st in u["statuses"]:
            if not st["active"]:
                st["active"] = True
    for u in g.s["units"]:
        if u["alive"] and u["role"] == "main":
            u["ap"], u["move"], u["legs"] = 2, g.move_value(u), 0
    if tianqi:
        g.sort_order()
    g.first_skills()
    for uid in list(g.s["order"]):
        u = g.units[uid]
        if u["alive"] and u["pos"] is not None:
            g.passives(u, lambda t: t == "round_start")
    g.regen(tianqi)


def end_round(g: Game) -> None:
    """H16 end: round-end effects (in order), then active statuses lose a round."""
    r = g.s["round"]
    g.emit("round_end", round=r)  # opens the round end's part of the post
    for uid in list(g.s["order"]):
        u = g.units[uid]
        if not u["alive"] or u["pos"] is None:
            continue
        g.passives(u, lambda t: t == "round_end")
        for st in list(g.active_buffs(u)):
            rule = st.get("round_end")
            if rule and u["alive"] and (rule.get("if") is None or g.cond(rule["if"], u, u, {})):
                if rule.get("heal"):
                    g.heal(u, rule["heal"], st["name"])
        if u["round"].get("reflect") and u["alive"]:
            for sid, amt in list(u["round"]["received"].items()):
                src = g.units[sid]
                if src["alive"] and src["id"] != uid:
                    g.emit("reflect", unit=uid, target=sid, amount=amt)
                    g.hurt(src, amt, u, "reflect")
        if g.has(u, "睡眠") and u["alive"]:
            u["shen"] = min(u["max_shen"], u["shen"] + 1)
            g.emit("shen", unit=uid, shen=u["shen"], why="睡眠")
    reveals = []
    for u in g.s["units"]:
        keep = []
        for st in u["statuses"]:
            if st["active"] and st["rounds"] is not None:
                st["rounds"] -= 1
                if st["rounds"] <= 0:
                    if st.get("heart"):
                        reveals.append((u, st))  # told by the reveal, once
                    else:
                        g.emit("status_end", unit=u["id"], name=st["name"])
                    continue
            keep.append(st)
        u["statuses"] = keep
    for u, st in reveals:
        g.reveal_heart(u, st)
    for u in g.s["units"]:
        u["round"] = {"damaged": False, "dealt": False, "shen_lost": False, "received": {}}


def regen(g: Game, tianqi: bool) -> None:
    """H2: each general in ``order`` regains its bracket value (+1 on 天启 rounds), to its max."""
    for uid in g.s["order"]:
        u = g.units[uid]
        if not u["alive"] or g.has(u, "郁气"):
            continue
        gain = u["qi_regen"] + (1 if tianqi else 0)
        new = R.num(max(u["qi"], min(u["max_qi"], u["qi"] + gain)))
        if new != u["qi"]:
            u["qi"] = new
            g.emit("regen", unit=uid, qi=new)


def first_skills(g: Game) -> None:
    """(f) 先手 skills from the standing orders, by caster 行动力 (l.145), then order. A
    standing 先手 is cast again once its effect has ended, every round only when the sheet
    says ``first_recast: every_round`` (ruling R3)."""
    casts = []
    for player in g.s["players"]:
        mine = g.s["standing"].get(player, {})
        for uid, sids in (mine.get("first_skills") or {}).items():
            u = g.units.get(uid)
            if u is None or u["player"] != player or not g.can_act(u):
                continue
            every = (mine.get("first_recast") or {}).get(uid) == "every_round"
            for sid in sids:
                if every or not g.running(u, sid):
                    casts.append((-g.move_value(u), g.s["order"].index(uid), uid, sid))
    casts.sort(key=lambda c: (c[0], c[1]))
    for _, _, uid, sid in casts:
        u = g.units[uid]
        sk = g.skill(u, sid)
        if sk is None or sk["timing"] != "first" or g.has(u, "沉默") or not g.can_act(u):
            continue
        try:
            g.cast(u, sk, {"kind": "skill", "skill": sid}, first=True)
        except Skip as e:
            g.emit("first_failed", unit=uid, skill=sid, name=sk["name"], reason=e.code, params=e.params)


def sort_order(g: Game, initial: bool = False) -> None:
    """H11: by effective 行动力; ties by the previous order, else roll-offs (higher first,
    equal faces roll again), each roll in scenario order."""
    prev = list(g.s["order"])
    ids = [u["id"] for u in g.s["units"] if u["role"] == "main" and (u["alive"] or u.get("replaced_by"))
           and (u["id"] in prev or initial)]
    ids += [x for x in prev if x not in ids]
    scen = [u["id"] for u in g.s["units"]]
    groups: dict[int, list[str]] = {}
    for uid in ids:
        groups.setdefault(g.move_value(g.units[uid]), []).append(uid)
    out: list[str] = []
    for mv in sorted(groups, reverse=True):
        tied = groups[mv]
        if len(tied) > 1 and all(x in prev for x in tied):
            tied.sort(key=prev.index)
        elif len(tied) > 1:
            tied = g.roll_off(sorted(tied, key=scen.index))
        out.extend(tied)
    g.s["order"] = out
    g.emit("order", order=out, initial=initial)


def roll_off(g: Game, ids: list[str]) -> list[str]:
    faces = {uid: g.roll("initiative", uid) for uid in ids}
    by: dict[int, list[str]] = {}
    for uid in ids:
        by.setdefault(faces[uid], []).append(uid)
    out: list[str] = []
    for f in sorted(by, reverse=True):
        out.extend(g.roll_off(by[f]) if len(by[f]) > 1 else by[f])
    return out


def swap(g: Game, out: dict[str, Any], inn: dict[str, Any]) -> None:
    """H15: the reserve takes the leaver's point and place in the order."""
    pos = out["pos"] or g.free_point(parse_cell(out["chasm"]) if out.get("chasm") else None)
    inn["role"] = "main"
    inn["pos"] = pos
    inn["statuses"], inn["wards"], inn["toggles"] = [], [], []
    order = g.s["order"]
    if out["id"] in order:
        order[order.index(out["id"])] = inn["id"]
    else:
        order.append(inn["id"])
    out["pos"] = None
    out["chasm"] = None
    if out["alive"]:
        out["role"] = "reserve"
        g.clear_statuses(out)  # 「清空身上的全部状态」 (l.68): a 心战 card is shown
        out["wards"], out["toggles"] = [], []
    out["leaving"] = None
    g.emit("enter", unit=inn["id"], replaces=out["id"], pos=pos)
    g.passives(inn, lambda t: t == "static")  # a static passive holds on the field too


def die(g: Game, u: dict[str, Any]) -> None:
    """H15: death; the reserve is chosen at once (standing, else team order); the body stays.
    Its statuses end: a 心战 card on it is shown (l.120)."""
    u["alive"] = False
    u["role"] = "dead"
    g.emit("death", unit=u["id"], pos=u["pos"])
    g.clear_statuses(u)
    if u.get("leaving"):  # dying while being substituted: the chosen reserve replaces the body
        u["replaced_by"], u["leaving"] = u["leaving"], None
        g.emit("reserve_chosen", unit=u["id"], reserve=u["replaced_by"])
    else:
        g.pick_reserve(u)
    if u.get("replaced_by") is None and u["id"] in g.s["order"]:
        g.s["order"].remove(u["id"])
    g.check_victory()


def pick_reserve(g: Game, u: dict[str, Any]) -> None:
    taken = {x.get("replaced_by") for x in g.s["units"]} | {x.get("leaving") for x in g.s["units"]}
    pref = g.s["standing"].get(u["player"], {}).get("reserve_order") or []
    bench = [x for x in g.s["units"] if x["player"] == u["player"] and x["role"] == "reserve"
             and x["alive"] and x["id"] not in taken]
    bench.sort(key=lambda x: (pref.index(x["id"]) if x["id"] in pref else len(pref)))
    u["replaced_by"] = bench[0]["id"] if bench else None
    if bench:
        g.emit("reserve_chosen", unit=u["id"], reserve=bench[0]["id"])


def check_victory(g: Game) -> None:
    if g.s["winner"] is not None:
        return
    lost = [side for side in g.s["sides"]
            if not any(u["alive"] for u in g.s["units"] if u["side"] == side)]
    if lost:
        g.s["winner"] = "draw" if len(lost) == len(g.s["sides"]) else \
            next(s for s in g.s["sides"] if s not in lost)
        g.emit("victory", winner=g.s["winner"])

"""Statuses (H3, H7, H23, l.94-120): what a general holds and what it changes (attributes, 行动力,
射程, skill changes), a status given, refreshed or ended, 神 lost to a negative one, and the
心战 card shown when its status ends.

Plain functions taking the :class:`~gm_tool.rulesets.hunlu.engine.Game`; the game names them as
its methods (``g.has(u, "沉默")``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm_tool.rulesets.hunlu import rules as R

if TYPE_CHECKING:
    from gm_tool.rulesets.hunlu.engine import Game


NEGATIVE = ("郁气", "失明", "沉默", "缴械", "睡眠", "停止行动", "定身")
CANT_ACT = ("寂灭", "睡眠", "停止行动")


def lowers(st: dict[str, Any]) -> bool:
    """Is a status negative (H3, ruling R24): a named negative status, a stat lowered (a
    行动力 cut or cap, a strike failure), an attribute turned off."""
    for k, x in (st.get("stats") or {}).items():
        if (x > 0 if k == "strike_fail" else True if k == "move_max" else x < 0):
            return True
    return st["name"] in NEGATIVE or bool(st.get("off"))


def has(g: Game, u: dict[str, Any], name: str) -> bool:
    for st in u["statuses"]:
        if st["active"] and st["name"] == name:
            return True
    return False


def active_buffs(g: Game, u: dict[str, Any]) -> list[dict[str, Any]]:
    return [st for st in u["statuses"] if st["active"]]


def stat_sum(g: Game, u: dict[str, Any], stat: str) -> list[int]:
    """The values active buffs give ``stat`` (each buff one value; the rule decides how they add)."""
    out = []
    for st in u["statuses"]:
        if st["active"]:
            stats = st.get("stats")
            if stats and stat in stats:
                out.append(stats[stat])
    return out


def attr(g: Game, u: dict[str, Any], a: str) -> int:
    """Effective pips of attribute ``a`` (H7): base plus buffs as pips, 失明 −5 hit, 失效 → 0."""
    if any(a in st.get("off", ()) for st in g.active_buffs(u)):
        return 0
    n = R.pips(u["attrs"][a]) + sum(R.pips(x) for x in g.stat_sum(u, a))
    if a == "hit" and g.has(u, "失明"):
        n -= 5
    return R.clamp_pips(n)


def move_value(g: Game, u: dict[str, Any]) -> int:
    """Effective 行动力 (H23)."""
    cuts = [-x for x in g.stat_sum(u, "move_pct") if x < 0]  # move_pct: -50 is a cut of 50 %
    return R.effective_move(u["base_move"], g.stat_sum(u, "move"), cuts, g.stat_sum(u, "move_max"))


def range_of(g: Game, u: dict[str, Any], sk: dict[str, Any] | None = None) -> int:
    base = u["base_range"]
    if sk is not None and sk.get("range") is not None:
        base = sk["range"] + g.mod(u, sk["id"], "range")
    return max(0, base + sum(g.stat_sum(u, "range")))


def mod(g: Game, u: dict[str, Any], sid: str, key: str) -> float:
    """skill_mods of active toggles (焚天凤炎 on 天劫重斩)."""
    total = 0
    for st in g.active_buffs(u):
        total += (st.get("skill_mods") or {}).get(sid, {}).get(key, 0)
    return total


def can_act(g: Game, u: dict[str, Any]) -> bool:
    """On the field, 神 above 0 (l.22, however 神 got to 0) and no status that stops it."""
    if not (u["alive"] and u["role"] == "main" and u["pos"] is not None) or u["shen"] <= 0:
        return False
    for st in u["statuses"]:
        if st["active"] and st["name"] in CANT_ACT:
            return False
    return True


def running(g: Game, u: dict[str, Any], sid: str) -> bool:
    """Does a status that ``u`` gave with skill ``sid`` still hold on any general?"""
    return any(st.get("skill") == sid and st["source"] == u["id"] for x in g.s["units"] for st in x["statuses"])


def add_status(g: Game, u: dict[str, Any], st: dict[str, Any], src: dict[str, Any], at_once: bool = False) -> None:
    st = {**st, "active": at_once, "source": src["id"]}
    before = g.move_value(u)
    # the same buff again (same skill, same source) refreshes it rather than stacking (ruling R15)
    u["statuses"] = [x for x in u["statuses"] if not (x.get("skill") and x.get("skill") == st.get("skill")
                                                      and x["source"] == src["id"] and x["name"] == st["name"])]
    u["statuses"].append(st)
    g.emit("status", unit=u["id"], name=st["name"], rounds=st["rounds"], active=at_once, source=src["id"])
    if at_once:
        g.move_changed(u, before)
    if lowers(st) and g.enemies(src, u):
        g.lose_shen(u, src, why=st["name"])


def move_changed(g: Game, u: dict[str, Any], before: int) -> None:
    """A status active at once changes the 行动力 left this round by what it changes the
    general's 行动力 (所向无前 cast as 先手 cuts the round it is cast in, ruling R3)."""
    delta = g.move_value(u) - before
    if delta:
        u["move"] = max(0, u["move"] + delta)


def end_status(g: Game, u: dict[str, Any], name: str) -> None:
    u["statuses"] = [st for st in u["statuses"] if st["name"] != name]
    g.emit("status_end", unit=u["id"], name=name)


def silence_at_zero(g: Game, u: dict[str, Any]) -> None:
    """l.22-23: 「当神为0时，魂将无法主动行动」, 寂灭 for good, however 神 got to 0 (a hit, a
    skill's 神 loss, a GM edit, a scenario's starting value)."""
    if u["shen"] <= 0 and u["alive"] and not g.has(u, "寂灭"):
        u["statuses"].append({"name": "寂灭", "rounds": None, "active": True, "source": u["id"]})
        g.emit("status", unit=u["id"], name="寂灭", rounds=None, active=True)


def clear_statuses(g: Game, u: dict[str, Any]) -> None:
    """Every status of ``u`` ends at once (death, leaving the field): a 心战 card among them is
    shown, the others end silently (the death or the substitution is told)."""
    hearts = [st for st in u["statuses"] if st.get("heart")]
    u["statuses"] = []
    for st in hearts:
        g.reveal_heart(u, st)


def reveal_heart(g: Game, holder: dict[str, Any], st: dict[str, Any]) -> None:
    """心战 (l.120): when the effect ends the card is shown (the one line telling the end);
    its 气 is paid then, and the card's effects follow (ruling R26: with too little 气, the card
    does nothing; on a holder dead or off the field, nothing is executed and nothing paid)."""
    caster = g.units.get(st["source"])
    card = st.get("heart_card", "none")
    g.emit("heart_reveal", unit=holder["id"], source=st["source"], name=st["name"], card=card)
    if card == "none" or caster is None or not caster["alive"] or not holder["alive"] or holder["pos"] is None:
        return
    sk = g.skill(caster, st.get("skill", "")) or {"id": "", "name": st["name"], "qi": 0, "timing": "active"}
    cost = g.skill_cost(caster, sk)
    if caster["qi"] < cost:
        g.emit("heart_unpaid", unit=caster["id"], need=R.num(cost), left=caster["qi"])
        return
    caster["qi"] = R.num(caster["qi"] - cost)
    g.emit("heart_paid", unit=caster["id"], qi=R.num(cost), left=caster["qi"], name=st["name"])
    ctx: dict[str, Any] = {"origin": g.cell(caster)}
    for eff in st["heart"].get(card) or []:
        if not g.effect(caster, holder, eff, sk, ctx):
            break

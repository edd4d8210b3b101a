"""Attack judging (H7-H10, H14, H25): who may be aimed at, the one d6 of a strike against both
sides' attributes, non-strike damage (元抗 only), damage and death, 神 lost, chance checks, an
attack and the joint attacks it calls.

Plain functions taking the :class:`~gm_tool.rulesets.hunlu.engine.Game`; the game names them as
its methods."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm_tool.rulesets.hunlu import rules as R
from gm_tool.rulesets.hunlu.skip import Skip

if TYPE_CHECKING:
    from gm_tool.rulesets.hunlu.engine import Game


def reachable_target(g: Game, src: dict[str, Any], tgt: dict[str, Any], r: int, flying: bool) -> str | None:
    """None if ``tgt`` may be aimed at from ``src`` with range ``r``; else a reason code."""
    a, b = g.cell(src), g.cell(tgt)
    if a is None or b is None or not tgt["alive"]:
        return "target_gone"
    if not R.in_square(a, b, r):
        return "out_of_range"
    if src["element"] in R.LINE_ELEMENTS and not R.same_line(a, b):
        return "off_line"
    if flying and any(g.blocked(c, flying=True) for c in R.between(a, b)):
        return "path_blocked"
    return None


def chance_check(g: Game, owner: dict[str, Any], pct: int, why: str, passive: bool = True) -> bool:
    if g.checking:
        return False
    n = R.pips(pct)
    if passive:
        n += sum(R.pips(x) for x in g.stat_sum(owner, "passive_chance"))
    n = R.clamp_pips(n)
    face = g.roll(why, owner["id"])
    ok = R.low_faces(n, face)
    g.emit("chance", unit=owner["id"], why=why, pips=n, face=face, ok=ok)
    return ok


def strike(g: Game, att: dict[str, Any], tgt: dict[str, Any], base: float, why: str, joint: bool = False,
           sk: dict[str, Any] | None = None) -> float | None:
    """One strike (H10): one d6 against both sides' attributes at once (H7, H8, H25).
    Returns the damage dealt, or None when the strike failed/was nullified."""
    pctx: dict[str, Any] = {"attacker": att}
    g.passives(tgt, lambda t: t == "attacked", pctx)
    g.negated = bool(pctx.get("negated"))  # the target's passive made this attack's effects miss
    fail = max(g.stat_sum(att, "strike_fail"), default=0)
    if fail and g.chance_check(att, fail, "strike_fail", passive=False):
        g.emit("strike_failed", unit=att["id"], target=tgt["id"])
        return None
    if not tgt["alive"]:
        return None
    per = sum(g.stat_sum(att, "qi_per_strike"))
    if per:
        att["qi"] = R.num(max(0, att["qi"] - per))
    face = g.roll(why, att["id"])
    lower = att["shen"] < tgt["shen"]
    blocked_by = {a: st["name"] for st in g.active_buffs(tgt) if st.get("immune")
                  if st["immune"].get("from") != "lower_shen" or lower for a in st["immune"]["attrs"]}
    crit_face = not joint and R.low_faces(g.attr(att, "crit"), face)
    weak_face = R.high_faces(g.attr(tgt, "weakness"), face)
    crit = crit_face and "crit" not in blocked_by
    weak = weak_face and "weakness" not in blocked_by
    dodge = R.low_faces(g.attr(tgt, "dodge"), face)
    hit = not joint and R.low_faces(g.attr(att, "hit"), face)
    defence = R.low_faces(g.attr(tgt, "defence"), face)
    element = att["element"] is not None
    resist = element and R.low_faces(g.attr(tgt, "resist"), face)
    sure = g.has(att, "必中") and not g.has(att, "失明")
    pierce = g.has(att, "破防")
    nullified = (dodge and not (hit or sure)) or (defence and not pierce)
    # what the die showed but does not count, and why, for the line that shows the die
    cancel = [[a, blocked_by[a]] for a, shown in (("crit", crit_face), ("weakness", weak_face))
              if shown and a in blocked_by]
    if dodge and (hit or sure):
        cancel.append(["dodge", "hit" if hit else "必中"])
    if defence and pierce:
        cancel.append(["defence", "破防"])
    inc = max([100] * (crit + weak) + [x for x in g.stat_sum(att, "damage_pct") if x > 0], default=0)
    dec = max([-x for x in g.stat_sum(att, "damage_pct") if x < 0], default=0)
    amount = 0.0 if nullified else R.change_damage(base, inc, dec)
    if resist and not nullified:
        amount = R.resist_halve(amount)
    g.emit("strike", unit=att["id"], target=tgt["id"], face=face, base=R.num(base), joint=joint,
              pips={"crit": 0 if joint else g.attr(att, "crit"), "hit": 0 if joint else g.attr(att, "hit"),
                    "weakness": g.attr(tgt, "weakness"), "dodge": g.attr(tgt, "dodge"),
                    "defence": g.attr(tgt, "defence"), "resist": g.attr(tgt, "resist") if element else 0},
              crit=crit, weakness=weak, dodge=dodge, hit=hit, defence=defence, resist=resist,
              nullified=nullified, damage=R.num(amount), cancel=cancel)
    if nullified:
        return None
    g.hurt(tgt, amount, att, why)
    if amount > 0:
        g.passives(tgt, lambda t: t == "damaged", {"attacker": att})
    return amount


def element_damage(g: Game, att: dict[str, Any], tgt: dict[str, Any], amount: float, why: str) -> float:
    """A non-strike damage: only 元抗 judged (H9), one die when the dealer has an element."""
    inc = max([x for x in g.stat_sum(att, "damage_pct") if x > 0], default=0)
    dec = max([-x for x in g.stat_sum(att, "damage_pct") if x < 0], default=0)
    amount = R.change_damage(amount, inc, dec)
    if att["element"] is not None:
        face = g.roll("resist", att["id"])
        if R.low_faces(g.attr(tgt, "resist"), face):
            g.emit("resisted", unit=tgt["id"], face=face)
            amount = R.resist_halve(amount)
    g.hurt(tgt, amount, att, why)
    return amount


def hurt(g: Game, tgt: dict[str, Any], amount: float, src: dict[str, Any] | None, why: str) -> float:
    """Apply damage (already computed) to ``tgt``: 所向无前's conversion, death, triggers."""
    if amount <= 0 or not tgt["alive"] or g.checking:
        return 0 if g.checking else 0
    if any(st.get("absorb") for st in g.active_buffs(tgt)):
        g.heal(tgt, amount, why="absorb")
        return 0
    before = tgt["jing"]
    tgt["jing"] = R.num(max(0, tgt["jing"] - amount))
    tgt["round"]["damaged"] = True
    if src is not None:
        src["round"]["dealt"] = True
        rec = tgt["round"]["received"]
        rec[src["id"]] = R.num(rec.get(src["id"], 0) + amount)
    g.emit("damage", unit=tgt["id"], amount=R.num(amount), jing=tgt["jing"],
              source=src["id"] if src else None, why=why)
    if g.has(tgt, "睡眠"):
        g.end_status(tgt, "睡眠")
    if tgt["jing"] <= 0:
        g.die(tgt)
    else:
        g.passives(tgt, lambda t: isinstance(t, dict) and before >= t["jing_below"] > tgt["jing"])
    return amount


def heal(g: Game, u: dict[str, Any], amount: float, why: str = "") -> None:
    new = R.num(min(u["max_jing"], u["jing"] + amount))
    if new != u["jing"]:
        u["jing"] = new
        g.emit("heal", unit=u["id"], amount=R.num(amount), jing=new, why=why)


def lose_shen(g: Game, u: dict[str, Any], src: dict[str, Any] | None, why: str) -> None:
    """H3: −1 神 per hit carrying a negative status, once a round; 神 0 → 寂灭."""
    if u["round"]["shen_lost"] or not u["alive"] or g.checking:
        return
    for w in u["wards"]:
        if w["kind"] == "shen" and w["count"] > 0:
            w["count"] -= 1
            g.emit("ward", unit=u["id"], kind="shen")
            if w.get("reflect") and src is not None and src["alive"]:
                g.lose_shen(src, None, why="reflect")
            u["wards"] = [x for x in u["wards"] if x["count"] > 0]
            return
    u["round"]["shen_lost"] = True
    u["shen"] = max(0, u["shen"] - 1)
    g.emit("shen", unit=u["id"], shen=u["shen"], why=why)
    g.silence_at_zero(u)


def do_attack(g: Game, u: dict[str, Any], tid: str) -> None:
    g.pay_ap(u, 1)
    if g.has(u, "缴械"):
        raise Skip("disarmed")
    t = g.target(tid)
    if not g.enemies(u, t):
        raise Skip("not_enemy", field="attack", target=tid)
    why = g.reachable_target(u, t, g.range_of(u), flying=True)
    if why:
        raise Skip(why, field="attack", target=tid, range=g.range_of(u))
    u["ap"] -= 1
    g.emit("attack", unit=u["id"], target=tid)
    base = 0.5 if u["element"] in R.HALF_ATTACK_ELEMENTS else 1
    g.strike(u, t, base, "attack")
    if not g.checking:
        g.joint_attacks(u, t, base)
    g.check_victory()


def joint_attacks(g: Game, att: dict[str, Any], t: dict[str, Any], base_unused: float) -> None:
    """H14: allies whose standing order allows strike T once each, in initiative order."""
    for aid in list(g.s["order"]):
        a = g.units[aid]
        if a is att or a["side"] != att["side"] or not t["alive"] or g.s["winner"] is not None:
            continue
        spec = g.s["standing"].get(a["player"], {}).get("joint_attack", {}).get(aid)
        if spec is None or not g.can_act(a) or g.has(a, "缴械") or a["ap"] < 1:
            continue
        against = spec.get("against", "any")
        when = spec.get("when", "any")
        if against != "any" and t["id"] not in against:
            continue
        acted = aid in g.s["acted"]
        if (when == "before_turn" and acted) or (when == "after_turn" and not acted):
            continue
        if a["qi"] < 1 + spec.get("keep_qi", 0):
            continue
        if g.reachable_target(a, t, g.range_of(a), flying=True):
            continue
        a["ap"] -= 1
        a["qi"] = R.num(a["qi"] - 1)
        g.emit("joint_attack", unit=aid, target=t["id"], ap=a["ap"], qi=a["qi"])
        base = 0.5 if a["element"] in R.HALF_ATTACK_ELEMENTS else 1
        g.strike(a, t, base, "joint", joint=True)

"""The general catalogue: the bundled samples (data/generals.yaml) plus a scenario's own generals
and shared skills, checked field by field so a GM adds a general without Python."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from gm_tool.core import safeyaml
from gm_tool.core.schema import Validator
from gm_tool.rulesets.hunlu.rules import ATTRS, ELEMENTS, PCT_PIPS

DATA = Path(__file__).parent / "data"
TIMINGS = ("active", "first", "toggle", "passive")
TRIGGERS = ("round_start", "round_end", "attacked", "damaged", "static")
SHAPES = ("self", "single", "all", "first_in_direction", "point")
AFFECTS = ("enemies", "allies", "all")
EFFECT_KEYS = ("strike", "damage", "knockback", "dash", "dash_to", "heal", "qi", "shen", "status", "buff",
               "negate_effects", "if", "repeat_damage", "reflect_round", "ward", "extra_turn")
STATUS_NAMES = ("必中", "破防", "郁气", "失明", "沉默", "缴械", "睡眠", "蓄力", "停止行动", "定身", "腾空", "寂灭",
                "心战", "神兵合体")
BUFF_STATS = ATTRS + ("passive_chance", "move", "move_pct", "move_max", "range", "damage_pct",
                      "qi_per_strike", "strike_fail")
PCT_STATS = ATTRS + ("passive_chance", "strike_fail")
# what the engine reads of each number stat: (low, high, whole), shown as the allowed range
STAT_RANGES = {"move": (-99, 99, True), "move_pct": (-100, -1, True), "move_max": (0, 99, True),
               "range": (-26, 26, True), "damage_pct": (-100, 100, True), "qi_per_strike": (0, 99, False)}
BUFF_KEYS = ("name", "rounds", "stats", "off", "absorb", "immune", "round_end", "skill_mods", "heart")
CONDITIONS = ("lost_more_than_left", "no_damage_dealt", "not_damaged")


def pct_ok(x: Any) -> bool:
    """One of the seed's percentages (l.41): 0/15/35/50/65/85/100."""
    return isinstance(x, int) and not isinstance(x, bool) and x in PCT_PIPS


@lru_cache(maxsize=1)
def bundled() -> dict[str, Any]:
    return safeyaml.load_mapping(DATA / "generals.yaml", display="hunlu/data/generals.yaml")


def check_general(v: Validator, gid: str, g: Any, path: str, shared: dict[str, Any]) -> dict[str, Any] | None:
    """A catalogue entry in its normal form (skills as full mappings), or None after adding problems."""
    if not v.typed(g, dict, path):
        return None
    if False in g:  # YAML 1.1 reads a bare `no:` key as false
        g = {("no" if k is False else k): x for k, x in g.items()}
    allowed = {k: k for k in ("name", "tier", "no", "element", "jing", "qi", "qi_regen", "shen", "move", "range",
                              "skills", "text") + ATTRS}
    g = v.unknown_keys(g, allowed, path + ".")
    out: dict[str, Any] = {"id": gid, "name": g.get("name", gid), "tier": g.get("tier"), "no": g.get("no"),
                           "element": g.get("element")}
    if out["element"] is not None and out["element"] not in ELEMENTS:
        v.add("field.choice", f"{path}.element", value=out["element"], allowed=", ".join(ELEMENTS) + ", null")
    for key, lo, default in (("jing", 0.5, None), ("qi", 0, 0), ("qi_regen", 0, 0), ("shen", 1, 8),
                             ("move", 0, None), ("range", 0, None)):
        val = g.get(key, default)
        if val is None:
            if key in ("jing", "move"):
                v.add("field.required", f"{path}.{key}")
            out[key] = default  # range null: the scenario's default_range
            continue
        if isinstance(val, bool) or not isinstance(val, (int, float)) or val < lo or val > 999 \
                or (val * 2) != int(val * 2):
            v.add("field.range", f"{path}.{key}", value=val, allowed=f"{lo}-999, 0.5 步长")
            out[key] = default
        else:
            out[key] = int(val) if val == int(val) else val
    for key in ("move", "range", "shen"):
        if isinstance(out.get(key), float):
            v.add("field.type", f"{path}.{key}", expected="integer", got="number")
    for a in ATTRS:
        val = g.get(a, 0) or 0
        if not pct_ok(val):
            v.add("hunlu.catalogue.pct", f"{path}.{a}", value=val)
            val = 0
        out[a] = val
    skills = g.get("skills") or []
    out["skills"] = []
    if v.typed(skills, list, f"{path}.skills"):
        for i, s in enumerate(skills):
            sp = f"{path}.skills.{i}"
            if isinstance(s, str):
                if s not in shared:
                    v.add("hunlu.catalogue.skill_unknown", sp, skill=s, allowed=", ".join(sorted(shared)) or "-")
                    continue
                out["skills"].append(shared[s])
            else:
                sk = check_skill(v, s, sp)
                if sk:
                    out["skills"].append(sk)
    ids = [s["id"] for s in out["skills"]]
    for i, sid in enumerate(ids):
        if sid in ids[:i]:
            v.add("field.duplicate", f"{path}.skills.{i}.id", value=sid)
    return out


def check_skill(v: Validator, s: Any, path: str, sid: str | None = None) -> dict[str, Any] | None:
    if not v.typed(s, dict, path):
        return None
    allowed = {k: k for k in ("id", "name", "text", "qi", "move_cost", "timing", "trigger", "once", "chance", "range",
                              "shape", "affects", "effects")}
    s = v.unknown_keys(s, allowed, path + ".")
    sid = s.get("id", sid)
    if not isinstance(sid, str) or not sid:
        v.add("field.required", f"{path}.id")
        sid = "?"
    out = {"id": sid, "name": str(s.get("name", sid)), "text": str(s.get("text", "")),
           "qi": s.get("qi", 0) or 0, "timing": s.get("timing", "active"), "trigger": s.get("trigger"),
           "once": bool(s.get("once", False)), "chance": s.get("chance"), "range": s.get("range"),
           "shape": s.get("shape", "self"), "affects": s.get("affects"), "move_cost": s.get("move_cost")}
    if isinstance(out["qi"], bool) or not isinstance(out["qi"], (int, float)) or not 0 <= out["qi"] <= 99:
        v.add("field.range", f"{path}.qi", value=out["qi"], allowed="0-99")
        out["qi"] = 0
    if out["timing"] not in TIMINGS:
        v.add("field.choice", f"{path}.timing", value=out["timing"], allowed=", ".join(TIMINGS))
    for key in ("trigger", "once"):  # read for passives only: refused elsewhere rather than ignored
        if s.get(key) not in (None, False) and out["timing"] != "passive":
            v.add("hunlu.catalogue.passive_only", f"{path}.{key}", key=key, timing=out["timing"])
    trig = out["trigger"]
    if out["timing"] == "passive":
        ok = trig in TRIGGERS or (isinstance(trig, dict) and set(trig) == {"jing_below"}
                                  and isinstance(trig["jing_below"], (int, float)))
        if not ok:
            v.add("field.choice", f"{path}.trigger", value=trig, allowed=", ".join(TRIGGERS) + ", {jing_below: N}")
    if out["chance"] is not None and not pct_ok(out["chance"]):
        v.add("hunlu.catalogue.pct", f"{path}.chance", value=out["chance"])
        out["chance"] = None
    if out["range"] is not None and (not isinstance(out["range"], int) or isinstance(out["range"], bool)
                                     or not 0 <= out["range"] <= 26):
        v.add("field.range", f"{path}.range", value=out["range"], allowed="0-26")
        out["range"] = None
    shape = out["shape"]
    if isinstance(shape, dict) and set(shape) == {"line"} and isinstance(shape["line"], int) and 1 <= shape["line"] <= 26:
        pass
    elif shape not in SHAPES:
        v.add("field.choice", f"{path}.shape", value=shape, allowed=", ".join(SHAPES) + ", {line: N}")
        out["shape"] = "self"
    if out["affects"] is None:
        out["affects"] = "enemies" if out["shape"] not in ("self",) else "allies"
    if out["affects"] not in AFFECTS:
        v.add("field.choice", f"{path}.affects", value=out["affects"], allowed=", ".join(AFFECTS))
    effects = s.get("effects") or []
    out["effects"] = []
    if v.typed(effects, list, f"{path}.effects"):
        out["effects"] = [e for i, e in enumerate(effects) if check_effect(v, e, f"{path}.effects.{i}")]
    if out["move_cost"] is None:
        out["move_cost"] = 2 if any(_moves_caster(e) for e in out["effects"]) else 1
    return out


def _moves_caster(effect: dict[str, Any]) -> bool:
    return "dash" in effect or "dash_to" in effect


def _num(x: Any, lo: float = -99, hi: float = 99, whole: bool = False) -> bool:
    """A number in [lo, hi] in half steps (whole: an integer)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not lo <= x <= hi:
        return False
    return x == int(x) if whole else x * 2 == int(x * 2)


def _cond_ok(cond: Any) -> bool:
    return cond in CONDITIONS or (isinstance(cond, dict) and set(cond) == {"within"} and _num(cond["within"], 0, 26, True))


def _rounds_ok(val: dict[str, Any]) -> bool:
    return val.get("rounds", 1) is None or _num(val.get("rounds", 1), 1, 99, True)


def check_effect(v: Validator, e: Any, path: str) -> bool:
    """One effect, its value checked against what the engine reads; False (with a problem) if bad."""
    if not isinstance(e, dict) or len(e) != 1 or not isinstance(next(iter(e)), str):
        v.add("hunlu.catalogue.effect", path, allowed=", ".join(EFFECT_KEYS))
        return False
    (key, val), = e.items()
    where = f"{path}.{key}"
    if key not in EFFECT_KEYS:
        v.add("hunlu.catalogue.effect", where, allowed=", ".join(EFFECT_KEYS))
        return False
    bad = None  # what is allowed, when the value is wrong
    if key == "strike" and not (val is None or val is True or _num(val, 0, 99)):
        bad = "0-99 (0.5 步长)"
    elif key == "damage":
        if isinstance(val, dict):
            bonus = val.get("bonus")
            if not _num(val.get("amount"), 0, 99) or set(val) - {"amount", "bonus"} or (
                    bonus is not None and not (isinstance(bonus, dict) and _cond_ok(bonus.get("if"))
                                               and _num(bonus.get("add"), 0, 99))):
                bad = "X | {amount: X, bonus: {if: COND, add: X}}"
        elif not _num(val, 0, 99):
            bad = "0-99 (0.5 步长)"
    elif key == "knockback":
        if isinstance(val, dict):
            if set(val) - {"cells", "collide", "push_behind"} or not _num(val.get("cells", 1), 0, 26, True) \
                    or not _num(val.get("collide", 0), 0, 99) or not isinstance(val.get("push_behind", False), bool):
                bad = "N | {cells: N, collide: X, push_behind: true|false}"
        elif not _num(val, 0, 26, True):
            bad = "0-26"
    elif key == "dash" and not _num(val, 0, 26, True):
        bad = "0-26"
    elif key == "dash_to" and val not in ("front", "back"):
        bad = "front, back"
    elif key in ("heal", "qi") and not _num(val, -99, 99):
        bad = "-99..99 (0.5 步长)"
    elif key == "shen" and not _num(val, -99, 99, True):
        bad = "-99..99"
    elif key in ("repeat_damage", "reflect_round", "extra_turn", "negate_effects") and val is not True:
        bad = "true"
    elif key == "ward" and not (isinstance(val, dict) and val.get("kind", "shen") == "shen"
                                and _num(val.get("count", 1), 1, 99, True)
                                and isinstance(val.get("reflect", False), bool) and not set(val) - {"kind", "count", "reflect"}):
        bad = "{kind: shen, count: N, reflect: true|false}"
    elif key == "status":
        if not isinstance(val, dict) or val.get("name") not in STATUS_NAMES:
            v.add("field.choice", f"{where}.name", value=(val or {}).get("name") if isinstance(val, dict) else val,
                  allowed=", ".join(STATUS_NAMES))
            return False
        if not _rounds_ok(val) or set(val) - {"name", "rounds"}:
            bad = "{name, rounds: 1-99 | null}"
    elif key == "buff":
        if not isinstance(val, dict):
            v.add("field.type", where, expected="mapping", got=type(val).__name__)
            return False
        if False in val:  # YAML 1.1 reads a bare `off:` key as false
            val["off"] = val.pop(False)
        return _check_buff(v, val, where)
    elif key == "if":
        if not isinstance(val, dict) or not isinstance(val.get("then"), list) or not _cond_ok(val.get("cond")) \
                or set(val) - {"cond", "then"}:
            v.add("hunlu.catalogue.if", where)
            return False
        return all([check_effect(v, sub, f"{where}.then.{i}") for i, sub in enumerate(val["then"])])
    if bad is not None:
        v.add("hunlu.catalogue.value", where, value=val, allowed=bad)
        return False
    return True


def _check_buff(v: Validator, val: dict[str, Any], where: str) -> bool:
    ok = True
    for k in val:
        if k not in BUFF_KEYS:
            v.add("field.unknown", f"{where}.{k}", allowed=", ".join(BUFF_KEYS))
            ok = False
    if not _rounds_ok(val):
        v.add("hunlu.catalogue.value", f"{where}.rounds", value=val.get("rounds"), allowed="1-99, null")
        ok = False
    stats = val.get("stats") or {}
    if not isinstance(stats, dict):
        v.add("field.type", f"{where}.stats", expected="mapping", got=type(stats).__name__)
        return False
    for stat, x in stats.items():
        if stat not in BUFF_STATS:
            v.add("field.unknown", f"{where}.stats.{stat}", allowed=", ".join(BUFF_STATS))
            ok = False
        elif stat in PCT_STATS and (not isinstance(x, int) or isinstance(x, bool) or abs(x) not in PCT_PIPS
                                    or (stat == "strike_fail" and x < 0)):
            v.add("hunlu.catalogue.pct", f"{where}.stats.{stat}", value=x)
            ok = False
        elif stat in STAT_RANGES and not _num(x, *STAT_RANGES[stat]):
            lo, hi, whole = STAT_RANGES[stat]
            v.add("hunlu.catalogue.value", f"{where}.stats.{stat}", value=x,
                  allowed=f"{lo}..{hi}" + ("" if whole else " (0.5 步长)"))
            ok = False
    checks = {
        "off": lambda x: isinstance(x, list) and all(a in ATTRS for a in x),
        "absorb": lambda x: isinstance(x, bool),
        "immune": lambda x: isinstance(x, dict) and not set(x) - {"attrs", "from"} and isinstance(x.get("attrs"), list)
        and all(a in ATTRS for a in x["attrs"]) and x.get("from", "any") in ("any", "lower_shen"),
        "round_end": lambda x: isinstance(x, dict) and not set(x) - {"if", "heal"}
        and (x.get("if") is None or _cond_ok(x["if"])) and _num(x.get("heal"), 0.5, 99),
        "skill_mods": lambda x: isinstance(x, dict) and all(
            isinstance(m, dict) and all(k in ("qi", "range", "damage", "knockback") and _num(n, -99, 99) for k, n in m.items())
            for m in x.values()),
    }
    for k, test in checks.items():
        if k in val and not test(val[k]):
            v.add("hunlu.catalogue.value", f"{where}.{k}", value=val[k], allowed=BUFF_SHAPES[k])
            ok = False
    heart = val.get("heart")
    if heart is not None:
        if not isinstance(heart, dict) or not set(heart) <= {"A", "B"} or \
                not all(isinstance(x, list) for x in heart.values()):
            v.add("hunlu.catalogue.heart", f"{where}.heart")
            return False
        for card, effs in heart.items():
            ok = all([check_effect(v, sub, f"{where}.heart.{card}.{i}") for i, sub in enumerate(effs)]) and ok
    return ok


BUFF_SHAPES = {"off": "[crit, weakness, dodge, hit, defence, resist]", "absorb": "true, false",
               "immune": "{attrs: [...], from: any|lower_shen}", "round_end": "{if: COND, heal: 0.5-99}",
               "skill_mods": "{SKILL: {qi, range, damage, knockback}}"}

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
BUFF_KEYS = ("name", "rounds", "stats", "off", "absorb", "immune", "round_end", "skill_mods", "heart")
CONDITIONS = ("lost_more_than_left", "no_damage_dealt", "not_damaged")


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
            out[key] = None
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
        if val not in PCT_PIPS or isinstance(val, bool):
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
    trig = out["trigger"]
    if out["timing"] == "passive":
        ok = trig in TRIGGERS or (isinstance(trig, dict) and set(trig) == {"jing_below"}
                                  and isinstance(trig["jing_below"], (int, float)))
        if not ok:
            v.add("field.choice", f"{path}.trigger", value=trig, allowed=", ".join(TRIGGERS) + ", {jing_below: N}")
    if out["chance"] is not None and out["chance"] not in PCT_PIPS:
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


def check_effect(v: Validator, e: Any, path: str) -> bool:
    if not isinstance(e, dict) or len(e) != 1:
        v.add("hunlu.catalogue.effect", path, allowed=", ".join(EFFECT_KEYS))
        return False
    (key, val), = e.items()
    if key not in EFFECT_KEYS:
        v.add("hunlu.catalogue.effect", f"{path}.{key}", allowed=", ".join(EFFECT_KEYS))
        return False
    if key == "status":
        if not isinstance(val, dict) or val.get("name") not in STATUS_NAMES:
            v.add("field.choice", f"{path}.status.name", value=(val or {}).get("name") if isinstance(val, dict) else val,
                  allowed=", ".join(STATUS_NAMES))
            return False
    if key == "buff":
        if not isinstance(val, dict):
            v.add("field.type", f"{path}.buff", expected="mapping", got=type(val).__name__)
            return False
        if False in val:  # YAML 1.1 reads a bare `off:` key as false
            val["off"] = val.pop(False)
        for k in val:
            if k not in BUFF_KEYS:
                v.add("field.unknown", f"{path}.buff.{k}", allowed=", ".join(BUFF_KEYS))
        for stat, x in (val.get("stats") or {}).items():
            if stat not in BUFF_STATS:
                v.add("field.unknown", f"{path}.buff.stats.{stat}", allowed=", ".join(BUFF_STATS))
            elif stat in PCT_STATS and (not isinstance(x, int) or abs(x) not in PCT_PIPS):
                v.add("hunlu.catalogue.pct", f"{path}.buff.stats.{stat}", value=x)
    if key == "buff" and val.get("heart") is not None:
        heart = val["heart"]
        if not isinstance(heart, dict) or not set(heart) <= {"A", "B"}:
            v.add("hunlu.catalogue.heart", f"{path}.buff.heart")
        else:
            for card, effs in heart.items():
                if not isinstance(effs, list):
                    v.add("hunlu.catalogue.heart", f"{path}.buff.heart.{card}")
                    continue
                for i, sub in enumerate(effs):
                    check_effect(v, sub, f"{path}.buff.heart.{card}.{i}")
    if key == "if":
        if not isinstance(val, dict) or "cond" not in val or not isinstance(val.get("then"), list):
            v.add("hunlu.catalogue.if", f"{path}.if")
            return False
        cond = val["cond"]
        if not (cond in CONDITIONS or (isinstance(cond, dict) and set(cond) == {"within"})):
            v.add("field.choice", f"{path}.if.cond", value=cond, allowed=", ".join(CONDITIONS) + ", {within: N}")
        for i, sub in enumerate(val["then"]):
            check_effect(v, sub, f"{path}.if.then.{i}")
    return True

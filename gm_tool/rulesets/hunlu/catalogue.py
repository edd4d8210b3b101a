"""The general catalogue: the bundled samples (data/generals.yaml) plus a scenario's own generals
and shared skills, checked field by field so a GM adds a general without Python."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from gm_tool.core import safeyaml
from gm_tool.core.schema import Validator
from gm_tool.rulesets.hunlu.effects import check_effect, kind_of
from gm_tool.rulesets.hunlu.rules import ATTRS, ELEMENTS, PCT_PIPS

DATA = Path(__file__).parent / "data"
TIMINGS = ("active", "first", "toggle", "passive")
TRIGGERS = ("round_start", "round_end", "attacked", "damaged", "static")
SHAPES = ("self", "single", "all", "first_in_direction", "point")
AFFECTS = ("enemies", "allies", "all")


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
    return kind_of(effect)[0].moves_caster

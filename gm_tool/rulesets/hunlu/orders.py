"""Order sheets (contract section 3): one general's turn plus standing orders, with the seed's
Chinese wording accepted for keys and values. ``parse`` refuses what is illegal before any roll
by playing the actions on a copy of the state (moves, dashes, knockbacks; no damage, no luck)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gm_tool.core.grid import cell_name
from gm_tool.core.schema import Validator
from gm_tool.core.yamlpos import register_aliases
from gm_tool.errors import Problem
from gm_tool.rulesets.hunlu.actions import ACTIONS, CARDS, check_game, find_unit, run
from gm_tool.rulesets.hunlu.actions import read as read_action
from gm_tool.rulesets.hunlu.engine import skills_of

# the actions' keys and fields, with the seed's words, are the kinds' own (actions.py)
# 步: one general's turn (a `gm resolve`; 回合, the seed's big round (l.81), is still read here for
# the sheets written before the vocabulary was settled)
SHEET_KEYS = {"turn": "turn", "步": "turn", "回合": "turn", "player": "player", "玩家": "player", "unit": "unit",
              "魂将": "unit", "actions": "actions", "行动": "actions", "standing": "standing", "常驻": "standing"}
STANDING_KEYS = {"joint_attack": "joint_attack", "联合攻击": "joint_attack", "reserve_order": "reserve_order",
                 "替补顺序": "reserve_order", "chasm_return": "chasm_return", "天堑回归": "chasm_return",
                 "first_skills": "first_skills", "先手": "first_skills", "先手技能": "first_skills",
                 "heart_card": "heart_card", "心战": "heart_card", "first_recast": "first_recast",
                 "先手重放": "first_recast"}
RECAST = {"ended": "ended", "every_round": "every_round", "效果结束后": "ended", "每回合": "every_round"}
JOINT_KEYS = {"against": "against", "目标": "against", "when": "when", "时机": "when", "keep_qi": "keep_qi",
              "保留气": "keep_qi"}
WHEN = {"any": "any", "任意": "any", "before_turn": "before_turn", "回合前": "before_turn",
        "after_turn": "after_turn", "回合后": "after_turn"}
# problems are found on their line whichever spelling the sheet used (`gm check` names the line)
register_aliases(SHEET_KEYS, ACTIONS.words(), STANDING_KEYS, JOINT_KEYS)
MAX_ACTIONS = 8


@dataclass
class Orders:
    player: str
    unit: str | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    standing: dict[str, Any] = field(default_factory=dict)
    warnings: list[Problem] = field(default_factory=list, compare=False)  # accepted, but an action will do nothing


def parse(state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str) -> Orders:
    v = Validator(source, lang)
    sh = v.unknown_keys(sheet, SHEET_KEYS)
    player = sh.get("player")
    if not isinstance(player, str) or player not in state["players"]:
        v.add("player.unknown", "player", player=player, allowed=", ".join(state["players"]))
        v.raise_if_any()
    assert isinstance(player, str)
    if sh.get("turn") is not None:
        v.turn(sh, "turn", state["turn"] + 1)
    units = {u["id"]: u for u in state["units"]}
    nxt = state.get("next")
    due_unit = nxt["unit"] if nxt and nxt["player"] == player else None
    unit = sh.get("unit")
    if unit is not None and unit != due_unit:
        v.add("hunlu.orders.unit_not_due", "unit", unit=unit, due=nxt["unit"] if nxt else "-")
    actions: list[dict[str, Any]] = []
    raw = sh.get("actions")
    if raw is not None and v.typed(raw, list, "actions") and raw:  # 0, false and '' are not an empty list
        if due_unit is None:
            v.add("hunlu.orders.not_due", "actions", player=player, due=nxt["player"] if nxt else "-")
        else:
            if len(raw) > MAX_ACTIONS:
                v.add("hunlu.orders.too_many", "actions", count=len(raw), limit=MAX_ACTIONS)
            else:
                parsed = [read_action(v, state, units[due_unit], x, f"actions.{i}") for i, x in enumerate(raw)]
                actions = [a for a in parsed if a is not None]
    standing = parse_standing(v, state, player, sh.get("standing"), units)
    v.raise_if_any()
    warnings = []
    if actions:
        g = check_game(state)
        apply_standing(g.s, player, standing)
        for p in run(g, g.units[str(due_unit)], actions, strict=True):
            v.problems.append(Problem(f"hunlu.skip.{p.code}", source, p.field, p.params))
        v.raise_if_any()
        warnings = [Problem(f"hunlu.warn.{w.code}", source, w.field, w.params) for w in g.warnings]
    return Orders(player, due_unit, actions, standing, warnings)


def parse_standing(v: Validator, state: dict[str, Any], player: str, raw: Any,
                   units: dict[str, dict[str, Any]]) -> dict[str, Any]:
    if raw is None:
        return {}
    if not v.typed(raw, dict, "standing"):
        return {}
    st = v.unknown_keys(raw, STANDING_KEYS, "standing.")
    own = [uid for uid, u in units.items() if u["player"] == player]
    out: dict[str, Any] = {}

    def own_unit(uid: Any, path: str) -> str | None:
        ref = find_unit(v, state, str(uid), path, lambda x: x["player"] == player)
        if ref not in own:
            v.add("hunlu.orders.not_own", path, unit=uid, allowed=", ".join(own))
            return None
        return ref

    def per_unit(key: str):
        """(own unit, its value, its field) for each entry of the mapping ``standing.KEY``."""
        raw = {} if st[key] is None else st[key]
        out[key] = {}
        if v.typed(raw, dict, f"standing.{key}"):
            for uid, val in raw.items():
                ref = own_unit(uid, f"standing.{key}.{uid}")
                if ref is not None:
                    yield ref, val, f"standing.{key}.{uid}"

    if "joint_attack" in st:
        for ref, spec, p in per_unit("joint_attack"):
            spec = spec if spec is not None else {}
            if not v.typed(spec, dict, p):
                continue
            spec = v.unknown_keys(spec, JOINT_KEYS, p + ".")
            against = spec.get("against", "any")
            if against in ("any", "任意"):
                against = "any"
            elif isinstance(against, list) and all(isinstance(x, str) for x in against):
                against = [find_unit(v, state, x, f"{p}.against.{k}", lambda x: x["player"] != player)
                           for k, x in enumerate(against)]
                for k, x in enumerate(against):
                    if x not in units or units[x]["side"] == units[ref]["side"]:
                        v.add("hunlu.orders.not_enemy_unit", f"{p}.against.{k}", unit=x)
            else:
                v.add("field.choice", f"{p}.against", value=against, allowed="any, [ids]")
            out["joint_attack"][ref] = {"against": against,
                                        "when": v.choice(spec, "when", WHEN, f"{p}.when", "any"),
                                        "keep_qi": v.integer(spec, "keep_qi", f"{p}.keep_qi", 0, 99, 0)}
    if "reserve_order" in st:
        ro = [] if st["reserve_order"] is None else st["reserve_order"]
        if v.typed(ro, list, "standing.reserve_order"):
            out["reserve_order"] = [r for k, x in enumerate(ro) if (r := own_unit(x, f"standing.reserve_order.{k}"))]
    if "chasm_return" in st:
        w, h = state["map"]["width"], state["map"]["height"]
        for ref, cells, p in per_unit("chasm_return"):
            cells = cells if isinstance(cells, list) else [cells]
            got = [v.cell(c, f"{p}.{k}", w, h) for k, c in enumerate(cells)]
            out["chasm_return"][ref] = [cell_name(c) for c in got if c]
    if "first_skills" in st:
        for ref, sids, p in per_unit("first_skills"):
            sids = sids if isinstance(sids, list) else [sids]
            skills = skills_of(state, units[ref])
            firsts = {s["id"]: s["id"] for s in skills if s["timing"] == "first"}
            firsts.update({s["name"]: s["id"] for s in skills if s["timing"] == "first"})
            got = []
            for k, sid in enumerate(sids):
                if sid not in firsts:
                    v.add("hunlu.orders.not_first", f"{p}.{k}", skill=sid,
                          allowed=", ".join(sorted(set(firsts.values()))) or "-")
                else:
                    got.append(firsts[sid])
            out["first_skills"][ref] = got
    if "first_recast" in st:
        for ref, when, p in per_unit("first_recast"):
            c = v.choice({"c": when}, "c", RECAST, p)
            if c:
                out["first_recast"][ref] = c
    if "heart_card" in st:
        for ref, card, p in per_unit("heart_card"):
            c = v.choice({"c": card}, "c", CARDS, p)
            if c:
                out["heart_card"][ref] = c
    return out


def apply_standing(state: dict[str, Any], player: str, standing: dict[str, Any]) -> None:
    """Each key given replaces the stored one."""
    mine = state["standing"].setdefault(player, {})
    for k in sorted(standing):
        mine[k] = standing[k]  # parsed fresh from a sheet, never changed afterwards

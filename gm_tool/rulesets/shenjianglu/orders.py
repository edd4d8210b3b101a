"""Order sheets (contract §2): keys and values in English or the seed's words, each action
checked by playing the sheet on a copy of the state (engine.play), so `gm check` refuses exactly
what resolution could not do, naming ``actions.N.FIELD`` (N from 1) and what is allowed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm_tool.core import safeyaml, yamlpos
from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name, column_name, parse_cell
from gm_tool.core.schema import turn_problem
from gm_tool.errors import GmError, Problem
from gm_tool.rulesets.shenjianglu.cards import wrong
from gm_tool.rulesets.shenjianglu.engine import Illegal, play
from gm_tool.rulesets.shenjianglu.keys import ACTION_KEYS, TOP_KEYS

yamlpos.register_aliases(TOP_KEYS, ACTION_KEYS)
KINDS = ("summon", "command", "cast", "equip")
FIELDS = {"summon": ("summon", "at", "id"), "command": ("command", "to", "via", "attack", "skill", "targets"),
          "cast": ("cast", "targets"), "equip": ("equip", "unit")}
MAX_ACTIONS = 60


@dataclass
class Orders:
    player: str
    turn: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # valid, but not what the player wants


def _bad(problems: list[Problem], source: str, code: str, field: str, **params: Any) -> None:
    problems.append(Problem(code, source, field, params))


def _text(v: Any) -> str | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (str, int)):
        s = str(v).strip()
        return s if 0 < len(s) <= 40 else None
    return None


def _action(raw: Any, i: int, board: dict[str, Any], source: str, problems: list[Problem]) -> dict[str, Any] | None:
    path = f"actions.{i}"
    if isinstance(raw, str) and "：" in raw:  # `- 召唤：周骑`: one line read as one string
        key, _, value = raw.partition("：")
        _bad(problems, source, "shenjianglu.orders.fullwidth_colon", path, key=key.strip(), value=value.strip())
        return None
    if not isinstance(raw, dict):
        _bad(problems, source, "shenjianglu.type.mapping", path, **wrong(raw))
        return None
    data: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    ok = True
    for k, v in raw.items():
        canon = ACTION_KEYS.get(k) if isinstance(k, str) else None
        if canon is None:
            ok = False
            if isinstance(k, str) and "：" in k:  # {召唤：周骑, ...}
                key, _, value = k.partition("：")
                _bad(problems, source, "shenjianglu.orders.fullwidth_colon", f"{path}.{k}", key=key.strip(),
                     value=value.strip())
            elif type(k) is int and v is None:  # {at: C,7}: the comma split the cell in two
                _bad(problems, source, "shenjianglu.orders.split_cell", f"{path}.{k}", number=k)
            else:
                _bad(problems, source, "field.unknown", f"{path}.{k}", allowed=", ".join(sorted(set(ACTION_KEYS.values()))))
        elif canon in data:
            _bad(problems, source, "shenjianglu.orders.same_key", f"{path}.{k}", key=k, first=spelled[canon])
            ok = False
        else:
            data[canon] = v
            spelled[canon] = str(k)
    kinds = [k for k in KINDS if k in data]
    if len(kinds) != 1:
        _bad(problems, source, "shenjianglu.orders.one_kind", path, got=", ".join(kinds) or "-")
        return None
    kind = kinds[0]
    for k in data:
        if k not in FIELDS[kind]:
            _bad(problems, source, "shenjianglu.orders.field_not_for", f"{path}.{k}", kind=kind,
                 allowed=", ".join(FIELDS[kind]))
            ok = False
    w, h = board["width"], board["height"]

    def cell(v: Any, p: str) -> str | None:
        try:
            if isinstance(v, list) and len(v) == 2:
                v = f"{v[0]}{v[1]}"
            return cell_name(parse_cell(v, w, h))
        except ValueError:
            _bad(problems, source, "cell.bad", p, value=v, cols=f"A-{column_name(w - 1)}", rows=h)
            return None

    def name(key: str) -> str | None:
        s = _text(data.get(key))
        if s is None:
            _bad(problems, source, "shenjianglu.type.name", f"{path}.{key}", **wrong(data.get(key)))
        return s

    out: dict[str, Any] = {"kind": kind}
    if kind == "summon":
        out["card"] = name("summon")
        out["at"] = cell(data["at"], f"{path}.at") if "at" in data else None
        if "at" not in data:
            _bad(problems, source, "field.required", f"{path}.at")
        if data.get("id") is not None:
            out["id"] = name("id")
            if out["id"] and not all(ch.isalnum() or ch in "-_" for ch in out["id"]):
                _bad(problems, source, "player.bad_name", f"{path}.id", player=out["id"])
    elif kind == "command":
        out["unit"] = name("command")
        if data.get("skill") is not None:
            out["skill"] = name("skill")
            for k in ("to", "via", "attack"):
                if data.get(k) is not None:
                    _bad(problems, source, "shenjianglu.orders.skill_in_place", f"{path}.{k}")
                    ok = False
        elif data.get("targets") is not None:
            _bad(problems, source, "shenjianglu.orders.targets_need_skill", f"{path}.targets")
        if data.get("to") is not None:
            out["to"] = cell(data["to"], f"{path}.to")
        if data.get("via") is not None:
            via = data["via"] if isinstance(data["via"], list) else [data["via"]]
            if len(via) > 20:
                _bad(problems, source, "field.range", f"{path}.via", value=len(via), allowed="0-20")
                via = []
            out["via"] = [cell(v, f"{path}.via.{j}") for j, v in enumerate(via, 1)]
        if data.get("attack") is not None:
            out["attack"] = name("attack")
    elif kind == "cast":
        out["card"] = name("cast")
    else:
        out["card"] = name("equip")
        if "unit" not in data:
            _bad(problems, source, "field.required", f"{path}.unit")
        else:
            out["unit"] = name("unit")
    if "targets" in FIELDS[kind] and data.get("targets") is not None:
        t = data["targets"]
        t = t if isinstance(t, list) else [t]
        if len(t) > 8:
            _bad(problems, source, "field.range", f"{path}.targets", value=len(t), allowed="1-8")
            t = []
        targets: list[str] = []
        for j, x in enumerate(t, 1):
            name_ = _text(x)
            if name_ is None:
                _bad(problems, source, "shenjianglu.type.unit", f"{path}.targets.{j}", **wrong(x))
            else:
                targets.append(name_)
        out["targets"] = targets
    elif kind == "cast":
        out["targets"] = []
    return out if ok else None


def parse(state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str = "zh") -> Orders:
    problems: list[Problem] = []
    data: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for k, v in sheet.items():
        canon = TOP_KEYS.get(k) if isinstance(k, str) else None
        if canon is None:
            _bad(problems, source, "field.unknown", str(k), allowed="turn, player, actions")
        elif canon in data:
            _bad(problems, source, "shenjianglu.orders.same_key", str(k), key=k, first=spelled[canon])
        else:
            data[canon] = v
            spelled[canon] = str(k)
    player = data.get("player")
    if state.get("next") is None:
        _bad(problems, source, "shenjianglu.orders.game_over", "player", winner=state.get("winner"))
        raise GmError(problems)
    if "player" not in data:
        _bad(problems, source, "field.required", "player")
    elif player != state["next"]:
        players = [s["player"] for s in state["seats"]]
        if player in players:
            _bad(problems, source, "shenjianglu.orders.not_due", "player", player=player, allowed=state["next"])
        else:
            _bad(problems, source, "player.unknown", "player", player=player, allowed=", ".join(players))
    expected = state["turn"] + 1
    if "turn" not in data:
        _bad(problems, source, "field.required", "turn")
    elif (bad_turn := turn_problem(data["turn"], expected, lang)) is not None:
        _bad(problems, source, bad_turn[0], "turn", **bad_turn[1])
    raw = data.get("actions", [])
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        _bad(problems, source, "shenjianglu.type.list", "actions", **wrong(raw))
        raw = []
    if len(raw) > MAX_ACTIONS:
        _bad(problems, source, "field.range", "actions", value=len(raw), allowed=f"0-{MAX_ACTIONS}")
        raw = []
    actions = [_action(a, i, state["board"], source, problems) for i, a in enumerate(raw, 1)]
    if problems:
        raise _lines(GmError(problems), source)
    orders = Orders(player=state["next"], turn=expected, actions=actions)  # type: ignore[arg-type]
    orders.warnings = check(state, orders, source, problems)
    if problems:
        raise _lines(GmError(problems), source)
    if orders.warnings:
        _lines(GmError(orders.warnings), source)
    return orders


def _lines(error: GmError, source: str) -> GmError:
    """Put the line of each ``actions.N`` problem on it: N counts from 1 (contract §2) where the
    core's line finder counts list items from 0, so the sheet's text is read here (only when a
    sheet is refused, and only a file the core has already loaded safely)."""
    try:
        path = Path(source)
        text = path.read_text("utf-8") if path.is_file() and path.stat().st_size <= safeyaml.MAX_BYTES else None
    except (OSError, ValueError):
        text = None
    if text is None:
        return error
    root = yamlpos.compose(safeyaml.unwrap_code(text))
    index: dict[int, Any] = {}
    lines = text.splitlines()
    for p in error.problems:
        m = _ACTION.match(p.field or "")
        if m and p.line is None and root is not None:
            rest = re.sub(r"\.(\d+)", lambda k: f"[{int(k.group(1)) - 1}]", m.group(2))
            p.line = yamlpos.node_line(root, f"actions[{int(m.group(1)) - 1}]{rest}", index)
            if p.code == "cell.bad" and p.line and "{" in lines[p.line - 1]:
                p.code = "shenjianglu.cell.bad_flow"  # inside {...} only C7 reads as a cell
    return error


_ACTION = re.compile(r"^actions\.(\d+)(.*)$")


def check(state: dict[str, Any], orders: Orders, source: str, problems: list[Problem]) -> list[Problem]:
    """Play the sheet on a copy; every action illegal at its point becomes a problem. Returns
    the warnings of a sheet that is legal but hurts its player: the action its own king dies in."""
    warnings: list[Problem] = []

    def illegal(i: int, bad: Illegal) -> None:
        problems.append(Problem(bad.code, source, f"actions.{i}.{bad.field}", bad.params))

    def after(i: int, turn: Any) -> None:
        seat = turn.seat_by_player.get(orders.player)
        if not warnings and seat is not None and seat["out"]:
            warnings.append(Problem("shenjianglu.orders.king_dies", source, f"actions.{i}", {}))

    play(state, orders.actions, EventLog(), on_illegal=illegal, after_action=after)
    return warnings

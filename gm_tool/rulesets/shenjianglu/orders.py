"""Order sheets (contract §2): keys and values in English or the seed's words, each action read
by its kind (actions.py) and checked by playing the sheet on a copy of the state
(:func:`actions.play`), so `gm check` refuses exactly what resolution could not do, naming
``actions.N.FIELD`` (N from 1) and what is allowed."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm_tool.core import safeyaml, yamlpos
from gm_tool.core.actions import Reading
from gm_tool.core.events import EventLog
from gm_tool.core.schema import turn_problem
from gm_tool.errors import GmError, Problem
from gm_tool.rulesets.shenjianglu.actions import Order, play, read_entry
from gm_tool.rulesets.shenjianglu.cards import wrong
from gm_tool.rulesets.shenjianglu.engine import Illegal, Turn
from gm_tool.rulesets.shenjianglu.keys import ACTION_KEYS, TOP_KEYS

yamlpos.register_aliases(TOP_KEYS, ACTION_KEYS)
MAX_ACTIONS = 60


@dataclass
class Orders:
    player: str
    turn: int
    actions: list[Order] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)  # valid, but not what the player wants


def parse(state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str = "zh") -> Orders:
    reading: Reading[dict[str, Any]] = Reading(state, str(state.get("next")), source)
    problems = reading.problems
    data: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for k, v in sheet.items():
        canon = TOP_KEYS.get(k) if isinstance(k, str) else None
        if canon is None:
            reading.problem(str(k), "field.unknown", allowed="turn, player, actions")
        elif canon in data:
            reading.problem(str(k), "shenjianglu.orders.same_key", key=k, first=spelled[canon])
        else:
            data[canon] = v
            spelled[canon] = str(k)
    player = data.get("player")
    if state.get("next") is None:
        reading.problem("player", "shenjianglu.orders.game_over", winner=state.get("winner"))
        raise GmError(problems)
    if "player" not in data:
        reading.problem("player", "field.required")
    elif player != state["next"]:
        players = [s["player"] for s in state["seats"]]
        if player in players:
            reading.problem("player", "shenjianglu.orders.not_due", player=player, allowed=state["next"])
        else:
            reading.problem("player", "player.unknown", player=player, allowed=", ".join(players))
    expected = state["turn"] + 1
    if "turn" not in data:
        reading.problem("turn", "field.required")
    elif (bad_turn := turn_problem(data["turn"], expected, lang)) is not None:
        reading.problem("turn", bad_turn[0], **bad_turn[1])
    raw = data.get("actions", [])
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        reading.problem("actions", "shenjianglu.type.list", **wrong(raw))
        raw = []
    if len(raw) > MAX_ACTIONS:
        reading.problem("actions", "field.range", value=len(raw), allowed=f"0-{MAX_ACTIONS}")
        raw = []
    actions = [read_entry(a, i, reading) for i, a in enumerate(raw, 1)]
    if problems:
        raise _lines(GmError(problems), source)
    orders = Orders(player=state["next"], turn=expected, actions=[a for a in actions if a is not None])
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

    def after(i: int, turn: Turn) -> None:
        seat = turn.seat_by_player.get(orders.player)
        if not warnings and seat is not None and seat["out"]:
            warnings.append(Problem("shenjianglu.orders.king_dies", source, f"actions.{i}", {}))

    play(state, orders.actions, EventLog(), on_illegal=illegal, after_action=after)
    return warnings

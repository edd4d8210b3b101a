"""A small kit for 光与影 rule cases: a board from a few squads, one turn played from a sheet
(checked first, like `gm resolve`), and the refusals `gm check` gives."""

from __future__ import annotations

from typing import Any

from gm_tool.errors import GmError
from gm_tool.rulesets.guangying import RULESET
from gm_tool.rulesets.guangying.engine import play
from gm_tool.rulesets.guangying.sheet import Orders


def sq(owner: str, pos: str, *members: str, id: str | None = None) -> dict[str, Any]:
    """A squad: members "w1:战士" or "w1:战士:12" (hp), leader first."""
    out = []
    for m in members:
        parts = m.split(":")
        entry: dict[str, Any] = {"id": parts[0], "class": parts[1]}
        if len(parts) > 2:
            entry["hp"] = int(parts[2])
        out.append(entry)
    q: dict[str, Any] = {"owner": owner, "pos": pos, "members": out}
    if id:
        q["id"] = id
    return q


def board(*squads: dict[str, Any], first: str = "alice", **extra: Any) -> dict[str, Any]:
    scenario = {"ruleset": "guangying", "players": ["alice", "bob"], "first": first, "squads": list(squads), **extra}
    return RULESET.setup(scenario, "test.yaml", "seed")


def turn(state: dict[str, Any], *actions: dict[str, Any], standing: dict[str, Any] | None = None):
    """Check the sheet, then resolve it: (state after, events)."""
    sheet: dict[str, Any] = {"turn": state["turn"] + 1, "player": state["next"], "actions": list(actions)}
    if standing is not None:
        sheet["standing"] = standing
    orders = RULESET.parse_orders(state, sheet, "sheet.yaml", "en")
    res = RULESET.resolve(state, {state["next"]: orders}, "seed")
    return res.state, res.events


def force(state: dict[str, Any], *actions: dict[str, Any]):
    """Resolve actions without checking them first (what `gm resolve` does with a sheet whose
    actions became impossible): (state after, events)."""
    from gm_tool.rulesets.guangying.sheet import _Reader

    r = _Reader("sheet.yaml", "en")
    parsed = []
    for i, a in enumerate(actions):
        got = r.action(i, a)
        assert got is not None, r.problems
        got["index"] = i
        parsed.append(got)
    game, _ = play(state, Orders(state["next"], state["turn"] + 1, parsed, None))
    return game.s, game.log.events


def passes(state: dict[str, Any]):
    return turn(state)


def refusals(state: dict[str, Any], *actions: dict[str, Any], player: str | None = None, **top: Any) -> list[tuple[str, str]]:
    """(field, code) of every problem `gm check` finds; [] when the sheet is valid."""
    sheet: dict[str, Any] = {"turn": state["turn"] + 1, "player": player or state["next"], "actions": list(actions), **top}
    try:
        RULESET.parse_orders(state, sheet, "sheet.yaml", "en")
    except GmError as exc:
        return [(p.field, p.code.removeprefix("guangying.action.")) for p in exc.problems]
    return []


def piece(state: dict[str, Any], pid: str) -> dict[str, Any] | None:
    return next((p for p in state["pieces"] if p["id"] == pid), None)


def hp(state: dict[str, Any], pid: str) -> int | None:
    p = piece(state, pid)
    if p is not None:
        return p["hp"]
    for pl in state["players"]:
        for h in pl["in_hand"]:
            if h["id"] == pid:
                return h["hp"]
    return None


def squad(state: dict[str, Any], ref: str) -> dict[str, Any] | None:
    for q in state["squads"]:
        if q["id"] == ref or ref in q["members"]:
            return q
    return None


def pos(state: dict[str, Any], ref: str) -> str | None:
    q = squad(state, ref)
    return q["pos"] if q else None


def player(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in state["players"] if p["player"] == name)


def dead(state: dict[str, Any], pid: str) -> bool:
    return any(pid in p["dead"] for p in state["players"])


def of(events: list[dict[str, Any]], type_: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == type_]

"""GM edits between turns (contract §2): set-hp, move, set-fortress, kill, remove-marker."""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.ruleset import AmendAction, Arg
from gm_tool.errors import GmError
from gm_tool.rulesets.guangying.engine import copy_state
from gm_tool.rulesets.guangying.model import ROCK, Game
from gm_tool.rulesets.guangying.sheet import _cell

ACTIONS = {
    "set_hp": AmendAction((Arg("piece"), Arg("hp", "int", 1)),
                          {"zh": "设定棋子生命（不超过上限）", "en": "set a piece's HP (at most its max)"}),
    "move": AmendAction((Arg("squad"), Arg("cell")), {"zh": "把小队放到空格", "en": "put a squad on an empty cell"}),
    "set_fortress": AmendAction((Arg("player"), Arg("hp", "int", 0)),
                                {"zh": "设定要塞生命", "en": "set a fortress's HP"}),
    "kill": AmendAction((Arg("piece"),), {"zh": "移除一枚棋子（阵亡）", "en": "remove a piece (dead)"}),
    "remove_marker": AmendAction((Arg("id"),), {"zh": "移除岩或风墙（回到池中）", "en": "remove a rock or wall (back to the pool)"}),
}


def amend(state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    log = EventLog()
    g = Game(copy_state(state), live=True, log=log)
    name, args, reason = action["action"], action["args"], action.get("reason", "")
    log.emit("amend", action=name, args=[str(a) for a in args], reason=reason)

    def fail(code: str, value: Any, i: int = 0) -> GmError:
        return GmError.one("guangying.amend." + code, file=source, field=f"args.{i}", value=value)

    if name in ("set_hp", "kill"):
        p = g.pieces.get(args[0])
        if p is None:
            raise fail("piece", args[0])
        if name == "kill":
            g.kill(p, "gm")
        else:
            p["hp"] = min(args[1], p["max_hp"])
    elif name == "move":
        q = g.squads.get(args[0])
        if q is None:
            raise fail("squad", args[0])
        c = _cell(args[1])
        if c is None or g.squad_at(c) or g.fortress_owner(c) or g.marker_at(c, ROCK):
            raise fail("cell", args[1], 1)
        q["pos"] = c
        for m in q["members"]:
            g.pieces[m]["pos"] = c
    elif name == "set_fortress":
        pl = g.players.get(args[0])
        if pl is None:
            raise fail("player", args[0])
        pl["fortress_hp"] = args[1]
    elif name == "remove_marker":
        m = g.markers.get(args[0])
        if m is None:
            raise fail("marker", args[0])
        g.s["markers"].remove(m)
        g.players[m["owner"]]["pool"][m["kind"]] += 1
        for p in g.s["pieces"]:
            if p.get("maintaining") == m["id"]:
                p["maintaining"] = None
    return g.s, list(log)

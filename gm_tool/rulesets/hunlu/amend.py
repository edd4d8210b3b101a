"""GM edits between turns: 精/气/神, positions, statuses, the acting order."""

from __future__ import annotations

import copy
from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.ruleset import AmendAction, Arg
from gm_tool.errors import GmError
from gm_tool.rulesets.hunlu.catalogue import STATUS_NAMES
from gm_tool.rulesets.hunlu.engine import Dice, Game

ACTIONS = {
    "set_jing": AmendAction((Arg("unit"), Arg("jing")), {"zh": "设定精（0.5 步长，如 3.5）", "en": "set 精 (in steps of 0.5, e.g. 3.5)"}),
    "set_qi": AmendAction((Arg("unit"), Arg("qi")), {"zh": "设定气（0.5 步长）", "en": "set 气 (in steps of 0.5)"}),
    "set_shen": AmendAction((Arg("unit"), Arg("shen", "int", 0)), {"zh": "设定神", "en": "set 神"}),
    "move": AmendAction((Arg("unit"), Arg("cell")), {"zh": "移动魂将到一点", "en": "put a general on a point"}),
    "add_status": AmendAction((Arg("unit"), Arg("name"), Arg("rounds", "int", 0)), {"zh": "加一个状态（0 = 无限）", "en": "add a status (0 = unlimited)"}),
    "remove_status": AmendAction((Arg("unit"), Arg("name")), {"zh": "移除一个状态", "en": "remove a status"}),
    "set_order": AmendAction((Arg("units", "str..."),), {"zh": "重排行动顺序", "en": "rewrite the acting order"}),
}


def amend(state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    s = copy.deepcopy(state)
    log = EventLog()
    g = Game(s, Dice(s, None, lambda: 1), log)
    name, args, reason = action["action"], action["args"], action.get("reason", "")
    units = {u["id"]: u for u in s["units"]}

    def unit(i: int) -> dict[str, Any]:
        if args[i] not in units:
            raise GmError.one("hunlu.amend.unit", file=source, field=f"args.{i}", value=args[i], allowed=", ".join(units))
        return units[args[i]]

    what = f"{name} {' '.join(str(a) for a in args)}"
    if name in ("set_jing", "set_qi"):
        u = unit(0)
        key = "jing" if name == "set_jing" else "qi"
        top = u["max_jing"] if key == "jing" else 99
        try:
            val = float(str(args[1]).strip())
        except ValueError:
            val = -1.0
        if not 0 <= val <= top or val * 2 != int(val * 2):
            raise GmError.one("hunlu.amend.value", file=source, field="args.1", value=args[1],
                              allowed=f"0-{top}, 0.5 步长")
        u[key] = int(val) if val == int(val) else val
        if key == "jing" and val <= 0 and u["alive"]:
            g.die(u)
    elif name == "set_shen":
        u = unit(0)
        if args[1] > u["max_shen"]:
            raise GmError.one("hunlu.amend.value", file=source, field="args.1", value=args[1], allowed=f"0-{u['max_shen']}")
        u["shen"] = args[1]
    elif name == "move":
        u = unit(0)
        try:
            c = parse_cell(args[1], s["map"]["width"], s["map"]["height"])
        except ValueError:
            c = None
        if c is None or c in g.terrain or (g.unit_at(c) not in (None, u)):
            raise GmError.one("hunlu.amend.cell", file=source, field="args.1", value=args[1])
        u["pos"] = cell_name(c)
        u["chasm"] = None
    elif name == "add_status":
        u = unit(0)
        if args[1] not in STATUS_NAMES:
            raise GmError.one("hunlu.amend.status", file=source, field="args.1", value=args[1], allowed=", ".join(STATUS_NAMES))
        u["statuses"].append({"name": args[1], "rounds": args[2] or None, "active": True, "source": "gm"})
    elif name == "remove_status":
        u = unit(0)
        names = [st["name"] for st in u["statuses"]]
        if args[1] not in names:
            raise GmError.one("hunlu.amend.status", file=source, field="args.1", value=args[1], allowed=", ".join(names) or "-")
        u["statuses"] = [st for st in u["statuses"] if st["name"] != args[1]]
    elif name == "set_order":
        if sorted(args) != sorted(s["order"]):
            raise GmError.one("hunlu.amend.order", file=source, field="args", allowed=", ".join(s["order"]))
        s["order"] = list(args)
    log.emit("amend", what=what, reason=reason)
    if s["winner"] is not None:
        s["next"] = None
    elif (s.get("next") is None or not g.can_act(g.units[s["next"]["unit"]])):
        s["next"] = None
        g.advance()
    from gm_tool.rulesets.hunlu.setup import refresh

    refresh(g)
    return s, log.events

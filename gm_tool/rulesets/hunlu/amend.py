"""GM edits between turns: 精/气/神, 行动点 and 行动力, positions, statuses, the acting order, and
granting or removing a general's turn. Each edit is one ``amend`` event the posts tell as a
sentence (the edit, the general, the new value, the reason)."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.ruleset import AmendAction, Arg, read_number
from gm_tool.errors import GmError
from gm_tool.rulesets.hunlu.effects import STATUS_NAMES
from gm_tool.rulesets.hunlu.engine import Dice, Game
from gm_tool.rulesets.hunlu.rules import num


class _Help(Mapping):
    """The one-line description of an edit in each language, read from the ruleset's words
    when first asked for (`gm amend --help` lists the edits without reading them)."""

    def __init__(self, action: str) -> None:
        self.action = action

    def __getitem__(self, lang: str) -> str:
        from gm_tool.rulesets.hunlu.messages import label

        return label(lang, f"amend_help.{self.action}")

    def __iter__(self) -> Iterator[str]:
        from gm_tool.i18n import LANGS

        return iter(LANGS)

    def __len__(self) -> int:
        from gm_tool.i18n import LANGS

        return len(LANGS)


def _help(action: str) -> Any:
    return _Help(action)


ACTIONS = {
    "set_jing": AmendAction((Arg("unit"), Arg("jing")), _help("set_jing")),
    "set_qi": AmendAction((Arg("unit"), Arg("qi")), _help("set_qi")),
    "set_shen": AmendAction((Arg("unit"), Arg("shen", "int", 0)), _help("set_shen")),
    "set_ap": AmendAction((Arg("unit"), Arg("ap", "int", 0)), _help("set_ap")),
    "set_move": AmendAction((Arg("unit"), Arg("move", "int", 0)), _help("set_move")),
    "grant_turn": AmendAction((Arg("unit"),), _help("grant_turn")),
    "remove_turn": AmendAction((Arg("unit"),), _help("remove_turn")),
    "move": AmendAction((Arg("unit"), Arg("cell")), _help("move")),
    "add_status": AmendAction((Arg("unit"), Arg("name"), Arg("rounds", "int", 0)), _help("add_status")),
    "remove_status": AmendAction((Arg("unit"), Arg("name")), _help("remove_status")),
    "set_order": AmendAction((Arg("units", "str..."),), _help("set_order")),
}
MAX_AP, MAX_MOVE = 9, 99


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

    def refuse(code: str = "hunlu.amend.value", field: str = "args.1", **params: Any) -> GmError:
        return GmError.one(code, file=source, field=field, **params)

    def on_field(u: dict[str, Any]) -> None:
        if not g.can_act(u) and name == "grant_turn" or u["role"] != "main" or not u["alive"]:
            raise refuse("hunlu.amend.not_acting", field="args.0", unit=u["id"], why=g.why_not(u))

    u = unit(0) if name != "set_order" else None
    value: Any = args[1] if len(args) > 1 else None
    # the amend event first: what follows (a death, a 寂灭, the next general) comes after it
    event = log.emit("amend", action=name, unit=u["id"] if u else None, value=value, reason=reason)
    if u is not None and name in ("set_jing", "set_qi"):
        key = "jing" if name == "set_jing" else "qi"
        top = u["max_jing"] if key == "jing" else 99
        val = read_number(args[1], halves=True)  # float() took "1_0", Arabic-Indic digits, "1e1"
        if val is None or not 0 <= val <= top or val * 2 != int(val * 2):
            raise refuse(value=args[1], allowed=f"0-{top}, 0.5 步长")
        u[key] = event["value"] = num(val)
        if key == "jing" and val <= 0 and u["alive"]:
            g.die(u)
    elif u is not None and name == "set_shen":
        if args[1] > u["max_shen"]:
            raise refuse(value=args[1], allowed=f"0-{u['max_shen']}")
        u["shen"] = args[1]
        if u["shen"] > 0:  # the GM lifts a 寂灭 that came with 神 0
            u["statuses"] = [st for st in u["statuses"] if st["name"] != "寂灭"]
        g.silence_at_zero(u)  # l.22: 神 0 stops the general, however it got there
    elif u is not None and name in ("set_ap", "set_move"):
        on_field(u)
        top = MAX_AP if name == "set_ap" else MAX_MOVE
        if args[1] > top:
            raise refuse(value=args[1], allowed=f"0-{top}")
        u["ap" if name == "set_ap" else "move"] = args[1]
    elif u is not None and name == "grant_turn":
        on_field(u)
        s["extra"].insert(0, u["id"])  # played next, with fresh points, no 战斗潜能 stop
        s["next"] = None
    elif u is not None and name == "remove_turn":
        on_field(u)
        if u["id"] in s["acted"] and u["id"] not in s["extra"] and (s.get("next") or {}).get("unit") != u["id"]:
            raise refuse("hunlu.amend.acted", field="args.0", unit=u["id"])
        s["extra"] = [x for x in s["extra"] if x != u["id"]]
        if u["id"] not in s["acted"]:
            s["acted"].append(u["id"])
        if (s.get("next") or {}).get("unit") == u["id"]:
            u.pop("extra_turn", None)
            s["next"] = None
    elif u is not None and name == "move":
        try:
            c = parse_cell(args[1], s["map"]["width"], s["map"]["height"])
        except ValueError:
            c = None
        if c is None or c in g.terrain or (g.unit_at(c) not in (None, u)):
            raise refuse("hunlu.amend.cell", value=args[1])
        u["pos"] = cell_name(c)
        u["chasm"] = None
    elif u is not None and name == "add_status":
        if args[1] not in STATUS_NAMES:
            raise refuse("hunlu.amend.status", value=args[1], allowed=", ".join(STATUS_NAMES))
        u["statuses"].append({"name": args[1], "rounds": args[2] or None, "active": True, "source": "gm"})
        event["value"] = [args[1], args[2] or None]
    elif u is not None and name == "remove_status":
        names = [st["name"] for st in u["statuses"]]
        if args[1] not in names:
            raise refuse("hunlu.amend.status", value=args[1], allowed=", ".join(names) or "-")
        gone = [st for st in u["statuses"] if st["name"] == args[1]]
        u["statuses"] = [st for st in u["statuses"] if st["name"] != args[1]]
        for st in gone:
            if st.get("heart"):
                g.reveal_heart(u, st)  # the effect ends: its card is shown (l.120)
    elif name == "set_order":
        if sorted(args) != sorted(s["order"]):
            raise refuse("hunlu.amend.order", field="args", allowed=", ".join(s["order"]))
        s["order"] = list(args)
        event["value"] = list(args)
    if s["winner"] is not None:
        s["next"] = None
    elif s.get("next") is None or not g.can_act(g.units[s["next"]["unit"]]):
        s["next"] = None
        g.advance()
    from gm_tool.rulesets.hunlu.engine import refresh

    refresh(g)
    return s, log.events


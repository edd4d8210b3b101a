"""GM edits between turns (`gm amend DIR ACTION ARGS... --reason TEXT`) that fit 神将录:
``set_damage UNIT N`` (a king's lost 体力, a troop's damage this turn), ``move UNIT CELL``,
``face UNIT N|E|S|W``, ``remove UNIT`` (to its owner's graveyard, no death effects),
``give_card PLAYER CARD`` (from that player's deck into their hand) and ``take_card PLAYER CARD``
(from their hand to their graveyard). Each is told in the next public post with its reason;
which card moved is told only to its player and the GM."""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.ruleset import AmendAction, Arg
from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu.effects import FACE_VALUES
from gm_tool.rulesets.shenjianglu.engine import Turn, clone


def actions() -> dict[str, AmendAction]:
    return {
        "set_damage": AmendAction((Arg("unit"), Arg("damage", "int", 0)),
                                  {"zh": "设置人物的伤害（王：已失去的体力）", "en": "set a unit's damage (a king: 体力 lost)"}),
        "move": AmendAction((Arg("unit"), Arg("cell")), {"zh": "把人物移到空格", "en": "move a unit to a free cell"}),
        "face": AmendAction((Arg("unit"), Arg("facing")), {"zh": "改变人物朝向", "en": "turn a unit to face N/E/S/W"}),
        "remove": AmendAction((Arg("unit"),), {"zh": "移除将士（进墓地，不触发死亡效果）",
                                               "en": "remove a troop (to the graveyard, no death effects)"}),
        "give_card": AmendAction((Arg("player"), Arg("card")), {"zh": "从该玩家牌堆中取一张牌加入其手牌",
                                                                "en": "move a card from the player's deck to their hand"}),
        "take_card": AmendAction((Arg("player"), Arg("card")), {"zh": "把该玩家的一张手牌放入墓地",
                                                                "en": "move a card from the player's hand to their graveyard"}),
    }


def amend(state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    log = EventLog()
    t = Turn(clone(state), log)
    name, args, reason = action["action"], action["args"], action.get("reason", "")

    def unit(ref: str) -> dict[str, Any]:
        u = t.find(ref)
        if u is None:
            raise GmError.one("shenjianglu.amend.no_unit", file=source, field="args.0", unit=ref,
                              allowed=", ".join(t.s["labels"].get(x, x) for x in t.units))
        return u

    def seat(ref: str) -> dict[str, Any]:
        s = t.seat_by_player.get(ref)
        if s is None or s["out"]:
            raise GmError.one("shenjianglu.amend.no_player", file=source, field="args.0", player=ref,
                              allowed=", ".join(p for p, x in t.seat_by_player.items() if not x["out"]))
        return s

    if name == "set_damage":
        u = unit(args[0])
        u["damage"] = args[1]
        log.emit("amend_damage", unit=u["id"], damage=u["damage"], stamina=u["stamina"], reason=reason)
    elif name == "move":
        u = unit(args[0])
        try:
            cell = parse_cell(args[1])
        except ValueError:
            cell = None
        if cell is None or not t.board.on_board(cell) or any(x["pos"] == cell_name(cell) for x in t.s["units"]):
            raise GmError.one("shenjianglu.amend.bad_cell", file=source, field="args.1", cell=args[1])
        frm, u["pos"] = u["pos"], cell_name(cell)
        log.emit("amend_move", unit=u["id"], frm=frm, pos=u["pos"], reason=reason)
    elif name == "face":
        u = unit(args[0])
        f = FACE_VALUES.get(args[1].strip())
        if f is None or f == "back":
            raise GmError.one("field.choice", file=source, field="args.1", value=args[1], allowed="N, E, S, W")
        u["facing"] = f
        log.emit("amend_face", unit=u["id"], facing=f, reason=reason)
    elif name == "remove":
        u = unit(args[0])
        if u["king"]:
            raise GmError.one("shenjianglu.amend.no_unit", file=source, field="args.0", unit=args[0],
                              allowed=", ".join(t.s["labels"].get(x, x) for x, v in t.units.items() if not v["king"]) or "-")
        log.emit("amend_remove", unit=u["id"], card=u["card"], reason=reason)
        t.remove(u, "amend")
    else:
        s = seat(args[0])
        frm, to = ("deck", "hand") if name == "give_card" else ("hand", "graveyard")
        if args[1] not in s[frm]:
            raise GmError.one("shenjianglu.amend.no_card", file=source, field="args.1", player=s["player"],
                              card=args[1], zone=frm)
        s[frm].remove(args[1])
        s[to].append(args[1])
        log.emit("amend_cards", player=s["player"], frm=frm, into=to, reason=reason)
        log.emit("amend_card", to=[s["player"]], player=s["player"], card=args[1], frm=frm, into=to)
    t.settle()
    return t.finish(), log.events

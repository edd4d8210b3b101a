"""GM edits between turns (`gm amend DIR ACTION ARGS... --reason TEXT`) that fit 神将录, one
handler each in the table ``EDITS``: ``set_damage UNIT N`` (a king's lost 体力, a troop's damage
this turn), ``move UNIT CELL``, ``face UNIT N|E|S|W``, ``remove UNIT`` (to its owner's graveyard,
no death effects), ``give_card PLAYER CARD`` (from that player's deck into their hand) and
``take_card PLAYER CARD`` (from their hand to their graveyard). Each is told in the next public
post with its reason; which card moved is told only to its player and the GM. Their one-line
help is the labels' ``amend_help``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.ruleset import AmendAction, Arg
from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu.effects import FACE_VALUES
from gm_tool.rulesets.shenjianglu.engine import Turn, clone

State = dict[str, Any]


@dataclass
class Edit:
    """One edit being made: the turn it changes (a copy of the state), its log, the file named
    by its problems, its arguments and reason."""

    t: Turn
    log: EventLog
    source: str
    args: list[Any]
    reason: str

    def unit(self, i: int) -> dict[str, Any]:
        """The unit argument ``i`` names (by id or label, as a sheet does)."""
        ref = self.args[i]
        u = self.t.find(ref)
        if u is None:
            raise GmError.one("shenjianglu.amend.no_unit", file=self.source, field=f"args.{i}", unit=ref,
                              allowed=", ".join(self.t.s["labels"].get(x, x) for x in self.t.units))
        return u

    def seat(self, i: int) -> dict[str, Any]:
        """The seat of the player argument ``i`` names, still in the game."""
        ref = self.args[i]
        s = self.t.seat_by_player.get(ref)
        if s is None or s["out"]:
            raise GmError.one("shenjianglu.amend.no_player", file=self.source, field=f"args.{i}", player=ref,
                              allowed=", ".join(p for p, x in self.t.seat_by_player.items() if not x["out"]))
        return s


def _set_damage(e: Edit) -> None:
    u = e.unit(0)
    u["damage"] = e.args[1]
    e.log.emit("amend_damage", unit=u["id"], damage=u["damage"], stamina=u["stamina"], reason=e.reason)


def _move(e: Edit) -> None:
    u = e.unit(0)
    t = e.t
    try:
        cell = parse_cell(e.args[1])
    except ValueError:
        cell = None
    if cell is None or not t.board.on_board(cell) or any(x["pos"] == cell_name(cell) for x in t.s["units"]):
        raise GmError.one("shenjianglu.amend.bad_cell", file=e.source, field="args.1", cell=e.args[1])
    frm, u["pos"] = u["pos"], cell_name(cell)
    e.log.emit("amend_move", unit=u["id"], frm=frm, pos=u["pos"], reason=e.reason)


def _face(e: Edit) -> None:
    u = e.unit(0)
    f = FACE_VALUES.get(e.args[1].strip())
    if f is None or f == "back":
        raise GmError.one("field.choice", file=e.source, field="args.1", value=e.args[1], allowed="N, E, S, W")
    u["facing"] = f
    e.log.emit("amend_face", unit=u["id"], facing=f, reason=e.reason)


def _remove(e: Edit) -> None:
    u = e.unit(0)
    t = e.t
    if u["king"]:
        raise GmError.one("shenjianglu.amend.no_unit", file=e.source, field="args.0", unit=e.args[0],
                          allowed=", ".join(t.s["labels"].get(x, x) for x, v in t.units.items() if not v["king"]) or "-")
    e.log.emit("amend_remove", unit=u["id"], card=u["card"], reason=e.reason)
    t.remove(u, "amend")


def _card_from(frm: str, to: str) -> Callable[[Edit], None]:
    """An edit moving a card of the player's ``frm`` zone to their ``to`` zone."""

    def move_card(e: Edit) -> None:
        s = e.seat(0)
        card = e.args[1]
        if card not in s[frm]:
            raise GmError.one("shenjianglu.amend.no_card", file=e.source, field="args.1", player=s["player"],
                              card=card, zone=frm)
        s[frm].remove(card)
        s[to].append(card)
        e.log.emit("amend_cards", player=s["player"], frm=frm, into=to, reason=e.reason)
        e.log.emit("amend_card", to=[s["player"]], player=s["player"], card=card, frm=frm, into=to)

    return move_card


# each edit: its arguments and what it does
EDITS: dict[str, tuple[tuple[Arg, ...], Callable[[Edit], None]]] = {
    "set_damage": ((Arg("unit"), Arg("damage", "int", 0)), _set_damage),
    "move": ((Arg("unit"), Arg("cell")), _move),
    "face": ((Arg("unit"), Arg("facing")), _face),
    "remove": ((Arg("unit"),), _remove),
    "give_card": ((Arg("player"), Arg("card")), _card_from("deck", "hand")),
    "take_card": ((Arg("player"), Arg("card")), _card_from("hand", "graveyard")),
}


def actions() -> dict[str, AmendAction]:
    """The edits with their one-line help in each language."""
    from gm_tool.rulesets.shenjianglu.messages import labels

    helps = {lang: labels(lang)["amend_help"] for lang in ("zh", "en")}
    return {name: AmendAction(args, {lang: helps[lang][name] for lang in helps}) for name, (args, _) in EDITS.items()}


def amend(state: State, action: dict[str, Any], source: str) -> tuple[State, list[dict[str, Any]]]:
    log = EventLog()
    t = Turn(clone(state), log)
    _, do = EDITS[action["action"]]
    do(Edit(t, log, source, list(action["args"]), action.get("reason", "")))
    t.settle()
    return t.finish(), log.events

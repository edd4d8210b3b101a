"""GM edits between turns (contract §2 and ruling R34): every edit is checked against what the
game can hold and refused with the argument at fault and what is allowed; nothing is applied
half-way. Pieces and squads are named as sheets name them (id or label, any case or width).

set-hp PIECE HP, move SQUAD|PIECE CELL, set-fortress PLAYER HP, kill PIECE, remove-marker ID,
return PIECE (to hand), revive PIECE HP (from the dead, to hand), place-marker PLAYER KIND CELL...,
set-standing PLAYER WHAT..., clear-standing PLAYER WHAT...; undoing an edit not yet resolved is
the core's `gm amend DIR undo`.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.ruleset import AmendAction, Arg
from gm_tool.errors import GmError
from gm_tool.rulesets.guangying.model import FORTRESS_HP, ROCK, WALL, Game, board_order, cell, copy_state
from gm_tool.rulesets.guangying.reading import LEADER_DIES, SheetReader, _cell, _lookup

ARGS = {
    "set_hp": (Arg("piece"), Arg("hp", "int", 1)),
    "move": (Arg("squad"), Arg("cell")),
    "set_fortress": (Arg("player"), Arg("hp", "int", 1)),
    "kill": (Arg("piece"),),
    "remove_marker": (Arg("id"),),
    "return": (Arg("piece"),),
    "revive": (Arg("piece"), Arg("hp", "int", 1)),
    "place_marker": (Arg("player"), Arg("kind"), Arg("cells", "str...")),
    "set_standing": (Arg("player"), Arg("what", "str...")),
    "clear_standing": (Arg("player"), Arg("what", "str...")),
}


def actions() -> dict[str, AmendAction]:
    """The edits with their one-line help in each language (labels ``amend_help``)."""
    from gm_tool.rulesets.guangying.messages import labels

    helps = {lang: labels(lang)["amend_help"] for lang in ("zh", "en")}
    return {name: AmendAction(args, {lang: helps[lang][name] for lang in helps}) for name, args in ARGS.items()}


KINDS = {"岩": ROCK, "rock": ROCK, "风墙": WALL, "wall": WALL, "wind_wall": WALL}


class _Edit:
    """One edit on a copy of the state; :meth:`fail` names the argument at fault."""

    def __init__(self, state: dict[str, Any], action: dict[str, Any], source: str):
        self.log = EventLog()
        self.g = Game(copy_state(state), live=True, log=self.log)
        self.args = list(action["args"])
        self.source = source
        self.reader = SheetReader(source, "zh", self.g.s)

    def fail(self, code: str, i: int, **params: Any) -> GmError:
        value = self.args[i] if i < len(self.args) else None
        return GmError.one("guangying.amend." + code, file=self.source, field=f"args.{i}", value=value, **params)

    def player(self, i: int) -> dict[str, Any]:
        pl = self.g.players.get(str(self.args[i]).strip())
        if pl is None:
            raise self.fail("player", i, allowed=", ".join(self.g.players))
        return pl

    def piece(self, i: int, hand: bool = False) -> dict[str, Any]:
        """A piece on the board (or, with ``hand``, in a hand) named as a sheet may."""
        ref = self.reader.ref(self.args[i])
        p = self.g.pieces.get(ref)
        if p is not None:
            return p
        if hand:
            for pl in self.g.s["players"]:
                for h in pl["in_hand"]:
                    if h["id"] == ref:
                        return h
        where = [p["id"] for p in self.g.s["pieces"]]
        if hand:
            where += [h["id"] for pl in self.g.s["players"] for h in pl["in_hand"]]
        raise self.fail("piece", i, allowed=", ".join(where) or "-")

    def squad(self, i: int) -> dict[str, Any]:
        ref = self.reader.ref(self.args[i])
        q = self.g.squads.get(ref)
        if q is None and ref in self.g.pieces:
            q = self.g.squad_of(self.g.pieces[ref])
        if q is None:
            raise self.fail("squad", i, allowed=", ".join(q["id"] for q in self.g.s["squads"]) or "-")
        return q

    def cell(self, i: int) -> str:
        c = _cell(self.args[i])
        if c is None:
            raise self.fail("cell", i, allowed="A1-J12")
        return c


def amend(state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    e = _Edit(state, action, source)
    g, args = e.g, e.args
    name = action["action"]
    shown = [str(a) for a in args]
    if name in ("set_hp", "kill", "return"):
        p = e.piece(0, hand=name == "set_hp")
        shown[0] = p["id"]
        if name == "set_hp":
            if not 1 <= args[1] <= p["max_hp"]:
                raise e.fail("hp", 1, most=p["max_hp"])
            p["hp"] = args[1]
        elif name == "kill":
            g.kill(p, "gm")
        else:
            g.to_hand(p, fled=False)
    elif name == "move":
        q = e.squad(0)
        c = e.cell(1)
        other = g.squad_at(c)
        if (other is not None and other is not q) or g.fortress_owner(c) or g.marker_at(c, ROCK):
            raise e.fail("cell", 1, allowed="-")
        shown[:2] = [q["id"], c]
        for m in q["members"]:
            g.pieces[m]["pos"] = c
        q["pos"] = c
    elif name == "set_fortress":
        pl = e.player(0)
        most = max(pl.get("fortress_max_hp", FORTRESS_HP), pl["fortress_hp"])
        if not 1 <= args[1] <= most:
            raise e.fail("fortress_hp", 1, most=most)
        pl["fortress_hp"] = args[1]
    elif name == "remove_marker":
        ref = e.reader.ref(args[0])
        m = g.markers.get(ref)
        if m is None:
            raise e.fail("marker", 0, allowed=", ".join(g.markers) or "-")
        shown[0] = m["id"]
        g.drop_marker(m)
    elif name == "revive":
        shown[0] = _revive(e)
    elif name == "place_marker":
        shown = _place(e)
    elif name in ("set_standing", "clear_standing"):
        shown = _standing(e, name == "set_standing")
    # a standing order is its owner's plan (R37): an edit of one is told to its owner only
    to: str | list[str] = [shown[0]] if name in ("set_standing", "clear_standing") else "all"
    e.log.events.insert(0, {"seq": 0, "type": "amend", "to": to, "action": name, "args": shown,
                            "reason": action.get("reason", "")})
    for i, ev in enumerate(e.log.events):
        ev["seq"] = i
    return g.s, list(e.log)


def _revive(e: _Edit) -> str:
    """A dead piece back to its owner's hand (l.41 "无法复活" is the rule; this mends a mistake)."""
    ref = str(e.args[0]).strip()
    for pl in e.g.s["players"]:
        dead = {d.casefold(): d for d in pl["dead"]}
        pid = dead.get(ref.casefold())
        if pid is None:
            continue
        cls = (pl.get("dead_classes") or {}).get(pid)
        if cls is None or cls not in e.g.table:
            raise e.fail("revive_class", 0)
        row = e.g.table[cls]
        if not 1 <= e.args[1] <= row["hp"]:
            raise e.fail("hp", 1, most=row["hp"])
        pl["dead"].remove(pid)
        pl["dead_classes"].pop(pid, None)
        pl["in_hand"].append({"id": pid, "class": cls, "hp": e.args[1], "max_hp": row["hp"], "power": row["power"],
                              "beast": False, "cannot_return_until": None})
        return pid
    raise e.fail("dead", 0, allowed=", ".join(d for pl in e.g.s["players"] for d in pl["dead"]) or "-")


def _place(e: _Edit) -> list[str]:
    """A 岩 or 风墙 from its owner's pool onto free cells (a rock 1 cell, a wall 1-3 in a line)."""
    g = e.g
    pl = e.player(0)
    kind = KINDS.get(str(e.args[1]).strip().lower()) or KINDS.get(str(e.args[1]).strip())
    if kind is None:
        raise e.fail("kind", 1, allowed="岩, 风墙, rock, wall")
    cells = [e.cell(i) for i in range(2, len(e.args))]
    if len(set(cells)) != len(cells) or (kind == ROCK and len(cells) != 1) or len(cells) > 3 or not _line(cells):
        raise e.fail("marker_cells", 2)
    for i, c in enumerate(cells, start=2):
        if g.squad_at(c) or g.marker_at(c) or g.fortress_owner(c):
            raise e.fail("cell", i, allowed="-")
    if pl["pool"][kind] <= 0:
        raise e.fail("pool", 1, kind=kind)
    mid = g.fresh_id(f"{pl['player']}-{'rock' if kind == ROCK else 'wall'}")
    pl["pool"][kind] -= 1
    m = {"id": mid, "kind": kind, "owner": pl["player"], "cells": board_order(cells), "by": None}
    g.s["markers"].append(m)
    g.markers[mid] = m
    return [pl["player"], kind, " ".join(m["cells"]) + f" ({mid})"]


def _line(cells: list[str]) -> bool:
    """1-3 cells next to each other in one row or column."""
    xs, ys = zip(*(cell(c) for c in cells))
    if len(set(ys)) == 1:
        return sorted(xs) == list(range(min(xs), min(xs) + len(xs)))
    if len(set(xs)) == 1:
        return sorted(ys) == list(range(min(ys), min(ys) + len(ys)))
    return False


def _standing(e: _Edit, set_: bool) -> list[str]:
    """``set-standing alice leader_dies return`` / ``squad s2 fight_on`` / ``return w1 10``;
    ``clear-standing alice all`` / ``squad s2`` / ``return w1`` / ``suicide w1``."""
    g = e.g
    pl = e.player(0)
    st = pl["standing"]
    words = [str(a).strip() for a in e.args[1:]]
    what = words[0].lower() if words else ""
    counts = {"leader_dies": 2, "squad": 3, "return": 3, "suicide": 3} if set_ else \
        {"all": 1, "squad": 2, "return": 2, "suicide": 2}
    if counts.get(what) != len(words):
        raise e.fail("standing", 1, allowed="leader_dies fight_on|return; squad SQUAD fight_on|return; return PIECE HP; "
                                            "suicide PIECE HP" if set_ else "all; squad SQUAD; return PIECE; suicide PIECE")
    if what == "all":
        pl["standing"] = {"leader_dies": "fight_on", "squads": {}, "return": {}, "suicide": {}}
        return [pl["player"], "all", ""]
    if what == "leader_dies":
        choice = _lookup(LEADER_DIES, words[1])
        if choice is None:
            raise e.fail("choice", 2, allowed="fight_on, return, 继续战斗, 回手")
        st["leader_dies"] = choice
        return [pl["player"], "leader_dies", choice]
    ref = e.reader.ref(words[1])
    if what == "squad":
        q = g.squads.get(ref)
        if q is None or q["owner"] != pl["player"]:
            raise e.fail("squad", 2, allowed=", ".join(x["id"] for x in g.own_squads(pl["player"])) or "-")
        if not set_:
            st.setdefault("squads", {}).pop(q["id"], None)
            return [pl["player"], q["id"], ""]
        choice = _lookup(LEADER_DIES, words[2])
        if choice is None:
            raise e.fail("choice", 3, allowed="fight_on, return, 继续战斗, 回手")
        st.setdefault("squads", {})[q["id"]] = choice
        return [pl["player"], q["id"], choice]
    own = [p["id"] for p in g.s["pieces"] if p["owner"] == pl["player"]] + [h["id"] for h in pl["in_hand"]]
    if ref not in own:
        raise e.fail("piece", 2, allowed=", ".join(own) or "-")
    if not set_:
        st.setdefault(what, {}).pop(ref, None)
        return [pl["player"], f"{what} {ref}", ""]
    try:
        hp = int(words[2])
    except ValueError:
        hp = 0
    if hp < 1:
        raise e.fail("hp", 3, most="∞")
    st.setdefault(what, {})[ref] = hp
    return [pl["player"], f"{what} {ref}", str(hp)]


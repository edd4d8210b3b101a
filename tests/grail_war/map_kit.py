"""Helpers for the DATC-style map cases: a small inline scenario, sheets through the real order
parser (so `gm check` refusals are what a player would get), and one resolved turn.

``setup(rows, chars, strongholds=..., tunnels=..., rules=...)`` builds the state with
``RULESET.setup``; characters are ``C(id, cls, side, pos, **overrides)`` and have no skill and
an empty hand unless told, so fights they get into play no cards and change no HP.
``sheet(state, player, to=..., via=..., special=...)`` parses a sheet; ``refusal(...)`` returns the
rendered problems of a refused one; ``turn(state, *sheets)`` resolves a turn (everyone without a
sheet stays) and returns the Resolution.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.errors import GmError
from gm_tool.rulesets.grail_war import RULESET, orders
from gm_tool.rulesets.grail_war.model import Game


def C(cid: str, cls: str, side: str, pos: str, **kw: Any) -> dict[str, Any]:
    d = {"id": cid, "name": cid.upper(), "class": cls, "side": side, "player": kw.pop("player", cid), "pos": pos,
         "hand": [], "skills": []}
    d.update(kw)
    return d


def S(sid: int, pos: str, kind: str, owner: str | None = None, territory: list[str] | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"id": sid, "name": f"S{sid}", "pos": pos, "kind": kind, "territory": territory or [pos]}
    if owner:
        d["owner"] = owner
    return d


def scenario(rows: list[str], chars: list[dict], strongholds: list[dict] | None = None,
             tunnels: list[dict] | None = None, rules: dict | None = None) -> dict[str, Any]:
    return {"ruleset": "grail_war", "name": "t", "sides": ["red", "blue"],
            "map": {"width": len(rows[0]), "height": len(rows), "rows": rows,
                    "strongholds": strongholds or [], "tunnels": tunnels or []},
            "rules": rules or {}, "characters": chars}


def setup(rows: list[str], chars: list[dict], strongholds: list[dict] | None = None,
          tunnels: list[dict] | None = None, rules: dict | None = None, seed: str = "s") -> dict[str, Any]:
    return RULESET.setup(scenario(rows, chars, strongholds, tunnels, rules), "t.yaml", seed)


def raw(state: dict, player: str, to: str | None = None, via: list[str] | None = None,
        special: str | None = None) -> dict[str, Any]:
    move: dict[str, Any] = {}
    if to is not None:
        move["to"] = to
    if via:
        move["via"] = via
    if special is not None:
        move["special"] = special
    sheet: dict[str, Any] = {"turn": state["turn"] + 1, "player": player}
    if move:
        sheet["move"] = move
    return sheet


def sheet(state: dict, player: str, to: str | None = None, via: list[str] | None = None,
          special: str | None = None) -> orders.Orders:
    return orders.parse(Game.from_state(state), raw(state, player, to, via, special), f"{player}.yaml", "en")


def refusal(state: dict, player: str, to: str | None = None, via: list[str] | None = None,
            special: str | None = None) -> str:
    try:
        sheet(state, player, to, via, special)
    except GmError as exc:
        return exc.render("en")
    raise AssertionError("the sheet was accepted")


def turn(state: dict, *sheets: orders.Orders, seed: str = "s"):
    game = Game.from_state(state)
    given = {o.player: o for o in sheets}
    everyone = {p: given.get(p) or orders.default(game, p) for p in RULESET.due(state)}
    return RULESET.resolve(state, everyone, seed)


def place(state: dict, **where: str) -> dict:
    """Put characters where a scenario cannot (inside a tunnel): ``place(s, r="B4")``."""
    for c in state["characters"]:
        if c["id"] in where:
            c["pos"] = where[c["id"]]
    return state


def pos(state: dict) -> dict[str, str]:
    return {c["id"]: c["pos"] for c in state["characters"]}


def char(state: dict, cid: str) -> dict[str, Any]:
    return next(c for c in state["characters"] if c["id"] == cid)


def stronghold(state: dict, sid: int) -> dict[str, Any]:
    return next(s for s in state["strongholds"] if s["id"] == sid)


def events(res, kind: str, **match: Any) -> list[dict]:
    return [e for e in res.events if e["type"] == kind and all(e.get(k) == v for k, v in match.items())]


def path_of(res, cid: str) -> list[str]:
    """The cells a character went through this turn, from its start (steps and teleports)."""
    moves = [e for e in res.events if e["type"] in ("step", "teleport") and e.get("character") == cid]
    return ([moves[0]["start"]] if moves else []) + [e["end"] for e in moves]


def inside(state: dict, tunnel: int = 0, k: int = 0) -> str:
    """The name of the k-th cell inside a tunnel (virtual cells below the map)."""
    return cell_name((k, state["map"]["height"] + tunnel))


__all__ = ["C", "S", "setup", "scenario", "sheet", "refusal", "turn", "pos", "char", "stronghold", "events",
           "path_of", "inside", "raw", "parse_cell", "place"]

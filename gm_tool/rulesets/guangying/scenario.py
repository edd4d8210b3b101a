"""Scenario files (contract §5) -> the initial state (contract §6), every problem named by field."""

from __future__ import annotations

from typing import Any

from gm_tool.core.schema import id_problem as lookalike
from gm_tool.errors import GmError, Problem
from gm_tool.rulesets.guangying.data import MARKER_COUNTS, class_of, classes
from gm_tool.rulesets.guangying.model import (
    ALONE,
    FORTRESS_HP,
    ROCK,
    WALL,
    board_order,
    default_fortress,
    id_problem,
    label_squad,
    side_rows,
)
from gm_tool.rulesets.guangying.reading import LEADER_DIES, _cell
from gm_tool.rulesets.guangying.switches import DEFAULTS, SWITCHES

KEYS = ("ruleset", "name", "players", "first", "sides", "fortress", "fortress_hp", "pool", "in_hand",
        "standing", "squads", "markers", "classes", "description", "rules")
KINDS: dict[Any, str] = {"岩": ROCK, "rock": ROCK, "风墙": WALL, "wind_wall": WALL, "wall": WALL}
STAT_KEYS = ("hp", "power", "move", "count")


def _cells(values: Any) -> list[str] | None:
    """The cell names of ``values``, or None if one of them is not a cell."""
    out: list[str] = []
    for value in values:
        c = _cell(value)
        if c is None:
            return None
        out.append(c)
    return out


def _leader_dies(value: Any, f: str, bad: Any) -> str:
    """What a squad does when its leader dies (fight_on when the value is none of the words)."""
    if isinstance(value, str) and value in LEADER_DIES:
        return LEADER_DIES[value]
    bad("field.choice", f, value=value, allowed=", ".join(sorted(set(LEADER_DIES.values()))))
    return "fight_on"


def _turn(value: Any, f: str, bad: Any) -> int:
    """A turn number of the scenario (0 when it is none: reported)."""
    if type(value) is int and value >= 0:
        return value
    bad("field.range", f, value=value, allowed="0-∞")
    return 0


def build(data: dict[str, Any], source: str) -> dict[str, Any]:
    problems: list[Problem] = []

    def bad(code: str, f: str, **params: Any) -> None:
        problems.append(Problem(code, source, f, params))

    def typed(value: Any, kind: type, f: str) -> Any:
        """``value`` if None (as empty) or of ``kind``; else reported, and empty (issue 24: a
        field of the wrong type crashed the setup)."""
        if value is None:
            return kind()
        if isinstance(value, kind):
            return value
        bad("field.type", f, expected=kind.__name__, got=type(value).__name__)
        return kind()

    from gm_tool.core.rules import check_rules

    rules = dict(DEFAULTS)
    try:
        rules = check_rules(SWITCHES, data.get("rules"), source)
    except GmError as exc:  # the switches declared once (switches.py), checked by the core
        problems.extend(exc.problems)

    for k in data:
        if k not in KEYS:
            bad("field.unknown", str(k), allowed=", ".join(KEYS))
    players = data.get("players")
    if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) and p for p in players)
            and players[0] != players[1]):
        bad("guangying.scenario.players", "players")
        raise GmError(problems)
    table = {k: dict(v) for k, v in classes().items()}
    over = data.get("classes") or {}
    if not isinstance(over, dict):
        bad("field.type", "classes", expected="mapping", got=type(over).__name__)
        over = {}
    for k, v in over.items():
        name = class_of(k)
        if name is None or not isinstance(v, dict):
            bad("guangying.scenario.class", f"classes.{k}", value=k, allowed=", ".join(table))
            continue
        for stat, val in v.items():
            if stat not in STAT_KEYS or not isinstance(val, int) or isinstance(val, bool) or val < (0 if stat == "count" else 1):
                bad("guangying.scenario.stat", f"classes.{k}.{stat}", allowed=", ".join(STAT_KEYS))
            else:
                table[name][stat] = val
    first = data.get("first", players[0])
    if first not in players:
        bad("field.choice", "first", value=first, allowed=", ".join(players))
        first = players[0]
    sides = data.get("sides") or {players[0]: "south", players[1]: "north"}
    if not isinstance(sides, dict) or sorted(map(str, sides)) != sorted(players) \
            or sorted(map(str, sides.values())) != ["north", "south"] or not all(isinstance(v, str) for v in sides.values()):
        bad("guangying.scenario.sides", "sides")
        sides = {players[0]: "south", players[1]: "north"}
    state_players = []
    fortresses, fortress_hps = typed(data.get("fortress"), dict, "fortress"), typed(data.get("fortress_hp"), dict, "fortress_hp")
    pools, standings = typed(data.get("pool"), dict, "pool"), typed(data.get("standing"), dict, "standing")
    for p in players:
        side = sides[p]
        home, _, _ = side_rows(side)
        fort = fortresses.get(p, default_fortress(side))
        cells = _cells(fort) if isinstance(fort, list) and len(fort) == 4 else None
        if cells is None:
            bad("guangying.scenario.fortress", f"fortress.{p}")
            cells = default_fortress(side)
        hp = fortress_hps.get(p, 100)
        if not isinstance(hp, int) or isinstance(hp, bool) or hp < 1:
            bad("field.range", f"fortress_hp.{p}", value=hp, allowed="1-∞")
            hp = 100
        pool = {c: table[c]["count"] for c in table}
        pool.update({ROCK: MARKER_COUNTS[ROCK], WALL: MARKER_COUNTS[WALL]})
        for k, v in typed(pools.get(p), dict, f"pool.{p}").items():
            name = class_of(k) or KINDS.get(k)
            if name is None or not isinstance(v, int) or isinstance(v, bool) or v < 0:
                bad("guangying.scenario.pool", f"pool.{p}.{k}", allowed=", ".join(pool))
            else:
                pool[name] = v
        st = typed(standings.get(p), dict, f"standing.{p}")
        squad_choices = typed(st.get("squads"), dict, f"standing.{p}.squads")
        standing = {"leader_dies": _leader_dies(st.get("leader_dies", "fight_on"), f"standing.{p}.leader_dies", bad),
                    "squads": {k: _leader_dies(v, f"standing.{p}.squads.{k}", bad)
                               for k, v in sorted(squad_choices.items(), key=lambda kv: str(kv[0]))},
                    "return": {}, "suicide": {}}
        state_players.append({"player": p, "side": side, "home_rows": home, "fortress": board_order(cells),
                              "fortress_hp": hp, "fortress_max_hp": max(FORTRESS_HP, hp), "pool": pool, "in_hand": [], "dead": [], "standing": standing,
                              "guardian_missing_turns": 0, "professional_missing_turns": 0})
    by_name = {p["player"]: p for p in state_players}
    ids: set[str] = set()

    def new_id(value: Any, f: str) -> bool:
        code = id_problem(value, table)
        if code:
            bad("guangying.action." + code, f, value=value)
            return False
        if value in ids:
            bad("field.duplicate", f, value=value)
            return False
        if (alike := lookalike(value, "", (), ids)) is not None:  # S1 beside s1
            bad("guangying.action.id.lookalike", f, value=value, other=alike[1]["other"])
            return False
        ids.add(value)
        return True

    def take_from_pool(owner: str, cls: str, f: str) -> None:
        pool = by_name[owner]["pool"]
        if pool[cls] <= 0:
            bad("guangying.scenario.too_many", f, cls=cls, count=table[cls]["count"])
        else:
            pool[cls] -= 1

    forts = {c: p["player"] for p in state_players for c in p["fortress"]}
    for p, hand in typed(data.get("in_hand"), dict, "in_hand").items():
        if p not in by_name or not isinstance(hand, list):
            bad("player.unknown", f"in_hand.{p}", player=p, allowed=", ".join(players))
            continue
        for i, h in enumerate(hand):
            f = f"in_hand.{p}[{i}]"
            cls = class_of(h.get("class")) if isinstance(h, dict) else None
            if cls is None or not new_id(h.get("id"), f + ".id"):
                if cls is None:
                    bad("guangying.scenario.class", f + ".class", value=h, allowed=", ".join(table))
                continue
            take_from_pool(p, cls, f + ".class")
            row = table[cls]
            beast = bool(h.get("beast", False))
            mx = row["hp"] + (20 if beast else 0)
            hp = h.get("hp", mx)
            if type(hp) is not int or not 1 <= hp:
                bad("field.range", f + ".hp", value=hp, allowed=f"1-{mx}")
                hp = mx
            by_name[p]["in_hand"].append({"id": h["id"], "class": cls, "hp": min(hp, mx),
                                          "max_hp": mx, "power": row["power"] + (2 if beast else 0),
                                          "beast": beast, "cannot_return_until": h.get("cannot_return_until")})
    squads, pieces = [], []
    occupied: dict[str, str] = {}
    for i, q in enumerate(typed(data.get("squads"), list, "squads")):
        f = f"squads[{i}]"
        if not isinstance(q, dict):
            bad("field.type", f, expected="mapping", got=type(q).__name__)
            continue
        owner, pos, members = q.get("owner"), _cell(q.get("pos")), q.get("members")
        if not isinstance(owner, str) or owner not in by_name:
            bad("player.unknown", f + ".owner", player=owner, allowed=", ".join(players))
            continue
        if pos is None:
            bad("cell.bad", f + ".pos", value=q.get("pos"), cols="A-J", rows=12)
            continue
        if pos in forts:
            bad("guangying.scenario.on_fortress", f + ".pos", cell=pos)
        if pos in occupied:
            bad("guangying.scenario.cell_taken", f + ".pos", cell=pos)
        if not isinstance(members, list) or not 1 <= len(members) <= 3:
            bad("guangying.scenario.squad_size", f + ".members")
            continue
        sid = q.get("id") or f"{owner}-s{i + 1}"
        if not new_id(sid, f + ".id"):
            continue
        occupied[pos] = sid
        ids_in = []
        for j, m in enumerate(members):
            g = f"{f}.members[{j}]"
            cls = class_of(m.get("class")) if isinstance(m, dict) else None
            if cls is None:
                bad("guangying.scenario.class", g + ".class", value=m, allowed=", ".join(table))
                continue
            if cls in ALONE and len(members) > 1:
                bad("guangying.scenario.alone", g + ".class", cls=cls)
            if not new_id(m.get("id"), g + ".id"):
                continue
            take_from_pool(owner, cls, g + ".class")
            row = table[cls]
            beast = bool(m.get("beast", False))
            mx = row["hp"] + (20 if beast else 0)
            hp = m.get("hp", mx)
            if not isinstance(hp, int) or isinstance(hp, bool) or not 1 <= hp <= mx:
                bad("field.range", g + ".hp", value=hp, allowed=f"1-{mx}")
                hp = mx
            pieces.append({"id": m["id"], "class": cls, "owner": owner, "squad": sid, "pos": pos, "hp": hp,
                           "max_hp": mx, "power": row["power"] + (2 if beast else 0), "move": row["move"],
                           "summoned_turn": _turn(m.get("summoned_turn", 0), g + ".summoned_turn", bad), "beast": beast,
                           "maintaining": None,
                           "portal_open": False, "singing": False})
            ids_in.append(m["id"])
        squads.append({"id": sid, "owner": owner, "pos": pos, "members": ids_in, "actions_left": 2,
                       "defending": False})
    for p in players:
        if sum(1 for x in pieces if x["owner"] == p) > 10 or sum(1 for q in squads if q["owner"] == p) > 5:
            bad("guangying.scenario.limits", "squads", player=p)
    markers: list[dict[str, Any]] = []
    by_piece = {x["id"]: x for x in pieces}
    for i, m in enumerate(typed(data.get("markers"), list, "markers")):
        f = f"markers[{i}]"
        if not isinstance(m, dict):
            bad("field.type", f, expected="mapping", got=type(m).__name__)
            continue
        kind = KINDS.get(m.get("kind")) if isinstance(m.get("kind"), str) else None
        owner = m.get("owner")
        marked = _cells(m.get("cells")) if isinstance(m.get("cells"), list) else None
        if kind is None:
            bad("field.choice", f + ".kind", value=m.get("kind"), allowed="岩, 风墙")
            continue
        if not isinstance(owner, str) or owner not in by_name:
            bad("player.unknown", f + ".owner", player=owner, allowed=", ".join(players))
            continue
        if not marked or (kind == ROCK and len(marked) != 1) or len(marked) > 3:
            bad("guangying.scenario.marker_cells", f + ".cells")
            continue
        if not new_id(m.get("id"), f + ".id"):
            continue
        for c in marked:
            if c in forts or (kind == ROCK and c in occupied) or any(c in x["cells"] for x in markers):
                bad("guangying.scenario.cell_taken", f + ".cells", cell=c)
        pool = by_name[owner]["pool"]
        if pool[kind] <= 0:
            bad("guangying.scenario.too_many", f + ".kind", cls=kind, count=MARKER_COUNTS[kind])
        else:
            pool[kind] -= 1
        by = m.get("by")
        if by is not None:
            piece = by_piece.get(by) if isinstance(by, str) else None
            if piece is None or piece["class"] != "牧师" or piece["owner"] != owner or piece["maintaining"]:
                bad("guangying.scenario.marker_by", f + ".by", value=by)
            else:
                piece["maintaining"] = m["id"]
        markers.append({"id": m["id"], "kind": kind, "owner": owner, "cells": board_order(marked), "by": by})
    if problems:
        raise GmError(problems)
    state: dict[str, Any] = {"ruleset": "guangying", "name": data.get("name", "custom"), "turn": 0, "next": first,
                             "first": first, "winner": None, "pending_win": None, "rules": rules,
                             "players": state_players, "squads": squads, "pieces": pieces, "markers": markers,
                             "retired": [], "squad_labels": {}}
    for q in squads:
        label_squad(state, str(q["id"]), str(q["owner"]))
    if over:
        state["classes"] = table
    return state

"""Movement (R3, R4): path planning, the legality check behind `gm check`, and the simultaneous
step-by-step move of every character.

Terrain: ground is entered from higher to lower only; going up needs a LANCER, RIDER or CASTER
(their class skill). Rivers are entered only by RIDER or CASTER. A path may not end in a river.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name, manhattan, path_through
from gm_tool.rulesets.grail_war.model import RIVER, Character, Game

CLIMBERS = frozenset({"LANCER", "RIDER", "CASTER"})
SWIMMERS = frozenset({"RIDER", "CASTER"})


def step_rule(game: Game, char: Character) -> Callable[[Cell, Cell], bool]:
    board = game.board
    closed = set(game.closed_cells)

    def ok(a: Cell, b: Cell) -> bool:
        if b in closed:
            return False
        if board.terrain(b) == RIVER and char.cls not in SWIMMERS:
            return False
        return board.height_of(b) <= board.height_of(a) or char.cls in CLIMBERS

    return ok


def plan(game: Game, char: Character, to: Cell | None, via: list[Cell], special: str | None) -> list[Cell] | None:
    """The cells a character will walk through (excluding its start), or None if impossible."""
    if to is None or to == char.pos and not via:
        return []
    if special == "teleport":
        return [to]
    return path_through(char.pos, [*via, to], step_rule(game, char), game.board.width, game.board.height)


def teleport_problem(game: Game, char: Character, to: Cell) -> str | None:
    """Why a teleport to ``to`` is illegal, or None. Two ways exist (R4, R6): a CASTER to an own
    working stronghold at most ``teleport_range`` steps away; anyone standing on an own working
    teleport stronghold or 新都大桥 to another own stronghold or an enemy teleport point."""
    here = game.stronghold_at(char.pos)
    target = game.stronghold_at(to)
    if target is None or to == char.pos:
        return "grail.move.teleport_target"
    if here is not None and here.owner == char.side and here.working and here.kind in ("teleport", "bridge"):
        if (target.owner == char.side and not target.closed) or \
                (target.owner not in (None, char.side) and target.kind == "teleport" and target.working):
            return None
    if char.cls != "CASTER":
        return "grail.move.no_teleport"
    if target.owner != char.side or target.closed:
        return "grail.move.teleport_target"
    if manhattan(char.pos, to) > game.rules["teleport_range"]:
        return "grail.move.teleport_far"
    return None


def check(game: Game, char: Character, orders: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """Problems with a character's move order, as (field, message code, params)."""
    to, special = orders.move_to, orders.move_special
    if to is None:
        return []
    problems: list[tuple[str, str, dict[str, Any]]] = []
    if special == "teleport":
        code = teleport_problem(game, char, to)
        if code:
            problems.append(("move.to" if code != "grail.move.no_teleport" else "move.special", code,
                             {"cell": cell_name(to), "cls": char.cls, "limit": game.rules["teleport_range"]}))
        return problems
    if special is not None:
        problems.append(("move.special", "grail.move.special_unsupported", {"value": special}))
        return problems
    path = plan(game, char, to, orders.move_via, special)
    if path is None:
        problems.append(("move.to", "grail.move.unreachable", {"cell": cell_name(to)}))
    elif len(path) > char.move:
        problems.append(("move.to", "grail.move.too_far", {"cell": cell_name(to), "steps": len(path), "limit": char.move}))
    elif path and game.board.terrain(path[-1]) == RIVER:
        problems.append(("move.to", "grail.move.ends_in_river", {"cell": cell_name(to)}))
    return problems


def move_all(game: Game, orders: dict[str, Any], log: EventLog) -> None:
    """Move everyone at once, one cell a step (R3). A character stops in the first cell where it
    meets an enemy (standing there or arriving in the same step); a step into a cell that would
    then hold more than the capacity (4, 2 a side; R1) is not taken and the character stops."""
    paths: dict[str, list[Cell]] = {}
    for o in orders.values():
        char = game.character(o.character)
        if not char.alive:
            continue
        path = plan(game, char, o.move_to, o.move_via, o.move_special)
        if o.move_special == "teleport" and path:
            log.emit("teleport", to=[], actors=[char.player], cells=[cell_name(char.pos), cell_name(path[0])],
                     character=char.id, start=cell_name(char.pos), end=cell_name(path[0]))
            char.pos = path[0]
            continue
        if path:
            paths[char.id] = path[: char.move]
    step = 0
    moving = dict(paths)
    while moving:
        occupants: dict[Cell, list[Character]] = {}
        for c in game.alive():
            occupants.setdefault(c.pos, []).append(c)
        proposals = {cid: path[step] for cid, path in moving.items()}
        stopped: set[str] = set()
        for cid, target in sorted(proposals.items()):
            char = game.character(cid)
            arriving = [game.character(o) for o, t in proposals.items() if t == target and o not in stopped]
            staying = [c for c in occupants.get(target, []) if c.id not in proposals]
            group = staying + arriving
            same_side = [c for c in group if c.side == char.side]
            if len(group) > game.rules["cell_capacity"] or len(same_side) > game.rules["side_capacity"]:
                # the latecomers (by id order among arrivals) give way
                allowed_ids = {c.id for c in staying}
                for c in sorted(arriving, key=lambda c: c.id):
                    trial = [x for x in group if x.id in allowed_ids] + [c]
                    if len(trial) <= game.rules["cell_capacity"] and \
                            sum(1 for x in trial if x.side == c.side) <= game.rules["side_capacity"]:
                        allowed_ids.add(c.id)
                if cid not in allowed_ids:
                    stopped.add(cid)
                    log.emit("blocked", to=[], actors=[char.player], cells=[cell_name(char.pos)],
                             character=cid, cell=cell_name(target))
        for cid, target in proposals.items():
            if cid in stopped:
                moving.pop(cid)
                continue
            char = game.character(cid)
            log.emit("step", to=[], actors=[char.player], cells=[cell_name(char.pos), cell_name(target)],
                     character=cid, start=cell_name(char.pos), end=cell_name(target))
            char.pos = target
        step += 1
        for cid in list(moving):
            char = game.character(cid)
            if step >= len(moving[cid]) or any(c.side != char.side for c in game.alive() if c.pos == char.pos):
                moving.pop(cid)


def fights(game: Game) -> list[tuple[Cell, list[Character]]]:
    """Every cell that holds living characters of more than one side, in board order."""
    cells: dict[Cell, list[Character]] = {}
    for c in game.alive():
        cells.setdefault(c.pos, []).append(c)
    return [(cell, group) for cell, group in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            if len({c.side for c in group}) > 1]

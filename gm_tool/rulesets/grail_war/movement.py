"""Movement (R1, R3, R4): path planning, the legality check behind `gm check`, and the
simultaneous step-by-step move of every character (rulings M10-M19).

Terrain: ground is entered from higher to lower only; going up needs the class movement of a
LANCER (a jump: a climbing step costs 2 of its move), RIDER or CASTER, asked for with
``special`` (the seed's "是否发动介职特效"). Rivers are entered only by a RIDER or CASTER using
its class movement, and a path may not end in a river. Tunnels are walked through: the cells
inside tunnel ``i`` are virtual cells below the map (see :class:`model.Board`), level, blind.
Closed cells (流局) are never entered.

A path is a list of *ticks*, one cell a step: the cell the character is in after each step of
the turn. A LANCER's jump up takes two ticks, the first spent where it stands.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name, manhattan, parse_cell
from gm_tool.rulesets.grail_war.model import RIVER, TERRAIN, Character, Game, Stronghold

CLIMBERS = frozenset({"LANCER", "RIDER", "CASTER"})
SWIMMERS = frozenset({"RIDER", "CASTER"})
LANCER_CLIMB_COST = 2  # seed l.7 "LANCER使用技能通过高地时，跳跃的距离-1" (ruling M12)
WALK_SPECIALS = ("climb", "jump", "cross")
TELEPORT_KINDS = ("teleport", "bridge")

Problem = tuple[str, str, dict[str, Any]]


# class movement -------------------------------------------------------------------------------
def special_problem(char: Character, special: str | None) -> str | None:
    """The message code if ``char``'s class has no such class movement (ruling M11)."""
    if special is None or special == "teleport":
        return None
    if special == "destroy":
        return None if char.cls == "BERSERKER" else "grail_war.move.no_destroy"
    if special == "jump":
        return None if char.cls == "LANCER" else "grail_war.move.no_jump"
    if special == "climb":
        return None if char.cls in CLIMBERS else "grail_war.move.no_climb"
    if special == "cross":
        return None if char.cls in SWIMMERS else "grail_war.move.no_cross"
    return "grail_war.move.special_unknown"


def _kit(char: Character, special: str | None) -> tuple[bool, bool, int]:
    """(may climb, may cross rivers, cost of a climbing step) for this move. Asking for any class
    movement (climb, jump, cross) uses the whole of the class's movement skill this turn."""
    if special not in WALK_SPECIALS or special_problem(char, special):
        return False, False, 1
    return char.cls in CLIMBERS, char.cls in SWIMMERS, LANCER_CLIMB_COST if char.cls == "LANCER" else 1


def _cost_rule(board, closed: set[Cell] | frozenset[Cell], kit: tuple[bool, bool, int]) -> Callable[[Cell, Cell], int | None]:
    climb, cross, climb_cost = kit
    height, rows = board.height, board.rows

    def cost(a: Cell, b: Cell) -> int | None:
        if b in closed:
            return None
        if a[1] >= height or b[1] >= height:  # into, through or out of a tunnel: level stairs
            return 1
        into = rows[b[1]][b[0]]
        if into == RIVER and not cross:
            return None
        if TERRAIN[into] > TERRAIN[rows[a[1]][a[0]]]:  # board.height_of, inlined: the hot loop
            return climb_cost if climb else None
        return 1

    return cost


def step_cost(game: Game, char: Character, special: str | None = None) -> Callable[[Cell, Cell], int | None]:
    """The cost in ticks of one step a -> b (neighbours), or None if the step is forbidden."""
    return _cost_rule(game.board, set(game.closed_cells), _kit(char, special))


def step_rule(game: Game, char: Character) -> Callable[[Cell, Cell], bool]:
    """Plain walking (no class movement, no tunnels) as a yes/no rule for :func:`grid.reachable`."""
    cost = step_cost(game, char, None)
    board = game.board
    return lambda a, b: board.on_board(a) and board.on_board(b) and cost(a, b) == 1


class _Steps:
    """The allowed steps out of each cell for one kit (see :func:`_kit`) on one board with its
    closed cells, filled in lazily as searches reach cells. They depend on the map alone, so a
    table is kept for the next turns (the same map is walked every turn).

    Cells are numbered (``y * width + x`` on the map, the cells inside tunnels after them as
    they are met) and ``out`` is a flat list by number: searches touch small ints and one list,
    not tuples hashed into dicts. ``uniform``: every step costs 1 (all kits but a LANCER's jump)
    and ``out[i]`` lists the neighbours' numbers; else it lists (number, cost) pairs."""

    __slots__ = ("board", "cost", "uniform", "out", "cells", "width", "height", "extra", "mark", "prev", "round",
                 "plans")

    def __init__(self, board, closed: frozenset[Cell], kit: tuple[bool, bool, int]):
        self.board = board
        self.cost = _cost_rule(board, closed, kit)
        self.uniform = not kit[0] or kit[2] == 1
        self.width, self.height = board.width, board.height
        self.cells: list[Cell] = [(x, y) for y in range(board.height) for x in range(board.width)]
        self.out: list[tuple | None] = [None] * len(self.cells)
        self.extra: dict[Cell, int] = {}  # numbers of cells off the map (inside tunnels)
        # a breadth-first search marks the cells it found with its round number (no dict to grow)
        self.mark: list[int] = [0] * len(self.cells)
        self.prev: list[int] = [0] * len(self.cells)
        self.round = 0
        # plan() answers on this table, (start, goal, waypoints, limit) -> ticks or None: a path
        # depends on nothing else, and a turn asks the same one up to three times (the bot's
        # trial, the sheet's check, the move itself)
        self.plans: dict[tuple, tuple[Cell, ...] | None] = {}

    def number(self, cell: Cell) -> int:
        x, y = cell
        if 0 <= y < self.height and 0 <= x < self.width:
            return y * self.width + x
        i = self.extra.get(cell)
        if i is None:
            i = self.extra[cell] = len(self.cells)
            self.cells.append(cell)
            self.out.append(None)
            self.mark.append(0)
            self.prev.append(0)
        return i

    def fill(self, i: int) -> tuple:
        cell, cost, number = self.cells[i], self.cost, self.number
        if self.uniform:
            steps: tuple = tuple(number(n) for n in self.board.neighbours(cell) if cost(cell, n) is not None)
        else:
            steps = tuple((number(n), c) for n in self.board.neighbours(cell) if (c := cost(cell, n)) is not None)
        self.out[i] = steps
        return steps


_STEPS: dict[tuple, _Steps] = {}


def _steps(game: Game, kit: tuple[bool, bool, int]) -> _Steps:
    closed = frozenset(game.closed_cells)
    key = (game.board.ident(), closed, kit)
    table = _STEPS.get(key)
    if table is None:
        if len(_STEPS) >= 64:  # many maps or closures in one process: start again
            _STEPS.clear()
        table = _STEPS[key] = _Steps(game.board, closed, kit)
    return table


def _search(steps: _Steps, start: Cell, goal: Cell, limit: int | None) -> list[Cell] | None:
    """Cheapest ticks from ``start`` to ``goal`` (Dijkstra; ties broken N, E, S, W, then tunnels,
    first found first: the same path every time). When every step costs 1 this is a breadth-first
    search, stopped as soon as the goal is found: the same path as Dijkstra's (its heap pops in
    the order cells were found, which is the queue's order)."""
    if start == goal:
        return []
    out, fill, cells = steps.out, steps.fill, steps.cells
    first, last = steps.number(start), steps.number(goal)
    if steps.uniform:
        return _breadth_first(steps, first, last, goal, limit)
    dist = {first: 0}
    back: dict[int, tuple[int, int]] = {}
    heap: list[tuple[int, int, int]] = [(0, 0, first)]
    seq = 0
    while heap:
        d, _, cur = heapq.heappop(heap)
        if d > dist[cur]:
            continue
        if cur == last:
            ticks: list[Cell] = []
            node = last
            while node != first:
                prior, c = back[node]
                ticks.append(cells[node])
                ticks.extend([cells[prior]] * (c - 1))  # waiting before a jump
                node = prior
            return ticks[::-1]
        pairs = out[cur]
        if pairs is None:
            pairs = fill(cur)
        for nxt, c in pairs:
            nd = d + c
            if (limit is not None and nd > limit) or nd >= dist.get(nxt, nd + 1):
                continue
            dist[nxt] = nd
            back[nxt] = (cur, c)
            seq += 1
            heapq.heappush(heap, (nd, seq, nxt))
    return None


def _breadth_first(steps: _Steps, first: int, last: int, goal: Cell, limit: int | None) -> list[Cell] | None:
    """The uniform-cost search of :func:`_search`, marking found cells in the table's lists."""
    out, fill, cells, mark, prev = steps.out, steps.fill, steps.cells, steps.mark, steps.prev
    steps.round += 1
    stamp = steps.round
    mark[first] = stamp
    frontier = [first]
    depth = 0
    while frontier:
        if limit is not None and depth >= limit:
            return None
        depth += 1
        found = []
        for cur in frontier:
            nxts = out[cur]
            if nxts is None:
                nxts = fill(cur)
                mark, prev = steps.mark, steps.prev  # (the same lists; fill may have grown them)
            for nxt in nxts:
                if mark[nxt] == stamp:
                    continue
                mark[nxt] = stamp
                prev[nxt] = cur
                if nxt == last:
                    ticks = [goal]
                    node = cur
                    while node != first:
                        ticks.append(cells[node])
                        node = prev[node]
                    return ticks[::-1]
                found.append(nxt)
        frontier = found
    return None


def reachable(game: Game, char: Character, special: str | None = None, budget: int | None = None) -> dict[Cell, int]:
    """Every cell the character can walk to this turn (rivers included), with its cost in ticks."""
    budget = char.move if budget is None else budget
    cost = step_cost(game, char, special)
    dist = {char.pos: 0}
    heap = [(0, char.pos)]
    while heap:
        d, cur = heapq.heappop(heap)
        if d > dist[cur]:
            continue
        for nxt in game.board.neighbours(cur):
            c = cost(cur, nxt)
            if c is not None and d + c <= budget and d + c < dist.get(nxt, budget + 1):
                dist[nxt] = d + c
                heapq.heappush(heap, (d + c, nxt))
    return dist


def plan(game: Game, char: Character, to: Cell | None, via: list[Cell], special: str | None,
         limit: int | None = None) -> list[Cell] | None:
    """The ticks a character will walk through (excluding its start), or None if impossible
    (within ``limit`` ticks when given)."""
    if to is None or (to == char.pos and not via):
        return []
    if special == "teleport":
        return [to]
    steps = _steps(game, _kit(char, special))
    key: tuple | None = (char.pos, to, tuple(via), limit)
    try:
        known = steps.plans.get(key, _UNKNOWN)  # type: ignore[arg-type]
    except TypeError:  # a cell that is not a tuple (never from a sheet): plan it, keep nothing
        key, known = None, _UNKNOWN
    if known is not _UNKNOWN:
        return None if known is None else list(known)  # type: ignore[call-overload]
    path: list[Cell] = []
    cur = char.pos
    for point in [*via, to]:
        leg = _search(steps, cur, point, None if limit is None else limit - len(path))
        if leg is None:
            if key is not None:
                _keep_plan(steps, key, None)
            return None
        path.extend(leg)
        cur = point
    if key is not None:
        _keep_plan(steps, key, tuple(path))
    return path


def _keep_plan(steps: _Steps, key: tuple, path: tuple[Cell, ...] | None) -> None:
    if len(steps.plans) >= 20_000:
        steps.plans.clear()
    steps.plans[key] = path


_UNKNOWN = object()


def tunnel_cell(game: Game, text: Any) -> Cell | None:
    """A cell inside a tunnel named in a sheet (as the state names it: the row below the map),
    or None if ``text`` names no such cell."""
    try:
        cell = parse_cell(text)
    except ValueError:
        return None
    return cell if game.board.in_tunnel(cell) is not None else None


# teleports ------------------------------------------------------------------------------------
def teleport_distance(game: Game, a: Cell, b: Cell) -> int:
    """Cells between ``a`` and ``b`` counted as orthogonal steps (Manhattan, ruling M15); from
    inside a tunnel, the steps to a mouth plus the distance from there."""
    where = game.board.in_tunnel(a)
    if where is None:
        return manhattan(a, b)
    i, k = where
    first, last = game.board.tunnel_mouths(i)
    length = game.board.tunnel_length(i)
    return min(k + 1 + manhattan(first, b), length - k + manhattan(last, b))


def _stronghold_index(game: Game) -> dict[Cell, Stronghold]:
    return game.strongholds_by_pos()


def teleport_problem(game: Game, char: Character, to: Cell) -> str | None:
    """Why a teleport to ``to`` is illegal, or None (R4, R6, ruling M15). Two ways exist:

    * standing on an own working teleport stronghold or 新都大桥: to another own working stronghold,
      or to an enemy's working teleport point (a teleport stronghold or the bridge), any distance;
    * a CASTER, anywhere (even inside a tunnel, seed l.12): to an own working stronghold at most
      ``teleport_range`` cells away.

    Destroyed (l.15 "不能传送") and closed strongholds, and closed cells, are never destinations."""
    index = _stronghold_index(game)
    here = index.get(char.pos)
    target = index.get(to)
    if target is None or to == char.pos:
        return "grail_war.move.teleport_not_stronghold"
    if not target.working or to in game.closed_cells:
        return "grail_war.move.teleport_not_working"
    own_gate = here is not None and here.owner == char.side and here.working and here.kind in TELEPORT_KINDS
    if own_gate:
        if target.owner == char.side:
            return None
        if target.owner is not None and target.kind in TELEPORT_KINDS:
            return None
    if char.cls != "CASTER":
        return "grail_war.move.teleport_gate_target" if own_gate else "grail_war.move.no_teleport"
    if target.owner != char.side:
        return "grail_war.move.teleport_not_own"
    if teleport_distance(game, char.pos, to) > game.rules["teleport_range"]:
        return "grail_war.move.teleport_far"
    return None


# the check behind `gm check` ------------------------------------------------------------------
def destroy_problem(game: Game, char: Character, at: Cell) -> str | None:
    """Why a BERSERKER cannot destroy the stronghold at ``at`` (ruling M17), or None."""
    s = _stronghold_index(game).get(at)
    if s is None:
        return "grail_war.move.destroy_no_stronghold"
    if s.owner == char.side:
        return "grail_war.move.destroy_own"
    if s.destroyed:
        return "grail_war.move.destroy_done"
    if s.closed:
        return "grail_war.move.destroy_closed"
    return None


def check(game: Game, char: Character, orders: Any) -> list[Problem]:
    """Problems with a character's move order, as (field, message code, params)."""
    to, via, special = orders.move_to, list(orders.move_via), orders.move_special
    params = {"cls": char.cls, "cell": cell_name(to) if to is not None else cell_name(char.pos),
              "value": special, "limit": char.move}
    code = special_problem(char, special)
    if code:
        return [("move.special", code, params)]
    if special == "teleport":
        if to is None:
            return [("move.to", "grail_war.move.teleport_no_target", params)]
        if via:
            return [("move.via", "grail_war.move.teleport_via", params)]
        code = teleport_problem(game, char, to)
        if code:
            field = "move.special" if code == "grail_war.move.no_teleport" else "move.to"
            return [(field, code, {**params, "limit": game.rules["teleport_range"]})]
        return []
    problems: list[Problem] = []
    if special == "destroy":
        code = destroy_problem(game, char, to if to is not None else char.pos)
        if code:
            problems.append(("move.special", code, params))
    if to is None or (to == char.pos and not via):  # staying put is always possible (even on a closed cell)
        return problems
    closed = set(game.closed_cells)
    for i, point in enumerate([*via, to]):
        if point in closed:
            field = "move.to" if i == len(via) else f"move.via[{i}]"
            return problems + [(field, "grail_war.move.closed", {**params, "cell": cell_name(point)})]
    path = plan(game, char, to, via, special, limit=char.move)
    if path is None:
        full = plan(game, char, to, via, special)
        if full is not None:
            code = "grail_war.move.too_far_jump" if _kit(char, special)[2] > 1 else "grail_war.move.too_far"
            problems.append(("move.to", code, {**params, "steps": len(full)}))
        else:
            problems.append(("move.to", _unreachable_reason(game, char, to, via, special), params))
    elif path and game.board.terrain(path[-1]) == RIVER:
        problems.append(("move.to", "grail_war.move.ends_in_river", params))
    return problems


def _unreachable_reason(game: Game, char: Character, to: Cell, via: list[Cell], special: str | None) -> str:
    """Say what would have made ``to`` reachable: the class movement not asked for, or nothing."""
    if special not in WALK_SPECIALS:
        for ask in ("jump", "climb", "cross"):
            if special_problem(char, ask) is None and plan(game, char, to, via, ask) is not None:
                return "grail_war.move.needs_special"
    if char.cls in SWIMMERS:
        return "grail_war.move.unreachable"
    if char.cls in CLIMBERS:
        return "grail_war.move.unreachable_river"
    return "grail_war.move.unreachable_walker"


# the simultaneous move ------------------------------------------------------------------------
def move_all(game: Game, orders: dict[str, Any], log: EventLog, chance: Chance | None = None) -> None:
    """Move everyone at once, one tick a step (R3, rulings M13, M14, M16).

    * A character stops in the first cell where it meets an enemy: one standing there at the
      end of the step, or one arriving there in the same step (whoever arrived, both stop).
      Enemies who started the turn together do not meet again by standing still.
    * Two enemies stepping into each other's cells in the same step bar each other's way: both
      stop where they are (``blocked``, reason ``enemy``). Allies may swap.
    * A step into a cell that would then hold more than 4 characters or more than 2 of a side
      (R1) is refused: those already there stay, arrivals are admitted in an order drawn by lot,
      and whoever does not fit stops where it is (``blocked``, reason ``capacity``).
    * A teleport is the character's only step: it arrives in the first step, meeting no one on
      the way (R4); capacity still applies at the destination.
    """
    chars = {c.id: c for c in game.characters}
    routes: dict[str, list[Cell]] = {}
    teleports: set[str] = set()
    by_char = {o.character: o for o in orders.values()}
    for c in game.characters:  # in roster order: stable
        o = by_char.get(c.id)
        if o is None or not c.alive:
            continue
        path = plan(game, c, o.move_to, o.move_via, o.move_special, limit=c.move)
        if o.move_special == "teleport":
            if path and teleport_problem(game, c, path[0]) is None:
                routes[c.id] = path
                teleports.add(c.id)
        elif path:
            routes[c.id] = path[: c.move]
    if not routes:
        return
    cap, side_cap = game.rules["cell_capacity"], game.rules["side_capacity"]
    where: dict[Cell, list[str]] = {}
    for c in game.characters:
        if c.alive:
            where.setdefault(c.pos, []).append(c.id)
    events = log.events  # steps are written straight in, as log.emit(kind, to=[], ...) writes them
    step = 0
    while routes:
        movers = {cid: route[step] for cid, route in routes.items() if route[step] != chars[cid].pos}
        blocked: dict[str, str] = {}
        _resolve_conflicts(chars, where, movers, teleports, blocked, cap, side_cap, chance)
        arrived: dict[Cell, list[str]] = {}
        for cid, target in movers.items():
            c = chars[cid]
            if cid in blocked:  # told to who sees both cells: the cell it was refused is information
                log.emit("blocked", to=[], actors=[c.player], cells=[cell_name(c.pos), cell_name(target)],
                         character=cid, cell=cell_name(target), reason=blocked[cid])
                continue
            a, b = cell_name(c.pos), cell_name(target)
            events.append({"seq": len(events), "type": "teleport" if cid in teleports else "step", "to": [],
                           "actors": [c.player], "cells": [a, b], "character": cid, "start": a, "end": b})
            where[c.pos].remove(cid)
            c.pos = target
            where.setdefault(target, []).append(cid)
            arrived.setdefault(target, []).append(cid)
        step += 1
        for cid in list(routes):
            c = chars[cid]
            if cid in blocked or step >= len(routes[cid]) or cid in teleports:
                del routes[cid]
        # meetings: in every cell someone arrived in, everyone of a side meeting an enemy stops
        for cell, newcomers in arrived.items():
            here = [chars[x] for x in where[cell]]
            if len({c.side for c in here}) < 2:
                continue
            new_sides = {chars[x].side for x in newcomers}
            for c in here:
                if c.id in newcomers or any(side != c.side for side in new_sides):
                    routes.pop(c.id, None)


def _resolve_conflicts(chars: dict[str, Character], where: dict[Cell, list[str]], movers: dict[str, Cell],
                       teleports: set[str], blocked: dict[str, str], cap: int, side_cap: int,
                       chance: Chance | None) -> None:
    """Decide which of this step's movers are refused (enemy swaps, then capacity; repeated until
    nothing changes, since a refused mover stays and fills its own cell)."""
    if not movers:
        return
    by_edge = {(chars[cid].pos, t): cid for cid, t in movers.items() if cid not in teleports}
    for (a, b), cid in by_edge.items():
        other = by_edge.get((b, a))
        if other is not None and chars[other].side != chars[cid].side:
            blocked[cid] = "enemy"
    drawn: dict[Cell, list[str]] = {}
    roomy = min(cap, side_cap)  # this many always fit, whatever their sides
    changed = True
    while changed:
        changed = False
        targets: dict[Cell, list[str]] = {}
        for cid, t in movers.items():
            if cid not in blocked:
                targets.setdefault(t, []).append(cid)
        # cells that fit whoever stays are passed over with no effect, so only the others are
        # taken in board order (the order their lots are drawn in)
        crowded = [cell for cell, arrivals in targets.items() if len(where.get(cell, ())) + len(arrivals) > roomy]
        for cell in sorted(crowded, key=_row_major) if len(crowded) > 1 else crowded:
            arrivals = targets[cell]
            staying = [x for x in where.get(cell, []) if x not in movers or x in blocked]
            sides: dict[str, int] = {}
            for x in staying:
                sides[chars[x].side] = sides.get(chars[x].side, 0) + 1
            fits = len(staying) + len(arrivals) <= cap and all(
                sides.get(chars[x].side, 0) + sum(1 for y in arrivals if chars[y].side == chars[x].side) <= side_cap
                for x in arrivals)
            if fits:
                continue
            if cell in drawn:  # arrivals only shrink: keep the lot already drawn
                order = [x for x in drawn[cell] if x in arrivals]
            else:
                order = sorted(arrivals)
                if chance is not None:
                    chance.shuffle(order, why=f"give_way:{cell_name(cell)}")
                drawn[cell] = order
            count = len(staying)
            for x in order:
                side = chars[x].side
                if count < cap and sides.get(side, 0) < side_cap:
                    count += 1
                    sides[side] = sides.get(side, 0) + 1
                else:
                    blocked[x] = "capacity"
                    changed = True


def _row_major(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


def fights(game: Game) -> list[tuple[Cell, list[Character]]]:
    """Every cell that holds living characters of more than one side, in board order (cells
    inside tunnels last)."""
    cells: dict[Cell, list[Character]] = {}
    for c in game.characters:
        if c.alive:
            cells.setdefault(c.pos, []).append(c)
    return [(cell, group) for cell, group in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            if len({c.side for c in group}) > 1]

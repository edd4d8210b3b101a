"""Built-in players for demos and simulations: they write ordinary order sheets (plain mappings
that pass `gm check`), so everything downstream is exercised as for a human player.

``random``: any legal sheet — a random reachable destination (sometimes through a waypoint, or a
legal teleport), random keep list, skill use, 出杀/出闪 lists, 咒, 宝石, 魔术牌 and equipment choices.

``greedy``: knows what its player sees (its character, the characters in sight, every stronghold
and its owner, who has died) and hunts, whatever its own HP (walking home to heal made greedy
games last: a hurt character heals only when it happens to stand on a heal point of its side
with nobody in sight). Seeing an enemy it may meet this turn, it walks to the cell where a
randomly walking enemy is likeliest met (moves are simultaneous and a fight needs both in one
cell after the same step), else towards the enemy it reaches soonest (the weakest of those),
unless it is taking a stronghold. Seeing nobody, it stays on an untaken stronghold it stands on
(capture needs a whole turn there) or heads for a stronghold its side does not hold: vision
points first (what they show, the whole side sees), then card and equipment points, the enemy's
heal points, the enemy's others, then neutral ones, leaving one to a visible ally nearer to it
and pushing out from its side's own strongholds towards the far side, where the enemy is; holding
them all, it goes looking far from home. It walks with its class's movement (RIDER and CASTER
cross rivers and climb, a LANCER jumps; a teleport when one lands nearer), by true walking
distance, and breaks ties by lot, so neither side is favoured by a fixed order. It keeps a 杀 and
a 闪 first, pays a skill's discards from its spare cards only, always strikes at enemies and
dodges everything.

Every choice is drawn from the ``chance`` given, in a fixed order, so bots are replayable.
"""

from __future__ import annotations

import heapq
import zlib
from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import cache
from typing import Any, TypeVar

from gm_tool.core.chance import Chance
from gm_tool.core.grid import Cell, cell_name, manhattan, reachable
from gm_tool.rulesets.grail_war import movement, vision
from gm_tool.rulesets.grail_war.model import RIVER, Character, Game, Stronghold
from gm_tool.rulesets.grail_war.orders import (
    CURSE_KIND,
    DODGE_KIND,
    GEM_KIND,
    MAGIC_KIND,
    MOVE_KIND,
    STRIKE_KIND,
    TARGET_KIND,
    Orders,
    parse,
)

KINDS = ("random", "greedy")
T = TypeVar("T")

_EMPTY_DECK: dict[str, list[Any]] = {"draw_pile": [], "discard_pile": []}
_ZONES = ("weapon", "armor", "hand")
_EQUIP_ZONES = ("equipment", "hand")
# the greedy bot's cards, most wanted first (a name again: the next copy); cards not listed come
# after these in the order received. What makes a fight lethal comes first: a 杀 and a 闪, a 咒 for
# the 杀, the magic cards that deal damage or strip a card, healing; spare copies last.
_GREEDY_KEEP = ("杀", "闪", "咒", "决斗", "王之军势", "宝石", "扭曲螺旋", "赤主槛发", "王之财宝", "杀", "闪",
                "万法破尽", "石化魔眼", "不死徒手", "宝石", "咒", "枯竭庭院", "杀", "闪")
_CORE = 2  # the first cards of the keep list are never paid for a skill (a 杀 and a 闪, usually)


def _game(state: dict[str, Any]) -> Game:
    """The state as a Game for reading only: bots never look at the deck, so it is not built."""
    return Game.from_state({**state, "deck": _EMPTY_DECK, "equipment_pile": []})


_REACH: dict[tuple, tuple[dict[Cell, int], list[Cell], dict[Cell, list[Cell]]]] = {}


def destinations(game: Game, char: Character) -> dict[Cell, int]:
    """Every cell the character may walk to this turn (not ending in a river), with its distance.
    Walking depends on the terrain, the closed cells, the class and the move only, so the answer
    is kept for the next turns and games on the same map (a simulation asks it again and again)."""
    return dict(_destinations(game, char)[0])


def _destinations(game: Game, char: Character) -> tuple[dict[Cell, int], list[Cell], dict[Cell, list[Cell]]]:
    """:func:`destinations` (not to be changed: it is kept), its cells in board order, and the
    waypoints found so far for each destination (kept by :func:`_random_move`)."""
    board = game.board
    key = (board.ident(), tuple(game.closed_cells), char.cls, char.pos, char.move)
    hit = _REACH.get(key)
    if hit is None:
        reach = reachable(char.pos, char.move, movement.step_rule(game, char), board.width, board.height)
        found = {c: d for c, d in reach.items() if board.terrain(c) != RIVER or c == char.pos}
        if len(_REACH) > 50_000:
            _REACH.clear()
        hit = _REACH[key] = (found, _board_order(found), {})
    return hit


def teleports(game: Game, char: Character) -> list[Cell]:
    """Stronghold cells the character may legally teleport to (the move options'), in board order."""
    return _board_order(MOVE_KIND.teleports(game, char))


def _board_order(cells: Iterable[Cell]) -> list[Cell]:
    return sorted(cells, key=lambda c: (c[1], c[0]))


def _subset(chance: Chance, items: list, why: str) -> list:
    """A random ordered subset (possibly empty) of ``items``."""
    pool = list(items)
    chance.shuffle(pool, why=why)
    return pool[: chance.roll(len(pool) + 1, why=why) - 1] if pool else []


def _priority(chance: Chance, options: tuple[str, ...], why: str, vias: list[str], via_for: str) -> list:
    entries: list[Any] = []
    for against in _subset(chance, list(options), why):
        entry: dict[str, Any] = {"against": against}
        if chance.roll(3, why=why) == 1:
            entry["count"] = chance.roll(2, why=why)
        if vias and against == via_for and chance.roll(2, why=why) == 1:
            entry["via"] = chance.choice(vias, why=why)
        entries.append(entry)
    if chance.roll(3, why=why) == 1:
        entries.append("none")
    return entries


def _random_move(game: Game, char: Character, chance: Chance) -> dict[str, Any] | None:
    tele = teleports(game, char)
    if tele and chance.roll(4, why="bot.teleport") == 1:
        return {"to": cell_name(chance.choice(tele, why="bot.move", label=cell_name)), "special": "teleport"}
    reach, cells, ways = _destinations(game, char)
    to = chance.choice(cells, why="bot.move", label=cell_name)
    if to == char.pos:
        return None if chance.roll(2, why="bot.move") == 1 else {"to": cell_name(to)}
    move: dict[str, Any] = {"to": cell_name(to)}
    waypoints = ways.get(to)
    if waypoints is None:  # kept with the destinations: they depend on the same things and ``to``
        pos, (tx, ty), move_len = char.pos, to, char.move
        waypoints = ways[to] = [c for c in cells if c != pos and c != to
                                and reach[c] + abs(c[0] - tx) + abs(c[1] - ty) <= move_len]
    if waypoints and chance.roll(4, why="bot.via") == 1:
        via = chance.choice(waypoints, why="bot.via", label=cell_name)
        trial = Orders(player=char.player, turn=game.turn + 1, character=char.id, move_to=to, move_via=[via])
        if not movement.check(game, char, trial):
            move["via"] = [cell_name(via)]
    return move


def _skill_discards(char: Character, custom: dict[str, Any] | None = None) -> int | None:
    """How many cards the character's active skill discards as its cost (None: unknown);
    ``custom``: the scenario's own skill definitions (Game.skills)."""
    if custom and any(s in custom for s in char.skills):
        from gm_tool.rulesets.grail_war.combat import skills as defs

        active = [s for s in defs.of(list(char.skills), custom) if s.trigger == "active"]
        return int(active[0].cost.get("discard", 0)) if active else 0
    try:
        return _discards(tuple(char.skills))
    except TypeError:  # an unhashable entry: no such skill
        return None


@cache
def _discards(skills: tuple[str, ...]) -> int | None:
    try:
        from gm_tool.rulesets.grail_war.combat import skills as defs

        active = [s for s in defs.of(list(skills)) if s.trigger == "active"]
        return int(active[0].cost.get("discard", 0)) if active else 0
    except (ImportError, AttributeError, TypeError, KeyError):
        return None


def _random(game: Game, char: Character, chance: Chance, out: dict[str, Any]) -> None:
    names = [c.name for c in char.hand]
    out["keep"] = _subset(chance, names, "bot.keep")
    if char.skills:
        skill: dict[str, Any] = {"use": chance.choice([True, False], why="bot.skill")}
        need = _skill_discards(char, game.skills)
        if need and len(names) >= need and chance.roll(2, why="bot.skill") == 1:
            pool = list(names)
            chance.shuffle(pool, why="bot.skill")
            skill["discard"] = pool[:need]
        out["skill"] = skill
    out["target_priority"] = chance.choice(list(TARGET_KIND.codes), why="bot.target")
    out["strike_order"] = _priority(chance, STRIKE_KIND.answers, "bot.strike", STRIKE_KIND.vias(char), STRIKE_KIND.converted)
    out["dodge_order"] = _priority(chance, DODGE_KIND.answers, "bot.dodge", DODGE_KIND.vias(char), DODGE_KIND.converted)
    out["use_curse"] = chance.choice(list(CURSE_KIND.codes), why="bot.curse")
    out["gem"] = chance.choice(list(GEM_KIND.codes), why="bot.gem")
    out["magic"] = {"use": chance.choice([True, False], why="bot.magic"),
                    "zone_priority": _subset(chance, list(_ZONES), "bot.magic"),
                    "hand_size": chance.choice(list(MAGIC_KIND.hand_sizes), why="bot.magic")}
    equipment = {}
    for slot in ("weapon", "armor"):
        card = char.equipment.get(slot)
        if card is not None:
            equipment[card.name] = {"use": chance.choice([True, False], why="bot.equipment"),
                                    "zones": _subset(chance, list(_EQUIP_ZONES), "bot.equipment") or ["equipment"]}
    if equipment:
        out["equipment"] = equipment
    move = _random_move(game, char, chance)
    if move is not None:
        out["move"] = move


def _keep_order(held: list[str]) -> list[str]:
    left = list(held)
    out = []
    for name in _GREEDY_KEEP:
        if name in left:
            left.remove(name)
            out.append(name)
    return out + left


def _low(char: Character) -> bool:
    return char.hp <= max(1, char.max_hp // 2)


def _greedy(game: Game, player: str, char: Character, chance: Chance, out: dict[str, Any]) -> None:
    keep = _keep_order([c.name for c in char.hand])
    out["keep"] = keep
    if char.skills:
        out["skill"] = {"use": True}
        need = _skill_discards(char, game.skills)
        if need:
            kept = keep[: char.hand_limit()]
            spare = kept[_CORE:]
            if len(spare) >= need:
                out["skill"]["discard"] = spare[len(spare) - need:]
    out["strike_order"] = [{"against": "enemy"}, {"against": "magic"}, {"against": "skill"}]
    out["dodge_order"] = [{"against": "strike"}, {"against": "magic"}, {"against": "skill"}]
    out["use_curse"] = True
    out["gem"] = "self_first" if _low(char) else "ally_first"
    out["target_priority"] = "more_hp" if not _low(char) else "more_cards"
    move = _greedy_move(game, player, char, chance)
    if move is not None:
        out["move"] = move


# class movement the greedy bot always asks for when it walks: RIDER and CASTER climb and cross
# rivers, a LANCER jumps up (ruling M11); the others walk
_KIT = {"RIDER": "cross", "CASTER": "cross", "LANCER": "jump"}


def _walk(game: Game, char: Character, to: Cell) -> dict[str, Any] | None:
    if to == char.pos:
        return None
    special = _KIT.get(char.cls)
    return {"to": cell_name(to), "special": special} if special else {"to": cell_name(to)}


_WALKS: dict[tuple, tuple[list[Cell], dict[Cell, list[Cell]]]] = {}


def _walks(game: Game, char: Character) -> tuple[list[Cell], dict[Cell, list[Cell]]]:
    """The cells the character may end its walk in this turn with its class movement, in board
    order, and the ticks of the engine's path to each (kept, as :func:`destinations`)."""
    special = _KIT.get(char.cls)
    board = game.board
    key = (board.ident(), tuple(game.closed_cells), char.cls, char.pos, char.move, special)
    hit = _WALKS.get(key)
    if hit is None:
        reach = movement.reachable(game, char, special)
        cells = [c for c in _board_order(reach) if c == char.pos or board.terrain(c) != RIVER]
        paths = {c: movement.plan(game, char, c, [], special, limit=char.move) or [] for c in cells}
        if len(_WALKS) > 50_000:
            _WALKS.clear()
        hit = _WALKS[key] = (cells, paths)
    return hit


def _greedy_move(game: Game, player: str, char: Character, chance: Chance) -> dict[str, Any] | None:
    """The greedy bot's move (a sheet's ``move``), or None: it stays.

    What it knows is what its player sees (its view): its own character, the characters in its
    sight, every stronghold and its owner, and who has died (deaths are announced)."""
    here = game.stronghold_at(char.pos)
    heals = [s for s in game.strongholds if s.kind == "heal" and s.owner == char.side and s.working
             and (char.healed_turn is None or game.turn + 1 - char.healed_turn >= game.rules["heal_cooldown"])]
    near = lambda s: manhattan(s.pos, char.pos)  # noqa: E731
    seen = vision.visible_cells(game, player)
    others = [c for c in game.alive() if c.pos in seen and c.id != char.id]
    allies = [c.pos for c in others if c.side == char.side]
    enemies = [c for c in others if c.side != char.side]
    hurt = char.hp < char.max_hp
    if here is not None and here in heals and _low(char) and hurt and not enemies:
        return None  # hurt on a working heal point of its side, nobody in sight: stay and heal
    untaken = here is not None and here.owner != char.side and not here.closed
    if enemies:  # hunt: where a walking enemy is likeliest met, else the enemy soonest reached
        cell = _intercept(game, char, enemies, chance)
        if cell is not None:
            return _walk(game, char, cell)
        if untaken:
            return None  # nobody to meet this turn: finish taking the stronghold it stands on
        step = max(1, char.move)
        prey = _pick(chance, enemies, lambda e: ((manhattan(e.pos, char.pos) + step - 1) // step, e.hp),
                     "bot.enemy", lambda e: e.id)
        return _toward(game, char, prey.pos, chance)
    if untaken:
        return None  # stay a whole turn to take it
    # Then strongholds its side does not hold: vision points first (the whole side sees through
    # them, and a hunter sees a far enemy there), then the card and equipment points (a fight
    # needs a 杀, a weapon hits harder), then the enemy's heal points (where the hurt go), the
    # enemy's others, then neutral ones; one a visible ally is nearer to is left to that ally;
    # among the rest it pushes out from its side's own strongholds towards the far ones, where
    # the enemy is (nearer first, but a step away from home counts three times).
    mine = [s.pos for s in game.strongholds if s.owner == char.side] or [char.pos]
    home = (sum(c[0] for c in mine) / len(mine), sum(c[1] for c in mine) / len(mine))
    out_of_home = lambda s: abs(s.pos[0] - home[0]) + abs(s.pos[1] - home[1])  # noqa: E731
    key = lambda s: (any(manhattan(a, s.pos) < near(s) for a in allies), _rank(s, char.side),  # noqa: E731
                     near(s) - 3 * out_of_home(s))
    walkable = [s for s in game.strongholds if not s.closed and char.pos in _distances_to(game, char, s.pos)]
    targets = [s for s in walkable if s.owner != char.side]
    if not targets:  # every stronghold is its side's: look for who is left, far from home
        targets = walkable
    if not targets:
        return None
    goal = _pick(chance, targets, key, "bot.target", lambda s: s.id).pos
    return None if goal == char.pos else _toward(game, char, goal, chance)


_KIND_RANK = {"vision": 0, "bridge": 0, "hand": 1, "equipment": 1}


def _rank(s: Stronghold, side: str) -> int:
    """The greedy bot's order of strongholds to take (smaller first)."""
    if s.kind in _KIND_RANK:
        return _KIND_RANK[s.kind]
    enemy = s.owner is not None and s.owner != side
    return (2 if s.kind == "heal" else 3) if enemy else 4


def _toward(game: Game, char: Character, goal: Cell, chance: Chance) -> dict[str, Any] | None:
    """The move that brings the character nearest ``goal`` by its own walking steps: a walk, or a
    teleport when one lands nearer."""
    cells, paths = _walks(game, char)
    to_goal = _distances_to(game, char, goal)
    far = len(to_goal) + game.board.width + game.board.height  # cut off from the goal: by the crow
    gap = lambda c: to_goal.get(c, far + manhattan(c, goal))  # noqa: E731
    best = _pick(chance, cells, lambda c: (gap(c), len(paths[c])), "bot.step", cell_name)
    jumps = [c for c in teleports(game, char) if gap(c) < gap(best)]
    if jumps:
        to = _pick(chance, jumps, gap, "bot.teleport", cell_name)
        return {"to": cell_name(to), "special": "teleport"}
    return _walk(game, char, best)


def _pick(chance: Chance, items: list[T], key: Callable[[T], Any], why: str, label: Callable[[T], Any]) -> T:
    """The item with the smallest key; a tie is broken by lot (a fixed order would favour one
    corner of the map, hence one side)."""
    best = min(key(i) for i in items)
    ties = [i for i in items if key(i) == best]
    return ties[0] if len(ties) == 1 else chance.choice(ties, why=why, label=label)


_DIST: dict[tuple, dict[Cell, int]] = {}


def _distances_to(game: Game, char: Character, goal: Cell) -> dict[Cell, int]:
    """Ticks from every cell to ``goal`` for this character with its class movement (terrain,
    rivers, tunnels, closed cells count; other characters do not), kept like ``destinations``."""
    board = game.board
    special = _KIT.get(char.cls)
    key = (board.ident(), tuple(game.closed_cells), char.cls, special, goal)
    hit = _DIST.get(key)
    if hit is None:
        cost = movement.step_cost(game, char, special)
        hit = {goal: 0}
        heap = [(0, goal)]
        while heap:
            d, cur = heapq.heappop(heap)
            if d > hit[cur]:
                continue
            for prev in board.neighbours(cur):
                c = cost(prev, cur)
                if c is not None and d + c < hit.get(prev, d + c + 1):
                    hit[prev] = d + c
                    heapq.heappush(heap, (d + c, prev))
        if len(_DIST) > 20_000:
            _DIST.clear()
        _DIST[key] = hit
    return hit


@cache
def _class_moves() -> dict[str, int]:
    from gm_tool.rulesets.grail_war import data

    return {cls: int(d["move"]) for cls, d in data.load("classes").items()}


_PREY: dict[tuple, tuple[int, list[dict[Cell, int]]]] = {}


def _prey_masks(game: Game, prey: Character, ticks: int) -> tuple[int, list[dict[Cell, int]]]:
    """How a walker moving at random (every cell of its walk equally likely, walked the way the
    engine walks it) may stand after each tick: (number of walks, [{cell: bitmask of walks}]).
    Its move is its class's (a player does not see another's move)."""
    move = _class_moves().get(prey.cls, 3)
    key = (game.board.ident(), tuple(game.closed_cells), prey.cls, prey.pos, move, ticks)
    hit = _PREY.get(key)
    if hit is None:
        shadow = replace(prey, move=move)
        _, cells, _ = _destinations(game, shadow)
        masks: list[dict[Cell, int]] = [{} for _ in range(ticks)]
        for i, to in enumerate(cells):
            path = movement.plan(game, shadow, to, [], None, limit=move) or []
            bit = 1 << i
            for t in range(ticks):
                at = path[t] if t < len(path) else (path[-1] if path else prey.pos)
                masks[t][at] = masks[t].get(at, 0) | bit
        if len(_PREY) > 50_000:
            _PREY.clear()
        hit = _PREY[key] = (len(cells), masks)
    return hit


def _intercept(game: Game, char: Character, enemies: list[Character], chance: Chance) -> Cell | None:
    """The cell to walk to that meets the visible enemies most often if they walk at random (the
    weaker enemy counting more); None when none can be met this turn."""
    moves = _class_moves()
    near = [e for e in enemies if manhattan(e.pos, char.pos) <= char.move + moves.get(e.cls, 3)]
    if not near:
        return None
    ticks = max([char.move, *(moves.get(e.cls, 3) for e in near)])
    preys = [(e, *_prey_masks(game, e, ticks)) for e in near]
    cells, paths = _walks(game, char)
    scores: dict[Cell, float] = {}
    for cell in cells:
        score = 0.0
        for e, n, masks in preys:
            met = _met(paths[cell], char.pos, e.pos, masks, n, ticks)
            score += met.bit_count() / n * (1 + 1 / max(1, e.hp))
        scores[cell] = score
    best = max(scores.values())
    if best <= 0:
        return None
    # equals are told apart by a number drawn from the turn, the character and the cell
    ties = [c for c, v in scores.items() if v >= best - 1e-9]
    cell = min(ties, key=lambda c: zlib.crc32(f"{game.turn}|{char.id}|{c[0]},{c[1]}".encode()))
    if cell == char.pos and chance.roll(2, why="bot.wait") == 1:
        return None  # waiting for a walker to pass: a hunter waiting for it too would wait as long
    return cell


def _met(path: list[Cell], start: Cell, prey: Cell, masks: list[dict[Cell, int]], n: int, ticks: int) -> int:
    """The walks of the prey's model (a bitmask) that a character walking ``path`` from ``start``
    meets: in the same cell after the same tick, unless they stepped into each other's cells
    before (both stop there)."""
    met = blocked = 0
    was, before = start, {prey: (1 << n) - 1}
    for t in range(ticks):
        at = path[t] if t < len(path) else was
        now = masks[t]
        if at != was:
            blocked |= before.get(at, 0) & now.get(was, 0)
        met |= now.get(at, 0) & ~blocked
        was, before = at, now
    return met


def sheet(state: dict[str, Any], player: str, kind: str, chance: Chance) -> dict[str, Any]:
    return write(_game(state), player, kind, chance)


def orders(state: dict[str, Any], kinds: dict[str, str], chance: Chance) -> dict[str, Any]:
    """Every listed player's bot sheet, parsed: ``{player: Orders}``. The same sheets and the
    same Orders as ``sheet`` then ``parse_orders`` player by player, from one conversion of the
    state instead of two per player (simulations spend most of their time there)."""
    game = _game(state)
    return {p: parse(game, write(game, p, kind, chance), f"bot:{p}", "en") for p, kind in kinds.items()}


def write(game: Game, player: str, kind: str, chance: Chance) -> dict[str, Any]:
    """The sheet a bot of ``kind`` writes for ``player`` (reads ``game``, never changes it)."""
    chars = [c for c in game.of_player(player) if c.alive]
    out: dict[str, Any] = {"turn": game.turn + 1, "player": player}
    if not chars:
        return out
    char = chars[0]
    out["character"] = char.id
    if kind == "random":
        _random(game, char, chance, out)
    else:
        _greedy(game, player, char, chance, out)
    return out

"""Built-in players for demos and simulations: they write ordinary order sheets (plain mappings
that pass `gm check`), so everything downstream is exercised as for a human player.

``random``: any legal sheet — a random reachable destination (sometimes through a waypoint, or a
legal teleport), random keep list, skill use, 出杀/出闪 lists, 咒, 宝石, 魔术牌 and equipment choices.

``greedy``: knows what its player sees (its character, the characters in sight, every stronghold
and its owner) and hunts: it walks at the visible enemy it reaches soonest (the weakest of those),
whatever its own HP (walking home to heal made greedy games last: a hurt character heals only
when it happens to stand on a heal point of its side with nobody in sight). Seeing nobody, it
stays on an untaken stronghold it stands on (capture needs a whole turn there) or heads for a
stronghold its side does not hold: the enemy's heal points first, then the enemy's others, then
neutral ones, leaving one to a visible ally nearer to it and pushing out from its side's own
strongholds towards the far side, where the enemy is; holding them all, it goes looking far from
home. It walks by true walking distance (rivers and heights count) and breaks ties by lot, so
neither side is favoured by a fixed order. It always strikes at enemies and dodges everything.

Every choice is drawn from the ``chance`` given, in a fixed order, so bots are replayable.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.grid import Cell, cell_name, manhattan, neighbours, reachable
from gm_tool.rulesets.grail_war import movement, vision
from gm_tool.rulesets.grail_war.model import RIVER, Character, Game

KINDS = ("random", "greedy")

_EMPTY_DECK: dict[str, list[Any]] = {"draw_pile": [], "discard_pile": []}
_STRIKE = ("enemy", "skill", "magic")
_DODGE = ("strike", "skill", "magic")
_ZONES = ("weapon", "armor", "hand")
_EQUIP_ZONES = ("equipment", "hand")
_GREEDY_KEEP = ["闪", "宝石", "杀", "咒", "万法破尽"]


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
    """Stronghold cells the character may legally teleport to, in board order."""
    if char.cls != "CASTER" and game.stronghold_at(char.pos) is None:
        return []  # only a CASTER, or someone standing on a teleport point, ever teleports (R4, R6)
    return sorted((s.pos for s in game.strongholds if movement.teleport_problem(game, char, s.pos) is None),
                  key=lambda c: (c[1], c[0]))


def _board_order(cells) -> list[Cell]:
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
        from gm_tool.rulesets.grail_war.orders import Orders

        trial = Orders(player=char.player, turn=game.turn + 1, character=char.id, move_to=to, move_via=[via])
        if not movement.check(game, char, trial):
            move["via"] = [cell_name(via)]
    return move


@cache
def _converters(order: str) -> tuple[str, ...]:
    """Equipment a 出杀/出闪 list may name with ``via`` (orders.CONVERTERS when it exists)."""
    from gm_tool.rulesets.grail_war import orders

    table = getattr(orders, "CONVERTERS", {"dodge_order": ("正式外典",)})
    return tuple(table.get(order, ()))


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
    out["target_priority"] = chance.choice(["more_hp", "more_cards"], why="bot.target")
    out["strike_order"] = _priority(chance, _STRIKE, "bot.strike",
                                    [v for v in _converters("strike_order") if char.equipped(v)], "enemy")
    out["dodge_order"] = _priority(chance, _DODGE, "bot.dodge",
                                   [v for v in _converters("dodge_order") if char.equipped(v)], "strike")
    out["use_curse"] = chance.choice([True, False], why="bot.curse")
    out["gem"] = chance.choice(["self_first", "ally_first", "never"], why="bot.gem")
    out["magic"] = {"use": chance.choice([True, False], why="bot.magic"),
                    "zone_priority": _subset(chance, list(_ZONES), "bot.magic"),
                    "hand_size": chance.choice(["more", "fewer"], why="bot.magic")}
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


def _low(char: Character) -> bool:
    return char.hp <= max(1, char.max_hp // 2)


def _greedy(game: Game, player: str, char: Character, chance: Chance, out: dict[str, Any]) -> None:
    held = [c.name for c in char.hand]
    out["keep"] = [n for n in _GREEDY_KEEP if n in held]
    if char.skills:
        out["skill"] = {"use": True}
    out["strike_order"] = [{"against": "enemy"}, {"against": "magic"}, {"against": "skill"}]
    out["dodge_order"] = [{"against": "strike"}, {"against": "magic"}, {"against": "skill"}]
    out["use_curse"] = True
    out["gem"] = "self_first" if _low(char) else "ally_first"
    out["target_priority"] = "more_hp" if not _low(char) else "more_cards"
    goal = _greedy_goal(game, player, char, chance)
    if goal is None:
        return
    if goal[1] == "teleport":
        out["move"] = {"to": cell_name(goal[0]), "special": "teleport"}
        return
    reach, cells, _ = _destinations(game, char)
    to_goal = _distances_to(game, char, goal[0])
    far = len(to_goal) + game.board.width + game.board.height  # cut off from the goal: by the crow
    best = _pick(chance, cells, lambda c: (to_goal.get(c, far + manhattan(c, goal[0])), reach[c]),
                 "bot.step", cell_name)
    if best != char.pos:
        out["move"] = {"to": cell_name(best)}


def _greedy_goal(game: Game, player: str, char: Character, chance: Chance) -> tuple[Cell, str] | None:
    """Where the greedy bot heads (and how: ``walk`` or ``teleport``); None: it stays.

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
    if enemies:  # hunt: the enemy soonest reached, then the weakest
        step = max(1, char.move)
        prey = _pick(chance, enemies, lambda e: ((manhattan(e.pos, char.pos) + step - 1) // step, e.hp),
                     "bot.enemy", lambda e: e.id)
        return (prey.pos, "walk")
    if here is not None and here.owner != char.side and not here.closed:
        return None  # stay a whole turn to take it
    # Then strongholds its side does not hold: the enemy's heal points first (where the hurt go),
    # the enemy's others, then neutral ones; one a visible ally is nearer to is left to that ally;
    # among the rest it pushes out from its side's own strongholds towards the far ones, where
    # the enemy is (nearer first, but a step away from home counts three times).
    mine = [s.pos for s in game.strongholds if s.owner == char.side] or [char.pos]
    home = (sum(c[0] for c in mine) / len(mine), sum(c[1] for c in mine) / len(mine))
    out_of_home = lambda s: abs(s.pos[0] - home[0]) + abs(s.pos[1] - home[1])  # noqa: E731
    enemy = lambda s: s.owner is not None and s.owner != char.side  # noqa: E731
    rank = lambda s: 0 if enemy(s) and s.kind == "heal" else 1 if enemy(s) else 2  # noqa: E731
    key = lambda s: (any(manhattan(a, s.pos) < near(s) for a in allies), rank(s), near(s) - 3 * out_of_home(s))  # noqa: E731
    targets = [s for s in game.strongholds if s.owner != char.side and not s.closed]
    if not targets:  # every stronghold is its side's: look for who is left, far from home
        targets = list(game.strongholds)
    if not targets:
        return None
    goal = _pick(chance, targets, key, "bot.target", lambda s: s.id).pos
    return None if goal == char.pos else (goal, "walk")


def _pick(chance: Chance, items: list, key, why: str, label):
    """The item with the smallest key; a tie is broken by lot (a fixed order would favour one
    corner of the map, hence one side)."""
    best = min(key(i) for i in items)
    ties = [i for i in items if key(i) == best]
    return ties[0] if len(ties) == 1 else chance.choice(ties, why=why, label=label)


_DIST: dict[tuple, dict[Cell, int]] = {}


def _distances_to(game: Game, char: Character, goal: Cell) -> dict[Cell, int]:
    """Walking steps from every cell to ``goal`` for this character (terrain, rivers, closed
    cells count; other characters do not), kept for the next turns like ``destinations``."""
    board = game.board
    key = (board.ident(), tuple(game.closed_cells), char.cls, goal)
    hit = _DIST.get(key)
    if hit is None:
        ok = movement.step_rule(game, char)
        hit = {goal: 0}
        queue = deque([goal])
        while queue:
            cur = queue.popleft()
            for prev in neighbours(cur, board.width, board.height):
                if prev not in hit and ok(prev, cur):
                    hit[prev] = hit[cur] + 1
                    queue.append(prev)
        if len(_DIST) > 20_000:
            _DIST.clear()
        _DIST[key] = hit
    return hit


def sheet(state: dict[str, Any], player: str, kind: str, chance: Chance) -> dict[str, Any]:
    return write(_game(state), player, kind, chance)


def orders(state: dict[str, Any], kinds: dict[str, str], chance: Chance) -> dict[str, Any]:
    """Every listed player's bot sheet, parsed: ``{player: Orders}``. The same sheets and the
    same Orders as ``sheet`` then ``parse_orders`` player by player, from one conversion of the
    state instead of two per player (simulations spend most of their time there)."""
    from gm_tool.rulesets.grail_war.orders import parse

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

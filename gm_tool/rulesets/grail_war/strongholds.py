"""Strongholds (R5, R6, rulings M17, M19, M20): BERSERKER destruction, capture at the end of a
turn, and their functions."""

from __future__ import annotations

from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.events import PUBLIC, EventLog
from gm_tool.core.grid import Cell, cell_name
from gm_tool.rulesets.grail_war.model import Character, Game


def _occupants(game: Game) -> dict[Cell, list[Character]]:
    where: dict[Cell, list[Character]] = {}
    for c in game.characters:
        if c.alive:
            where.setdefault(c.pos, []).append(c)
    return where


def destroy(game: Game, orders: dict[str, Any], start: dict[str, Cell], log: EventLog) -> None:
    """Ruling M17: a BERSERKER whose sheet says ``special: destroy`` destroys the enemy or neutral
    stronghold it names (``move.to``, or where it stands) if it is alive and standing in it at the
    end of the turn, after the fights. The stronghold loses its function and teleport for good
    but keeps its owner and territory (R5)."""
    index = {s.pos: s for s in game.strongholds}
    for o in orders.values():
        if o.move_special != "destroy":
            continue
        c = game.character(o.character)
        if not c.alive or c.cls != "BERSERKER":
            continue
        target = o.move_to if o.move_to is not None else start.get(c.id, c.pos)
        s = index.get(target)
        if s is None or c.pos != target or s.destroyed or s.closed or s.owner == c.side:
            continue
        s.destroyed = True
        log.emit("destroyed", to=PUBLIC, stronghold=s.id, name=s.name, cell=cell_name(s.pos),
                 character=c.id, side=c.side, owner=s.owner)


def capture(game: Game, start: dict[str, Cell], fought: set[Cell], log: EventLog) -> None:
    """R5: a side takes a stronghold at the end of a turn that one of its characters began inside
    it and ended inside it, with no fight there and no enemy inside. A stronghold the GM closed
    (流局) cannot change hands; a destroyed one can (its territory still counts)."""
    where = _occupants(game)
    for s in game.strongholds:
        if s.closed:
            continue
        inside = where.get(s.pos, [])
        sides = {c.side for c in inside}
        if len(sides) != 1 or s.pos in fought:
            continue
        side = next(iter(sides))
        if s.owner == side:
            continue
        if any(start.get(c.id) == s.pos for c in inside):
            log.emit("capture", to=PUBLIC, stronghold=s.id, name=s.name, cell=cell_name(s.pos),
                     side=side, previous=s.owner, territory=len(s.territory))
            s.owner = side


def functions(game: Game, log: EventLog, chance: Chance) -> None:
    """R6, at the end of a turn, after capture (ruling M19): every living character of the owning
    side standing in a working stronghold with no enemy inside gets its function, in roster order:
    hand: draws 1 card; equipment: the top card of the equipment pile goes into its slot (the
    card it replaces goes to the bottom of the pile); heal: +1 HP if hurt, and not again for the
    same character until ``heal_cooldown`` (5) turns later (healed in turn t: again from turn t+5).
    Vision and teleport work through vision and movement."""
    where = _occupants(game)
    for s in game.strongholds:
        if not s.working or s.owner is None:
            continue
        inside = where.get(s.pos, [])
        if any(c.side != s.owner for c in inside):
            continue
        for c in inside:
            if s.kind == "hand":
                drawn = game.deck.draw(1, chance)
                c.hand.extend(drawn)
                if drawn:
                    log.emit("stronghold_card", to=[c.player], character=c.id, stronghold=s.id,
                             cards=[d.to_dict() for d in drawn])
            elif s.kind == "equipment" and game.equipment_pile:
                from gm_tool.rulesets.grail_war import cards

                item = game.equipment_pile.pop()
                slot = cards.slot_of(item.name) or "weapon"
                old = c.equipment.get(slot)
                if old is not None:
                    game.equipment_pile.insert(0, old)
                c.equipment[slot] = item
                log.emit("stronghold_equipment", to=[], actors=[c.player], cells=[cell_name(s.pos)],
                         character=c.id, stronghold=s.id, card=item.name, slot=slot,
                         replaced=old.name if old else None)
            elif s.kind == "heal":
                cooldown = game.rules["heal_cooldown"]
                if c.hp < c.max_hp and (c.healed_turn is None or game.turn - c.healed_turn >= cooldown):
                    c.hp += 1
                    c.healed_turn = game.turn
                    log.emit("stronghold_heal", to=[], actors=[c.player], cells=[cell_name(s.pos)],
                             character=c.id, stronghold=s.id, hp=c.hp)

"""Strongholds (R5, R6): capture at the end of a turn, and their functions."""

from __future__ import annotations

from gm_tool.core.chance import Chance
from gm_tool.core.events import PUBLIC, EventLog
from gm_tool.core.grid import Cell, cell_name
from gm_tool.rulesets.grail_war.model import Game


def capture(game: Game, start: dict[str, Cell], fought: set[Cell], log: EventLog) -> None:
    """R5: a side takes a stronghold at the end of a turn that one of its characters began inside
    it and ended inside it, with no fight there and no enemy inside."""
    for s in game.strongholds:
        if s.closed:
            continue
        inside = [c for c in game.alive() if c.pos == s.pos]
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
    """R6, at the end of a turn: a character of the owning side standing in a working stronghold
    gets its function: hand +1 card, equipment +1 equipment card, heal +1 HP (again for the same
    character only 5 turns later). Vision and teleport work through vision and movement."""
    for s in game.strongholds:
        if not s.working or s.owner is None:
            continue
        for c in game.alive():
            if c.pos != s.pos or c.side != s.owner:
                continue
            if s.kind == "hand":
                drawn = game.deck.draw(1, chance)
                c.hand.extend(drawn)
                if drawn:
                    log.emit("stronghold_card", to=[c.player], character=c.id, stronghold=s.id,
                             cards=[d.to_dict() for d in drawn])
            elif s.kind == "equipment" and game.equipment_pile:
                from gm_tool.rulesets.grail_war import cards

                item = game.equipment_pile.pop()
                slot = cards.slot_of(item.name)
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

"""HP in a fight: damage through its named stages, dying, rescue, death, healing (R11-R13).

Damage passes *caused* (a 杀's attacker: ``CAUSED``), *inflicted* (the target's armour:
``INFLICTED``), *HP change*, *dying* (``DYING``: skills, own 咒 and 宝石, allies' 宝石; else
death) and *after* (the target's ``damaged`` skills). The skill primitive ``damage`` is carried
out here (registered in the skills' table), so a skill's damage and the skills it triggers
reach each other through that table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm_tool.core.events import PUBLIC
from gm_tool.rulesets.grail_war.combat import abilities, cardmoves, equipment
from gm_tool.rulesets.grail_war.combat.fighter import CURSE, GEM, Ctx, Damage, Fighter, Strike
from gm_tool.rulesets.grail_war.combat.skills import runs

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight


def heal(fight: Fight, f: Fighter, n: int, why: str) -> int:
    gain = max(0, min(n, f.c.max_hp - f.c.hp))
    if gain:
        f.c.hp += gain
        fight.pub("heal", character=f.id, amount=gain, hp=f.c.hp, reason=why)
    return gain


def strike_damage_skills(fight: Fight, d: Damage) -> bool:
    """The attacker's ``strike_damage`` skills (they may change the amount)."""
    assert d.source is not None
    d.amount = abilities.trigger(fight, d.source, "strike_damage", d.target, Ctx(d.amount)).amount
    return True


# the stages: hook(fight, damage) -> False when the damage is prevented
CAUSED = (equipment.stone_sword, strike_damage_skills, equipment.flower_staff,  # a 杀's attacker
          equipment.slashing_emperor)
INFLICTED = (equipment.seven_rings,)                                            # the target's armour
BY_STRIKE = CAUSED + INFLICTED  # a 杀's damage passes both


def damage(fight: Fight, src: Fighter | None, t: Fighter, amount: int, cause: str, strike: Strike | None = None) -> int:
    """Deal damage through its stages; returns the HP actually lost."""
    if not t.c.alive or amount <= 0:
        return 0
    d = Damage(src, t, amount, cause, strike)
    for hook in BY_STRIKE if d.by_strike else INFLICTED:
        if not hook(fight, d):
            return 0
    # HP change
    t.c.hp -= d.amount
    fight.pub("damage", source=src.id if src else None, target=t.id, amount=d.amount, hp=t.c.hp, cause=cause)
    if t.c.hp <= 0:
        dying(fight, t, src)
    if t.c.alive and src is not None:
        abilities.trigger(fight, t, "damaged", src, Ctx(d.amount))
    return d.amount


@runs("damage")
def skill_damage(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    """The skill primitive ``damage: N``: the owner deals N damage to the target."""
    damage(fight, owner, target, arg, why)


# dying: each step may bring the fighter back above 0 HP ---------------------------------------
def dying_skills(fight: Fight, t: Fighter) -> None:
    for sk in t.skills:
        if sk.trigger == "dying" and t.c.hp <= 0 and fight.skill_ok(t, sk):
            abilities.use_skill(fight, t, sk, t, Ctx())


def own_cards(fight: Fight, t: Fighter) -> None:
    """Its own 咒, then (unless the sheet never uses 宝石) its own 宝石, one at a time."""
    while t.c.hp <= 0:
        if rescue(fight, t, t, CURSE):
            continue
        if t.o.gem != "never" and rescue(fight, t, t, GEM):
            continue
        break


def allies_gems(fight: Fight, t: Fighter) -> None:
    """The 宝石 of allies in the cell, in actor order: first those whose sheet puts allies first
    (ruling C11), then those who use them on themselves first, with what they need not keep:
    one 宝石 is kept while an enemy alive in the cell may still hurt its holder (ruling C31)."""
    for first in (True, False):
        for a in fight.allies(t):
            if a.o.gem == "never" or (a.o.gem == "ally_first") != first:
                continue
            keep = 1 if not first and fight.enemies(a) else 0
            while t.c.hp <= 0 and a.count(GEM) > keep and rescue(fight, a, t, GEM):
                pass


DYING = (dying_skills, own_cards, allies_gems)


def dying(fight: Fight, t: Fighter, src: Fighter | None) -> None:
    fight.pub("dying", character=t.id, hp=t.c.hp)
    for step in DYING:
        step(fight, t)
    if t.c.hp <= 0:
        die(fight, t, src)


def rescue(fight: Fight, giver: Fighter, t: Fighter, name: str) -> bool:
    """``giver`` plays a ``name`` card (咒 or 宝石) to give ``t`` 1 HP."""
    card = giver.held(name)
    if card is None:
        return False
    cardmoves.discard_held(fight, giver, card)
    t.c.hp += 1
    fight.pub("rescue", character=t.id, by=giver.id, card=card.to_dict(), hp=t.c.hp)
    return True


def die(fight: Fight, t: Fighter, src: Fighter | None) -> None:
    """Death: the hand to the discard pile, equipment to the bottom of its pile."""
    c = t.c
    c.alive = False
    c.hp = 0
    lost = list(c.hand)
    c.hand = []
    fight.game.deck.discard(*lost)
    gear = []
    for slot in ("weapon", "armor"):
        card = c.equipment.get(slot)
        if card is not None:
            c.equipment[slot] = None
            fight.game.equipment_pile.insert(0, card)
            gear.append(card.name)
    fight.pub("killed", character=t.id, by=src.id if src else None, cards=[x.to_dict() for x in lost], gear=gear)
    fight.log.emit("death", to=PUBLIC, character=t.id)

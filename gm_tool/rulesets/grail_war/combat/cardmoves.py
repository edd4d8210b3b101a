"""Cards changing place in a fight: judgements, taking and discarding a fighter's cards, paying."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm_tool.core.deck import Card
from gm_tool.rulesets.grail_war import cards as catalog
from gm_tool.rulesets.grail_war.combat.fighter import Fighter
from gm_tool.rulesets.grail_war.combat.skills import matches

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight

ZONE_SLOTS = {"weapon": ("weapon",), "armor": ("armor",), "equipment": ("weapon", "armor")}


def judge(fight: Fight, f: Fighter, pattern: str, why: str) -> bool:
    """Draw the deck's top card, test its suit against ``pattern``, discard it (empty deck: fails)."""
    drawn = fight.game.deck.draw(1, fight.chance)
    if not drawn:
        fight.pub("judge", character=f.id, reason=why, pattern=pattern, card=None, result=False)
        return False
    card = drawn[0]
    ok = matches(pattern, card.suit)
    fight.pub("judge", character=f.id, reason=why, pattern=pattern, card=card.to_dict(), result=ok)
    fight.game.deck.discard(card)
    return ok


def zones_order(owner: Fighter, allowed: list[str]) -> list[str]:
    """``allowed`` zones, those of the owner's zone priority first."""
    pref = [z for z in owner.o.zone_priority if z in allowed]
    return pref + [z for z in allowed if z not in pref]


def pick(fight: Fight, target: Fighter, zones: list[str]) -> tuple[str, Card] | None:
    """A card of the target from the first zone that has one; a hand card is random."""
    for z in zones:
        if z == "hand":
            if target.c.hand:
                return "hand", fight.chance.choice(target.c.hand, why="hand card", label=lambda x: x.id)
        else:
            for slot in ZONE_SLOTS[z]:
                card = target.c.equipment.get(slot)
                if card is not None:
                    return slot, card
    return None


def has_card_in(target: Fighter, zones: list[str]) -> bool:
    for z in zones:
        if z == "hand" and target.c.hand:
            return True
        if z != "hand" and any(target.c.equipment.get(s) for s in ZONE_SLOTS[z]):
            return True
    return False


def lose_equipment(f: Fighter, slot: str) -> Card:
    card = f.c.equipment[slot]
    assert card is not None
    f.c.equipment[slot] = None
    return card


def equip(fight: Fight, f: Fighter, card: Card) -> None:
    """Equipment gained goes to the equipment zone; the one it replaces returns to the
    bottom of the equipment pile (ruling C3)."""
    slot = catalog.slot_of(card.name) or "weapon"
    old = f.c.equipment.get(slot)
    if old is not None:
        fight.game.equipment_pile.insert(0, old)
    f.c.equipment[slot] = card


def detach(fight: Fight, target: Fighter, zones: list[str]) -> tuple[str, Card] | None:
    """Pick one of ``target``'s cards by ``zones`` (see :func:`pick`) and take it out of its
    zone; the caller says where it goes. None when there is nothing to take."""
    got = pick(fight, target, zones)
    if got is not None and got[0] == "hand":
        target.c.hand.remove(got[1])
    elif got is not None:
        lose_equipment(target, got[0])
    return got


def take(fight: Fight, taker: Fighter, target: Fighter, zones: list[str], why: str) -> bool:
    """``taker`` gets one of ``target``'s cards (a hand card is named to the two of them only)."""
    got = detach(fight, target, zones)
    if got is None:
        return False
    zone, card = got
    if zone == "hand":
        taker.c.hand.append(card)
        fight.pub("take_hand_card", character=taker.id, target=target.id, reason=why,
                  told_apart=sorted({taker.c.player, target.c.player}))
        fight.priv("take_card_seen", [taker, target], character=taker.id, target=target.id, card=card.to_dict(),
                   reason=why)
    else:
        equip(fight, taker, card)
        fight.pub("take_card", character=taker.id, target=target.id, zone=zone, card=card.to_dict(), reason=why)
    return True


def discard_from(fight: Fight, by: Fighter, target: Fighter, zones: list[str], why: str) -> bool:
    """``by`` discards one of ``target``'s cards (equipment to the bottom of its pile)."""
    got = detach(fight, target, zones)
    if got is not None:
        put_away(fight, *got)
        fight.pub("discard_card", character=by.id, target=target.id, zone=got[0], card=got[1].to_dict(), reason=why)
    return got is not None


def put_away(fight: Fight, zone: str, card: Card) -> None:
    """A card leaving play: from the hand to the discard pile, equipment to the bottom of its pile."""
    if zone == "hand":
        fight.game.deck.discard(card)
    else:
        fight.game.equipment_pile.insert(0, card)


def spend(fight: Fight, f: Fighter, spent: list[Card], why: str) -> None:
    """``f`` discards these hand cards as the cost of ``why``."""
    for x in spent:
        f.c.hand.remove(x)
    fight.game.deck.discard(*spent)
    fight.pub("pay", character=f.id, cards=[x.to_dict() for x in spent], reason=why)


def discard_held(fight: Fight, f: Fighter, card: Card) -> None:
    """``f`` plays one hand card that simply goes to the discard pile (咒, 宝石, 万法破尽)."""
    f.c.hand.remove(card)
    fight.game.deck.discard(card)

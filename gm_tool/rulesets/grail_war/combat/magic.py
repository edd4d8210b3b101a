"""The magic phase (R9, R12): each magic card names its play in data/cards.yaml (``plays``,
with the card's numbers); ``PLAYS`` maps each play to a function that picks its targets, plays
the card and carries out its effect, or returns False when it has no use.

Every round, each fighter in the fight's order plays the first of its magic cards that has a
use, trying them in the data's order (ruling C8); rounds go on while someone plays a card and
two sides are alive. 万法破尽 is not played: it answers the first enemy card aimed at its owner.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from gm_tool.core.deck import Card
from gm_tool.rulesets.grail_war import data
from gm_tool.rulesets.grail_war.combat import basic, cardmoves, damage, respond
from gm_tool.rulesets.grail_war.combat.fighter import MAGIC_PHASE, SHA, WUXIE, Fighter, Strike

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight

# a card that removes one of an enemy's cards: what becomes of it
MOVES = {"discard": cardmoves.discard_from, "take": cardmoves.take}
# what a judgement card may set on its target for the turn
FLAGS = ("petrified", "skip_draw")


def magic_phase(fight: Fight) -> None:
    fight.phase = MAGIC_PHASE
    table, rank = cards()
    progress = True
    while progress and fight.live_sides() > 1:
        progress = False
        for f in fight.order:
            if not f.c.alive or not f.o.magic_use or not fight.enemies(f):
                continue
            mine = sorted((x for x in f.c.hand if x.name in rank), key=lambda x: rank[x.name])
            for card in mine:
                play, spec = table[card.name]
                if play(fight, f, card, spec):
                    progress = True
                    break


# helpers -----------------------------------------------------------------------------------------
def by_hand(fight: Fight, f: Fighter, options: list[Fighter]) -> Fighter:
    """The sheet's hand-size priority: the target with more (or fewer) hand cards."""
    sign = 1 if f.o.hand_size == "more" else -1
    return fight.by_priority(options, lambda x: sign * len(x.c.hand))


def zone_target(fight: Fight, f: Fighter) -> tuple[Fighter, str] | None:
    """The first zone of the sheet's zone priority some enemy has a card in, and that enemy."""
    enemies = fight.enemies(f)
    for z in f.o.zone_priority or ["hand", "weapon", "armor"]:
        having = [e for e in enemies if cardmoves.has_card_in(e, [z])]
        if having:
            return by_hand(fight, f, having), z
    return None


def nullified(fight: Fight, t: Fighter, user: Fighter, card: Card) -> bool:
    """万法破尽 (R12): spent automatically on the first enemy magic card aimed at t."""
    if t.c.side == user.c.side or t.wuxie_seen or not t.c.alive:
        return False
    t.wuxie_seen = True
    w = t.held(WUXIE)
    if w is None:
        return False
    cardmoves.discard_held(fight, t, w)
    fight.pub("nullify", character=t.id, card=w.to_dict(), against=card.name, source=user.id)
    return True


def use_card(fight: Fight, f: Fighter, card: Card, targets: list[Fighter], **extra: Any) -> None:
    cardmoves.discard_held(fight, f, card)
    fight.pub("magic", character=f.id, card=card.to_dict(), name=card.name, targets=[t.id for t in targets], **extra)


# the cards ----------------------------------------------------------------------------------------
def zone_card(fight: Fight, f: Fighter, card: Card, spec: dict[str, Any]) -> bool:
    """扭曲螺旋 / 赤主槛发: discard / take (``move``) one card of an enemy, zone by the sheet's
    priority."""
    got = zone_target(fight, f)
    if got is None:
        return False
    t, zone = got
    use_card(fight, f, card, [t])
    if not nullified(fight, t, f, card):
        MOVES[spec["move"]](fight, f, t, [zone], card.name)
    return True


def duel(fight: Fight, f: Fighter, card: Card, spec: dict[str, Any]) -> bool:
    """决斗: the target and the user take turns playing 杀; the first who does not takes the
    card's ``damage`` (1)."""
    t = by_hand(fight, f, fight.enemies(f))
    use_card(fight, f, card, [t])
    if nullified(fight, t, f, card):
        return True
    turn, other = t, f
    while turn.c.alive and other.c.alive:
        if respond.respond(fight, turn, SHA, "magic"):
            turn, other = other, turn
            continue
        damage.damage(fight, other, turn, spec["damage"], card.name)
        break
    return True


def dead_apostle(fight: Fight, f: Fighter, card: Card, spec: dict[str, Any]) -> bool:
    """不死徒手: an armed enemy uses a 杀 on another enemy (none: on the user), or its weapon goes to
    the user."""
    enemies = fight.enemies(f)
    armed = [e for e in enemies if e.c.equipment.get("weapon")]
    if not armed:
        return False
    a = by_hand(fight, f, armed)
    others = [e for e in enemies if e is not a]
    b = others[0] if others else f
    use_card(fight, f, card, [a], victim=b.id)
    if not nullified(fight, a, f, card) and not forced_strike(fight, a, b):
        weapon = cardmoves.lose_equipment(a, "weapon")
        cardmoves.equip(fight, f, weapon)
        fight.pub("take_card", character=f.id, target=a.id, zone="weapon", card=weapon.to_dict(), reason=card.name)
    return True


def forced_strike(fight: Fight, a: Fighter, b: Fighter) -> bool:
    """不死徒手: a uses a 杀 on b if its list answers magic cards with 杀."""
    if not a.c.alive or not b.c.alive or a.petrified:
        return False
    got = respond.ready(fight, a, SHA, "magic")
    if got is None:
        return False
    basic.single_strike(fight, Strike(a, got[0], a.strike_bonus, got[1]), b, "不死徒手")
    return True


def helpful(fight: Fight) -> bool:
    """The house rule ``rules.magic_play: helpful`` (ruling C8): a card that would act for the
    enemy as much as for its owner's side is kept."""
    return fight.game.rules.get("magic_play", "always") == "helpful"


def heal_all(fight: Fight, f: Fighter, card: Card, spec: dict[str, Any]) -> bool:
    """阿宁艾鲁贝的一日: everyone in the cell heals the card's ``heal`` (1). Played once anyone there is hurt, an enemy
    too (seed l.107: drawn magic cards are used by the options; ruling C8); kept only while it
    would heal nobody, or, under the house rule, while it would not heal more of its owner's
    side than of the enemy's."""
    everyone = [x for x in fight.order if x.c.alive]
    wounded = [x for x in everyone if x.c.hp < x.c.max_hp]
    if not wounded:
        return False
    if helpful(fight) and 2 * sum(1 for x in wounded if x.c.side == f.c.side) <= len(wounded):
        return False
    use_card(fight, f, card, everyone)
    for x in everyone:
        damage.heal(fight, x, spec["heal"], card.name)
    return True


def volley(fight: Fight, f: Fighter, card: Card, spec: dict[str, Any]) -> bool:
    """王之军势 / 王之财宝: every other fighter, from the user on, plays a 杀 / 闪 (``want``) or takes
    the card's ``damage`` (1)."""
    start = fight.order.index(f)
    others = [x for x in fight.order[start + 1:] + fight.order[:start] if x.c.alive]
    use_card(fight, f, card, others)
    want = spec["want"]
    for t in others:
        if not t.c.alive or nullified(fight, t, f, card):
            continue
        if not respond.respond(fight, t, want, "magic"):
            damage.damage(fight, f, t, spec["damage"], card.name)
    return True


def judged(fight: Fight, f: Fighter, card: Card, spec: dict[str, Any]) -> bool:
    """石化魔眼 / 枯竭庭院: an enemy not yet affected judges ``pattern``; on success it cannot use
    杀 / skips the draw this turn (the flag ``sets``, told as ``told``)."""
    flag, pattern, told, stops = spec["sets"], spec["pattern"], spec["told"], spec.get("stops")
    fresh = [e for e in fight.enemies(f) if not getattr(e, flag)]
    if stops and helpful(fight):  # the house rule: only an enemy who could use what it stops
        fresh = [e for e in fresh if respond.supply(fight, e, stops, respond.vias(e, stops, []))]
    if not fresh:
        return False
    t = by_hand(fight, f, fresh)
    use_card(fight, f, card, [t])
    if not nullified(fight, t, f, card) and cardmoves.judge(fight, t, pattern, card.name):
        setattr(t, flag, True)
        fight.pub(told, character=t.id, reason=card.name)
    return True


Play = Callable[["Fight", Fighter, Card, dict[str, Any]], bool]
# a card's ``play`` (data/cards.yaml) -> the function playing it
PLAYS: dict[str, Play] = {
    "judge": judged, "zone": zone_card, "dead_apostle": dead_apostle, "duel": duel, "volley": volley,
    "heal_all": heal_all,
}


@cache
def cards() -> tuple[dict[str, tuple[Play, dict[str, Any]]], dict[str, int]]:
    """(card -> (its play, the card's data), card -> its place in the order tried), from
    data/cards.yaml ``plays``. A card naming an unknown play raises (bundled data is tested)."""
    table: dict[str, tuple[Play, dict[str, Any]]] = {}
    for name, spec in data.load("cards")["plays"].items():
        play = PLAYS.get(spec.get("play"))
        if play is None or spec.get("sets", FLAGS[0]) not in FLAGS or spec.get("move", "take") not in MOVES:
            raise ValueError(f"cards.yaml: plays.{name}: {spec!r}")
        table[name] = (play, spec)
    return table, {name: i for i, name in enumerate(table)}

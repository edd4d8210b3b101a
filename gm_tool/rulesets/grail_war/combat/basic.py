"""The basic phase (R9-R11): 杀 declared together and resolved in waves, then 宝石.

Wave *i* holds the *i*-th 杀 of every attacker; one 闪 cancels a whole wave against its
target, so 杀 from different enemies need one 闪 and a second 杀 of the same enemy a second.
Equipment (:mod:`.equipment`) and skills act through the 杀's stages, listed in order below
(``DECLARED``, ``DODGED``, ``MISSED``, ``DEALT``, ``FINISHED``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gm_tool.rulesets.grail_war.combat import abilities, cardmoves, damage, equipment, respond
from gm_tool.rulesets.grail_war.combat.fighter import BASIC_PHASE, CURSE, GEM, SHA, SHAN, Ctx, Fighter, Strike

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight


def strike_dodged_skills(fight: Fight, s: Strike, t: Fighter) -> bool:
    """The attacker's ``strike_dodged`` skills (``hit_anyway``)."""
    a = s.attacker
    return a.c.alive and abilities.trigger(fight, a, "strike_dodged", t, Ctx()).hit


# the stages of a 杀
DECLARED = (equipment.promised_sword, equipment.rupture_sword)  # hook(fight, strike): used in the basic phase
DODGED = (equipment.thorn_spear, strike_dodged_skills)  # hook(fight, strike, target) -> True: it hits anyway
MISSED = (equipment.black_keys,)    # hook(fight, strike, target) -> what lets one more 杀 follow: cancelled by a 闪
DEALT = (equipment.drying_pole,)    # hook(fight, strike, target) -> the same: it dealt damage
FINISHED = (equipment.twin_swords,)  # hook(fight, strike) -> True: the hook placed its cards


def basic_phase(fight: Fight) -> None:
    fight.phase = BASIC_PHASE
    declared: list[list[Strike]] = []
    for f in fight.order:
        if f.c.alive and fight.enemies(f):
            strikes = declare(fight, f)
            if strikes:
                declared.append(strikes)
    waves = max((len(x) for x in declared), default=0)
    for i in range(waves):
        wave(fight, [x[i] for x in declared if len(x) > i], i + 1)
    gem_heal(fight)


def declare(fight: Fight, f: Fighter) -> list[Strike]:
    """The 杀 f uses this phase (1 + extra, as its 出杀 list allows); 咒 on the first."""
    out: list[Strike] = []
    if f.petrified:
        return out
    for _ in range(1 + respond.extra_strikes(fight, f)):
        got = respond.ready(fight, f, SHA, "enemy", checked=True, declaring=True)
        if got is None:
            break
        out.append(Strike(f, got[0], f.strike_bonus, got[1]))
    if out and f.o.use_curse and not f.curse:
        card = f.held(CURSE)
        if card is not None:
            cardmoves.discard_held(fight, f, card)
            f.curse = True
            out[0].bonus += 1
            fight.pub("curse", character=f.id, card=card.to_dict())
    for s in out:
        for hook in DECLARED:
            hook(fight, s)
    return out


def wave(fight: Fight, strikes: list[Strike], n: int) -> None:
    """Every 杀 of the wave is aimed at all enemies; each target answers the wave with one 闪.

    The wave is simultaneous (seed l.231 "每个角色的移动行是同时的", l.165-167): every target
    answers it, in actor order, before any of it lands, so nothing a landing 杀 sets off (a
    skill taking a card, damage) reaches a card someone needed to answer this very wave; and
    the attackers' ``strike_damage`` conditions (日轮加护's full HP) read the HP they had when
    the wave was made (ruling C35)."""
    for s in strikes:
        targets = [t.id for t in fight.order if t.c.alive and t.c.side != s.attacker.c.side]
        fight.pub("strike", character=s.attacker.id, cards=[x.to_dict() for x in s.cards], targets=targets,
                  via=s.via or None, wave=n, bonus=s.bonus)
    answers: list[tuple[Fighter, list[Strike], bool]] = []
    for t in fight.order:
        if not t.c.alive:
            continue
        aimed = [s for s in strikes if s.attacker.c.side != t.c.side]
        if not aimed:
            continue
        effective = []
        for s in aimed:
            if equipment.affects(s, t):
                effective.append(s)
            else:
                fight.pub("no_effect", character=s.attacker.id, target=t.id, item="六道境界")
        if effective:
            answers.append((t, effective, dodge(fight, t, effective)))
    fight.wave_hp = {f.id: f.c.hp for f in fight.order}
    try:
        for t, effective, dodged in answers:
            for s in effective:
                land(fight, s, t, dodged)
    finally:
        fight.wave_hp = None
    for s in strikes:
        finish(fight, s)


def dodge(fight: Fight, t: Fighter, strikes: list[Strike]) -> bool:
    return respond.respond(fight, t, SHAN, "strike", not equipment.pierces_armor(strikes))


def land(fight: Fight, s: Strike, t: Fighter, dodged: bool) -> None:
    """A 杀 reaches t: dodged (unless a hook makes it hit anyway), or 1 + bonus damage."""
    if not t.c.alive:
        return
    if dodged:
        if not any(hook(fight, s, t) for hook in DODGED):
            s.cancelled.append(t.id)
            follow(fight, MISSED, s, t)
            return
        fight.pub("hit_anyway", character=s.attacker.id, target=t.id)
    s.hit.append(t.id)
    if damage.damage(fight, s.attacker, t, 1 + s.bonus, SHA, s):
        follow(fight, DEALT, s, t)


def follow(fight: Fight, hooks: tuple[Callable[[Fight, Strike, Fighter], str | None], ...], s: Strike,
           t: Fighter) -> None:
    """One more 杀 on t for each hook that grants it (黑键 on a miss, 物干焯 on a hit)."""
    for hook in hooks:
        why = hook(fight, s, t)
        if why is not None:
            extra_strike(fight, s.attacker, t, why)


def extra_strike(fight: Fight, a: Fighter, t: Fighter, why: str) -> None:
    """One more 杀 on t alone (黑键, 物干焯), if a's 出杀 list allows one against enemies."""
    if a.petrified:
        return
    got = respond.ready(fight, a, SHA, "enemy")
    if got is None:
        return
    single_strike(fight, Strike(a, got[0], a.strike_bonus, got[1]), t, why)


def single_strike(fight: Fight, s: Strike, t: Fighter, why: str) -> None:
    """A single-target 杀 (黑键, 物干焯, 不死徒手): its own 闪, then its effect."""
    fight.pub("strike", character=s.attacker.id, cards=[x.to_dict() for x in s.cards], targets=[t.id],
              via=s.via or None, reason=why, bonus=s.bonus)
    if not equipment.affects(s, t):
        fight.pub("no_effect", character=s.attacker.id, target=t.id, item="六道境界")
    else:
        land(fight, s, t, dodge(fight, t, [s]))
    finish(fight, s)


def finish(fight: Fight, s: Strike) -> None:
    """The used cards go to the discard pile, unless a hook places them (干将莫邪)."""
    if not any(hook(fight, s) for hook in FINISHED):
        fight.game.deck.discard(*s.cards)


def gem_heal(fight: Fight) -> None:
    """宝石 in the play phase (R11), after the 杀 exchange: self_first heals itself while
    wounded; ally_first does so only with no living ally in the cell (ruling C11)."""
    for f in fight.order:
        if not f.c.alive or f.o.gem == "never":
            continue
        if f.o.gem == "ally_first" and fight.allies(f):
            continue
        while f.c.hp < f.c.max_hp:
            card = f.held(GEM)
            if card is None:
                break
            cardmoves.discard_held(fight, f, card)
            damage.heal(fight, f, 1, GEM)

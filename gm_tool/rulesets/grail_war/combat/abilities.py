"""Skills in a fight: the skill phase (R9), triggered skills and the table of effect primitives.

Definitions come from :mod:`.skills`; ``EFFECTS`` maps each primitive a definition may list to
the function that carries it out (static primitives, read where they apply, are not there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gm_tool.core.deck import Card
from gm_tool.rulesets.grail_war import cards, hands
from gm_tool.rulesets.grail_war.combat import cardmoves, damage, respond
from gm_tool.rulesets.grail_war.combat.fighter import SKILL_PHASE, Ctx, Fighter
from gm_tool.rulesets.grail_war.combat.skills import Skill

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight

ALL_ZONES = ["hand", "weapon", "armor"]


def trigger(fight: Fight, f: Fighter, when: str, target: Fighter, ctx: Ctx) -> Ctx:
    """Use every skill of ``f`` triggered ``when`` that may be used now."""
    for sk in f.skills:
        if sk.trigger == when and fight.skill_ok(f, sk):
            use_skill(fight, f, sk, target, ctx)
    return ctx


def use_skill(fight: Fight, f: Fighter, sk: Skill, target: Fighter, ctx: Ctx) -> None:
    if sk.once:
        f.once.add(sk.id)
    ctx.skill = sk
    fight.pub("skill", character=f.id, skill=sk.name, target=target.id if target is not f else None)
    effects(fight, f, target, sk.effects, ctx)


def effects(fight: Fight, owner: Fighter, target: Fighter, listed: list[tuple[str, Any]], ctx: Ctx) -> None:
    """Carry out a definition's effects in order."""
    why = ctx.skill.name if ctx.skill else ""
    for name, arg in listed:
        effect = EFFECTS.get(name)
        if effect is not None:
            effect(fight, owner, target, arg, ctx, why)


# effect primitives: (fight, owner, target, argument, ctx, why) ------------------------------
def _demand(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    """The target plays a 杀/闪 (its list answering skills), else the ``else`` effects."""
    if target.c.alive and not respond.respond(fight, target, arg["card"], "skill"):
        effects(fight, owner, target, arg["else"], ctx)


def _damage(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    damage.damage(fight, owner, target, arg, why)


def _judge(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    who = owner if arg["who"] == "self" else target
    if not who.c.alive and arg["who"] != "self":
        return
    ok = cardmoves.judge(fight, who, arg["pattern"], why)
    effects(fight, owner, target, arg["then"] if ok else arg["else"], ctx)


def _petrify(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    if target.c.alive and not target.petrified:
        target.petrified = True
        fight.pub("petrified", character=target.id, reason=why)


def _strike_bonus(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    owner.strike_bonus += arg


def _damage_bonus(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    ctx.amount += arg
    fight.pub("modify", character=owner.id, target=target.id, item=why, amount=ctx.amount)


def _hit_anyway(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    ctx.hit = True


def _recover_to(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    if target.c.hp < arg:
        gain = arg - target.c.hp
        target.c.hp = min(arg, target.c.max_hp)
        fight.pub("heal", character=target.id, amount=gain, hp=target.c.hp, reason=why)


def _lose_max_hp(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    owner.c.max_hp = max(1, owner.c.max_hp - arg)
    owner.c.hp = min(owner.c.hp, owner.c.max_hp)
    fight.pub("max_hp", character=owner.id, max_hp=owner.c.max_hp, reason=why)


def _take_card(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    if target is not owner and target.c.alive:
        cardmoves.take(fight, owner, target, cardmoves.zones_order(owner, arg.get("zones", ALL_ZONES)), why)


def _discard_card(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    if target.c.alive:
        cardmoves.discard_from(fight, owner, target, cardmoves.zones_order(owner, arg.get("zones", ALL_ZONES)), why)


def _draw_bonus(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    ctx.draw += arg


EFFECTS: dict[str, Callable[[Fight, Fighter, Fighter, Any, Ctx, str], None]] = {
    "demand": _demand, "damage": _damage, "judge": _judge, "petrify": _petrify, "strike_bonus": _strike_bonus,
    "damage_bonus": _damage_bonus, "hit_anyway": _hit_anyway, "recover_to": _recover_to,
    "lose_max_hp": _lose_max_hp, "take_card": _take_card, "discard_card": _discard_card, "draw_bonus": _draw_bonus,
}


# the skill phase -------------------------------------------------------------------------------
def skill_phase(fight: Fight) -> None:
    """Every fighter, in the fight's order, uses its active skills (the one its sheet names)."""
    fight.phase = SKILL_PHASE
    for f in fight.order:
        if not f.c.alive or not fight.enemies(f):
            continue
        for sk in f.skills:
            if sk.trigger != "active" or not fight.skill_ok(f, sk):
                continue
            if f.o.skill_name and f.o.skill_name not in (sk.id, sk.name):
                continue
            active_skill(fight, f, sk)


def skill_target(fight: Fight, f: Fighter, options: list[Fighter]) -> Fighter:
    """The sheet's target priority: most HP, or most cards (hand and equipment)."""
    if f.o.target_priority == "more_cards":
        return fight.by_priority(options, lambda x: len(x.c.hand) + sum(1 for v in x.c.equipment.values() if v))
    return fight.by_priority(options, lambda x: x.c.hp)


def skill_targets(fight: Fight, f: Fighter, sk: Skill) -> list[Fighter]:
    enemies = fight.enemies(f)
    if sk.target == "enemy_with_equipment":
        enemies = [e for e in enemies if any(e.c.equipment.values())]
    if sk.target == "self":
        return [f]
    if sk.target == "all_enemies":
        return enemies
    return [skill_target(fight, f, enemies)] if enemies else []


def discards(f: Fighter, n: int) -> tuple[list[Card], str | None]:
    """The ``n`` cards paying a skill: those the sheet names, topped up with the least wanted.
    Returns (cards, None), or ([], reason) with the card named when one is gone."""
    if not f.o.skill_discard:
        return (f.least_wanted(n) or []), None
    spent: list[Card] = []
    refs = f.o.discard_refs()[:n]  # a card named with its suit is that very card (ruling G10)
    for ref, card in zip(refs, hands.pick(f.c.hand, refs)):
        if card is None:
            return [], cards.label(*ref)
        spent.append(card)
    if len(spent) < n:
        extra = f.least_wanted(n - len(spent), ())
        spent += [x for x in (extra or []) if x not in spent]
    return spent, None


def asked(f: Fighter, sk: Skill) -> bool:
    """Whether the sheet asks for this skill: it names the skill or the cards it discards. A
    skill that costs cards is used only then; a free one whenever ``skill.use`` (ruling C30)."""
    return bool(f.o.skill_discard) or f.o.skill_name == sk.id


def active_skill(fight: Fight, f: Fighter, sk: Skill) -> None:
    """Targets, then the cost (discards, HP), then the effects on each target."""
    targets = skill_targets(fight, f, sk)
    if not targets:
        fight.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="no_target")
        return
    n = sk.cost.get("discard", 0)
    spent: list[Card] = []
    if n and not asked(f, sk):
        fight.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="not_asked")
        return
    if n:
        spent, gone = discards(f, n)
        if gone is not None:
            fight.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="card_gone", card=gone)
            return
        if len(spent) < n:
            fight.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="no_cards")
            return
    lose = sk.cost.get("lose_hp", 0)
    if lose and f.c.hp - lose < 1:
        fight.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="hp")
        return
    if sk.once:
        f.once.add(sk.id)
    fight.pub("skill", character=f.id, skill=sk.name, targets=[t.id for t in targets if t is not f])
    if n:
        cardmoves.spend(fight, f, spent, sk.name)
    if lose:
        f.c.hp -= lose
        fight.pub("lose_hp", character=f.id, amount=lose, hp=f.c.hp, reason=sk.name)
    ctx = Ctx()
    ctx.skill = sk
    for t in targets:
        if t.c.alive or t is f:
            effects(fight, f, t, sk.effects, ctx)

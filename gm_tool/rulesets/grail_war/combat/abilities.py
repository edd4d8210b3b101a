"""Skills in a fight: the skill phase (R9), triggered skills and what their primitives do.

Definitions come from :mod:`.skills`, whose table ``PRIMITIVES`` holds each primitive a
definition may list: how it is read, and the function that carries it out, registered here with
``@runs(name)`` (``damage`` by :mod:`.damage`, which triggers skills in turn; static primitives,
read where they apply, run nothing). Targets of an active skill are a table too (``TARGETS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gm_tool.core.deck import Card
from gm_tool.rulesets.grail_war import cards, hands
from gm_tool.rulesets.grail_war.combat import cardmoves, respond
from gm_tool.rulesets.grail_war.combat.fighter import SKILL_PHASE, Ctx, Fighter
from gm_tool.rulesets.grail_war.combat.skills import PRIMITIVES, Skill, runs

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
        run = PRIMITIVES[name].run
        if run is not None:
            run(fight, owner, target, arg, ctx, why)


# what the primitives do: (fight, owner, target, argument, ctx, why) -----------------------
@runs("demand")
def _demand(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    """The target plays a 杀/闪 (its list answering skills), else the ``else`` effects."""
    if target.c.alive and not respond.respond(fight, target, arg["card"], "skill"):
        effects(fight, owner, target, arg["else"], ctx)


@runs("judge")
def _judge(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    who = owner if arg["who"] == "self" else target
    if not who.c.alive and arg["who"] != "self":
        return
    ok = cardmoves.judge(fight, who, arg["pattern"], why)
    effects(fight, owner, target, arg["then"] if ok else arg["else"], ctx)


@runs("petrify")
def _petrify(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    if target.c.alive and not target.petrified:
        target.petrified = True
        fight.pub("petrified", character=target.id, reason=why)


@runs("strike_bonus")
def _strike_bonus(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    owner.strike_bonus += arg


@runs("damage_bonus")
def _damage_bonus(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    ctx.amount += arg
    fight.pub("modify", character=owner.id, target=target.id, item=why, amount=ctx.amount)


@runs("hit_anyway")
def _hit_anyway(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    ctx.hit = True


@runs("recover_to")
def _recover_to(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    if target.c.hp < arg:
        gain = arg - target.c.hp
        target.c.hp = min(arg, target.c.max_hp)
        fight.pub("heal", character=target.id, amount=gain, hp=target.c.hp, reason=why)


@runs("lose_max_hp")
def _lose_max_hp(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    owner.c.max_hp = max(1, owner.c.max_hp - arg)
    owner.c.hp = min(owner.c.hp, owner.c.max_hp)
    fight.pub("max_hp", character=owner.id, max_hp=owner.c.max_hp, reason=why)


@runs("take_card")
def _take_card(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    if target is not owner and target.c.alive:
        cardmoves.take(fight, owner, target, cardmoves.zones_order(owner, arg.get("zones", ALL_ZONES)), why)


@runs("discard_card")
def _discard_card(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    if target.c.alive:
        cardmoves.discard_from(fight, owner, target, cardmoves.zones_order(owner, arg.get("zones", ALL_ZONES)), why)


@runs("draw_bonus")
def _draw_bonus(fight: Fight, owner: Fighter, target: Fighter, arg: Any, ctx: Ctx, why: str) -> None:
    ctx.draw += arg


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


def _one_enemy(fight: Fight, f: Fighter, enemies: list[Fighter]) -> list[Fighter]:
    return [skill_target(fight, f, enemies)] if enemies else []


def _self(fight: Fight, f: Fighter) -> list[Fighter]:
    return [f]


def _all_enemies(fight: Fight, f: Fighter) -> list[Fighter]:
    return fight.enemies(f)


def _enemy(fight: Fight, f: Fighter) -> list[Fighter]:
    return _one_enemy(fight, f, fight.enemies(f))


def _enemy_with_equipment(fight: Fight, f: Fighter) -> list[Fighter]:
    return _one_enemy(fight, f, [e for e in fight.enemies(f) if any(e.c.equipment.values())])


# an active skill's ``target`` -> its targets (any other: one enemy, by the sheet's priority)
TARGETS: dict[str, Callable[[Fight, Fighter], list[Fighter]]] = {
    "self": _self, "all_enemies": _all_enemies, "enemy_with_equipment": _enemy_with_equipment,
}


def skill_targets(fight: Fight, f: Fighter, sk: Skill) -> list[Fighter]:
    return TARGETS.get(sk.target, _enemy)(fight, f)


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

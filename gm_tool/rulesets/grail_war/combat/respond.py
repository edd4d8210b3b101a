"""出杀 / 出闪: which 杀 or 闪 a fighter plays, read from the sheet's priority lists.

A request names what is wanted (杀 or 闪) and the kind of event asking (``enemy``, ``strike``,
``skill``, ``magic``). The sheet's line for that kind answers unless its count is spent, and a
card is spent only if enough stay for the higher lines whose events are still to come
(ruling C6). A 杀 or 闪 comes from 月灵髓液, a real card, the line's converting equipment
(``via``), or a converting skill, in that order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm_tool.core.deck import Card
from gm_tool.rulesets.grail_war.combat import equipment
from gm_tool.rulesets.grail_war.combat.fighter import KIND_PHASE, SHA, SHAN, Fighter
from gm_tool.rulesets.grail_war.combat.skills import Skill, matches
from gm_tool.rulesets.grail_war.orders import Entry

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight


def entries(f: Fighter, want: str) -> list[Entry]:
    return f.o.strike_order if want == SHA else f.o.dodge_order


def entry_for(f: Fighter, want: str, kind: str) -> Entry | None:
    """The sheet's line that answers this kind of event, if its count is not spent."""
    for e in entries(f, want):
        if e.against == kind:
            if e.count is not None and f.used.get((want, kind), 0) >= e.count:
                return None
            return e
    return None


def note_use(f: Fighter, want: str, kind: str) -> None:
    f.used[(want, kind)] = f.used.get((want, kind), 0) + 1


def extra_strikes(fight: Fight, f: Fighter) -> int:
    """How many 杀 beyond the first ``f`` may use in the basic phase (七夜, static skills)."""
    n = equipment.extra_strikes(fight, f)
    for sk in f.skills:
        if sk.trigger == "static" and sk.static("extra_strikes") and fight.skill_ok(f, sk):
            n += sk.static("extra_strikes")
    return n


def converters(fight: Fight, f: Fighter, want: str) -> list[tuple[Skill, dict[str, Any]]]:
    """The static skills that let a card of some suit stand for ``want``."""
    return [(sk, sk.static("convert")) for sk in f.skills
            if sk.trigger == "static" and sk.static("convert") and sk.static("convert")["as"] == want
            and fight.skill_ok(f, sk)]


def convertible(f: Fighter, spec: dict[str, Any]) -> list[Card]:
    excl = set(spec.get("exclude") or ()) | {spec["as"]}
    return [x for x in f.c.hand if x.name not in excl and matches(spec["pattern"], x.suit)]


def default_need(fight: Fight, f: Fighter, kind: str) -> int:
    """How many cards a line without a count is expected to need this fight."""
    if kind == "enemy":
        return 0 if f.petrified or not fight.enemies(f) else 1 + extra_strikes(fight, f)
    if kind == "strike":
        return max((0 if e.petrified else 1 + extra_strikes(fight, e) for e in fight.enemies(f)), default=0)
    return 1


def _via(f: Fighter, entry: Entry | None) -> tuple[str, equipment.Via] | None:
    """The line's converting equipment (``via``), when f has it equipped."""
    name = entry.via if entry is not None else None
    if name is None or name not in equipment.VIA or not f.c.equipped(name):
        return None
    return name, equipment.VIA[name]


def supply(fight: Fight, f: Fighter, want: str, entry: Entry | None, armor_ok: bool = True) -> int:
    """How many ``want`` ``f`` could still produce."""
    n = f.count(want) + (1 if equipment.yueling_ok(fight, f, armor_ok) else 0)
    via = _via(f, entry)
    if via is not None:
        n += via[1].supply(f, want)
    for _, spec in converters(fight, f, want):
        n += len(convertible(f, spec))
    return n


def spare(fight: Fight, f: Fighter, want: str, kind: str, entry: Entry, armor_ok: bool = True) -> bool:
    """Whether a card may be spent on this event and still leave enough for the lines the
    sheet ranks higher whose events are still to come this fight (ruling C6)."""
    reserve = 0
    for e in entries(f, want):
        if e.against == kind:
            break
        if KIND_PHASE[e.against] <= fight.phase:
            continue
        need = e.count if e.count is not None else default_need(fight, f, e.against)
        reserve += max(0, need - f.used.get((want, e.against), 0))
    return supply(fight, f, want, entry, armor_ok) - reserve >= 1


def check_via(fight: Fight, f: Fighter, entry: Entry) -> None:
    """A line's via whose equipment is gone (taken or discarded this turn) is skipped, once
    logged to its player."""
    if entry.via and not f.c.equipped(entry.via) and ("via:" + entry.via) not in f.once:
        f.once.add("via:" + entry.via)
        fight.priv("choice_skipped", [f], character=f.id, choice="via", item=entry.via, reason="not_equipped")


def produce(fight: Fight, f: Fighter, want: str, entry: Entry | None, armor_ok: bool = True,
            declaring: bool = False) -> tuple[list[Card], str] | None:
    """Take from f what counts as one ``want``: 月灵髓液, a real card, then the entry's
    conversion (正式外典, 佩耳修斯之剑), then a converting skill. Returns (cards, how).
    When declaring the phase's 杀, 月灵髓液 is kept for a 闪 if the 出闪 list answers 杀."""
    c = f.c
    if equipment.yueling_ok(fight, f, armor_ok) and not (declaring and entry_for(f, SHAN, "strike") is not None):
        f.yueling_used = True
        return [], "月灵髓液"
    card = f.held(want)
    if card is not None:
        c.hand.remove(card)
        return [card], ""
    via = _via(f, entry)
    if via is not None:
        spent = via[1].take(f, want)
        if spent:
            return spent, via[0]
    for sk, spec in converters(fight, f, want):
        pool = convertible(f, spec)
        if pool:
            rank = sorted(pool, key=lambda x: (-f.keep_rank.get(x.name, 999), -c.hand.index(x)))
            c.hand.remove(rank[0])
            return [rank[0]], sk.name
    return None


def ready(fight: Fight, f: Fighter, want: str, kind: str, *, checked: bool = False,
          declaring: bool = False) -> tuple[list[Card], str] | None:
    """One ``want`` for an event ``f`` starts itself (a 杀 it uses), if its list allows: the
    line's answer, the reserve kept, the cards produced and counted. ``checked`` logs a line
    whose via is gone first."""
    entry = entry_for(f, want, kind)
    if entry is None:
        return None
    if checked:
        check_via(fight, f, entry)
    if not spare(fight, f, want, kind, entry):
        return None
    got = produce(fight, f, want, entry, declaring=declaring)
    if got is not None:
        note_use(f, want, kind)
    return got


def respond(fight: Fight, f: Fighter, want: str, kind: str, armor_ok: bool = True) -> bool:
    """f is asked for a 杀 or 闪 by an event of ``kind``; answer from the sheet's list."""
    if not f.c.alive:
        return False
    entry = entry_for(f, want, kind)
    if entry is None:
        return False
    check_via(fight, f, entry)
    if want == SHAN and armor_ok and equipment.dodge_by_judgement(fight, f):
        note_use(f, want, kind)
        fight.pub("respond_by", character=f.id, need=want, against=kind, via=equipment.JUDGED_DODGE)
        return True
    if not spare(fight, f, want, kind, entry, armor_ok):
        return False
    got = produce(fight, f, want, entry, armor_ok)
    if got is None:
        return False
    spent, how = got
    note_use(f, want, kind)
    fight.game.deck.discard(*spent)
    if spent:
        fight.pub("respond", character=f.id, need=want, against=kind, cards=[x.to_dict() for x in spent],
                  via=how or None)
    else:
        fight.pub("respond_by", character=f.id, need=want, against=kind, via=how)
    return True


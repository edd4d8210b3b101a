"""出杀 / 出闪: which 杀 or 闪 a fighter plays, read from the sheet's priority lists.

A request names what is wanted (杀 or 闪) and the kind of event asking (``enemy``, ``strike``,
``skill``, ``magic``). The sheet's line for that kind answers unless its count is spent, and a
card is spent only if enough stay for the higher lines whose events are still to come
(ruling C6). A 杀 or 闪 comes from 月灵髓液, a real card, a converting equipment (the line's
``via``, or one the sheet switches on with ``equipment: {X: {use: true}}``), or a converting
skill: the first of these, in that order, that leaves the higher lines what they count on (a
conversion is used where the list puts it, and the real card stays for the higher line, ruling
C28); among those, the one that leaves the other list most of what it needs later.

Why a card was held back, spent on a lower line, or not played is told to its player only
(events ``held_back``, ``spent_lower``, ``not_played``, ruling P8).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from gm_tool.core.deck import Card
from gm_tool.rulesets.grail_war.combat import equipment
from gm_tool.rulesets.grail_war.combat.fighter import KIND_PHASE, SHA, SHAN, Fighter
from gm_tool.rulesets.grail_war.combat.skills import Skill, matches
from gm_tool.rulesets.grail_war.orders import Entry

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight

YUELING = "月灵髓液"
Piece = tuple[list[Card], str]  # the cards that make one 杀/闪, and how ("" for a real card)


def entries(f: Fighter, want: str) -> list[Entry]:
    return f.o.strike_order if want == SHA else f.o.dodge_order


def other(want: str) -> str:
    return SHAN if want == SHA else SHA


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
    """How many cards a line without a count is expected to need this fight (0: its events
    cannot come)."""
    if kind == "enemy":
        return 0 if f.petrified or not fight.enemies(f) else 1 + extra_strikes(fight, f)
    if kind == "strike":
        return max((0 if e.petrified else 1 + extra_strikes(fight, e) for e in fight.enemies(f)), default=0)
    return 1


def vias(f: Fighter, want: str, lines: Iterable[Entry | None]) -> list[str]:
    """The converting equipment these lines may use for ``want``: each line's ``via``, then
    those the sheet switches on for every line (``equipment: {X: {use: true}}``, ruling C29);
    only what is equipped and converts into ``want``."""
    names: list[str] = [e.via for e in lines if e is not None and e.via]
    names += [n for n in equipment.VIA if (ch := f.o.equipment.get(n)) is not None and ch.use]
    out: list[str] = []
    for n in names:
        if n not in out and n in equipment.VIA and f.c.equipped(n) and equipment.VIA[n].converts(want):
            out.append(n)
    return out


def pieces(fight: Fight, f: Fighter, want: str, via_names: list[str]) -> list[Piece]:
    """Each way ``f`` could make one ``want`` from its hand, in the documented order: a real
    card, each converting equipment, each converting skill (月灵髓液 aside)."""
    out: list[Piece] = []
    card = f.held(want)
    if card is not None:
        out.append(([card], ""))
    for name in via_names:
        picked = equipment.VIA[name].pick(f, want)
        if picked:
            out.append((picked, name))
    for sk, spec in converters(fight, f, want):
        pool = convertible(f, spec)
        if pool:
            rank = sorted(pool, key=lambda x: (-f.keep_rank.get(x.name, 999), -f.c.hand.index(x)))
            out.append(([rank[0]], sk.name))
    return out


def supply(fight: Fight, f: Fighter, want: str, via_names: list[str], armor_ok: bool = True) -> int:
    """How many ``want`` ``f`` could still produce with these converting equipment: 月灵髓液,
    then the hand taken one piece at a time (real cards first), nothing actually spent."""
    n = 1 if equipment.yueling_ok(fight, f, armor_ok) else 0
    hand = list(f.c.hand)
    try:
        while True:
            got = pieces(fight, f, want, via_names)
            if not got:
                return n
            for x in got[0][0]:
                f.c.hand.remove(x)
            n += 1
    finally:
        f.c.hand[:] = hand


class Claim:
    """What the lines of one list still count on: how many cards, the converting equipment
    they may use, the first of them; and the lines ranked higher whose events cannot come."""

    def __init__(self) -> None:
        self.need = 0
        self.first: str | None = None
        self.lines: list[Entry] = []
        self.gone: list[tuple[str, int]] = []  # (against, what it would need) of lines that cannot come

    def add(self, e: Entry, left: int) -> None:
        if left > 0:
            self.need += left
            self.first = self.first or e.against
            self.lines.append(e)


def higher(fight: Fight, f: Fighter, want: str, kind: str) -> Claim:
    """The claim of the lines the sheet ranks above ``kind`` (ruling C6): those whose events
    are still to come this fight, at their count or what they may need; a line whose phase is
    over, or whose events cannot come (its owner petrified, no enemy able to use a 杀), is
    noted in ``gone`` instead."""
    claim = Claim()
    for e in entries(f, want):
        if e.against == kind:
            break
        used = f.used.get((want, e.against), 0)
        if e.count is not None and used >= e.count:
            continue
        could = default_need(fight, f, e.against)
        if KIND_PHASE[e.against] <= fight.phase or could == 0:
            claim.gone.append((e.against, e.count - used if e.count is not None else max(1, could - used)))
            continue
        claim.add(e, e.count - used if e.count is not None else could - used)
    return claim


def later(fight: Fight, f: Fighter, want: str) -> Claim:
    """The claim of every line of the ``want`` list whose events may still come this fight
    (this phase or a later one)."""
    claim = Claim()
    for e in entries(f, want):
        used = f.used.get((want, e.against), 0)
        if KIND_PHASE[e.against] < fight.phase or (e.count is not None and used >= e.count):
            continue
        could = default_need(fight, f, e.against)
        if could:
            claim.add(e, e.count - used if e.count is not None else could - used)
    return claim


def left_after(fight: Fight, f: Fighter, piece: Piece, checks: list[tuple[str, Claim]]) -> list[int]:
    """For each (want, claim): how many ``want`` f could still make for that claim's lines once
    ``piece`` is spent, less what the claim needs."""
    cards, how = piece
    hand, yueling = list(f.c.hand), f.yueling_used
    try:
        for x in cards:
            f.c.hand.remove(x)
        if how == YUELING and not cards:
            f.yueling_used = True
        return [supply(fight, f, w, vias(f, w, claim.lines)) - claim.need for w, claim in checks]
    finally:
        f.c.hand[:] = hand
        f.yueling_used = yueling


def candidates(fight: Fight, f: Fighter, want: str, entry: Entry, armor_ok: bool, declaring: bool) -> list[Piece]:
    """月灵髓液 (kept for a 闪 when declaring the phase's 杀 while the 出闪 list answers 杀, ruling
    C15), then the pieces of :func:`pieces` with the line's converting equipment."""
    out: list[Piece] = []
    if equipment.yueling_ok(fight, f, armor_ok) and not (declaring and entry_for(f, SHAN, "strike") is not None):
        out.append(([], YUELING))
    return out + pieces(fight, f, want, vias(f, want, [entry]))


def _once(f: Fighter, key: str) -> bool:
    """True the first time ``key`` is seen for f this fight."""
    if key in f.once:
        return False
    f.once.add(key)
    return True


def choose(fight: Fight, f: Fighter, want: str, kind: str, entry: Entry, armor_ok: bool = True,
           declaring: bool = False, asked: bool = True) -> Piece | None:
    """The piece f spends on this event, or None: nothing to play (told once, when asked), or
    every piece would take what a higher line counts on (held back, told)."""
    cands = candidates(fight, f, want, entry, armor_ok, declaring)
    if not cands:
        if asked and _once(f, f"not_played:{want}:{kind}"):
            fight.priv("not_played", [f], character=f.id, need=want, against=kind)
        return None
    mine, theirs = higher(fight, f, want, kind), later(fight, f, other(want))
    best: tuple[Piece, int, int] | None = None
    for piece in cands:
        same, cross = left_after(fight, f, piece, [(want, mine), (other(want), theirs)])
        if same < 0:
            continue
        if best is None or min(0, cross) > min(0, best[2]):
            best = (piece, same, cross)
    if best is None:
        cards, how = cands[0]
        fight.priv("held_back", [f], character=f.id, cards=[x.to_dict() for x in cards], via=how or None,
                   need=want, against=kind, reserved_for=mine.first)
        return None
    piece, same, _ = best
    gone = sum(n for _, n in mine.gone)
    if mine.gone and same < gone and _once(f, f"spent_lower:{want}:{kind}"):
        fight.priv("spent_lower", [f], character=f.id, cards=[x.to_dict() for x in piece[0]], via=piece[1] or None,
                   need=want, against=kind, higher=mine.gone[0][0])
    return piece


def take(f: Fighter, piece: Piece) -> None:
    """Spend the piece: its cards leave the hand; 月灵髓液 is used for the turn."""
    cards, how = piece
    for x in cards:
        f.c.hand.remove(x)
    if how == YUELING and not cards:
        f.yueling_used = True


def check_via(fight: Fight, f: Fighter, entry: Entry) -> None:
    """A line's via whose equipment is gone (taken or discarded this turn) is skipped, once
    logged to its player."""
    if entry.via and not f.c.equipped(entry.via) and ("via:" + entry.via) not in f.once:
        f.once.add("via:" + entry.via)
        fight.priv("choice_skipped", [f], character=f.id, choice="via", item=entry.via, reason="not_equipped")


def ready(fight: Fight, f: Fighter, want: str, kind: str, *, checked: bool = False,
          declaring: bool = False) -> Piece | None:
    """One ``want`` for an event ``f`` starts itself (a 杀 it uses), if its list allows: the
    line's answer, the reserve kept, the cards taken and counted. ``checked`` logs a line
    whose via is gone first."""
    entry = entry_for(f, want, kind)
    if entry is None:
        return None
    if checked:
        check_via(fight, f, entry)
    got = choose(fight, f, want, kind, entry, declaring=declaring, asked=False)
    if got is not None:
        take(f, got)
        note_use(f, want, kind)
    return got


def unset(fight: Fight, f: Fighter, want: str, kind: str, armor_ok: bool) -> None:
    """A demand the sheet's list has no line for (l.71-84: the kinds not listed are not answered):
    told once a fight to the fighter's player, when it could have answered it."""
    if not _once(f, f"not_set:{want}:{kind}") or any(e.against == kind for e in entries(f, want)):
        return  # told already, or the line is there, its count spent: the sheet said how many
    if supply(fight, f, want, vias(f, want, []), armor_ok):
        fight.priv("not_set", [f], character=f.id, need=want, against=kind)


def respond(fight: Fight, f: Fighter, want: str, kind: str, armor_ok: bool = True) -> bool:
    """f is asked for a 杀 or 闪 by an event of ``kind``; answer from the sheet's list."""
    if not f.c.alive:
        return False
    entry = entry_for(f, want, kind)
    if entry is None:
        unset(fight, f, want, kind, armor_ok)
        return False
    check_via(fight, f, entry)
    if want == SHAN and armor_ok and equipment.dodge_by_judgement(fight, f):
        note_use(f, want, kind)
        fight.pub("respond_by", character=f.id, need=want, against=kind, via=equipment.JUDGED_DODGE)
        return True
    got = choose(fight, f, want, kind, entry, armor_ok)
    if got is None:
        return False
    take(f, got)
    spent, how = got
    note_use(f, want, kind)
    fight.game.deck.discard(*spent)
    if spent:
        fight.pub("respond", character=f.id, need=want, against=kind, cards=[x.to_dict() for x in spent],
                  via=how or None)
    else:
        fight.pub("respond_by", character=f.id, need=want, against=kind, via=how)
    return True

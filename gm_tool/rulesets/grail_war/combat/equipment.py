"""Equipment as hooks on the named stages of a 杀 and of damage (R12).

Each weapon or armour effect is one small function; the stages' tables (:mod:`.damage`'s
``CAUSED`` and ``INFLICTED``, :mod:`.basic`'s ``DECLARED`` to ``FINISHED``) list them in the
order they run, the skills that trigger at the same point among them. An effect that lets a 杀
follow another (黑键, 物干焯) says so, and :mod:`.basic` plays it. An optional effect works when
the sheet or the default says so (``Fight.eq``, ruling C14); a locked one whenever the card is
equipped.

Effects on what a fighter may play (七夜, 月灵髓液, 奉纳殿六十四层, ``VIA``) are read by
:mod:`.respond`; 六道境界 and 破魔红蔷薇 by :mod:`.basic` (:func:`affects`, :func:`pierces_armor`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gm_tool.core.deck import Card
from gm_tool.rulesets.grail_war.combat import cardmoves
from gm_tool.rulesets.grail_war.combat.fighter import SHA, SHAN, Damage, Fighter, Strike

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight

JUDGED_DODGE = "奉纳殿六十四层"


# what a fighter may play ---------------------------------------------------------------------
def extra_strikes(fight: Fight, f: Fighter) -> int:
    """七夜: one more 杀 in the basic phase."""
    return 1 if f.c.equipped("七夜") and fight.eq(f, "七夜") else 0


def yueling_ok(fight: Fight, f: Fighter, armor_ok: bool = True) -> bool:
    """月灵髓液: once a turn, counts as a 杀 or 闪 in a one-against-one fight."""
    return (armor_ok and not f.yueling_used and f.c.equipped("月灵髓液") and fight.eq(f, "月灵髓液")
            and sum(1 for x in fight.order if x.c.alive) == 2 and len(fight.enemies(f)) == 1)


def dodge_by_judgement(fight: Fight, f: Fighter) -> bool:
    """奉纳殿六十四层: a red judgement counts as a 闪."""
    return f.c.equipped(JUDGED_DODGE) and fight.eq(f, JUDGED_DODGE) and cardmoves.judge(fight, f, "red", JUDGED_DODGE)


class Via:
    """Equipment that lets a hand card stand for a 杀 or 闪 (正式外典, 佩耳修斯之剑), on a list line
    naming it (``via``) or on every line when the sheet switches it on (ruling C29)."""

    def __init__(self, into: tuple[str, ...], pick: Callable[[Fighter, str], list[Card] | None]):
        self.into = into  # what it can make
        self.pick = pick  # the hand cards that would make one ``want`` (none taken), or None

    def converts(self, want: str) -> bool:
        return want in self.into


def _other(want: str) -> str:
    return SHAN if want == SHA else SHA


def _swap_pick(f: Fighter, want: str) -> list[Card] | None:
    """正式外典: a 闪 as a 杀, or a 杀 as a 闪."""
    card = f.held(_other(want))
    return [card] if card is not None else None


def _pair_pick(f: Fighter, want: str) -> list[Card] | None:
    """佩耳修斯之剑: two hand cards as a 杀, the two the player wants least, never a real 杀 (a
    real 杀 is a 杀 on its own)."""
    return f.least_wanted(2, (SHA,)) if want == SHA else None


VIA: dict[str, Via] = {
    "正式外典": Via((SHA, SHAN), _swap_pick),
    "佩耳修斯之剑": Via((SHA,), _pair_pick),
}


def affects(s: Strike, t: Fighter) -> bool:
    """六道境界 (R12): a plain 杀 (no damage bonus declared when used) has no effect, unless
    its attacker has 破魔红蔷薇."""
    return not (t.c.equipped("六道境界") and s.bonus == 0 and not s.attacker.c.equipped("破魔红蔷薇"))


def pierces_armor(strikes: list[Strike]) -> bool:
    """破魔红蔷薇 (locked): the target's armour does nothing against this 杀."""
    return any(s.attacker.c.equipped("破魔红蔷薇") for s in strikes)


# damage caused by a 杀's attacker ---------------------------------------------------------
def stone_sword(fight: Fight, d: Damage) -> bool:
    """石中剑 (locked): +1 on a target without hand cards."""
    src, t = d.source, d.target
    assert src is not None
    if src.c.equipped("石中剑") and not t.c.hand:
        d.amount += 1
        fight.pub("modify", character=src.id, target=t.id, item="石中剑", amount=d.amount)
    return True


def flower_staff(fight: Fight, d: Damage) -> bool:
    """万华杖: instead of the damage, take one of the target's cards."""
    src, t = d.source, d.target
    assert src is not None
    zones = fight.eq_zones(src, "万华杖")
    if fight.eq(src, "万华杖") and cardmoves.has_card_in(t, zones):
        fight.pub("prevent", character=src.id, target=t.id, item="万华杖", amount=d.amount)
        cardmoves.take(fight, src, t, zones, "万华杖")
        return False
    return True


def slashing_emperor(fight: Fight, d: Damage) -> bool:
    """斩击皇帝: also discard one of the target's cards."""
    src = d.source
    assert src is not None
    if fight.eq(src, "斩击皇帝"):
        cardmoves.discard_from(fight, src, d.target, fight.eq_zones(src, "斩击皇帝"), "斩击皇帝")
    return True


# damage inflicted on the target -------------------------------------------------------------
def seven_rings(fight: Fight, d: Damage) -> bool:
    """炽天覆七重圆环: damage above 1 becomes 1 (locked); damage that would take the last HP is
    prevented by discarding the armour (optional)."""
    t, src = d.target, d.source
    if (d.strike is not None and src is not None and src.c.equipped("破魔红蔷薇")) or not t.c.equipped("炽天覆七重圆环"):
        return True
    if d.amount > 1:
        d.amount = 1
        fight.pub("modify", character=t.id, target=t.id, item="炽天覆七重圆环", amount=1)
    if d.amount >= t.c.hp and fight.eq(t, "炽天覆七重圆环"):
        fight.game.equipment_pile.insert(0, cardmoves.lose_equipment(t, "armor"))
        fight.pub("prevent", character=t.id, target=t.id, item="炽天覆七重圆环", amount=d.amount)
        return False
    return True


# a 杀's life ---------------------------------------------------------------------------------
def promised_sword(fight: Fight, s: Strike) -> None:
    """誓约胜利之剑: discard two cards for +1 damage."""
    f = s.attacker
    if fight.eq(f, "誓约胜利之剑"):
        two = f.least_wanted(2)
        if two:
            cardmoves.spend(fight, f, two, "誓约胜利之剑")
            s.bonus += 1


def rupture_sword(fight: Fight, s: Strike) -> None:
    """乖离剑: discard one more 杀 for +1 damage."""
    f = s.attacker
    if fight.eq(f, "乖离剑"):
        extra = f.held(SHA)
        if extra is not None:
            cardmoves.spend(fight, f, [extra], "乖离剑")
            s.bonus += 1


def thorn_spear(fight: Fight, s: Strike, t: Fighter) -> bool:
    """穿刺死棘之枪: discard two cards and a dodged 杀 hits anyway."""
    a = s.attacker
    if fight.eq(a, "穿刺死棘之枪") and a.c.alive:
        two = a.least_wanted(2)
        if two:
            cardmoves.spend(fight, a, two, "穿刺死棘之枪")
            return True
    return False


def black_keys(fight: Fight, s: Strike, t: Fighter) -> str | None:
    """黑键: a dodged 杀 may be followed by another on the same target."""
    a = s.attacker
    return "黑键" if fight.eq(a, "黑键") and a.c.alive and t.c.alive else None


def drying_pole(fight: Fight, s: Strike, t: Fighter) -> str | None:
    """物干焯: a 杀 that dealt damage may be followed by another on the same target."""
    a = s.attacker
    return "物干焯" if fight.eq(a, "物干焯") and a.c.alive and t.c.alive else None


def twin_swords(fight: Fight, s: Strike) -> bool:
    """干将莫邪: a 杀 cancelled by a 闪 for every target and hitting none returns to the hand."""
    a = s.attacker
    real = [x for x in s.cards if x.name == SHA]
    if not (s.cancelled and not s.hit and real and a.c.alive and fight.eq(a, "干将莫邪")):
        return False
    a.c.hand.extend(real)
    fight.game.deck.discard(*[x for x in s.cards if x not in real])
    fight.pub("retrieve", character=a.id, cards=[x.to_dict() for x in real], item="干将莫邪")
    return True

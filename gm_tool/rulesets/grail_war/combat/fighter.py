"""What a fight keeps about its participants: fighters, 杀 in flight, damage in its stages."""

from __future__ import annotations

from typing import Any

from gm_tool.core.deck import Card
from gm_tool.rulesets.grail_war import hands
from gm_tool.rulesets.grail_war.combat import skills as skilldefs
from gm_tool.rulesets.grail_war.combat.skills import Skill
from gm_tool.rulesets.grail_war.model import Character
from gm_tool.rulesets.grail_war.orders import Orders

SHA, SHAN, GEM, CURSE, WUXIE = "杀", "闪", "宝石", "咒", "万法破尽"
SKILL_PHASE, MAGIC_PHASE, BASIC_PHASE = 1, 2, 3
# the phase in which events of each 出杀/出闪 kind happen (for reserving cards, ruling C6)
KIND_PHASE = {"skill": SKILL_PHASE, "magic": MAGIC_PHASE, "enemy": BASIC_PHASE, "strike": BASIC_PHASE}


class Fighter:
    """A character in a fight, with what lasts until the end of the turn."""

    __slots__ = ("c", "o", "skills", "used", "curse", "petrified", "skip_draw", "wuxie_seen", "yueling_used",
                 "strike_bonus", "once", "keep_rank")

    def __init__(self, c: Character, o: Orders, custom: dict[str, Any] | None = None):
        self.c = c
        self.o = o
        self.skills: list[Skill] = skilldefs.of(c.skills, custom)  # custom: the scenario's (Game.skills)
        self.used: dict[tuple[str, str], int] = {}
        self.curse = False
        self.petrified = False
        self.skip_draw = False
        self.wuxie_seen = False
        self.yueling_used = False
        self.strike_bonus = 0
        self.once: set[str] = set()
        order = list(o.keep or []) + list(hands.DEFAULT_KEEP_ORDER)
        self.keep_rank: dict[str, int] = {}
        for i, name in enumerate(order):
            self.keep_rank.setdefault(name, i)

    @property
    def id(self) -> str:
        return self.c.id

    def held(self, name: str) -> Card | None:
        return next((x for x in self.c.hand if x.name == name), None)

    def count(self, name: str) -> int:
        return sum(1 for x in self.c.hand if x.name == name)

    def least_wanted(self, n: int, exclude: tuple[str, ...] = ()) -> list[Card] | None:
        """The ``n`` hand cards the player wants least (keep list, then the default keep order;
        among equals the latest received), or None if there are fewer."""
        pool = [(self.keep_rank.get(x.name, 999), i, x) for i, x in enumerate(self.c.hand) if x.name not in exclude]
        if len(pool) < n:
            return None
        pool.sort(key=lambda t: (-t[0], -t[1]))
        return [t[2] for t in pool[:n]]


class Strike:
    """One 杀 in flight: its cards, damage bonus, how it was made (``via``) and where it landed."""

    __slots__ = ("attacker", "cards", "bonus", "via", "cancelled", "hit")

    def __init__(self, attacker: Fighter, cards: list[Card], bonus: int, via: str):
        self.attacker = attacker
        self.cards = cards
        self.bonus = bonus
        self.via = via
        self.cancelled: list[str] = []
        self.hit: list[str] = []


class Damage:
    """Damage on its way through the stages (see :mod:`.damage`); hooks may change ``amount``."""

    __slots__ = ("source", "target", "amount", "cause", "strike")

    def __init__(self, source: Fighter | None, target: Fighter, amount: int, cause: str, strike: Strike | None):
        self.source = source
        self.target = target
        self.amount = amount
        self.cause = cause
        self.strike = strike

    @property
    def by_strike(self) -> bool:
        """Whether a 杀 with a known attacker deals it (only such damage has *caused* effects)."""
        return self.strike is not None and self.source is not None


class Ctx:
    """What a triggered skill may change: the damage amount, a dodged 杀 hitting, extra draws."""

    __slots__ = ("skill", "amount", "hit", "draw")

    def __init__(self, amount: int = 0):
        self.skill: Skill | None = None
        self.amount = amount
        self.hit = False
        self.draw = 0

"""One fight in one cell (R8-R13), played on the players' behalf from their order sheets.

The fight runs the seed's three phases (R9): skills, magic cards, basic cards with equipment
effects; then everyone alive draws (R8). Within a phase the fighters act in the fight's actor
order (a seeded shuffle, logged). Basic-phase 杀 are declared together and resolved in waves
(R10): wave *i* holds the *i*-th 杀 of every attacker; one 闪 cancels a whole wave against its
target, so 杀 from different enemies need one 闪 and a second 杀 of the same enemy a second.

Damage passes named stages, each a hook for equipment and skills: *caused* (the source's
石中剑, 万华杖, 斩击皇帝, strike_damage skills), *inflicted* (the target's 炽天覆七重圆环),
*HP change*, *dying* (skills, own 咒 and 宝石, allies' 宝石; else death), *after* (damaged
skills). Judgements draw the top card of the deck, test a suit pattern and discard it.

Every play, response, judgement and damage step is an event: ``to=[]`` with the fighters'
players as ``actors`` and the cell in ``cells`` (vision gives it to observers of the cell);
what only some may know (a hand card taken at random, cards drawn) goes to those players only.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.deck import Card
from gm_tool.core.events import PUBLIC, EventLog
from gm_tool.core.grid import Cell, cell_name
from gm_tool.rulesets.grail_war import cards as catalog
from gm_tool.rulesets.grail_war import hands
from gm_tool.rulesets.grail_war.combat import skills as skilldefs
from gm_tool.rulesets.grail_war.combat.skills import Skill, matches
from gm_tool.rulesets.grail_war.model import Character, Game
from gm_tool.rulesets.grail_war.orders import Entry, Orders

SHA, SHAN, GEM, CURSE, WUXIE = "杀", "闪", "宝石", "咒", "万法破尽"
SKILL_PHASE, MAGIC_PHASE, BASIC_PHASE = 1, 2, 3
# the phase in which events of each 出杀/出闪 kind happen (for reserving cards, ruling C6)
KIND_PHASE = {"skill": SKILL_PHASE, "magic": MAGIC_PHASE, "enemy": BASIC_PHASE, "strike": BASIC_PHASE}
# magic cards are tried in the catalog's order (ruling C8)
MAGIC_ORDER = ("石化魔眼", "枯竭庭院", "扭曲螺旋", "赤主槛发", "不死徒手", "决斗", "王之军势", "王之财宝",
               "阿宁艾鲁贝的一日")
ZONE_SLOTS = {"weapon": ("weapon",), "armor": ("armor",), "equipment": ("weapon", "armor")}


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
        self.keep_rank = {}
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
    __slots__ = ("attacker", "cards", "bonus", "via", "cancelled", "hit", "single")

    def __init__(self, attacker: Fighter, cards: list[Card], bonus: int, via: str, single: Fighter | None = None):
        self.attacker = attacker
        self.cards = cards
        self.bonus = bonus
        self.via = via
        self.cancelled: list[str] = []
        self.hit: list[str] = []
        self.single = single


class Ctx:
    __slots__ = ("skill", "phase", "amount", "hit", "draw")

    def __init__(self, phase: int, amount: int = 0):
        self.skill: Skill | None = None
        self.phase = phase
        self.amount = amount
        self.hit = False
        self.draw = 0


def default_use() -> dict[str, bool]:
    from gm_tool.rulesets.grail_war import data

    return data.load("cards").get("default_use", {})


class Fight:
    def __init__(self, game: Game, cell: Cell, chars: list[Character], orders: dict[str, Orders],
                 log: EventLog, chance: Chance, order: list[str] | None = None):
        self.game = game
        self.log = log
        self.chance = chance
        self.cell = cell_name(cell)
        self.players = sorted({c.player for c in chars})
        self.defaults = default_use()
        by_id = {c.id: c for c in chars}
        if order is None:
            ids = [c.id for c in chars]
            chance.shuffle(ids, why=f"fight.order {self.cell}")
        else:
            ids = list(order)
        self.order: list[Fighter] = []
        for cid in ids:
            c = by_id[cid]
            o = orders.get(c.player)
            if o is None or o.character != c.id:
                o = Orders(player=c.player, turn=game.turn, character=c.id)
            self.order.append(Fighter(c, o, game.skills))
        self.phase = SKILL_PHASE

    # events --------------------------------------------------------------------------------
    def pub(self, type_: str, **data: Any) -> None:
        self.log.emit(type_, to=[], actors=self.players, cells=[self.cell], **data)

    def priv(self, type_: str, who: list[Fighter], **data: Any) -> None:
        self.log.emit(type_, to=sorted({f.c.player for f in who}), **data)

    # relations -----------------------------------------------------------------------------
    def enemies(self, f: Fighter) -> list[Fighter]:
        return [e for e in self.order if e.c.alive and e.c.side != f.c.side]

    def allies(self, f: Fighter) -> list[Fighter]:
        return [a for a in self.order if a.c.alive and a.c.side == f.c.side and a is not f]

    def live_sides(self) -> int:
        return len({f.c.side for f in self.order if f.c.alive})

    # options -------------------------------------------------------------------------------
    def eq(self, f: Fighter, name: str) -> bool:
        """Whether the optional effect of an equipped card is used (sheet, else the default)."""
        if not f.c.equipped(name):
            return False
        choice = f.o.equipment.get(name)
        return choice.use if choice is not None else bool(self.defaults.get(name, True))

    def eq_zones(self, f: Fighter, name: str) -> list[str]:
        choice = f.o.equipment.get(name)
        return list(choice.zones) if choice is not None and choice.zones else ["equipment", "hand"]

    def skill_ok(self, f: Fighter, sk: Skill) -> bool:
        if not f.c.alive or (sk.once and sk.id in f.once):
            return False
        if not sk.locked and not f.o.skill_use:
            return False
        cond = sk.condition
        c = f.c
        if cond.get("hp_full") and c.hp < c.max_hp:
            return False
        if "hp_at_least" in cond and c.hp < cond["hp_at_least"]:
            return False
        if "max_hp_above" in cond and c.max_hp <= cond["max_hp_above"]:
            return False
        if "holds" in cond and f.held(cond["holds"]) is None:
            return False
        return True

    def extra_strikes(self, f: Fighter) -> int:
        n = 1 if f.c.equipped("七夜") and self.eq(f, "七夜") else 0
        for sk in f.skills:
            if sk.trigger == "static" and sk.static("extra_strikes") and self.skill_ok(f, sk):
                n += sk.static("extra_strikes")
        return n

    def converters(self, f: Fighter, want: str) -> list[tuple[Skill, dict[str, Any]]]:
        return [(sk, sk.static("convert")) for sk in f.skills
                if sk.trigger == "static" and sk.static("convert") and sk.static("convert")["as"] == want
                and self.skill_ok(f, sk)]

    def convertible(self, f: Fighter, spec: dict[str, Any]) -> list[Card]:
        excl = set(spec.get("exclude") or ()) | {spec["as"]}
        return [x for x in f.c.hand if x.name not in excl and matches(spec["pattern"], x.suit)]

    def yueling_ok(self, f: Fighter, armor_ok: bool = True) -> bool:
        return (armor_ok and not f.yueling_used and f.c.equipped("月灵髓液") and self.eq(f, "月灵髓液")
                and sum(1 for x in self.order if x.c.alive) == 2 and len(self.enemies(f)) == 1)

    # 出杀 / 出闪 lists -------------------------------------------------------------------------
    @staticmethod
    def entries(f: Fighter, want: str) -> list[Entry]:
        return f.o.strike_order if want == SHA else f.o.dodge_order

    def entry_for(self, f: Fighter, want: str, kind: str) -> Entry | None:
        """The sheet's line that answers this kind of event, if its count is not spent."""
        for e in self.entries(f, want):
            if e.against == kind:
                if e.count is not None and f.used.get((want, kind), 0) >= e.count:
                    return None
                return e
        return None

    def default_need(self, f: Fighter, want: str, kind: str) -> int:
        if kind == "enemy":
            return 0 if f.petrified or not self.enemies(f) else 1 + self.extra_strikes(f)
        if kind == "strike":
            return max((0 if e.petrified else 1 + self.extra_strikes(e) for e in self.enemies(f)), default=0)
        return 1

    def supply(self, f: Fighter, want: str, entry: Entry | None, armor_ok: bool = True) -> int:
        n = f.count(want) + (1 if self.yueling_ok(f, armor_ok) else 0)
        via = entry.via if entry else None
        if via == "正式外典" and f.c.equipped(via):
            n += f.count(SHAN if want == SHA else SHA)
        elif via == "佩耳修斯之剑" and want == SHA and f.c.equipped(via):
            n += len(f.c.hand) // 2
        for _, spec in self.converters(f, want):
            n += len(self.convertible(f, spec))
        return n

    def spare(self, f: Fighter, want: str, kind: str, entry: Entry, armor_ok: bool = True) -> bool:
        """Whether a card may be spent on this event and still leave enough for the lines the
        sheet ranks higher whose events are still to come this fight (ruling C6)."""
        reserve = 0
        for e in self.entries(f, want):
            if e.against == kind:
                break
            if KIND_PHASE[e.against] <= self.phase:
                continue
            need = e.count if e.count is not None else self.default_need(f, want, e.against)
            reserve += max(0, need - f.used.get((want, e.against), 0))
        return self.supply(f, want, entry, armor_ok) - reserve >= 1

    def check_via(self, f: Fighter, entry: Entry) -> None:
        """A line's via whose equipment is gone (taken or discarded this turn) is skipped, once
        logged to its player."""
        if entry.via and not f.c.equipped(entry.via) and ("via:" + entry.via) not in f.once:
            f.once.add("via:" + entry.via)
            self.priv("choice_skipped", [f], character=f.id, choice="via", item=entry.via, reason="not_equipped")

    def produce(self, f: Fighter, want: str, entry: Entry | None, armor_ok: bool = True,
                declaring: bool = False) -> tuple[list[Card], str] | None:
        """Take from f what counts as one ``want``: 月灵髓液, a real card, then the entry's
        conversion (正式外典, 佩耳修斯之剑), then a converting skill. Returns (cards, how).
        When declaring the phase's 杀, 月灵髓液 is kept for a 闪 if the 出闪 list answers 杀."""
        c = f.c
        if self.yueling_ok(f, armor_ok) and not (declaring and self.entry_for(f, SHAN, "strike") is not None):
            f.yueling_used = True
            return [], "月灵髓液"
        card = f.held(want)
        if card is not None:
            c.hand.remove(card)
            return [card], ""
        via = entry.via if entry else None
        if via == "正式外典" and c.equipped(via):
            card = f.held(SHAN if want == SHA else SHA)
            if card is not None:
                c.hand.remove(card)
                return [card], via
        if via == "佩耳修斯之剑" and want == SHA and c.equipped(via):
            two = f.least_wanted(2)
            if two:
                for x in two:
                    c.hand.remove(x)
                return two, via
        for sk, spec in self.converters(f, want):
            pool = self.convertible(f, spec)
            if pool:
                rank = sorted(pool, key=lambda x: (-f.keep_rank.get(x.name, 999), -c.hand.index(x)))
                c.hand.remove(rank[0])
                return [rank[0]], sk.name
        return None

    def respond(self, f: Fighter, want: str, kind: str, armor_ok: bool = True) -> bool:
        """f is asked for a 杀 or 闪 by an event of ``kind``; answer from the sheet's list."""
        if not f.c.alive:
            return False
        entry = self.entry_for(f, want, kind)
        if entry is None:
            return False
        self.check_via(f, entry)
        if want == SHAN and armor_ok and f.c.equipped("奉纳殿六十四层") and self.eq(f, "奉纳殿六十四层"):
            if self.judge(f, "red", "奉纳殿六十四层"):
                f.used[(want, kind)] = f.used.get((want, kind), 0) + 1
                self.pub("respond_by", character=f.id, need=want, against=kind, via="奉纳殿六十四层")
                return True
        if not self.spare(f, want, kind, entry, armor_ok):
            return False
        got = self.produce(f, want, entry, armor_ok)
        if got is None:
            return False
        spent, how = got
        f.used[(want, kind)] = f.used.get((want, kind), 0) + 1
        self.game.deck.discard(*spent)
        if spent:
            self.pub("respond", character=f.id, need=want, against=kind, cards=[x.to_dict() for x in spent], via=how or None)
        else:
            self.pub("respond_by", character=f.id, need=want, against=kind, via=how)
        return True

    # card movements ------------------------------------------------------------------------
    def judge(self, f: Fighter, pattern: str, why: str) -> bool:
        drawn = self.game.deck.draw(1, self.chance)
        if not drawn:
            self.pub("judge", character=f.id, reason=why, pattern=pattern, card=None, result=False)
            return False
        card = drawn[0]
        ok = matches(pattern, card.suit)
        self.pub("judge", character=f.id, reason=why, pattern=pattern, card=card.to_dict(), result=ok)
        self.game.deck.discard(card)
        return ok

    def zones_order(self, owner: Fighter, allowed: list[str]) -> list[str]:
        pref = [z for z in owner.o.zone_priority if z in allowed]
        return pref + [z for z in allowed if z not in pref]

    def pick(self, target: Fighter, zones: list[str]) -> tuple[str, Card] | None:
        """A card of the target from the first zone that has one; a hand card is random."""
        for z in zones:
            if z == "hand":
                if target.c.hand:
                    return "hand", self.chance.choice(target.c.hand, why="hand card", label=lambda x: x.id)
            else:
                for slot in ZONE_SLOTS[z]:
                    card = target.c.equipment.get(slot)
                    if card is not None:
                        return slot, card
        return None

    def has_card_in(self, target: Fighter, zones: list[str]) -> bool:
        for z in zones:
            if z == "hand" and target.c.hand:
                return True
            if z != "hand" and any(target.c.equipment.get(s) for s in ZONE_SLOTS[z]):
                return True
        return False

    def lose_equipment(self, f: Fighter, slot: str) -> Card:
        card = f.c.equipment[slot]
        assert card is not None
        f.c.equipment[slot] = None
        return card

    def equip(self, f: Fighter, card: Card) -> None:
        """Equipment gained goes to the equipment zone; the one it replaces returns to the
        bottom of the equipment pile (ruling C3)."""
        slot = catalog.slot_of(card.name) or "weapon"
        old = f.c.equipment.get(slot)
        if old is not None:
            self.game.equipment_pile.insert(0, old)
        f.c.equipment[slot] = card

    def detach(self, target: Fighter, zones: list[str]) -> tuple[str, Card] | None:
        """Pick one of ``target``'s cards by ``zones`` (see :meth:`pick`) and take it out of its
        zone; the caller says where it goes. None when there is nothing to take."""
        got = self.pick(target, zones)
        if got is None:
            return None
        zone, card = got
        if zone == "hand":
            target.c.hand.remove(card)
        else:
            self.lose_equipment(target, zone)
        return got

    def take(self, taker: Fighter, target: Fighter, zones: list[str], why: str) -> bool:
        got = self.detach(target, zones)
        if got is None:
            return False
        zone, card = got
        if zone == "hand":
            taker.c.hand.append(card)
            self.pub("take_hand_card", character=taker.id, target=target.id, reason=why,
                     told_apart=sorted({taker.c.player, target.c.player}))
            self.priv("take_card_seen", [taker, target], character=taker.id, target=target.id, card=card.to_dict(), reason=why)
        else:
            self.equip(taker, card)
            self.pub("take_card", character=taker.id, target=target.id, zone=zone, card=card.to_dict(), reason=why)
        return True

    def discard_from(self, by: Fighter, target: Fighter, zones: list[str], why: str) -> bool:
        got = self.detach(target, zones)
        if got is None:
            return False
        zone, card = got
        if zone == "hand":
            self.game.deck.discard(card)
        else:
            self.game.equipment_pile.insert(0, card)
        self.pub("discard_card", character=by.id, target=target.id, zone=zone, card=card.to_dict(), reason=why)
        return True

    def spend(self, f: Fighter, spent: list[Card], why: str) -> None:
        for x in spent:
            f.c.hand.remove(x)
        self.game.deck.discard(*spent)
        self.pub("pay", character=f.id, cards=[x.to_dict() for x in spent], reason=why)

    # hp --------------------------------------------------------------------------------------
    def heal(self, f: Fighter, n: int, why: str) -> int:
        gain = max(0, min(n, f.c.max_hp - f.c.hp))
        if gain:
            f.c.hp += gain
            self.pub("heal", character=f.id, amount=gain, hp=f.c.hp, reason=why)
        return gain

    def damage(self, src: Fighter | None, t: Fighter, amount: int, cause: str, strike: Strike | None = None) -> int:
        """Deal damage through its stages; returns the HP actually lost."""
        if not t.c.alive or amount <= 0:
            return 0
        # caused: the source's equipment and skills
        if strike is not None and src is not None:
            if src.c.equipped("石中剑") and not t.c.hand:
                amount += 1
                self.pub("modify", character=src.id, target=t.id, item="石中剑", amount=amount)
            ctx = self.trigger(src, "strike_damage", t, Ctx(self.phase, amount))
            amount = ctx.amount
            zones = self.eq_zones(src, "万华杖")
            if self.eq(src, "万华杖") and self.has_card_in(t, zones):
                self.pub("prevent", character=src.id, target=t.id, item="万华杖", amount=amount)
                self.take(src, t, zones, "万华杖")
                return 0
            if self.eq(src, "斩击皇帝"):
                self.discard_from(src, t, self.eq_zones(src, "斩击皇帝"), "斩击皇帝")
        # inflicted: the target's armour
        armor_ok = not (strike is not None and src is not None and src.c.equipped("破魔红蔷薇"))
        if armor_ok and t.c.equipped("炽天覆七重圆环"):
            if amount > 1:
                amount = 1
                self.pub("modify", character=t.id, target=t.id, item="炽天覆七重圆环", amount=1)
            if amount >= t.c.hp and self.eq(t, "炽天覆七重圆环"):
                card = self.lose_equipment(t, "armor")
                self.game.equipment_pile.insert(0, card)
                self.pub("prevent", character=t.id, target=t.id, item="炽天覆七重圆环", amount=amount)
                return 0
        # HP change
        t.c.hp -= amount
        self.pub("damage", source=src.id if src else None, target=t.id, amount=amount, hp=t.c.hp, cause=cause)
        if t.c.hp <= 0:
            self.dying(t, src)
        if t.c.alive and src is not None:
            self.trigger(t, "damaged", src, Ctx(self.phase, amount))
        return amount

    def dying(self, t: Fighter, src: Fighter | None) -> None:
        self.pub("dying", character=t.id, hp=t.c.hp)
        for sk in t.skills:
            if sk.trigger == "dying" and t.c.hp <= 0 and self.skill_ok(t, sk):
                self.use_skill(t, sk, t, Ctx(self.phase))
        while t.c.hp <= 0:
            if self.rescue(t, t, CURSE):
                continue
            if t.o.gem != "never" and self.rescue(t, t, GEM):
                continue
            break
        for a in self.allies(t):
            if a.o.gem != "ally_first":
                continue
            while t.c.hp <= 0 and self.rescue(a, t, GEM):
                pass
        if t.c.hp <= 0:
            self.die(t, src)

    def rescue(self, giver: Fighter, t: Fighter, name: str) -> bool:
        card = giver.held(name)
        if card is None:
            return False
        giver.c.hand.remove(card)
        self.game.deck.discard(card)
        t.c.hp += 1
        self.pub("rescue", character=t.id, by=giver.id, card=card.to_dict(), hp=t.c.hp)
        return True

    def die(self, t: Fighter, src: Fighter | None) -> None:
        c = t.c
        c.alive = False
        c.hp = 0
        lost = list(c.hand)
        c.hand = []
        self.game.deck.discard(*lost)
        gear = []
        for slot in ("weapon", "armor"):
            card = c.equipment.get(slot)
            if card is not None:
                c.equipment[slot] = None
                self.game.equipment_pile.insert(0, card)
                gear.append(card.name)
        self.pub("killed", character=t.id, by=src.id if src else None, cards=[x.to_dict() for x in lost], gear=gear)
        self.log.emit("death", to=PUBLIC, character=t.id)

    # skills ----------------------------------------------------------------------------------
    def trigger(self, f: Fighter, when: str, target: Fighter, ctx: Ctx) -> Ctx:
        for sk in f.skills:
            if sk.trigger == when and self.skill_ok(f, sk):
                self.use_skill(f, sk, target, ctx)
        return ctx

    def use_skill(self, f: Fighter, sk: Skill, target: Fighter, ctx: Ctx) -> None:
        if sk.once:
            f.once.add(sk.id)
        ctx.skill = sk
        self.pub("skill", character=f.id, skill=sk.name, target=target.id if target is not f else None)
        self.effects(f, target, sk.effects, ctx)

    def effects(self, owner: Fighter, target: Fighter, effects: list[tuple[str, Any]], ctx: Ctx) -> None:
        why = ctx.skill.name if ctx.skill else ""
        for name, arg in effects:
            if name == "demand":
                if target.c.alive and not self.respond(target, arg["card"], "skill"):
                    self.effects(owner, target, arg["else"], ctx)
            elif name == "damage":
                self.damage(owner, target, arg, why)
            elif name == "judge":
                who = owner if arg["who"] == "self" else target
                if not who.c.alive and arg["who"] != "self":
                    continue
                ok = self.judge(who, arg["pattern"], why)
                self.effects(owner, target, arg["then"] if ok else arg["else"], ctx)
            elif name == "petrify":
                if target.c.alive and not target.petrified:
                    target.petrified = True
                    self.pub("petrified", character=target.id, reason=why)
            elif name == "strike_bonus":
                owner.strike_bonus += arg
            elif name == "damage_bonus":
                ctx.amount += arg
                self.pub("modify", character=owner.id, target=target.id, item=why, amount=ctx.amount)
            elif name == "hit_anyway":
                ctx.hit = True
            elif name == "recover_to":
                if target.c.hp < arg:
                    gain = arg - target.c.hp
                    target.c.hp = min(arg, target.c.max_hp)
                    self.pub("heal", character=target.id, amount=gain, hp=target.c.hp, reason=why)
            elif name == "lose_max_hp":
                owner.c.max_hp = max(1, owner.c.max_hp - arg)
                owner.c.hp = min(owner.c.hp, owner.c.max_hp)
                self.pub("max_hp", character=owner.id, max_hp=owner.c.max_hp, reason=why)
            elif name == "take_card":
                if target is not owner and target.c.alive:
                    self.take(owner, target, self.zones_order(owner, arg.get("zones", ["hand", "weapon", "armor"])), why)
            elif name == "discard_card":
                if target.c.alive:
                    self.discard_from(owner, target, self.zones_order(owner, arg.get("zones", ["hand", "weapon", "armor"])), why)
            elif name == "draw_bonus":
                ctx.draw += arg

    def by_priority(self, f: Fighter, options: list[Fighter], key) -> Fighter:
        if len(options) == 1:
            return options[0]
        best = max(key(x) for x in options)
        tied = [x for x in options if key(x) == best]
        return tied[0] if len(tied) == 1 else self.chance.choice(tied, why="target tie", label=lambda x: x.id)

    def skill_target(self, f: Fighter, options: list[Fighter]) -> Fighter:
        if f.o.target_priority == "more_cards":
            return self.by_priority(f, options, lambda x: len(x.c.hand) + sum(1 for v in x.c.equipment.values() if v))
        return self.by_priority(f, options, lambda x: x.c.hp)

    def skill_phase(self) -> None:
        self.phase = SKILL_PHASE
        for f in self.order:
            if not f.c.alive or not self.enemies(f):
                continue
            for sk in f.skills:
                if sk.trigger != "active" or not self.skill_ok(f, sk):
                    continue
                if f.o.skill_name and f.o.skill_name not in (sk.id, sk.name):
                    continue
                self.active_skill(f, sk)

    def active_skill(self, f: Fighter, sk: Skill) -> None:
        enemies = self.enemies(f)
        if sk.target == "enemy_with_equipment":
            enemies = [e for e in enemies if any(e.c.equipment.values())]
        if sk.target == "self":
            targets = [f]
        elif sk.target == "all_enemies":
            targets = enemies
        else:
            targets = [self.skill_target(f, enemies)] if enemies else []
        if not targets:
            self.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="no_target")
            return
        n = sk.cost.get("discard", 0)
        if n:
            if f.o.skill_discard:
                spent: list[Card] = []
                for name in f.o.skill_discard[:n]:
                    card = next((x for x in f.c.hand if x.name == name and x not in spent), None)
                    if card is None:
                        self.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="card_gone", card=name)
                        return
                    spent.append(card)
                if len(spent) < n:
                    extra = f.least_wanted(n - len(spent), ())
                    extra = [x for x in (extra or []) if x not in spent]
                    spent += extra
            else:
                spent = f.least_wanted(n) or []
            if len(spent) < n:
                self.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="no_cards")
                return
        lose = sk.cost.get("lose_hp", 0)
        if lose and f.c.hp - lose < 1:
            self.priv("skill_skipped", [f], character=f.id, skill=sk.name, reason="hp")
            return
        if sk.once:
            f.once.add(sk.id)
        self.pub("skill", character=f.id, skill=sk.name, targets=[t.id for t in targets if t is not f])
        if n:
            self.spend(f, spent, sk.name)
        if lose:
            f.c.hp -= lose
            self.pub("lose_hp", character=f.id, amount=lose, hp=f.c.hp, reason=sk.name)
        ctx = Ctx(SKILL_PHASE)
        ctx.skill = sk
        for t in targets:
            if t.c.alive or t is f:
                self.effects(f, t, sk.effects, ctx)

    # magic -----------------------------------------------------------------------------------
    def by_hand(self, f: Fighter, options: list[Fighter]) -> Fighter:
        sign = 1 if f.o.hand_size == "more" else -1
        return self.by_priority(f, options, lambda x: sign * len(x.c.hand))

    def zone_target(self, f: Fighter) -> tuple[Fighter, str] | None:
        enemies = self.enemies(f)
        for z in f.o.zone_priority or ["hand", "weapon", "armor"]:
            having = [e for e in enemies if self.has_card_in(e, [z])]
            if having:
                return self.by_hand(f, having), z
        return None

    def nullified(self, t: Fighter, user: Fighter, card: Card) -> bool:
        """万法破尽 (R12): spent automatically on the first enemy magic card aimed at t."""
        if t.c.side == user.c.side or t.wuxie_seen or not t.c.alive:
            return False
        t.wuxie_seen = True
        w = t.held(WUXIE)
        if w is None:
            return False
        t.c.hand.remove(w)
        self.game.deck.discard(w)
        self.pub("nullify", character=t.id, card=w.to_dict(), against=card.name, source=user.id)
        return True

    def magic_phase(self) -> None:
        self.phase = MAGIC_PHASE
        progress = True
        while progress and self.live_sides() > 1:
            progress = False
            for f in self.order:
                if not f.c.alive or not f.o.magic_use or not self.enemies(f):
                    continue
                mine = sorted((x for x in f.c.hand if x.name in MAGIC_ORDER), key=lambda x: MAGIC_ORDER.index(x.name))
                for card in mine:
                    if self.play_magic(f, card):
                        progress = True
                        break

    def play_magic(self, f: Fighter, card: Card) -> bool:
        name = card.name
        enemies = self.enemies(f)
        if name in ("扭曲螺旋", "赤主槛发"):
            got = self.zone_target(f)
            if got is None:
                return False
            t, zone = got
            self.use_card(f, card, [t])
            if not self.nullified(t, f, card):
                if name == "扭曲螺旋":
                    self.discard_from(f, t, [zone], name)
                else:
                    self.take(f, t, [zone], name)
        elif name == "决斗":
            t = self.by_hand(f, enemies)
            self.use_card(f, card, [t])
            if not self.nullified(t, f, card):
                self.duel(f, t)
        elif name == "不死徒手":
            armed = [e for e in enemies if e.c.equipment.get("weapon")]
            if not armed:
                return False
            a = self.by_hand(f, armed)
            others = [e for e in enemies if e is not a]
            b = others[0] if others else f
            self.use_card(f, card, [a], victim=b.id)
            if not self.nullified(a, f, card):
                if not self.forced_strike(a, b):
                    weapon = self.lose_equipment(a, "weapon")
                    self.equip(f, weapon)
                    self.pub("take_card", character=f.id, target=a.id, zone="weapon", card=weapon.to_dict(), reason=name)
        elif name == "阿宁艾鲁贝的一日":
            if not any(x.c.hp < x.c.max_hp for x in [f, *self.allies(f)]):
                return False
            everyone = [x for x in self.order if x.c.alive]
            self.use_card(f, card, everyone)
            for x in everyone:
                self.heal(x, 1, name)
        elif name in ("王之军势", "王之财宝"):
            start = self.order.index(f)
            others = [x for x in self.order[start + 1:] + self.order[:start] if x.c.alive]
            self.use_card(f, card, others)
            want = SHA if name == "王之军势" else SHAN
            for t in others:
                if not t.c.alive or self.nullified(t, f, card):
                    continue
                if not self.respond(t, want, "magic"):
                    self.damage(f, t, 1, name)
        elif name in ("石化魔眼", "枯竭庭院"):
            flag = "petrified" if name == "石化魔眼" else "skip_draw"
            fresh = [e for e in enemies if not getattr(e, flag)]
            if not fresh:
                return False
            t = self.by_hand(f, fresh)
            self.use_card(f, card, [t])
            if not self.nullified(t, f, card):
                if name == "石化魔眼":
                    if self.judge(t, "!hearts", name):
                        t.petrified = True
                        self.pub("petrified", character=t.id, reason=name)
                elif self.judge(t, "!clubs", name):
                    t.skip_draw = True
                    self.pub("draw_skipped", character=t.id, reason=name)
        else:
            return False
        return True

    def use_card(self, f: Fighter, card: Card, targets: list[Fighter], **extra: Any) -> None:
        f.c.hand.remove(card)
        self.game.deck.discard(card)
        self.pub("magic", character=f.id, card=card.to_dict(), name=card.name, targets=[t.id for t in targets], **extra)

    def duel(self, user: Fighter, target: Fighter) -> None:
        turn, other = target, user
        while turn.c.alive and other.c.alive:
            if self.respond(turn, SHA, "magic"):
                turn, other = other, turn
                continue
            self.damage(other, turn, 1, "决斗")
            return

    def forced_strike(self, a: Fighter, b: Fighter) -> bool:
        """不死徒手: a uses a 杀 on b if its list answers magic cards with 杀."""
        if not a.c.alive or not b.c.alive or a.petrified:
            return False
        entry = self.entry_for(a, SHA, "magic")
        if entry is None or not self.spare(a, SHA, "magic", entry):
            return False
        got = self.produce(a, SHA, entry)
        if got is None:
            return False
        a.used[(SHA, "magic")] = a.used.get((SHA, "magic"), 0) + 1
        s = Strike(a, got[0], a.strike_bonus, got[1], single=b)
        self.pub("strike", character=a.id, cards=[x.to_dict() for x in s.cards], targets=[b.id], via=s.via or None,
                 reason="不死徒手", bonus=s.bonus)
        self.strike_at(s, b)
        self.finish(s)
        return True

    # basic -----------------------------------------------------------------------------------
    def declare(self, f: Fighter) -> list[Strike]:
        out: list[Strike] = []
        if f.petrified:
            return out
        allowed = 1 + self.extra_strikes(f)
        for _ in range(allowed):
            entry = self.entry_for(f, SHA, "enemy")
            if entry is None:
                break
            self.check_via(f, entry)
            if not self.spare(f, SHA, "enemy", entry):
                break
            got = self.produce(f, SHA, entry, declaring=True)
            if got is None:
                break
            f.used[(SHA, "enemy")] = f.used.get((SHA, "enemy"), 0) + 1
            out.append(Strike(f, got[0], f.strike_bonus, got[1]))
        if out and f.o.use_curse and not f.curse:
            card = f.held(CURSE)
            if card is not None:
                f.c.hand.remove(card)
                self.game.deck.discard(card)
                f.curse = True
                out[0].bonus += 1
                self.pub("curse", character=f.id, card=card.to_dict())
        for s in out:
            if self.eq(f, "誓约胜利之剑"):
                two = f.least_wanted(2)
                if two:
                    self.spend(f, two, "誓约胜利之剑")
                    s.bonus += 1
            if self.eq(f, "乖离剑"):
                extra = f.held(SHA)
                if extra is not None:
                    self.spend(f, [extra], "乖离剑")
                    s.bonus += 1
        return out

    def affects(self, s: Strike, t: Fighter) -> bool:
        """六道境界 (R12): a plain 杀 (no damage bonus declared when used) has no effect."""
        if t.c.equipped("六道境界") and s.bonus == 0 and not s.attacker.c.equipped("破魔红蔷薇"):
            return False
        return True

    def dodge(self, t: Fighter, strikes: list[Strike]) -> bool:
        armor_ok = not any(s.attacker.c.equipped("破魔红蔷薇") for s in strikes)
        return self.respond(t, SHAN, "strike", armor_ok)

    def basic_phase(self) -> None:
        self.phase = BASIC_PHASE
        declared: list[list[Strike]] = []
        for f in self.order:
            if f.c.alive and self.enemies(f):
                strikes = self.declare(f)
                if strikes:
                    declared.append(strikes)
        waves = max((len(x) for x in declared), default=0)
        for i in range(waves):
            self.wave([x[i] for x in declared if len(x) > i], i + 1)
        self.gem_heal()

    def wave(self, wave: list[Strike], n: int) -> None:
        for s in wave:
            targets = [t.id for t in self.order if t.c.alive and t.c.side != s.attacker.c.side]
            self.pub("strike", character=s.attacker.id, cards=[x.to_dict() for x in s.cards], targets=targets,
                     via=s.via or None, wave=n, bonus=s.bonus)
        for t in self.order:
            if not t.c.alive:
                continue
            aimed = [s for s in wave if s.attacker.c.side != t.c.side]
            if not aimed:
                continue
            effective = []
            for s in aimed:
                if self.affects(s, t):
                    effective.append(s)
                else:
                    self.pub("no_effect", character=s.attacker.id, target=t.id, item="六道境界")
            if effective:
                dodged = self.dodge(t, effective)
                for s in effective:
                    self.land(s, t, dodged)
        for s in wave:
            self.finish(s)

    def strike_at(self, s: Strike, t: Fighter) -> None:
        """A single-target 杀 (黑键, 物干焯, 不死徒手): its own 闪, then its effect."""
        if not self.affects(s, t):
            self.pub("no_effect", character=s.attacker.id, target=t.id, item="六道境界")
            return
        self.land(s, t, self.dodge(t, [s]))

    def land(self, s: Strike, t: Fighter, dodged: bool) -> None:
        a = s.attacker
        if not t.c.alive:
            return
        if dodged:
            hit = False
            if self.eq(a, "穿刺死棘之枪") and a.c.alive:
                two = a.least_wanted(2)
                if two:
                    self.spend(a, two, "穿刺死棘之枪")
                    hit = True
            if not hit and a.c.alive:
                hit = self.trigger(a, "strike_dodged", t, Ctx(self.phase)).hit
            if not hit:
                s.cancelled.append(t.id)
                if self.eq(a, "黑键") and a.c.alive and t.c.alive:
                    self.extra_strike(a, t, "黑键")
                return
            self.pub("hit_anyway", character=a.id, target=t.id)
        s.hit.append(t.id)
        dealt = self.damage(a, t, 1 + s.bonus, SHA, s)
        if dealt and self.eq(a, "物干焯") and a.c.alive and t.c.alive:
            self.extra_strike(a, t, "物干焯")

    def extra_strike(self, a: Fighter, t: Fighter, why: str) -> None:
        if a.petrified:
            return
        entry = self.entry_for(a, SHA, "enemy")
        if entry is None or not self.spare(a, SHA, "enemy", entry):
            return
        got = self.produce(a, SHA, entry)
        if got is None:
            return
        a.used[(SHA, "enemy")] = a.used.get((SHA, "enemy"), 0) + 1
        s = Strike(a, got[0], a.strike_bonus, got[1], single=t)
        self.pub("strike", character=a.id, cards=[x.to_dict() for x in s.cards], targets=[t.id], via=s.via or None,
                 reason=why, bonus=s.bonus)
        self.strike_at(s, t)
        self.finish(s)

    def finish(self, s: Strike) -> None:
        """The used cards go to the discard pile, or back to hand by 干将莫邪 when the 杀 was
        cancelled by a 闪 for every target and hit none."""
        a = s.attacker
        real = [x for x in s.cards if x.name == SHA]
        if s.cancelled and not s.hit and real and a.c.alive and self.eq(a, "干将莫邪"):
            a.c.hand.extend(real)
            rest = [x for x in s.cards if x not in real]
            self.game.deck.discard(*rest)
            self.pub("retrieve", character=a.id, cards=[x.to_dict() for x in real], item="干将莫邪")
        else:
            self.game.deck.discard(*s.cards)

    def gem_heal(self) -> None:
        """宝石 in the play phase (R11), after the 杀 exchange: self_first heals itself while
        wounded; ally_first does so only with no living ally in the cell (ruling C11)."""
        for f in self.order:
            if not f.c.alive or f.o.gem == "never":
                continue
            if f.o.gem == "ally_first" and self.allies(f):
                continue
            while f.c.hp < f.c.max_hp:
                card = f.held(GEM)
                if card is None:
                    break
                f.c.hand.remove(card)
                self.game.deck.discard(card)
                self.heal(f, 1, GEM)

    # the whole fight --------------------------------------------------------------------------
    def run(self) -> None:
        self.pub("fight", cell=self.cell, fighters=[f.id for f in self.order])
        if self.live_sides() > 1:
            self.skill_phase()
        if self.live_sides() > 1:
            self.magic_phase()
        if self.live_sides() > 1:
            self.basic_phase()
        self.draws()

    def draws(self) -> None:
        n = self.game.rules["combat_draw"]
        for f in self.order:
            if not f.c.alive:
                continue
            if f.skip_draw:
                self.pub("no_draw", character=f.id, reason="枯竭庭院")
                continue
            ctx = self.trigger(f, "draw", f, Ctx(self.phase))
            if n + ctx.draw > 0:
                hands.draw(self.game, f.c, n + ctx.draw, "fight", self.log, self.chance)


def resolve_fights(game: Game, fights: list[tuple[Cell, list[Character]]], orders: dict, log: EventLog,
                   chance: Chance) -> set[Cell]:
    """Play every fight; return the cells where a fight took place."""
    cells: set[Cell] = set()
    for cell, fighters in fights:
        cells.add(cell)
        Fight(game, cell, [c for c in fighters if c.alive], orders, log, chance).run()
    return cells

"""One fight in one cell (R8-R13), played on the players' behalf from their order sheets.

The fight runs the seed's three phases (R9): skills (:mod:`.abilities`), magic cards
(:mod:`.magic`, one function per play, each card's play and numbers as data), basic cards
(:mod:`.basic`, with equipment as hooks on the stages of a 杀 and of damage, :mod:`.equipment`,
:mod:`.damage`); then everyone alive draws (R8). Within a phase the fighters act in the fight's actor order (a seeded shuffle,
logged). What a fighter plays when asked for a 杀 or 闪 comes from its sheet (:mod:`.respond`).

Every play, response, judgement and damage step is an event: ``to=[]`` with the fighters'
players as ``actors`` and the cell in ``cells`` (vision gives it to observers of the cell);
what only some may know (a hand card taken at random, cards drawn) goes to those players only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name
from gm_tool.rulesets.grail_war import hands
from gm_tool.rulesets.grail_war.combat import abilities, basic, magic
from gm_tool.rulesets.grail_war.combat.fighter import SKILL_PHASE, Ctx, Fighter
from gm_tool.rulesets.grail_war.combat.skills import Skill
from gm_tool.rulesets.grail_war.model import Character, Game
from gm_tool.rulesets.grail_war.orders import Orders


@cache
def default_use() -> dict[str, bool]:
    """Whether each optional equipment effect is used when the sheet does not say (ruling C14)."""
    from gm_tool.rulesets.grail_war import data

    return data.load("cards").get("default_use", {})


class Fight:
    """The fighters of one cell in actor order, and what every step of the fight shares."""

    def __init__(self, game: Game, cell: Cell, chars: list[Character], orders: dict[str, Orders],
                 log: EventLog, chance: Chance, order: list[str] | None = None):
        self.game = game
        self.log = log
        self.chance = chance
        self.cell = cell_name(cell)
        self.players = sorted({c.player for c in chars})
        self.defaults = default_use()
        self.wave_hp: dict[str, int] | None = None  # HP at the start of the wave of 杀 landing (ruling C35)
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

    def run(self) -> None:
        self.pub("fight", cell=self.cell, fighters=[f.id for f in self.order])
        for phase in (abilities.skill_phase, magic.magic_phase, basic.basic_phase):
            if self.live_sides() > 1:
                phase(self)
        self.draws()

    def draws(self) -> None:
        """Everyone alive draws (R8), but for 枯竭庭院; draw skills add to it."""
        n = self.game.rules["combat_draw"]
        for f in self.order:
            if not f.c.alive:
                continue
            if f.skip_draw:
                self.pub("no_draw", character=f.id, reason="枯竭庭院")
                continue
            ctx = abilities.trigger(self, f, "draw", f, Ctx())
            if n + ctx.draw > 0:
                hands.draw(self.game, f.c, n + ctx.draw, "fight", self.log, self.chance)

    # events --------------------------------------------------------------------------------
    def pub(self, type_: str, **data: Any) -> None:
        """An event every fighter and every observer of the cell sees."""
        self.log.emit(type_, to=[], actors=self.players, cells=[self.cell], **data)

    def priv(self, type_: str, who: list[Fighter], **data: Any) -> None:
        """An event for these fighters' players only."""
        self.log.emit(type_, to=sorted({f.c.player for f in who}), **data)

    # relations -----------------------------------------------------------------------------
    def enemies(self, f: Fighter) -> list[Fighter]:
        return [e for e in self.order if e.c.alive and e.c.side != f.c.side]

    def allies(self, f: Fighter) -> list[Fighter]:
        return [a for a in self.order if a.c.alive and a.c.side == f.c.side and a is not f]

    def live_sides(self) -> int:
        return len({f.c.side for f in self.order if f.c.alive})

    def by_priority(self, options: list[Fighter], key: Callable[[Fighter], Any]) -> Fighter:
        """The option with the highest key; a tie is broken by lot."""
        if len(options) == 1:
            return options[0]
        best = max(key(x) for x in options)
        tied = [x for x in options if key(x) == best]
        return tied[0] if len(tied) == 1 else self.chance.choice(tied, why="target tie", label=lambda x: x.id)

    # options -------------------------------------------------------------------------------
    def eq(self, f: Fighter, name: str) -> bool:
        """Whether the optional effect of an equipped card is used (sheet, else the default)."""
        if not f.c.equipped(name):
            return False
        choice = f.o.equipment.get(name)
        return choice.use if choice is not None else bool(self.defaults.get(name, True))

    def eq_zones(self, f: Fighter, name: str) -> list[str]:
        """The zones an equipment effect takes a card from (sheet, else equipment then hand)."""
        choice = f.o.equipment.get(name)
        return list(choice.zones) if choice is not None and choice.zones else ["equipment", "hand"]

    def skill_ok(self, f: Fighter, sk: Skill) -> bool:
        """Whether f may use this skill now: alive, once-a-turn unused, allowed by the sheet
        (or locked), its condition met."""
        if not f.c.alive or (sk.once and sk.id in f.once):
            return False
        if not sk.locked and not f.o.skill_use:
            return False
        cond = sk.condition
        c = f.c
        # while a wave of 杀 lands, a strike_damage skill reads the HP of when the wave was made
        hp = self.wave_hp.get(f.id, c.hp) if self.wave_hp is not None and sk.trigger == "strike_damage" else c.hp
        if cond.get("hp_full") and hp < c.max_hp:
            return False
        if "hp_at_least" in cond and hp < cond["hp_at_least"]:
            return False
        if "max_hp_above" in cond and c.max_hp <= cond["max_hp_above"]:
            return False
        if "holds" in cond and f.held(cond["holds"]) is None:
            return False
        return True


def resolve_fights(game: Game, fights: list[tuple[Cell, list[Character]]], orders: dict, log: EventLog,
                   chance: Chance) -> set[Cell]:
    """Play every fight; return the cells where a fight took place."""
    cells: set[Cell] = set()
    for cell, fighters in fights:
        cells.add(cell)
        Fight(game, cell, [c for c in fighters if c.alive], orders, log, chance).run()
    return cells

"""The 魂陆 engine: one general-turn at a time on a plain-dict state.

:class:`Game` wraps a (copied) state with the turn's dice and event log. The kinds of action a
sheet holds are actions.py's; the same code checks a sheet (a problem becomes a Problem naming
``actions.N``) and resolves it (a problem becomes a logged skip). ``advance`` runs
everything automatic up to the next general able to act: round end, round start, 先手 skills,
恢气, substitutions, 天堑 returns. Rule references (H1-H26) are the contract's, l.N the seed's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name, parse_cell
from gm_tool.core.schema import Validator
from gm_tool.rulesets.hunlu import casting, effects, judging, movement, statuses, turns
from gm_tool.rulesets.hunlu.skip import Skip as Skip

MAX_DICE = 10000  # the longest forced queue or forum-roll list


def check_dice(v: Validator, dice: Any, field: str) -> list[int]:
    if not isinstance(dice, list):
        v.add("field.type", field, expected="list", got=type(dice).__name__)
        return []
    if len(dice) > MAX_DICE:
        v.add("hunlu.dice.too_many", field, count=len(dice), limit=MAX_DICE)
        return []
    out = []
    for i, d in enumerate(dice):
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            v.add("hunlu.dice.face", f"{field}.{i}", value=d)
        else:
            out.append(d)
    return out


def skills_of(state: dict[str, Any], u: dict[str, Any]) -> list[dict[str, Any]]:
    """A unit's skills: its team entry's own list (``skills`` in the unit), else its general's."""
    own = u.get("skills")
    return own if own is not None else state["generals"][u["general"]]["skills"]


def refresh(game: Game) -> None:
    """Derived fields shown in the state: effective 射程."""
    for u in game.s["units"]:
        u["range"] = game.range_of(u)


def _unit_copy(u: dict[str, Any]) -> dict[str, Any]:
    """A unit as play may change it: its own lists and the status and ward records (their inner
    mappings, such as a buff's stats, are never changed in place and stay shared)."""
    c = dict(u)
    c["statuses"] = [dict(st) for st in u["statuses"]]
    c["wards"] = [dict(w) for w in u["wards"]]
    c["round"] = {**u["round"], "received": dict(u["round"]["received"])}
    c["items"], c["once"], c["toggles"] = list(u["items"]), list(u["once"]), list(u["toggles"])
    return c


def fork(state: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``state`` safe to play on: what play changes is copied, what it never changes
    (the catalogue, the map, the rules, a unit's attributes) is shared. Much faster than a deep copy."""
    out = dict(state)
    out["units"] = [_unit_copy(u) for u in state["units"]]
    out["standing"] = {p: dict(st) for p, st in state["standing"].items()}  # keys are replaced, never edited
    out["next"] = dict(state["next"]) if state["next"] else None
    for key in ("order", "acted", "extra", "dice"):
        out[key] = list(state[key])
    return out


class Dice:
    """Section 4: the turn's dice file, then the forced queue (state ``dice``), then the seed.
    ``notes``: the GM's note (a forum floor) for the file's rolls from an index on."""

    def __init__(self, state: dict[str, Any], file: list[int] | None, chance: Chance | Callable[[], int],
                 notes: dict[int, str] | None = None):
        self.state, self.file, self.chance = state, list(file or []), chance
        self.notes, self.used = dict(notes or {}), 0

    def roll(self, why: str) -> tuple[int, str]:
        if self.file:
            self.used += 1
            return self.file.pop(0), "file"
        if self.state["dice"]:
            return self.state["dice"].pop(0), "queue"
        if callable(self.chance):
            return self.chance(), "check"
        return self.chance.roll(6, why), "seed"

    def note(self) -> str | None:
        """The note of the file's roll just taken (the last note given at or before it)."""
        at = [i for i in self.notes if i < self.used]
        return self.notes[max(at)] if at else None


class Game:
    """One turn's play: the (copied) state ``s``, the turn's ``dice`` and event ``log``, and the
    lookups every chapter reads (units by id, the map's obstacles). What the game does is the
    seed's chapters, each a module of plain functions taking the game, named here as its methods
    so that one chapter calls another through the game (``g.hurt(...)`` in movement)."""

    # statuses (H3, H7, H23, l.94-120)
    has = statuses.has
    active_buffs = statuses.active_buffs
    stat_sum = statuses.stat_sum
    attr = statuses.attr
    move_value = statuses.move_value
    range_of = statuses.range_of
    mod = statuses.mod
    can_act = statuses.can_act
    running = statuses.running
    add_status = statuses.add_status
    move_changed = statuses.move_changed
    end_status = statuses.end_status
    silence_at_zero = statuses.silence_at_zero
    clear_statuses = statuses.clear_statuses
    reveal_heart = statuses.reveal_heart
    # attack judging (H7-H10, H14, H25)
    reachable_target = judging.reachable_target
    chance_check = judging.chance_check
    strike = judging.strike
    element_damage = judging.element_damage
    hurt = judging.hurt
    heal = judging.heal
    lose_shen = judging.lose_shen
    do_attack = judging.do_attack
    joint_attacks = judging.joint_attacks
    # movement (H20-H23)
    blocked = movement.blocked
    do_move = movement.do_move
    slide = movement.slide
    landed = movement.landed
    fall = movement.fall
    knockback = movement.knockback
    dash = movement.dash
    chasm_return = movement.chasm_return
    free_point = movement.free_point
    # effects (the table in effects.py) and casting a skill (H6, H25)
    effect = effects.effect
    cond = effects.cond
    passives = effects.passives
    idle = effects.idle
    skill_cost = casting.skill_cost
    do_skill = casting.do_skill
    cast = casting.cast
    targets = casting.targets
    target = casting.target
    why_no_target = casting.why_no_target
    # turn order and the round (H11, H15, H16)
    advance = turns.advance
    end_turn = turns.end_turn
    why_not = turns.why_not
    stop_next_round = turns.stop_next_round
    start_round = turns.start_round
    end_round = turns.end_round
    regen = turns.regen
    first_skills = turns.first_skills
    sort_order = turns.sort_order
    roll_off = turns.roll_off
    swap = turns.swap
    die = turns.die
    pick_reserve = turns.pick_reserve
    check_victory = turns.check_victory

    def __init__(self, state: dict[str, Any], dice: Dice, log: EventLog | None = None):
        self.s = state
        self.dice = dice
        self.log = log if log is not None else EventLog()
        self.units: dict[str, dict[str, Any]] = {u["id"]: u for u in state["units"]}
        self.width, self.height = state["map"]["width"], state["map"]["height"]
        self.terrain: dict[Cell, int] = {parse_cell(o["pos"]): o["grade"] for o in state["obstacles"]}
        self.checking = False
        self.negated = False
        self.warnings: list[Skip] = []  # gm check: actions that will do nothing, as far as the sheet shows

    # ---- helpers -------------------------------------------------------------------------
    def emit(self, type_: str, to: Any = "all", **data: Any) -> None:
        self.log.emit(type_, to=to, **data)

    def roll(self, why: str, unit: str | None = None) -> int:
        value, source = self.dice.roll(why)
        note = self.dice.note() if source == "file" else None
        self.emit("roll", value=value, source=source, why=why, unit=unit, **({"note": note} if note else {}))
        return value

    def generals(self, gid: str) -> dict[str, Any]:
        return self.s["generals"][gid]

    def skills(self, u: dict[str, Any]) -> list[dict[str, Any]]:
        """The unit's skills: its team entry's own list, else its general's."""
        return skills_of(self.s, u)

    def skill(self, u: dict[str, Any], sid: str) -> dict[str, Any] | None:
        for sk in self.skills(u):
            if sk["id"] == sid:
                return sk
        return self.s.get("items_def", {}).get(sid)

    def cell(self, u: dict[str, Any]) -> Cell | None:
        return parse_cell(u["pos"]) if u["pos"] else None

    def at(self, u: dict[str, Any]) -> Cell:
        """The point of a general known to be on the field."""
        return parse_cell(u["pos"])

    def unit_at(self, c: Cell) -> dict[str, Any] | None:
        name = cell_name(c)
        for u in self.s["units"]:
            if u["pos"] == name:
                return u
        return None

    def enemies(self, a: dict[str, Any], b: dict[str, Any]) -> bool:
        return a["side"] != b["side"]

    def matches(self, caster: dict[str, Any], u: dict[str, Any], affects: str) -> bool:
        if affects == "enemies":
            return self.enemies(caster, u)
        if affects == "allies":
            return not self.enemies(caster, u)
        return True

    def on_field(self) -> list[dict[str, Any]]:
        return [u for u in self.s["units"] if u["alive"] and u["role"] == "main" and u["pos"] is not None]

    def pay_ap(self, u: dict[str, Any], n: int) -> None:
        if u["ap"] < n:
            raise Skip("no_points", need=n, left=u["ap"])

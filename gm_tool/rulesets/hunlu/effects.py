"""A skill's effects, one handler each (H3, H10, H21, H25 and the rulings R2-R26 they carry out).

Every kind of effect a catalogue may write (``{strike: 2}``, ``{knockback: {cells: 2}}``,
``{buff: {...}}``) is one :class:`EffectKind`: :meth:`EffectKind.check` reads its value in a
general's entry (the catalogue, a scenario's own skills), :meth:`EffectKind.apply` does it to one
target in the engine. :data:`EFFECTS` maps the kinds' names to them, in the order the catalogue's
problems list them; nothing else branches on an effect's name.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from gm_tool.core.grid import Cell, cell_name, in_bounds
from gm_tool.core.schema import Validator
from gm_tool.rulesets.hunlu import rules as R
from gm_tool.rulesets.hunlu.rules import ATTRS, PCT_PIPS
from gm_tool.rulesets.hunlu.skip import Skip

if TYPE_CHECKING:
    from gm_tool.rulesets.hunlu.engine import Game

Unit = dict[str, Any]

STATUS_NAMES = ("必中", "破防", "郁气", "失明", "沉默", "缴械", "睡眠", "蓄力", "停止行动", "定身", "腾空", "寂灭",
                "心战", "神兵合体")
BUFF_STATS = ATTRS + ("passive_chance", "move", "move_pct", "move_max", "range", "damage_pct",
                      "qi_per_strike", "strike_fail")
PCT_STATS = ATTRS + ("passive_chance", "strike_fail")
# what the engine reads of each number stat: (low, high, whole), shown as the allowed range
STAT_RANGES = {"move": (-99, 99, True), "move_pct": (-100, -1, True), "move_max": (0, 99, True),
               "range": (-26, 26, True), "damage_pct": (-100, 100, True), "qi_per_strike": (0, 99, False)}
BUFF_KEYS = ("name", "rounds", "stats", "off", "absorb", "immune", "round_end", "skill_mods", "heart")
BUFF_SHAPES = {"off": "[crit, weakness, dodge, hit, defence, resist]", "absorb": "true, false",
               "immune": "{attrs: [...], from: any|lower_shen}", "round_end": "{if: COND, heal: 0.5-99}",
               "skill_mods": "{SKILL: {qi, range, damage, knockback}}"}
CONDITIONS = ("lost_more_than_left", "no_damage_dealt", "not_damaged")


def num_ok(x: Any, lo: float = -99, hi: float = 99, whole: bool = False) -> bool:
    """A number in [lo, hi] in half steps (whole: an integer)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not lo <= x <= hi:
        return False
    return x == int(x) if whole else x * 2 == int(x * 2)


def cond_ok(cond: Any) -> bool:
    return cond in CONDITIONS or (isinstance(cond, dict) and set(cond) == {"within"}
                                  and num_ok(cond["within"], 0, 26, True))


def rounds_ok(val: dict[str, Any]) -> bool:
    return val.get("rounds", 1) is None or num_ok(val.get("rounds", 1), 1, 99, True)


BUFF_CHECKS = {
    "off": lambda x: isinstance(x, list) and all(a in ATTRS for a in x),
    "absorb": lambda x: isinstance(x, bool),
    "immune": lambda x: isinstance(x, dict) and not set(x) - {"attrs", "from"} and isinstance(x.get("attrs"), list)
    and all(a in ATTRS for a in x["attrs"]) and x.get("from", "any") in ("any", "lower_shen"),
    "round_end": lambda x: isinstance(x, dict) and not set(x) - {"if", "heal"}
    and (x.get("if") is None or cond_ok(x["if"])) and num_ok(x.get("heal"), 0.5, 99),
    "skill_mods": lambda x: isinstance(x, dict) and all(
        isinstance(m, dict) and all(k in ("qi", "range", "damage", "knockback") and num_ok(n, -99, 99)
                                    for k, n in m.items())
        for m in x.values()),
}


def check_buff(v: Validator, val: dict[str, Any], where: str) -> bool:
    """A buff's (or a scenario status's) mapping, every key checked; False after adding problems."""
    ok = True
    for k in val:
        if k not in BUFF_KEYS:
            v.add("field.unknown", f"{where}.{k}", allowed=", ".join(BUFF_KEYS))
            ok = False
    if not rounds_ok(val):
        v.add("hunlu.catalogue.value", f"{where}.rounds", value=val.get("rounds"), allowed="1-99, null")
        ok = False
    stats = val.get("stats") or {}
    if not isinstance(stats, dict):
        v.add("field.type", f"{where}.stats", expected="mapping", got=type(stats).__name__)
        return False
    for stat, x in stats.items():
        if stat not in BUFF_STATS:
            v.add("field.unknown", f"{where}.stats.{stat}", allowed=", ".join(BUFF_STATS))
            ok = False
        elif stat in PCT_STATS and (not isinstance(x, int) or isinstance(x, bool) or abs(x) not in PCT_PIPS
                                    or (stat == "strike_fail" and x < 0)):
            v.add("hunlu.catalogue.pct", f"{where}.stats.{stat}", value=x)
            ok = False
        elif stat in STAT_RANGES and not num_ok(x, *STAT_RANGES[stat]):
            lo, hi, whole = STAT_RANGES[stat]
            v.add("hunlu.catalogue.value", f"{where}.stats.{stat}", value=x,
                  allowed=f"{lo}..{hi}" + ("" if whole else " (0.5 步长)"))
            ok = False
    for k, test in BUFF_CHECKS.items():
        if k in val and not test(val[k]):
            v.add("hunlu.catalogue.value", f"{where}.{k}", value=val[k], allowed=BUFF_SHAPES[k])
            ok = False
    heart = val.get("heart")
    if heart is not None:
        if not isinstance(heart, dict) or not set(heart) <= {"A", "B"} or \
                not all(isinstance(x, list) for x in heart.values()):
            v.add("hunlu.catalogue.heart", f"{where}.heart")
            return False
        for card, effs in heart.items():
            ok = all([check_effect(v, sub, f"{where}.heart.{card}.{i}") for i, sub in enumerate(effs)]) and ok
    return ok


class EffectKind:
    """One kind of effect: its ``name`` (the key a catalogue writes), how its value is checked,
    and what it does to one target."""

    name: ClassVar[str] = ""
    allowed: ClassVar[str] = ""  # what a value may be, told when it is wrong
    hurts: ClassVar[bool] = False  # deals damage: a skill's chance is judged after it (ruling R25)
    moves_caster: ClassVar[bool] = False  # moves the caster before any target is struck (see :meth:`move`)
    needs_direction: ClassVar[bool] = False  # the sheet must give a direction, whatever the shape

    def valid(self, val: Any) -> bool:
        return True

    def check(self, v: Validator, val: Any, where: str) -> bool:
        """Is ``val`` a value the engine reads? False after adding the problem at ``where``."""
        if self.valid(val):
            return True
        v.add("hunlu.catalogue.value", where, value=val, allowed=self.allowed)
        return False

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        """Do it to ``tgt``; False when the skill's remaining effects miss this target (ruling R2)."""
        return True

    def idle(self, game: Game, u: Unit, val: Any, ctx: dict[str, Any]) -> bool:
        """Would it do nothing to ``u`` itself (a passive with nothing to do is not told)?"""
        return False

    def pays_on_reveal(self, val: Any) -> bool:
        """Is the skill's 气 paid when a card is shown rather than when cast (心战, l.120)?"""
        return False

    def move(self, game: Game, u: Unit, val: Any, act: dict[str, Any], tgts: list[Unit]) -> None:
        """Move the caster (``moves_caster``), before its targets are struck."""


class Strike(EffectKind):
    """One strike (H10): the skill's remaining effects miss a target it does not reach (R2)."""

    name, allowed, hurts = "strike", "0-99 (0.5 步长)", True

    def valid(self, val: Any) -> bool:
        return val is None or val is True or num_ok(val, 0, 99)

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        base = (val if isinstance(val, (int, float)) and not isinstance(val, bool) else 1) \
            + game.mod(caster, sk["id"], "damage")
        dealt = game.strike(caster, tgt, base, sk["name"], sk=sk)
        ctx["dealt"] = dealt or 0
        if game.negated:
            game.emit("negated", unit=tgt["id"], skill=sk["id"])
            return False
        return dealt is not None


class Damage(EffectKind):
    """A damage that is not a strike: only 元抗 judged (H9); a bonus under a condition."""

    name, hurts = "damage", True

    def check(self, v: Validator, val: Any, where: str) -> bool:
        if isinstance(val, dict):
            bonus = val.get("bonus")
            if not num_ok(val.get("amount"), 0, 99) or set(val) - {"amount", "bonus"} or (
                    bonus is not None and not (isinstance(bonus, dict) and cond_ok(bonus.get("if"))
                                               and num_ok(bonus.get("add"), 0, 99))):
                v.add("hunlu.catalogue.value", where, value=val, allowed="X | {amount: X, bonus: {if: COND, add: X}}")
                return False
        elif not num_ok(val, 0, 99):
            v.add("hunlu.catalogue.value", where, value=val, allowed="0-99 (0.5 步长)")
            return False
        return True

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        amount = val["amount"] if isinstance(val, dict) else val
        bonus = val.get("bonus") if isinstance(val, dict) else None
        if bonus and game.cond(bonus["if"], caster, tgt, ctx):
            amount += bonus["add"]
        ctx["dealt"] = game.element_damage(caster, tgt, amount + game.mod(caster, sk["id"], "damage"), sk["name"])
        return True


class Knockback(EffectKind):
    """Pushed away from the caster (or the skill's origin) (H21)."""

    name, allowed = "knockback", "N | {cells: N, collide: X, push_behind: true|false}"

    def valid(self, val: Any) -> bool:
        if isinstance(val, dict):
            return not (set(val) - {"cells", "collide", "push_behind"} or not num_ok(val.get("cells", 1), 0, 26, True)
                        or not num_ok(val.get("collide", 0), 0, 99)
                        or not isinstance(val.get("push_behind", False), bool))
        return num_ok(val, 0, 26, True)

    def check(self, v: Validator, val: Any, where: str) -> bool:
        if self.valid(val):
            return True
        v.add("hunlu.catalogue.value", where, value=val, allowed=self.allowed if isinstance(val, dict) else "0-26")
        return False

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        src = ctx.get("origin") or game.cell(caster)
        if src is not None and tgt is not caster:
            game.knockback(src, tgt, val, caster, int(game.mod(caster, sk["id"], "knockback")))
        return True


class Dash(EffectKind):
    """A charge of N points along the sheet's direction, stopping in front of its target (R16)."""

    name, allowed, moves_caster, needs_direction = "dash", "0-26", True, True

    def valid(self, val: Any) -> bool:
        return num_ok(val, 0, 26, True)

    def move(self, game: Game, u: Unit, val: Any, act: dict[str, Any], tgts: list[Unit]) -> None:
        d = R.DIRECTIONS.get(act.get("direction") or "")
        if d is None:
            raise Skip("need_direction", field="direction")
        cells = int(val)
        t = next((x for x in tgts if x is not u), None)
        if t is not None:  # a charge stops in front of its target (ruling R16)
            tc, c = game.at(t), game.at(u)
            cells = min(cells, max(abs(tc[0] - c[0]), abs(tc[1] - c[1])) - 1)
        game.slide(u, d, cells, dash=True)


class DashTo(EffectKind):
    """To the point in front of or behind the target, when it is free."""

    name, allowed, moves_caster = "dash_to", "front, back", True

    def valid(self, val: Any) -> bool:
        return val in ("front", "back")

    def move(self, game: Game, u: Unit, val: Any, act: dict[str, Any], tgts: list[Unit]) -> None:
        t = next((x for x in tgts if x is not u), None)
        if t is None:
            return
        front, back = R.front_back(game.at(u), game.at(t))
        dest: Cell = front if val == "front" else back
        if in_bounds(dest, game.width, game.height) and not game.blocked(dest) and game.terrain.get(dest) != 3:
            u["pos"] = cell_name(dest)


class Heal(EffectKind):
    """精 back (a negative value is a damage)."""

    name, allowed = "heal", "-99..99 (0.5 步长)"

    def valid(self, val: Any) -> bool:
        return num_ok(val, -99, 99)

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        if val >= 0:
            game.heal(tgt, val, sk["name"])
        else:
            game.hurt(tgt, -val, caster, sk["name"])
        return True

    def idle(self, game: Game, u: Unit, val: Any, ctx: dict[str, Any]) -> bool:
        return bool(val >= 0 and u["jing"] >= u["max_jing"])


class Qi(EffectKind):
    """气 gained or lost; a gain may pass the maximum (战斗潜能's 10 气, ruling R4)."""

    name, allowed = "qi", "-99..99 (0.5 步长)"

    def valid(self, val: Any) -> bool:
        return num_ok(val, -99, 99)

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        new = R.num(tgt["qi"] + val) if val > 0 else R.num(min(tgt["max_qi"], max(0, tgt["qi"] + val)))
        tgt["qi"] = new
        game.emit("qi", unit=tgt["id"], change=val, value=new)
        return True


class Shen(EffectKind):
    """神 gained or lost, within 0 and the maximum; 神 0 is 寂灭 (l.22-23)."""

    name, allowed = "shen", "-99..99"

    def valid(self, val: Any) -> bool:
        return num_ok(val, -99, 99, True)

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        tgt["shen"] = max(0, min(tgt["max_shen"], tgt["shen"] + int(val)))
        game.emit("shen", unit=tgt["id"], shen=tgt["shen"], why=sk["name"])
        game.silence_at_zero(tgt)
        return True


class Status(EffectKind):
    """A named status (l.94-113) for some rounds."""

    name = "status"

    def check(self, v: Validator, val: Any, where: str) -> bool:
        if not isinstance(val, dict) or val.get("name") not in STATUS_NAMES:
            v.add("field.choice", f"{where}.name", value=(val or {}).get("name") if isinstance(val, dict) else val,
                  allowed=", ".join(STATUS_NAMES))
            return False
        if not rounds_ok(val) or set(val) - {"name", "rounds"}:
            v.add("hunlu.catalogue.value", where, value=val, allowed="{name, rounds: 1-99 | null}")
            return False
        return True

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        st = {"name": val["name"], "rounds": val.get("rounds", 1), "skill": sk["id"]}
        game.add_status(tgt, st, caster, at_once=ctx.get("at_once", False))
        return True


class Buff(EffectKind):
    """A status of the skill's own: stats, attributes off, absorb, immunity, round-end heal,
    skill changes, or a 心战 card face down (l.120)."""

    name = "buff"

    def check(self, v: Validator, val: Any, where: str) -> bool:
        if not isinstance(val, dict):
            v.add("field.type", where, expected="mapping", got=type(val).__name__)
            return False
        if False in val:  # YAML 1.1 reads a bare `off:` key as false
            val["off"] = val.pop(False)
        return check_buff(v, val, where)

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        st = {"name": val.get("name") or sk["name"], "rounds": val.get("rounds", 1), "skill": sk["id"]}
        for k in ("stats", "off", "absorb", "immune", "round_end", "skill_mods", "heart"):
            if val.get(k):
                st[k] = val[k]
        if val.get("heart"):  # 心战 (l.120): the card lies face down until the status ends
            st["heart_card"] = ctx.get("card") or "none"
            st["heart_owner"] = caster["player"]
        at_once = ctx.get("at_once", False) or sk["timing"] in ("toggle",) or \
            (sk["timing"] == "passive" and sk["trigger"] == "static")
        game.add_status(tgt, st, caster, at_once=at_once)
        return True

    def pays_on_reveal(self, val: Any) -> bool:
        return "heart" in (val or {})


class Flag(EffectKind):
    """An effect written ``true``."""

    allowed = "true"

    def valid(self, val: Any) -> bool:
        return val is True


class NegateEffects(Flag):
    """A passive on being attacked: the attack's effects miss."""

    name = "negate_effects"

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        ctx["negated"] = True
        return True


class If(EffectKind):
    """``{cond, then}``: the effects of ``then`` when the condition holds."""

    name = "if"

    def check(self, v: Validator, val: Any, where: str) -> bool:
        if not isinstance(val, dict) or not isinstance(val.get("then"), list) or not cond_ok(val.get("cond")) \
                or set(val) - {"cond", "then"}:
            v.add("hunlu.catalogue.if", where)
            return False
        return all([check_effect(v, sub, f"{where}.then.{i}") for i, sub in enumerate(val["then"])])

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        if game.cond(val["cond"], caster, tgt, ctx):
            for sub in val["then"]:
                if not game.effect(caster, tgt, sub, sk, ctx):
                    return False
        return True

    def idle(self, game: Game, u: Unit, val: Any, ctx: dict[str, Any]) -> bool:
        return not game.cond(val["cond"], u, u, ctx)


class RepeatDamage(Flag):
    """The damage just dealt, dealt again."""

    name = "repeat_damage"

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        if ctx.get("dealt"):
            game.hurt(tgt, ctx["dealt"], caster, sk["name"])
        return True


class ReflectRound(Flag):
    """At the round's end, the damage taken this round goes back to who dealt it."""

    name = "reflect_round"

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        tgt["round"]["reflect"] = True
        game.emit("reflect_set", unit=tgt["id"])
        return True


class Ward(EffectKind):
    """The next 神 losses warded off (and turned back with ``reflect``)."""

    name, allowed = "ward", "{kind: shen, count: N, reflect: true|false}"

    def valid(self, val: Any) -> bool:
        return (isinstance(val, dict) and val.get("kind", "shen") == "shen" and num_ok(val.get("count", 1), 1, 99, True)
                and isinstance(val.get("reflect", False), bool) and not set(val) - {"kind", "count", "reflect"})

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        tgt["wards"].append({"kind": val.get("kind", "shen"), "count": val.get("count", 1),
                             "reflect": bool(val.get("reflect"))})
        game.emit("ward_set", unit=tgt["id"], kind=val.get("kind", "shen"))
        return True


class ExtraTurn(Flag):
    """「跳过当前回合，立即执行自己的一个回合，下回合无法行动」 (l.181, ruling R5): the turn is queued
    after the general-turn in progress; the stop comes when it is over (end_turn)."""

    name = "extra_turn"

    def apply(self, game: Game, caster: Unit, tgt: Unit, val: Any, sk: dict[str, Any], ctx: dict[str, Any]) -> bool:
        s = game.s
        if tgt["id"] not in s["extra"]:
            s["extra"].append(tgt["id"])
        tgt["stop_after_extra"] = True
        if tgt["id"] not in s["acted"]:
            s["acted"].append(tgt["id"])  # 「跳过当前回合」
        game.emit("extra_turn", unit=tgt["id"])
        return True


HANDLERS: tuple[EffectKind, ...] = (Strike(), Damage(), Knockback(), Dash(), DashTo(), Heal(), Qi(), Shen(), Status(),
                                    Buff(), NegateEffects(), If(), RepeatDamage(), ReflectRound(), Ward(), ExtraTurn())
EFFECTS: dict[str, EffectKind] = {h.name: h for h in HANDLERS}


def kind_of(effect: dict[str, Any]) -> tuple[EffectKind, Any]:
    """The handler of a checked effect ``{name: value}``, and its value."""
    (key, val), = effect.items()
    return EFFECTS[key], val


def check_effect(v: Validator, e: Any, path: str) -> bool:
    """One effect, its value checked against what the engine reads; False (with a problem) if bad."""
    if not isinstance(e, dict) or len(e) != 1 or not isinstance(next(iter(e)), str):
        v.add("hunlu.catalogue.effect", path, allowed=", ".join(EFFECTS))
        return False
    (key, val), = e.items()
    where = f"{path}.{key}"
    kind = EFFECTS.get(key)
    if kind is None:
        v.add("hunlu.catalogue.effect", where, allowed=", ".join(EFFECTS))
        return False
    return kind.check(v, val, where)


# the engine's side: effects done, conditions judged, passives set off ------------------------------
def passives(g: Game, u: dict[str, Any], trigger: Callable[[Any], bool], ctx: dict[str, Any] | None = None) -> None:
    for sk in g.skills(u):
        if sk["timing"] != "passive" or not trigger(sk["trigger"]):
            continue
        if not u["alive"] and not isinstance(sk["trigger"], str):
            continue
        if sk["once"] and sk["id"] in u["once"]:
            continue
        if sk["chance"] is not None and not g.chance_check(u, sk["chance"], sk["name"]):
            continue
        if g.idle(u, sk["effects"], ctx or {}):
            continue  # nothing it could do (天剑行 after dealing damage): no line
        if sk["once"]:
            u["once"].append(sk["id"])
        g.emit("passive", unit=u["id"], skill=sk["id"], name=sk["name"])
        for eff in sk["effects"]:
            g.effect(u, u, eff, sk, ctx or {})


def idle(g: Game, u: dict[str, Any], effects: list[dict[str, Any]], ctx: dict[str, Any]) -> bool:
    """Would a passive's effects on ``u`` itself do nothing: every one a condition that does
    not hold or a heal at full 精?"""
    for eff in effects:
        kind, val = kind_of(eff)
        if not kind.idle(g, u, val, ctx):
            return False
    return True


def effect(g: Game, caster: dict[str, Any], tgt: dict[str, Any], eff: dict[str, Any], sk: dict[str, Any],
           ctx: dict[str, Any]) -> bool:
    """One effect on one target, in data order. Returns False when the strike was nullified
    (the skill's remaining effects miss this target, ruling R2)."""
    kind, val = kind_of(eff)
    if g.s["winner"] is not None or not tgt["alive"] or (tgt["pos"] is None and tgt["role"] == "main"):
        # the game is over, the target dead or in a 天堑 (「立即移出战场」, l.126): nothing more lands
        return False
    return kind.apply(g, caster, tgt, val, sk, ctx)


def cond(g: Game, cond: Any, caster: dict[str, Any], tgt: dict[str, Any], ctx: dict[str, Any]) -> bool:
    if cond == "lost_more_than_left":
        return tgt["max_jing"] - tgt["jing"] > tgt["jing"]
    if cond == "no_damage_dealt":
        return not caster["round"]["dealt"]
    if cond == "not_damaged":
        return not tgt["round"]["damaged"]
    if isinstance(cond, dict) and "within" in cond:
        a, b = g.cell(caster), g.cell(tgt)
        return a is not None and b is not None and R.in_square(a, b, cond["within"])
    return False

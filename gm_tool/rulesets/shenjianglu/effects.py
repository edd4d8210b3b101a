"""The card primitives of 神将录 (docs/shenjianglu.md "Cards"), one handler each, in one table
(``EFFECTS``) that the card reader (cards.py: what a card may write, in English or the seed's
words) and the engine (engine.py: what it does) share. Nothing dispatches on an effect's name
anywhere else: a new primitive is one class here and one line in the table.

A card's effect is a one-key mapping, ``{damage: 2}``; its handler is ``EFFECTS["damage"]``.

- One-off effects (``one_off``) happen once, when a skill, spell or trigger resolves:
  :meth:`Effect.apply` on the engine's turn, after :meth:`Effect.provokes` says whether it makes
  its target attacked (附录 攻擊的定義, ruling 5).
- Standing effects (``standing``) hold while their card is on the board (an auto skill without
  ``when``, equipment while worn): the engine asks each for what it changes, through the hooks
  :meth:`Effect.stats` (the unit's numbers), :meth:`Effect.incoming` (damage it takes),
  :meth:`Effect.outgoing` (damage it deals), :meth:`Effect.shields` (a source it ignores); a
  flag (``haste``, ``no_counter``, ``immune: spell``) is read by name (``Turn.has``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from gm_tool.core.grid import cell_name
from gm_tool.core.schema import type_name
from gm_tool.rulesets.shenjianglu.geometry import CELLS, OPPOSITE, VECTORS, direction
from gm_tool.rulesets.shenjianglu.keys import aliases

if TYPE_CHECKING:
    from gm_tool.rulesets.shenjianglu.cards import Reader
    from gm_tool.rulesets.shenjianglu.engine import Turn

Unit = dict[str, Any]

STATS = ("attack", "stamina", "move")
STAT_KEYS = aliases({"attack": ("武力",), "stamina": ("体力", "體力"), "move": ("移动力", "移動力")})
BONUS_KEYS = aliases({"kind": ("细分类型", "細分類型"), "damage": ("伤害", "傷害"), "from": ("方位", "来自", "來自")})
REDUCE_KEYS = aliases({"kind": ("细分类型", "細分類型"), "amount": ("数值", "數值", "减伤", "減傷"),
                        "from": ("方位", "来自", "來自")})
IMMUNE_KEYS = aliases({"kind": ("细分类型", "細分類型")})
SIDE_VALUES = aliases({"front": ("前", "正面", "前方"), "back": ("后", "後", "背后", "背後", "背面"),
                        "side": ("侧", "側", "侧面", "側面")})
FACE_VALUES = aliases({"N": ("n", "北"), "E": ("e", "东", "東"), "S": ("s", "南"), "W": ("w", "西"),
                        "back": ("背", "后", "後", "转身", "轉身")})
IMMUNE_VALUES = aliases({"spell": ("法术", "法術")})


class Effect:
    """One primitive: how a card writes it (``name``, ``aliases``, :meth:`read`), and what it does."""

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    one_off: ClassVar[bool] = False  # done once by a skill, a spell or a trigger
    standing: ClassVar[bool] = False  # holds while its card is on the board
    needs_unit: ClassVar[bool] = False  # only a unit can do it: never a spell's
    harmful: ClassVar[bool] = False  # meant against an enemy (:meth:`harms`)

    def read(self, r: Reader, value: Any, path: str) -> Any | None:
        """The canonical value of ``{name: value}``, or None with the problem added to ``r``."""
        raise NotImplementedError

    def harms(self, value: Any) -> bool:
        """Whether ``{name: value}`` is meant against an enemy: the bots aim a card or skill with
        such an effect at enemies, any other at their own units."""
        return self.harmful

    # one-off -----------------------------------------------------------------------------------
    def provokes(self, value: Any, controller: str, target: Unit) -> bool:
        """Whether doing it makes the target attacked before it happens (ruling 5)."""
        return False

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        """Do it to ``target``: ``source`` is the unit doing it (None for a spell), ``controller``
        the player whose card it is, ``how`` the kind of damage it deals (``skill``, ``spell``)."""
        raise NotImplementedError

    # standing ----------------------------------------------------------------------------------
    def stats(self, value: Any, stats: dict[str, int]) -> None:
        """Change the unit's numbers (before its buffs of the turn)."""

    def incoming(self, t: Turn, value: Any, amount: int, source: Unit | None, target: Unit) -> int:
        """The damage ``target`` (who holds the effect) takes, from ``amount``."""
        return amount

    def outgoing(self, t: Turn, value: Any, amount: int, source: Unit, target: Unit) -> int:
        """The damage ``source`` (who holds the effect) deals to ``target``, from ``amount``."""
        return amount

    def shields(self, value: Any, kind: str) -> bool:
        """Whether nothing a unit of 细分类型 ``kind`` does reaches the holder."""
        return False


class Amount(Effect):
    """A number: ``damage: 2``."""

    low: ClassVar[int] = 0

    def read(self, r: Reader, value: Any, path: str) -> Any | None:
        return r.integer(value, path, self.low, 20)


class Flag(Effect):
    """``haste: true``: written true or left out."""

    standing = True

    def read(self, r: Reader, value: Any, path: str) -> Any | None:
        return True if r.flag(value, path) else None


def stat_changes(r: Reader, value: Any, path: str, lo: int) -> dict[str, int]:
    """``{attack?, stamina?, move?}``, at least one."""
    data = r.keys(value, STAT_KEYS, path) or {}
    out = {}
    for k in STATS:
        if k in data:
            n = r.integer(data[k], f"{path}.{k}", lo, 20)
            if n is not None:
                out[k] = n
    if not out and data is not None and isinstance(value, dict) and not r.problems:
        r.bad("field.required", path)
    return out


def conditional(r: Reader, v: Any, p: str, table: dict[str, str], amount: str) -> dict[str, Any] | None:
    """A standing effect limited to some attackers: ``{kind?, from?, <amount>}`` (``bonus``,
    ``reduce``)."""
    data = r.keys(v, table, p)
    if data is None:
        return None
    out: dict[str, Any] = {}
    if "kind" in data:
        out["kind"] = r.text(data["kind"], f"{p}.kind")
    if "from" in data:
        out["from"] = r.choice(data["from"], SIDE_VALUES, f"{p}.from")
    if amount not in data:
        r.bad("field.required", f"{p}.{amount}")
        return None
    n = r.integer(data[amount], f"{p}.{amount}", 0, 20)
    if n is None or None in out.values():
        return None
    out[amount] = n
    return out


# one-off effects ----------------------------------------------------------------------------------
class Damage(Amount):
    """An attack with damage (S15: answered by a counter; the engine's ``strike``). It makes its
    target attacked itself, as it lands, so :meth:`provokes` stays False."""

    name, aliases, one_off, harmful = "damage", ("伤害", "傷害"), True, True

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        t.strike(source, target, value, how)


class Heal(Amount):
    """Damage taken this turn taken off again (a king's lost 体力 never comes back, l.31)."""

    name, aliases, one_off = "heal", ("回复", "回復", "治疗", "治療"), True

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        if target["king"]:
            t.emit("no_effect", unit=target["id"], effect="heal")
            return
        healed = min(value, target["damage"])
        target["damage"] -= healed
        t.emit("heal", unit=target["id"], amount=healed)


class Face(Effect):
    """Turn the target to face N, E, S, W, or about (``back``) (3.10)."""

    name, aliases, one_off, harmful = "face", ("转向", "轉向", "朝向"), True, True

    def read(self, r: Reader, value: Any, path: str) -> Any | None:
        return r.choice(value, FACE_VALUES, path)

    def provokes(self, value: Any, controller: str, target: Unit) -> bool:
        return controller != target["owner"]

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        target["facing"] = OPPOSITE[target["facing"]] if value == "back" else value
        t.emit("face", unit=target["id"], facing=target["facing"])


class Draw(Amount):
    """The controller draws N cards (no penalty for an empty deck: that is the draw phase's)."""

    name, aliases, one_off = "draw", ("摸牌",), True

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        t.draw(t.seat_by_player[controller], value, penalty=False)


class Mana(Amount):
    """N more 法力 this turn, for the player whose turn it is."""

    name, aliases, one_off = "mana", ("法力",), True

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        if controller == t.player:
            t.mana += value
            t.emit("mana", player=controller, amount=value, mana=t.mana)
        else:
            t.emit("no_effect", unit=target["id"], effect="mana")


class Buff(Effect):
    """``{attack?, stamina?, move?}`` added: until the end of the turn (one-off), or while its card
    is on the board (standing)."""

    name, aliases, one_off, standing = "buff", ("增益", "加成"), True, True

    def read(self, r: Reader, value: Any, path: str) -> Any | None:
        return stat_changes(r, value, path, -20) or None

    def harms(self, value: Any) -> bool:
        return min(value.values()) < 0  # a stat lowered

    def provokes(self, value: Any, controller: str, target: Unit) -> bool:
        return controller != target["owner"] and self.harms(value)

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        target["buffs"].append(dict(value))
        t.restat(target)
        t.emit("buff", unit=target["id"], buff=dict(value), attack=target["attack"], stamina=target["stamina"],
               move=target["move"])

    def stats(self, value: Any, stats: dict[str, int]) -> None:
        for k, v in value.items():
            stats[k] += v


class Shove(Amount):
    """``push`` N cells straight away from the unit doing it, ``pull`` towards it (ruling 30); a
    spell's push sends the target backwards, its pull forwards. It stops before the board's edge,
    a void cell or any unit, and never turns the target (3.10)."""

    low, one_off = 1, True
    towards: ClassVar[bool] = False

    def provokes(self, value: Any, controller: str, target: Unit) -> bool:
        return controller != target["owner"]

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        here = CELLS[target["pos"]]
        step = direction(CELLS[source["pos"]], here) if source is not None and source is not target else None
        if step is None:
            fx, fy = VECTORS[target["facing"]]
            step = (fx, fy) if self.towards else (-fx, -fy)
        elif self.towards:
            step = (-step[0], -step[1])
        occupied = {CELLS[u["pos"]] for u in t.s["units"]}
        cur, moved = here, 0
        for _ in range(value):
            nxt = (cur[0] + step[0], cur[1] + step[1])
            if not t.board.on_board(nxt) or nxt in occupied:
                break
            cur, moved = nxt, moved + 1
        target["pos"] = cell_name(cur)
        t.emit("shoved" if moved else "not_shoved", unit=target["id"], frm=cell_name(here), pos=target["pos"],
               cells=moved, how=self.name)


class Push(Shove):
    name, aliases = "push", ("击退", "擊退", "推开", "推開")


class Pull(Shove):
    name, aliases, towards = "pull", ("拉近", "牵引", "牽引"), True


class Capture(Flag):
    """收服 (l.49): the target goes under the unit doing it (never a king, never a spell's)."""

    name, aliases, one_off, standing, needs_unit = "capture", ("收服",), True, False, True

    def provokes(self, value: Any, controller: str, target: Unit) -> bool:
        return controller != target["owner"]

    def apply(self, t: Turn, value: Any, source: Unit | None, target: Unit, controller: str, how: str) -> None:
        if source is None or source is target or target["king"] or source["id"] not in t.units:
            t.emit("no_effect", unit=target["id"], effect="capture")
        else:
            t.remove(target, "captured", captor=source)


# standing effects ---------------------------------------------------------------------------------
class Reduce(Effect):
    """Damage taken less N (never below 0): from anyone (``reduce: 1``), or from some attackers
    (``{kind?, from?, amount}``)."""

    name, aliases, standing = "reduce", ("减伤", "減傷"), True

    def read(self, r: Reader, value: Any, path: str) -> Any | None:
        if isinstance(value, dict):
            return conditional(r, value, path, REDUCE_KEYS, "amount") or None
        return r.integer(value, path, 0, 20)

    def incoming(self, t: Turn, value: Any, amount: int, source: Unit | None, target: Unit) -> int:
        if isinstance(value, int):
            return max(0, amount - value)
        if source is not None and t.matches(value, source, target, source):
            return max(0, amount - value["amount"])
        return amount


class Cap(Amount):
    """At most N damage from any one blow."""

    name, aliases, standing = "cap", ("伤害上限", "傷害上限", "上限"), True

    def incoming(self, t: Turn, value: Any, amount: int, source: Unit | None, target: Unit) -> int:
        return min(amount, value)


class Bonus(Effect):
    """N more damage against some targets: ``{kind?, from?, damage}``, at least a kind or a side."""

    name, aliases, standing = "bonus", ("克制",), True

    def read(self, r: Reader, value: Any, path: str) -> Any | None:
        cond = conditional(r, value, path, BONUS_KEYS, "damage")
        if cond is not None and "kind" not in cond and "from" not in cond:
            r.bad("field.required", f"{path}.kind")
            return None
        return cond or None

    def outgoing(self, t: Turn, value: Any, amount: int, source: Unit, target: Unit) -> int:
        return amount + value["damage"] if t.matches(value, source, target, target) else amount


class Immune(Effect):
    """``immune: spell`` (no spell reaches it) or ``immune: {kind: X}`` (nothing a unit of 细分类型
    X does reaches it)."""

    name, aliases, standing = "immune", ("免疫",), True

    def read(self, r: Reader, value: Any, path: str) -> Any | None:
        if isinstance(value, dict):
            data = r.keys(value, IMMUNE_KEYS, path) or {}
            kind = r.text(data.get("kind"), f"{path}.kind")
            return {"kind": kind} if kind else None
        return r.choice(value, IMMUNE_VALUES, path)

    def shields(self, value: Any, kind: str) -> bool:
        return isinstance(value, dict) and value["kind"] == kind


class Haste(Flag):
    """No 立足时间: it may act on the turn it arrives (l.115)."""

    name, aliases = "haste", ("迅捷", "无立足时间", "無立足時間")


class NoCounter(Flag):
    """Its attacks are never answered by a counter (S15)."""

    name, aliases = "no_counter", ("不被反击", "不被反擊")


HANDLERS: tuple[Effect, ...] = (Damage(), Heal(), Face(), Draw(), Mana(), Buff(), Reduce(), Cap(), Bonus(), Immune(),
                                Haste(), NoCounter(), Push(), Pull(), Capture())
EFFECTS: dict[str, Effect] = {h.name: h for h in HANDLERS}
EFFECT_KEYS = aliases({h.name: h.aliases for h in HANDLERS})  # every spelling -> its name
ONE_OFF = tuple(h.name for h in HANDLERS if h.one_off)
STANDING = tuple(h.name for h in HANDLERS if h.standing)
SPELL_EFFECTS = tuple(h.name for h in HANDLERS if h.one_off and not h.needs_unit)


def read_effects(r: Reader, value: Any, path: str, allowed: tuple[str, ...]) -> list[dict[str, Any]]:
    """A card's list of effects, each one of ``allowed`` (by any spelling), read by its handler."""
    if not isinstance(value, list) or not value:
        r.bad("shenjianglu.type.effects", path, got=type_name(value))
        return []
    out: list[dict[str, Any]] = []
    table = {a: k for a, k in EFFECT_KEYS.items() if k in allowed}
    for i, raw in enumerate(value, 1):
        p = f"{path}.{i}"
        data = r.keys(raw, table, p)
        if data is None:
            continue
        if len(data) != 1:
            if data:
                r.bad("shenjianglu.card.one_effect", p)
            elif isinstance(raw, dict) and not raw:
                r.bad("field.required", p)
            continue
        (key, v), = data.items()
        got = EFFECTS[key].read(r, v, f"{p}.{key}")
        if got is not None:
            out.append({key: got})
    return out

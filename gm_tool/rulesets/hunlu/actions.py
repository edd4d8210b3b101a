"""The kinds of action a 魂陆 sheet holds (contract section 3), one class each
(``gm_tool.core.actions``), in the table :data:`ACTIONS`:

- ``move: CELL | [CELL, CELL]`` (:class:`Move`, 移动): one or two legs along a line (H20-H22);
- ``attack: UNIT`` (:class:`Attack`, 普攻): a strike at an enemy in range (H10, H14);
- ``skill: SKILL`` (:class:`Skill`, 技能) and ``item: ITEM`` (:class:`Item`, 物品) with ``target``
  (目标), ``at`` (位置), ``direction`` (方向) or ``card`` (心战) as the skill's shape needs (H6);
- ``substitute: RESERVE`` (:class:`Substitute`, 替换): the general leaves for a reserve at the next
  round start, the sheet's only action (H15).

Each reads its entry of a sheet in the parsed form (``{"kind": "move", "to": ["C3"]}``, every
problem by field, :meth:`HunluKind.read`), lists what the general due may do with it now
(:meth:`HunluKind.candidates` on a game: the bots choose among them, the template lists them;
:meth:`HunluKind.options` keeps those `gm check` accepts), and carries an action out on a
:class:`~.engine.Game` (:meth:`HunluKind.act`): an action the state does not allow raises
:class:`~.skip.Skip` before it changes anything. :func:`run` plays a sheet's list of actions,
checking (``gm check``) or resolving.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from gm_tool.core.actions import ActionKind, ActionTable, Reading
from gm_tool.core.grid import cell_name, in_bounds
from gm_tool.core.schema import Validator
from gm_tool.rulesets.hunlu import rules as R
from gm_tool.rulesets.hunlu.effects import kind_of
from gm_tool.rulesets.hunlu.engine import Dice, Game, fork, skills_of
from gm_tool.rulesets.hunlu.skip import Skip

State = dict[str, Any]
Unit = dict[str, Any]
Action = dict[str, Any]  # the parsed form: {"kind": ..., and the kind's own keys}

DIRECTION = {"up": "up", "down": "down", "left": "left", "right": "right", "上": "up", "下": "down",
             "左": "left", "右": "right", "北": "up", "南": "down", "西": "left", "东": "right"}
CARDS = {"A": "A", "B": "B", "none": "none", "未启用": "none", "a": "A", "b": "B"}
SKILL_FIELDS: dict[str, tuple[str, ...]] = {"target": ("目标",), "at": ("位置",), "direction": ("方向",), "card": ("心战",)}


def _stub() -> int:
    return 4


def check_game(state: State) -> Game:
    """A game on a copy of ``state`` that checks: no damage, no luck (every die a 4)."""
    g = Game(fork(state), Dice({"dice": []}, None, _stub))
    g.checking = True
    return g


def find_unit(v: Validator, state: State, ref: str, path: str,
              likely: Callable[[Unit], bool] = lambda u: True) -> str:
    """A unit id, or a general's name: the one unit of that name among the ``likely`` ones (an
    enemy for an attack, one's own reserve for 替换), else among all. A name two units share is
    refused, listing their ids; an unknown name is returned as it is (refused where it is used)."""
    if any(u["id"] == ref for u in state["units"]):
        return ref
    named = [u for u in state["units"] if u["name"] == ref]
    for pool in ([u for u in named if likely(u)], named):
        if len(pool) == 1:
            return str(pool[0]["id"])
        if len(pool) > 1:
            v.add("hunlu.orders.ambiguous", path, name=ref, ids=", ".join(u["id"] for u in pool))
            return ref
    return ref


class SheetReading(Reading[State]):
    """Reading one action of a sheet: the sheet's validator (problems named in the sheet's
    words) and the general due."""

    def __init__(self, v: Validator, state: State, unit: Unit):
        super().__init__(state, unit["player"], v.source)
        self.v, self.unit = v, unit


class HunluKind(ActionKind[State, Action, Game]):
    """One kind of action of 魂陆: ``name`` and ``aliases`` (the seed's word), ``fields`` (the
    entry's other keys with their Chinese words), and how it is read, offered and done."""

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[State], path: str) -> Action | None:
        assert isinstance(reading, SheetReading)
        return self.read_value(reading.v, reading.state, reading.unit, value, entry, path)

    def read_value(self, v: Validator, state: State, u: Unit, value: Any, rest: dict[str, Any],
                   path: str) -> Action | None:
        """The action an entry stands for (``value`` under the kind's key, ``rest`` the other
        fields by canonical name), or None after adding its problems to ``v``."""
        raise NotImplementedError

    def candidates(self, g: Game, u: Unit) -> list[Action]:
        """The actions of this kind worth trying for ``u`` now, in a stable order (not all legal:
        :meth:`options` tries each)."""
        return []

    def written(self, a: Action) -> dict[str, Any]:
        """An action as a sheet writes it (canonical keys)."""
        raise NotImplementedError

    def options(self, state: State, actor: str) -> list[dict[str, Any]]:
        """The entries the general due may write now, each tried on a checking copy."""
        nxt = state.get("next")
        if not nxt or nxt["player"] != actor or state.get("winner") is not None:
            return []
        g = check_game(state)
        u = g.units[nxt["unit"]]
        return [self.written(a) for a in self.candidates(g, u) if tried(g, u["id"], a, alone=True) is not None]

    def act(self, g: Game, u: Unit, a: Action, count: int) -> None:
        """Carry out ``a`` for ``u`` (one of ``count`` actions on its sheet), or raise Skip."""
        raise NotImplementedError

    def apply(self, game: Game, order: Action) -> None:
        """The order played for the general due, as its sheet's only action."""
        self.act(game, game.units[game.s["next"]["unit"]], order, 1)


class Move(HunluKind):
    name, aliases = "move", ("移动",)

    def read_value(self, v: Validator, state: State, u: Unit, value: Any, rest: dict[str, Any],
                   path: str) -> Action | None:
        legs = value if isinstance(value, list) else [value]
        if not legs or len(legs) > 2:
            v.add("hunlu.skip.third_leg", f"{path}.move", used=0)
            return None
        w, h = state["map"]["width"], state["map"]["height"]
        cells = [v.cell(x, f"{path}.move" + (f".{k}" if isinstance(value, list) else ""), w, h)
                 for k, x in enumerate(legs)]
        if None in cells:
            return None
        return {"kind": "move", "to": [cell_name(c) for c in cells if c is not None]}

    @staticmethod
    def legs(g: Game, u: Unit) -> list[str]:
        """The points one straight leg may end on (the template lists them, the bots try them)."""
        c = g.cell(u)
        out: list[str] = []
        if c is None or g.has(u, "定身") or u["legs"] >= 2 or u["ap"] < 1:
            return out
        for d in R.DIRECTIONS.values():
            p = c
            for _ in range(u["move"]):
                p = (p[0] + d[0], p[1] + d[1])
                if not in_bounds(p, g.width, g.height) or g.terrain.get(p) == 3 or g.blocked(p):
                    break
                out.append(cell_name(p))
        return out

    def candidates(self, g: Game, u: Unit) -> list[Action]:
        return [{"kind": "move", "to": [cell]} for cell in self.legs(g, u)]

    def written(self, a: Action) -> dict[str, Any]:
        return {"move": a["to"][0] if len(a["to"]) == 1 else a["to"]}

    def act(self, g: Game, u: Unit, a: Action, count: int) -> None:
        g.do_move(u, a["to"])


class OnUnit(HunluKind):
    """A kind whose value names one general, by id or by its general's name (docs/hunlu.md)."""

    key: ClassVar[str] = ""  # where the parsed form keeps the general's id

    def likely(self, u: Unit, x: Unit) -> bool:
        """Is ``x`` the kind of general the name most likely means (for a name two units share)?"""
        return True

    def read_value(self, v: Validator, state: State, u: Unit, value: Any, rest: dict[str, Any],
                   path: str) -> Action | None:
        if not isinstance(value, str) or not value:
            v.add("field.type", f"{path}.{self.name}", expected="string", got=type(value).__name__)
            return None
        return {"kind": self.name,
                self.key: find_unit(v, state, value, f"{path}.{self.name}", lambda x: self.likely(u, x))}


class Attack(OnUnit):
    name, aliases, key = "attack", ("普攻",), "target"

    def likely(self, u: Unit, x: Unit) -> bool:
        return bool(x["side"] != u["side"] and x["alive"])

    def candidates(self, g: Game, u: Unit) -> list[Action]:
        """The enemies in range (H10: a straight line for the line elements, no obstacle between)."""
        return [{"kind": "attack", "target": t["id"]} for t in g.on_field()
                if g.enemies(u, t) and not g.reachable_target(u, t, g.range_of(u), flying=True)]

    def written(self, a: Action) -> dict[str, Any]:
        return {"attack": a["target"]}

    def act(self, g: Game, u: Unit, a: Action, count: int) -> None:
        g.do_attack(u, a["target"])


class Skill(HunluKind):
    name, aliases, fields = "skill", ("技能",), SKILL_FIELDS

    def read_value(self, v: Validator, state: State, u: Unit, value: Any, rest: dict[str, Any],
                   path: str) -> Action | None:
        if not isinstance(value, str):
            v.add("field.type", f"{path}.{self.name}", expected="string", got=type(value).__name__)
            return None
        out: Action = {"kind": self.name, self.name: self.named(state, u, value)}
        if "target" in rest:
            out["target"] = find_unit(v, state, str(rest["target"]), f"{path}.target",
                                      lambda x: x["alive"] and x["role"] == "main")
        if "at" in rest:
            c = v.cell(rest["at"], f"{path}.at", state["map"]["width"], state["map"]["height"])
            out["at"] = cell_name(c) if c else None
        if "direction" in rest:
            out["direction"] = v.choice(rest, "direction", DIRECTION, f"{path}.direction")
        if "card" in rest:
            out["card"] = v.choice(rest, "card", CARDS, f"{path}.card")
        return out

    def named(self, state: State, u: Unit, value: str) -> str:
        """A skill by id or by name."""
        return next((s["id"] for s in skills_of(state, u) if value in (s["id"], s["name"])), value)

    def candidates(self, g: Game, u: Unit) -> list[Action]:
        """Each active skill it has the 气 for, with each target or direction its shape takes (a
        point-shaped skill is left to the player)."""
        out: list[Action] = []
        for sk in g.skills(u):
            if sk["timing"] not in ("active",) or u["qi"] < g.skill_cost(u, sk):
                continue
            out.extend(self.aims(g, u, sk, {"kind": "skill", "skill": sk["id"]}))
        return out

    @staticmethod
    def aims(g: Game, u: Unit, sk: dict[str, Any], base: Action) -> list[Action]:
        if sk["shape"] == "single":
            return [{**base, "target": t["id"]} for t in g.on_field() if g.matches(u, t, sk["affects"])]
        if sk["shape"] in ("self", "all") and not any(kind_of(e)[0].needs_direction for e in sk["effects"]):
            return [base]
        if sk["shape"] != "point":
            return [{**base, "direction": d} for d in R.DIRECTIONS]
        return []

    def written(self, a: Action) -> dict[str, Any]:
        out = {self.name: a[self.name]}
        for k in ("target", "direction", "at", "card"):
            if a.get(k) is not None:
                out[k] = a[k]
        return out

    def act(self, g: Game, u: Unit, a: Action, count: int) -> None:
        g.do_skill(u, a)


class Item(Skill):
    name, aliases = "item", ("物品",)

    def named(self, state: State, u: Unit, value: str) -> str:
        return value

    def candidates(self, g: Game, u: Unit) -> list[Action]:
        out: list[Action] = []
        for iid in u["items"]:
            sk = g.s.get("items_def", {}).get(iid)
            if sk is not None:
                out.extend(self.aims(g, u, sk, {"kind": "item", "item": iid}))
        return out


class Substitute(OnUnit):
    name, aliases, key = "substitute", ("替换",), "reserve"

    def likely(self, u: Unit, x: Unit) -> bool:
        """A reserve of one's own."""
        return bool(x["player"] == u["player"] and x["role"] == "reserve" and x["alive"])

    def candidates(self, g: Game, u: Unit) -> list[Action]:
        return [{"kind": "substitute", "reserve": x["id"]} for x in g.s["units"]
                if x["player"] == u["player"] and x["role"] == "reserve" and x["alive"]]

    def written(self, a: Action) -> dict[str, Any]:
        return {"substitute": a["reserve"]}

    def act(self, g: Game, u: Unit, a: Action, count: int) -> None:
        """H15: two points, the sheet's only action; the reserve enters at the next round start."""
        rid = a["reserve"]
        if count != 1:
            raise Skip("substitute_not_alone", field="substitute")
        if u["ap"] < 2:
            raise Skip("no_points", need=2, left=u["ap"])
        r = g.units.get(rid)
        taken = {x.get("replaced_by") for x in g.s["units"]} | {x.get("leaving") for x in g.s["units"]}
        if r is None or r["player"] != u["player"] or r["role"] != "reserve" or not r["alive"] or rid in taken:
            bench = [x["id"] for x in g.s["units"] if x["player"] == u["player"] and x["role"] == "reserve"
                     and x["alive"] and x["id"] not in taken]
            raise Skip("reserve_unknown", field="substitute", reserve=rid, allowed=", ".join(bench) or "-")
        u["ap"] = 0
        u["leaving"] = rid
        g.emit("substitute", unit=u["id"], reserve=rid)


MOVE, ATTACK, SKILL, ITEM, SUBSTITUTE = Move(), Attack(), Skill(), Item(), Substitute()
ACTIONS: ActionTable[State, Game] = ActionTable(MOVE, ATTACK, SKILL, ITEM, SUBSTITUTE)
KINDS: dict[str, HunluKind] = {k.name: k for k in (MOVE, ATTACK, SKILL, ITEM, SUBSTITUTE)}
# every spelling of a kind (exactly as written) -> the kind
KIND_WORDS: dict[str, HunluKind] = {w: k for k in KINDS.values() for w in (k.name, *k.aliases)}
# the entry's other keys, whatever the kind (a move's `target` is read and left unused)
FIELD_WORDS: dict[str, str] = {w: name for name, words in SKILL_FIELDS.items() for w in (name, *words)}


def read(v: Validator, state: State, u: Unit, a: Any, path: str) -> Action | None:
    """One entry of a sheet's ``actions`` by the kind its key names; None (a pass, or after
    adding problems)."""
    if isinstance(a, str) and a in ("pass", "跳过"):
        return None
    allowed = ", ".join(sorted(KINDS))
    if not isinstance(a, dict):
        v.add("hunlu.orders.action", path, allowed=allowed)
        return None
    keys = [k for k in a if k in KIND_WORDS]
    if len(keys) != 1:
        v.add("hunlu.orders.action", path, allowed=allowed)
        return None
    rest = v.unknown_keys({k: x for k, x in a.items() if k != keys[0]}, FIELD_WORDS, path + ".")
    return KIND_WORDS[keys[0]].read(a[keys[0]], rest, SheetReading(v, state, u), path)


def play(g: Game, u: Unit, a: Action, count: int = 2) -> None:
    """Carry out one action (raises Skip when it cannot be done)."""
    KINDS[a["kind"]].act(g, u, a, count)


def tried(g: Game, uid: str, a: Action, alone: bool = False) -> Game | None:
    """The game after ``a`` on a checking copy of ``g``, or None when it is refused (``alone``:
    the sheet's only action)."""
    trial = Game(fork(g.s), g.dice)
    trial.checking = True
    try:
        play(trial, trial.units[uid], a, 1 if alone else 2)
    except Skip:
        return None
    return trial


def run(g: Game, u: Unit, actions: list[Action], strict: bool) -> list[Skip]:
    """Play ``actions`` for ``u``. ``strict`` (gm check): return every problem as a Skip whose
    field names ``actions.N``; else a problem is a logged skip costing nothing."""
    problems: list[Skip] = []
    for i, act in enumerate(actions):
        if g.s["winner"] is not None:
            break
        if not g.can_act(u):
            if not strict:
                g.emit("skip", unit=u["id"], action=i, kind=act["kind"], reason="cannot_act", params={})
            else:  # the sheet's own legs took the general off the field (a 天堑): warn, accept
                g.warnings.append(Skip("fallen" if u.get("chasm") else "cannot_act", f"actions.{i}", n=i + 1))
            break
        known = len(g.warnings)
        try:
            play(g, u, act, len(actions))
        except Skip as e:
            e.field = f"actions.{i}" + (f".{e.field}" if e.field else "")
            if strict:
                problems.append(e)
            else:
                g.emit("skip", unit=u["id"], action=i, kind=act["kind"], reason=e.code, params=e.params)
        for w in g.warnings[known:]:
            w.field = f"actions.{i}" + (f".{w.field}" if w.field else "")
        if u["id"] in g.s["extra"] and i + 1 < len(actions) and not strict:
            # 战斗潜能 in its own turn: 「跳过当前回合」, the rest of this sheet is void (ruling R5)
            g.emit("skip", unit=u["id"], action=i + 1, kind=actions[i + 1]["kind"], reason="turn_over",
                   params={"last": len(actions)})
            break
    return problems

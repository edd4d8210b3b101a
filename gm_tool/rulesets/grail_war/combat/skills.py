"""Character skills as data (data/skills.yaml): definitions built from a small set of primitives,
normalised and checked once, then read by the fight engine.

Bundled definitions live in data/skills.yaml; a scenario may add its own under a top-level
``skills:`` mapping in the same format (ruling C27). Those travel with the state
(``Game.skills``) and are passed as ``custom`` to :func:`of` / :func:`lookup`, which try them
before the bundled registry.

A definition: ``trigger`` (when), ``locked`` (a 锁定技 works even when the sheet says
``skill.use: false``), ``once_per_turn``, ``cost`` ({discard: N} or {lose_hp: N}), ``condition``,
``target`` and ``effects`` (a list of primitives, each a name or a one-key mapping).

>>> sorted(problems({"trigger": "active", "target": "enemy", "effects": [{"damage": 1}]}))
[]
>>> problems({"trigger": "sometimes", "target": "enemy", "effects": ["fly"]})
['trigger: sometimes', 'effect: fly']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from gm_tool.rulesets.grail_war import data

if TYPE_CHECKING:
    from gm_tool.rulesets.grail_war.combat.engine import Fight
    from gm_tool.rulesets.grail_war.combat.fighter import Ctx, Fighter

TRIGGERS = ("active", "strike_damage", "damaged", "strike_dodged", "dying", "draw", "static")
TARGETS = ("enemy", "all_enemies", "enemy_with_equipment", "source", "self", "struck")
COSTS = ("discard", "lose_hp")
CONDITIONS = ("hp_full", "hp_at_least", "max_hp_above", "holds")
KEYS = ("name", "text", "trigger", "locked", "once_per_turn", "cost", "condition", "target", "effects")
PATTERNS = ("red", "black", "spades", "hearts", "clubs", "diamonds")
ZONES = ("hand", "weapon", "armor")
# what carries out a primitive: (fight, owner, target, argument, ctx, why)
Run = Callable[["Fight", "Fighter", "Fighter", Any, "Ctx", str], None]


def matches(pattern: str, suit: str | None) -> bool:
    """A judgement pattern on a card's suit: ``red``, ``black``, a suit, or ``!`` + one of them.

    >>> matches("!hearts", "spades"), matches("red", "diamonds"), matches("black", None)
    (True, True, False)
    """
    if pattern.startswith("!"):
        return suit is not None and not matches(pattern[1:], suit)
    if pattern == "red":
        return suit in ("hearts", "diamonds")
    if pattern == "black":
        return suit in ("spades", "clubs")
    return suit == pattern


class Primitive:
    """One effect primitive a definition may list: the kind of its argument (``None``: none,
    ``int``, or the set of keys of a mapping), what else is checked in it and how it is
    normalised (reading a definition), and the function that carries it out in a fight
    (``run``, registered by the combat module doing it with :func:`runs`; None for a static
    primitive, read where it applies: ``extra_strikes``, ``convert``)."""

    __slots__ = ("name", "arg", "check", "norm", "run")

    def __init__(self, name: str, arg: Any, check: Callable[[dict[str, Any], list[str]], None] | None = None,
                 norm: Callable[[dict[str, Any]], Any] | None = None):
        self.name = name
        self.arg = arg
        self.check = check
        self.norm = norm
        self.run: Run | None = None

    def problems(self, arg: Any, out: list[str]) -> None:
        kind = self.arg
        if kind is int and not (isinstance(arg, int) and not isinstance(arg, bool)):
            out.append(f"{self.name}: {arg!r}")
        elif isinstance(kind, frozenset):
            if not isinstance(arg, dict) or set(arg) - kind:
                out.append(f"{self.name}: {arg!r}")
            elif self.check is not None:
                self.check(arg, out)


def _check_judge(arg: dict[str, Any], out: list[str]) -> None:
    pat = str(arg.get("pattern", "")).lstrip("!")
    if pat not in PATTERNS:
        out.append(f"judge.pattern: {arg.get('pattern')!r}")
    if arg.get("who", "target") not in ("target", "self"):
        out.append(f"judge.who: {arg.get('who')!r}")
    _effects_problems(arg.get("then", []), out)
    _effects_problems(arg.get("else", []), out)


def _norm_judge(arg: dict[str, Any]) -> dict[str, Any]:
    return {"who": arg.get("who", "target"), "pattern": arg["pattern"],
            "then": _norm_effects(arg.get("then", [])), "else": _norm_effects(arg.get("else", []))}


def _check_demand(arg: dict[str, Any], out: list[str]) -> None:
    if arg.get("card") not in ("杀", "闪"):
        out.append(f"demand.card: {arg.get('card')!r}")
    _effects_problems(arg.get("else", []), out)


def _norm_demand(arg: dict[str, Any]) -> dict[str, Any]:
    return {"card": arg["card"], "else": _norm_effects(arg.get("else", []))}


def _zones_checker(name: str) -> Callable[[dict[str, Any], list[str]], None]:
    def check(arg: dict[str, Any], out: list[str]) -> None:
        zones = arg.get("zones", list(ZONES))
        if not isinstance(zones, list) or any(z not in ZONES for z in zones):
            out.append(f"{name}.zones: {zones!r}")
    return check


def _check_convert(arg: dict[str, Any], out: list[str]) -> None:
    if arg.get("as") not in ("杀", "闪") or str(arg.get("pattern", "")).lstrip("!") not in PATTERNS:
        out.append(f"convert: {arg!r}")


PRIMITIVES: dict[str, Primitive] = {p.name: p for p in (
    Primitive("demand", frozenset({"card", "else"}), _check_demand, _norm_demand),
    Primitive("damage", int),
    Primitive("judge", frozenset({"who", "pattern", "then", "else"}), _check_judge, _norm_judge),
    Primitive("petrify", None),
    Primitive("strike_bonus", int),
    Primitive("damage_bonus", int),
    Primitive("hit_anyway", None),
    Primitive("recover_to", int),
    Primitive("lose_max_hp", int),
    Primitive("take_card", frozenset({"zones"}), _zones_checker("take_card")),
    Primitive("discard_card", frozenset({"zones"}), _zones_checker("discard_card")),
    Primitive("draw_bonus", int),
    Primitive("extra_strikes", int),
    Primitive("convert", frozenset({"as", "pattern", "exclude"}), _check_convert),
)}
STATIC = ("extra_strikes", "convert")  # read where they apply, never run


def runs(name: str) -> Callable[[Run], Run]:
    """Register ``fn`` as what carries out primitive ``name`` in a fight (the combat module
    doing it calls this at import; each primitive has one)."""
    def register(fn: Run) -> Run:
        prim = PRIMITIVES[name]
        if name in STATIC or prim.run is not None:
            raise ValueError(f"primitive {name} cannot be run by {fn.__name__}")
        prim.run = fn
        return fn
    return register


def _effects_problems(effects: Any, out: list[str]) -> None:
    if not isinstance(effects, list):
        out.append(f"effects: {effects!r}")
        return
    for eff in effects:
        name, arg = (eff, None) if isinstance(eff, str) else (next(iter(eff.items())) if isinstance(eff, dict) and len(eff) == 1 else (None, None))
        prim = PRIMITIVES.get(name) if isinstance(name, str) else None
        if prim is None:
            out.append(f"effect: {eff}")
            continue
        prim.problems(arg, out)


def problems(d: Any) -> list[str]:
    """What is wrong with one skill definition (empty when it is usable)."""
    if not isinstance(d, dict):
        return [f"definition: {d!r}"]
    out: list[str] = []
    for key in d:
        if key not in KEYS:
            out.append(f"{key}: unknown key (allowed: {', '.join(KEYS)})")
    if "name" in d and not (isinstance(d["name"], str) and d["name"].strip()):
        out.append(f"name: {d['name']!r}")
    text = d.get("text")
    if text is not None and not isinstance(text, str) and not (
            isinstance(text, dict) and all(k in ("zh", "en") and isinstance(t, str) for k, t in text.items())):
        out.append(f"text: {text!r}")
    for key in ("locked", "once_per_turn"):
        if key in d and not isinstance(d[key], bool):
            out.append(f"{key}: {d[key]!r}")
    if d.get("trigger") not in TRIGGERS:
        out.append(f"trigger: {d.get('trigger')}")
    if d.get("target", "self") not in TARGETS:
        out.append(f"target: {d.get('target')}")
    cost = d.get("cost") or {}
    if not isinstance(cost, dict) or any(k not in COSTS or not isinstance(v, int) or v < 1 for k, v in cost.items()):
        out.append(f"cost: {cost!r}")
    cond = d.get("condition") or {}
    if not isinstance(cond, dict) or any(k not in CONDITIONS for k in cond):
        out.append(f"condition: {cond!r}")
    _effects_problems(d.get("effects"), out)
    return out


def _norm_effects(effects: list[Any]) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    for eff in effects or []:
        arg: Any
        name, arg = (eff, None) if isinstance(eff, str) else next(iter(eff.items()))
        norm = PRIMITIVES[name].norm
        out.append((name, arg if norm is None else norm(arg)))
    return out


class Skill:
    """One checked, normalised skill definition."""

    __slots__ = ("id", "name", "text", "trigger", "locked", "once", "cost", "condition", "target", "effects")

    def __init__(self, sid: str, d: dict[str, Any]):
        self.id = sid
        self.name = str(d.get("name", sid))
        self.text = d.get("text") or {}
        self.trigger = d["trigger"]
        self.locked = bool(d.get("locked", False))
        self.once = bool(d.get("once_per_turn", False))
        self.cost = dict(d.get("cost") or {})
        self.condition = dict(d.get("condition") or {})
        self.target = d.get("target", "self")
        self.effects = _norm_effects(d["effects"])

    def static(self, name: str) -> Any:
        """The argument of a static effect (extra_strikes, convert), or None."""
        return next((arg for n, arg in self.effects if n == name), None)


@cache
def registry() -> dict[str, Skill]:
    """Every bundled skill by id. A definition with problems raises (bundled data is tested)."""
    raw = (data.load("skills") or {}).get("skills", {})
    out: dict[str, Skill] = {}
    for sid, d in raw.items():
        bad = problems(d)
        if bad:
            raise ValueError(f"skills.yaml: {sid}: " + "; ".join(bad))
        out[sid] = Skill(sid, d)
    return out


@lru_cache(maxsize=512)
def _custom(sid: str, blob: str) -> Skill:
    """A scenario's definition, normalised once per (id, definition text)."""
    d = json.loads(blob)
    bad = problems(d)
    if bad:
        raise ValueError(f"skills.{sid}: " + "; ".join(bad))
    return Skill(sid, d)


def custom_skill(sid: str, d: dict[str, Any]) -> Skill:
    """A scenario skill (checked, normalised and cached by its id and definition)."""
    return _custom(sid, json.dumps(d, sort_keys=True, ensure_ascii=False))


def get(sid: str, custom: dict[str, Any] | None = None) -> Skill | None:
    """A skill by id: the scenario's definitions first, then the bundled ones."""
    if custom and sid in custom:
        return custom_skill(sid, custom[sid])
    return registry().get(sid)


def of(skill_ids: list[str], custom: dict[str, Any] | None = None) -> list[Skill]:
    """The skills of these ids (unknown ids are left out), ``custom`` (a scenario's own
    definitions, ``Game.skills``) before the bundled registry."""
    if not custom:
        reg = registry()
        return [reg[s] for s in skill_ids if s in reg]
    out = []
    for sid in skill_ids:
        sk = get(sid, custom)
        if sk is not None:
            out.append(sk)
    return out


def lookup(name: str, custom: dict[str, Any] | None = None) -> Skill | None:
    """A skill by id or by its (Chinese) name, ``custom`` definitions first."""
    sk = get(name, custom)
    if sk is not None:
        return sk
    for sid, d in (custom or {}).items():
        sk = custom_skill(sid, d)
        if sk.name == name:
            return sk
    return next((s for s in registry().values() if s.name == name), None)

"""The four kinds of action a 神将录 sheet holds (contract §2; seed 3.8 召唤, 3.9-3.11 指挥, 法术
and 装备 cards), one class each (``gm_tool.core.actions``), in the table ``ACTIONS``:

- ``summon: CARD, at: CELL[, id: ID]`` (:class:`SummonKind`), ``command: UNIT`` with ``to``/
  ``via``/``attack`` or ``skill``/``targets`` (:class:`CommandKind`), ``cast: CARD, targets:
  [...]`` (:class:`CastKind`) and ``equip: CARD, unit: UNIT`` (:class:`EquipKind`);
- each reads its entry of a sheet into a typed order (:meth:`read`: the entry's shape, every
  problem by field), knows what the player due may do now (:meth:`entries` on a turn, the
  ``options`` of a state: the template's hints, the bots' choices and the posts' sheet come from
  them) and carries an order out on a :class:`~engine.Turn` (:meth:`apply`), judging it there
  first: an order the state does not allow at its point of the turn raises :class:`Illegal`
  before anything changes, so `gm check` plays the sheet on a copy and refuses exactly what
  resolution could not do.

A sheet is a whole turn: its actions in order (:func:`play`), each seeing what the ones before
it did; an empty list is a pass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from gm_tool.core.actions import ActionKind, ActionTable, Reading
from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name, column_name, parse_cell
from gm_tool.core.schema import id_problem
from gm_tool.rulesets.shenjianglu.cards import wrong
from gm_tool.rulesets.shenjianglu.engine import Illegal, Skip, Turn, clone, made_id, new_unit, next_label
from gm_tool.rulesets.shenjianglu.geometry import CELLS, distance, in_line
from gm_tool.rulesets.shenjianglu.keys import ACTION_KEYS, FIELD_WORDS, KIND_WORDS

State = dict[str, Any]
Unit = dict[str, Any]
Entry = dict[str, Any]
MAX_TARGETS = 8
MAX_VIA = 20


# the orders ---------------------------------------------------------------------------------------
# (slots, not frozen: a frozen dataclass is three times slower to make, and a bot makes many)
@dataclass(slots=True)
class Summon:
    card: str
    at: str
    id: str | None = None
    kind: ClassVar[str] = "summon"

    def entry(self) -> Entry:
        """How a sheet writes it (canonical keys)."""
        return {"summon": self.card, "at": self.at, **({"id": self.id} if self.id else {})}


@dataclass(slots=True)
class Command:
    unit: str
    to: str | None = None
    via: tuple[str, ...] = ()
    attack: str | None = None
    skill: str | None = None
    targets: tuple[str, ...] = ()
    kind: ClassVar[str] = "command"

    def entry(self) -> Entry:
        out: Entry = {"command": self.unit}
        if self.skill is not None:
            return {**out, "skill": self.skill, "targets": list(self.targets)}
        if self.to is not None:
            out["to"] = self.to
        if self.via:
            out["via"] = list(self.via)
        if self.attack is not None:
            out["attack"] = self.attack
        return out


@dataclass(slots=True)
class Cast:
    card: str
    targets: tuple[str, ...] = ()
    kind: ClassVar[str] = "cast"

    def entry(self) -> Entry:
        return {"cast": self.card, "targets": list(self.targets)}


@dataclass(slots=True)
class Equip:
    card: str
    unit: str
    kind: ClassVar[str] = "equip"

    def entry(self) -> Entry:
        return {"equip": self.card, "unit": self.unit}


Order = Summon | Command | Cast | Equip


# reading the words of an entry ----------------------------------------------------------------------
def text(v: Any) -> str | None:
    """A name a sheet gives (a card, a unit, a skill): text or a number, 1-40 characters."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (str, int)):
        s = str(v).strip()
        return s if 0 < len(s) <= 40 else None
    return None


def name(value: Any, reading: Reading[State], field: str) -> str | None:
    s = text(value)
    if s is None:
        reading.problem(field, "shenjianglu.type.name", **wrong(value))
    return s


def cell(value: Any, reading: Reading[State], field: str) -> str | None:
    """A cell of the board: ``C7``, ``c7``, ``(C,7)``, ``[C, 7]``..."""
    board = reading.state["board"]
    w, h = board["width"], board["height"]
    try:
        if isinstance(value, list) and len(value) == 2:
            value = f"{value[0]}{value[1]}"
        return cell_name(parse_cell(value, w, h))
    except ValueError:
        reading.problem(field, "cell.bad", value=value, cols=f"A-{column_name(w - 1)}", rows=h)
        return None


def unit_list(value: Any, reading: Reading[State], field: str) -> tuple[str, ...]:
    """``targets``: one unit or a list of at most MAX_TARGETS."""
    items = value if isinstance(value, list) else [value]
    if len(items) > MAX_TARGETS:
        reading.problem(field, "field.range", value=len(items), allowed=f"1-{MAX_TARGETS}")
        items = []
    out: list[str] = []
    for j, x in enumerate(items, 1):
        got = text(x)
        if got is None:
            reading.problem(f"{field}.{j}", "shenjianglu.type.unit", **wrong(x))
        else:
            out.append(got)
    return tuple(out)


def read_entry(raw: Any, i: int, reading: Reading[State]) -> Order | None:
    """Action ``i`` (from 1) of a sheet: its keys in any spelling, exactly one kind, only that
    kind's fields, read by its kind; None with the problems added to ``reading``."""
    path = f"actions.{i}"
    if isinstance(raw, str) and "：" in raw:  # `- 召唤：周骑`: one line read as one string
        key, _, value = raw.partition("：")
        reading.problem(path, "shenjianglu.orders.fullwidth_colon", key=key.strip(), value=value.strip())
        return None
    if not isinstance(raw, dict):
        reading.problem(path, "shenjianglu.type.mapping", **wrong(raw))
        return None
    before = len(reading.problems)
    data: dict[str, Any] = {}
    spelled: dict[str, str] = {}
    for k, v in raw.items():
        canon = ACTION_KEYS.get(k) if isinstance(k, str) else None
        if canon is None:
            if isinstance(k, str) and "：" in k:  # {召唤：周骑, ...}
                key, _, value = k.partition("：")
                reading.problem(f"{path}.{k}", "shenjianglu.orders.fullwidth_colon", key=key.strip(), value=value.strip())
            elif type(k) is int and v is None:  # {at: C,7}: the comma split the cell in two
                reading.problem(f"{path}.{k}", "shenjianglu.orders.split_cell", number=k)
            else:
                reading.problem(f"{path}.{k}", "field.unknown", allowed=", ".join(sorted(set(ACTION_KEYS.values()))))
        elif canon in data:
            reading.problem(f"{path}.{k}", "shenjianglu.orders.same_key", key=k, first=spelled[canon])
        else:
            data[canon] = v
            spelled[canon] = str(k)
    named = [k for k in ACTIONS.kinds if k in data]
    if len(named) != 1:
        reading.problem(path, "shenjianglu.orders.one_kind", got=", ".join(named) or "-")
        return None
    kind = ACTIONS.kinds[named[0]]
    allowed = (kind.name, *kind.fields)
    for k in data:
        if k not in allowed:
            reading.problem(f"{path}.{k}", "shenjianglu.orders.field_not_for", kind=kind.name, allowed=", ".join(allowed))
    order = kind.read(data[kind.name], {k: v for k, v in data.items() if k != kind.name}, reading, path)
    return order if len(reading.problems) == before else None


# what an action may name, judged on the turn --------------------------------------------------------
def hand_card(t: Turn, card: str, field: str, ctype: str) -> dict[str, Any]:
    """A card of the player's hand of type ``ctype`` (never a king) they can pay for."""
    if t.playable[card] <= 0:
        raise Illegal("shenjianglu.orders.not_in_hand", field, card=card,
                      allowed=", ".join(sorted(c for c, n in t.playable.items() if n > 0)) or "-")
    spec = t.cat[card]
    if spec["type"] != ctype or spec.get("role") == "king":
        raise Illegal("shenjianglu.orders.wrong_card_type", field, card=card, expected=ctype)
    if spec["cost"] > t.mana:
        raise Illegal("shenjianglu.orders.over_budget", field, card=card, cost=spec["cost"], mana=t.mana)
    return spec


def hand_cards(t: Turn, ctype: str) -> list[dict[str, Any]]:
    """The cards ``hand_card`` accepts: of the playable hand, of one type, affordable, each name
    once, by name."""
    return [t.cat[n] for n in sorted(n for n, k in t.playable.items() if k > 0)
            if t.cat[n]["type"] == ctype and t.cat[n]["cost"] <= t.mana and t.cat[n].get("role") != "king"]


def pay(t: Turn, card: dict[str, Any]) -> None:
    t.mana -= card["cost"]
    t.playable[card["name"]] -= 1
    t.active_seat["hand"].remove(card["name"])


def named_unit(t: Turn, ref: str, field: str) -> Unit:
    """The unit a sheet names (by id or label, ``Turn.find``)."""
    u = t.find(ref)
    if u is None:
        labels = t.s["labels"]
        raise Illegal("shenjianglu.orders.no_unit", field, unit=ref,
                      allowed=", ".join(labels.get(x, x) for x in t.units) or "-")
    return u


def describe(spec: dict[str, Any]) -> str:
    """Whom a card or skill may choose, as a problem names it: ``enemy/troop/弓兵``."""
    bits = [spec["target"]]
    if spec.get("only"):
        bits.append(spec["only"])
    if spec.get("kind"):
        bits.append(spec["kind"])
    return "/".join(bits)


def refusal(t: Turn, spec: dict[str, Any], u: Unit, me: Unit | None, reach: int | None) -> str | None:
    """Why a card or skill may not choose ``u`` (``me``: the unit using the skill, ``reach`` its
    range), as a problem's code, or None: its relation, ``only``, ``kind``, facing, range and
    line. The one judge of a target, for a sheet's and for the options."""
    if not t.related(spec["target"], t.active_player, u, me) or not t.fits(spec, u, t.cat, me):
        return "shenjianglu.orders.bad_target"
    if me is None:
        return None
    here, there = CELLS[me["pos"]], CELLS[u["pos"]]
    if reach is not None and distance(here, there) > reach:
        return "shenjianglu.orders.out_of_range"
    line = (spec.get("area") or {}).get("line")
    if line and not (in_line(here, there) and distance(here, there) <= line):
        return "shenjianglu.orders.not_in_line"
    return None


def chosen_targets(t: Turn, spec: dict[str, Any], refs: tuple[str, ...], field: str, me: Unit | None,
                   reach: int | None) -> list[Unit]:
    """The units a sheet chooses for a card or skill: as many as its ``count``, each one it may
    choose (:func:`refusal`). A skill on itself needs none."""
    if not refs and spec["target"] == "self" and me is not None:
        return [me]
    if not refs:
        raise Illegal("shenjianglu.orders.no_targets", field, count=spec["count"])
    if len(refs) > spec["count"]:
        raise Illegal("shenjianglu.orders.too_many_targets", field, count=spec["count"], got=len(refs))
    out: list[Unit] = []
    for j, ref in enumerate(refs, 1):
        u = named_unit(t, ref, f"{field}.{j}")
        if u in out:
            raise Illegal("field.duplicate", f"{field}.{j}", value=ref)
        why = refusal(t, spec, u, me, reach)
        if why == "shenjianglu.orders.bad_target":
            raise Illegal(why, f"{field}.{j}", unit=ref, allowed=describe(spec))
        if why is not None:
            assert me is not None
            gap = distance(CELLS[me["pos"]], CELLS[u["pos"]])
            extra = {"distance": gap, "range": reach} if why.endswith("out_of_range") else {"line": spec["area"]["line"]}
            raise Illegal(why, f"{field}.{j}", unit=ref, **extra)
        out.append(u)
    return out


def target_pool(t: Turn, spec: dict[str, Any], me: Unit | None, reach: int | None) -> list[Unit]:
    """The units a card or skill may choose one of (:func:`refusal` finds nothing against them),
    in board order."""
    return [u for u in t.s["units"] if refusal(t, spec, u, me, reach) is None]


def tags(t: Turn) -> dict[str, str]:
    """How a sheet names each unit, by id: the id it was given, else its label (the posts' name
    for it); either works in a sheet."""
    players, labels = list(t.seat_by_player), t.s["labels"]
    return {u["id"]: str(labels.get(u["id"], u["id"]) if made_id(u["id"], players) else u["id"]) for u in t.s["units"]}


def _named(names: Mapping[str, str] | None, uid: str) -> str:
    return uid if names is None else names[uid]


# the kinds ------------------------------------------------------------------------------------------
class SjlKind(ActionKind[State, Any, Turn]):
    """A kind of 神将录 action: its options are the entries of :meth:`entries` on the turn's start."""

    def options(self, state: State, actor: str) -> list[Entry]:
        t = start(state, actor)
        return self.entries(t) if t is not None else []

    def entries(self, t: Turn) -> list[Entry]:
        """What the player whose turn it is may write now, as sheet entries (units by :func:`tag`)."""
        raise NotImplementedError


class SummonKind(SjlKind):
    """召唤 (3.8): a character of the hand onto a free spawn point of one's own (l.63), paid in
    法力; it may not act this turn (立足时间, l.115) unless it has ``haste``."""

    name, aliases = "summon", KIND_WORDS["summon"]
    fields = {"at": FIELD_WORDS["at"], "id": FIELD_WORDS["id"]}

    def read(self, value: Any, entry: Entry, reading: Reading[State], path: str) -> Summon | None:
        card = name(value, reading, f"{path}.summon")
        at = cell(entry["at"], reading, f"{path}.at") if "at" in entry else None
        if "at" not in entry:
            reading.problem(f"{path}.at", "field.required")
        uid = None
        if entry.get("id") is not None:
            uid = name(entry["id"], reading, f"{path}.id")
            if uid and not all(ch.isalnum() or ch in "-_" for ch in uid):
                reading.problem(f"{path}.id", "player.bad_name", player=uid)
        return Summon(card, at, uid) if card is not None and at is not None else None

    @staticmethod
    def cards(t: Turn) -> list[dict[str, Any]]:
        return hand_cards(t, "character")

    @staticmethod
    def cells(t: Turn) -> list[str]:
        """The player's free spawn points."""
        occupied = {u["pos"] for u in t.s["units"]}
        return [cell_name(c) for c in t.board.spawns[t.active_seat["seat"]] if cell_name(c) not in occupied]

    def entries(self, t: Turn) -> list[Entry]:
        cells = self.cells(t)
        return [entry for card in self.cards(t) for entry in self.card_entries(t, card, cells)]

    def card_entries(self, t: Turn, card: dict[str, Any], cells: list[str] | None = None) -> list[Entry]:
        """The options of one card of :meth:`cards`: each free spawn point (``cells``, when the
        caller has them)."""
        return [{"summon": card["name"], "at": at} for at in (self.cells(t) if cells is None else cells)]

    def apply(self, t: Turn, order: Summon) -> None:
        card = hand_card(t, order.card, "summon", "character")
        at = CELLS[order.at]
        seat = t.active_seat
        free = self.cells(t)
        if at not in t.board.spawns[seat["seat"]]:
            raise Illegal("shenjianglu.orders.not_spawn", "at", cell=order.at, allowed=", ".join(free) or "-")
        if cell_name(at) not in free:
            raise Illegal("shenjianglu.orders.spawn_taken", "at", cell=order.at, allowed=", ".join(free) or "-")
        uid = order.id
        n = seat["summoned"] + 1
        labels = t.s["labels"]
        if uid is None:
            while f"{t.player}-{n}" in labels:
                n += 1
            uid = f"{t.player}-{n}"
        elif uid in labels or uid in labels.values():  # ids and labels are never reused
            raise Illegal("shenjianglu.orders.id_taken", "id", id=uid)
        elif (bad := id_problem(uid, t.active_player, [x["player"] for x in t.s["seats"]], t.units)) is not None:
            raise Illegal(bad[0], "id", **bad[1])  # Κ2 beside K2, bob-1 for alice
        pay(t, card)
        seat["summoned"] = n
        labels[uid] = next_label(labels)
        u = new_unit(uid, card["name"], seat, cell_name(at), t.board.facing[seat["seat"]], t.now)
        t.s["units"].append(u)
        t.units[uid] = u
        t.restat(u)
        t.emit("summon", player=t.player, unit=uid, card=card["name"], pos=u["pos"], cost=card["cost"], mana=t.mana)
        for sk in t.skills_of(u, "auto", "arrive"):
            t.trigger(u, sk)


class CommandKind(SjlKind):
    """指挥 (3.9-3.11): a unit of one's own that may act (not yet this turn, not arriving) moves
    (``to``, through ``via``) and may attack an adjacent unit of another player, or uses one of
    its active skills instead (``skill``, ``targets``)."""

    name, aliases = "command", KIND_WORDS["command"]
    fields = {k: FIELD_WORDS[k] for k in ("to", "via", "attack", "skill", "targets")}

    def read(self, value: Any, entry: Entry, reading: Reading[State], path: str) -> Command | None:
        unit = name(value, reading, f"{path}.command")
        skill = None
        if entry.get("skill") is not None:
            skill = name(entry["skill"], reading, f"{path}.skill")
            for k in ("to", "via", "attack"):
                if entry.get(k) is not None:
                    reading.problem(f"{path}.{k}", "shenjianglu.orders.skill_in_place")
        elif entry.get("targets") is not None:
            reading.problem(f"{path}.targets", "shenjianglu.orders.targets_need_skill")
        to = cell(entry["to"], reading, f"{path}.to") if entry.get("to") is not None else None
        via: list[str | None] = []
        if entry.get("via") is not None:
            points = entry["via"] if isinstance(entry["via"], list) else [entry["via"]]
            if len(points) > MAX_VIA:
                reading.problem(f"{path}.via", "field.range", value=len(points), allowed=f"0-{MAX_VIA}")
                points = []
            via = [cell(v, reading, f"{path}.via.{j}") for j, v in enumerate(points, 1)]
        attack = name(entry["attack"], reading, f"{path}.attack") if entry.get("attack") is not None else None
        targets = unit_list(entry["targets"], reading, f"{path}.targets") if entry.get("targets") is not None else ()
        if unit is None or None in via:
            return None
        return Command(unit, to, tuple(v for v in via if v is not None), attack, skill, targets)

    @staticmethod
    def units(t: Turn) -> list[Unit]:
        """The player's units that may act now, in board order."""
        return [u for u in t.s["units"] if u["owner"] == t.player and t.may_act(u)]

    @staticmethod
    def destinations(t: Turn, u: Unit) -> list[str]:
        """Free cells the unit may end its move on (its own cell first)."""
        occupied = {x["pos"] for x in t.s["units"]}
        cells = sorted(t.legal_moves(u), key=lambda c: (c[1], c[0]))
        return [u["pos"]] + [cell_name(c) for c in cells if cell_name(c) not in occupied]

    @staticmethod
    def foes(t: Turn, cells: list[str]) -> dict[str, list[Unit]]:
        """For each of ``cells``, the units of other players next to it (whom a move there may
        attack), in board order."""
        spots = {CELLS[c]: c for c in cells}
        out: dict[str, list[Unit]] = {c: [] for c in cells}
        for x in t.s["units"]:
            if x["owner"] != t.player:
                fx, fy = CELLS[x["pos"]]
                for near in ((fx, fy - 1), (fx - 1, fy), (fx + 1, fy), (fx, fy + 1)):
                    if near in spots:
                        out[spots[near]].append(x)
        return out

    @staticmethod
    def skill_targets(t: Turn, u: Unit, skill: dict[str, Any]) -> list[Unit]:
        return target_pool(t, skill, u, skill["range"])

    def entries(self, t: Turn) -> list[Entry]:
        out: list[Entry] = []
        names = tags(t)
        for u in self.units(t):
            out += self.moves(t, u, names)
            for sk in t.skills_of(u, "active"):
                out += self.skill_entries(t, u, sk, names)
        return out

    def moves(self, t: Turn, u: Unit, names: Mapping[str, str] | None = None) -> list[Entry]:
        """The options of unit ``u`` (one of :meth:`units`) that are no skill: staying, moving to
        each of :meth:`destinations`, and attacking from each of them each of its :meth:`foes`.
        Units are named by ``names`` (unit id -> how the entry names it; None: by id)."""
        me = _named(names, u["id"])
        cells = self.destinations(t, u)
        out: list[Entry] = [{"command": me}]
        out += [{"command": me, "to": c} for c in cells[1:]]
        for c, foes in self.foes(t, cells).items():
            out += [{"command": me, **({"to": c} if c != u["pos"] else {}), "attack": _named(names, x["id"])}
                    for x in foes]
        return out

    def skill_entries(self, t: Turn, u: Unit, skill: dict[str, Any], names: Mapping[str, str] | None = None) -> list[Entry]:
        """The options of unit ``u`` using one of its active skills: on each unit it may choose
        (:meth:`skill_targets`), named as in :meth:`moves`."""
        me = _named(names, u["id"])
        return [{"command": me, "skill": skill["name"], "targets": [_named(names, x["id"])]}
                for x in self.skill_targets(t, u, skill)]

    def apply(self, t: Turn, order: Command) -> None:
        u = named_unit(t, order.unit, "command")
        if u["owner"] != t.player:
            raise Illegal("shenjianglu.orders.not_own", "command", unit=u["id"], owner=u["owner"])
        if u["acted"]:
            raise Illegal("shenjianglu.orders.acted", "command", unit=u["id"])
        if not t.may_act(u):
            raise Illegal("shenjianglu.orders.arriving", "command", unit=u["id"])
        if order.skill is not None:
            self.use_skill(t, u, order)
            return
        start_cell = CELLS[u["pos"]]
        dest, path = start_cell, list[Cell]()  # no move: no cells walked
        if order.to is not None or order.via:
            dest, path = self.route(t, u, order)
        target = None
        if order.attack is not None:
            target = named_unit(t, order.attack, "attack")
            if target["owner"] == t.player:
                raise Illegal("shenjianglu.orders.attack_own", "attack", unit=target["id"])
            if distance(dest, CELLS[target["pos"]]) != 1:
                raise Illegal("shenjianglu.orders.not_adjacent", "attack", unit=target["id"], cell=cell_name(dest))
        u["acted"] = True
        if dest != start_cell:
            u["pos"] = cell_name(dest)
            t.emit("move", unit=u["id"], frm=cell_name(start_cell), pos=u["pos"], path=[cell_name(c) for c in path])
        elif target is None:
            t.emit("hold", unit=u["id"], pos=u["pos"])
        if target is not None:
            t.emit("attack", unit=u["id"], target=target["id"], amount=u["attack"])
            t.strike(u, target, u["attack"], "normal")

    @staticmethod
    def route(t: Turn, u: Unit, order: Command) -> tuple[Cell, list[Cell]]:
        """Where a move ends and the cells it walks (3.9: through own and allied units, never an
        enemy, at most 移动力 steps, ending on a free cell)."""
        start_cell = CELLS[u["pos"]]
        points = [parse_cell(c) for c in order.via]
        dest = CELLS[order.to] if order.to is not None else points[-1]
        points.append(dest)
        blocked = {CELLS[x["pos"]] for x in t.s["units"] if x["team"] != u["team"]}
        for j, p in enumerate(points):
            if not t.board.on_board(p):
                field = "to" if j == len(points) - 1 and order.to is not None else f"via.{j + 1}"
                raise Illegal("shenjianglu.orders.off_board", field, cell=cell_name(p))
        route = t.board.route(start_cell, points, u["move"], blocked)
        if route is None:
            reach = t.board.reach(start_cell, u["move"], blocked)
            free = sorted((c for c in reach if c == start_cell or not t.occupied(c)), key=lambda c: (c[1], c[0]))
            raise Illegal("shenjianglu.orders.no_route", "to", unit=u["id"], cell=cell_name(dest), move=u["move"],
                          allowed=", ".join(cell_name(c) for c in free))
        if dest != start_cell and t.occupied(dest):
            raise Illegal("shenjianglu.orders.cell_taken", "to", cell=cell_name(dest))
        return dest, route

    @staticmethod
    def use_skill(t: Turn, u: Unit, order: Command) -> None:
        skills = {s["name"]: s for s in t.skills_of(u, "active")}
        skill = skills.get(order.skill or "")
        if skill is None:
            raise Illegal("shenjianglu.orders.no_skill", "skill", unit=u["id"], skill=order.skill,
                          allowed=", ".join(skills) or "-")
        targets = chosen_targets(t, skill, order.targets, "targets", u, skill["range"])
        u["acted"] = True
        hit = t.hits(skill, targets, u)
        t.emit("skill", unit=u["id"], skill=skill["name"], targets=[x["id"] for x in targets],
               **({"area": [x["id"] for x in hit]} if "area" in skill else {}))
        for x in hit:
            t.apply(skill["effects"], u, x, t.active_player, "skill")


class CardKind(SjlKind):
    """A kind that plays a card of the hand (of type ``ctype``) on a unit it may choose: its
    options are every such card with every such unit."""

    ctype: ClassVar[str] = ""

    def cards(self, t: Turn) -> list[dict[str, Any]]:
        return hand_cards(t, self.ctype)

    @staticmethod
    def targets(t: Turn, card: dict[str, Any]) -> list[Unit]:
        return target_pool(t, card, None, None)

    def entries(self, t: Turn) -> list[Entry]:
        names = tags(t)
        return [entry for card in self.cards(t) for entry in self.card_entries(t, card, names)]

    def card_entries(self, t: Turn, card: dict[str, Any], names: Mapping[str, str] | None = None) -> list[Entry]:
        """The options of one card of :meth:`cards`: on each unit it may choose, named by
        ``names`` (unit id -> how the entry names it; None: by id)."""
        return [{self.name: card["name"], **self.aim(_named(names, u["id"]))} for u in self.targets(t, card)]

    def aim(self, unit: str) -> Entry:
        """The entry's fields naming the unit it is played on."""
        raise NotImplementedError

    def aimed(self, entry: Entry) -> str:
        """The unit an entry of :meth:`entries` names."""
        raise NotImplementedError


class CastKind(CardKind):
    """A 法术 card of the hand on the units it names (or around them, ``area``), paid in 法力,
    then to the graveyard; a unit immune to spells is not reached."""

    name, aliases, ctype = "cast", KIND_WORDS["cast"], "spell"
    fields = {"targets": FIELD_WORDS["targets"]}

    def read(self, value: Any, entry: Entry, reading: Reading[State], path: str) -> Cast | None:
        card = name(value, reading, f"{path}.cast")
        targets = unit_list(entry["targets"], reading, f"{path}.targets") if entry.get("targets") is not None else ()
        return Cast(card, targets) if card is not None else None

    def aim(self, unit: str) -> Entry:
        return {"targets": [unit]}

    def aimed(self, entry: Entry) -> str:
        return str(entry["targets"][0])

    def apply(self, t: Turn, order: Cast) -> None:
        card = hand_card(t, order.card, "cast", "spell")
        targets = chosen_targets(t, card, order.targets, "targets", None, None)
        pay(t, card)
        hit = t.hits(card, targets, None)
        t.emit("cast", player=t.player, card=card["name"], targets=[u["id"] for u in targets], cost=card["cost"],
               mana=t.mana, **({"area": [u["id"] for u in hit]} if "area" in card else {}))
        for u in hit:
            if t.has(u, "immune") == "spell":
                t.emit("immune", unit=u["id"], card=card["name"])
                continue
            t.apply(card["effects"], None, u, t.active_player, "spell")
        t.active_seat["graveyard"].append(card["name"])


class EquipKind(CardKind):
    """An 装备 card of the hand onto a unit it may go on, paid in 法力; what the unit wore before
    goes to the graveyard of whoever played it (l.49)."""

    name, aliases, ctype = "equip", KIND_WORDS["equip"], "equipment"
    fields = {"unit": FIELD_WORDS["unit"]}

    def read(self, value: Any, entry: Entry, reading: Reading[State], path: str) -> Equip | None:
        card = name(value, reading, f"{path}.equip")
        unit = None
        if "unit" not in entry:
            reading.problem(f"{path}.unit", "field.required")
        else:
            unit = name(entry["unit"], reading, f"{path}.unit")
        return Equip(card, unit) if card is not None and unit is not None else None

    def aim(self, unit: str) -> Entry:
        return {"unit": unit}

    def aimed(self, entry: Entry) -> str:
        return str(entry["unit"])

    def apply(self, t: Turn, order: Equip) -> None:
        card = hand_card(t, order.card, "equip", "equipment")
        u = named_unit(t, order.unit, "unit")
        if not t.related(card["target"], t.active_player, u, None) or not t.fits(card, u, t.cat):
            raise Illegal("shenjianglu.orders.bad_target", "unit", unit=u["id"], allowed=describe(card))
        pay(t, card)
        old = u["equipment"]
        if old:
            t.seat_by_player[u["equipment_by"]]["graveyard"].append(old)
        u["equipment"], u["equipment_by"] = card["name"], t.player
        t.restat(u)
        t.emit("equip", player=t.player, card=card["name"], unit=u["id"], replaced=old, cost=card["cost"], mana=t.mana,
               attack=u["attack"], stamina=u["stamina"], move=u["move"])


SUMMON, COMMAND, CAST, EQUIP = SummonKind(), CommandKind(), CastKind(), EquipKind()
ACTIONS: ActionTable[State, Turn] = ActionTable(SUMMON, COMMAND, CAST, EQUIP)


# a turn ---------------------------------------------------------------------------------------------
def start(state: State, player: str, log: EventLog | None = None) -> Turn | None:
    """The turn ``player`` may act in, on a copy of ``state`` (None: it is not theirs)."""
    if state.get("next") != player or state.get("winner") is not None:
        return None
    return Turn(clone(state), log)


def run(t: Turn, order: Order) -> None:
    """One action of the player whose turn it is, then its consequences (deaths, reactions)."""
    if t.s["winner"] is not None:
        raise Skip("game_over")
    if t.seat is None or t.seat["out"]:
        raise Skip("player_out")
    ACTIONS.apply(t, order)
    t.settle()


def play(state: State, orders: list[Order], log: EventLog, on_illegal: Callable[[int, Illegal], None] | None = None,
         after_action: Callable[[int, Turn], None] | None = None) -> State:
    """One whole turn on a copy of ``state``: the actions (each illegal one reported to
    ``on_illegal(index, Illegal)`` and skipped; None: skipped with a logged reason; each one done
    then shown to ``after_action(index, turn)``), the end phase, the next seat's start and draw
    phases. Returns the new state."""
    t = Turn(clone(state), log)
    if not orders:
        log.emit("pass", player=t.player)
    for i, order in enumerate(orders, 1):
        try:
            run(t, order)
        except Skip as skip:
            log.emit("action.skipped", index=i, reason=skip.reason)
            continue
        except Illegal as bad:
            if on_illegal is not None:
                on_illegal(i, bad)
            else:
                log.emit("action.skipped", index=i, reason=bad.code, field=bad.field, params=bad.params)
            continue
        if after_action is not None:
            after_action(i, t)
    t.end_phase()
    t.s["turn"] += 1
    if t.s["winner"] is None:
        t.begin_next()
    return t.finish()

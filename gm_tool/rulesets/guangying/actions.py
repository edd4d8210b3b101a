"""The kinds of action a sheet may hold (contract §3), one class each (gm_tool.core.actions):
how a sheet writes it (its key and fields with the seed's words as aliases, and
:meth:`GyKind.read`), what the player due may do with it now (:meth:`GyKind.options`: the template
offers these, the posts show them, and `gm check` accepts every one), and what it does
(:meth:`GyKind.apply`, on a :class:`~.turn.Turn`). :data:`ACTIONS` maps the kinds' names to them;
:func:`run` plays a sheet's list of actions through it.

An action is the canonical mapping the sheet reader makes: ``{"verb": "move", "move": "s1",
"path": [...]}``. ``apply`` checks everything before it changes anything and raises
:class:`~.model.Refusal`: on a live board a refused action is skipped with an ``action_skipped``
event; in the placements-only run of ``gm check`` it becomes a problem naming the action's index
and field. The abilities (G26) are one more table, :data:`ABILITIES`: each with its class, the
uses a piece may try and what it does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from gm_tool.core.actions import ActionKind, ActionTable, Reading
from gm_tool.rulesets.guangying.model import (
    ABILITY_CLASS,
    FIREBALL_DAMAGE,
    GUARDIANS,
    NEIGHBOURS,
    ROCK,
    SHOT_POWER,
    SQUADMATE_HURT,
    WALL,
    Refusal,
    copy_state,
    dist,
    reach,
    row_of,
)
from gm_tool.rulesets.guangying.orders import FIELDS, KINDS
from gm_tool.rulesets.guangying.reading import ORIENTATIONS, SheetReader, _cell, _choices, _lookup, _mend_cells, _text
from gm_tool.rulesets.guangying.turn import (
    Turn,
    cells_text,
    heal_reach,
    reachable_targets,
    strip_start,
    targets,
    wall_cells,
)

Action = dict[str, Any]  # the canonical mapping an entry is read into
GyState = dict[str, Any]

# the values naming a squad or piece on the board or in hand (read by id or label, any case)
REF_KEYS = ("move", "attack", "full_attack", "defend", "leader", "suicide", "summon", "target", "by", "member")
NEW_ID_KEYS = ("id", "squad")  # ids a sheet gives to what it makes


def _fields(*names: str) -> dict[str, tuple[str, ...]]:
    """A kind's fields with their other spellings (from :data:`FIELDS`)."""
    return {n: tuple(k for k, v in FIELDS.items() if v == n and k != n) for n in names}


def prepare(state: GyState, player: str) -> Turn:
    """The board ``player``'s turn starts on (the upkeep done), placements only: what each
    kind's options are worked out on, as `gm check` checks a sheet."""
    g = Turn(copy_state(state), live=False)
    g.s["turn"] += 1
    g.active = player
    g.upkeep()
    return g


def tries(g: Turn, action: Action) -> bool:
    """Whether ``action`` passes on a copy of ``g`` (placements only)."""
    trial = Turn(copy_state(g.s), live=False)
    trial.active = g.active
    trial.summoned = g.summoned
    trial.attacked = set(g.attacked)
    try:
        ACTIONS.kinds[action["verb"]].apply(trial, action)
    except Refusal:
        return False
    return True


class GyKind(ActionKind[GyState, Action, Turn]):
    """One kind of action of 光与影. A subclass sets ``name``, ``aliases`` (the seed's word),
    ``fields`` (its other keys, each with its seed's word), ``required`` and implements
    :meth:`choices` and :meth:`apply`; :meth:`read` is shared (a kind adds its own checks in
    :meth:`read_own`)."""

    required: ClassVar[tuple[str, ...]] = ()
    lists: ClassVar[bool] = False  # the kind's value is a piece or a list of pieces (离队, 回手)

    @classmethod
    def spellings(cls) -> dict[str, str]:
        """``{spelling: field}`` of the kind's fields, the seed's words included."""
        return {k: v for k, v in FIELDS.items() if v in cls.fields}

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[GyState], path: str) -> Action | None:
        """``entry`` is the action so far (``{"verb", <name>: value, fields..., "written"}``, the
        fields under their canonical names, ``written`` their spellings in the sheet): its values
        read (cells, references, ids), or None with the problems added to ``reading``."""
        assert isinstance(reading, SheetReader)
        r, a, verb = reading, entry, self.name
        written = a["written"]

        def f(key: str) -> str:
            return f"{path}.{written.get(key, key)}"

        ok = True
        for req in self.required:
            if a.get(req) is None:
                r.add("field.required", f(req))
                ok = False
        ok = self.read_own(a, r, f) and ok
        if "at" in a:
            c = _cell(a["at"])
            if c is None:
                r.add("cell.bad", f("at"), value=a["at"], cols="A-J", rows=12)
                ok = False
            a["at"] = c
        if "path" in a:
            cells = r.cells(a["path"], f("path"))
            ok = ok and cells is not None
            a["path"] = cells
        for key in (*REF_KEYS, *NEW_ID_KEYS):
            if key in a and a[key] is not None:
                if not isinstance(_text(a[key]), str):
                    r.add("field.type", f(key), expected=r.words("string"), got=type(a[key]).__name__)
                    ok = False
                elif key in NEW_ID_KEYS and not (key == "squad" and verb not in ("summon", "split")):
                    a[key] = _text(a[key])
                else:
                    a[key] = r.ref(a[key])
        if verb in ("summon", "split") and isinstance(a.get("squad"), str):
            r.new_squads.add(a["squad"])
        if self.lists:
            v = a[verb]
            if isinstance(v, list):
                v = _mend_cells(v)
            if not (isinstance(v, str) or isinstance(v, list) and v and all(isinstance(x, str) for x in v)):
                r.add("field.type", f(verb), expected=r.words("strings"), got=type(v).__name__)
                ok = False
            else:
                a[verb] = [r.ref(x) for x in v] if isinstance(v, list) else r.ref(v)
        return a if ok else None

    def read_own(self, a: Action, r: SheetReader, f: Callable[[str], str]) -> bool:
        """The kind's own checks of what it read (False: a problem was added)."""
        return True

    def options(self, state: GyState, actor: str) -> list[dict[str, Any]]:
        return list(self.choices(prepare(state, actor), actor))

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        """The entries ``player`` may write now on the turn ``g`` (canonical keys, stable order)."""
        raise NotImplementedError


# --- summoning (G3-G5) -----------------------------------------------------------------------------
class Summon(GyKind):
    name = "summon"
    aliases = KINDS[name]
    fields = _fields("at", "id", "squad")
    required = ("at",)

    @staticmethod
    def summonable(g: Turn, player: str) -> list[tuple[str, str]]:
        """``(what a sheet names, its class)``: the classes left in the pool, then the pieces in
        hand that may come back this turn."""
        pl = g.players[player]
        classes = [(c, c) for c, n in pl["pool"].items() if n > 0 and c in g.table]
        ready = [(h["id"], h["class"]) for h in pl["in_hand"]
                 if not h["cannot_return_until"] or h["cannot_return_until"] <= g.s["turn"]]
        return classes + ready

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        """Each piece with each cell :meth:`~.turn.Turn.summon_cells` gives its class: free cells
        first, then own squads it may join."""
        if g.summoned:
            return
        for what, cls in self.summonable(g, player):
            yield from self.piece_choices(g, player, what, cls)

    @staticmethod
    def piece_choices(g: Turn, player: str, what: str, cls: str) -> Iterator[dict[str, Any]]:
        """The options summoning one piece (``what``, of class ``cls``): free cells first, then
        own squads it may join, each by name."""
        taken = {q["pos"] for q in g.s["squads"]}
        for c in sorted(g.summon_cells(player, cls), key=lambda c: (c in taken, c)):
            yield {"summon": what, "at": c}

    def apply(self, g: Turn, a: Action) -> None:
        me = g.active
        pl = g.players[me]
        if g.summoned:
            raise Refusal("summon.twice", "summon")
        what = a["summon"]
        hand = next((h for h in pl["in_hand"] if h["id"] == what), None)
        from gm_tool.rulesets.guangying.data import class_of, close_class

        cls = hand["class"] if hand else class_of(what)
        if cls is None:
            allowed = ", ".join([c for c, n in pl["pool"].items() if n > 0 and c in g.table]
                                + [h["id"] for h in pl["in_hand"]]) or "-"
            close = close_class(what)
            if close is not None:
                raise Refusal("summon.close", "summon", value=what, close=close, allowed=allowed)
            raise Refusal("summon.unknown", "summon", value=what, allowed=allowed)
        if hand:
            until = hand["cannot_return_until"]
            if until is not None and g.s["turn"] < until:
                raise Refusal("summon.fled", "summon", piece=what, until=until)
            if a.get("id") not in (None, what):
                raise Refusal("summon.hand_id", "id", value=a.get("id"), piece=what)
        elif pl["pool"].get(cls, 0) <= 0:
            raise Refusal("summon.pool_empty", "summon", cls=cls)
        at = a["at"]
        q = g.squad_at(at)
        if sum(1 for p in g.s["pieces"] if p["owner"] == me) >= 10:
            raise Refusal("summon.ten", "summon")
        if q is not None and q["owner"] == me:
            problem = g.stack_problem(q, cls)
            if problem is not None:
                raise Refusal(problem, "at", cell=at, squad=q["id"])
        elif len(g.own_squads(me)) >= 5:
            raise Refusal("summon.five", "at")
        cells = g.summon_cells(me, cls)
        if at not in cells:
            raise Refusal("summon.cell", "at", cell=at, cls=cls, allowed=cells_text(cells))
        if q is not None:
            if a.get("squad") not in (None, q["id"]):
                raise Refusal("summon.squad_id", "squad", value=a.get("squad"), squad=q["id"])
        elif a.get("squad") is not None:
            g.check_new_id(a["squad"], "squad")
        pid = what if hand else a.get("id")
        if not hand:
            if pid is not None:
                g.check_new_id(pid, "id")
            else:
                pid = g.fresh_id(f"{me}-{g.table[cls]['en']}")
        # carried out
        g.summoned = True
        via = cells[at]
        row = g.table[cls]
        if hand:
            pl["in_hand"].remove(hand)
            hp, max_hp, power, beast = hand["hp"], hand["max_hp"], hand["power"], hand["beast"]
        else:
            pl["pool"][cls] -= 1
            hp = max_hp = row["hp"]
            power, beast = row["power"], False
        if q is None:
            q = g.add_squad(a.get("squad") or g.fresh_id(f"{me}-s"), me, at, [], 2)
        piece = {"id": pid, "class": cls, "owner": me, "squad": q["id"], "pos": at, "hp": hp, "max_hp": max_hp,
                 "power": power, "move": row["move"], "summoned_turn": g.s["turn"], "beast": beast,
                 "maintaining": None, "portal_open": False, "singing": False}
        g.s["pieces"].append(piece)
        g.pieces[pid] = piece
        q["members"].insert(0, pid)
        penalty = via != "portal"
        if penalty:
            q["actions_left"] = 0  # 召唤惩罚 (G5): the whole squad
        g.emit("summon", player=me, piece=pid, cls=cls, at=at, squad=q["id"], via=via, penalty=penalty,
               from_hand=bool(hand))
        if g.live:
            for e in g.enemies_within(at, me):
                g.strike(e, q, "ambush")


# --- moving (G15-G18) -------------------------------------------------------------------------------
def ends(g: Turn, q: dict[str, Any], pieces: list[dict[str, Any]]) -> Iterator[tuple[int, list[str]]]:
    """The paths ``pieces`` of squad ``q`` may take (cheapest to each cell it may end on: a free
    cell, or an own squad it may join, R8), each with what it costs, in the order
    :func:`~.model.reach` finds them."""
    whole = len(pieces) == len(q["members"])
    at: dict[str, dict[str, Any]] = {}
    for x in g.s["squads"]:
        at.setdefault(x["pos"], x)  # g.squad_at of every cell at once
    for end, route in reach(g, q, joins=True, pieces=None if whole else pieces).items():
        host = at.get(end)
        if host is not None:
            try:
                g.check_join(pieces, host, "path")
            except Refusal:
                continue
        yield route


class Move(GyKind):
    name = "move"
    aliases = KINDS[name]
    fields = _fields("path")
    required = ("path",)

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        for q in g.own_squads(player):
            yield from self.squad_choices(g, q)

    @staticmethod
    def routes(g: Turn, q: dict[str, Any]) -> Iterator[tuple[int, list[str]]]:
        """The moves of one squad with what each costs: ``(cost, path)`` to each cell it may
        end on."""
        if q["actions_left"] >= 1:
            yield from ends(g, q, g.members(q))

    def squad_choices(self, g: Turn, q: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The moves of one squad: a path to each cell it may end on."""
        for _, path in self.routes(g, q):
            yield {"move": q["id"], "path": path}

    def apply(self, g: Turn, a: Action) -> None:
        q = g.own_squad(a["move"], g.active, "move")
        path = strip_start(a["path"], q["pos"])
        g.need_chances(q, 1, "move")
        g.check_path(q, g.members(q), path, "path")
        q["actions_left"] -= 1
        g.walk(q, path)


class Split(GyKind):
    name = "split"
    aliases = KINDS[name]
    fields = _fields("path", "squad")
    required = ("path",)
    lists = True

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        """One or two pieces (never the whole squad) leaving a squad that has not acted, to each
        cell they may reach."""
        if len(g.own_squads(player)) >= 5:
            return
        for q in g.own_squads(player):
            members = g.members(q)
            if q["actions_left"] < 2 or len(members) < 2:
                continue
            groups = [[p] for p in members] + [[a, b] for i, a in enumerate(members) for b in members[i + 1:]]
            for group in groups:
                if len(group) < len(members):
                    for _, path in ends(g, q, group):
                        yield {"split": [p["id"] for p in group], "path": path}

    def apply(self, g: Turn, a: Action) -> None:
        me = g.active
        refs = a["split"] if isinstance(a["split"], list) else [a["split"]]
        pieces = [g.own_piece(r, me, f"split[{i}]") for i, r in enumerate(refs)]
        q = g.squad_of(pieces[0])
        if any(p["squad"] != q["id"] for p in pieces) or len(set(refs)) != len(refs):
            raise Refusal("split.same_squad", "split", squad=q["id"])
        if len(pieces) >= len(q["members"]) or len(pieces) > 2:
            raise Refusal("split.size", "split", squad=q["id"], size=len(q["members"]))
        if q["actions_left"] < 2:
            raise Refusal("split.acted", "split", squad=q["id"])
        if len(g.own_squads(me)) >= 5:
            raise Refusal("split.five", "split")
        if a.get("squad") is not None:
            g.check_new_id(a["squad"], "squad")
        ordered = [g.pieces[m] for m in q["members"] if m in refs]
        path = strip_start(a["path"], q["pos"])
        g.check_path(q, ordered, path, "path")
        sid = a.get("squad") or g.fresh_id(f"{me}-s")
        for p in ordered:
            q["members"].remove(p["id"])
            p["squad"] = sid
        new = g.add_squad(sid, me, q["pos"], [p["id"] for p in ordered], 1)
        g.emit("split", squad=q["id"], owner=me, new_squad=sid, pieces=new["members"], leader=q["members"][0])
        g.walk(new, path)


# --- fighting (G14, G19-G21, G26) ----------------------------------------------------------------------
class Attack(GyKind):
    name = "attack"
    aliases = KINDS[name]
    fields = _fields("target", "by", "member")
    required = ("target",)
    full: ClassVar[bool] = False

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        """Each target in reach, by the leader; then by each other member a 战士 leader lets
        attack (G11); then 精准打击 on each member of the target by a 巡林客 whose passives
        are on."""
        for q in g.own_squads(player):
            yield from self.squad_choices(g, q)

    def squad_choices(self, g: Turn, q: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The attacks of one squad, in the order of :meth:`choices`."""
        verb = self.name
        if q["id"] in g.attacked or q["actions_left"] < (2 if self.full else 1):
            return
        lead = g.leader(q)
        others = [m for m in g.members(q) if m is not lead and m["class"] not in GUARDIANS] \
            if lead["class"] == "战士" else []
        found = targets(g, q)
        for t in found:
            yield {verb: q["id"], "target": t}
        for by in others:
            for t in found:
                yield {verb: q["id"], "target": t, "by": by["id"]}
        for by in [lead, *others]:
            if by["class"] == "巡林客" and g.passives_on(by):
                for t in found:
                    for m in g.squads[t]["members"] if t in g.squads else ():
                        yield {verb: q["id"], "target": t, **({} if by is lead else {"by": by["id"]}),
                               "member": m}

    def apply(self, g: Turn, a: Action) -> None:
        me = g.active
        full = self.full
        verb = self.name
        q = g.own_squad(a[verb], me, verb)
        if q["id"] in g.attacked:
            raise Refusal("attack.twice", verb, squad=q["id"])
        g.need_chances(q, 2 if full else 1, verb)
        by = g.attacker(q, a.get("by"))
        target_ref = a["target"]
        foe = g.enemy(me)
        fortress = target_ref in ("fortress", "要塞", foe)
        target = None
        if fortress:
            if a.get("member") is not None:
                raise Refusal("member.not_in_target", "member", value=a["member"], allowed="-")
            if min(dist(q["pos"], c) for c in g.players[foe]["fortress"]) > 1:
                raise Refusal("target.out_of_reach", "target", value=target_ref, squad=q["id"],
                              allowed=reachable_targets(g, q))
        else:
            target = g.enemy_squad(target_ref, me, "target")
            if dist(q["pos"], target["pos"]) > 1:
                raise Refusal("target.out_of_reach", "target", value=target_ref, squad=q["id"],
                              allowed=reachable_targets(g, q))
        member = g.precise_member(a, by, target) if target else None
        # carried out
        q["actions_left"] -= 2 if full else 1
        g.attacked.add(q["id"])
        parts = g.attack_power(by, q)
        amount = parts["total"] * 2 if full else parts["total"]
        around = g.enemies_within(q["pos"], me)
        g.emit("attack", squad=q["id"], owner=me, piece=by["id"], target=target["id"] if target else None,
               fortress=target is None, target_owner=foe, full=full, amount=amount, power=parts["base"],
               song=parts["song"], formation=parts["formation"], member=member)
        if not g.live:
            return
        sweep = by["class"] == "野蛮人"
        if sweep:  # 野蛮人: every squadmate loses 3 (G26)
            for m in g.members(q):
                if m is not by:
                    g.take(m, SQUADMATE_HURT, "barbarian", enemy=False)
        if target is None:  # the fortress
            g.hit_fortress(foe, amount, by["id"])
        else:
            start = target["pos"]
            g.damage(target, amount, "full_attack" if full else "attack", member=member)
            if full and target["id"] in g.squads:
                g.push(q, target, start)
        if sweep:
            for e in around:
                if e is not target:
                    g.emit("sweep", squad=q["id"], owner=me, target=e["id"], target_owner=e["owner"])
                    g.damage(e, amount, "sweep")
        if len(around) >= 2 and q["id"] in g.squads:  # 被多队伍包围 (G17)
            for e in around:
                if e is not target and e["id"] in g.squads and q["id"] in g.squads:
                    g.strike(e, q, "surrounded")


class FullAttack(Attack):
    """全力攻击 (G19): both chances, double power, and the target pushed one cell."""

    name = "full_attack"
    aliases = KINDS[name]
    full = True


class Defend(GyKind):
    name = "defend"
    aliases = KINDS[name]

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        for q in g.own_squads(player):
            if q["actions_left"] >= 2:
                yield {"defend": q["id"]}

    def apply(self, g: Turn, a: Action) -> None:
        q = g.own_squad(a["defend"], g.active, "defend")
        g.need_chances(q, 2, "defend")
        q["actions_left"] = 0
        q["defending"] = True
        g.emit("defend", squad=q["id"], owner=q["owner"])


# --- abilities (G26): one more table ---------------------------------------------------------------------
Uses = Callable[[Turn, str, dict[str, Any]], list[dict[str, Any]]]
Effect = Callable[[Turn, Action, dict[str, Any], dict[str, Any]], None]


@dataclass(frozen=True)
class Ability:
    """One ability: its seed name, the spellings a sheet may use, the uses a piece ``p`` of its
    class may try (``uses(g, player, p)``: entries without ``ability`` and ``by``) and what it
    does (``effect(g, action, by, squad)``, checking first)."""

    name: str
    spellings: tuple[str, ...]
    uses: Uses
    effect: Effect


def _sing(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    by["singing"] = True
    g.emit("ability", ability="唱诗", piece=by["id"], owner=by["owner"])


def _heal(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    if by.get("maintaining"):
        raise Refusal("heal.maintaining", "ability", rock=by["maintaining"])
    t = g.own_piece(a.get("target"), g.active, "target") if a.get("target") not in g.squads \
        else g.leader(g.own_squad(a["target"], g.active, "target"))
    if not heal_reach(by["pos"], t["pos"]):
        raise Refusal("heal.reach", "target", value=t["id"], allowed=", ".join(
            p["id"] for p in g.s["pieces"] if p["owner"] == g.active and heal_reach(by["pos"], p["pos"])))
    g.emit("ability", ability="治疗", piece=by["id"], owner=by["owner"], target=t["id"])
    g.heal(t, by["power"], "治疗")


def _rock(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    at = g.beside(a, by)
    if by.get("maintaining"):
        raise Refusal("rock.maintaining", "by", rock=by["maintaining"])
    by["maintaining"] = g.lay_marker(a, by, ROCK, [at])["id"]


def _wall(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    at = g.beside(a, by)
    g.lay_marker(a, by, WALL, wall_cells(by["pos"], at, a.get("orientation") or "horizontal"))


def _beast(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    if by["beast"]:
        raise Refusal("beast.twice", "by", piece=by["id"])
    by["beast"] = True
    by["hp"] += 20
    by["max_hp"] += 20
    by["power"] += 2
    g.emit("ability", ability="变身野兽", piece=by["id"], owner=by["owner"], hp=by["hp"])


def _devotion(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    t = g.own_piece(a.get("target"), g.active, "target")
    if t["squad"] != q["id"] or t is by:
        raise Refusal("devotion.target", "target", value=t["id"],
                      allowed=", ".join(m for m in q["members"] if m != by["id"]) or "-")
    amount = a.get("amount")
    most = min(by["hp"] - 1, t["max_hp"] - t["hp"])
    if not isinstance(amount, int) or amount < 1 or amount > most:
        raise Refusal("devotion.amount", "amount", value=amount, most=most)
    by["hp"] -= amount
    g.emit("ability", ability="奉献", piece=by["id"], owner=by["owner"], target=t["id"], amount=amount,
           hp=by["hp"])
    g.heal(t, amount, "奉献")


def _shoot(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    t = g.ranged_target(a, by)
    member = g.precise_member(a, by, t)
    song = g.song(by)
    amount = SHOT_POWER + song
    g.emit("ability", ability="射击", piece=by["id"], owner=by["owner"], target=t["id"], amount=amount,
           song=song, member=member)
    if g.live:
        g.damage(t, amount, "shot", member=member)


def _fireball(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    if g.enemies_within(by["pos"], g.active):
        raise Refusal("fireball.crowded", "by", piece=by["id"])
    t = g.ranged_target(a, by)
    g.emit("ability", ability="火球", piece=by["id"], owner=by["owner"], target=t["id"], amount=FIREBALL_DAMAGE)
    if g.live:
        g.damage(t, FIREBALL_DAMAGE, "fireball", split=True)


def _portal(g: Turn, a: Action, by: dict[str, Any], q: dict[str, Any]) -> None:
    me = g.active
    if row_of(by["pos"]) not in g.home_rows(me) + g.neutral_rows(me):
        raise Refusal("portal.rows", "by", piece=by["id"])
    by["portal_open"] = True
    g.emit("ability", ability="开启传送阵", piece=by["id"], owner=me)


def _foes(g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"target": e["id"]} for e in g.s["squads"] if e["owner"] != player]


def _near(g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"at": c} for c in NEIGHBOURS[p["pos"]]]


def _hurt(g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"target": o["id"]} for o in g.s["pieces"] if o["owner"] == player and o["hp"] < o["max_hp"]]


def _walls(g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"at": c, "orientation": o} for c in NEIGHBOURS[p["pos"]] for o in ("horizontal", "vertical")]


def _squadmates(g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"target": o, "amount": 1} for o in g.squads[p["squad"]]["members"] if o != p["id"]]


def _once(g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    return [{}]


# the seed's order of G26, each ability of a class in the order the template offers them
ABILITIES: dict[str, Ability] = {a.name: a for a in (
    Ability("唱诗", ("sing",), _once, _sing),
    Ability("治疗", ("heal",), _hurt, _heal),
    Ability("造岩", ("rock",), _near, _rock),
    Ability("风墙", ("wind_wall", "wall"), _walls, _wall),
    Ability("变身野兽", ("beast",), _once, _beast),
    Ability("奉献", ("devotion",), _squadmates, _devotion),
    Ability("射击", ("shoot",), _foes, _shoot),
    Ability("火球", ("fireball",), _foes, _fireball),
    Ability("开启传送阵", ("portal",), _once, _portal),
)}
assert set(ABILITIES) == set(ABILITY_CLASS)
ABILITY_WORDS = {word: a.name for a in ABILITIES.values() for word in (a.name, *a.spellings)}


class UseAbility(GyKind):
    name = "ability"
    aliases = KINDS[name]
    fields = _fields("by", "at", "orientation", "id", "target", "amount", "member")

    def read_own(self, a: Action, r: SheetReader, f: Callable[[str], str]) -> bool:
        ok = True
        name = _lookup(ABILITY_WORDS, a["ability"])
        if name is None:
            r.add("field.choice", f("ability"), value=a["ability"], allowed=_choices(ABILITY_WORDS))
            ok = False
        a["ability"] = name
        if "orientation" in a:
            o = _lookup(ORIENTATIONS, a["orientation"])
            if o is None:
                r.add("field.choice", f("orientation"), value=a["orientation"], allowed=_choices(ORIENTATIONS))
                ok = False
            a["orientation"] = o
        if "amount" in a and (not isinstance(a["amount"], int) or isinstance(a["amount"], bool)):
            r.add("field.type", f("amount"), expected=r.words("integer"), got=type(a["amount"]).__name__)
            ok = False
        return ok

    @staticmethod
    def candidates(g: Turn, player: str, p: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The ability entries piece ``p`` might write: each ability of its class with each use it
        may try, not yet tried (:meth:`uses` keeps those that pass)."""
        for ability in ABILITIES.values():
            if ABILITY_CLASS[ability.name] == p["class"]:
                for use in ability.uses(g, player, p):
                    yield {"ability": ability.name, "by": p["id"], **use}

    def uses(self, g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
        """The ability entries piece ``p`` may write now, each tried on a copy of the turn."""
        return [entry for entry in self.candidates(g, player, p) if tries(g, {"verb": "ability", **entry})]

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        for q in g.own_squads(player):
            if q["actions_left"] >= 2:
                for p in g.members(q):
                    yield from self.uses(g, player, p)

    def apply(self, g: Turn, a: Action) -> None:
        me = g.active
        name = a["ability"]
        if a.get("by") is None:
            raise Refusal("ability.by", "by", ability=name, cls=ABILITY_CLASS[name])
        by = g.own_piece(a["by"], me, "by")
        if by["class"] != ABILITY_CLASS[name]:
            raise Refusal("ability.class", "by", piece=by["id"], ability=name, cls=ABILITY_CLASS[name])
        q = g.squad_of(by)
        if by["class"] in GUARDIANS and q["members"][0] != by["id"]:
            raise Refusal("ability.guardian_member", "by", piece=by["id"])
        g.need_chances(q, 2, "ability")
        ABILITIES[name].effect(g, a, by, q)
        q["actions_left"] -= 2


# --- free actions (G6, G8, G10) ------------------------------------------------------------------------
class Leader(GyKind):
    name = "leader"
    aliases = KINDS[name]

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        for q in g.own_squads(player):
            for m in q["members"][1:]:
                yield {"leader": m}

    def apply(self, g: Turn, a: Action) -> None:
        p = g.own_piece(a["leader"], g.active, "leader")
        q = g.squad_of(p)
        q["members"].remove(p["id"])
        q["members"].insert(0, p["id"])
        g.emit("leader", squad=q["id"], owner=q["owner"], piece=p["id"])


class Return(GyKind):
    name = "return"
    aliases = KINDS[name]
    lists = True

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        """Each squad in the home rows, whole, and each piece of it."""
        for q in g.own_squads(player):
            if g.in_home(player, q["pos"]):
                yield {"return": q["id"]}
                for m in q["members"]:
                    yield {"return": [m]}

    def apply(self, g: Turn, a: Action) -> None:
        me = g.active
        refs = a["return"] if isinstance(a["return"], list) else [a["return"]]
        pieces: list[dict[str, Any]] = []
        for i, r in enumerate(refs):
            f = f"return[{i}]" if isinstance(a["return"], list) else "return"
            if r in g.squads and g.squads[r]["owner"] == me:
                got = g.members(g.squads[r])
            else:
                got = [g.own_piece(r, me, f)]
            for p in got:
                if not g.in_home(me, p["pos"]):
                    raise Refusal("return.not_home", f, piece=p["id"], cell=p["pos"])
                if p not in pieces:
                    pieces.append(p)
        for p in pieces:
            g.to_hand(p, fled=False)
        g.emit("return", player=me, pieces=[p["id"] for p in pieces])


class Suicide(GyKind):
    name = "suicide"
    aliases = KINDS[name]

    def choices(self, g: Turn, player: str) -> Iterator[dict[str, Any]]:
        for q in g.own_squads(player):
            for m in q["members"]:
                yield {"suicide": m}

    def apply(self, g: Turn, a: Action) -> None:
        p = g.own_piece(a["suicide"], g.active, "suicide")
        g.emit("suicide", piece=p["id"], owner=p["owner"])
        g.kill(p, "suicide")


SUMMON, MOVE, ATTACK, FULL_ATTACK, ABILITY = Summon(), Move(), Attack(), FullAttack(), UseAbility()
ACTIONS: ActionTable[GyState, Turn] = ActionTable(
    SUMMON, MOVE, ATTACK, FULL_ATTACK, Defend(), ABILITY, Leader(), Split(), Return(), Suicide())
assert list(ACTIONS.kinds) == list(KINDS)  # the sheet's words name each kind, in the table's order


def options(state: GyState, player: str) -> list[tuple[str, dict[str, Any]]]:
    """``(kind, entry)`` of every option of every kind, on one prepared board."""
    g = prepare(state, player)
    return [(kind.name, entry) for kind in ACTIONS.kinds.values() if isinstance(kind, GyKind)
            for entry in kind.choices(g, player)]


# --- a whole sheet ----------------------------------------------------------------------------------------
def run(g: Turn, actions: list[Action]) -> list[tuple[int, Refusal]]:
    """Play the actions in order; returns the refused ones (index, refusal). On a live board
    a refused action is skipped with its real reason (R30: ``number`` counts from 1, as a
    reader does); once the game is decided the rest is skipped in one event."""
    refused = []
    for i, a in enumerate(actions):
        number = a.get("index", i) + 1
        if g.decided:
            g.emit("rest_skipped", first=number, last=actions[-1].get("index", len(actions) - 1) + 1,
                   reason="game_over")
            break
        try:
            ACTIONS.kinds[a["verb"]].apply(g, a)
        except Refusal as r:
            refused.append((i, r))
            if g.live:
                why = g.real_reason(r)
                g.emit("action_skipped", index=number - 1, number=number, verb=a["verb"], reason=why.code,
                       params=dict(why.params))
    return refused

"""The rules of 神将录 on plain-dict state (contract §4-§5; rulings in docs/rulings/shenjianglu.md).

A :class:`Turn` works on a private copy of a state: the active player's actions in order (each
carried out by its kind, actions.py), the end phase, then the next seat's start and draw phases.
Every action is checked completely before anything changes (:class:`Illegal` names the field at
fault), so `gm check` runs the very same code on a copy and refuses what resolution would not
do. A card's effects are done by their handlers (effects.py). There is no chance during a
turn: decks were shuffled at setup, so a sheet's outcome is known before it is resolved.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name
from gm_tool.rulesets.shenjianglu.cards import catalogue
from gm_tool.rulesets.shenjianglu.effects import EFFECTS, Effect
from gm_tool.rulesets.shenjianglu.geometry import CELLS, board_of, direction, distance, side_of
from gm_tool.rulesets.shenjianglu.rules import RULES

RED, GREEN = "red", "green"
DRAW = "draw"


class Illegal(Exception):
    """An action that may not be done now: a message code, the field (after ``actions.N.``) and
    the message's parameters."""

    def __init__(self, code: str, field: str, **params: Any):
        super().__init__(code)
        self.code, self.field, self.params = code, field, params


class Skip(Exception):
    """An action made impossible by what happened earlier in the turn (the game or the player's
    part in it ended): skipped with a logged reason, never refused."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def team_of(seat: int) -> str:
    return RED if seat % 2 else GREEN


def clone(state: dict[str, Any]) -> dict[str, Any]:
    """A copy deep enough for a turn (the board and catalogue are never changed, so shared)."""
    out = dict(state)
    out["seats"] = [{**s, "hand": list(s["hand"]), "deck": list(s["deck"]), "graveyard": list(s["graveyard"])}
                    for s in state["seats"]]
    out["units"] = [{**u, "buffs": [dict(b) for b in u["buffs"]], "captives": [dict(c) for c in u.get("captives") or ()]}
                    for u in state["units"]]
    if "labels" in state:
        out["labels"] = dict(state["labels"])
    return out


def rule(state: dict[str, Any], name: str) -> Any:
    """A rules switch of the state (a state stored before the switch existed reads its default)."""
    return state["rules"].get(name, RULES[name])


_STANDING: dict[tuple[str, str | None, int], list[tuple[Effect, Any]]] = {}


class Turn:
    def __init__(self, state: dict[str, Any], log: EventLog | None = None):
        self.s = state
        self.log = log if log is not None else EventLog()
        self.cat = catalogue(state)
        self.board = board_of(state)
        self.rules = state["rules"]
        self.seat_by_player = {s["player"]: s for s in state["seats"]}
        self.units = {u["id"]: u for u in state["units"]}
        if "labels" not in state:  # a state stored before labels were kept
            state["labels"] = first_labels(state["units"])
        self.pending: list[tuple[str, dict[str, Any], str | None]] = []  # reactions waiting: (unit, skill, attacker)
        self.queued: set[tuple[str, str, str, str | None]] = set()
        self.reacting = False
        self._activate(state["next"])

    def _activate(self, player: str | None) -> None:
        self.player = player
        self.seat = self.seat_by_player.get(player) if player else None
        self.mana = self.seat["mana"] if self.seat else 0
        self.playable = Counter(self.seat["hand"]) if self.seat else Counter()
        self.now = self.s["turn"] + 1

    @property
    def active_player(self) -> str:
        """The player whose turn it is, where one must be (an action, a bot, a sheet's hints)."""
        if self.player is None:
            raise Skip("player_out")
        return self.player

    @property
    def active_seat(self) -> dict[str, Any]:
        """The seat whose turn it is, where one must be (run refuses an action without one)."""
        if self.seat is None:
            raise Skip("player_out")
        return self.seat

    def emit(self, type_: str, to: Any = "all", **data: Any) -> None:
        self.log.emit(type_, to=to, **data)

    # relations -------------------------------------------------------------------------------
    def team(self, player: str) -> str:
        return self.seat_by_player[player]["team"]

    def related(self, relation: str, controller: str, unit: dict[str, Any], me: dict[str, Any] | None = None) -> bool:
        if relation == "any":
            return True
        if relation == "self":
            return unit is me
        if relation == "own":
            return unit["owner"] == controller
        if relation == "other":
            return unit["owner"] != controller
        same_team = unit["team"] == self.team(controller)
        if relation == "ally":
            return same_team and unit["owner"] != controller
        return not same_team  # enemy

    @staticmethod
    def fits(spec: dict[str, Any], unit: dict[str, Any], cat: dict[str, Any], me: dict[str, Any] | None = None) -> bool:
        """Whether ``unit`` is one the spec may choose: ``only``, ``kind``, and where a unit ``me``
        acts, the facing conditions ``from`` and ``in_front`` (ruling 28)."""
        only = spec.get("only")
        if only == "king" and not unit["king"] or only == "troop" and unit["king"]:
            return False
        kind = spec.get("kind")
        if kind and cat[unit["card"]].get("kind") != kind:
            return False
        if me is not None and me is not unit:
            side = spec.get("from")
            if side and side_of(CELLS[unit["pos"]], unit["facing"], CELLS[me["pos"]]) != side:
                return False
            if spec.get("in_front") and side_of(CELLS[me["pos"]], me["facing"], CELLS[unit["pos"]]) != "front":
                return False
        return True

    def kind(self, u: dict[str, Any]) -> str:
        return str(self.cat[u["card"]].get("kind") or "")

    def matches(self, cond: dict[str, Any], attacker: dict[str, Any], defender: dict[str, Any], kind_of: dict[str, Any]) -> bool:
        """A conditional standing effect (``bonus``, ``reduce``) holds for this attack: ``kind`` is
        ``kind_of``'s 细分类型, ``from`` where the attacker stands as seen from the defender."""
        if cond.get("kind") and self.kind(kind_of) != cond["kind"]:
            return False
        side = cond.get("from")
        return not side or side_of(CELLS[defender["pos"]], defender["facing"], CELLS[attacker["pos"]]) == side

    def immune_to(self, target: dict[str, Any], source: dict[str, Any] | None) -> bool:
        """``immune: {kind: X}``: nothing a unit of that 细分类型 does reaches the target."""
        if source is None or source is target:
            return False
        kind = self.kind(source)
        return bool(kind) and any(effect.shields(value, kind) for effect, value in self.standing(target))

    # standing effects and stats -----------------------------------------------------------------
    def standing(self, u: dict[str, Any]) -> list[tuple[Effect, Any]]:
        """The unit's standing effects with their handlers, latest placed first (S20): its
        equipment, then its own auto skills."""
        key = (u["card"], u["equipment"], id(self.cat))
        hit = _STANDING.get(key)
        if hit is None:
            effects: list[dict[str, Any]] = []
            for name in (u["equipment"], u["card"]):
                if name is None:
                    continue
                card = self.cat[name]
                if card["type"] == "equipment":
                    effects.extend(card["effects"])
                for sk in card.get("skills", ()):
                    if sk["mode"] == "auto" and "when" not in sk:
                        effects.extend(sk["effects"])
            hit = [(EFFECTS[k], v) for e in effects for k, v in e.items()]
            if len(_STANDING) > 4096:
                _STANDING.clear()
            _STANDING[key] = hit
        return hit

    def has(self, u: dict[str, Any], name: str) -> Any:
        """The value of the unit's first standing effect ``name`` (a flag: ``haste``), or None."""
        for effect, value in self.standing(u):
            if effect.name == name:
                return value
        return None

    def restat(self, u: dict[str, Any]) -> None:
        card = self.cat[u["card"]]
        stats = {"attack": card["attack"], "stamina": card["stamina"], "move": card["move"]}
        for effect, value in self.standing(u):
            effect.stats(value, stats)
        for b in u["buffs"]:
            for k, v in b.items():
                stats[k] += v
        u["attack"] = max(0, stats["attack"])
        u["stamina"] = max(1, stats["stamina"])
        u["move"] = max(0, stats["move"])

    def skills_of(self, u: dict[str, Any], mode: str, when: str | None = None) -> list[dict[str, Any]]:
        out = []
        for name in (u["card"], u["equipment"]):
            if name is None:
                continue
            for sk in self.cat[name].get("skills", ()):
                if sk["mode"] == mode and sk.get("when") == when:
                    out.append(sk)
        return out

    def may_act(self, u: dict[str, Any]) -> bool:
        return (not u["acted"] and u["owner"] == self.player
                and (u["arrived"] < self.now or bool(self.has(u, "haste"))))

    # damage, counters, deaths -------------------------------------------------------------------
    def hurt(self, source: dict[str, Any] | None, target: dict[str, Any], amount: int, how: str) -> None:
        raw = amount
        if source is not None and amount > 0:
            for effect, value in self.standing(source):
                amount = effect.outgoing(self, value, amount, source, target)
        for effect, value in self.standing(target):  # latest placed first (S20)
            amount = effect.incoming(self, value, amount, source, target)
        target["damage"] += amount
        self.emit("damage", unit=target["id"], amount=amount, nominal=raw, how=how,
                  by=source["id"] if source else None, damage=target["damage"], stamina=target["stamina"])
        if amount > 0:
            self.react(target, "damaged", source)

    def counter_reason(self, source: dict[str, Any] | None, target: dict[str, Any], amount: int, how: str,
                       first: bool) -> str | None:
        """None when the target answers (S15); else why not: ``""`` where no counter was to be
        expected (a spell, a counter, a shot from afar, one's own unit), or the reason a post
        tells: ``no_damage`` (ruling 6), ``no_counter`` (the attacker's skill), ``not_first``
        (ruling 5), ``countered`` (the ``counter: first_counterable`` switch)."""
        if (source is None or how not in ("normal", "skill") or source["owner"] == target["owner"]
                or source["id"] not in self.units or distance(CELLS[source["pos"]], CELLS[target["pos"]]) != 1):
            return ""
        if amount <= 0:
            return "no_damage"
        if self.has(source, "no_counter"):
            return "no_counter"
        if rule(self.s, "counter") == "first_attack":
            return None if first else "not_first"
        return "countered" if target.get("countered") else None

    def strike(self, source: dict[str, Any] | None, target: dict[str, Any], amount: int, how: str) -> None:
        """An attack with damage: the target's first attack of the turn is answered by a counter
        when it came from an adjacent unit of another player (S15), both landing at once."""
        if self.immune_to(target, source):
            assert source is not None
            self.emit("immune_kind", unit=target["id"], by=source["id"], kind=self.kind(source))
            return
        first = not target["hit"]
        target["hit"] = True
        self.react(target, "attacked", source)
        why = self.counter_reason(source, target, amount, how, first)
        back = target["attack"]
        self.hurt(source, target, amount, how)
        if source is None or why == "":
            return
        if why is not None:
            self.emit("counter_withheld", unit=target["id"], target=source["id"], reason=why)
            return
        target["countered"] = True
        self.emit("counter", unit=target["id"], target=source["id"], amount=back)
        if self.immune_to(source, target):
            self.emit("immune_kind", unit=source["id"], by=target["id"], kind=self.kind(target))
            return
        source["hit"] = True
        self.react(source, "attacked", target)
        self.hurt(target, source, back, "counter")

    def react(self, u: dict[str, Any], when: str, source: dict[str, Any] | None) -> None:
        """Queue ``u``'s ``attacked``/``damaged`` triggers (once per attacker within a settlement;
        never for what a reaction itself does, ruling 31)."""
        if self.reacting:
            return
        for sk in self.skills_of(u, "auto", when):
            key = (u["id"], sk["name"], when, source["id"] if source else None)
            if key not in self.queued:
                self.queued.add(key)
                self.pending.append((u["id"], sk, source["id"] if source else None))

    def settle(self) -> None:
        """Deaths, then the reactions queued meanwhile, each followed by its own deaths."""
        self.deaths()
        while self.pending and self.s["winner"] is None:
            uid, skill, src = self.pending.pop(0)
            u = self.units.get(uid)
            if u is None or self.seat_by_player[u["owner"]]["out"]:
                continue
            self.reacting = True
            try:
                self.trigger(u, skill, self.units.get(src) if src else None)
            finally:
                self.reacting = False
            self.deaths()
        self.pending.clear()
        self.queued.clear()

    def deaths(self) -> None:
        """Remove every unit whose damage reached its 体力, round after round (death triggers may
        kill more); kings' deaths put players out; the game ends at once when a team has no king."""
        while self.s["winner"] is None:
            dead = [u for u in self.s["units"] if u["damage"] >= u["stamina"]]
            if not dead:
                return
            for u in dead:
                self.remove(u, "death")
            outs = [u["owner"] for u in dead if u["king"]]
            for player in outs:
                self.put_out(player)
            kings = {u["team"] for u in self.s["units"] if u["king"]}
            if len(kings) <= 1:
                self.s["winner"] = kings.pop() if kings else DRAW
                self.emit("game_over", winner=self.s["winner"])
                return
            for u in dead:
                if not u["king"] and not self.seat_by_player[u["owner"]]["out"]:
                    for sk in self.skills_of(u, "auto", "death"):
                        self.trigger(u, sk)
            for u in dead:  # others' "when a unit dies" (ruling 18)
                for w in list(self.s["units"]):
                    if w["id"] not in self.units or self.seat_by_player[w["owner"]]["out"]:
                        continue
                    for sk in self.skills_of(w, "auto", "unit_death"):
                        if self.related(sk["of"], w["owner"], u, w):
                            self.trigger(w, sk, u)

    def remove(self, u: dict[str, Any], why: str, captor: dict[str, Any] | None = None) -> None:
        """``u`` leaves the board: to its owner's graveyard (a king too), or under ``captor``
        (收服, l.49); its equipment to the graveyard of whoever played it; its own captives freed."""
        self.s["units"].remove(u)
        del self.units[u["id"]]
        seat = self.seat_by_player[u["owner"]]
        if captor is not None:
            captor["captives"] = [*(captor.get("captives") or ()), {"id": u["id"], "card": u["card"], "owner": u["owner"]}]
        else:
            seat["graveyard"].append(u["card"])
        if u["equipment"]:
            self.seat_by_player[u["equipment_by"]]["graveyard"].append(u["equipment"])
        if captor is not None:
            self.emit("captured", unit=u["id"], card=u["card"], owner=u["owner"], by=captor["id"],
                      equipment=u["equipment"])
        else:
            self.emit("death" if why == "death" else "removed", unit=u["id"], card=u["card"], owner=u["owner"],
                      pos=u["pos"], equipment=u["equipment"], why=why)
        self.free_captives(u)

    def free_captives(self, captor: dict[str, Any]) -> None:
        """The captives of a unit that left the board (ruling 11): to their owners' graveyards, or
        with ``captives: release`` back on the board next to where it stood."""
        held, captor["captives"] = captor.get("captives") or [], []
        for c in held:
            seat = self.seat_by_player[c["owner"]]
            cell = None
            if rule(self.s, "captives") == "release" and not seat["out"]:
                cell = self.free_cell_near(CELLS[captor["pos"]])
            if cell is None:
                seat["graveyard"].append(c["card"])
                self.emit("captive_lost", card=c["card"], owner=c["owner"], by=captor["id"])
                continue
            uid = c["id"]  # never reused (ids are unique for the whole game), so free; its label stays
            u = new_unit(uid, c["card"], seat, cell_name(cell), self.board.facing[seat["seat"]], self.now)
            self.s["units"].append(u)
            self.units[uid] = u
            self.restat(u)
            self.emit("released", unit=uid, card=c["card"], owner=c["owner"], pos=u["pos"], by=captor["id"])

    def free_cell_near(self, start: Cell) -> Cell | None:
        """The nearest free cell of the board from ``start`` (itself first; ties N, E, S, W)."""
        occupied = {CELLS[t["pos"]] for t in self.s["units"]}
        for cell in self.board.reach(start, self.board.width + self.board.height, set()):
            if cell not in occupied:
                return cell
        return None

    def put_out(self, player: str) -> None:
        seat = self.seat_by_player[player]
        seat["out"] = True
        for u in [u for u in self.s["units"] if u["owner"] == player]:
            self.remove(u, "out")
        for w in self.s["units"]:  # its cards held under others' units go with the rest (3.14)
            held = w.get("captives") or []
            if any(c["owner"] == player for c in held):
                w["captives"] = [c for c in held if c["owner"] != player]
                seat["graveyard"].extend(c["card"] for c in held if c["owner"] == player)
        seat["graveyard"].extend(seat["hand"])
        self.emit("out", player=player, seat=seat["seat"], hand=len(seat["hand"]))
        seat["hand"] = []
        if player == self.player:
            self.playable = Counter()

    # effects --------------------------------------------------------------------------------------
    def apply(self, effects: list[dict[str, Any]], source: dict[str, Any] | None, target: dict[str, Any],
              controller: str, how: str) -> None:
        """A skill's, spell's or trigger's effects on one target, in order, each by its handler
        (effects.py), while the target stays on the board; nothing of a unit whose 细分类型 the
        target is immune to reaches it."""
        if self.immune_to(target, source):
            assert source is not None
            self.emit("immune_kind", unit=target["id"], by=source["id"], kind=self.kind(source))
            return
        for e in effects:
            if target["id"] not in self.units:
                return
            (key, value), = e.items()
            effect = EFFECTS[key]
            if effect.provokes(value, controller, target):
                target["hit"] = True
                self.react(target, "attacked", source)
            effect.apply(self, value, source, target, controller, how)

    def trigger(self, u: dict[str, Any], skill: dict[str, Any], other: dict[str, Any] | None = None) -> None:
        """An auto skill's trigger: every unit its target names, in board order (``attacker``:
        the unit whose attack set it off, while on the board). Told only when it reaches someone."""
        owner = u["owner"]
        relation = skill["target"]
        if relation == "self":
            targets = [u] if u["id"] in self.units else []
        elif relation == "attacker":
            targets = [other] if other is not None and other["id"] in self.units else []
        else:
            here = CELLS[u["pos"]]
            reach = 1 if skill.get("adjacent") else (skill.get("area") or {}).get("within")
            targets = [t for t in self.s["units"]
                       if self.related(relation, owner, t, u) and self.fits(skill, t, self.cat, u)
                       and (reach is None or t is not u and distance(here, CELLS[t["pos"]]) <= reach)
                       and (not skill.get("enemy_kings") or (t["king"] and t["team"] != u["team"]))]
        if not targets:
            return
        self.emit("trigger", unit=u["id"], skill=skill["name"], targets=[t["id"] for t in targets])
        for t in targets:
            self.apply(skill["effects"], u, t, owner, "skill")

    def draw(self, seat: dict[str, Any], n: int, penalty: bool) -> None:
        """``n`` cards from the top of the deck. At the draw phase (``penalty``) an empty deck costs
        the king ``empty_deck_loss`` once when no card at all can be drawn (l.209, ruling 16), or
        per missing card with ``empty_deck_penalty: per_draw``."""
        per_draw = rule(self.s, "empty_deck_penalty") == "per_draw"
        for i in range(n):
            if seat["deck"]:
                card = seat["deck"].pop(0)
                seat["hand"].append(card)
                self.emit("drawn", to=[seat["player"]], player=seat["player"], card=card)
                self.emit("draw", player=seat["player"], hand=len(seat["hand"]), deck=len(seat["deck"]))
                continue
            if not penalty:
                self.emit("no_card", player=seat["player"])
                continue
            if i > 0 and not per_draw:
                return  # a card was drawn: there was a card to draw
            king = self.units.get(f"K{seat['seat']}")
            if king is None:
                return
            loss = self.rules["empty_deck_loss"]
            king["damage"] += loss
            self.emit("empty_deck", player=seat["player"], unit=king["id"], amount=loss,
                      damage=king["damage"], stamina=king["stamina"])
            self.settle()
            if seat["out"] or self.s["winner"] is not None or not per_draw:
                return

    # what a sheet names ---------------------------------------------------------------------------
    def find(self, ref: str) -> dict[str, Any] | None:
        """The unit a sheet names: by id or by label (the posts' name for it), then as a cell is
        read: full-width forms and either case (``Ｋ２``, ``k2``)."""
        u = self.units.get(ref)
        if u is not None:
            return u
        labels = self.s["labels"]
        by_label = {labels.get(x["id"]): x for x in self.s["units"]}
        key = unicodedata.normalize("NFKC", ref).strip()
        for cand in (ref, key, key.upper()):
            u = self.units.get(cand) or by_label.get(cand)
            if u is not None:
                return u
        folded = [x for x in self.s["units"] if x["id"].casefold() == key.casefold()]
        return folded[0] if len(folded) == 1 else None

    def hits(self, spec: dict[str, Any], chosen: list[dict[str, Any]], me: dict[str, Any] | None) -> list[dict[str, Any]]:
        """Whom an action reaches: the chosen targets, or with ``area`` every unit the area's
        ``target`` names (default: the spec's own, ``other`` for a skill on itself) within N of a
        chosen target, or on the N cells from the user towards it (ruling 29), in board order."""
        area = spec.get("area")
        if not area:
            return chosen
        relation = area.get("target") or (spec["target"] if spec["target"] != "self" else "other")
        cells: set[Cell] = set()
        for c in chosen:
            centre = CELLS[c["pos"]]
            if "within" in area:
                cells.update(x for x in self.board.cells if distance(centre, x) <= area["within"])
            elif me is not None:
                here = CELLS[me["pos"]]
                step = direction(here, centre)
                assert step is not None
                cells.update((here[0] + step[0] * k, here[1] + step[1] * k) for k in range(1, area["line"] + 1))
        return [t for t in self.s["units"] if CELLS[t["pos"]] in cells
                and self.related(relation, self.active_player, t, me) and self.fits(spec, t, self.cat)]

    def legal_moves(self, u: dict[str, Any]) -> dict[Cell, tuple[int, Cell | None]]:
        """Where the unit's 移动力 takes it: never through a unit of the other team (3.9)."""
        blocked = {CELLS[t["pos"]] for t in self.s["units"] if t["team"] != u["team"]}
        return self.board.reach(CELLS[u["pos"]], u["move"], blocked)

    def occupied(self, cell: Cell) -> bool:
        name = cell_name(cell)
        return any(t["pos"] == name for t in self.s["units"])

    # phases ---------------------------------------------------------------------------------------
    def end_phase(self) -> None:
        if self.s["winner"] is None and self.seat is not None and not self.seat["out"]:
            for u in [u for u in self.s["units"] if u["owner"] == self.player]:
                for sk in self.skills_of(u, "auto", "end"):
                    if u["id"] in self.units:
                        self.trigger(u, sk)
            self.settle()
        healed = []
        for u in self.s["units"]:
            if not u["king"] and u["damage"]:
                u["damage"] = 0
                healed.append(u["id"])
            u["acted"] = u["hit"] = u["countered"] = False
            if u["buffs"]:
                u["buffs"] = []
                self.restat(u)
        if healed:
            self.emit("recover", units=healed)
        self.settle()  # a king whose stamina buff ended
        self.emit("turn_end", player=self.player, turn=self.now)

    def bonus(self, seat: dict[str, Any]) -> bool:
        """S6: with an odd number of players still in, the smaller team's players get more
        (ruling 15; ``odd_bonus: at_start`` counts the players the game began with)."""
        live = [s for s in self.s["seats"] if rule(self.s, "odd_bonus") == "at_start" or not s["out"]]
        if len(live) % 2 == 0:
            return False
        mine = sum(1 for s in live if s["team"] == seat["team"])
        return mine < len(live) - mine

    def begin_next(self, first: bool = False) -> None:
        """From the seat after the active one (seat 1 when ``first``): start and draw phases of the
        next seat still in, passing over seats put out meanwhile."""
        seats = self.s["seats"]
        idx = -1 if first else seats.index(self.seat)
        for _ in range(len(seats) * 2):
            if self.s["winner"] is not None:
                break
            idx = (idx + 1) % len(seats)
            seat = seats[idx]
            if seat["out"]:
                continue
            self.s["next"] = seat["player"]
            seat["mana"] = self.rules["mana"] + (self.rules["odd_mana"] if self.bonus(seat) else 0)
            self._activate(seat["player"])
            self.emit("turn_start", player=seat["player"], seat=seat["seat"], turn=self.now)
            for u in [u for u in self.s["units"] if u["owner"] == seat["player"]]:
                for sk in self.skills_of(u, "auto", "start"):
                    if u["id"] in self.units and not seat["out"]:
                        self.trigger(u, sk)
                        self.settle()
            if seat["out"] or self.s["winner"] is not None:
                continue
            n = self.rules["draw"] + (self.rules["odd_draw"] if self.bonus(seat) else 0)
            if len(seat["hand"]) >= self.rules["draw_limit"]:
                self.emit("draw_limit", player=seat["player"], hand=len(seat["hand"]))
            else:
                self.draw(seat, n, penalty=True)
            if seat["out"] or self.s["winner"] is not None:
                continue
            seat["mana"] = self.mana
            self.playable = Counter(seat["hand"])
            return
        self.s["next"] = None

    def finish(self) -> dict[str, Any]:
        """The stored form: counts, every seat's mana and draw, who may act."""
        s = self.s
        if s["winner"] is not None:
            s["next"] = None
        for seat in s["seats"]:
            seat["hand_count"] = len(seat["hand"])
            seat["deck_count"] = len(seat["deck"])
            if seat["player"] != s["next"]:
                seat["mana"] = self.rules["mana"] + (self.rules["odd_mana"] if not seat["out"] and self.bonus(seat) else 0)
            seat["draw"] = self.rules["draw"] + (self.rules["odd_draw"] if not seat["out"] and self.bonus(seat) else 0)
        self.now = s["turn"] + 1
        for u in s["units"]:
            u["can_act"] = s["next"] is not None and u["owner"] == s["next"] and not u["acted"] and (
                u["arrived"] < self.now or bool(self.has(u, "haste")))
        return s


def made_id(uid: str, players: list[str]) -> bool:
    """Whether an id is one the tool made: a king's ``K1``..``K8`` or a summon's ``PLAYER-N``
    (which carries a player's id: posts and sheets name such a unit by its label only)."""
    if len(uid) == 2 and uid[0] == "K" and uid[1] in "12345678":
        return True
    return any(uid.startswith(p + "-") and uid[len(p) + 1:].isdigit() for p in players)


def next_label(labels: dict[str, str]) -> str:
    """A troop's label: the next number never given in this game (kings are K1..K8)."""
    return str(sum(1 for x in labels.values() if x.isdigit()) + 1)


def first_labels(units: list[dict[str, Any]]) -> dict[str, str]:
    """Labels for units that have none yet, in board order: kings their id, troops numbers."""
    labels: dict[str, str] = {}
    for u in units:
        labels[u["id"]] = u["id"] if u["king"] else next_label(labels)
    return labels


def new_unit(uid: str, card: str, seat: dict[str, Any], pos: str, facing: str, arrived: int,
             king: bool = False) -> dict[str, Any]:
    return {"id": uid, "card": card, "owner": seat["player"], "team": seat["team"], "king": king, "pos": pos,
            "facing": facing, "attack": 0, "stamina": 1, "move": 0, "damage": 0, "equipment": None,
            "equipment_by": None, "arrived": arrived, "can_act": False, "buffs": [], "hit": False, "acted": False,
            "countered": False, "captives": []}

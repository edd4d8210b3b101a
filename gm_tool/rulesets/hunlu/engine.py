"""The 魂陆 engine: one general-turn at a time on a plain-dict state.

:class:`Game` wraps a (copied) state with the turn's dice and event log. ``run_actions`` plays a
sheet's actions for the general due; the same code checks a sheet (``strict``: a problem becomes a
Problem naming ``actions.N``) and resolves it (a problem becomes a logged skip). ``advance`` runs
everything automatic up to the next general able to act: round end, round start, 先手 skills,
恢气, substitutions, 天堑 returns. Rule references (H1-H26) are the contract's, l.N the seed's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name, in_bounds, parse_cell
from gm_tool.core.schema import Validator
from gm_tool.rulesets.hunlu import rules as R
from gm_tool.rulesets.hunlu.effects import kind_of
from gm_tool.rulesets.hunlu.skip import Skip as Skip

NEGATIVE = ("郁气", "失明", "沉默", "缴械", "睡眠", "停止行动", "定身")
CANT_ACT = ("寂灭", "睡眠", "停止行动")
MAX_DICE = 10000  # the longest forced queue or forum-roll list
ROUND_GUARD = 20  # rounds that may pass in a row with nobody able to act before `next` is null


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


def lowers(st: dict[str, Any]) -> bool:
    """Is a status negative (H3, ruling R24): a named negative status, a stat lowered (a
    行动力 cut or cap, a strike failure), an attribute turned off."""
    for k, x in (st.get("stats") or {}).items():
        if (x > 0 if k == "strike_fail" else True if k == "move_max" else x < 0):
            return True
    return st["name"] in NEGATIVE or bool(st.get("off"))


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

    def blocked(self, c: Cell, flying: bool = False, dash: bool = False, airborne: bool = False) -> bool:
        """Is point ``c`` blocked (H21)? Units and bodies are grade I; 天堑 (III) blocks nothing."""
        grade = self.terrain.get(c)
        if grade == 4 or (grade == 2 and not airborne):
            return True
        if dash:
            return False  # dashes pass grade I
        return self.unit_at(c) is not None

    def has(self, u: dict[str, Any], name: str) -> bool:
        for st in u["statuses"]:
            if st["active"] and st["name"] == name:
                return True
        return False

    def active_buffs(self, u: dict[str, Any]) -> list[dict[str, Any]]:
        return [st for st in u["statuses"] if st["active"]]

    def stat_sum(self, u: dict[str, Any], stat: str) -> list[int]:
        """The values active buffs give ``stat`` (each buff one value; the rule decides how they add)."""
        out = []
        for st in u["statuses"]:
            if st["active"]:
                stats = st.get("stats")
                if stats and stat in stats:
                    out.append(stats[stat])
        return out

    def attr(self, u: dict[str, Any], a: str) -> int:
        """Effective pips of attribute ``a`` (H7): base plus buffs as pips, 失明 −5 hit, 失效 → 0."""
        if any(a in st.get("off", ()) for st in self.active_buffs(u)):
            return 0
        n = R.pips(u["attrs"][a]) + sum(R.pips(x) for x in self.stat_sum(u, a))
        if a == "hit" and self.has(u, "失明"):
            n -= 5
        return R.clamp_pips(n)

    def move_value(self, u: dict[str, Any]) -> int:
        """Effective 行动力 (H23)."""
        cuts = [-x for x in self.stat_sum(u, "move_pct") if x < 0]  # move_pct: -50 is a cut of 50 %
        return R.effective_move(u["base_move"], self.stat_sum(u, "move"), cuts, self.stat_sum(u, "move_max"))

    def range_of(self, u: dict[str, Any], sk: dict[str, Any] | None = None) -> int:
        base = u["base_range"]
        if sk is not None and sk.get("range") is not None:
            base = sk["range"] + self.mod(u, sk["id"], "range")
        return max(0, base + sum(self.stat_sum(u, "range")))

    def mod(self, u: dict[str, Any], sid: str, key: str) -> float:
        """skill_mods of active toggles (焚天凤炎 on 天劫重斩)."""
        total = 0
        for st in self.active_buffs(u):
            total += (st.get("skill_mods") or {}).get(sid, {}).get(key, 0)
        return total

    def can_act(self, u: dict[str, Any]) -> bool:
        """On the field, 神 above 0 (l.22, however 神 got to 0) and no status that stops it."""
        if not (u["alive"] and u["role"] == "main" and u["pos"] is not None) or u["shen"] <= 0:
            return False
        for st in u["statuses"]:
            if st["active"] and st["name"] in CANT_ACT:
                return False
        return True

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

    def reachable_target(self, src: dict[str, Any], tgt: dict[str, Any], r: int, flying: bool) -> str | None:
        """None if ``tgt`` may be aimed at from ``src`` with range ``r``; else a reason code."""
        a, b = self.cell(src), self.cell(tgt)
        if a is None or b is None or not tgt["alive"]:
            return "target_gone"
        if not R.in_square(a, b, r):
            return "out_of_range"
        if src["element"] in R.LINE_ELEMENTS and not R.same_line(a, b):
            return "off_line"
        if flying and any(self.blocked(c, flying=True) for c in R.between(a, b)):
            return "path_blocked"
        return None

    # ---- damage, statuses, death -----------------------------------------------------------
    def hurt(self, tgt: dict[str, Any], amount: float, src: dict[str, Any] | None, why: str) -> float:
        """Apply damage (already computed) to ``tgt``: 所向无前's conversion, death, triggers."""
        if amount <= 0 or not tgt["alive"] or self.checking:
            return 0 if self.checking else 0
        if any(st.get("absorb") for st in self.active_buffs(tgt)):
            self.heal(tgt, amount, why="absorb")
            return 0
        before = tgt["jing"]
        tgt["jing"] = R.num(max(0, tgt["jing"] - amount))
        tgt["round"]["damaged"] = True
        if src is not None:
            src["round"]["dealt"] = True
            rec = tgt["round"]["received"]
            rec[src["id"]] = R.num(rec.get(src["id"], 0) + amount)
        self.emit("damage", unit=tgt["id"], amount=R.num(amount), jing=tgt["jing"],
                  source=src["id"] if src else None, why=why)
        if self.has(tgt, "睡眠"):
            self.end_status(tgt, "睡眠")
        if tgt["jing"] <= 0:
            self.die(tgt)
        else:
            self.passives(tgt, lambda t: isinstance(t, dict) and before >= t["jing_below"] > tgt["jing"])
        return amount

    def heal(self, u: dict[str, Any], amount: float, why: str = "") -> None:
        new = R.num(min(u["max_jing"], u["jing"] + amount))
        if new != u["jing"]:
            u["jing"] = new
            self.emit("heal", unit=u["id"], amount=R.num(amount), jing=new, why=why)

    def lose_shen(self, u: dict[str, Any], src: dict[str, Any] | None, why: str) -> None:
        """H3: −1 神 per hit carrying a negative status, once a round; 神 0 → 寂灭."""
        if u["round"]["shen_lost"] or not u["alive"] or self.checking:
            return
        for w in u["wards"]:
            if w["kind"] == "shen" and w["count"] > 0:
                w["count"] -= 1
                self.emit("ward", unit=u["id"], kind="shen")
                if w.get("reflect") and src is not None and src["alive"]:
                    self.lose_shen(src, None, why="reflect")
                u["wards"] = [x for x in u["wards"] if x["count"] > 0]
                return
        u["round"]["shen_lost"] = True
        u["shen"] = max(0, u["shen"] - 1)
        self.emit("shen", unit=u["id"], shen=u["shen"], why=why)
        self.silence_at_zero(u)

    def silence_at_zero(self, u: dict[str, Any]) -> None:
        """l.22-23: 「当神为0时，魂将无法主动行动」, 寂灭 for good, however 神 got to 0 (a hit, a
        skill's 神 loss, a GM edit, a scenario's starting value)."""
        if u["shen"] <= 0 and u["alive"] and not self.has(u, "寂灭"):
            u["statuses"].append({"name": "寂灭", "rounds": None, "active": True, "source": u["id"]})
            self.emit("status", unit=u["id"], name="寂灭", rounds=None, active=True)

    def add_status(self, u: dict[str, Any], st: dict[str, Any], src: dict[str, Any], at_once: bool = False) -> None:
        st = {**st, "active": at_once, "source": src["id"]}
        before = self.move_value(u)
        # the same buff again (same skill, same source) refreshes it rather than stacking (ruling R15)
        u["statuses"] = [x for x in u["statuses"] if not (x.get("skill") and x.get("skill") == st.get("skill")
                                                          and x["source"] == src["id"] and x["name"] == st["name"])]
        u["statuses"].append(st)
        self.emit("status", unit=u["id"], name=st["name"], rounds=st["rounds"], active=at_once, source=src["id"])
        if at_once:
            self.move_changed(u, before)
        if lowers(st) and self.enemies(src, u):
            self.lose_shen(u, src, why=st["name"])

    def move_changed(self, u: dict[str, Any], before: int) -> None:
        """A status active at once changes the 行动力 left this round by what it changes the
        general's 行动力 (所向无前 cast as 先手 cuts the round it is cast in, ruling R3)."""
        delta = self.move_value(u) - before
        if delta:
            u["move"] = max(0, u["move"] + delta)

    def end_status(self, u: dict[str, Any], name: str) -> None:
        u["statuses"] = [st for st in u["statuses"] if st["name"] != name]
        self.emit("status_end", unit=u["id"], name=name)

    def die(self, u: dict[str, Any]) -> None:
        """H15: death; the reserve is chosen at once (standing, else team order); the body stays.
        Its statuses end: a 心战 card on it is shown (l.120)."""
        u["alive"] = False
        u["role"] = "dead"
        self.emit("death", unit=u["id"], pos=u["pos"])
        self.clear_statuses(u)
        if u.get("leaving"):  # dying while being substituted: the chosen reserve replaces the body
            u["replaced_by"], u["leaving"] = u["leaving"], None
            self.emit("reserve_chosen", unit=u["id"], reserve=u["replaced_by"])
        else:
            self.pick_reserve(u)
        if u.get("replaced_by") is None and u["id"] in self.s["order"]:
            self.s["order"].remove(u["id"])
        self.check_victory()

    def pick_reserve(self, u: dict[str, Any]) -> None:
        taken = {x.get("replaced_by") for x in self.s["units"]} | {x.get("leaving") for x in self.s["units"]}
        pref = self.s["standing"].get(u["player"], {}).get("reserve_order") or []
        bench = [x for x in self.s["units"] if x["player"] == u["player"] and x["role"] == "reserve"
                 and x["alive"] and x["id"] not in taken]
        bench.sort(key=lambda x: (pref.index(x["id"]) if x["id"] in pref else len(pref)))
        u["replaced_by"] = bench[0]["id"] if bench else None
        if bench:
            self.emit("reserve_chosen", unit=u["id"], reserve=bench[0]["id"])

    def check_victory(self) -> None:
        if self.s["winner"] is not None:
            return
        lost = [side for side in self.s["sides"]
                if not any(u["alive"] for u in self.s["units"] if u["side"] == side)]
        if lost:
            self.s["winner"] = "draw" if len(lost) == len(self.s["sides"]) else \
                next(s for s in self.s["sides"] if s not in lost)
            self.emit("victory", winner=self.s["winner"])

    # ---- chance checks -------------------------------------------------------------------
    def chance_check(self, owner: dict[str, Any], pct: int, why: str, passive: bool = True) -> bool:
        if self.checking:
            return False
        n = R.pips(pct)
        if passive:
            n += sum(R.pips(x) for x in self.stat_sum(owner, "passive_chance"))
        n = R.clamp_pips(n)
        face = self.roll(why, owner["id"])
        ok = R.low_faces(n, face)
        self.emit("chance", unit=owner["id"], why=why, pips=n, face=face, ok=ok)
        return ok

    def passives(self, u: dict[str, Any], trigger: Callable[[Any], bool], ctx: dict[str, Any] | None = None) -> None:
        for sk in self.skills(u):
            if sk["timing"] != "passive" or not trigger(sk["trigger"]):
                continue
            if not u["alive"] and not isinstance(sk["trigger"], str):
                continue
            if sk["once"] and sk["id"] in u["once"]:
                continue
            if sk["chance"] is not None and not self.chance_check(u, sk["chance"], sk["name"]):
                continue
            if self.idle(u, sk["effects"], ctx or {}):
                continue  # nothing it could do (天剑行 after dealing damage): no line
            if sk["once"]:
                u["once"].append(sk["id"])
            self.emit("passive", unit=u["id"], skill=sk["id"], name=sk["name"])
            for eff in sk["effects"]:
                self.effect(u, u, eff, sk, ctx or {})

    def idle(self, u: dict[str, Any], effects: list[dict[str, Any]], ctx: dict[str, Any]) -> bool:
        """Would a passive's effects on ``u`` itself do nothing: every one a condition that does
        not hold or a heal at full 精?"""
        for eff in effects:
            kind, val = kind_of(eff)
            if not kind.idle(self, u, val, ctx):
                return False
        return True

    # ---- strikes -------------------------------------------------------------------------
    def strike(self, att: dict[str, Any], tgt: dict[str, Any], base: float, why: str, joint: bool = False,
               sk: dict[str, Any] | None = None) -> float | None:
        """One strike (H10): one d6 against both sides' attributes at once (H7, H8, H25).
        Returns the damage dealt, or None when the strike failed/was nullified."""
        pctx: dict[str, Any] = {"attacker": att}
        self.passives(tgt, lambda t: t == "attacked", pctx)
        self.negated = bool(pctx.get("negated"))  # the target's passive made this attack's effects miss
        fail = max(self.stat_sum(att, "strike_fail"), default=0)
        if fail and self.chance_check(att, fail, "strike_fail", passive=False):
            self.emit("strike_failed", unit=att["id"], target=tgt["id"])
            return None
        if not tgt["alive"]:
            return None
        per = sum(self.stat_sum(att, "qi_per_strike"))
        if per:
            att["qi"] = R.num(max(0, att["qi"] - per))
        face = self.roll(why, att["id"])
        lower = att["shen"] < tgt["shen"]
        blocked_by = {a: st["name"] for st in self.active_buffs(tgt) if st.get("immune")
                      if st["immune"].get("from") != "lower_shen" or lower for a in st["immune"]["attrs"]}
        crit_face = not joint and R.low_faces(self.attr(att, "crit"), face)
        weak_face = R.high_faces(self.attr(tgt, "weakness"), face)
        crit = crit_face and "crit" not in blocked_by
        weak = weak_face and "weakness" not in blocked_by
        dodge = R.low_faces(self.attr(tgt, "dodge"), face)
        hit = not joint and R.low_faces(self.attr(att, "hit"), face)
        defence = R.low_faces(self.attr(tgt, "defence"), face)
        element = att["element"] is not None
        resist = element and R.low_faces(self.attr(tgt, "resist"), face)
        sure = self.has(att, "必中") and not self.has(att, "失明")
        pierce = self.has(att, "破防")
        nullified = (dodge and not (hit or sure)) or (defence and not pierce)
        # what the die showed but does not count, and why, for the line that shows the die
        cancel = [[a, blocked_by[a]] for a, shown in (("crit", crit_face), ("weakness", weak_face))
                  if shown and a in blocked_by]
        if dodge and (hit or sure):
            cancel.append(["dodge", "hit" if hit else "必中"])
        if defence and pierce:
            cancel.append(["defence", "破防"])
        inc = max([100] * (crit + weak) + [x for x in self.stat_sum(att, "damage_pct") if x > 0], default=0)
        dec = max([-x for x in self.stat_sum(att, "damage_pct") if x < 0], default=0)
        amount = 0.0 if nullified else R.change_damage(base, inc, dec)
        if resist and not nullified:
            amount = R.resist_halve(amount)
        self.emit("strike", unit=att["id"], target=tgt["id"], face=face, base=R.num(base), joint=joint,
                  pips={"crit": 0 if joint else self.attr(att, "crit"), "hit": 0 if joint else self.attr(att, "hit"),
                        "weakness": self.attr(tgt, "weakness"), "dodge": self.attr(tgt, "dodge"),
                        "defence": self.attr(tgt, "defence"), "resist": self.attr(tgt, "resist") if element else 0},
                  crit=crit, weakness=weak, dodge=dodge, hit=hit, defence=defence, resist=resist,
                  nullified=nullified, damage=R.num(amount), cancel=cancel)
        if nullified:
            return None
        self.hurt(tgt, amount, att, why)
        if amount > 0:
            self.passives(tgt, lambda t: t == "damaged", {"attacker": att})
        return amount

    def element_damage(self, att: dict[str, Any], tgt: dict[str, Any], amount: float, why: str) -> float:
        """A non-strike damage: only 元抗 judged (H9), one die when the dealer has an element."""
        inc = max([x for x in self.stat_sum(att, "damage_pct") if x > 0], default=0)
        dec = max([-x for x in self.stat_sum(att, "damage_pct") if x < 0], default=0)
        amount = R.change_damage(amount, inc, dec)
        if att["element"] is not None:
            face = self.roll("resist", att["id"])
            if R.low_faces(self.attr(tgt, "resist"), face):
                self.emit("resisted", unit=tgt["id"], face=face)
                amount = R.resist_halve(amount)
        self.hurt(tgt, amount, att, why)
        return amount

    # ---- movement ------------------------------------------------------------------------
    def fall(self, u: dict[str, Any], c: Cell) -> None:
        """H21: onto a 天堑: removed from the field until the next round start."""
        u.pop("falling", None)
        u["chasm"] = cell_name(c)
        u["pos"] = None
        self.emit("chasm", unit=u["id"], pos=cell_name(c))

    def landed(self, u: dict[str, Any]) -> None:
        """After a slide is told: a general left on a 天堑 falls in (「立即移出战场」, l.126)."""
        if u.get("falling"):
            self.fall(u, self.at(u))

    def slide(self, u: dict[str, Any], d: Cell, cells: int, dash: bool) -> tuple[int, dict[str, Any] | None, bool]:
        """Move ``u`` up to ``cells`` points along ``d`` (a knockback, or a dash when ``dash``: it
        passes grade I and ends on the farthest free point). Returns (points moved, the general it
        stopped against, stopped early by an obstacle or the edge). A general that crosses a
        天堑 is left on it with ``u["falling"]`` set: the caller tells the move, then ``fall``."""
        c = self.at(u)
        last_free = c
        moved = 0
        airborne = self.has(u, "腾空")
        for _ in range(cells):
            nxt = (c[0] + d[0], c[1] + d[1])
            if not in_bounds(nxt, self.width, self.height):
                u["pos"] = cell_name(last_free)
                return moved, None, True
            grade = self.terrain.get(nxt)
            occupant = self.unit_at(nxt)
            if grade == 4 or (grade == 2 and not airborne) or (occupant is not None and not dash):
                u["pos"] = cell_name(last_free)
                return moved, occupant if occupant is not None and occupant["alive"] else None, True
            c = nxt
            moved += 1
            if grade == 3 and not airborne:
                u["pos"], u["falling"] = cell_name(c), True
                return moved, None, False
            if occupant is None:
                last_free = c
        u["pos"] = cell_name(last_free)
        return moved, None, False

    def knockback(self, src_cell: Cell, tgt: dict[str, Any], spec: Any, att: dict[str, Any], extra: int = 0) -> None:
        if isinstance(spec, dict):
            cells, collide, behind = spec.get("cells", 1), spec.get("collide", 0), spec.get("push_behind", False)
        else:
            cells, collide, behind = spec, 0, False
        cells = int(cells + extra)
        tc = self.cell(tgt)
        if tc is None or not tgt["alive"] or cells <= 0:
            return
        d = R.push_direction(src_cell, tc)
        start = tgt["pos"]
        moved, blocker, early = self.slide(tgt, d, cells, dash=False)
        self.emit("knockback", unit=tgt["id"], source=att["id"], frm=start, dest=tgt["pos"], cells=moved,
                  wanted=cells, direction=_dir_name(d))
        self.landed(tgt)
        if early and tgt["pos"] is not None:
            if collide:
                self.emit("collision", unit=tgt["id"], amount=collide)
                self.hurt(tgt, collide, att, "collision")
            if behind and blocker is not None:
                frm = blocker["pos"]
                bm, _, _ = self.slide(blocker, d, cells - moved, dash=False)
                self.emit("knockback", unit=blocker["id"], source=att["id"], frm=frm, dest=blocker["pos"], cells=bm,
                          wanted=cells - moved, direction=_dir_name(d))
                self.landed(blocker)

    # ---- effects -------------------------------------------------------------------------
    def effect(self, caster: dict[str, Any], tgt: dict[str, Any], eff: dict[str, Any], sk: dict[str, Any],
               ctx: dict[str, Any]) -> bool:
        """One effect on one target, in data order. Returns False when the strike was nullified
        (the skill's remaining effects miss this target, ruling R2)."""
        kind, val = kind_of(eff)
        if self.s["winner"] is not None or not tgt["alive"] or (tgt["pos"] is None and tgt["role"] == "main"):
            # the game is over, the target dead or in a 天堑 (「立即移出战场」, l.126): nothing more lands
            return False
        return kind.apply(self, caster, tgt, val, sk, ctx)

    def cond(self, cond: Any, caster: dict[str, Any], tgt: dict[str, Any], ctx: dict[str, Any]) -> bool:
        if cond == "lost_more_than_left":
            return tgt["max_jing"] - tgt["jing"] > tgt["jing"]
        if cond == "no_damage_dealt":
            return not caster["round"]["dealt"]
        if cond == "not_damaged":
            return not tgt["round"]["damaged"]
        if isinstance(cond, dict) and "within" in cond:
            a, b = self.cell(caster), self.cell(tgt)
            return a is not None and b is not None and R.in_square(a, b, cond["within"])
        return False


    # ---- actions of the general due ----------------------------------------------------------
    def run_actions(self, u: dict[str, Any], actions: list[dict[str, Any]], strict: bool) -> list[Skip]:
        """Play ``actions`` for ``u``. ``strict`` (gm check): return every problem as a Skip whose
        field names ``actions.N``; else a problem is a logged skip costing nothing."""
        problems: list[Skip] = []
        for i, act in enumerate(actions):
            if self.s["winner"] is not None:
                break
            if not self.can_act(u):
                if not strict:
                    self.emit("skip", unit=u["id"], action=i, kind=act["kind"], reason="cannot_act", params={})
                else:  # the sheet's own legs took the general off the field (a 天堑): warn, accept
                    self.warnings.append(Skip("fallen" if u.get("chasm") else "cannot_act", f"actions.{i}", n=i + 1))
                break
            known = len(self.warnings)
            try:
                self.do_action(u, act, i, len(actions))
            except Skip as e:
                e.field = f"actions.{i}" + (f".{e.field}" if e.field else "")
                if strict:
                    problems.append(e)
                else:
                    self.emit("skip", unit=u["id"], action=i, kind=act["kind"], reason=e.code, params=e.params)
            for w in self.warnings[known:]:
                w.field = f"actions.{i}" + (f".{w.field}" if w.field else "")
            if u["id"] in self.s["extra"] and i + 1 < len(actions) and not strict:
                # 战斗潜能 in its own turn: 「跳过当前回合」, the rest of this sheet is void (ruling R5)
                self.emit("skip", unit=u["id"], action=i + 1, kind=actions[i + 1]["kind"], reason="turn_over",
                          params={"last": len(actions)})
                break
        return problems

    def pay_ap(self, u: dict[str, Any], n: int) -> None:
        if u["ap"] < n:
            raise Skip("no_points", need=n, left=u["ap"])

    def do_action(self, u: dict[str, Any], act: dict[str, Any], i: int, count: int) -> None:
        kind = act["kind"]
        if kind == "move":
            self.do_move(u, act["to"])
        elif kind == "attack":
            self.do_attack(u, act["target"])
        elif kind in ("skill", "item"):
            self.do_skill(u, act)
        elif kind == "substitute":
            self.do_substitute(u, act["reserve"], count)

    def do_move(self, u: dict[str, Any], legs: list[str]) -> None:
        self.pay_ap(u, len(legs))
        if self.has(u, "定身"):
            raise Skip("rooted")
        if u["legs"] + len(legs) > 2:
            raise Skip("third_leg", used=u["legs"])
        # check every leg before moving (a sheet's leg list is one action)
        c = self.at(u)
        budget = u["move"]
        plan = []
        for k, name in enumerate(legs):
            to = parse_cell(name)
            if to == c or not R.same_line(c, to):
                raise Skip("leg_not_straight", field=f"move.{k}" if len(legs) > 1 else "move", frm=cell_name(c),
                           to=name)
            d = ((to[0] > c[0]) - (to[0] < c[0]), (to[1] > c[1]) - (to[1] < c[1]))
            dist = max(abs(to[0] - c[0]), abs(to[1] - c[1]))
            if dist > budget:
                raise Skip("leg_too_far", field=f"move.{k}" if len(legs) > 1 else "move", dist=dist, left=budget)
            p = c
            fell = None
            for _ in range(dist):
                p = (p[0] + d[0], p[1] + d[1])
                grade = self.terrain.get(p)
                if grade == 3 and not self.has(u, "腾空"):
                    fell = p
                    break
                if self.blocked(p, airborne=self.has(u, "腾空")):
                    raise Skip("leg_blocked", field=f"move.{k}" if len(legs) > 1 else "move", at=cell_name(p))
            plan.append((c, to, d, dist, fell))
            budget -= dist
            c = to
            if fell:
                break
        for frm, to, _d, dist, fell in plan:
            u["ap"] -= 1
            u["legs"] += 1
            if fell:
                steps = max(abs(fell[0] - frm[0]), abs(fell[1] - frm[1]))
                u["move"] -= steps
                self.emit("move", unit=u["id"], frm=cell_name(frm), dest=cell_name(fell), cells=steps, move=u["move"])
                self.fall(u, fell)
                return
            u["move"] -= dist
            u["pos"] = cell_name(to)
            self.emit("move", unit=u["id"], frm=cell_name(frm), dest=cell_name(to), cells=dist, move=u["move"])

    def target(self, tid: str) -> dict[str, Any]:
        t = self.units.get(tid)
        if t is None:
            raise Skip("target_unknown", field="target", target=tid)
        return t

    def do_attack(self, u: dict[str, Any], tid: str) -> None:
        self.pay_ap(u, 1)
        if self.has(u, "缴械"):
            raise Skip("disarmed")
        t = self.target(tid)
        if not self.enemies(u, t):
            raise Skip("not_enemy", field="attack", target=tid)
        why = self.reachable_target(u, t, self.range_of(u), flying=True)
        if why:
            raise Skip(why, field="attack", target=tid, range=self.range_of(u))
        u["ap"] -= 1
        self.emit("attack", unit=u["id"], target=tid)
        base = 0.5 if u["element"] in R.HALF_ATTACK_ELEMENTS else 1
        self.strike(u, t, base, "attack")
        if not self.checking:
            self.joint_attacks(u, t, base)
        self.check_victory()

    def joint_attacks(self, att: dict[str, Any], t: dict[str, Any], base_unused: float) -> None:
        """H14: allies whose standing order allows strike T once each, in initiative order."""
        for aid in list(self.s["order"]):
            a = self.units[aid]
            if a is att or a["side"] != att["side"] or not t["alive"] or self.s["winner"] is not None:
                continue
            spec = self.s["standing"].get(a["player"], {}).get("joint_attack", {}).get(aid)
            if spec is None or not self.can_act(a) or self.has(a, "缴械") or a["ap"] < 1:
                continue
            against = spec.get("against", "any")
            when = spec.get("when", "any")
            if against != "any" and t["id"] not in against:
                continue
            acted = aid in self.s["acted"]
            if (when == "before_turn" and acted) or (when == "after_turn" and not acted):
                continue
            if a["qi"] < 1 + spec.get("keep_qi", 0):
                continue
            if self.reachable_target(a, t, self.range_of(a), flying=True):
                continue
            a["ap"] -= 1
            a["qi"] = R.num(a["qi"] - 1)
            self.emit("joint_attack", unit=aid, target=t["id"], ap=a["ap"], qi=a["qi"])
            base = 0.5 if a["element"] in R.HALF_ATTACK_ELEMENTS else 1
            self.strike(a, t, base, "joint", joint=True)

    def skill_cost(self, u: dict[str, Any], sk: dict[str, Any]) -> float:
        return sk["qi"] + self.mod(u, sk["id"], "qi")

    def do_skill(self, u: dict[str, Any], act: dict[str, Any]) -> None:
        self.pay_ap(u, 1)
        sid = str(act.get("skill") or act.get("item"))
        item = act["kind"] == "item"
        if item:
            if sid not in u["items"]:
                raise Skip("item_unknown", field="item", item=sid, allowed=", ".join(u["items"]) or "-")
            sk = self.s["items_def"][sid]
        else:
            sk = self.skill(u, sid)
            if sk is None or sid not in [x["id"] for x in self.skills(u)]:
                raise Skip("skill_unknown", field="skill", skill=sid, allowed=", ".join(
                    x["id"] for x in self.skills(u) if x["timing"] in ("active", "toggle")))
            if sk["timing"] not in ("active", "toggle"):
                raise Skip("skill_not_active", field="skill", skill=sid, timing=sk["timing"])
            if self.has(u, "沉默"):
                raise Skip("silenced", field="skill")
            if self.has(u, "蓄力"):
                raise Skip("charging", field="skill")
        if sk["timing"] == "toggle" and sid in u["toggles"]:
            u["ap"] -= 1
            u["toggles"].remove(sid)
            before = self.move_value(u)
            u["statuses"] = [st for st in u["statuses"] if st.get("skill") != sid]
            self.move_changed(u, before)
            self.emit("toggle_off", unit=u["id"], skill=sid, name=sk["name"])
            return
        self.cast(u, sk, act, first=False)
        if item:
            u["items"].remove(sid)
        self.check_victory()

    def targets(self, u: dict[str, Any], sk: dict[str, Any], act: dict[str, Any]) -> list[dict[str, Any]]:
        shape = sk["shape"]
        r = self.range_of(u, sk)
        if shape == "self":
            return [u]
        if shape == "single":
            tid = act.get("target")
            if tid is None:
                raise Skip("need_target", field="target")
            t = self.target(tid)
            if not self.matches(u, t, sk["affects"]):
                raise Skip("not_affected", field="target", target=tid, affects=sk["affects"])
            why = self.reachable_target(u, t, r, flying=True) if t is not u else None
            if why:
                raise Skip(why, field="target", target=tid, range=r)
            return [t]
        if shape == "all":
            out = []
            c = self.at(u)
            for t in self.on_field():
                if t is u or not self.matches(u, t, sk["affects"]):
                    continue
                tc = self.at(t)
                if R.in_square(c, tc, r) and (u["element"] not in R.LINE_ELEMENTS or R.same_line(c, tc)):
                    out.append(t)
            return out
        if shape == "point":
            at = act.get("at")
            if at is None:
                raise Skip("need_at", field="at")
            p = parse_cell(at)
            if not R.in_square(self.at(u), p, r):
                raise Skip("out_of_range", field="at", target=at, range=r)
            there = self.unit_at(p)
            return [there] if there is not None and there["alive"] and self.matches(u, there, sk["affects"]) else []
        # first_in_direction and {line: N}: a flying object along the sheet's direction
        d = R.DIRECTIONS.get(act.get("direction") or "")
        if d is None:
            raise Skip("need_direction", field="direction")
        reach = shape["line"] if isinstance(shape, dict) else r
        c = self.at(u)
        for _ in range(reach):
            c = (c[0] + d[0], c[1] + d[1])
            if not in_bounds(c, self.width, self.height) or self.terrain.get(c) in (2, 4):
                return []
            met = self.unit_at(c)
            if met is not None:
                return [met] if met["alive"] and self.matches(u, met, sk["affects"]) else []
        return []

    def why_no_target(self, u: dict[str, Any], sk: dict[str, Any], act: dict[str, Any]) -> str:
        """Why a skill finds nobody: an ally first in its line, or nobody there at all."""
        shape, d = sk["shape"], R.DIRECTIONS.get(act.get("direction") or "")
        if d is not None and (shape == "first_in_direction" or isinstance(shape, dict)):
            c = self.at(u)
            for _ in range(shape["line"] if isinstance(shape, dict) else self.range_of(u, sk)):
                c = (c[0] + d[0], c[1] + d[1])
                if not in_bounds(c, self.width, self.height) or self.terrain.get(c) in (2, 4):
                    break
                met = self.unit_at(c)
                if met is not None:
                    return "no_target" if self.matches(u, met, sk["affects"]) else "ally_first"
        return "no_target"

    def cast(self, u: dict[str, Any], sk: dict[str, Any], act: dict[str, Any], first: bool) -> None:
        """Cast ``sk``: pay 气 and 行动力 (H6, with the 50 % overdraw), then its effects per target."""
        heart = any(kind.pays_on_reveal(val) for kind, val in map(kind_of, sk["effects"]))
        cost = 0 if heart else self.skill_cost(u, sk)  # 心战: 「心战技能的耗气将在展示卡牌后消耗」 (l.120)
        if u["qi"] < cost:
            raise Skip("qi_short", field="skill", need=R.num(cost), left=u["qi"])
        mc = sk["move_cost"]
        if u["move"] < mc and u["move"] * 2 < mc:
            raise Skip("move_short", field="skill", need=mc, left=u["move"])
        dashes = [e for e in sk["effects"] if kind_of(e)[0].moves_caster]
        if dashes and self.has(u, "定身"):
            raise Skip("rooted")
        tgts = self.targets(u, sk, act)
        if self.checking and not tgts and sk["shape"] != "self":
            self.warnings.append(Skip(self.why_no_target(u, sk, act), "direction" if "direction" in act else "",
                                      skill=sk["name"]))
        if not first:
            u["ap"] -= 1
        u["qi"] = R.num(u["qi"] - cost)
        overdraw = u["move"] < mc
        u["move"] = 0 if overdraw else u["move"] - mc
        if sk["timing"] == "toggle":
            u["toggles"].append(sk["id"])
        self.emit("skill", unit=u["id"], skill=sk["id"], name=sk["name"], qi=R.num(cost), qi_left=u["qi"],
                  move_cost=mc, overdraw=overdraw, move=u["move"], targets=[t["id"] for t in tgts],
                  direction=act.get("direction"), first=first)
        for e in dashes:
            self.dash(u, e, act, tgts)
        if u["pos"] is None:
            return  # fell into a 天堑: the rest is void (H21)
        at_once = first  # 先手 statuses count from the round they are cast in (ruling R3)
        card = act.get("card") or (self.s["standing"].get(u["player"], {}).get("heart_card") or {}).get(u["id"])
        for t in tgts:
            ctx: dict[str, Any] = {"at_once": at_once, "origin": self.cell(u), "card": card}
            judged = sk["chance"] is None
            for eff in sk["effects"]:
                kind = kind_of(eff)[0]
                if kind.moves_caster:
                    continue
                if not judged and not kind.hurts:
                    # H25: a skill's chance is judged per target after its strike's die (ruling R25)
                    judged = True
                    if not self.chance_check(u, sk["chance"], sk["name"], passive=False):
                        break
                if not self.effect(u, t, eff, sk, ctx):
                    break
            if self.s["winner"] is not None:
                return

    def dash(self, u: dict[str, Any], e: dict[str, Any], act: dict[str, Any], tgts: list[dict[str, Any]]) -> None:
        start = u["pos"]
        kind, val = kind_of(e)
        kind.move(self, u, val, act, tgts)
        if u["pos"] != start:
            self.emit("dash", unit=u["id"], frm=start, dest=u["pos"])
        self.landed(u)

    def do_substitute(self, u: dict[str, Any], rid: str, count: int) -> None:
        if count != 1:
            raise Skip("substitute_not_alone", field="substitute")
        if u["ap"] < 2:
            raise Skip("no_points", need=2, left=u["ap"])
        r = self.units.get(rid)
        taken = {x.get("replaced_by") for x in self.s["units"]} | {x.get("leaving") for x in self.s["units"]}
        if r is None or r["player"] != u["player"] or r["role"] != "reserve" or not r["alive"] or rid in taken:
            bench = [x["id"] for x in self.s["units"] if x["player"] == u["player"] and x["role"] == "reserve"
                     and x["alive"] and x["id"] not in taken]
            raise Skip("reserve_unknown", field="substitute", reserve=rid, allowed=", ".join(bench) or "-")
        u["ap"] = 0
        u["leaving"] = rid
        self.emit("substitute", unit=u["id"], reserve=rid)

    # ---- the round -----------------------------------------------------------------------
    def end_turn(self, u: dict[str, Any]) -> None:
        if u["id"] not in self.s["acted"]:
            self.s["acted"].append(u["id"])
        self.emit("turn_end", unit=u["id"], ap=u["ap"], move=u["move"])
        if u.pop("extra_turn", False) and u.pop("stop_after_extra", False):
            self.stop_next_round(u)

    def why_not(self, u: dict[str, Any]) -> str:
        """Why ``u`` cannot act: a status that stops it, 神 0, or being off the field."""
        if u["shen"] <= 0:
            return "寂灭"
        return next((n for n in CANT_ACT if self.has(u, n)), "off_field")

    def stop_next_round(self, u: dict[str, Any]) -> None:
        """战斗潜能's 「下回合无法行动」: stopped for the round after its extra turn (ruling R5)."""
        if u["alive"]:
            self.add_status(u, {"name": "停止行动", "rounds": 1}, u)

    def advance(self) -> None:
        """Everything automatic up to the next general able to act (sets ``next``)."""
        idle_rounds = 0
        while self.s["winner"] is None:
            while self.s["extra"]:
                u = self.units[self.s["extra"].pop(0)]
                if not u["alive"]:
                    continue
                if self.can_act(u):
                    u["ap"], u["move"], u["legs"] = 2, self.move_value(u), 0
                    u["extra_turn"] = True
                    self.s["next"] = {"unit": u["id"], "player": u["player"]}
                    self.emit("next", unit=u["id"], extra=True)
                    return
                # a general that cannot act now (stopped, asleep, 寂灭, in a 天堑) loses the turn
                # it was given; the stop of 「下回合无法行动」 still follows (ruling R5)
                self.emit("turn_skipped", unit=u["id"], reason=self.why_not(u), extra=True)
                if u.pop("stop_after_extra", False):
                    self.stop_next_round(u)
            for uid in self.s["order"]:
                if uid in self.s["acted"]:
                    continue
                u = self.units[uid]
                if self.can_act(u):
                    self.s["next"] = {"unit": uid, "player": u["player"]}
                    self.emit("next", unit=uid, extra=False)
                    return
                self.s["acted"].append(uid)
                if u["alive"]:
                    self.emit("turn_skipped", unit=uid, reason=self.why_not(u), extra=False)
            field = self.on_field()
            if field and all(self.has(u, "寂灭") for u in field):
                break  # nobody can ever act again: the GM amends (ruling R10)
            if idle_rounds > ROUND_GUARD:
                break
            self.end_round()
            if self.s["winner"] is not None:
                break
            self.s["round"] += 1
            self.start_round()
            idle_rounds += 1
        self.s["next"] = None

    def end_round(self) -> None:
        """H16 end: round-end effects (in order), then active statuses lose a round."""
        r = self.s["round"]
        self.emit("round_end", round=r)  # opens the round end's part of the post
        for uid in list(self.s["order"]):
            u = self.units[uid]
            if not u["alive"] or u["pos"] is None:
                continue
            self.passives(u, lambda t: t == "round_end")
            for st in list(self.active_buffs(u)):
                rule = st.get("round_end")
                if rule and u["alive"] and (rule.get("if") is None or self.cond(rule["if"], u, u, {})):
                    if rule.get("heal"):
                        self.heal(u, rule["heal"], st["name"])
            if u["round"].get("reflect") and u["alive"]:
                for sid, amt in list(u["round"]["received"].items()):
                    src = self.units[sid]
                    if src["alive"] and src["id"] != uid:
                        self.emit("reflect", unit=uid, target=sid, amount=amt)
                        self.hurt(src, amt, u, "reflect")
            if self.has(u, "睡眠") and u["alive"]:
                u["shen"] = min(u["max_shen"], u["shen"] + 1)
                self.emit("shen", unit=uid, shen=u["shen"], why="睡眠")
        reveals = []
        for u in self.s["units"]:
            keep = []
            for st in u["statuses"]:
                if st["active"] and st["rounds"] is not None:
                    st["rounds"] -= 1
                    if st["rounds"] <= 0:
                        if st.get("heart"):
                            reveals.append((u, st))  # told by the reveal, once
                        else:
                            self.emit("status_end", unit=u["id"], name=st["name"])
                        continue
                keep.append(st)
            u["statuses"] = keep
        for u, st in reveals:
            self.reveal_heart(u, st)
        for u in self.s["units"]:
            u["round"] = {"damaged": False, "dealt": False, "shen_lost": False, "received": {}}

    def clear_statuses(self, u: dict[str, Any]) -> None:
        """Every status of ``u`` ends at once (death, leaving the field): a 心战 card among them is
        shown, the others end silently (the death or the substitution is told)."""
        hearts = [st for st in u["statuses"] if st.get("heart")]
        u["statuses"] = []
        for st in hearts:
            self.reveal_heart(u, st)

    def reveal_heart(self, holder: dict[str, Any], st: dict[str, Any]) -> None:
        """心战 (l.120): when the effect ends the card is shown (the one line telling the end);
        its 气 is paid then, and the card's effects follow (ruling R26: with too little 气, the card
        does nothing; on a holder dead or off the field, nothing is executed and nothing paid)."""
        caster = self.units.get(st["source"])
        card = st.get("heart_card", "none")
        self.emit("heart_reveal", unit=holder["id"], source=st["source"], name=st["name"], card=card)
        if card == "none" or caster is None or not caster["alive"] or not holder["alive"] or holder["pos"] is None:
            return
        sk = self.skill(caster, st.get("skill", "")) or {"id": "", "name": st["name"], "qi": 0, "timing": "active"}
        cost = self.skill_cost(caster, sk)
        if caster["qi"] < cost:
            self.emit("heart_unpaid", unit=caster["id"], need=R.num(cost), left=caster["qi"])
            return
        caster["qi"] = R.num(caster["qi"] - cost)
        self.emit("heart_paid", unit=caster["id"], qi=R.num(cost), left=caster["qi"], name=st["name"])
        ctx: dict[str, Any] = {"origin": self.cell(caster)}
        for eff in st["heart"].get(card) or []:
            if not self.effect(caster, holder, eff, sk, ctx):
                break

    def start_round(self) -> None:
        """H16 start: (a) substitutions, (b) 天堑 returns, (c) pending statuses, (d) points and
        行动力, (e) 天启 re-sort, (f) 先手 skills, (g) round-start effects; then 恢气."""
        r = self.s["round"]
        tianqi = r % 2 == 0
        self.emit("round_start", round=r, tianqi=tianqi)
        self.s["acted"] = []
        for u in list(self.s["units"]):
            rid = u.get("leaving") or (u.get("replaced_by") if u["role"] == "dead" else None)
            if rid and (u["role"] == "dead" and u.get("pos") is not None or u.get("leaving") or u.get("chasm")):
                self.swap(u, self.units[rid])
        for u in self.s["units"]:
            if u["alive"] and u.get("chasm"):
                self.chasm_return(u)
        for u in self.s["units"]:
            for st in u["statuses"]:
                if not st["active"]:
                    st["active"] = True
        for u in self.s["units"]:
            if u["alive"] and u["role"] == "main":
                u["ap"], u["move"], u["legs"] = 2, self.move_value(u), 0
        if tianqi:
            self.sort_order()
        self.first_skills()
        for uid in list(self.s["order"]):
            u = self.units[uid]
            if u["alive"] and u["pos"] is not None:
                self.passives(u, lambda t: t == "round_start")
        self.regen(tianqi)

    def regen(self, tianqi: bool) -> None:
        """H2: each general in ``order`` regains its bracket value (+1 on 天启 rounds), to its max."""
        for uid in self.s["order"]:
            u = self.units[uid]
            if not u["alive"] or self.has(u, "郁气"):
                continue
            gain = u["qi_regen"] + (1 if tianqi else 0)
            new = R.num(max(u["qi"], min(u["max_qi"], u["qi"] + gain)))
            if new != u["qi"]:
                u["qi"] = new
                self.emit("regen", unit=uid, qi=new)

    def swap(self, out: dict[str, Any], inn: dict[str, Any]) -> None:
        """H15: the reserve takes the leaver's point and place in the order."""
        pos = out["pos"] or self.free_point(parse_cell(out["chasm"]) if out.get("chasm") else None)
        inn["role"] = "main"
        inn["pos"] = pos
        inn["statuses"], inn["wards"], inn["toggles"] = [], [], []
        order = self.s["order"]
        if out["id"] in order:
            order[order.index(out["id"])] = inn["id"]
        else:
            order.append(inn["id"])
        out["pos"] = None
        out["chasm"] = None
        if out["alive"]:
            out["role"] = "reserve"
            self.clear_statuses(out)  # 「清空身上的全部状态」 (l.68): a 心战 card is shown
            out["wards"], out["toggles"] = [], []
        out["leaving"] = None
        self.emit("enter", unit=inn["id"], replaces=out["id"], pos=pos)
        self.passives(inn, lambda t: t == "static")  # a static passive holds on the field too

    def free_point(self, near: Cell | None) -> str | None:
        cands = []
        if near is not None:
            cands = [(near[0] + dx, near[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
            cands.sort(key=lambda c: (c[1], c[0]))
        cands += [parse_cell(s) for s in self.s["map"]["spawns"]]
        cands += [(x, y) for y in range(self.height) for x in range(self.width)]
        for c in cands:
            if in_bounds(c, self.width, self.height) and c not in self.terrain and self.unit_at(c) is None:
                return cell_name(c)
        return None

    def chasm_return(self, u: dict[str, Any]) -> None:
        """H21: back on a free point within range 1 of the 天堑 (standing choice, else reading
        order), with 10 % of max 精 rounded down to a half as damage."""
        ch = parse_cell(u["chasm"])
        free = [(ch[0] + dx, ch[1] + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
        free = [c for c in free if in_bounds(c, self.width, self.height) and c not in self.terrain
                and self.unit_at(c) is None]
        if not free:
            self.emit("chasm_stuck", unit=u["id"])
            return
        pref = self.s["standing"].get(u["player"], {}).get("chasm_return", {}).get(u["id"]) or []
        pref = [pref] if isinstance(pref, str) else pref
        names = [cell_name(c) for c in sorted(free, key=lambda c: (c[1], c[0]))]
        pick = next((p for p in pref if p in names), names[0])
        u["pos"] = pick
        u["chasm"] = None
        self.emit("chasm_return", unit=u["id"], pos=pick)
        self.hurt(u, R.floor_half(u["max_jing"] / 10), None, "chasm")

    def running(self, u: dict[str, Any], sid: str) -> bool:
        """Does a status that ``u`` gave with skill ``sid`` still hold on any general?"""
        return any(st.get("skill") == sid and st["source"] == u["id"] for x in self.s["units"] for st in x["statuses"])

    def first_skills(self) -> None:
        """(f) 先手 skills from the standing orders, by caster 行动力 (l.145), then order. A
        standing 先手 is cast again once its effect has ended, every round only when the sheet
        says ``first_recast: every_round`` (ruling R3)."""
        casts = []
        for player in self.s["players"]:
            mine = self.s["standing"].get(player, {})
            for uid, sids in (mine.get("first_skills") or {}).items():
                u = self.units.get(uid)
                if u is None or u["player"] != player or not self.can_act(u):
                    continue
                every = (mine.get("first_recast") or {}).get(uid) == "every_round"
                for sid in sids:
                    if every or not self.running(u, sid):
                        casts.append((-self.move_value(u), self.s["order"].index(uid), uid, sid))
        casts.sort(key=lambda c: (c[0], c[1]))
        for _, _, uid, sid in casts:
            u = self.units[uid]
            sk = self.skill(u, sid)
            if sk is None or sk["timing"] != "first" or self.has(u, "沉默") or not self.can_act(u):
                continue
            try:
                self.cast(u, sk, {"kind": "skill", "skill": sid}, first=True)
            except Skip as e:
                self.emit("first_failed", unit=uid, skill=sid, name=sk["name"], reason=e.code, params=e.params)

    def sort_order(self, initial: bool = False) -> None:
        """H11: by effective 行动力; ties by the previous order, else roll-offs (higher first,
        equal faces roll again), each roll in scenario order."""
        prev = list(self.s["order"])
        ids = [u["id"] for u in self.s["units"] if u["role"] == "main" and (u["alive"] or u.get("replaced_by"))
               and (u["id"] in prev or initial)]
        ids += [x for x in prev if x not in ids]
        scen = [u["id"] for u in self.s["units"]]
        groups: dict[int, list[str]] = {}
        for uid in ids:
            groups.setdefault(self.move_value(self.units[uid]), []).append(uid)
        out: list[str] = []
        for mv in sorted(groups, reverse=True):
            g = groups[mv]
            if len(g) > 1 and all(x in prev for x in g):
                g.sort(key=prev.index)
            elif len(g) > 1:
                g = self.roll_off(sorted(g, key=scen.index))
            out.extend(g)
        self.s["order"] = out
        self.emit("order", order=out, initial=initial)

    def roll_off(self, ids: list[str]) -> list[str]:
        faces = {uid: self.roll("initiative", uid) for uid in ids}
        by: dict[int, list[str]] = {}
        for uid in ids:
            by.setdefault(faces[uid], []).append(uid)
        out: list[str] = []
        for f in sorted(by, reverse=True):
            out.extend(self.roll_off(by[f]) if len(by[f]) > 1 else by[f])
        return out


def _dir_name(d: Cell) -> str:
    for k, v in R.DIRECTIONS.items():
        if v == d:
            return k
    return "?"

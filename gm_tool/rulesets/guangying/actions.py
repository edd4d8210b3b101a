"""The actions of a sheet (contract §3), each checked whole before it changes anything.

An action is the canonical mapping the sheet parser makes: ``{"verb": "move", "move": "s1",
"path": [...]}``. :meth:`Turn.run` plays a list of them: on a live board a refused action is
skipped with an ``action_skipped`` event; in the placements-only run of ``gm check`` it becomes a
problem naming the action's index and field.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.grid import cell_name
from gm_tool.rulesets.guangying.model import (
    ABILITY_CLASS,
    ALONE,
    FIREBALL_DAMAGE,
    FIREBALL_RANGE,
    GUARDIANS,
    RANGED_IMMUNE,
    ROCK,
    SHOT_POWER,
    SHOT_RANGE,
    SQUADMATE_HURT,
    WALL,
    Game,
    Refusal,
    board_order,
    cell,
    dist,
    on_board,
    row_of,
    side_rows,
)


class Turn(Game):
    # --- summoning (G3-G5) ---------------------------------------------------------------------
    def summon_cells(self, player: str, cls: str) -> dict[str, str]:
        """Every cell this turn's summon of ``cls`` may go to -> how (home, beyond, portal): what
        `gm check` accepts, so the template offers no other (G3, G4, G13)."""
        side = self.players[player]["side"]
        home, _, beyond = side_rows(side)
        if sum(1 for p in self.s["pieces"] if p["owner"] == player) >= 10:
            return {}
        rows = home + [beyond] if cls == "游荡者" else home
        out: dict[str, str] = {}
        for r in sorted(rows):
            for x in range(10):
                out[cell_name((x, r - 1))] = "home" if r in home else "beyond"
        landing = home + self.neutral_rows(player)
        for p in self.s["pieces"]:
            if p["owner"] == player and p.get("portal_open"):
                x, y = cell(p["pos"])
                for c in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                    if on_board(c) and c[1] + 1 in landing:
                        out[cell_name(c)] = "portal"
        barred = {c for p in self.s["players"] for c in p["fortress"]}
        barred.update(c for m in self.s["markers"] if m["kind"] == ROCK for c in m["cells"])
        five = len(self.own_squads(player)) >= 5
        for q in self.s["squads"]:
            if q["owner"] != player or self._stack_problem(q, cls) is not None:
                barred.add(q["pos"])
        return {name: how for name, how in out.items()
                if name not in barred and not (five and self.squad_at(name) is None)}

    def _stack_problem(self, q: dict[str, Any], cls: str) -> str | None:
        """Why ``cls`` cannot join own squad ``q`` (G4, G13), or None."""
        if cls in ALONE or any(m["class"] in ALONE for m in self.members(q)):
            return "summon.alone"
        if len(q["members"]) >= 3:
            return "summon.full"
        return None

    def do_summon(self, a: dict[str, Any]) -> None:
        me = self.active
        pl = self.players[me]
        if self.summoned:
            raise Refusal("summon.twice", "summon")
        what = a["summon"]
        hand = next((h for h in pl["in_hand"] if h["id"] == what), None)
        from gm_tool.rulesets.guangying.data import class_of, close_class

        cls = hand["class"] if hand else class_of(what)
        if cls is None:
            allowed = ", ".join([c for c, n in pl["pool"].items() if n > 0 and c in self.table]
                                + [h["id"] for h in pl["in_hand"]]) or "-"
            close = close_class(what)
            if close is not None:
                raise Refusal("summon.close", "summon", value=what, close=close, allowed=allowed)
            raise Refusal("summon.unknown", "summon", value=what, allowed=allowed)
        if hand:
            until = hand["cannot_return_until"]
            if until is not None and self.s["turn"] < until:
                raise Refusal("summon.fled", "summon", piece=what, until=until)
            if a.get("id") not in (None, what):
                raise Refusal("summon.hand_id", "id", value=a.get("id"), piece=what)
        elif pl["pool"].get(cls, 0) <= 0:
            raise Refusal("summon.pool_empty", "summon", cls=cls)
        at = a["at"]
        q = self.squad_at(at)
        if sum(1 for p in self.s["pieces"] if p["owner"] == me) >= 10:
            raise Refusal("summon.ten", "summon")
        if q is not None and q["owner"] == me:
            problem = self._stack_problem(q, cls)
            if problem is not None:
                raise Refusal(problem, "at", cell=at, squad=q["id"])
        elif len(self.own_squads(me)) >= 5:
            raise Refusal("summon.five", "at")
        cells = self.summon_cells(me, cls)
        if at not in cells:
            raise Refusal("summon.cell", "at", cell=at, cls=cls, allowed=_cells_text(cells))
        if q is not None:
            if a.get("squad") not in (None, q["id"]):
                raise Refusal("summon.squad_id", "squad", value=a.get("squad"), squad=q["id"])
        elif a.get("squad") is not None:
            self.check_new_id(a["squad"], "squad")
        pid = what if hand else a.get("id")
        if not hand:
            if pid is not None:
                self.check_new_id(pid, "id")
            else:
                pid = self.fresh_id(f"{me}-{self.table[cls]['en']}")
        # carried out
        self.summoned = True
        via = cells[at]
        row = self.table[cls]
        if hand:
            pl["in_hand"].remove(hand)
            hp, max_hp, power, beast = hand["hp"], hand["max_hp"], hand["power"], hand["beast"]
        else:
            pl["pool"][cls] -= 1
            hp = max_hp = row["hp"]
            power, beast = row["power"], False
        if q is None:
            q = self.add_squad(a.get("squad") or self.fresh_id(f"{me}-s"), me, at, [], 2)
        piece = {"id": pid, "class": cls, "owner": me, "squad": q["id"], "pos": at, "hp": hp, "max_hp": max_hp,
                 "power": power, "move": row["move"], "summoned_turn": self.s["turn"], "beast": beast,
                 "maintaining": None, "portal_open": False, "singing": False}
        self.s["pieces"].append(piece)
        self.pieces[pid] = piece
        q["members"].insert(0, pid)
        penalty = via != "portal"
        if penalty:
            q["actions_left"] = 0  # 召唤惩罚 (G5): the whole squad
        self.emit("summon", player=me, piece=pid, cls=cls, at=at, squad=q["id"], via=via, penalty=penalty,
                  from_hand=bool(hand))
        if self.live:
            for e in self.enemies_within(at, me):
                self.strike(e, q, "ambush")

    # --- moving (G15-G18) ---------------------------------------------------------------------
    def check_path(self, q: dict[str, Any], pieces: list[dict[str, Any]], path: list[str], field: str,
                   start: str | None = None) -> None:
        me = q["owner"]
        prev = start or q["pos"]
        if not path:
            raise Refusal("path.empty", field)
        budget = self.squad_move(pieces)
        cost = 0
        for i, name in enumerate(path):
            f = f"{field}[{i}]"
            if dist(prev, name) != 1:
                raise Refusal("path.step", f, frm=prev, to=name)
            if self.fortress_owner(name):
                raise Refusal("path.fortress", f, cell=name)
            other = self.squad_at(name)
            if other is not None and other is not q and other["owner"] != me:
                raise Refusal("path.enemy", f, cell=name, squad=other["id"])
            step = 2 if self.marker_at(name, ROCK) else 1
            wall = self.marker_at(name, WALL)
            if wall is not None and wall["owner"] != me:
                step += 1
            cost += step
            prev = name
        end = path[-1]
        if self.marker_at(end, ROCK):
            raise Refusal("path.end_rock", field, cell=end)
        other = self.squad_at(end)
        if other is not None and other is not q:
            self.check_join(pieces, other, field)
        if cost > budget:
            from gm_tool.rulesets.guangying.bots import reach

            ends = sorted(reach(self, q), key=lambda n: cell(n)[::-1]) if len(pieces) == len(q["members"]) else []
            raise Refusal("path.cost", field, cost=cost, budget=budget, allowed=", ".join(ends) or "-")

    def check_join(self, pieces: list[dict[str, Any]], other: dict[str, Any], field: str) -> None:
        """Whether a move may end on ``other``'s cell: an own squad it joins (R8, l.51), within 3
        pieces and never with a 法师/诗人 (l.51 "任何棋子无法再他们的格子内停留")."""
        cell_ = other["pos"]
        if other["owner"] != pieces[0]["owner"] or not self.rules["merge_by_move"]:
            raise Refusal("path.end_occupied", field, cell=cell_, squad=other["id"])
        if any(p["class"] in ALONE for p in pieces) or any(m["class"] in ALONE for m in self.members(other)):
            raise Refusal("path.end_alone", field, cell=cell_, squad=other["id"])
        if len(pieces) + len(other["members"]) > 3:
            raise Refusal("path.end_full", field, cell=cell_, squad=other["id"], size=len(other["members"]))

    def walk(self, q: dict[str, Any], path: list[str]) -> None:
        """Carry out a checked move; live, with 借机攻击, 措手不及 and 致命夹击 (R10-R12). The move
        event says where the squad really stopped and why (``stop``: None when it reached the
        path's end, ``pincer``, ``lost`` when every piece died, ``fled`` when they went to hand)."""
        me = q["owner"]
        start = q["pos"]
        ev = self.emit("move", squad=q["id"], owner=me, frm=start, path=list(path), planned=path[-1],
                       dest=path[-1], stop=None)
        if not self.live:
            self._place(q, path[-1])
            self._arrive(q, path[-1], ev)
            return
        members = list(q["members"])
        struck: set[str] = set()
        walked: list[str] = []
        for e in self.enemies_within(start, me):
            self.strike(e, q, "opportunity")
            struck.add(e["id"])
        for i, name in enumerate(path):
            if q["id"] not in self.squads:
                break
            self._place(q, name)
            walked.append(name)
            if i == len(path) - 1:
                self._arrive(q, name, ev)
                return
            foes = self.enemies_within(name, me)
            stoppable = not self.marker_at(name, ROCK) and self.squad_at_other(name, q) is None
            for e in foes:
                if e["id"] not in struck:
                    struck.add(e["id"])
                    self.strike(e, q, "ambush")
            if len(foes) >= 2 and stoppable and q["id"] in self.squads:
                ev.update(path=walked, dest=name, stop="pincer")
                self.emit("pincer", squad=q["id"], owner=me, at=name, by=[e["id"] for e in foes])
                return
        hand = {h["id"] for h in self.players[me]["in_hand"]}
        ev.update(path=walked, dest=walked[-1] if walked else start,
                  stop="fled" if any(m in hand for m in members) else "lost")

    def _arrive(self, q: dict[str, Any], name: str, ev: dict[str, Any]) -> None:
        """The end of a move: on an own squad's cell the mover joins it (R8): its pieces go on
        top (as a summon does, l.13 "召唤在队友身上"), the joined squad keeps its id and the
        fewer chances of the two, and has attacked if either had."""
        host = self.squad_at_other(name, q)
        if host is None:
            return
        host["members"][:0] = q["members"]
        for m in q["members"]:
            self.pieces[m]["squad"] = host["id"]
        host["actions_left"] = min(host["actions_left"], q["actions_left"])
        if q["id"] in self.attacked:
            self.attacked.add(host["id"])
        q["members"] = []
        self.drop_squad(q)
        ev["joined"] = host["id"]
        self.emit("join", squad=q["id"], owner=q["owner"], into=host["id"], at=name, leader=host["members"][0],
                  pieces=list(host["members"]), actions_left=host["actions_left"])

    def squad_at_other(self, name: str, q: dict[str, Any]) -> dict[str, Any] | None:
        for o in self.s["squads"]:
            if o["pos"] == name and o is not q:
                return o
        return None

    def _place(self, q: dict[str, Any], name: str) -> None:
        q["pos"] = name
        for m in q["members"]:
            self.pieces[m]["pos"] = name

    def do_move(self, a: dict[str, Any]) -> None:
        q = self.own_squad(a["move"], self.active, "move")
        path = _strip_start(a["path"], q["pos"])
        self.need_chances(q, 1, "move")
        self.check_path(q, self.members(q), path, "path")
        q["actions_left"] -= 1
        self.walk(q, path)

    def do_split(self, a: dict[str, Any]) -> None:
        me = self.active
        refs = a["split"] if isinstance(a["split"], list) else [a["split"]]
        pieces = [self.own_piece(r, me, f"split[{i}]") for i, r in enumerate(refs)]
        q = self.squad_of(pieces[0])
        if any(p["squad"] != q["id"] for p in pieces) or len(set(refs)) != len(refs):
            raise Refusal("split.same_squad", "split", squad=q["id"])
        if len(pieces) >= len(q["members"]) or len(pieces) > 2:
            raise Refusal("split.size", "split", squad=q["id"], size=len(q["members"]))
        if q["actions_left"] < 2:
            raise Refusal("split.acted", "split", squad=q["id"])
        if len(self.own_squads(me)) >= 5:
            raise Refusal("split.five", "split")
        if a.get("squad") is not None:
            self.check_new_id(a["squad"], "squad")
        ordered = [self.pieces[m] for m in q["members"] if m in refs]
        path = _strip_start(a["path"], q["pos"])
        self.check_path(q, ordered, path, "path")
        sid = a.get("squad") or self.fresh_id(f"{me}-s")
        for p in ordered:
            q["members"].remove(p["id"])
            p["squad"] = sid
        new = self.add_squad(sid, me, q["pos"], [p["id"] for p in ordered], 1)
        self.emit("split", squad=q["id"], owner=me, new_squad=sid, pieces=new["members"], leader=q["members"][0])
        self.walk(new, path)

    # --- fighting (G14, G19-G21, G26) ------------------------------------------------------------
    def _attacker(self, q: dict[str, Any], by_ref: Any) -> dict[str, Any]:
        lead = self.leader(q)
        if by_ref is None:
            return lead
        by = self.own_piece(by_ref, self.active, "by")
        if by["squad"] != q["id"]:
            raise Refusal("by.not_member", "by", piece=by_ref, squad=q["id"], allowed=", ".join(q["members"]))
        if by is not lead and (lead["class"] != "战士" or by["class"] in GUARDIANS):
            raise Refusal("by.cannot_attack", "by", piece=by_ref, squad=q["id"], allowed=_attackers(self, q))
        return by

    def _member(self, a: dict[str, Any], by: dict[str, Any], target: dict[str, Any]) -> str | None:
        member = a.get("member")
        if member is None:
            return None
        if by["class"] != "巡林客" or not self.passives_on(by):
            raise Refusal("member.not_ranger", "member")
        if member not in target["members"]:
            raise Refusal("member.not_in_target", "member", value=member, allowed=", ".join(target["members"]))
        return member

    def do_attack(self, a: dict[str, Any], full: bool = False) -> None:
        me = self.active
        verb = "full_attack" if full else "attack"
        q = self.own_squad(a[verb], me, verb)
        if q["id"] in self.attacked:
            raise Refusal("attack.twice", verb, squad=q["id"])
        self.need_chances(q, 2 if full else 1, verb)
        by = self._attacker(q, a.get("by"))
        target_ref = a["target"]
        foe = self.enemy(me)
        fortress = target_ref in ("fortress", "要塞", foe)
        target = None
        if fortress:
            if a.get("member") is not None:
                raise Refusal("member.not_in_target", "member", value=a["member"], allowed="-")
            if min(dist(q["pos"], c) for c in self.players[foe]["fortress"]) > 1:
                raise Refusal("target.out_of_reach", "target", value=target_ref, squad=q["id"],
                              allowed=_reachable_targets(self, q))
        else:
            target = self.enemy_squad(target_ref, me, "target")
            if dist(q["pos"], target["pos"]) > 1:
                raise Refusal("target.out_of_reach", "target", value=target_ref, squad=q["id"],
                              allowed=_reachable_targets(self, q))
        member = self._member(a, by, target) if target else None
        # carried out
        q["actions_left"] -= 2 if full else 1
        self.attacked.add(q["id"])
        parts = self.attack_power(by, q)
        amount = parts["total"] * 2 if full else parts["total"]
        around = self.enemies_within(q["pos"], me)
        self.emit("attack", squad=q["id"], owner=me, piece=by["id"], target=target["id"] if target else None,
                  fortress=target is None, target_owner=foe, full=full, amount=amount, power=parts["base"],
                  song=parts["song"], formation=parts["formation"], member=member)
        if not self.live:
            return
        sweep = by["class"] == "野蛮人"
        if sweep:  # 野蛮人: every squadmate loses 3 (G26)
            for m in self.members(q):
                if m is not by:
                    self.take(m, SQUADMATE_HURT, "barbarian", enemy=False)
        if target is None:  # the fortress
            self.hit_fortress(foe, amount, by["id"])
        else:
            start = target["pos"]
            self.damage(target, amount, "full_attack" if full else "attack", member=member)
            if full and target["id"] in self.squads:
                self.push(q, target, start)
        if sweep:
            for e in around:
                if e is not target:
                    self.emit("sweep", squad=q["id"], owner=me, target=e["id"], target_owner=e["owner"])
                    self.damage(e, amount, "sweep")
        if len(around) >= 2 and q["id"] in self.squads:  # 被多队伍包围 (G17)
            for e in around:
                if e is not target and e["id"] in self.squads and q["id"] in self.squads:
                    self.strike(e, q, "surrounded")

    def push(self, q: dict[str, Any], target: dict[str, Any], start: str) -> None:
        """全力攻击's push (G19, R13): one cell straight away, unless off the board, a 岩, a
        squad or a fortress is there."""
        (ax, ay), (tx, ty) = cell(q["pos"]), cell(start)
        dest = (tx + (tx > ax) - (tx < ax), ty + (ty > ay) - (ty < ay))
        why = None
        if not on_board(dest):
            why = "edge"
        else:
            name = cell_name(dest)
            if self.marker_at(name, ROCK):
                why = "rock"
            elif self.fortress_owner(name):
                why = "fortress"
            elif self.squad_at(name) is not None:
                why = "squad"
        if why:
            self.emit("push_blocked", squad=target["id"], owner=target["owner"], why=why)
            return
        self._place(target, cell_name(dest))
        self.emit("push", squad=target["id"], owner=target["owner"], frm=start, dest=target["pos"])

    def do_full_attack(self, a: dict[str, Any]) -> None:
        self.do_attack(a, full=True)

    def do_defend(self, a: dict[str, Any]) -> None:
        q = self.own_squad(a["defend"], self.active, "defend")
        self.need_chances(q, 2, "defend")
        q["actions_left"] = 0
        q["defending"] = True
        self.emit("defend", squad=q["id"], owner=q["owner"])

    # --- abilities (G26) -----------------------------------------------------------------------
    def do_ability(self, a: dict[str, Any]) -> None:
        me = self.active
        name = a["ability"]
        if a.get("by") is None:
            raise Refusal("ability.by", "by", ability=name, cls=ABILITY_CLASS[name])
        by = self.own_piece(a["by"], me, "by")
        if by["class"] != ABILITY_CLASS[name]:
            raise Refusal("ability.class", "by", piece=by["id"], ability=name, cls=ABILITY_CLASS[name])
        q = self.squad_of(by)
        if by["class"] in GUARDIANS and q["members"][0] != by["id"]:
            raise Refusal("ability.guardian_member", "by", piece=by["id"])
        self.need_chances(q, 2, "ability")
        getattr(self, "ab_" + ABILITY_KEYS[name])(a, by, q)
        q["actions_left"] -= 2

    def ab_sing(self, a, by, q) -> None:
        by["singing"] = True
        self.emit("ability", ability="唱诗", piece=by["id"], owner=by["owner"])

    def ab_heal(self, a, by, q) -> None:
        if by.get("maintaining"):
            raise Refusal("heal.maintaining", "ability", rock=by["maintaining"])
        t = self.own_piece(a.get("target"), self.active, "target") if a.get("target") not in self.squads \
            else self.leader(self.own_squad(a["target"], self.active, "target"))
        if not _heal_reach(by["pos"], t["pos"]):
            raise Refusal("heal.reach", "target", value=t["id"], allowed=", ".join(
                p["id"] for p in self.s["pieces"] if p["owner"] == self.active and _heal_reach(by["pos"], p["pos"])))
        self.emit("ability", ability="治疗", piece=by["id"], owner=by["owner"], target=t["id"])
        self.heal(t, by["power"], "治疗")

    def _free_cell(self, name: Any, field: str) -> str:
        if not isinstance(name, str) or name is None:
            raise Refusal("ability.at", field)
        if self.squad_at(name) or self.marker_at(name) or self.fortress_owner(name):
            raise Refusal("ability.cell_taken", field, cell=name)
        return name

    def _marker(self, a: dict[str, Any], by: dict[str, Any], kind: str, cells: list[str]) -> dict[str, Any]:
        """Lay a 岩 or 风墙 from the pool on free cells (checked first), named by ``id`` or anew."""
        for c in cells:
            self._free_cell(c, "at")
        pl = self.players[self.active]
        if pl["pool"][kind] <= 0:
            raise Refusal("marker.none", "ability", kind=kind)
        mid = a.get("id")
        if mid is not None:
            self.check_new_id(mid, "id")
        else:
            mid = self.fresh_id(f"{self.active}-{'rock' if kind == ROCK else 'wall'}")
        pl["pool"][kind] -= 1
        m = {"id": mid, "kind": kind, "owner": self.active, "cells": board_order(cells), "by": by["id"]}
        self.s["markers"].append(m)
        self.markers[mid] = m
        self.emit("ability", ability="造岩" if kind == ROCK else "风墙", piece=by["id"], owner=by["owner"],
                  marker=mid, cells=m["cells"])
        return m

    def _beside(self, a: dict[str, Any], by: dict[str, Any]) -> str:
        at = a.get("at")
        if at is None or dist(at, by["pos"]) != 1:
            raise Refusal("ability.adjacent", "at", cell=at, piece=by["id"])
        return at

    def ab_rock(self, a, by, q) -> None:
        at = self._beside(a, by)
        if by.get("maintaining"):
            raise Refusal("rock.maintaining", "by", rock=by["maintaining"])
        by["maintaining"] = self._marker(a, by, ROCK, [at])["id"]

    def ab_wall(self, a, by, q) -> None:
        at = self._beside(a, by)
        self._marker(a, by, WALL, wall_cells(by["pos"], at, a.get("orientation") or "horizontal"))

    def ab_beast(self, a, by, q) -> None:
        if by["beast"]:
            raise Refusal("beast.twice", "by", piece=by["id"])
        by["beast"] = True
        by["hp"] += 20
        by["max_hp"] += 20
        by["power"] += 2
        self.emit("ability", ability="变身野兽", piece=by["id"], owner=by["owner"], hp=by["hp"])

    def ab_devotion(self, a, by, q) -> None:
        t = self.own_piece(a.get("target"), self.active, "target")
        if t["squad"] != q["id"] or t is by:
            raise Refusal("devotion.target", "target", value=t["id"], allowed=", ".join(m for m in q["members"] if m != by["id"]) or "-")
        amount = a.get("amount")
        most = min(by["hp"] - 1, t["max_hp"] - t["hp"])
        if not isinstance(amount, int) or amount < 1 or amount > most:
            raise Refusal("devotion.amount", "amount", value=amount, most=most)
        by["hp"] -= amount
        self.emit("ability", ability="奉献", piece=by["id"], owner=by["owner"], target=t["id"], amount=amount,
                  hp=by["hp"])
        self.heal(t, amount, "奉献")

    def _ranged_problem(self, ability: str, by: dict[str, Any], t: dict[str, Any]) -> Refusal | None:
        """Why ``t`` cannot be the target of 射击 or 火球 by ``by`` (None: it can)."""
        if any(m["class"] in RANGED_IMMUNE for m in self.members(t)):
            return Refusal("target.immune", "target", value=t["id"])
        if ability == "火球":
            if dist(by["pos"], t["pos"]) > FIREBALL_RANGE:
                return Refusal("fireball.range", "target", value=t["id"])
            return None
        (bx, by_), (tx, ty) = cell(by["pos"]), cell(t["pos"])
        d = abs(bx - tx) + abs(by_ - ty)
        if (bx != tx and by_ != ty) or not 1 <= d <= SHOT_RANGE:
            return Refusal("shoot.line", "target", value=t["id"])
        dx, dy = (tx > bx) - (tx < bx), (ty > by_) - (ty < by_)
        for k in range(1, d):
            name = cell_name((bx + dx * k, by_ + dy * k))
            if self.marker_at(name):
                return Refusal("shoot.blocked", "target", value=t["id"], cell=name)
        return None

    def _ranged_target(self, a: dict[str, Any], by: dict[str, Any]) -> dict[str, Any]:
        t = self.enemy_squad(a.get("target"), self.active, "target")
        problem = self._ranged_problem(a["ability"], by, t)
        if problem is not None:
            problem.params["value"] = a.get("target")
            problem.params["allowed"] = ", ".join(
                e["id"] for e in self.s["squads"]
                if e["owner"] != self.active and self._ranged_problem(a["ability"], by, e) is None) or "-"
            raise problem
        return t

    def ab_shoot(self, a, by, q) -> None:
        t = self._ranged_target(a, by)
        member = self._member(a, by, t)
        song = self.song(by)
        amount = SHOT_POWER + song
        self.emit("ability", ability="射击", piece=by["id"], owner=by["owner"], target=t["id"], amount=amount,
                  song=song, member=member)
        if self.live:
            self.damage(t, amount, "shot", member=member)

    def ab_fireball(self, a, by, q) -> None:
        if self.enemies_within(by["pos"], self.active):
            raise Refusal("fireball.crowded", "by", piece=by["id"])
        t = self._ranged_target(a, by)
        self.emit("ability", ability="火球", piece=by["id"], owner=by["owner"], target=t["id"], amount=FIREBALL_DAMAGE)
        if self.live:
            self.damage(t, FIREBALL_DAMAGE, "fireball", split=True)

    def ab_portal(self, a, by, q) -> None:
        me = self.active
        if row_of(by["pos"]) not in self.home_rows(me) + self.neutral_rows(me):
            raise Refusal("portal.rows", "by", piece=by["id"])
        by["portal_open"] = True
        self.emit("ability", ability="开启传送阵", piece=by["id"], owner=me)

    # --- free actions (G6, G8, G10) ------------------------------------------------------------
    def do_leader(self, a: dict[str, Any]) -> None:
        p = self.own_piece(a["leader"], self.active, "leader")
        q = self.squad_of(p)
        q["members"].remove(p["id"])
        q["members"].insert(0, p["id"])
        self.emit("leader", squad=q["id"], owner=q["owner"], piece=p["id"])

    def do_return(self, a: dict[str, Any]) -> None:
        me = self.active
        refs = a["return"] if isinstance(a["return"], list) else [a["return"]]
        pieces: list[dict[str, Any]] = []
        for i, r in enumerate(refs):
            f = f"return[{i}]" if isinstance(a["return"], list) else "return"
            if r in self.squads and self.squads[r]["owner"] == me:
                got = self.members(self.squads[r])
            else:
                got = [self.own_piece(r, me, f)]
            for p in got:
                if not self.in_home(me, p["pos"]):
                    raise Refusal("return.not_home", f, piece=p["id"], cell=p["pos"])
                if p not in pieces:
                    pieces.append(p)
        for p in pieces:
            self.to_hand(p, fled=False)
        self.emit("return", player=me, pieces=[p["id"] for p in pieces])

    def do_suicide(self, a: dict[str, Any]) -> None:
        p = self.own_piece(a["suicide"], self.active, "suicide")
        self.emit("suicide", piece=p["id"], owner=p["owner"])
        self.kill(p, "suicide")

    # --- a whole sheet -------------------------------------------------------------------------
    def run(self, actions: list[dict[str, Any]]) -> list[tuple[int, Refusal]]:
        """Play the actions in order; returns the refused ones (index, refusal). On a live board
        a refused action is skipped with its real reason (R30: ``number`` counts from 1, as a
        reader does); once the game is decided the rest is skipped in one event."""
        refused = []
        for i, a in enumerate(actions):
            number = a.get("index", i) + 1
            if self.decided:
                self.emit("rest_skipped", first=number, last=actions[-1].get("index", len(actions) - 1) + 1,
                          reason="game_over")
                break
            try:
                getattr(self, "do_" + a["verb"])(a)
            except Refusal as r:
                refused.append((i, r))
                if self.live:
                    why = self.real_reason(r)
                    self.emit("action_skipped", index=number - 1, number=number, verb=a["verb"], reason=why.code,
                              params=dict(why.params))
        return refused

    def real_reason(self, r: Refusal) -> Refusal:
        """Why an action `gm check` accepted could not be carried out on the live board: a squad,
        piece or target named by the sheet that died or went to hand says so; anything else
        gives the refusal itself, with what was allowed at that moment."""
        value = r.params.get("value") if r.code in ("squad.unknown", "piece.unknown", "target.unknown") else None
        if isinstance(value, str):
            for pl in self.s["players"]:
                if value in pl["dead"]:
                    return Refusal("gone.dead", r.field, value=value)
                if any(h["id"] == value for h in pl["in_hand"]):
                    return Refusal("gone.hand", r.field, value=value)
            if value in self.s.get("retired", ()):
                return Refusal("gone.squad", r.field, value=value)
        return r


ABILITY_KEYS = {"唱诗": "sing", "治疗": "heal", "造岩": "rock", "风墙": "wall", "变身野兽": "beast",
                "奉献": "devotion", "射击": "shoot", "火球": "fireball", "开启传送阵": "portal"}


def wall_cells(druid: str, at: str, orientation: str) -> list[str]:
    """G26 风墙: if the line through ``at`` meets the druid, ``at`` and 2 cells beyond; else ``at``
    is the middle. Off-board cells vanish (seed l.15)."""
    (dx, dy), (ax, ay) = cell(druid), cell(at)
    step = (1, 0) if orientation == "horizontal" else (0, 1)
    in_line = (orientation == "horizontal" and dy == ay) or (orientation == "vertical" and dx == ax)
    if in_line:
        sx, sy = ax - dx, ay - dy
        raw = [(ax + sx * k, ay + sy * k) for k in range(3)]
    else:
        raw = [(ax - step[0], ay - step[1]), (ax, ay), (ax + step[0], ay + step[1])]
    return [cell_name(c) for c in raw if on_board(c)]


def _heal_reach(a: str, b: str) -> bool:
    """治疗's reach: within 1 身位格, or a diagonal neighbour (seed l.27)."""
    (ax, ay), (bx, by) = cell(a), cell(b)
    return abs(ax - bx) + abs(ay - by) <= 1 or (abs(ax - bx) == 1 and abs(ay - by) == 1)


def _strip_start(path: list[str], pos: str) -> list[str]:
    return path[1:] if path and path[0] == pos else path


def _cells_text(cells: dict[str, str]) -> str:
    names = list(cells)
    if len(names) > 12:
        return ", ".join(names[:12]) + f" ... ({len(names)})"
    return ", ".join(names) or "-"


def _attackers(game: Game, q: dict[str, Any]) -> str:
    lead = game.leader(q)
    if lead["class"] != "战士":
        return lead["id"]
    return ", ".join(m["id"] for m in game.members(q) if m is lead or m["class"] not in GUARDIANS)


def _reachable_targets(game: Game, q: dict[str, Any]) -> str:
    out = [e["id"] for e in game.enemies_within(q["pos"], q["owner"])]
    foe = game.enemy(q["owner"])
    if min(dist(q["pos"], c) for c in game.players[foe]["fortress"]) <= 1:
        out.append("fortress")
    return ", ".join(out) or "-"

"""One turn being played: the rules the actions share (where a summon may go, a path and
where it ends, a walk with the reactions it meets, an attacker, a push, a marker laid, a ranged
target), each checking everything before it changes anything and raising :class:`Refusal`.
The action kinds themselves (what a sheet writes, its options, what it does) are in
:mod:`.actions`; :func:`.actions.run` plays a sheet's list of them on a :class:`Turn`.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.grid import cell_name
from gm_tool.rulesets.guangying.model import (
    ALONE,
    FIREBALL_RANGE,
    GUARDIANS,
    NEIGHBOURS,
    RANGED_IMMUNE,
    ROCK,
    SHOT_RANGE,
    WALL,
    Game,
    Refusal,
    board_order,
    cell,
    dist,
    on_board,
    reach,
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
            if q["owner"] != player or self.stack_problem(q, cls) is not None:
                barred.add(q["pos"])
        return {name: how for name, how in out.items()
                if name not in barred and not (five and self.squad_at(name) is None)}

    def stack_problem(self, q: dict[str, Any], cls: str) -> str | None:
        """Why ``cls`` cannot join own squad ``q`` (G4, G13), or None."""
        if cls in ALONE or any(m["class"] in ALONE for m in self.members(q)):
            return "summon.alone"
        if len(q["members"]) >= 3:
            return "summon.full"
        return None

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

    # --- fighting (G14, G19-G21, G26) ------------------------------------------------------------
    def attacker(self, q: dict[str, Any], by_ref: Any) -> dict[str, Any]:
        lead = self.leader(q)
        if by_ref is None:
            return lead
        by = self.own_piece(by_ref, self.active, "by")
        if by["squad"] != q["id"]:
            raise Refusal("by.not_member", "by", piece=by_ref, squad=q["id"], allowed=", ".join(q["members"]))
        if by is not lead and (lead["class"] != "战士" or by["class"] in GUARDIANS):
            raise Refusal("by.cannot_attack", "by", piece=by_ref, squad=q["id"], allowed=attackers_text(self, q))
        return by

    def precise_member(self, a: dict[str, Any], by: dict[str, Any], target: dict[str, Any]) -> str | None:
        member = a.get("member")
        if member is None:
            return None
        if by["class"] != "巡林客" or not self.passives_on(by):
            raise Refusal("member.not_ranger", "member")
        if member not in target["members"]:
            raise Refusal("member.not_in_target", "member", value=member, allowed=", ".join(target["members"]))
        return member

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

    # --- abilities (G26) -----------------------------------------------------------------------
    def free_cell(self, name: Any, field: str) -> str:
        if not isinstance(name, str) or name is None:
            raise Refusal("ability.at", field)
        if self.squad_at(name) or self.marker_at(name) or self.fortress_owner(name):
            raise Refusal("ability.cell_taken", field, cell=name)
        return name

    def lay_marker(self, a: dict[str, Any], by: dict[str, Any], kind: str, cells: list[str]) -> dict[str, Any]:
        """Lay a 岩 or 风墙 from the pool on free cells (checked first), named by ``id`` or anew."""
        for c in cells:
            self.free_cell(c, "at")
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

    def beside(self, a: dict[str, Any], by: dict[str, Any]) -> str:
        at = a.get("at")
        if at is None or dist(at, by["pos"]) != 1:
            raise Refusal("ability.adjacent", "at", cell=at, piece=by["id"])
        return at

    def ranged_problem(self, ability: str, by: dict[str, Any], t: dict[str, Any]) -> Refusal | None:
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

    def ranged_target(self, a: dict[str, Any], by: dict[str, Any]) -> dict[str, Any]:
        t = self.enemy_squad(a.get("target"), self.active, "target")
        problem = self.ranged_problem(a["ability"], by, t)
        if problem is not None:
            problem.params["value"] = a.get("target")
            problem.params["allowed"] = ", ".join(
                e["id"] for e in self.s["squads"]
                if e["owner"] != self.active and self.ranged_problem(a["ability"], by, e) is None) or "-"
            raise problem
        return t

    # --- a whole sheet -------------------------------------------------------------------------
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


def heal_reach(a: str, b: str) -> bool:
    """治疗's reach: within 1 身位格, or a diagonal neighbour (seed l.27)."""
    (ax, ay), (bx, by) = cell(a), cell(b)
    return abs(ax - bx) + abs(ay - by) <= 1 or (abs(ax - bx) == 1 and abs(ay - by) == 1)


def strip_start(path: list[str], pos: str) -> list[str]:
    return path[1:] if path and path[0] == pos else path


def cells_text(cells: dict[str, str]) -> str:
    names = list(cells)
    if len(names) > 12:
        return ", ".join(names[:12]) + f" ... ({len(names)})"
    return ", ".join(names) or "-"


def attackers_text(game: Game, q: dict[str, Any]) -> str:
    lead = game.leader(q)
    if lead["class"] != "战士":
        return lead["id"]
    return ", ".join(m["id"] for m in game.members(q) if m is lead or m["class"] not in GUARDIANS)


def targets(game: Game, q: dict[str, Any]) -> list[str]:
    """What squad ``q`` may attack: the enemy squads within 1 身位格 (board order), then the
    enemy fortress when it is within 1."""
    out = [e["id"] for e in game.enemies_within(q["pos"], q["owner"])]
    if q["pos"] in beside(game.players[game.enemy(q["owner"])]["fortress"]):
        out.append("fortress")
    return out


_BESIDE: dict[tuple[str, ...], frozenset[str]] = {}


def beside(cells: list[str]) -> frozenset[str]:
    """The cells within 1 身位格 of ``cells`` (a fortress): they and their neighbours."""
    key = tuple(cells)
    found = _BESIDE.get(key)
    if found is None:
        found = _BESIDE[key] = frozenset(cells).union(*(NEIGHBOURS[c] for c in cells))
    return found


def reachable_targets(game: Game, q: dict[str, Any]) -> str:
    return ", ".join(targets(game, q)) or "-"

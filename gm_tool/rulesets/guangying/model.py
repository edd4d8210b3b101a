"""The rules of 光与影 (seed 001) on plain-dict state: one turn = the upkeep, then the due
player's actions in order, each with the opponent's automatic reactions.

:class:`Game` wraps a state (mutated in place: callers copy first) with indexes: damage, deaths,
healing, reactions, the upkeep and the end of a turn. Each kind of action is a class of
:mod:`.actions` that checks everything first and raises :class:`Refusal` before changing
anything. With ``live=False`` (``gm check``) only the sheet's own placements happen: no damage,
deaths, reactions, forced stops or pushes (contract §4). The rule references (G1-G27) are the
contract's (``spec/guangying.md`` §7); R-numbers are ``docs/rulings/guangying.md``.
"""

from __future__ import annotations

import heapq
import re
from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.schema import id_problem as lookalike
from gm_tool.rulesets.guangying.data import class_of, classes, normal
from gm_tool.rulesets.guangying.switches import DEFAULTS as RULE_DEFAULTS

W, H = 10, 12
GUARDIANS = ("战士", "圣武士")  # 护卫者 (seed l.63)
ALONE = ("法师", "诗人")  # 无法组队 (seed l.26, l.34)
RANGED_IMMUNE = ALONE
ROCK, WALL = "岩", "风墙"
ABILITY_CLASS = {"唱诗": "诗人", "治疗": "牧师", "造岩": "牧师", "风墙": "德鲁伊", "变身野兽": "德鲁伊",
                 "奉献": "圣武士", "射击": "巡林客", "火球": "术士", "开启传送阵": "法师"}
FLEE_OWN_TURNS = 5  # 逃跑: "五回合内无法再次上场" (R1: five of the owner's own turns)
MISSING_TURNS = 3  # 三.1-2: "三回合内"
SONG_BONUS, SONG_RANGE = 3, 2
SHOT_RANGE, SHOT_POWER = 3, 1
FIREBALL_RANGE, FIREBALL_DAMAGE = 3, 10
SQUADMATE_HURT = 3
FORTRESS_HP = 100  # 要塞: "生命力为100的要塞"


ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def id_problem(value: Any, table: dict[str, Any]) -> str | None:
    """The refusal code for a bad new id, or None (contract §3)."""
    if not isinstance(value, str) or not ID_RE.match(value):
        return "id.bad"
    if normal(value) == "fortress" or class_of(value) is not None:
        return "id.reserved"
    return None


class Refusal(Exception):
    """An action that cannot be carried out: a message code (``guangying.action.<code>``), the
    sheet field at fault and the message's parameters."""

    def __init__(self, code: str, field: str | None = None, **params: Any):
        super().__init__(code)
        self.code = code
        self.field = field
        self.params = params


_XY: dict[str, tuple[int, int]] = {cell_name((x, y)): (x, y) for y in range(12) for x in range(10)}


NEIGHBOURS: dict[str, tuple[str, ...]] = {
    name: tuple(cell_name((x + dx, y + dy)) for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
                if 0 <= x + dx < 10 and 0 <= y + dy < 12)
    for name, (x, y) in _XY.items()}


def cell(name: str) -> tuple[int, int]:
    xy = _XY.get(name)
    return xy if xy is not None else parse_cell(name)


def dist(a: str, b: str) -> int:
    """身位格 between two cells: orthogonal steps (a diagonal neighbour is 2)."""
    try:
        (ax, ay), (bx, by) = _XY[a], _XY[b]
    except KeyError:
        (ax, ay), (bx, by) = parse_cell(a), parse_cell(b)
    return abs(ax - bx) + abs(ay - by)


def on_board(c: tuple[int, int]) -> bool:
    return 0 <= c[0] < W and 0 <= c[1] < H


def row_of(name: str) -> int:
    return cell(name)[1] + 1


def side_rows(side: str) -> tuple[list[int], list[int], int]:
    """(home rows, neutral rows, the row just beyond home) of a side (contract §5)."""
    if side == "south":
        return [1, 2, 3], [4, 5, 6], 4
    return [10, 11, 12], [7, 8, 9], 9


NEUTRAL_AREA = [4, 5, 6, 7, 8, 9]  # 二.3: "中立区域连接起来，就是一个6*10的中立区域"


def label_squad(state: dict[str, Any], sid: str, owner: str) -> str:
    """Give a new squad its board label (``a#1``, ``a#2``; ``b#1`` for the second player: a ``#``
    is in no id nor cell, so a label is never mistaken for either), kept in
    ``state["squad_labels"]`` for the whole game, the squad's too once it has gone: a label is
    never given twice (``squads_formed`` counts each player's squads)."""
    pl = next(p for p in state["players"] if p["player"] == owner)
    pl["squads_formed"] = pl.get("squads_formed", 0) + 1
    label = f"{seat(state, owner)}#{pl['squads_formed']}"
    state.setdefault("squad_labels", {})[sid] = label
    return label


def seat(state: dict[str, Any], owner: str) -> str:
    """A player's neutral letter: ``a`` for the first player listed, ``b`` for the second."""
    return "ab"[next(i for i, p in enumerate(state["players"]) if p["player"] == owner)]


def piece_label(state: dict[str, Any], pid: str, owner: str) -> str:
    """How posts name a piece: its id, except that an id made from its owner's name
    (``alice-warrior3``) shows the owner's seat instead (``a-warrior3``); sheets accept both."""
    if pid.startswith(owner + "-"):
        return seat(state, owner) + pid[len(owner):]
    return pid


def copy_state(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a state (plain data, two levels of lists of dicts), faster than deepcopy."""
    out = dict(state)
    out["players"] = [
        {**p, "home_rows": list(p["home_rows"]), "fortress": list(p["fortress"]), "pool": dict(p["pool"]),
         "in_hand": [dict(h) for h in p["in_hand"]], "dead": list(p["dead"]),
         **({"dead_classes": dict(p["dead_classes"])} if "dead_classes" in p else {}),
         "standing": {k: dict(v) if isinstance(v, dict) else v for k, v in p["standing"].items()}}
        for p in state["players"]]
    out["squads"] = [{**q, "members": list(q["members"])} for q in state["squads"]]
    out["pieces"] = [dict(p) for p in state["pieces"]]
    out["markers"] = [{**m, "cells": list(m["cells"])} for m in state["markers"]]
    if "classes" in state:
        out["classes"] = state["classes"]
    if "retired" in state:
        out["retired"] = list(state["retired"])
    if "squad_labels" in state:
        out["squad_labels"] = dict(state["squad_labels"])
    return out


def default_fortress(side: str) -> list[str]:
    return ["E1", "F1", "E2", "F2"] if side == "south" else ["E11", "F11", "E12", "F12"]


def board_order(names: list[str]) -> list[str]:
    """Cells in board order: row, then column."""
    return sorted(names, key=lambda n: cell(n)[::-1])


class Game:
    """A state with indexes; ``live`` False for the placements-only run of ``gm check``."""

    def __init__(self, state: dict[str, Any], live: bool = True, log: EventLog | None = None):
        self.s = state
        self.live = live
        self.log = log if log is not None else EventLog()
        self.table = state.get("classes") or classes()
        self.pieces = {p["id"]: p for p in state["pieces"]}
        self.squads = {q["id"]: q for q in state["squads"]}
        self.players = {p["player"]: p for p in state["players"]}
        self.markers = {m["id"]: m for m in state["markers"]}
        self.active: str = state.get("next") or state["players"][0]["player"]
        self.rules: dict[str, Any] = {**RULE_DEFAULTS, **(state.get("rules") or {})}
        self.summoned = False
        self.attacked: set[str] = set()
        self.shielded: set[str] = set()
        self.decided = False

    # --- reading ---------------------------------------------------------------------------
    def emit(self, type_: str, **data: Any) -> dict[str, Any]:
        return self.log.emit(type_, **data)

    def enemy(self, player: str) -> str:
        a, b = self.s["players"][0]["player"], self.s["players"][1]["player"]
        return b if player == a else a

    def squad_at(self, name: str) -> dict[str, Any] | None:
        for q in self.s["squads"]:
            if q["pos"] == name:
                return q
        return None

    def leader(self, q: dict[str, Any]) -> dict[str, Any]:
        return self.pieces[q["members"][0]]

    def members(self, q: dict[str, Any]) -> list[dict[str, Any]]:
        return [self.pieces[m] for m in q["members"]]

    def squad_of(self, piece: dict[str, Any]) -> dict[str, Any]:
        return self.squads[piece["squad"]]

    def own_squads(self, player: str) -> list[dict[str, Any]]:
        return [q for q in self.s["squads"] if q["owner"] == player]

    def enemies_within(self, name: str, player: str, reach: int = 1) -> list[dict[str, Any]]:
        """Enemy squads of ``player`` within ``reach`` 身位格 of ``name``, in board order."""
        x, y = cell(name)
        found = []
        for q in self.s["squads"]:
            if q["owner"] != player:
                qx, qy = _XY.get(q["pos"]) or cell(q["pos"])
                if abs(qx - x) + abs(qy - y) <= reach:
                    found.append((qy, qx, q))
        if len(found) > 1:
            found.sort(key=lambda t: (t[0], t[1]))
        return [t[2] for t in found]

    def marker_at(self, name: str, kind: str | None = None) -> dict[str, Any] | None:
        for m in self.s["markers"]:
            if name in m["cells"] and (kind is None or m["kind"] == kind):
                return m
        return None

    def fortress_owner(self, name: str) -> str | None:
        for p in self.s["players"]:
            if name in p["fortress"]:
                return p["player"]
        return None

    def passives_on(self, piece: dict[str, Any]) -> bool:
        """G11: a leader's passives are on; a member's only under a 战士 leader."""
        q = self.squad_of(piece)
        return q["members"][0] == piece["id"] or self.leader(q)["class"] == "战士"

    def squad_move(self, pieces: list[dict[str, Any]]) -> int:
        """G10: the slowest member's move; with a 战士 leader, the average (rounded down)."""
        moves = [p["move"] for p in pieces]
        if pieces[0]["class"] == "战士":
            return sum(moves) // len(moves)
        return min(moves)

    def song(self, piece: dict[str, Any]) -> int:
        """唱诗: +3 to an own leader within 2 of a singing bard (R5)."""
        q = self.squads.get(piece.get("squad") or "")
        if q is None or q["members"][0] != piece["id"]:
            return 0
        for b in self.s["pieces"]:
            if b.get("singing") and b["owner"] == piece["owner"] and dist(b["pos"], piece["pos"]) <= SONG_RANGE:
                return SONG_BONUS
        return 0

    def attack_power(self, by: dict[str, Any], q: dict[str, Any]) -> dict[str, int]:
        """The attacker's power in parts: its own (变身野兽 included), +3 唱诗, and 战阵 (G12):
        the powers of same-class non-guardian members. ``total`` sums them."""
        parts = {"base": by["power"], "song": self.song(by), "formation": 0}
        if by["class"] not in GUARDIANS:
            for m in self.members(q):
                if m["id"] != by["id"] and m["class"] == by["class"]:
                    parts["formation"] += m["power"]
        parts["total"] = parts["base"] + parts["song"] + parts["formation"]
        return parts

    def home_rows(self, player: str) -> list[int]:
        return self.players[player]["home_rows"]

    def neutral_rows(self, player: str) -> list[int]:
        """The neutral rows open to ``player``'s portal (R32): the whole 6x10 neutral area, or
        with ``rules: {portal_area: own_half}`` only the three of its own half."""
        if self.rules["portal_area"] == "own_half":
            return side_rows(self.players[player]["side"])[1]
        return NEUTRAL_AREA

    def in_home(self, player: str, name: str) -> bool:
        return row_of(name) in self.home_rows(player)

    def all_ids(self) -> set[str]:
        """Every id given in this game: on the board, in hand, dead, or retired (a squad that
        emptied or merged, a marker taken off): an id is never given twice."""
        ids = set(self.pieces) | set(self.squads) | set(self.markers) | set(self.s.get("retired", ()))
        for p in self.s["players"]:
            ids.update(h["id"] for h in p["in_hand"])
            ids.update(p["dead"])
        return ids

    def fresh_id(self, stem: str) -> str:
        used = self.all_ids()
        n = 1
        while f"{stem}{n}" in used:
            n += 1
        return f"{stem}{n}"

    def check_new_id(self, value: Any, field: str) -> None:
        code = id_problem(value, self.table)
        if code:
            raise Refusal(code, field, value=value)
        if value in self.all_ids():
            raise Refusal("id.taken", field, value=value)
        if (bad := lookalike(value, "", (), self.all_ids())) is not None:  # S1 beside s1
            raise Refusal("id.lookalike", field, value=value, other=bad[1]["other"])

    def own_squad(self, ref: Any, player: str, field: str) -> dict[str, Any]:
        q = self.squads.get(ref) if isinstance(ref, str) else None
        if q is None and isinstance(ref, str) and ref in self.pieces:
            q = self.squad_of(self.pieces[ref])
        if q is None or q["owner"] != player:
            raise Refusal("squad.unknown", field, value=ref,
                          allowed=", ".join(x["id"] for x in self.own_squads(player)) or "-")
        return q

    def own_piece(self, ref: Any, player: str, field: str) -> dict[str, Any]:
        p = self.pieces.get(ref) if isinstance(ref, str) else None
        if p is None or p["owner"] != player:
            raise Refusal("piece.unknown", field, value=ref,
                          allowed=", ".join(x["id"] for x in self.s["pieces"] if x["owner"] == player) or "-")
        return p

    def enemy_squad(self, ref: Any, player: str, field: str) -> dict[str, Any]:
        q = self.squads.get(ref) if isinstance(ref, str) else None
        if q is None and isinstance(ref, str) and ref in self.pieces:
            q = self.squad_of(self.pieces[ref])
        if q is None or q["owner"] == player:
            raise Refusal("target.unknown", field, value=ref,
                          allowed=", ".join(x["id"] for x in self.s["squads"] if x["owner"] != player) or "-")
        return q

    def need_chances(self, q: dict[str, Any], n: int, field: str) -> None:
        if q["actions_left"] < n:
            raise Refusal("chances", field, squad=q["id"], need=n, have=q["actions_left"])

    # --- changing ----------------------------------------------------------------------------
    def retire(self, ident: str) -> None:
        """An id leaves the game (a squad emptied or merged, a marker removed): never reused."""
        retired = self.s.setdefault("retired", [])
        if ident not in retired:
            retired.append(ident)

    def add_squad(self, sid: str, owner: str, pos: str, members: list[str], actions_left: int) -> dict[str, Any]:
        """A new squad on the board, with its stable board label."""
        q = {"id": sid, "owner": owner, "pos": pos, "members": members, "actions_left": actions_left,
             "defending": False}
        label_squad(self.s, sid, owner)
        self.s["squads"].append(q)
        self.squads[sid] = q
        return q

    def drop_squad(self, q: dict[str, Any]) -> None:
        """An empty (or merged) squad leaves the board; its standing order goes with it."""
        self.s["squads"].remove(q)
        del self.squads[q["id"]]
        self.retire(q["id"])
        self.players[q["owner"]]["standing"].get("squads", {}).pop(q["id"], None)

    def drop_marker(self, m: dict[str, Any]) -> None:
        """A 岩 or 风墙 leaves the board and goes back to its owner's pool."""
        self.markers.pop(m["id"], None)
        self.s["markers"].remove(m)
        self.players[m["owner"]]["pool"][m["kind"]] += 1
        self.retire(m["id"])
        for p in self.s["pieces"]:
            if p.get("maintaining") == m["id"]:
                p["maintaining"] = None

    def heal(self, piece: dict[str, Any], amount: int, why: str) -> None:
        gain = min(amount, piece["max_hp"] - piece["hp"])
        if gain > 0:
            piece["hp"] += gain
            self.emit("heal", piece=piece["id"], owner=piece["owner"], amount=gain, hp=piece["hp"], why=why)

    def release_rock(self, piece: dict[str, Any]) -> None:
        """R3: a rock stands while its priest is on the board and maintains it."""
        rid = piece.get("maintaining")
        if rid and rid in self.markers:
            m = self.markers[rid]
            self.drop_marker(m)
            self.emit("marker_removed", marker=rid, kind=ROCK, cells=m["cells"], why="priest_gone",
                      by=piece["id"])
        piece["maintaining"] = None

    def lift(self, piece: dict[str, Any]) -> dict[str, Any]:
        """Take a piece off the board; returns its (former) squad."""
        self.release_rock(piece)
        q = self.squad_of(piece)
        q["members"].remove(piece["id"])
        self.s["pieces"].remove(piece)
        del self.pieces[piece["id"]]
        if not q["members"]:
            self.drop_squad(q)
        return q

    def to_hand(self, piece: dict[str, Any], fled: bool) -> None:
        owner = piece["owner"]
        self.lift(piece)
        until = None
        if fled:
            nxt = self.s["turn"] + (2 if owner == self.active else 1)
            until = nxt + 2 * FLEE_OWN_TURNS
        self.players[owner]["in_hand"].append(
            {"id": piece["id"], "class": piece["class"], "hp": piece["hp"], "max_hp": piece["max_hp"],
             "power": piece["power"], "beast": piece["beast"], "cannot_return_until": until})

    def kill(self, piece: dict[str, Any], cause: str) -> None:
        q = self.squad_of(piece)
        was_leader = q["members"][0] == piece["id"]
        owner = piece["owner"]
        self.lift(piece)
        self.players[owner]["dead"].append(piece["id"])
        self.players[owner].setdefault("dead_classes", {})[piece["id"]] = piece["class"]
        self.emit("death", piece=piece["id"], owner=owner, cls=piece["class"], cause=cause)
        if was_leader and q["id"] in self.squads:
            st = self.players[owner]["standing"]
            choice = st.get("squads", {}).get(q["id"], st.get("leader_dies", "fight_on"))
            if choice == "return":
                fled = list(q["members"])
                for m in fled:
                    self.to_hand(self.pieces[m], fled=True)
                until = self.players[owner]["in_hand"][-1]["cannot_return_until"]
                self.emit("flee", squad=q["id"], owner=owner, pieces=fled, until=until)
            else:
                self.emit("new_leader", squad=q["id"], owner=owner, piece=q["members"][0], why="leader_died")

    def take(self, piece: dict[str, Any], amount: int, cause: str, enemy: bool = True,
             reaction: bool = False) -> None:
        """Damage to one piece: 攻击超额 (G21), 不屈意志 and 必杀攻击 (G23)."""
        if amount <= 0 or piece["id"] not in self.pieces:
            return
        if piece["id"] in self.shielded:
            self.emit("shielded", piece=piece["id"], owner=piece["owner"], amount=amount, cause=cause)
            return
        if amount < piece["hp"]:
            piece["hp"] -= amount
            self.emit("damage", piece=piece["id"], owner=piece["owner"], amount=amount, hp=piece["hp"], cause=cause)
            self.standing_order(piece)
            return
        q = self.squad_of(piece)
        leader = q["members"][0] == piece["id"]
        full = piece["hp"] == piece["max_hp"]
        if enemy and leader and full and not (reaction and piece["owner"] == self.active):
            piece["hp"] = 1
            self.shielded.add(piece["id"])
            self.emit("unyielding", piece=piece["id"], owner=piece["owner"], amount=amount, cause=cause)
            self.standing_order(piece)
            return
        if enemy and leader and full:
            self.emit("deadly_strike", piece=piece["id"], owner=piece["owner"], cause=cause)
        self.emit("damage", piece=piece["id"], owner=piece["owner"], amount=amount, hp=0, cause=cause)
        self.kill(piece, cause)

    def standing_order(self, piece: dict[str, Any]) -> None:
        """R35: a standing 回手 or 自杀 order (l.11, l.17 "任何时间") carried out in the opponent's
        turn, once the piece is hurt to its HP limit or below: 回手 only from own home rows
        (l.11 "在本阵中"), 自杀 anywhere (l.17 "任何地点"). Each order is used once."""
        owner = piece["owner"]
        if owner == self.active or not self.live or piece["id"] not in self.pieces:
            return
        st = self.players[owner]["standing"]
        for kind in ("return", "suicide"):
            limit = (st.get(kind) or {}).get(piece["id"])
            if limit is None or piece["hp"] > limit:
                continue
            if kind == "return" and not self.in_home(owner, piece["pos"]):
                continue
            del st[kind][piece["id"]]
            q = self.squad_of(piece)
            led = q["members"][0] == piece["id"]
            self.emit("standing_" + kind, piece=piece["id"], owner=owner, hp=piece["hp"], limit=limit)
            if kind == "suicide":
                self.kill(piece, "suicide")
            else:
                self.to_hand(piece, fled=False)
                if led and q["id"] in self.squads:
                    self.emit("new_leader", squad=q["id"], owner=owner, piece=q["members"][0], why="leader_returned")
            return

    def spread(self, q: dict[str, Any], amount: int, cause: str, survivors_only: bool) -> None:
        """伤害均分 (G21) and 防御's spread (G20): equal shares, the remainder resisted; with
        ``survivors_only`` the shares go to the members who survive them, recomputed (R21)."""
        pieces = self.members(q)
        if survivors_only:
            while pieces and any(p["hp"] <= amount // len(pieces) for p in pieces):
                pieces = [p for p in pieces if p["hp"] > amount // len(pieces)]
            if not pieces:  # R21: no member survives a share: the leader takes it all
                self.take(self.leader(q), amount, cause)
                return
        share = amount // len(pieces)
        resisted = amount - share * len(pieces)
        if len(pieces) > 1 or resisted:
            self.emit("spread", squad=q["id"], owner=q["owner"], amount=amount, share=share, resisted=resisted,
                      pieces=[p["id"] for p in pieces])
        for p in pieces:
            self.take(p, share, cause)

    def damage(self, q: dict[str, Any], amount: int, cause: str, member: str | None = None,
               reaction: bool = False, split: bool = False) -> None:
        """Damage to a squad: its leader (or the named member, 精准打击), halved and spread when it
        defends (G20); ``split`` (火球) spreads it over every piece."""
        if q["id"] not in self.squads:
            return
        if q["defending"]:
            half = amount // 2
            self.emit("defended", squad=q["id"], owner=q["owner"], amount=amount, halved=half)
            self.spread(q, half, cause, survivors_only=True)
        elif split:
            self.spread(q, amount, cause, survivors_only=False)
        else:
            target = self.pieces[member] if member in q["members"] else self.leader(q)
            self.take(target, amount, cause, reaction=reaction)

    def strike(self, by_q: dict[str, Any], target: dict[str, Any], kind: str) -> None:
        """A reaction (G16-G17): 措手不及 (ambush), 借机攻击 (opportunity) or the surrounded
        half attack, made by the enemy squad's leader; a 游荡者 leader doubles 措手不及 and
        strikes 借机 at full power."""
        if target["id"] not in self.squads or by_q["id"] not in self.squads:
            return
        lead = self.leader(by_q)
        song = self.song(lead)
        power = lead["power"] + song
        rogue = lead["class"] == "游荡者"
        if kind == "ambush":
            amount = power * 2 if rogue else power
        else:
            amount = power if rogue else power // 2
        self.emit("reaction", kind=kind, squad=by_q["id"], piece=lead["id"], owner=by_q["owner"],
                  target=target["id"], target_owner=target["owner"], amount=amount, power=lead["power"],
                  song=song, rogue=rogue)
        self.damage(target, amount, kind, reaction=True)

    def win(self, player: str, how: str) -> None:
        """G27: the first player winning in their own turn gives the second one more turn."""
        s = self.s
        self.decided = True
        if s.get("pending_win"):
            s["winner"] = "draw" if player != s["pending_win"] else player
            self.emit("game_over", winner=s["winner"], how=how, pending=s["pending_win"])
            s["pending_win"] = None  # only while the extra turn is due (contract §6)
        elif player == s["first"] and self.active == s["first"]:
            s["pending_win"] = player
            self.emit("pending_win", player=player, how=how, extra=self.enemy(player))
        else:
            s["winner"] = player
            self.emit("game_over", winner=player, how=how)

    def hit_fortress(self, owner: str, amount: int, by: str) -> None:
        p = self.players[owner]
        p["fortress_hp"] = max(0, p["fortress_hp"] - amount)
        self.emit("fortress_damage", player=owner, amount=amount, hp=p["fortress_hp"], by=by)
        if p["fortress_hp"] == 0 and not self.decided:
            self.emit("fortress_destroyed", player=owner)
            self.win(self.enemy(owner), "fortress")

    # --- the turn ------------------------------------------------------------------------------
    def upkeep(self) -> None:
        """G7: the "每回合" effects on the active player's pieces, at the start of their turn."""
        me = self.active
        pl = self.players[me]
        for h in pl["in_hand"]:
            gain = min(2, h["max_hp"] - h["hp"])
            if gain > 0:
                h["hp"] += gain
                self.emit("heal", piece=h["id"], owner=me, amount=gain, hp=h["hp"], why="hand")
        mine = [p for p in self.s["pieces"] if p["owner"] == me]
        for p in mine:
            if p["hp"] < p["max_hp"] and self.in_home(me, p["pos"]):
                self.heal(p, 1, "home")
        for p in mine:
            if p["class"] == "圣武士" and self.passives_on(p):
                self.heal(p, 1, "regenerate")
        for p in mine:
            if p["id"] in self.pieces and self.marker_at(p["pos"], WALL) is not None:
                self.take(p, 2, "wind_wall", enemy=False)
        for p in self.s["pieces"]:
            if p["owner"] == me:
                p["singing"] = False
                p["portal_open"] = False
        for q in self.own_squads(me):
            q["defending"] = False
            q["actions_left"] = 2

    def end_turn(self) -> None:
        s = self.s
        me = self.active
        for p in s["pieces"]:
            p["portal_open"] = False
        if not self.decided:
            pl = self.players[me]
            kinds = [p["class"] in GUARDIANS for p in s["pieces"] if p["owner"] == me]
            pl["guardian_missing_turns"] = 0 if any(kinds) else pl["guardian_missing_turns"] + 1
            pl["professional_missing_turns"] = 0 if not all(kinds) else pl["professional_missing_turns"] + 1
            lost = max(pl["guardian_missing_turns"], pl["professional_missing_turns"]) >= MISSING_TURNS
            if lost:
                what = "guardian" if pl["guardian_missing_turns"] >= MISSING_TURNS else "professional"
                self.emit("missing_lost", player=me, what=what, turns=MISSING_TURNS)
                self.win(self.enemy(me), "missing_" + what)
        if s["winner"] is None and s.get("pending_win") and me != s["pending_win"] and not self.decided:
            s["winner"] = s["pending_win"]
            self.emit("game_over", winner=s["winner"], how="extra_turn_failed", pending=s["pending_win"])
            s["pending_win"] = None
        for q in s["squads"]:
            if q["owner"] != me:
                q["actions_left"] = 2
        s["next"] = None if s["winner"] is not None else self.enemy(me)


def reach(g: Game, q: dict[str, Any], joins: bool = False,
          pieces: list[dict[str, Any]] | None = None) -> dict[str, tuple[int, list[str]]]:
    """Cells the squad (or ``pieces`` of it, leaving it) may end a move on -> (cost, path),
    cheapest first found (Dijkstra); with ``joins``, own squads' cells too (a move there joins
    that squad, R8)."""
    me = q["owner"]
    budget = g.squad_move(pieces or g.members(q))
    start = q["pos"]
    owners = {o["pos"]: o["owner"] for o in g.s["squads"]}
    rocks = {c for m in g.s["markers"] if m["kind"] == ROCK for c in m["cells"]}
    walls = {c for m in g.s["markers"] if m["kind"] == WALL and m["owner"] != me for c in m["cells"]}
    forts = {c for p in g.s["players"] for c in p["fortress"]}
    best: dict[str, int] = {start: 0}
    prev: dict[str, str] = {}
    heap = [(0, start)]
    out: dict[str, tuple[int, list[str]]] = {}
    while heap:
        cost, here = heapq.heappop(heap)
        if best[here] < cost:
            continue
        if here != start and here not in rocks and (here not in owners or joins and owners[here] == me):
            path = [here]
            while path[-1] in prev:
                path.append(prev[path[-1]])
            out[here] = (cost, path[-2::-1])
        for name in NEIGHBOURS[here]:
            if name in forts or owners.get(name, me) != me:
                continue
            nc = cost + (2 if name in rocks else 1) + (1 if name in walls else 0)
            if nc <= budget and (name not in best or best[name] > nc):
                best[name] = nc
                prev[name] = here
                heapq.heappush(heap, (nc, name))
    return out

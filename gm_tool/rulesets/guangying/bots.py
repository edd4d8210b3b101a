"""Built-in bots: ``greedy`` (summon what G27 needs, strike what is in reach, march on the enemy
fortress) and ``random`` (the same candidates, picked by chance). A bot chooses among the options
of the action kinds (actions.py: a piece's summons, a squad's attacks and moves, a piece's
abilities), asked on the board it is writing on, so each choice sees the actions before it; each
action is then played on that placements-only board before it is written, so every sheet passes
``gm check``."""

from __future__ import annotations

from itertools import takewhile
from typing import Any

from gm_tool.core.grid import cell_name
from gm_tool.rulesets.guangying.actions import ABILITY, ACTIONS, ATTACK, FULL_ATTACK, MOVE, SUMMON
from gm_tool.rulesets.guangying.model import GUARDIANS, Refusal, copy_state, dist
from gm_tool.rulesets.guangying.orders import Orders
from gm_tool.rulesets.guangying.turn import Turn

PROFESSIONALS = ("巡林客", "野蛮人", "游荡者", "牧师", "德鲁伊", "术士", "诗人", "法师")
# the one ability a bot uses of each class, on an enemy within 3 身位格
ABILITY_OF = {"巡林客": "射击", "术士": "火球", "德鲁伊": "变身野兽"}


class _Writer:
    def __init__(self, state: dict[str, Any], player: str):
        self.g = Turn(copy_state(state), live=False)
        self.g.s["turn"] += 1
        self.g.upkeep()
        self.player = player
        self.actions: list[dict[str, Any]] = []
        self.canonical: list[dict[str, Any]] = []

    def tries(self, sheet_action: dict[str, Any], verb: str, canon: dict[str, Any]) -> bool:
        action = {"verb": verb, **canon}
        try:
            ACTIONS.kinds[verb].apply(self.g, action)
        except Refusal:
            return False
        self.actions.append(sheet_action)
        self.canonical.append({**action, "index": len(self.canonical)})
        return True


_FORT_DIST: dict[tuple[str, ...], dict[str, tuple[int, int, int]]] = {}


def _fort_table(g: Turn, player: str) -> dict[str, tuple[int, int, int]]:
    """Each cell -> (distance to the enemy fortress, row, column): the bots' marching order."""
    fort = tuple(g.players[g.enemy(player)]["fortress"])
    table = _FORT_DIST.get(fort)
    if table is None:
        table = _FORT_DIST[fort] = {cell_name((x, y)): (min(dist(cell_name((x, y)), c) for c in fort), y, x)
                                    for y in range(12) for x in range(10)}
    return table


def _fortress_dist(g: Turn, player: str, name: str) -> int:
    return _fort_table(g, player)[name][0]


def sheet(state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
    w = _write(state, player, kind, chance)
    return {"turn": state["turn"] + 1, "player": player, "actions": w.actions}


def orders(state: dict[str, Any], player: str, kind: str, chance: Any) -> Any:
    """The orders ``parse_orders(sheet(...))`` gives, without reading the sheet back (each action
    was already checked on the placements-only board while it was written)."""
    w = _write(state, player, kind, chance)
    return Orders(player=player, turn=state["turn"] + 1, actions=w.canonical, standing=None)


def _write(state: dict[str, Any], player: str, kind: str, chance: Any) -> _Writer:
    w = _Writer(state, player)
    g = w.g
    rnd = kind == "random"
    _summon(w, g, player, rnd, chance)
    for q in list(g.own_squads(player)):
        if q["id"] not in g.squads:
            continue
        for _ in range(2):
            if q["id"] not in g.squads or q["actions_left"] <= 0:
                break
            if not _strike(w, g, q, rnd, chance):
                if not _advance(w, g, q, rnd, chance):
                    break
    return w


def _summon(w: _Writer, g: Turn, player: str, rnd: bool, chance: Any) -> None:
    """The piece first, among those the summon kind may bring (guardians while there is none,
    then professionals), then its cell among its options: a free one (never joining a squad), the
    nearest the enemy fortress. The piece is drawn before its cells are known, as a player picks
    it, so one with no free cell means no summon this turn."""
    offered = dict(SUMMON.summonable(g, player))
    mine = [p["class"] for p in g.s["pieces"] if p["owner"] == player]
    pool = [c for c in g.table if c in offered and offered[c] == c]
    hand = [h["id"] for h in g.players[player]["in_hand"] if h["id"] in offered]
    if not any(c in GUARDIANS for c in mine):
        wanted = [c for c in GUARDIANS if c in pool]
    elif all(c in GUARDIANS for c in mine):
        wanted = [c for c in PROFESSIONALS if c in pool]
    else:
        wanted = pool + hand
    if not wanted:
        wanted = pool + hand
    if not wanted:
        return
    what = chance.choice(wanted, why="summon") if rnd else wanted[0]
    taken = {q["pos"] for q in g.s["squads"]}
    cells = [o["at"] for o in SUMMON.piece_choices(g, player, what, offered[what]) if o["at"] not in taken]
    if not cells:
        return
    table = _fort_table(g, player)
    cells.sort(key=lambda c: (table[c][0], table[c][2], table[c][1]))
    at = chance.choice(cells[:6], why="summon cell") if rnd else cells[0]
    w.tries({"summon": what, "at": at}, "summon", {"summon": what, "at": at})


def _strike(w: _Writer, g: Turn, q: dict[str, Any], rnd: bool, chance: Any) -> bool:
    """The enemy fortress if in reach, else the weakest-led enemy squad in reach (by the leader,
    with both chances a full attack); with both chances and nothing in reach, a 巡林客's shot or a
    术士's fireball at an enemy within 3 (the nearest in board order), or a 德鲁伊 turning beast."""
    me = q["owner"]
    full = q["actions_left"] == 2 and q["id"] not in g.attacked
    kind = FULL_ATTACK if full else ATTACK
    verb = kind.name
    # the leader's attacks (those naming no other attacker nor a member) come first
    found = [o["target"] for o in takewhile(lambda o: len(o) == 2, kind.squad_choices(g, q))]
    if "fortress" in found:
        return w.tries({verb: q["id"], "target": "fortress"}, verb, {verb: q["id"], "target": "fortress"})
    if found:
        foes = [g.squads[t] for t in found]
        foes.sort(key=lambda e: g.leader(e)["hp"])
        t = chance.choice(foes, why="target", label=lambda e: e["id"]) if rnd else foes[0]
        return w.tries({verb: q["id"], "target": t["id"]}, verb, {verb: q["id"], "target": t["id"]})
    if q["actions_left"] == 2:
        for p in g.members(q):
            ability = ABILITY_OF.get(p["class"])
            near = [e["id"] for e in g.enemies_within(p["pos"], me, 3)] if ability else []
            if not near:
                continue
            aimed = {a.get("target"): a for a in ABILITY.candidates(g, me, p) if a["ability"] == ability}
            for t in (None, *near):
                if t in aimed and w.tries(dict(aimed[t]), "ability", aimed[t]):
                    return True
    return False


def _advance(w: _Writer, g: Turn, q: dict[str, Any], rnd: bool, chance: Any) -> bool:
    """Among the squad's moves (with their costs) to a free cell: the random bot one of the nearer half to the enemy
    fortress, the greedy one :func:`_greedy_cell`."""
    me = q["owner"]
    taken = {x["pos"] for x in g.s["squads"]}
    cells = {path[-1]: (cost, path) for cost, path in MOVE.routes(g, q) if path[-1] not in taken}
    if not cells:
        return False
    table = _fort_table(g, me)
    ranked = sorted(cells, key=lambda c: (table[c][0], cells[c][0], table[c][1], table[c][2]))
    if rnd:
        pick = chance.choice(ranked[: max(1, len(ranked) // 2)], why="move")
    else:
        pick = _greedy_cell(g, q, cells, ranked)
        if pick is None:
            return False
    path = cells[pick][1]
    return w.tries({"move": q["id"], "path": path}, "move", {"move": q["id"], "path": path})


def _greedy_cell(g: Turn, q: dict[str, Any], cells: dict[str, tuple[int, list[str]]], ranked: list[str]) -> str | None:
    """Greedy: a cell next to the enemy fortress if one is in reach; else, with a chance left to
    strike after the move, a cell next to exactly one enemy
    squad (the weakest leader first) reached without passing an enemy; else the cell nearest the
    enemy fortress, if nearer than here."""
    me = q["owner"]
    if _fortress_dist(g, me, ranked[0]) <= 1:
        return ranked[0]
    if q["actions_left"] >= 2 and q["id"] not in g.attacked:
        best = None
        for c in ranked:
            foes = g.enemies_within(c, me)
            if len(foes) != 1 or any(g.enemies_within(step, me) for step in cells[c][1][:-1]):
                continue
            if g.enemies_within(q["pos"], me):
                continue
            key = (g.leader(foes[0])["hp"], cells[c][0])
            if best is None or key < best[0]:
                best = (key, c)
        if best is not None:
            return best[1]
    pick = ranked[0]
    return pick if _fortress_dist(g, me, pick) < _fortress_dist(g, me, q["pos"]) else None

"""Built-in bots: ``random`` (random legal actions, an attack or a skill before a move) and ``greedy`` (hit the weakest enemy it can reach,
else close in). A bot's sheet is built action by action on a checking copy of the state, so it
always passes ``parse_orders``."""

from __future__ import annotations

from typing import Any

from gm_tool.rulesets.hunlu.actions import ATTACK, KINDS, MOVE, SKILL, check_game, play, tried
from gm_tool.rulesets.hunlu.effects import kind_of
from gm_tool.rulesets.hunlu.engine import Game, skills_of
from gm_tool.rulesets.hunlu.orders import Orders
from gm_tool.rulesets.hunlu.skip import Skip


def standing(state: dict[str, Any], player: str) -> dict[str, Any]:
    own = [u for u in state["units"] if u["player"] == player]
    firsts = {u["id"]: [s["id"] for s in skills_of(state, u) if s["timing"] == "first"]
              for u in own}
    return {"joint_attack": {u["id"]: {"against": "any", "when": "any", "keep_qi": 0} for u in own},
            "first_skills": {k: v for k, v in firsts.items() if v}}


def candidates(g: Game, u: dict[str, Any], moves: bool = True) -> list[dict[str, Any]]:
    """Attacks, skills (each target or direction) and, with ``moves``, single legs (the kinds'
    candidates, actions.py)."""
    return ATTACK.candidates(g, u) + SKILL.candidates(g, u) + (MOVE.candidates(g, u) if moves else [])


def score(g: Game, after: Game, uid: str, act: dict[str, Any]) -> float:
    """Greedy: hit the weakest enemy it can (a skill hitting several first), else close in on the
    weakest enemy, else a self buff it does not hold yet."""
    u = after.units[uid]
    enemies = [t for t in after.on_field() if t["side"] != u["side"]]
    if not enemies or u["pos"] is None:
        return -99
    if act["kind"] == "attack":
        return 100 - g.units[act["target"]]["jing"]
    if act["kind"] == "skill":
        sk = g.skill(g.units[uid], act["skill"])
        if sk is None:
            return -99
        hurting = any(kind_of(e)[0].hurts for e in sk["effects"])
        foes = [t for t in g.targets(g.units[uid], sk, act) if t["side"] != u["side"]]
        if hurting and foes:
            return 90 + len(foes) - min(t["jing"] for t in foes) / 10
        held = any(st.get("skill") == sk["id"] for st in g.units[uid]["statuses"])
        return 40 if sk["shape"] == "self" and not held and not hurting else -1
    c = after.at(u)
    weakest = min(enemies, key=lambda t: (t["jing"], t["id"]))
    w = after.at(weakest)
    return 50 - max(abs(c[0] - w[0]), abs(c[1] - w[1])) - (abs(c[0] - w[0]) + abs(c[1] - w[1])) / 100


def plan(state: dict[str, Any], player: str, kind: str, chance: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A bot's standing orders and actions (in the parsed form), every action checked on a copy."""
    nxt = state.get("next")
    if not nxt or nxt["player"] != player:
        return standing(state, player), []
    g = check_game(state)
    uid = nxt["unit"]
    actions: list[dict[str, Any]] = []
    for _ in range(2):
        u = g.units[uid]
        if u["ap"] < 1 or u["pos"] is None:
            break
        if kind == "greedy":
            cands = candidates(g, u)
            scored: list[tuple[float, int, dict[str, Any], Game]] = []
            for act in cands:
                after = tried(g, uid, act)
                if after is not None:
                    scored.append((score(g, after, uid, act), len(scored), act, after))
            if not scored:
                break
            best = max(scored, key=lambda x: (x[0], -x[1]))
            act, g = best[2], best[3]
        else:  # an attack or a skill if one is legal, else a leg
            if not random_step(g, uid, candidates(g, u, moves=False), chance, actions) and \
                    not random_step(g, uid, MOVE.candidates(g, u), chance, actions):
                break
            continue
        actions.append(act)
    return standing(state, player), actions


def random_step(g: Game, uid: str, cands: list[dict[str, Any]], chance: Any, actions: list[dict[str, Any]]) -> bool:
    """Play the first of ``cands`` (shuffled) that is legal; an action refused raises before it
    changes anything, so the random bot plays on its checking copy directly."""
    chance.shuffle(cands, why="bot", label=lambda a: a["kind"])
    for act in cands[:8]:
        try:
            play(g, g.units[uid], act)
        except Skip:
            continue
        actions.append(act)
        return True
    return False


def sheet(state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
    stand, actions = plan(state, player, kind, chance)
    out: dict[str, Any] = {"turn": state["turn"] + 1, "player": player, "standing": stand}
    nxt = state.get("next")
    if nxt and nxt["player"] == player:
        out["actions"] = [KINDS[a["kind"]].written(a) for a in actions]
    return out


def orders(state: dict[str, Any], kinds: dict[str, str], chance: Any) -> dict[str, Any]:
    """What parse_orders(bot_sheet(...)) gives, without writing and re-reading the sheet: the bot's
    actions were each checked on the same copy ``parse_orders`` would play them on."""
    out = {}
    nxt = state.get("next") or {}
    for player, kind in kinds.items():
        stand, actions = plan(state, player, kind, chance)
        out[player] = Orders(player, nxt.get("unit") if nxt.get("player") == player else None, actions, stand)
    return out

"""Built-in players: ``random`` (any legal action, at random) and ``greedy`` (biggest cards first,
damage on enemy kings and units it can kill, every unit marching on the nearest enemy king).

A bot plays its sheet on a copy of the state with the rules engine itself, keeping each action
the engine accepts, so its sheet is legal by construction."""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name
from gm_tool.rulesets.shenjianglu.engine import Illegal, Skip, Turn, clone
from gm_tool.rulesets.shenjianglu.geometry import CELLS, distance


class _Quiet(EventLog):
    def emit(self, type_, to="all", **data):  # bots need no events
        return None


def _try(t: Turn, action: dict[str, Any], out: list[dict[str, Any]]) -> bool:
    try:
        t.run(action)
    except (Illegal, Skip):
        return False
    out.append(action)
    return True


def _sheet_form(a: dict[str, Any]) -> dict[str, Any]:
    kind = a["kind"]
    if kind == "summon":
        return {"summon": a["card"], "at": a["at"], **({"id": a["id"]} if a.get("id") else {})}
    if kind == "cast":
        return {"cast": a["card"], "targets": list(a["targets"])}
    if kind == "equip":
        return {"equip": a["card"], "unit": a["unit"]}
    out: dict[str, Any] = {"command": a["unit"]}
    for k in ("to", "attack", "skill", "targets"):
        if a.get(k) is not None:
            out[k] = a[k]
    return out


def hand_cards(t: Turn, ctype: str) -> list[dict[str, Any]]:
    """Cards of the playable hand of one type the player can pay for, each name once, by name."""
    return [t.cat[n] for n in sorted(n for n, k in t.playable.items() if k > 0)
            if t.cat[n]["type"] == ctype and t.cat[n]["cost"] <= t.mana and t.cat[n].get("role") != "king"]


def free_spawns(t: Turn) -> list[str]:
    occupied = {u["pos"] for u in t.s["units"]}
    return [cell_name(c) for c in t.board.spawns[t.active_seat["seat"]] if cell_name(c) not in occupied]


def target_pool(t: Turn, spec: dict[str, Any], me: dict[str, Any] | None, reach: int | None) -> list[dict[str, Any]]:
    here = CELLS[me["pos"]] if me is not None else None
    return [u for u in t.s["units"] if t.related(spec["target"], t.active_player, u, me) and t.fits(spec, u, t.cat)
            and (reach is None or here is None or distance(here, CELLS[u["pos"]]) <= reach)]


def destinations(t: Turn, u: dict[str, Any]) -> list[str]:
    """Free cells the unit may end its move on (its own cell first)."""
    occupied = {x["pos"] for x in t.s["units"]}
    cells = sorted(t.legal_moves(u), key=lambda c: (c[1], c[0]))
    return [u["pos"]] + [cell_name(c) for c in cells if cell_name(c) not in occupied]


def _harmful(effects: list[dict[str, Any]]) -> bool:
    return any("damage" in e or "face" in e or ("buff" in e and min(e["buff"].values()) < 0) for e in effects)


def _random(t: Turn, chance: Any, out: list[dict[str, Any]]) -> None:
    steps = ["summon", "cast", "equip", "command"]
    chance.shuffle(steps, why="bot plan")
    for step in steps:
        if step == "summon":
            for _ in range(3):
                cards, spawns = hand_cards(t, "character"), free_spawns(t)
                if not cards or not spawns:
                    break
                _try(t, {"kind": "summon", "card": chance.choice(cards, label=lambda c: c["name"])["name"],
                         "at": chance.choice(spawns)}, out)
        elif step in ("cast", "equip"):
            for _ in range(2):
                cards = hand_cards(t, "spell" if step == "cast" else "equipment")
                if not cards:
                    break
                card = chance.choice(cards, label=lambda c: c["name"])
                pool = target_pool(t, card, None, None)
                if not pool:
                    continue
                pick = chance.choice(pool, label=lambda u: u["id"])["id"]
                action = {"kind": "cast", "card": card["name"], "targets": [pick]} if step == "cast" else \
                    {"kind": "equip", "card": card["name"], "unit": pick}
                _try(t, action, out)
        else:
            for u in [u for u in t.s["units"] if u["owner"] == t.player]:
                if u["id"] not in t.units or not t.may_act(u):
                    continue
                skills = t.skills_of(u, "active")
                if skills and chance.roll(3, why="bot skill") == 1:
                    sk = chance.choice(skills, label=lambda s: s["name"])
                    pool = target_pool(t, sk, u, sk["range"])
                    if pool and _try(t, {"kind": "command", "unit": u["id"], "skill": sk["name"],
                                         "targets": [chance.choice(pool, label=lambda x: x["id"])["id"]]}, out):
                        continue
                to = chance.choice(destinations(t, u))
                dest = CELLS[to]
                foes = [x["id"] for x in t.s["units"] if x["owner"] != t.player
                        and distance(dest, CELLS[x["pos"]]) == 1]
                action = {"kind": "command", "unit": u["id"]}
                if to != u["pos"]:
                    action["to"] = to
                if foes and not (u["king"] and chance.roll(2, why="bot king") == 1):
                    action["attack"] = chance.choice(sorted(foes))
                _try(t, action, out)


def _enemy_kings(t: Turn) -> list[dict[str, Any]]:
    mine = t.team(t.active_player)
    return [u for u in t.s["units"] if u["king"] and u["team"] != mine]


def _greedy(t: Turn, out: list[dict[str, Any]]) -> None:
    kings = _enemy_kings(t)
    # summons: dearest first
    for card in sorted(hand_cards(t, "character"), key=lambda c: (-c["cost"], c["name"])):
        for _ in range(2):
            spawns = free_spawns(t)
            if not spawns or card["cost"] > t.mana:
                break
            if kings:
                spawns.sort(key=lambda c: min(distance(CELLS[c], CELLS[k["pos"]]) for k in kings))
            if not _try(t, {"kind": "summon", "card": card["name"], "at": spawns[0]}, out):
                break
    # unit actions: skills on enemies (kings first), else attack, else march on the nearest king
    for u in [u for u in t.s["units"] if u["owner"] == t.player]:
        kings = _enemy_kings(t)
        if not kings or u["id"] not in t.units or not t.may_act(u):
            continue
        done = False
        for sk in t.skills_of(u, "active"):
            if not _harmful(sk["effects"]):
                continue
            pool = [x for x in target_pool(t, sk, u, sk["range"]) if x["team"] != u["team"]]
            pool.sort(key=lambda x: (not x["king"], x["stamina"] - x["damage"], x["id"]))
            if pool and _try(t, {"kind": "command", "unit": u["id"], "skill": sk["name"],
                                 "targets": [x["id"] for x in pool[:sk["count"]]]}, out):
                done = True
                break
        if done:
            continue
        best = None
        for to in destinations(t, u):
            dest = CELLS[to]
            for x in t.s["units"]:
                if x["team"] != u["team"] and distance(dest, CELLS[x["pos"]]) == 1:
                    score = (0 if x["king"] else 1, x["stamina"] - x["damage"] - u["attack"], to, x["id"])
                    if best is None or score < best:
                        best = score
        if best is not None and (not u["king"] or best[0] == 0 or best[1] <= 0):
            action = {"kind": "command", "unit": u["id"], "attack": best[3]}
            if best[2] != u["pos"]:
                action["to"] = best[2]
            if _try(t, action, out):
                continue
        if u["king"]:
            continue
        goal = min(kings, key=lambda k: (distance(CELLS[u["pos"]], CELLS[k["pos"]]), k["id"]))
        to = min(destinations(t, u), key=lambda c: (distance(CELLS[c], CELLS[goal["pos"]]), c))
        if to != u["pos"]:
            _try(t, {"kind": "command", "unit": u["id"], "to": to}, out)
    # spells: damage on enemies (kings and the weakest first), helpful ones on own units
    for card in sorted(hand_cards(t, "spell"), key=lambda c: (-c["cost"], c["name"])):
        for _ in range(2):
            if card["cost"] > t.mana or t.playable[card["name"]] <= 0:
                break
            pool = target_pool(t, card, None, None)
            if _harmful(card["effects"]):
                pool = [x for x in pool if x["team"] != t.team(t.active_player)]
                pool.sort(key=lambda x: (not x["king"], x["stamina"] - x["damage"], x["id"]))
            else:
                pool = [x for x in pool if x["owner"] == t.player]
                pool.sort(key=lambda x: (x["king"], -x["attack"], x["id"]))
            if not pool or not _try(t, {"kind": "cast", "card": card["name"],
                                        "targets": [x["id"] for x in pool[:card["count"]]]}, out):
                break
    for card in sorted(hand_cards(t, "equipment"), key=lambda c: (-c["cost"], c["name"])):
        pool = [x for x in target_pool(t, card, None, None) if x["owner"] == t.player and not x["equipment"]]
        pool.sort(key=lambda x: (x["king"], -x["attack"], x["id"]))
        if pool and card["cost"] <= t.mana:
            _try(t, {"kind": "equip", "card": card["name"], "unit": pool[0]["id"]}, out)


def plan(state: dict[str, Any], player: str, kind: str, chance: Any) -> list[dict[str, Any]]:
    """The bot's actions in the engine's (parsed) form, each accepted by the engine in turn."""
    out: list[dict[str, Any]] = []
    if state.get("next") == player and state.get("winner") is None:
        t = Turn(clone(state), _Quiet())
        if kind == "greedy":
            _greedy(t, out)
        else:
            _random(t, chance, out)
    return out


def sheet(state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
    return {"turn": state["turn"] + 1, "player": player,
            "actions": [_sheet_form(a) for a in plan(state, player, kind, chance)]}


def orders(state: dict[str, Any], kinds: dict[str, str], chance: Any) -> dict[str, Any]:
    """What ``parse_orders(bot_sheet(...))`` gives, without checking again a sheet the engine has
    just played (the same actions, in the form parse_orders returns)."""
    from gm_tool.rulesets.shenjianglu.orders import Orders

    return {p: Orders(player=p, turn=state["turn"] + 1, actions=plan(state, p, kind, chance))
            for p, kind in kinds.items()}

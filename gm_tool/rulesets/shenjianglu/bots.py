"""Built-in players: ``random`` (any legal action, at random) and ``greedy`` (biggest cards first,
damage on enemy kings and units it can kill, every unit marching on the nearest enemy king).

A bot chooses among the options of the action kinds (actions.py), asked on a copy of the state as
its sheet is played on it, so each choice sees the actions before it: a card of the hand (the
kind's ``cards``, which its options are made of) then one of that card's options, a unit that may
act then one of its options (its moves and attacks, or the targets of one of its skills). A card
or skill that may choose several units is given as many of its options' units as it may take.
The bot plays each action with the kinds themselves, keeping each one they accept, so its sheet
is legal by construction. Options name units by id here (as a sheet may), not by label."""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.rulesets.shenjianglu.actions import CAST, COMMAND, EQUIP, SUMMON, CardKind, Cast, Command, Equip, Order, Summon, run
from gm_tool.rulesets.shenjianglu.effects import EFFECTS
from gm_tool.rulesets.shenjianglu.engine import Illegal, Skip, Turn, clone
from gm_tool.rulesets.shenjianglu.geometry import CELLS, distance

Unit = dict[str, Any]


class _Quiet(EventLog):
    def emit(self, type_, to="all", **data):  # bots need no events
        return None


def _try(t: Turn, order: Order, out: list[Order]) -> bool:
    try:
        run(t, order)
    except (Illegal, Skip):
        return False
    out.append(order)
    return True


def _harmful(effects: list[dict[str, Any]]) -> bool:
    """Whether a card or skill is meant against enemies: one of its effects harms (effects.py)."""
    return any(EFFECTS[name].harms(value) for e in effects for name, value in e.items())


def _aimed(t: Turn, kind: CardKind, card: dict[str, Any]) -> list[Unit]:
    """The units ``card``'s options may be played on, in board order."""
    return [t.units[kind.aimed(e)] for e in kind.card_entries(t, card)]


def _skill_pool(t: Turn, u: Unit, skill: dict[str, Any]) -> list[Unit]:
    """The units ``u``'s options with ``skill`` may choose, in board order."""
    return [t.units[e["targets"][0]] for e in COMMAND.skill_entries(t, u, skill)]


def _moves(t: Turn, u: Unit) -> tuple[list[str], dict[str, list[str]]]:
    """``u``'s move options: the cells it may end on (its own first), and for each the units of
    other players it may attack from there (ids, board order)."""
    cells = [u["pos"]]
    foes: dict[str, list[str]] = {u["pos"]: []}
    for e in COMMAND.moves(t, u):
        at: str = e["to"] if "to" in e else u["pos"]
        if "attack" in e:
            foes[at].append(e["attack"])
        elif at != u["pos"]:
            cells.append(at)
            foes[at] = []
    return cells, foes


def _random(t: Turn, chance: Any, out: list[Order]) -> None:
    steps = ["summon", "cast", "equip", "command"]
    chance.shuffle(steps, why="bot plan")
    for step in steps:
        if step == "summon":
            for _ in range(3):
                options = SUMMON.entries(t)
                if not options:
                    break
                card = chance.choice(SUMMON.cards(t), label=lambda c: c["name"])
                spawns = [e["at"] for e in options if e["summon"] == card["name"]]
                _try(t, Summon(card["name"], chance.choice(spawns)), out)
        elif step in ("cast", "equip"):
            for _ in range(2):
                kind = CAST if step == "cast" else EQUIP
                cards = kind.cards(t)
                if not cards:
                    break
                card = chance.choice(cards, label=lambda c: c["name"])
                pool = _aimed(t, kind, card)
                if not pool:
                    continue
                pick = chance.choice(pool, label=lambda u: u["id"])["id"]
                _try(t, Cast(card["name"], (pick,)) if step == "cast" else Equip(card["name"], pick), out)
        else:
            for u in [u for u in t.s["units"] if u["owner"] == t.player]:
                if u["id"] not in t.units or not t.may_act(u):
                    continue
                skills = t.skills_of(u, "active")
                if skills and chance.roll(3, why="bot skill") == 1:
                    sk = chance.choice(skills, label=lambda s: s["name"])
                    pool = _skill_pool(t, u, sk)
                    if pool and _try(t, Command(u["id"], skill=sk["name"],
                                                targets=(chance.choice(pool, label=lambda x: x["id"])["id"],)), out):
                        continue
                cells, foes = _moves(t, u)
                to = chance.choice(cells)
                attack = None
                if foes[to] and not (u["king"] and chance.roll(2, why="bot king") == 1):
                    attack = chance.choice(sorted(foes[to]))
                _try(t, Command(u["id"], to=to if to != u["pos"] else None, attack=attack), out)


def _enemy_kings(t: Turn) -> list[dict[str, Any]]:
    mine = t.team(t.active_player)
    return [u for u in t.s["units"] if u["king"] and u["team"] != mine]


def _greedy(t: Turn, out: list[Order]) -> None:
    kings = _enemy_kings(t)
    # summons: dearest first
    for card in sorted(SUMMON.cards(t), key=lambda c: (-c["cost"], c["name"])):
        for _ in range(2):
            spawns = [e["at"] for e in SUMMON.entries(t) if e["summon"] == card["name"]]
            if not spawns:
                break
            if kings:
                spawns.sort(key=lambda c: min(distance(CELLS[c], CELLS[k["pos"]]) for k in kings))
            if not _try(t, Summon(card["name"], spawns[0]), out):
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
            pool = [x for x in _skill_pool(t, u, sk) if x["team"] != u["team"]]
            pool.sort(key=lambda x: (not x["king"], x["stamina"] - x["damage"], x["id"]))
            if pool and _try(t, Command(u["id"], skill=sk["name"], targets=tuple(x["id"] for x in pool[:sk["count"]])),
                             out):
                done = True
                break
        if done:
            continue
        cells, foes = _moves(t, u)
        best = None
        for to, near in foes.items():
            for x in (t.units[i] for i in near):
                if x["team"] != u["team"]:
                    score = (0 if x["king"] else 1, x["stamina"] - x["damage"] - u["attack"], to, x["id"])
                    if best is None or score < best:
                        best = score
        if best is not None and (not u["king"] or best[0] == 0 or best[1] <= 0):
            if _try(t, Command(u["id"], to=best[2] if best[2] != u["pos"] else None, attack=best[3]), out):
                continue
        if u["king"]:
            continue
        goal = min(kings, key=lambda k: (distance(CELLS[u["pos"]], CELLS[k["pos"]]), k["id"]))
        to = min(cells, key=lambda c: (distance(CELLS[c], CELLS[goal["pos"]]), c))
        if to != u["pos"]:
            _try(t, Command(u["id"], to=to), out)
    # spells: damage on enemies (kings and the weakest first), helpful ones on own units
    for card in sorted(CAST.cards(t), key=lambda c: (-c["cost"], c["name"])):
        for _ in range(2):
            if card["cost"] > t.mana or t.playable[card["name"]] <= 0:
                break
            pool = _aimed(t, CAST, card)
            if _harmful(card["effects"]):
                pool = [x for x in pool if x["team"] != t.team(t.active_player)]
                pool.sort(key=lambda x: (not x["king"], x["stamina"] - x["damage"], x["id"]))
            else:
                pool = [x for x in pool if x["owner"] == t.player]
                pool.sort(key=lambda x: (x["king"], -x["attack"], x["id"]))
            if not pool or not _try(t, Cast(card["name"], tuple(x["id"] for x in pool[:card["count"]])), out):
                break
    for card in sorted(EQUIP.cards(t), key=lambda c: (-c["cost"], c["name"])):
        pool = [x for x in _aimed(t, EQUIP, card) if x["owner"] == t.player and not x["equipment"]]
        pool.sort(key=lambda x: (x["king"], -x["attack"], x["id"]))
        if pool and card["cost"] <= t.mana:
            _try(t, Equip(card["name"], pool[0]["id"]), out)


def plan(state: dict[str, Any], player: str, kind: str, chance: Any) -> list[Order]:
    """The bot's orders, each accepted by its kind in turn."""
    out: list[Order] = []
    if state.get("next") == player and state.get("winner") is None:
        t = Turn(clone(state), _Quiet())
        if kind == "greedy":
            _greedy(t, out)
        else:
            _random(t, chance, out)
    return out


def sheet(state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
    return {"turn": state["turn"] + 1, "player": player,
            "actions": [a.entry() for a in plan(state, player, kind, chance)]}


def orders(state: dict[str, Any], kinds: dict[str, str], chance: Any) -> dict[str, Any]:
    """What ``parse_orders(bot_sheet(...))`` gives, without checking again a sheet the engine has
    just played (the same actions, in the form parse_orders returns)."""
    from gm_tool.rulesets.shenjianglu.orders import Orders

    return {p: Orders(player=p, turn=state["turn"] + 1, actions=plan(state, p, kind, chance))
            for p, kind in kinds.items()}

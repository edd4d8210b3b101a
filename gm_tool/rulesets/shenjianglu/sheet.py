"""`gm template`: a commented order sheet for the due player, listing the legal summons (hand
cards with costs, free spawn points), the units that may act (reachable cells, who they can
attack, active skills and their targets) and the castable spells and equipment. The sheet
validates as it is (a pass); the examples are commented out."""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import parse_cell
from gm_tool.rulesets.shenjianglu.bots import destinations, free_spawns, target_pool
from gm_tool.rulesets.shenjianglu.engine import Turn, clone, made_id
from gm_tool.rulesets.shenjianglu.geometry import distance
from gm_tool.rulesets.shenjianglu.messages import labels


def template(state: dict[str, Any], player: str, lang: str) -> str:
    L = labels(lang)["sheet"]
    turn = state["turn"] + 1
    lines = [f"# {L['head'].format(player=player, turn=turn)}"]
    if state.get("next") is None:
        lines.append(f"# {L['over']}")
    elif state["next"] != player:
        lines.append(f"# {L['not_due'].format(next=state['next'])}")
    else:
        lines += [f"# {x}" for x in hints(state, L)]
    lines += [f"turn: {turn}", f"player: {player}", "actions: []"]
    return "\n".join(lines) + "\n"


def hints(state: dict[str, Any], L: dict[str, str]) -> list[str]:
    t = Turn(clone(state), EventLog())
    tags = t.s["labels"]
    players = [x["player"] for x in t.s["seats"]]

    def tag(u: dict[str, Any]) -> str:
        """How the sheet names a unit: the id it was given, else its label (the posts' name for
        it); either works in a sheet."""
        return str(tags.get(u["id"], u["id"]) if made_id(u["id"], players) else u["id"])

    none = L["none"]
    seat = t.active_seat
    out = [L["rules"], L["mana"].format(mana=t.mana),
           L["hand"].format(cards="、".join(f"{c}({t.cat[c]['cost']})" for c in seat["hand"]) or none)]
    spawns = free_spawns(t)
    out.append(L["spawns"].format(cells=", ".join(spawns) or none))
    examples = []
    for name in sorted({c for c in seat["hand"]}):
        card = t.cat[name]
        if card["cost"] > t.mana:
            continue
        if card["type"] == "character" and spawns:
            examples.append(f"- {{summon: {name}, at: {spawns[0]}}}")
        elif card["type"] == "spell":
            pool = [tag(u) for u in target_pool(t, card, None, None)]
            out.append(L["cast"].format(card=name, cost=card["cost"], targets=", ".join(pool) or none))
            if pool:
                examples.append(f"- {{cast: {name}, targets: [{pool[0]}]}}")
        elif card["type"] == "equipment":
            pool = [tag(u) for u in target_pool(t, card, None, None)]
            out.append(L["equip"].format(card=name, cost=card["cost"], targets=", ".join(pool) or none))
            if pool:
                examples.append(f"- {{equip: {name}, unit: {pool[0]}}}")
    out.append(L["units"])
    for u in t.s["units"]:
        if u["owner"] != t.player or not t.may_act(u):
            continue
        cells = destinations(t, u)
        out.append("  " + L["unit"].format(id=tag(u), card=u["card"], pos=u["pos"], move=u["move"],
                                           cells=", ".join(cells)))
        foes = [tag(x) for x in t.s["units"] if x["owner"] != t.player
                and any(distance(parse_cell(c), parse_cell(x["pos"])) == 1 for c in cells)]
        out.append("    " + L["attack"].format(targets=", ".join(foes) or none))
        for sk in t.skills_of(u, "active"):
            pool = [tag(x) for x in target_pool(t, sk, u, sk["range"])]
            out.append("    " + L["skill"].format(name=sk["name"], range=sk["range"], targets=", ".join(pool) or none))
            if pool:
                examples.append(f"- {{command: {tag(u)}, skill: {sk['name']}, targets: [{pool[0]}]}}")
        if len(cells) > 1:
            examples.append(f"- {{command: {tag(u)}, to: {cells[-1]}}}")
    if examples:
        out.append(L["example"])
        out += [f"  {e}" for e in examples]
    return out

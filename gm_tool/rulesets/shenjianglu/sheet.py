"""`gm template`: a commented order sheet for the due player, listing the legal summons (hand
cards with costs, free spawn points), the units that may act (reachable cells, who they can
attack, active skills and their targets) and the castable spells and equipment. The sheet
validates as it is (a pass); the examples are commented out."""

from __future__ import annotations

from typing import Any

from gm_tool.rulesets.shenjianglu.actions import CAST, COMMAND, EQUIP, SUMMON, Entry, start, tags
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
        lines += [f"# {x}" for x in hints(state, player, L)]
    lines += [f"turn: {turn}", f"player: {player}", "actions: []"]
    return "\n".join(lines) + "\n"


def hints(state: dict[str, Any], player: str, L: dict[str, str]) -> list[str]:
    """What the player may do, each list made of the options of its kind (actions.py): the
    entries it offers are the examples, their cells and targets the lists."""
    t = start(state, player)
    if t is None:
        return []
    none = L["none"]
    seat = t.active_seat
    out = [L["rules"], L["mana"].format(mana=t.mana),
           L["hand"].format(cards="、".join(f"{c}({t.cat[c]['cost']})" for c in seat["hand"]) or none)]
    spawns = SUMMON.cells(t)
    out.append(L["spawns"].format(cells=", ".join(spawns) or none))
    summons, casts, equips = SUMMON.entries(t), CAST.entries(t), EQUIP.entries(t)
    examples: list[Entry] = []
    for name in sorted({c for c in seat["hand"]}):
        card = t.cat[name]
        if card["cost"] > t.mana:
            continue
        if card["type"] == "character":
            examples += [e for e in summons if e["summon"] == name][:1]
        elif card["type"] in ("spell", "equipment"):
            kind, entries = (CAST, casts) if card["type"] == "spell" else (EQUIP, equips)
            mine = [e for e in entries if e[kind.name] == name]
            pool = [kind.aimed(e) for e in mine]
            out.append(L[kind.name].format(card=name, cost=card["cost"], targets=", ".join(pool) or none))
            examples += mine[:1]
    names = tags(t)
    by_unit: dict[str, list[Entry]] = {}
    for e in COMMAND.entries(t):
        by_unit.setdefault(e["command"], []).append(e)
    out.append(L["units"])
    for u in COMMAND.units(t):
        me = names[u["id"]]
        mine = by_unit.get(me, [])
        cells = [u["pos"]] + [e["to"] for e in mine if set(e) == {"command", "to"}]
        out.append("  " + L["unit"].format(id=me, card=u["card"], pos=u["pos"], move=u["move"], cells=", ".join(cells)))
        attacked = {e["attack"] for e in mine if "attack" in e}
        foes = [names[x["id"]] for x in t.s["units"] if names[x["id"]] in attacked]  # in board order
        out.append("    " + L["attack"].format(targets=", ".join(foes) or none))
        for sk in t.skills_of(u, "active"):
            chosen = [e for e in mine if e.get("skill") == sk["name"]]
            pool = [e["targets"][0] for e in chosen]
            out.append("    " + L["skill"].format(name=sk["name"], range=sk["range"], targets=", ".join(pool) or none))
            examples += chosen[:1]
        if len(cells) > 1:
            examples.append({"command": me, "to": cells[-1]})
    if examples:
        out.append(L["example"])
        out += [f"  - {flow(e)}" for e in examples]
    return out


def flow(entry: Entry) -> str:
    """An entry as one line of YAML flow: ``{cast: 火球, targets: [B]}``."""
    return "{" + ", ".join(f"{k}: [{', '.join(v)}]" if isinstance(v, list) else f"{k}: {v}"
                          for k, v in entry.items()) + "}"

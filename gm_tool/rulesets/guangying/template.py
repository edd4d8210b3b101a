"""The commented order sheet for the player due: valid as it is (no actions: a pass), with the
legal summons, moves and targets of the turn written out as ready-to-uncomment lines. Every cell
and action it offers is one `gm check` accepts (each summon cell comes from the same rule, each
example action is tried first). Its words are the labels of ``data/messages.yaml``; a Chinese
sheet uses the seed's own keys (the aliases of contract §3)."""

from __future__ import annotations

from typing import Any

from gm_tool.rulesets.guangying.actions import ACTIONS, Move, Summon, UseAbility, prepare
from gm_tool.rulesets.guangying.messages import labels
from gm_tool.rulesets.guangying.model import board_order, dist
from gm_tool.rulesets.guangying.turn import targets


def template(state: dict[str, Any], player: str, lang: str) -> str:
    L = labels(lang)
    t, keys, values = L["template"], L["sheet_keys"], L["sheet_values"]
    g = prepare(state, player)
    due = state.get("next")
    pl = g.players[player]
    tags = state.get("squad_labels") or {}
    summon, move, ability = (ACTIONS.kinds[k] for k in ("summon", "move", "ability"))
    assert isinstance(summon, Summon) and isinstance(move, Move) and isinstance(ability, UseAbility)

    def flow(action: dict[str, Any]) -> str:
        def value(v: Any) -> str:
            if isinstance(v, list):
                return "[" + ", ".join(map(str, v)) + "]"
            return str(values.get(v, v)) if isinstance(v, str) else str(v)

        return "{" + ", ".join(f"{keys[k]}: {value(v)}" for k, v in action.items()) + "}"

    lines = [t["head"].format(turn=state["turn"] + 1, player=player)]
    if due != player:
        lines.append(t["not_due"].format(due=due or "-"))
    lines += [f"{keys['turn']}: {state['turn'] + 1}", f"{keys['player']}: {player}", f"{keys['actions']}: []"]
    # the summons: each piece's cells, pieces offered the same cells on one line
    cells_of: dict[str, list[str]] = {}
    for option in summon.choices(g, player):
        cells_of.setdefault(option["summon"], []).append(option["at"])
    groups: dict[tuple[str, ...], list[str]] = {}
    for name, cells in cells_of.items():
        groups.setdefault(tuple(cells), []).append(name)
    if groups:
        what = [f"{c} {pl['pool'][c]}" if c == cls else f"{c} ({cls})" for c, cls in summon.summonable(g, player)]
        lines.append(t["summon"].format(what=", ".join(what)))
        for group, names in groups.items():
            lines.append(t["cells"].format(cls="/".join(names), cells=", ".join(group)))
        first, names = next(iter(groups.items()))
        lines.append(f"#   - {flow({'summon': names[0], 'at': first[0]})}")
    else:
        lines.append(t["no_summon"])
    moves: dict[str, list[list[str]]] = {}
    for option in move.choices(g, player):
        moves.setdefault(option["move"], []).append(option["path"])
    for q in g.own_squads(player):
        pieces = g.members(q)
        lines.append(t["squad"].format(squad=q["id"], label=tags.get(q["id"], "-"), pos=q["pos"],
                                       move=g.squad_move(pieces), members=", ".join(
                                           f"{p['id']} {p['class']} {p['hp']}/{p['max_hp']}" for p in pieces)))
        free = {path[-1]: path for path in moves.get(q["id"], []) if g.squad_at(path[-1]) is None}
        joins = [path[-1] for path in moves.get(q["id"], []) if path[-1] not in free]
        if free:
            lines.append(t["moves"].format(cells=", ".join(board_order(list(free)))))
            foe_fort = g.players[g.enemy(player)]["fortress"]
            toward = min(board_order(list(free)), key=lambda c: min(dist(c, f) for f in foe_fort))
            lines.append(f"#   - {flow({'move': q['id'], 'path': free[toward]})}")
        if joins:
            lines.append(t["joins"].format(cells=", ".join(board_order(joins))))
        found = targets(g, q)
        if found:
            lines.append(t["targets"].format(targets=", ".join(found)))
            lines.append(f"#   - {flow({'attack': q['id'], 'target': found[0]})}")
            lines.append(f"#   - {flow({'full_attack': q['id'], 'target': found[0]})}")
        for p in pieces:
            lines += [f"#   - {flow(a)}" for a in ability.uses(g, player, p)[:3]]
    lines.append(t["free"])
    lines.append(t["standing"])
    dies = pl["standing"]["leader_dies"]
    lines.append(f"# {keys['standing']}: {{{keys['leader_dies']}: {values.get(dies, dies)}}}")
    return "\n".join(lines) + "\n"

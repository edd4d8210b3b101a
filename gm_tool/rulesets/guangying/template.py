"""The commented order sheet for the player due: valid as it is (no actions: a pass), with the
legal summons, moves and targets of the turn written out as ready-to-uncomment lines. Every cell
and action it offers is one `gm check` accepts (each summon cell comes from the same rule, each
example action is tried first). Its words are the labels of ``data/messages.yaml``; a Chinese
sheet uses the seed's own keys (the aliases of contract §3)."""

from __future__ import annotations

from typing import Any

from gm_tool.rulesets.guangying.actions import Turn
from gm_tool.rulesets.guangying.bots import reach
from gm_tool.rulesets.guangying.engine import copy_state
from gm_tool.rulesets.guangying.messages import labels
from gm_tool.rulesets.guangying.model import NEIGHBOURS, Refusal, board_order, dist


def template(state: dict[str, Any], player: str, lang: str) -> str:
    L = labels(lang)
    t, keys, values = L["template"], L["sheet_keys"], L["sheet_values"]
    g = Turn(copy_state(state), live=False)
    g.s["turn"] += 1
    due = state.get("next")
    g.active = player
    g.upkeep()
    pl = g.players[player]
    tags = state.get("squad_labels") or {}

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
    classes = [c for c, n in pl["pool"].items() if n > 0 and c in g.table]
    ready = [h for h in pl["in_hand"] if not h["cannot_return_until"] or h["cannot_return_until"] <= g.s["turn"]]
    groups: dict[tuple[str, ...], list[str]] = {}  # summon cells -> what may go there (classes, hand ids)
    for what, cls in [(c, c) for c in classes] + [(h["id"], h["class"]) for h in ready]:
        cells = tuple(sorted(g.summon_cells(player, cls), key=lambda c: (g.squad_at(c) is not None, c)))
        if cells:
            groups.setdefault(cells, []).append(what)
    if groups:
        what = [f"{c} {pl['pool'][c]}" for c in classes] + [f"{h['id']} ({h['class']})" for h in ready]
        lines.append(t["summon"].format(what=", ".join(what)))
        for cells, names in groups.items():
            lines.append(t["cells"].format(cls="/".join(names), cells=", ".join(cells)))
        cells, names = next(iter(groups.items()))
        lines.append(f"#   - {flow({'summon': names[0], 'at': cells[0]})}")
    else:
        lines.append(t["no_summon"])
    for q in g.own_squads(player):
        pieces = g.members(q)
        lines.append(t["squad"].format(squad=q["id"], label=tags.get(q["id"], "-"), pos=q["pos"],
                                       move=g.squad_move(pieces), members=", ".join(
                                           f"{p['id']} {p['class']} {p['hp']}/{p['max_hp']}" for p in pieces)))
        ways = reach(g, q, joins=True)
        free = {c: w for c, w in ways.items() if g.squad_at(c) is None}
        joins = [c for c in ways if c not in free and _joins(g, q, c)]
        if free:
            lines.append(t["moves"].format(cells=", ".join(board_order(list(free)))))
            foe_fort = g.players[g.enemy(player)]["fortress"]
            toward = min(board_order(list(free)), key=lambda c: min(dist(c, f) for f in foe_fort))
            lines.append(f"#   - {flow({'move': q['id'], 'path': free[toward][1]})}")
        if joins:
            lines.append(t["joins"].format(cells=", ".join(board_order(joins))))
        targets = [e["id"] for e in g.enemies_within(q["pos"], player)]
        if min(dist(q["pos"], c) for c in g.players[g.enemy(player)]["fortress"]) <= 1:
            targets.append("fortress")
        if targets:
            lines.append(t["targets"].format(targets=", ".join(targets)))
            lines.append(f"#   - {flow({'attack': q['id'], 'target': targets[0]})}")
            lines.append(f"#   - {flow({'full_attack': q['id'], 'target': targets[0]})}")
        for p in pieces:
            lines += [f"#   - {flow(a)}" for a in _abilities(g, player, p)[:3]]
    lines.append(t["free"])
    lines.append(t["standing"])
    dies = pl["standing"]["leader_dies"]
    lines.append(f"# {keys['standing']}: {{{keys['leader_dies']}: {values.get(dies, dies)}}}")
    return "\n".join(lines) + "\n"


def _joins(g: Turn, q: dict[str, Any], name: str) -> bool:
    host = g.squad_at(name)
    if host is None:
        return False
    try:
        g.check_join(g.members(q), host, "path")
    except Refusal:
        return False
    return True


def _abilities(g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    """The ability actions ``p`` may take as the turn's first action (each checked alone)."""
    cls, me = p["class"], p["id"]
    foes = [e["id"] for e in g.s["squads"] if e["owner"] != player]
    near = list(NEIGHBOURS[p["pos"]])
    candidates: list[dict[str, Any]] = {
        "巡林客": [{"ability": "射击", "by": me, "target": e} for e in foes],
        "术士": [{"ability": "火球", "by": me, "target": e} for e in foes],
        "牧师": [{"ability": "治疗", "by": me, "target": o["id"]} for o in g.s["pieces"]
                 if o["owner"] == player and o["hp"] < o["max_hp"]] + [{"ability": "造岩", "by": me, "at": c} for c in near],
        "德鲁伊": [{"ability": "风墙", "by": me, "at": c, "orientation": o} for c in near
                  for o in ("horizontal", "vertical")] + [{"ability": "变身野兽", "by": me}],
        "诗人": [{"ability": "唱诗", "by": me}],
        "法师": [{"ability": "开启传送阵", "by": me}],
        "圣武士": [{"ability": "奉献", "by": me, "target": o, "amount": 1} for o in g.squads[p["squad"]]["members"]
                  if o != me],
    }.get(cls, [])
    out = []
    for a in candidates:
        trial = Turn(copy_state(g.s), live=False)
        trial.active = player
        try:
            trial.do_ability({"verb": "ability", **a})
        except Refusal:
            continue
        out.append(a)
    return out

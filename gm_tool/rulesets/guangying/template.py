"""The commented order sheet for the player due: valid as it is (no actions: a pass), with the
legal summons, moves and targets of the turn written out as ready-to-uncomment lines."""

from __future__ import annotations

from typing import Any

from gm_tool.rulesets.guangying.actions import Turn
from gm_tool.rulesets.guangying.bots import reach
from gm_tool.rulesets.guangying.engine import copy_state
from gm_tool.rulesets.guangying.model import NEIGHBOURS, Refusal, board_order, dist

T = {
    "zh": {"head": "# 光与影 第 {turn} 回合：{player} 的指令表。行动按顺序执行；去掉 # 即可启用一行。",
           "not_due": "# 注意：现在轮到 {due}，这份指令表要等到你的回合才有效。",
           "summon": "# 召唤（每回合一次）：可召唤 {what}",
           "cells": "#   可召唤格子：{cells}",
           "squad": "# 小队 {squad} @{pos}（行动机会 2，移动力 {move}）：成员 {members}",
           "moves": "#   可到达：{cells}",
           "targets": "#   可攻击：{targets}",
           "standing": "# 常设：队长阵亡时 fight_on（继续战斗）或 return（回手）",
           "free": "# 免费行动：{队长: 棋子} {回手: [棋子]}（本阵内）{自杀: 棋子}"},
    "en": {"head": "# 光与影 turn {turn}: {player}'s sheet. Actions run in order; remove a # to use a line.",
           "not_due": "# Note: {due} is due now; this sheet is for your own turn.",
           "summon": "# Summon (one a turn): available {what}",
           "cells": "#   summon cells: {cells}",
           "squad": "# Squad {squad} @{pos} (2 chances, move {move}): members {members}",
           "moves": "#   reachable: {cells}",
           "targets": "#   in reach: {targets}",
           "standing": "# Standing: when a leader dies, fight_on or return",
           "free": "# Free: {leader: PIECE} {return: [PIECES]} (home rows) {suicide: PIECE}"},
}


def template(state: dict[str, Any], player: str, lang: str) -> str:
    t = T["en" if lang == "en" else "zh"]
    g = Turn(copy_state(state), live=False)
    g.s["turn"] += 1
    due = state.get("next")
    g.active = player
    g.upkeep()
    pl = g.players[player]
    lines = [t["head"].format(turn=state["turn"] + 1, player=player)]
    if due != player:
        lines.append(t["not_due"].format(due=due or "-"))
    zh = lang != "en"
    lines += [f"{_key('turn', zh)}: {state['turn'] + 1}", f"{_key('player', zh)}: {player}", f"{_key('actions', zh)}: []"]
    what = [f"{c} {n}" for c, n in pl["pool"].items() if n > 0 and c in g.table]
    what += [h["id"] for h in pl["in_hand"] if not h["cannot_return_until"] or h["cannot_return_until"] <= g.s["turn"]]
    lines.append(t["summon"].format(what=", ".join(what) or "-"))
    example = None
    for cls in [c for c, n in pl["pool"].items() if n > 0 and c in g.table][:1]:
        cells = sorted(g.summon_cells(player, cls), key=lambda c: (g.squad_at(c) is not None, c))
        lines.append(t["cells"].format(cells=", ".join(cells[:30]) + (" ..." if len(cells) > 30 else "")))
        if cells:
            example = f"#   - {_flow({'summon': cls, 'at': cells[0]}, zh)}"
    if example:
        lines.append(example)
    for q in g.own_squads(player):
        pieces = g.members(q)
        lines.append(t["squad"].format(squad=q["id"], pos=q["pos"], move=g.squad_move(pieces),
                                       members=", ".join(f"{p['id']} {p['class']} {p['hp']}/{p['max_hp']}" for p in pieces)))
        reachable = reach(g, q)
        if reachable:
            lines.append(t["moves"].format(cells=", ".join(board_order(list(reachable)))))
            foe_fort = g.players[g.enemy(player)]["fortress"]
            toward = min(board_order(list(reachable)), key=lambda c: min(dist(c, f) for f in foe_fort))
            lines.append(f"#   - {_flow({'move': q['id'], 'path': reachable[toward][1]}, zh)}")
        targets = [e["id"] for e in g.enemies_within(q["pos"], player)]
        foe = g.enemy(player)
        if min(dist(q["pos"], c) for c in g.players[foe]["fortress"]) <= 1:
            targets.append("fortress")
        if targets:
            lines.append(t["targets"].format(targets=", ".join(targets)))
            lines.append(f"#   - {_flow({'attack': q['id'], 'target': targets[0]}, zh)}")
            lines.append(f"#   - {_flow({'full_attack': q['id'], 'target': targets[0]}, zh)}")
        for p in pieces:
            lines += [f"#   - {_flow(a, zh)}" for a in _abilities(state, g, player, p)[:3]]
    lines.append(t["free"])
    lines.append(t["standing"])
    dies = pl["standing"]["leader_dies"]
    lines.append(f"# {_key('standing', zh)}: {{{_key('leader_dies', zh)}: {ZH_VALUES.get(dies, dies) if zh else dies}}}")
    return "\n".join(lines) + "\n"


ZH_KEYS = {"turn": "回合", "player": "玩家", "actions": "行动", "standing": "常设", "leader_dies": "队长死亡",
           "summon": "召唤", "at": "位置", "id": "编号", "squad": "小队", "move": "移动", "path": "路径",
           "attack": "攻击", "target": "目标", "by": "发动者", "member": "成员", "full_attack": "全力攻击",
           "defend": "防御", "ability": "能力", "orientation": "方向", "amount": "数值", "leader": "队长",
           "split": "离队", "return": "回手", "suicide": "自杀"}
ZH_VALUES = {"horizontal": "横向", "vertical": "纵向", "fight_on": "继续战斗", "return": "回手"}


def _key(key: str, zh: bool) -> str:
    """A sheet key in the seed's wording for a Chinese sheet (the aliases of contract §3)."""
    return ZH_KEYS[key] if zh else key


def _flow(action: dict[str, Any], zh: bool) -> str:
    def value(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(map(str, v)) + "]"
        return ZH_VALUES.get(v, str(v)) if zh and isinstance(v, str) else str(v)

    return "{" + ", ".join(f"{_key(k, zh)}: {value(v)}" for k, v in action.items()) + "}"


def _abilities(state: dict[str, Any], g: Turn, player: str, p: dict[str, Any]) -> list[dict[str, Any]]:
    """The ability actions ``p`` may take as the turn's first action (each checked alone)."""
    cls, me = p["class"], p["id"]
    foes = [e["id"] for e in g.s["squads"] if e["owner"] != player]
    near = [n for n in NEIGHBOURS[p["pos"]]]
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

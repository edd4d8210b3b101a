"""`gm template`: a commented order sheet for the due player, listing the legal summons (hand
cards with costs, free spawn points), the units that may act (reachable cells, who they can
attack, active skills and their targets) and the castable spells and equipment. The sheet
validates as it is (a pass); the examples are commented out."""

from __future__ import annotations

from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.grid import parse_cell
from gm_tool.rulesets.shenjianglu.bots import destinations, free_spawns, target_pool
from gm_tool.rulesets.shenjianglu.engine import Turn, clone
from gm_tool.rulesets.shenjianglu.geometry import distance

T = {
    "zh": {"head": "神将录 指令表：{player}，第 {turn} 回合", "not_due": "现在轮到 {next}，不是你；下面是空指令表",
           "over": "游戏已结束", "mana": "本回合法力：{mana}", "hand": "手牌（法力消耗）：{cards}",
           "spawns": "空闲出兵点：{cells}", "summon": "召唤", "units": "可以行动的人物：",
           "unit": "{id}（{card}）在 {pos}，移动力 {move}，可到达：{cells}",
           "attack": "移动后可攻击：{targets}", "skill": "技能【{name}】射程 {range}：可选目标 {targets}",
           "cast": "法术 {card}（{cost}）：可选目标 {targets}", "equip": "装备 {card}（{cost}）：可装备于 {targets}",
           "none": "无", "example": "示例（去掉 # 使用）：", "rules": "行动按顺序执行；召唤、指挥、法术、装备顺序自定。"},
    "en": {"head": "神将录 order sheet: {player}, turn {turn}", "not_due": "{next} is to play, not you; an empty sheet follows",
           "over": "the game is over", "mana": "mana this turn: {mana}", "hand": "hand (cost): {cards}",
           "spawns": "free spawn points: {cells}", "summon": "summon", "units": "units that may act:",
           "unit": "{id} ({card}) at {pos}, move {move}, reaches: {cells}",
           "attack": "may attack after moving: {targets}", "skill": "skill [{name}] range {range}: targets {targets}",
           "cast": "spell {card} ({cost}): targets {targets}", "equip": "equipment {card} ({cost}): may go on {targets}",
           "none": "none", "example": "examples (remove the # to use):", "rules": "actions run in order; summons, commands, spells and equipment in any order."},
}


def template(state: dict[str, Any], player: str, lang: str) -> str:
    L = T["zh" if lang == "zh" else "en"]
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
            pool = [u["id"] for u in target_pool(t, card, None, None)]
            out.append(L["cast"].format(card=name, cost=card["cost"], targets=", ".join(pool) or none))
            if pool:
                examples.append(f"- {{cast: {name}, targets: [{pool[0]}]}}")
        elif card["type"] == "equipment":
            pool = [u["id"] for u in target_pool(t, card, None, None)]
            out.append(L["equip"].format(card=name, cost=card["cost"], targets=", ".join(pool) or none))
            if pool:
                examples.append(f"- {{equip: {name}, unit: {pool[0]}}}")
    out.append(L["units"])
    for u in t.s["units"]:
        if u["owner"] != t.player or not t.may_act(u):
            continue
        cells = destinations(t, u)
        out.append("  " + L["unit"].format(id=u["id"], card=u["card"], pos=u["pos"], move=u["move"],
                                           cells=", ".join(cells)))
        foes = sorted({x["id"] for c in cells for x in t.s["units"] if x["owner"] != t.player
                       and distance(parse_cell(c), parse_cell(x["pos"])) == 1})
        out.append("    " + L["attack"].format(targets=", ".join(foes) or none))
        for sk in t.skills_of(u, "active"):
            pool = [x["id"] for x in target_pool(t, sk, u, sk["range"])]
            out.append("    " + L["skill"].format(name=sk["name"], range=sk["range"], targets=", ".join(pool) or none))
            if pool:
                examples.append(f"- {{command: {u['id']}, skill: {sk['name']}, targets: [{pool[0]}]}}")
        if len(cells) > 1:
            examples.append(f"- {{command: {u['id']}, to: {cells[-1]}}}")
    if examples:
        out.append(L["example"])
        out += [f"  {e}" for e in examples]
    return out

"""`gm template`: a commented order sheet that validates as it is (an empty turn = a pass), listing
the due general's points, 行动力, 气, the legs it may take, its targets and castable skills."""

from __future__ import annotations

from typing import Any

from gm_tool.rulesets.hunlu.bots import legs
from gm_tool.rulesets.hunlu.orders import check_game


def template(state: dict[str, Any], player: str, lang: str) -> str:
    zh = lang == "zh"
    nxt = state.get("next")
    lines = [f"turn: {state['turn'] + 1}", f"player: {player}"]
    if nxt and nxt["player"] == player:
        g = check_game(state)
        u = g.units[nxt["unit"]]
        lines.insert(0, f"# {'轮到' if zh else 'due'}: {u['name']} ({u['id']}) @{u['pos']}  "
                        f"{'行动点' if zh else 'points'} {u['ap']}  行动力 {u['move']}  气 {u['qi']}/{u['max_qi']}  "
                        f"{'射程' if zh else 'range'} {g.range_of(u)}")
        lines.append(f"unit: {u['id']}")
        lines.append("# " + ("可一段直线移动到（每段 1 点，最多两段，如 move: [C3, E3]）：" if zh else
                             "one straight leg reaches (1 point each, two legs at most, e.g. move: [C3, E3]):"))
        lines.append("#   " + (", ".join(legs(g, u)) or "-"))
        targets = [t["id"] for t in g.on_field() if g.enemies(u, t)
                   and not g.reachable_target(u, t, g.range_of(u), flying=True)]
        lines.append("# " + ("可普攻（attack: ID）：" if zh else "may attack (attack: ID): ") + (", ".join(targets) or "-"))
        lines.append("# " + ("技能（{skill: ID, target|direction|at}）：" if zh else "skills ({skill: ID, target|direction|at}):"))
        for sk in g.generals(u["general"])["skills"]:
            if sk["timing"] in ("active", "toggle"):
                shape = sk["shape"] if isinstance(sk["shape"], str) else f"line {sk['shape']['line']}"
                lines.append(f"#   {sk['id']} {sk['name']} 气{g.skill_cost(u, sk)} "
                             f"{'射程' if zh else 'range'} {g.range_of(u, sk)} {shape}"
                             + (" (on)" if sk["id"] in u["toggles"] else ""))
        bench = [x["id"] for x in state["units"] if x["player"] == player and x["role"] == "reserve" and x["alive"]]
        if bench:
            lines.append("# " + ("替换（单独一项，2 点）：substitute: " if zh else "substitute (alone, 2 points): ")
                         + ", ".join(bench))
        lines.append("actions: []   # " + ("空 = 主动跳过" if zh else "empty = pass"))
    else:
        lines.insert(0, "# " + ("现在不是你的魂将行动；只能提交常驻指令" if zh else "not your general's turn: standing orders only"))
    own = [u["id"] for u in state["units"] if u["player"] == player]
    lines.append("# " + ("常驻指令（每个键替换已存的一项）：" if zh else "standing orders (each key replaces the stored one):"))
    lines.append("# standing:")
    lines.append("#   joint_attack: {" + ", ".join(f"{x}: {{against: any, when: any, keep_qi: 0}}" for x in own) + "}")
    lines.append("#   reserve_order: [" + ", ".join(own) + "]")
    cur = state["standing"].get(player) or {}
    if cur:
        lines.append("# " + ("当前：" if zh else "stored: ") + str(cur))
    return "\n".join(lines) + "\n"


def status_line(state: dict[str, Any], player: str, lang: str, due: bool) -> str:
    """For `gm status`: round, step and the general due; what a missing sheet means."""
    from gm_tool.i18n import message

    nxt = state.get("next") or {}
    unit = next((u for u in state["units"] if u["id"] == nxt.get("unit")), None)
    where = message("hunlu.status.where", lang, round=state["round"], turn=state["turn"] + 1,
                    unit=f"{unit['name']}({unit['id']})" if unit else "-")
    return f"{where}; {message('hunlu.status.pass' if due else 'hunlu.status.standing', lang)}"

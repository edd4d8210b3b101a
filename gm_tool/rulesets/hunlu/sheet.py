"""`gm template`: a commented order sheet that validates as it is (an empty turn = a pass), listing
the due general's points, 行动力, 气, the legs it may take, its targets and castable skills; and the
`gm status` line. Words from ``data/messages.yaml``."""

from __future__ import annotations

from typing import Any

from gm_tool.rulesets.hunlu.actions import ATTACK, MOVE, check_game
from gm_tool.rulesets.hunlu.messages import TEXTS


def template(state: dict[str, Any], player: str, lang: str) -> str:
    L = TEXTS.labels(lang)["sheet"]

    def say(path: str, **params: Any) -> str:
        return TEXTS.label(lang, f"sheet.{path}", **params)

    nxt = state.get("next")
    lines = [f"turn: {state['turn'] + 1}", f"player: {player}"]
    if nxt and nxt["player"] == player:
        g = check_game(state)
        u = g.units[nxt["unit"]]
        lines.insert(0, "# " + say("due", unit=f"{u['name']}({u['id']})", pos=u["pos"], ap=u["ap"], move=u["move"],
                                   qi=u["qi"], max_qi=u["max_qi"], range=g.range_of(u)))
        lines.append(f"unit: {u['id']}")
        lines.append("# " + L["legs"])
        lines.append("#   " + (", ".join(MOVE.legs(g, u)) or "-"))
        targets = [a["target"] for a in ATTACK.candidates(g, u)]
        lines.append("# " + L["attack"] + " " + (", ".join(targets) or "-"))
        lines.append("# " + L["skills"])
        for sk in g.skills(u):
            if sk["timing"] in ("active", "toggle"):
                shape = say("shapes.line", n=sk["shape"]["line"]) if isinstance(sk["shape"], dict) \
                    else L["shapes"][sk["shape"]]
                lines.append("#   " + say("skill", id=sk["id"], name=sk["name"], qi=g.skill_cost(u, sk),
                                          range=g.range_of(u, sk), shape=shape,
                                          on=L["on"] if sk["id"] in u["toggles"] else ""))
        bench = [x["id"] for x in state["units"] if x["player"] == player and x["role"] == "reserve" and x["alive"]]
        if bench:
            lines.append("# " + L["substitute"] + ", ".join(bench))
        lines.append("actions: []   # " + L["actions"])
    else:
        lines.insert(0, "# " + L["not_due"])
    own = [u["id"] for u in state["units"] if u["player"] == player]
    lines.append("# " + L["standing"])
    lines.append("# standing:")
    lines.append("#   joint_attack: {" + ", ".join(f"{x}: {{against: any, when: any, keep_qi: 0}}" for x in own) + "}")
    lines.append("#   reserve_order: [" + ", ".join(own) + "]")
    cur = state["standing"].get(player) or {}
    if cur:
        from gm_tool.rulesets.hunlu.posts import standing_text

        lines.append("# " + L["stored"] + standing_text(state, player, lang))
    return "\n".join(lines) + "\n"


def status_line(state: dict[str, Any], player: str, lang: str, due: bool) -> str:
    """For `gm status`: round, step and the general due; what a missing sheet means."""
    nxt = state.get("next") or {}
    unit = next((u for u in state["units"] if u["id"] == nxt.get("unit")), None)
    where = TEXTS.label(lang, "status_where", round=state["round"], turn=state["turn"] + 1,
                        unit=f"{unit['name']}({unit['id']})" if unit else "-")
    return f"{where}; {TEXTS.label(lang, 'status_pass' if due else 'status_standing')}"

"""魂陆 (seed 000): soul generals on the points of a grid, d6 checks, sequential general-turns in
initiative order, standing orders for what is due outside one's turn. Contract: spec/hunlu.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core.ruleset import PASS, SEQUENTIAL, AmendAction, Posts, Resolution, RulesetBase
from gm_tool.rulesets.hunlu import messages  # noqa: F401  (registers the messages)


class Hunlu(RulesetBase):
    name = "hunlu"
    turn_kind = SEQUENTIAL
    missing_sheet = PASS
    bot_kinds = ("random", "greedy")
    uses_dice_file = True
    default_scenario = "hunlu_duel"
    package_dir = Path(__file__).parent

    def setup(self, scenario: dict[str, Any], source: str, seed: str) -> dict[str, Any]:
        from gm_tool.rulesets.hunlu.setup import build

        return build(scenario, source, seed)

    def players(self, state: dict[str, Any]) -> list[str]:
        return list(state["players"])

    def due(self, state: dict[str, Any]) -> list[str]:
        nxt = state.get("next")
        return [] if state.get("winner") is not None or nxt is None else [nxt["player"]]

    def parse_orders(self, state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str) -> Any:
        from gm_tool.rulesets.hunlu.orders import parse

        return parse(state, sheet, source, lang)

    def pass_orders(self, state: dict[str, Any], player: str) -> Any:
        from gm_tool.rulesets.hunlu.orders import Orders

        nxt = state.get("next") or {}
        return Orders(player, nxt.get("unit") if nxt.get("player") == player else None)

    def resolve(self, state: dict[str, Any], orders: dict[str, Any], seed: str,
                dice: list[int] | None = None) -> Resolution:
        from gm_tool.rulesets.hunlu.resolve import resolve

        return resolve(state, orders, seed, dice)

    def view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        from gm_tool.rulesets.hunlu.posts import view

        return view(state, player)

    def summary(self, view: dict[str, Any], player: str | None, lang: str) -> str:
        from gm_tool.rulesets.hunlu.posts import summary

        return summary(view, player, lang)

    def template(self, state: dict[str, Any], player: str, lang: str) -> str:
        from gm_tool.rulesets.hunlu.sheet import template

        return template(state, player, lang)

    def bot_sheet(self, state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
        from gm_tool.rulesets.hunlu.bots import sheet

        return sheet(state, player, kind, chance)

    def bot_orders(self, state: dict[str, Any], kinds: dict[str, str], chance: Any) -> dict[str, Any]:
        from gm_tool.rulesets.hunlu.bots import orders

        return orders(state, kinds, chance)

    def summary_for_sim(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"sides": list(state["sides"]), "winner": state.get("winner"),
                "score": {side: sum(u["jing"] for u in state["units"] if u["side"] == side and u["alive"])
                          for side in state["sides"]},
                "score_label": {"zh": "剩余精", "en": "精 left"},
                "units": [{"id": u["id"], "player": u["player"], "side": u["side"], "class": u["general"],
                           "alive": u["alive"]} for u in state["units"]]}

    def posts(self, before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str,
              templates_dir: Path | None = None) -> Posts:
        from gm_tool.rulesets.hunlu.posts import posts

        return posts(before, after, events, lang, templates_dir)

    def amend_actions(self) -> dict[str, AmendAction]:
        from gm_tool.rulesets.hunlu.amend import ACTIONS

        return ACTIONS

    def amend(self, state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from gm_tool.rulesets.hunlu.amend import amend

        return amend(state, action, source)

    def default_summary(self, state: dict[str, Any], player: str, lang: str) -> str:
        from gm_tool.i18n import message

        nxt = state.get("next") or {}
        unit = next((u for u in state["units"] if u["id"] == nxt.get("unit")), None)
        where = message("hunlu.status.where", lang, round=state["round"], turn=state["turn"] + 1,
                        unit=f"{unit['name']}({unit['id']})" if unit else "-")
        code = "hunlu.status.pass" if player in self.due(state) else "hunlu.status.standing"
        return f"{where}; {message(code, lang)}"


RULESET = Hunlu()

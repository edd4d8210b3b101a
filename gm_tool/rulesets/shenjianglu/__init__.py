"""神将录 (seed 003): a 2-8 seat card-and-board game; seats act in turn, one sheet is one player's
whole turn. Contract: ``../shared/spec/shenjianglu.md``; rulings: docs/rulings/shenjianglu.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core.events import EventLog
from gm_tool.core.ruleset import (PASS, SEQUENTIAL, AmendAction, Posts, Resolution, RulesetBase)
from gm_tool.rulesets.shenjianglu import messages  # noqa: F401  (registers the messages)


class Shenjianglu(RulesetBase):
    name = "shenjianglu"
    turn_kind = SEQUENTIAL
    missing_sheet = PASS
    bot_kinds = ("random", "greedy")
    default_scenario = "shenjianglu"
    package_dir = Path(__file__).parent

    def setup(self, scenario: dict[str, Any], source: str, seed: str) -> dict[str, Any]:
        from gm_tool.rulesets.shenjianglu.setup import build

        return build(scenario, source, seed)

    def players(self, state: dict[str, Any]) -> list[str]:
        return [s["player"] for s in state["seats"]]

    def due(self, state: dict[str, Any]) -> list[str]:
        return [] if state.get("winner") is not None or state.get("next") is None else [state["next"]]

    def parse_orders(self, state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str) -> Any:
        from gm_tool.rulesets.shenjianglu.orders import parse

        return parse(state, sheet, source, lang)

    def pass_orders(self, state: dict[str, Any], player: str) -> Any:
        from gm_tool.rulesets.shenjianglu.orders import Orders

        return Orders(player=player, turn=state["turn"] + 1, actions=[])

    def default_orders(self, state: dict[str, Any], player: str) -> Any:
        return self.pass_orders(state, player)

    def default_summary(self, state: dict[str, Any], player: str, lang: str) -> str:
        from gm_tool.i18n import message

        return message("shenjianglu.status.pass", lang)

    def resolve(self, state: dict[str, Any], orders: dict[str, Any], seed: str,
                dice: list[int] | None = None) -> Resolution:
        from gm_tool.rulesets.shenjianglu.engine import play

        log = EventLog()
        player = state.get("next")
        actions = orders[player].actions if player in orders else []
        new = play(state, actions, log)
        return Resolution(new, log.events)

    def view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        from gm_tool.rulesets.shenjianglu.view import view

        return view(state, player)

    def summary(self, view: dict[str, Any], player: str | None, lang: str) -> str:
        from gm_tool.rulesets.shenjianglu.posts import summary

        return summary(view, player, lang)

    def template(self, state: dict[str, Any], player: str, lang: str) -> str:
        from gm_tool.rulesets.shenjianglu.sheet import template

        return template(state, player, lang)

    def posts(self, before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], lang: str,
              templates_dir: Path | None = None) -> Posts:
        from gm_tool.rulesets.shenjianglu.posts import posts

        return posts(before, after, events, lang, templates_dir)

    def bot_sheet(self, state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
        from gm_tool.rulesets.shenjianglu.bots import sheet

        return sheet(state, player, kind, chance)

    def summary_for_sim(self, state: dict[str, Any]) -> dict[str, Any]:
        units = [{"id": u["id"], "player": u["owner"], "side": u["team"], "class": u["card"], "alive": True}
                 for u in state["units"]]
        living = {u["id"] for u in state["units"]}
        units += [{"id": f"K{s['seat']}", "player": s["player"], "side": s["team"], "class": s["king"],
                   "alive": False} for s in state["seats"] if f"K{s['seat']}" not in living]
        return {"sides": ["red", "green"], "winner": state.get("winner"), "units": units}

    def amend_actions(self) -> dict[str, AmendAction]:
        from gm_tool.rulesets.shenjianglu.amend import actions

        return actions()

    def amend(self, state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from gm_tool.rulesets.shenjianglu.amend import amend

        return amend(state, action, source)


RULESET = Shenjianglu()

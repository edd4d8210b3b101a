"""神将录 (seed 003): a 2-8 seat card-and-board game; seats act in turn, one sheet is one player's
whole turn. Contract: ``spec/shenjianglu.md`` (shared material); rulings: docs/rulings/shenjianglu.md.

The class only routes the protocol to the modules that do the work (imported when first used,
so `gm check` never loads the posts or the bots)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm_tool.core.events import EventLog
from gm_tool.core.ruleset import AmendAction, Hides, MissingSheet, Resolution, RulesetBase, TurnKind
from gm_tool.rulesets.shenjianglu import messages  # noqa: F401  (its messages, registered when first asked for)
from gm_tool.rulesets.shenjianglu.keys import SHEET_ALIASES
from gm_tool.rulesets.shenjianglu.rules import SWITCHES

if TYPE_CHECKING:
    from gm_tool.core.actions import Option
    from gm_tool.core.narrate import Teller
    from gm_tool.core.posts import Post, PostTurn
    from gm_tool.rulesets.shenjianglu.orders import Orders

State = dict[str, Any]


def _part(module: str) -> Any:
    return importlib.import_module(f"{__name__}.{module}")


class Shenjianglu(RulesetBase[State, "Orders"]):
    name = "shenjianglu"
    turn_kind = TurnKind.SEQUENTIAL
    missing_sheet = MissingSheet.PASS
    hides = Hides.HOLDINGS  # the other seats' hands and every deck's order
    bot_kinds = ("random", "greedy")
    default_scenario = "shenjianglu"
    # 2: one neutral pool (ruling 13), the empty-deck penalty once per turn start (ruling 16), a dead
    # king in its graveyard, the card primitives of issue 21, the house-rule switches
    # 3: labels kept in the state, neutrals dealt recorded per seat, posts through the core's road
    rules_version = 3
    package_dir = Path(__file__).parent
    switches = SWITCHES
    sheet_aliases = SHEET_ALIASES

    def setup(self, scenario: dict[str, Any], source: str, seed: str, log: EventLog | None = None) -> State:
        return _part("setup").build(scenario, source, seed, log)

    def players(self, state: State) -> list[str]:
        return [s["player"] for s in state["seats"]]

    def due(self, state: State) -> list[str]:
        """Only the seat whose turn is open (nobody once the game is over)."""
        return [] if state.get("winner") is not None or state.get("next") is None else [state["next"]]

    def parse_orders(self, state: State, sheet: dict[str, Any], source: str, lang: str) -> Orders:
        return _part("orders").parse(state, sheet, source, lang)  # type: ignore[no-any-return]

    def pass_orders(self, state: State, player: str) -> Orders:
        return _part("orders").Orders(player=player, turn=state["turn"] + 1, actions=[])  # type: ignore[no-any-return]

    default_orders = pass_orders

    def default_summary(self, state: State, player: str, lang: str) -> str:
        from gm_tool.i18n import message

        return message("shenjianglu.status.pass", lang)

    def resolve(self, state: State, orders: dict[str, Orders], seed: str,
                dice: list[int] | None = None) -> Resolution[State]:
        """The open seat's turn (no chance is drawn: decks were shuffled at setup)."""
        log = EventLog()
        due = state.get("next")
        sheet = orders.get(due) if due is not None else None
        new = _part("actions").play(state, sheet.actions if sheet is not None else [], log)
        return Resolution(new, log.events)

    # what the player due may do: the template, gm check, the bots and the posts' sheet ------------
    def options(self, state: State, player: str) -> list[Option]:
        """Every action ``player`` may write as their sheet's first (the kinds of actions.py)."""
        return _part("actions").ACTIONS.options(state, player)  # type: ignore[no-any-return]

    def sheet_for(self, state: State, player: str, option: Option) -> dict[str, Any]:
        """The sheet that sends one option: a turn of that one action."""
        return {"turn": state["turn"] + 1, "player": player, "actions": [dict(option.entry)]}

    def view(self, state: State, player: str | None) -> State:
        return _part("view").view(state, player)

    def summary(self, view: State, player: str | None, lang: str) -> str:
        return _part("posts").summary(view, player, lang)

    def template(self, state: State, player: str, lang: str) -> str:
        return _part("sheet").template(state, player, lang)

    # posts: what each post holds; the core renders them (gm_tool.core.posts) --------------------
    def post(self, turn: PostTurn, reader: str | None) -> Post:
        return _part("posts").post(self, turn, reader)

    def opening_post(self, turn: PostTurn, reader: str | None) -> Post:
        return _part("posts").opening_post(self, turn, reader)

    def unit_labels(self, view: State, lang: str) -> dict[str, str]:
        return _part("posts").unit_names(view)

    def teller(self, names: dict[str, str], lang: str, m: Any) -> Teller:
        return _part("posts").SjlTeller(self.narration(), names, lang, m)  # type: ignore[no-any-return]

    def bot_sheet(self, state: State, player: str, kind: str, chance: Any) -> dict[str, Any]:
        return _part("bots").sheet(state, player, kind, chance)

    def bot_orders(self, state: State, kinds: dict[str, str], chance: Any) -> dict[str, Any]:
        return _part("bots").orders(state, kinds, chance)

    def summary_for_sim(self, state: State) -> dict[str, Any]:
        """Teams are the sides; every seat's king is a unit (dead kings too), troops alive only."""
        living = {u["id"] for u in state["units"]}
        units = [{"id": u["id"], "player": u["owner"], "side": u["team"], "class": u["card"], "alive": True}
                 for u in state["units"]]
        units += [{"id": f"K{s['seat']}", "player": s["player"], "side": s["team"], "class": s["king"],
                   "alive": False} for s in state["seats"] if f"K{s['seat']}" not in living]
        return {"sides": ["red", "green"], "units": units}

    def amend_actions(self) -> dict[str, AmendAction]:
        return _part("amend").actions()

    def amend(self, state: State, action: dict[str, Any], source: str) -> tuple[State, list[dict[str, Any]]]:
        return _part("amend").amend(state, action, source)


RULESET = Shenjianglu()

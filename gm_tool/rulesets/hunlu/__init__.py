"""魂陆 (seed 000): soul generals on the points of a grid, d6 checks, sequential general-turns in
initiative order, standing orders for what is due outside one's turn. Contract: spec/hunlu.md.

The class only names the game's parts; each method hands over to the module that does the work,
imported when first needed (a `gm check` never loads the posts)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm_tool.core.events import EventLog
from gm_tool.core.ruleset import AmendAction, Hides, MissingSheet, Resolution, RulesetBase, TurnKind
from gm_tool.rulesets.hunlu import messages  # registers the messages
from gm_tool.rulesets.hunlu.switches import SWITCHES

if TYPE_CHECKING:
    from gm_tool.core.actions import Option
    from gm_tool.core.narrate import Narration, Teller
    from gm_tool.core.posts import Post, PostTurn
    from gm_tool.rulesets.hunlu.orders import Orders

State = dict[str, Any]


class Hunlu(RulesetBase[State, "Orders"]):
    """One general's turn per resolution (SEQUENTIAL); a missing sheet passes (主动跳过); forum
    dice from `gm dice` come first (section 4 of the contract)."""

    name, default_scenario, package_dir = "hunlu", "hunzhan", Path(__file__).parent
    turn_kind, missing_sheet, uses_dice_file, standing_sheets = TurnKind.SEQUENTIAL, MissingSheet.PASS, True, True
    hides = Hides.HOLDINGS  # the other players' standing orders and face-down cards
    bot_kinds = ("random", "greedy")
    # 2: issue 20 (战斗潜能 when stopped, 天堑 mid-skill, 先手 at once and recast, 神 0, no idle
    # passive lines); 3: stable marks in the state, the round's end told before its effects;
    # 4: no mark that reads as digits in the picture (Z2)
    rules_version = 4
    switches = SWITCHES  # the scenario's rules: knobs, listed in the public opening post

    def players(self, state: State) -> list[str]:
        return list(state["players"])

    def setup(self, scenario: dict[str, Any], source: str, seed: str, log: EventLog | None = None) -> State:
        """Turn 0; the opening's events (initiative roll-offs with their dice, spawns) go to ``log``."""
        return _part("setup").build(scenario, source, seed, log)

    def due(self, state: State) -> list[str]:
        """The owner of the next general to act; nobody once the game is over or stuck."""
        nxt = state.get("next")
        return [] if state.get("winner") is not None or nxt is None else [nxt["player"]]

    def parse_orders(self, state: State, sheet: dict[str, Any], source: str, lang: str) -> Orders:
        return _part("orders").parse(state, sheet, source, lang)

    def pass_orders(self, state: State, player: str) -> Orders:
        nxt = state.get("next") or {}
        return _part("orders").Orders(player, nxt.get("unit") if nxt.get("player") == player else None)

    def resolve(self, state: State, orders: dict[str, Any], seed: str, dice: list[int] | None = None) -> Resolution:
        return _part("resolve").resolve(state, orders, seed, dice)

    def summary(self, view: State, player: str | None, lang: str) -> str:
        return _part("posts").summary(view, player, lang)

    def bot_sheet(self, state: State, player: str, kind: str, chance: Any) -> dict[str, Any]:
        return _part("bots").sheet(state, player, kind, chance)

    def bot_orders(self, state: State, kinds: dict[str, str], chance: Any) -> dict[str, Any]:
        return _part("bots").orders(state, kinds, chance)

    def options(self, state: State, player: str) -> list[Option]:
        """Every action the general due may write as the first of its sheet (the kinds of
        actions.py); none for a player not due."""
        return _part("actions").ACTIONS.options(state, player)  # type: ignore[no-any-return]

    def sheet_for(self, state: State, player: str, option: Option) -> dict[str, Any]:
        """The sheet that sends one option: a turn of that one action."""
        return {"turn": state["turn"] + 1, "player": player, "actions": [dict(option.entry)]}

    def template(self, state: State, player: str, lang: str) -> str:
        return _part("sheet").template(state, player, lang)

    def summary_for_sim(self, state: State) -> dict[str, Any]:
        """Sides, the 精 each side has left as its score, every general as a unit."""
        left = {side: 0.0 for side in state["sides"]}
        for u in state["units"]:
            if u["alive"]:
                left[u["side"]] += u["jing"]
        units = [{"id": u["id"], "player": u["player"], "side": u["side"], "class": u["general"], "alive": u["alive"]}
                 for u in state["units"]]
        from gm_tool.i18n import LANGS

        return {"sides": list(state["sides"]), "score": left,
                "score_label": {lang: messages.label(lang, "score") for lang in LANGS}, "units": units}

    def view(self, state: State, player: str | None) -> State:
        return _part("posts").view(state, player)

    # posts: what each post holds; the core renders them (gm_tool.core.posts) --------------------
    def post(self, turn: PostTurn, reader: str | None) -> Post:
        return _part("posts").post(self, turn, reader)  # type: ignore[no-any-return]

    def opening_post(self, turn: PostTurn, reader: str | None) -> Post:
        """Turn 0: the initiative roll-offs, the spawns, round 1's start and the first sheet."""
        return _part("posts").post(self, turn, reader)  # type: ignore[no-any-return]

    def unit_labels(self, view: State, lang: str) -> dict[str, str]:
        return _part("narrate").unit_names(view)  # type: ignore[no-any-return]

    def narration(self) -> Narration:
        return messages.narration()

    def teller(self, names: dict[str, str], lang: str, m: Any) -> Teller:
        return _part("narrate").HunluTeller(self.narration(), names, lang, m)  # type: ignore[no-any-return]

    def tell(self, turn: PostTurn, reader: str | None, teller: Teller, **options: Any) -> list[dict[str, Any]]:
        return _part("posts").tell(self, turn, reader, teller)  # type: ignore[no-any-return]

    def amend_actions(self) -> dict[str, AmendAction]:
        return _part("amend").ACTIONS

    def amend(self, state: State, action: dict[str, Any], source: str) -> tuple[State, list[dict[str, Any]]]:
        return _part("amend").amend(state, action, source)

    def default_summary(self, state: State, player: str, lang: str) -> str:
        return _part("sheet").status_line(state, player, lang, player in self.due(state))


def _part(name: str) -> Any:
    """A part of the game, imported on first use."""
    return importlib.import_module(f"gm_tool.rulesets.hunlu.{name}")


RULESET = Hunlu()

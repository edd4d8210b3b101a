"""光与影 (guangying, seed 001): a two-player squad board game on a 12x10 board, played by post.
Players alternate whole turns; one sheet is one turn, an ordered list of actions; the opponent's
reactions (措手不及, 借机攻击, 致命夹击) are automatic. No chance, nothing hidden.
Contract: ``spec/guangying.md``; rulings: ``docs/rulings/guangying.md``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm_tool.core.actions import Option
from gm_tool.core.events import EventLog
from gm_tool.core.ruleset import AmendAction, Hides, MissingSheet, Resolution, RulesetBase, TurnKind
from gm_tool.i18n import message
from gm_tool.rulesets.guangying import messages  # noqa: F401  (registers the messages)
from gm_tool.rulesets.guangying.orders import FIELDS, STANDING_KEYS, TOP_KEYS, VERBS, Orders
from gm_tool.rulesets.guangying.switches import SWITCHES

# The parts are imported where a method first needs them: `gm check` reads a sheet without
# loading the posts, the bots or the GM edits; `gm resolve` never loads the scenario reader or
# the GM edits.


class Guangying(RulesetBase[dict[str, Any], Orders]):
    """Sequential (one player's sheet a turn); a missing sheet is a pass; no dice file."""

    name, turn_kind, missing_sheet = "guangying", TurnKind.SEQUENTIAL, MissingSheet.PASS
    hides = Hides.NOTHING
    bot_kinds, default_scenario = ("random", "greedy"), "standard"
    uses_dice_file, package_dir = False, Path(__file__).parent
    # 2: moves join own squads (R8), the portal's whole neutral area (R32), standing 回手/自杀 (R35),
    # labels and retired ids in the state (R36), move events that say where a squad stopped;
    # 3: markers named by seat in posts (R36), a GM's standing-order edit told to its owner only (R37)
    rules_version = 3
    # the contested readings a scenario's rules: may turn (rulings R8, R32); defaults: the seed's
    switches = SWITCHES
    sheet_aliases = {**TOP_KEYS, **VERBS, **FIELDS, **STANDING_KEYS}

    def setup(self, scenario: dict[str, Any], source: str, seed: str, log: EventLog | None = None) -> dict[str, Any]:
        from gm_tool.rulesets.guangying import scenario as _scenario

        return _scenario.build(scenario, source)  # no chance in this game: the seed is unused

    def players(self, state: dict[str, Any]) -> list[str]:
        return [p["player"] for p in state["players"]]

    def due(self, state: dict[str, Any]) -> list[str]:
        """Only the player whose turn it is (contract §2); nobody once the game is over."""
        return [] if state.get("winner") is not None or not state.get("next") else [state["next"]]

    def parse_orders(self, state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str) -> Orders:
        from gm_tool.rulesets.guangying import sheet as _sheet

        return _sheet.read(state, sheet, source, lang)

    def pass_orders(self, state: dict[str, Any], player: str) -> Orders:
        return Orders(player=player, turn=state["turn"] + 1, actions=[], standing=None)

    default_orders = pass_orders

    def default_summary(self, state: dict[str, Any], player: str, lang: str) -> str:
        return message("guangying.status.passes", lang)

    def resolve(self, state: dict[str, Any], orders: dict[str, Orders], seed: str,
                dice: list[int] | None = None) -> Resolution:
        from gm_tool.rulesets.guangying.engine import play

        due = state.get("next")
        game, _ = play(state, orders.get(due) if due is not None else None)
        return Resolution(game.s, game.log.events)

    def view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        """Nothing is hidden in this game: every view is the GM's."""
        from gm_tool.rulesets.guangying.engine import copy_state

        return copy_state(state)

    def summary(self, view: dict[str, Any], player: str | None, lang: str) -> str:
        from gm_tool.rulesets.guangying import posts as _posts

        return _posts.summary(view, player, lang)

    # what the player due may do: the template, the posts' sheet and `gm check` read the kinds'
    # options (gm_tool.rulesets.guangying.actions); tests/guangying/test_options.py checks them
    def options(self, state: dict[str, Any], player: str) -> list[Option]:
        """Every action ``player`` may write as the first of the turn (none when not due)."""
        from gm_tool.rulesets.guangying import actions as _actions

        if player not in self.due(state):
            return []
        return [Option(kind, entry) for kind, entry in _actions.options(state, player)]

    def sheet_for(self, state: dict[str, Any], player: str, option: Option) -> dict[str, Any]:
        """The sheet that sends one option."""
        return {"turn": state["turn"] + 1, "player": player, "actions": [dict(option.entry)]}

    def template(self, state: dict[str, Any], player: str, lang: str) -> str:
        from gm_tool.rulesets.guangying import template as _template

        return _template.template(state, player, lang)

    def bot_sheet(self, state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
        from gm_tool.rulesets.guangying import bots as _bots

        return _bots.sheet(state, player, kind, chance)

    def bot_orders(self, state: dict[str, Any], kinds: dict[str, str], chance: Any) -> dict[str, Orders]:
        """As bot_sheet then parse_orders, without reading each sheet back."""
        from gm_tool.rulesets.guangying import bots as _bots

        return {p: _bots.orders(state, p, kind, chance) for p, kind in kinds.items()}

    def summary_for_sim(self, state: dict[str, Any]) -> dict[str, Any]:
        units = [{"id": p["id"], "player": p["owner"], "side": p["owner"], "class": p["class"], "alive": True}
                 for p in state["pieces"]]
        for pl in state["players"]:
            units += [{"id": h["id"], "player": pl["player"], "side": pl["player"], "class": h["class"], "alive": True}
                      for h in pl["in_hand"]]
            classes = pl.get("dead_classes", {})
            units += [{"id": d, "player": pl["player"], "side": pl["player"], "class": classes.get(d, ""),
                       "alive": False} for d in pl["dead"]]
        return {"sides": self.players(state),
                "score": {p["player"]: p["fortress_hp"] for p in state["players"]},
                "score_label": {lang: messages.labels(lang)["score_label"] for lang in ("zh", "en")}, "units": units}

    # --- posts: the core renders them (gm_tool.core.posts) from what post()/opening_post() give ---
    def post(self, turn: Any, reader: str | None) -> Any:
        """The content of one post of a turn: the story, the board (picture, text, legend) and,
        for a player, their own table and the pre-filled sheet when due."""
        from gm_tool.rulesets.guangying import posts as _posts

        return _posts.post(self, turn, reader)

    def opening_post(self, turn: Any, reader: str | None) -> Any:
        """Turn 0: the board and picture, the seats (colour, side, who moves first) and each
        player's pool, with the pre-filled sheet for the player who moves first."""
        from gm_tool.rulesets.guangying import posts as _posts

        return _posts.post(self, turn, reader)

    def unit_labels(self, view: dict[str, Any], lang: str) -> dict[str, str]:
        from gm_tool.rulesets.guangying import posts as _posts

        return _posts.unit_labels(view)

    def teller(self, names: dict[str, str], lang: str, m: Any) -> Any:
        from gm_tool.rulesets.guangying.posts import GyTeller

        return GyTeller(self.narration(), names, lang, m)

    def amend_actions(self) -> dict[str, AmendAction]:
        from gm_tool.rulesets.guangying import amend as _amend

        return _amend.actions()

    def amend(self, state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list]:
        from gm_tool.rulesets.guangying import amend as _amend

        return _amend.amend(state, action, source)


RULESET = Guangying()

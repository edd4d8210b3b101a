"""The grail war (seed 002): 20x14 map, strongholds and territory, private vision, simultaneous
moves, Sanguosha-like fights played from each player's tactical options."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm_tool.core.events import EventLog
from gm_tool.core.ruleset import AmendAction, Hides, MissingSheet, Resolution, RulesetBase, TurnKind
from gm_tool.i18n import register_lazy
from gm_tool.rulesets.grail_war.aliases import sheet_aliases
from gm_tool.rulesets.grail_war.switches import SWITCHES

if TYPE_CHECKING:
    from gm_tool.core.actions import Option
    from gm_tool.core.narrate import Narration
    from gm_tool.core.narrate import Teller as CoreTeller
    from gm_tool.core.posts import Post, Posts, PostTurn
    from gm_tool.rulesets.grail_war.narrate import Teller
    from gm_tool.rulesets.grail_war.orders import Orders

_NO_CARDS: dict[str, list] = {"draw_pile": [], "discard_pile": []}


def _words() -> object:
    from gm_tool.rulesets.grail_war.words import texts

    return texts()


register_lazy("grail_war", _words)  # data/messages.yaml, read when one of its messages is first needed


def _without_piles(state: dict[str, Any]):
    """The state as a Game for reading sheets: orders never look at the deck or the equipment
    pile, which are most of what converting a state costs, so they are left empty."""
    from gm_tool.rulesets.grail_war.model import Game

    return Game.from_state({**state, "deck": _NO_CARDS, "equipment_pile": []})


class GrailWar(RulesetBase[dict[str, Any], "Orders"]):
    name = "grail_war"
    turn_kind = TurnKind.SIMULTANEOUS
    missing_sheet = MissingSheet.DEFAULT  # a player who sends nothing stays put with default options
    hides = Hides.SIGHT  # other players' hands, and what lies beyond a player's sight
    bot_kinds = ("random", "greedy")
    default_scenario = "fuyuki"
    demo_turns = 3  # bots rarely end a Fuyuki war: the demo shows three nights
    # 2: issue 14's corrections (宝石 ♦Q, rules.decks, rulings C8 and C28-C32): campaigns of 1 replay differently
    # 3: issue 23 (a wave of 杀 answered whole before it lands, ruling C35; not_set told; rules.magic_play in
    #    the state; the template as a missing sheet; public posts group no deaths by fight; reassignments)
    # 4: issue 19 (posts rendered by the core; characters keep a label in the state)
    rules_version = 4
    package_dir = Path(__file__).parent
    switches = SWITCHES
    sheet_aliases = sheet_aliases()  # the seed's headings as keys (orders.py reads them; problems are told in them)

    def setup(self, scenario: dict[str, Any], source: str, seed: str, log: EventLog | None = None) -> dict[str, Any]:
        """Turn 0; the shuffles of the deck and the equipment pile are GM-only events in ``log``."""
        from gm_tool.rulesets.grail_war.scenario import build

        return build(scenario, source, seed, log=log).to_state()

    def players(self, state: dict[str, Any]) -> list[str]:
        seen: list[str] = []
        for c in state["characters"]:
            if c["player"] not in seen:
                seen.append(c["player"])
        return seen

    def due(self, state: dict[str, Any]) -> list[str]:
        """Simultaneous: every player with a living character, until the game is over."""
        if state.get("winner") is not None:
            return []
        alive = {c["player"] for c in state["characters"] if c["alive"]}
        return [p for p in self.players(state) if p in alive]

    def parse_orders(self, state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str) -> Orders:
        from gm_tool.rulesets.grail_war.orders import parse

        return parse(_without_piles(state), sheet, source, lang)

    def default_orders(self, state: dict[str, Any], player: str) -> Orders:
        from gm_tool.rulesets.grail_war.orders import default

        return default(_without_piles(state), player)

    def options(self, state: dict[str, Any], player: str) -> list[Option]:
        """What the servant a player's sheet orders (the template's) may write in each section of
        the sheet (orders.ACTIONS); nothing for a player not due."""
        from gm_tool.rulesets.grail_war.orders import ACTIONS

        return ACTIONS.options(_without_piles(state), player) if player in self.due(state) else []

    def sheet_for(self, state: dict[str, Any], player: str, option: Option) -> dict[str, Any]:
        """The sheet that writes one option's section and leaves the others to the defaults."""
        from gm_tool.rulesets.grail_war.orders import default

        o = default(_without_piles(state), player)
        return {"turn": o.turn, "player": player, "character": o.character, **option.entry}

    def resolve(self, state: dict[str, Any], orders: dict[str, Any], seed: str,
                dice: list[int] | None = None) -> Resolution:
        from gm_tool.rulesets.grail_war.resolve import resolve

        return resolve(state, orders, seed)

    def view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        from gm_tool.rulesets.grail_war.view import view

        return view(state, player)

    def summary(self, view: dict[str, Any], player: str | None, lang: str) -> str:
        from gm_tool.rulesets.grail_war.posts import summary

        return summary(view, player, lang)

    def template(self, state: dict[str, Any], player: str, lang: str) -> str:
        from gm_tool.rulesets.grail_war.sheet import template

        return template(state, player, lang)

    def bot_sheet(self, state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
        from gm_tool.rulesets.grail_war.bots import sheet

        return sheet(state, player, kind, chance)

    def bot_orders(self, state: dict[str, Any], kinds: dict[str, str], chance: Any) -> dict[str, Any]:
        """``{player: parse_orders(state, bot_sheet(state, player, kind, chance))}`` for every
        ``player: kind`` given, in that order, converting the state once."""
        from gm_tool.rulesets.grail_war.bots import orders

        return orders(state, kinds, chance)

    def summary_for_sim(self, state: dict[str, Any]) -> dict[str, Any]:
        """Territory as the score, and every character as a unit (its class is the unit's class);
        who won is ``outcome()``'s (a side or "draw")."""
        from gm_tool.i18n import LANGS
        from gm_tool.rulesets.grail_war.words import labels

        return {"sides": list(state["sides"]),
                "score": dict(state.get("territory") or {}),
                **{f"{key}_label": {lang: labels(lang)["sim"][key] for lang in LANGS} for key in ("class", "unit", "score")},
                "units": [{"id": c["id"], "player": c["player"], "side": c["side"], "class": c["class"],
                           "alive": c["alive"]} for c in state["characters"]]}

    # posts: the content of each post; the core renders it (gm_tool.core.posts) ----------------
    def post(self, turn: PostTurn, reader: str | None) -> Post:
        from gm_tool.rulesets.grail_war.posts import post

        return post(self, turn, reader)

    def opening_post(self, turn: PostTurn, reader: str | None) -> Post:
        from gm_tool.rulesets.grail_war.posts import opening_post

        return opening_post(self, turn, reader)

    def gm_picture(self, turn: PostTurn) -> Any:
        from gm_tool.rulesets.grail_war.posts import gm_picture

        return gm_picture(turn)

    def narration(self) -> Narration:
        from gm_tool.rulesets.grail_war.narrate import narration

        return narration()

    def teller(self, names: dict[str, str], lang: str, m: Any) -> Teller:
        from gm_tool.rulesets.grail_war.narrate import Teller

        return Teller(names, lang, m)

    def tell(self, turn: PostTurn, reader: str | None, teller: CoreTeller, **options: Any) -> list[dict[str, Any]]:
        """The sections the reader may know (rulings G2, P1, P3): the public post groups nothing by
        fight; a private post says where a walk it saw went out of sight (``gone``, ruling P7).
        Characters are named from the whole roster (a fallen one is still named in its fight)."""
        from gm_tool.rulesets.grail_war.narrate import Teller, story

        roster = {c["id"]: c["name"] for c in turn.after["characters"]}
        teller.names = {**roster, **teller.names}
        assert isinstance(teller, Teller)
        return story(turn.events, teller, reader, public=reader is None, cut=turn.cut(self), gone=options.get("gone"))

    def unit_labels(self, view: dict[str, Any], lang: str) -> dict[str, str]:
        """Characters are told by their names (as the seed writes them; never a player's id)."""
        return {c["id"]: c["name"] for c in view["characters"]}

    def amend(self, state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        from gm_tool.rulesets.grail_war.amend import amend

        return amend(state, action, source)

    def amend_posts(self, state: dict[str, Any], action: dict[str, Any], events: list[dict[str, Any]], lang: str,
                    templates_dir: Path | None = None, secret: str = "") -> Posts | None:
        """A reassignment's handover post for the replacement player (issue 23)."""
        if action["action"] != "reassign":
            return None
        from gm_tool.rulesets.grail_war.posts import handover

        detail = next(e for e in events if e["type"] == "gm_reassign_detail")
        return handover(self, state, detail["new_player"], detail["old_player"], lang, templates_dir, secret)

    def amend_actions(self) -> dict[str, AmendAction]:
        from gm_tool.rulesets.grail_war.amend import actions

        return actions()

    def import_message(self, state: dict[str, Any], text: str, source: str, lang: str,
                       player: str | None) -> tuple[dict[str, Any], list[tuple[int, str, str]]]:
        from gm_tool.rulesets.grail_war.importer import read_message

        result = read_message(state, text, source, lang, player)
        return result.sheet, result.lines

    def default_summary(self, state: dict[str, Any], player: str, lang: str) -> str:
        from gm_tool.rulesets.grail_war.amend import default_summary

        return default_summary(state, player, lang)


RULESET = GrailWar()

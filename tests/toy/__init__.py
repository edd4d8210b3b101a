"""A toy sequential ruleset that exercises the whole ruleset seam without any real game.

"Race": two or more runners on a track of ``length`` cells, taking turns in order. On its turn
a runner sends one action: ``step: 1..3`` moves that far plus one die (forum dice first, then
the seeded generator); ``trip: RUNNER`` sends a runner on its cell or the next one two cells
back. The first to reach the last cell wins. ``step: 0``, a sheet with no action, or no sheet
at all, is a pass. Each runner holds a secret token (a number drawn at setup) that only its
player sees: the leak tests check that it never reaches anyone else. A GM edit ``set-pos
RUNNER CELL`` moves a runner. The two kinds of action live in ``actions.py``, one class each
(gm_tool.core.actions); ``cases.yaml`` holds the toy's rule cases as data.
``docs/adding-a-ruleset.md`` walks through these files.

Register it (it lives under ``tests/``, not ``gm_tool/rulesets/``) with ``register()``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm_tool.core import ruleset as core
from gm_tool.core.actions import Option, Reading
from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.picture import GridPainter, Mark
from gm_tool.core.posts import Post, PostTurn
from gm_tool.core.rules import Switch, check_rules
from gm_tool.core.ruleset import AmendAction, Arg, Hides, MissingSheet, Resolution, RulesetBase, TurnKind
from gm_tool.errors import GmError, Problem
from tests.toy.actions import ACTIONS, RaceState, RaceTurn, Step, Trip, cell

SHEET_KEYS = ("turn", "player")  # besides the one action


@dataclass(frozen=True)
class RaceOrders:
    player: str
    action: Step | Trip


class Race(RulesetBase[RaceState, RaceOrders]):
    name = "toy"
    turn_kind = TurnKind.SEQUENTIAL
    missing_sheet = MissingSheet.PASS
    hides = Hides.HOLDINGS  # each runner's secret number
    bot_kinds = ("random", "greedy")
    uses_dice_file = True
    package_dir = Path(__file__).parent  # templates/ and data/messages.yaml
    switches = (Switch("die", 6, minimum=2, maximum=12, seed="toy rules"),)
    sheet_aliases = ACTIONS.words()  # 步数: step, 绊倒: trip

    def setup(self, scenario: dict[str, Any], source: str, seed: str, log: EventLog | None = None) -> RaceState:
        runners = scenario.get("runners")
        length = scenario.get("length", 12)
        problems = []
        if not isinstance(runners, list) or not 2 <= len(runners) <= 8 or not all(isinstance(r, str) for r in runners) \
                or len(set(runners)) != len(runners):
            problems.append(Problem("toy.field", source, "runners", {"allowed": "2-8 distinct names"}))
        if type(length) is not int or not 4 <= length <= 26:
            problems.append(Problem("toy.field", source, "length", {"allowed": "4-26"}))
        try:
            rules = check_rules(self.switches, scenario.get("rules"), source)
        except GmError as exc:
            problems += exc.problems
        if problems or not isinstance(runners, list):
            raise GmError(problems)
        self.texts()  # the toy's messages are registered before any sheet is read
        chance = Chance(seed, "setup")
        return {"turn": 0, "length": length, "next": runners[0], "winner": None, "rules": rules,
                "runners": [{"id": r, "pos": 0, "token": chance.roll(100, why=f"token {r}")} for r in runners]}

    def players(self, state: RaceState) -> list[str]:
        return [r["id"] for r in state["runners"]]

    def due(self, state: RaceState) -> list[str]:
        return [] if state["winner"] is not None else [state["next"]]

    def parse_orders(self, state: RaceState, sheet: dict[str, Any], source: str, lang: str) -> RaceOrders:
        player = sheet.get("player")
        reading = Reading(state, str(player), source)
        if sheet.get("turn") != state["turn"] + 1:
            reading.problem("turn", "orders.turn", got=sheet.get("turn"), expected=state["turn"] + 1)
        if player not in self.players(state):
            reading.problem("player", "player.unknown", player=player, allowed=", ".join(self.players(state)))
        elif player not in self.due(state):
            reading.problem("player", "toy.not_due", due=", ".join(self.due(state)) or "-")
        # the one action, at the top level: read by the kind its key names (no action: a pass)
        action = ACTIONS.read(sheet, reading, ignore=SHEET_KEYS) if set(sheet) - set(SHEET_KEYS) else Step(0)
        if reading.problems:
            raise GmError(reading.problems)
        assert action is not None
        return RaceOrders(str(player), action)

    def pass_orders(self, state: RaceState, player: str) -> RaceOrders:
        return RaceOrders(player, Step(0))

    def resolve(self, state: RaceState, orders: dict[str, RaceOrders], seed: str,
                dice: list[int] | None = None) -> Resolution[RaceState]:
        state = copy.deepcopy(state)
        state["turn"] += 1
        log = EventLog()
        log.emit("turn", turn=state["turn"])
        (player, o), = orders.items()
        me = next(r for r in state["runners"] if r["id"] == player)
        ACTIONS.apply(RaceTurn(state, me, log, Chance(seed, f"turn-{state['turn']}", log), list(dice or [])), o.action)
        if me["pos"] == state["length"] - 1:
            state["winner"] = player
            log.emit("win", unit=player)
        ids = self.players(state)
        state["next"] = ids[(ids.index(player) + 1) % len(ids)]
        return Resolution(state, log.events)

    def view(self, state: RaceState, player: str | None) -> RaceState:
        out = copy.deepcopy(state)
        if player is not None:
            for r in out["runners"]:
                if r["id"] != player:
                    r["token"] = None
        return out

    def summary(self, view: RaceState, player: str | None, lang: str) -> str:
        return "\n".join(f"{r['id']}: {cell(r['pos'])}" for r in view["runners"]) + "\n"

    # what a runner may do: the template, the bots and the posts all read ACTIONS.options ---------
    def options(self, state: RaceState, player: str) -> list[Option]:
        return ACTIONS.options(state, player) if player in self.due(state) else []

    def sheet_for(self, state: RaceState, player: str, option: Option) -> dict[str, Any]:
        """The sheet that sends one option."""
        return {"turn": state["turn"] + 1, "player": player, **option.entry}

    def template(self, state: RaceState, player: str, lang: str) -> str:
        """Every option: the first step forward written out, every other commented beside it."""
        words = self.labels(lang)["template"]
        options = self.options(state, player)
        steps = [o.entry["step"] for o in options if o.kind == "step"]
        lines = [f"turn: {state['turn'] + 1}", f"player: {player}",
                 f"step: {1 if 1 in steps else 0}   # {words['step'].format(top=max(steps, default=0))}"]
        lines += [f"# trip: {o.entry['trip']}   # {words['trip'].format(target=o.entry['trip'])}"
                  for o in options if o.kind == "trip"]
        return "\n".join(lines) + "\n"

    def bot_sheet(self, state: RaceState, player: str, kind: str, chance: Any) -> dict[str, Any]:
        """random: any option; greedy: the longest step."""
        options = self.options(state, player) or [Option("step", {"step": 0})]
        if kind == "greedy":
            pick = max(options, key=lambda o: o.entry.get("step", -1))
        else:
            pick = chance.choice(options, why="bot", label=lambda o: o.entry)
        return self.sheet_for(state, player, pick)

    def summary_for_sim(self, state: RaceState) -> dict[str, Any]:
        return {"sides": self.players(state),
                "score": {r["id"]: r["pos"] for r in state["runners"]},
                "score_label": {"zh": "位置", "en": "position"},
                "units": [{"id": r["id"], "player": r["id"], "side": r["id"], "class": "runner", "alive": True}
                          for r in state["runners"]]}

    # posts: the content of each post; the core renders it (gm_tool.core.posts) ----------------
    def post(self, turn: PostTurn, reader: str | None) -> Post:
        view = self.view(turn.after, reader)
        me = next((r for r in view["runners"] if r["id"] == reader), None)
        sheet = self.template(turn.after, reader, turn.lang) if reader in self.due(turn.after) else None
        return Post("post.j2", {"runners": [[r["id"], cell(r["pos"])] for r in view["runners"]],
                                "next": view["next"], "secret": me["token"] if me else None},
                    picture=lambda: self._picture(view), sheet=sheet)

    def opening_post(self, turn: PostTurn, reader: str | None) -> Post:
        return self.post(turn, reader)

    def _picture(self, view: RaceState) -> bytes:
        painter = GridPainter(view["length"], 1, self.players(view))
        return painter.png([Mark(cell(r["pos"]), r["id"], r["id"][:2]) for r in view["runners"]])

    def amend_actions(self) -> dict[str, AmendAction]:
        return {"set_pos": AmendAction((Arg("runner"), Arg("cell", "int", minimum=0)), {"zh": "移动跑者", "en": "move a runner"})}

    def amend(self, state: RaceState, action: dict[str, Any], source: str) -> tuple[RaceState, list[dict[str, Any]]]:
        runner_id, to = action["args"]
        state = copy.deepcopy(state)
        runner = next((r for r in state["runners"] if r["id"] == runner_id), None)
        if runner is None:
            raise GmError.one("toy.runner", file=source, field="args.0", value=runner_id)
        runner["pos"] = min(to, state["length"] - 1)
        log = EventLog()
        log.emit("gm_set_pos", unit=runner_id, cell=cell(runner["pos"]), reason=action.get("reason", ""))
        return state, log.events


RULESET = Race()


def register() -> None:
    """Make ``toy`` known to the registry (tests only)."""
    core.register(RULESET)

"""A toy sequential ruleset that exercises the whole ruleset seam without any real game.

"Race": two or more runners on a track of ``length`` cells, taking turns in order. On its turn
a runner sends ``step: 1..3`` and moves that far plus one die (forum dice first, then the
seeded generator); the first to reach the last cell wins. A runner who sends nothing passes.
Each runner holds a secret token (a number drawn at setup) that only its player sees: the
leak tests check that it never reaches anyone else. A GM edit ``set-pos RUNNER CELL`` moves a
runner. ``docs/adding-a-ruleset.md`` walks through this file.

Register it (it lives under ``tests/``, not ``gm_tool/rulesets/``) with ``register()``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm_tool.core import ruleset as core
from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.picture import GridPainter, Mark
from gm_tool.core.posts import Post, PostTurn
from gm_tool.core.rules import Switch, check_rules
from gm_tool.core.ruleset import AmendAction, Arg, Hides, MissingSheet, Resolution, RulesetBase, TurnKind
from gm_tool.errors import GmError, Problem


@dataclass(frozen=True)
class RaceOrders:
    player: str
    step: int  # 0: a pass


def _cell(x: int) -> str:
    from gm_tool.core.grid import cell_name

    return cell_name((x, 0))


RaceState = dict[str, Any]  # plain JSON data: turn, length, next, winner, rules, runners


class Race(RulesetBase[RaceState, RaceOrders]):
    name = "toy"
    turn_kind = TurnKind.SEQUENTIAL
    missing_sheet = MissingSheet.PASS
    hides = Hides.HOLDINGS  # each runner's secret number
    bot_kinds = ("random", "greedy")
    uses_dice_file = True
    package_dir = Path(__file__).parent  # templates/ and data/messages.yaml
    switches = (Switch("die", 6, minimum=2, maximum=12, seed="toy rules"),)

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

    def players(self, state: dict[str, Any]) -> list[str]:
        return [r["id"] for r in state["runners"]]

    def due(self, state: dict[str, Any]) -> list[str]:
        return [] if state["winner"] is not None else [state["next"]]

    def parse_orders(self, state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str) -> RaceOrders:
        player, step = sheet.get("player"), sheet.get("step", 0)
        problems = []
        if set(sheet) - {"turn", "player", "step"}:
            problems.append(Problem("field.unknown", source, sorted(set(sheet) - {"turn", "player", "step"})[0],
                                    {"allowed": "turn, player, step"}))
        if sheet.get("turn") != state["turn"] + 1:
            problems.append(Problem("orders.turn", source, "turn", {"got": sheet.get("turn"), "expected": state["turn"] + 1}))
        if player not in self.players(state):
            problems.append(Problem("player.unknown", source, "player", {"player": player,
                                                                         "allowed": ", ".join(self.players(state))}))
        elif player not in self.due(state):
            problems.append(Problem("toy.not_due", source, "player", {"due": ", ".join(self.due(state)) or "-"}))
        if type(step) is not int or not 0 <= step <= 3:
            problems.append(Problem("toy.field", source, "step", {"allowed": "0-3"}))
        if problems:
            raise GmError(problems)
        return RaceOrders(str(player), step)

    def pass_orders(self, state: dict[str, Any], player: str) -> RaceOrders:
        return RaceOrders(player, 0)

    def resolve(self, state: dict[str, Any], orders: dict[str, Any], seed: str,
                dice: list[int] | None = None) -> Resolution:
        state = copy.deepcopy(state)
        state["turn"] += 1
        log = EventLog()
        log.emit("turn", turn=state["turn"])
        forum = list(dice or [])
        chance = Chance(seed, f"turn-{state['turn']}", log)
        (player, o), = orders.items()
        runner = next(r for r in state["runners"] if r["id"] == player)
        if o.step == 0:
            log.emit("pass", unit=player)
        else:
            die = forum.pop(0) if forum else chance.roll(state.get("rules", {}).get("die", 6), why="run")
            runner["pos"] = min(state["length"] - 1, runner["pos"] + o.step + die)
            log.emit("run", unit=player, step=o.step, die=die, cell=_cell(runner["pos"]))
            if runner["pos"] == state["length"] - 1:
                state["winner"] = player
                log.emit("win", unit=player)
        ids = self.players(state)
        state["next"] = ids[(ids.index(player) + 1) % len(ids)]
        return Resolution(state, log.events)

    def view(self, state: dict[str, Any], player: str | None) -> dict[str, Any]:
        out = copy.deepcopy(state)
        if player is not None:
            for r in out["runners"]:
                if r["id"] != player:
                    r["token"] = None
        return out

    def summary(self, view: dict[str, Any], player: str | None, lang: str) -> str:
        return "\n".join(f"{r['id']}: {_cell(r['pos'])}" for r in view["runners"]) + "\n"

    def template(self, state: dict[str, Any], player: str, lang: str) -> str:
        step = 1 if player in self.due(state) else 0
        return f"turn: {state['turn'] + 1}\nplayer: {player}\nstep: {step}   # 0-3 (0: pass)\n"

    def bot_sheet(self, state: dict[str, Any], player: str, kind: str, chance: Any) -> dict[str, Any]:
        step = 3 if kind == "greedy" else chance.roll(4) - 1
        return {"turn": state["turn"] + 1, "player": player, "step": step}

    def summary_for_sim(self, state: dict[str, Any]) -> dict[str, Any]:
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
        return Post("post.j2", {"runners": [[r["id"], _cell(r["pos"])] for r in view["runners"]],
                                "next": view["next"], "secret": me["token"] if me else None},
                    picture=lambda: self._picture(view), sheet=sheet)

    def opening_post(self, turn: PostTurn, reader: str | None) -> Post:
        return self.post(turn, reader)

    def _picture(self, view: dict[str, Any]) -> bytes:
        painter = GridPainter(view["length"], 1, self.players(view))
        return painter.png([Mark(_cell(r["pos"]), r["id"], r["id"][:2]) for r in view["runners"]])

    def amend_actions(self) -> dict[str, AmendAction]:
        return {"set_pos": AmendAction((Arg("runner"), Arg("cell", "int", minimum=0)), {"zh": "移动跑者", "en": "move a runner"})}

    def amend(self, state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        runner_id, cell = action["args"]
        state = copy.deepcopy(state)
        runner = next((r for r in state["runners"] if r["id"] == runner_id), None)
        if runner is None:
            raise GmError.one("toy.runner", file=source, field="args.0", value=runner_id)
        runner["pos"] = min(cell, state["length"] - 1)
        log = EventLog()
        log.emit("gm_set_pos", unit=runner_id, cell=_cell(runner["pos"]), reason=action.get("reason", ""))
        return state, log.events


RULESET = Race()


def register() -> None:
    """Make ``toy`` known to the registry (tests only)."""
    core.register(RULESET)




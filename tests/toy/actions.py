"""The race's two kinds of action, each in one class (gm_tool.core.actions): how a sheet writes
it, what a runner may do now, and what it does.

- ``step: 0..3``: run that many cells plus one die (forum dice first, then the seeded
  generator); ``step: 0`` is a pass. Toy rules: "moves that far plus one die".
- ``trip: RUNNER``: instead of running, trip a runner standing on your cell or the next one:
  it falls back two cells (never behind the start); no die is rolled. Toy rules: "a runner on
  your cell or the next one falls back two cells".

A sheet holds one action at its top level, beside ``turn`` and ``player``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from gm_tool.core.actions import ActionKind, ActionTable, Reading, at
from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog

RaceState = dict[str, Any]  # plain JSON data: turn, length, next, winner, rules, runners
MAX_STEP = 3
TRIP_BACK = 2


@dataclass(frozen=True)
class Step:
    cells: int  # 0: a pass
    kind: ClassVar[str] = "step"


@dataclass(frozen=True)
class Trip:
    target: str
    kind: ClassVar[str] = "trip"


@dataclass
class RaceTurn:
    """One turn being resolved: what an action changes, with the turn's log and luck."""

    state: RaceState
    runner: dict[str, Any]  # the runner acting
    log: EventLog
    chance: Chance
    forum: list[int]  # forum dice not used yet


def cell(x: int) -> str:
    from gm_tool.core.grid import cell_name

    return cell_name((x, 0))


def runner(state: RaceState, rid: str) -> dict[str, Any] | None:
    return next((r for r in state["runners"] if r["id"] == rid), None)


class Run(ActionKind[RaceState, Step, RaceTurn]):
    name = "step"
    aliases = ("步数", "前进")

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[RaceState], path: str) -> Step | None:
        if type(value) is not int or not 0 <= value <= MAX_STEP:
            reading.problem(at(path, self.name), "toy.field", allowed=f"0-{MAX_STEP}")
            return None
        return Step(value)

    def options(self, state: RaceState, actor: str) -> list[dict[str, Any]]:
        return [{self.name: n} for n in range(MAX_STEP + 1)]

    def apply(self, game: RaceTurn, order: Step) -> None:
        me = game.runner
        if order.cells == 0:
            game.log.emit("pass", unit=me["id"])
            return
        die = game.forum.pop(0) if game.forum else game.chance.roll(game.state["rules"].get("die", 6), why="run")
        me["pos"] = min(game.state["length"] - 1, me["pos"] + order.cells + die)
        game.log.emit("run", unit=me["id"], step=order.cells, die=die, cell=cell(me["pos"]))


class TripUp(ActionKind[RaceState, Trip, RaceTurn]):
    name = "trip"
    aliases = ("绊倒",)

    @staticmethod
    def targets(state: RaceState, actor: str) -> list[str]:
        """The runners ``actor`` may trip: on its cell or the next one."""
        me = runner(state, actor)
        if me is None:
            return []
        return [r["id"] for r in state["runners"] if r["id"] != actor and 0 <= r["pos"] - me["pos"] <= 1]

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[RaceState], path: str) -> Trip | None:
        targets = self.targets(reading.state, reading.actor)
        if value not in targets:
            reading.problem(at(path, self.name), "toy.trip", value=value, allowed=", ".join(targets) or "-")
            return None
        return Trip(value)

    def options(self, state: RaceState, actor: str) -> list[dict[str, Any]]:
        return [{self.name: rid} for rid in self.targets(state, actor)]

    def apply(self, game: RaceTurn, order: Trip) -> None:
        target = runner(game.state, order.target)
        assert target is not None  # read() let only a runner through
        target["pos"] = max(0, target["pos"] - TRIP_BACK)
        game.log.emit("trip", unit=game.runner["id"], target=order.target, cell=cell(target["pos"]))


ACTIONS: ActionTable[RaceState, RaceTurn] = ActionTable(Run(), TripUp())

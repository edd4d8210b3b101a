"""The engine of `gm simulate` and `gm sweep`: seeded bot games, batched, played in this process
or on a Dask cluster, merged in game order.

Game-neutral: a game is ``setup`` then, until nobody is ``due`` or ``max_turns`` turns have been
played, the bots' orders for the due players (``bot_orders``) and one ``resolve`` — all on plain
state dicts, with no files and no posts. The ruleset's ``outcome(state)`` says who won (as for
every command), and ``summary_for_sim(state)`` which units (id, player, side, class, alive) took
part, so results can be counted per side, per class and per character without the engine
knowing the game.

A :class:`Plan` is a base scenario and its *cells*: each cell sets a few paths of the scenario
(``rules.decks``, ``players.alice.team.a.unit``) or of the bots (``bots.red``). Games are cut into
batches of consecutive (cell, game) pairs; a batch is one task. :func:`execute` plays them in
this process (``workers=0``), on a Dask ``LocalCluster`` with one worker process per core, or on
an existing cluster (``scheduler="tcp://HOST:PORT"``); Dask and its friends are imported only
here, inside the functions that use them, never by the turn commands.

Determinism: game ``i`` of every cell uses the seed ``f"{seed}:{i}"`` for setup and resolution
and the stream ``bots-N`` of that seed for the bots' choices, so a game is the same whatever
process, machine or batch plays it; each cell's games are handed on in game order once they are
all in, so every result is identical for any number of workers (and cells of one sweep differ
only by what they vary: common random numbers). A worker lost mid-run costs the batch it was
playing (Dask gives it to another worker), not the run.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from gm_tool.errors import USAGE, GmError, Problem
from gm_tool.i18n import register

TIMEOUT = "timeout"
DRAW = "draw"
Z95 = 1.959963984540054
WORDS_FILE = Path(__file__).parent / "data" / "balance.yaml"
MAX_BATCH = 64  # games a task plays at most, by default


@cache
def words() -> dict[str, Any]:
    """The words of simulate and sweep (``data/balance.yaml``)."""
    import yaml

    return yaml.safe_load(WORDS_FILE.read_text("utf-8"))


def labels(lang: str, part: str) -> dict[str, str]:
    table = words()["labels"]
    return dict(table.get(lang, table["en"])[part])


register(words()["messages"])


# configuration ---------------------------------------------------------------------------------
def parse_bots(spec: str | dict[str, Any], ruleset: Any, sides: list[str], players: list[str] | None = None) -> dict[str, str]:
    """Who plays which bot, as ``{side or player: kind}`` plus ``"*"`` for everyone else.

    ``greedy`` -> everyone greedy; ``red=greedy,blue=random`` (or the mapping ``{red: greedy,
    blue: random}``) -> per side or player, anyone not named plays the ruleset's first kind."""
    kinds = tuple(ruleset.bot_kinds)
    allowed = ", ".join(kinds)
    names = [*sides, *(p for p in players or [] if p not in sides)]
    if isinstance(spec, str) and "=" not in spec:
        if spec not in kinds:
            raise GmError.one("simulate.bots", field="--bots", exit_code=USAGE, value=spec, allowed=allowed)
        return {"*": spec}
    if isinstance(spec, str):
        pairs = []
        for part in spec.split(","):
            key, _, kind = part.partition("=")
            pairs.append((key.strip(), kind.strip(), part))
    else:
        pairs = [(str(k), v, f"{k}={v}") for k, v in spec.items()]
    out = {"*": kinds[0]}
    for key, kind, text in pairs:
        if key not in names or kind not in kinds:
            raise GmError.one("simulate.bots", field="--bots", exit_code=USAGE, value=text,
                              allowed=f"{allowed}; {', '.join(names)}")
        out[key] = kind
    return out


def parse_rules(items: list[str] | None) -> dict[str, int | None]:
    """``["max_rounds=20"]`` -> ``{"max_rounds": 20}`` (``none`` clears a knob)."""
    out: dict[str, int | None] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise GmError.one("simulate.rule", field="--rule", exit_code=USAGE, value=item)
        if value.lower() in ("none", "null", "off"):
            out[key] = None
            continue
        try:
            out[key] = int(value)
        except ValueError:
            raise GmError.one("simulate.rule", field="--rule", exit_code=USAGE, value=item) from None
    return out


def with_rules(scenario: dict[str, Any], rules: dict[str, int | None]) -> dict[str, Any]:
    if not rules:
        return scenario
    return {**scenario, "rules": {**(scenario.get("rules") or {}), **rules}}


# paths in a scenario -----------------------------------------------------------------------------
def split_path(path: str) -> list[str]:
    return [part for part in str(path).split(".") if part != ""]


def find_step(node: Any, key: str) -> tuple[Any, Any] | None:
    """Where ``key`` leads from ``node``: ``(container, index)`` or None. A list is entered by
    position (``0``) or by the ``id`` of an item (``characters.artoria``)."""
    if isinstance(node, dict):
        if key not in node and key.lstrip("-").isdigit() and int(key) in node:
            return (node, int(key))  # a mapping keyed by numbers (seats: {1: ...})
        return (node, key)
    if isinstance(node, list):
        if key.isdigit() and int(key) < len(node):
            return (node, int(key))
        for i, item in enumerate(node):
            if isinstance(item, dict) and str(item.get("id")) == key:
                return (node, i)
    return None


def path_problem(scenario: dict[str, Any], path: str) -> tuple[str, list[str]] | None:
    """None if ``path`` can be set in ``scenario``; else where it stops and what that place holds.
    A mapping may lack the key (it is added, and the ruleset's own check of the scenario judges
    it); a list must hold the position or the id, and nothing is found inside a plain value."""
    node: Any = scenario
    parts = split_path(path)
    if not parts:
        return (".", sorted(map(str, scenario)))
    for depth, key in enumerate(parts):
        step = find_step(node, key)
        if step is None:
            at = ".".join(parts[:depth]) or "."
            if isinstance(node, list):
                ids = [str(x["id"]) for x in node if isinstance(x, dict) and "id" in x]
                return (at, ids or [str(i) for i in range(len(node))])
            return (at, [])
        container, index = step
        node = container[index] if isinstance(container, list) or index in container else {}
    return None


def set_path(scenario: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``scenario`` with ``path`` set to ``value``, missing mappings on the way added
    (only the containers on the path are copied; the path must pass :func:`path_problem`)."""
    import copy

    out = dict(scenario)
    node: Any = out
    parts = split_path(path)
    for depth, key in enumerate(parts):
        step = find_step(node, key)
        assert step is not None, path
        container, index = step
        if depth == len(parts) - 1:
            container[index] = copy.deepcopy(value)
        else:
            child = container[index] if isinstance(container, list) or index in container else {}
            container[index] = dict(child) if isinstance(child, dict) else list(child)
            node = container[index]
    return out


# one game --------------------------------------------------------------------------------------
def ruleset_of(name: str, module: str | None = None) -> Any:
    """The ruleset ``name``; one registered outside the package is found through its module."""
    from gm_tool.core import ruleset as registry

    try:
        return registry.get(name)
    except GmError:
        if not module:
            raise
        return importlib.import_module(module).RULESET


class Game:
    """Everything needed to play any game of one cell (built once per process and cell)."""

    def __init__(self, ruleset: Any, scenario: dict[str, Any], source: str, seed: str,
                 bots: str | dict[str, Any], max_turns: int, bot_paths: tuple[tuple[str, Any], ...] = ()):
        self.ruleset = ruleset if not isinstance(ruleset, str) else ruleset_of(ruleset)
        self.scenario, self.source, self.seed = scenario, source, seed
        self.max_turns = max_turns
        first = self.ruleset.setup(scenario, source, f"{seed}:0")
        self.start = self.ruleset.summary_for_sim(first)
        self.sides = list(self.start["sides"])
        players = list(self.ruleset.players(first))
        self.bots = parse_bots(bots, self.ruleset, self.sides, players)
        for path, value in bot_paths:  # ``bots`` (the whole spec) or ``bots.NAME`` (one side or player)
            key = path.partition(".")[2]
            self.bots = ({**self.bots, **parse_bots({key: value}, self.ruleset, self.sides, players), "*": self.bots["*"]}
                         if key else parse_bots(value, self.ruleset, self.sides, players))

    def kind(self, player: str, side_of: dict[str, str]) -> str:
        bots = self.bots
        if player in bots:
            return bots[player]
        # a player whose side no unit names yet (a game starting with an empty board) is matched
        # by name when the sides are the players themselves
        return bots.get(side_of.get(player, player), bots["*"])

    def play(self, i: int, detail: bool = True) -> dict[str, Any]:
        from gm_tool.core.chance import Chance

        rs = self.ruleset
        seed = f"{self.seed}:{i}"
        state = rs.setup(self.scenario, self.source, seed)
        start = rs.summary_for_sim(state)
        side_of = {u["player"]: u["side"] for u in start["units"]}
        turns = 0
        while turns < self.max_turns:
            due = rs.due(state)
            if not due:
                break
            chance = Chance(seed, f"bots-{turns + 1}")
            orders = rs.bot_orders(state, {player: self.kind(player, side_of) for player in due}, chance)
            state = rs.resolve(state, orders, seed).state
            turns += 1
        end = rs.summary_for_sim(state)
        winner = rs.outcome(state).label  # who won comes only from the ruleset's outcome()
        out = {"game": i, "winner": TIMEOUT if winner is None else winner, "turns": turns}
        if detail:
            out["score"] = end.get("score") or {}
            out["units"] = [[u["id"], u["side"], u["class"], bool(u["alive"])] for u in end["units"]]
        return out


# the plan and its batches -----------------------------------------------------------------------
@dataclass
class Plan:
    """A run: the base scenario, its cells (``((path, value), ...)`` each; a path ``bots`` or
    ``bots.NAME`` sets a bot) and ``games`` games a cell. Sent once to every worker."""

    ruleset: str
    module: str
    rules_version: int
    scenario: dict[str, Any]
    source: str
    seed: str
    bots: str | dict[str, Any]
    max_turns: int
    games: int
    cells: list[tuple[tuple[str, Any], ...]] = field(default_factory=lambda: [()])
    detail: bool = False
    _games: dict[int, Game] = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_games"}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__dict__.update(data, _games={})

    def cell_setup(self, cell: int) -> tuple[dict[str, Any], tuple[tuple[str, Any], ...]]:
        """The scenario of ``cell`` and the bot paths it sets."""
        scenario = self.scenario
        for path, value in self.cells[cell]:
            if split_path(path)[0] != "bots":
                scenario = set_path(scenario, path, value)
        return scenario, tuple((p, v) for p, v in self.cells[cell] if split_path(p)[0] == "bots")

    def game(self, cell: int) -> Game:
        game = self._games.get(cell)
        if game is None:
            if len(self._games) > 64:
                self._games.clear()
            scenario, bot_paths = self.cell_setup(cell)
            game = self._games[cell] = Game(ruleset_of(self.ruleset, self.module), scenario, self.source,
                                            self.seed, self.bots, self.max_turns, bot_paths)
        return game


Segment = tuple[int, int, int]  # (cell, first game, end game)


_FROZEN = False


def _quiet_gc() -> None:
    """Once per process: move everything loaded so far (in a Dask worker, Dask itself: tens of
    thousands of objects) out of the cyclic collector's way, so its collections during the games
    walk the games' objects only (bench_sweep E1: a worker's CPU for the same games +23% -> -1%
    against a plain loop)."""
    global _FROZEN
    if not _FROZEN:
        import gc

        gc.collect()
        gc.freeze()
        _FROZEN = True


def play_batch(plan: Plan, segments: list[Segment], worker: bool = False) -> list[Any]:
    """A task: play the games of ``segments``; returns per segment ``(cell, sides, results)``, or
    one ``("error", cell, problems)`` when a cell's scenario is refused."""
    if worker:  # a process of its own (a Dask worker), not the caller's
        _quiet_gc()
    rs = ruleset_of(plan.ruleset, plan.module)
    if int(rs.rules_version) != plan.rules_version:
        return [("version", rs.rules_version)]
    out: list[Any] = []
    for cell, first, end in segments:
        try:
            game = plan.game(cell)
            results = [game.play(i, plan.detail) for i in range(first, end)]
        except GmError as exc:
            return [("error", cell, exc.problems)]
        out.append((cell, game.sides, results))
    return out


def batches(plan: Plan, cells: list[int], size: int) -> list[list[Segment]]:
    """The games of ``cells``, in order, cut into tasks of ``size`` games."""
    tasks: list[list[Segment]] = []
    current: list[Segment] = []
    room = size
    for cell in cells:
        first = 0
        while first < plan.games:
            take = min(room, plan.games - first)
            current.append((cell, first, first + take))
            first += take
            room -= take
            if room == 0:
                tasks.append(current)
                current, room = [], size
    if current:
        tasks.append(current)
    return tasks


def batch_size(total_games: int, workers: int, requested: int | None = None) -> int:
    """Games per task: at least 8 tasks a worker (so a slow or lost one costs little), at most
    :data:`MAX_BATCH` games (a task of a few seconds at most), unless asked."""
    if requested:
        return max(1, requested)
    return max(1, min(MAX_BATCH, math.ceil(total_games / (max(1, workers) * 8))))


# executing a plan ---------------------------------------------------------------------------------
def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@contextmanager
def dask_client(workers: int, scheduler: str | None) -> Iterator[Any]:
    """A Dask client: on the cluster at ``scheduler``, or on a LocalCluster of ``workers`` worker
    processes (one thread each) that is shut down, with its processes, when the block ends."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler:
        _reachable(scheduler)
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise GmError.one("simulate.scheduler", field="--scheduler", exit_code=USAGE, address=scheduler,
                              reason=str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
        with client:
            try:
                client.wait_for_workers(1, timeout=60)
            except TimeoutError:
                raise GmError.one("simulate.no_workers", field="--scheduler", address=scheduler, seconds=60) from None
            yield client
        return
    # dashboard_address ":0": the scheduler's web page (always served) on a free port of 127.0.0.1
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.ERROR, host="127.0.0.1") as cluster, Client(cluster) as client:
        yield client


def _reachable(address: str) -> None:
    """Fail at once, clearly, when nothing listens at a tcp:// address (Dask's own client would
    retry until its time-out)."""
    import socket
    from urllib.parse import urlsplit

    def fail(reason: str) -> GmError:
        return GmError.one("simulate.scheduler", field="--scheduler", exit_code=USAGE, address=address, reason=reason)

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in ("tcp", "tls"):
        return  # another transport (ucx, inproc): Dask's client says what is wrong
    try:
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise fail(str(exc)) from None
    if not host or not port:
        raise fail("tcp://HOST:PORT")
    try:
        socket.create_connection((host, port), timeout=10).close()
    except OSError as exc:
        raise fail(exc.strerror or str(exc)) from None


def execute(plan: Plan, cells: list[int], on_cell: Callable[[int, list[str], list[dict[str, Any]]], None], *,
            workers: int = 0, scheduler: str | None = None, batch: int | None = None,
            on_games: Callable[[int], None] | None = None, client: Any = None) -> None:
    """Play every game of ``cells``; call ``on_cell(cell, sides, results)`` once a cell's games are
    all in (results in game order) and ``on_games(k)`` as games finish. ``workers=0`` without a
    scheduler plays in this process; otherwise on Dask (``client`` given: that one)."""
    remaining = {c: plan.games for c in cells}
    got: dict[int, list[dict[str, Any]]] = {c: [] for c in cells}

    def take(out: list[Any]) -> None:
        if out and out[0][0] == "version":
            raise GmError.one("simulate.worker_version", ruleset=plan.ruleset, mine=plan.rules_version, theirs=out[0][1])
        if out and out[0][0] == "error":
            _, cell, problems = out[0]
            raise CellError(cell, problems)
        for cell, sides, results in out:
            got[cell].extend(results)
            remaining[cell] -= len(results)
            if on_games:
                on_games(len(results))
            if remaining[cell] == 0:
                done = sorted(got.pop(cell), key=lambda r: r["game"])
                on_cell(cell, sides, done)

    if client is None and not scheduler and workers <= 0:
        for task in batches(plan, cells, batch_size(len(cells) * plan.games, 1, batch)):
            take(play_batch(plan, task))
        return
    if client is not None:
        _run_on(client, plan, cells, batch, take)
        return
    with dask_client(workers, scheduler) as own:
        _run_on(own, plan, cells, batch, take)


class CellError(Exception):
    """A cell whose scenario the ruleset refused (raised by :func:`execute`)."""

    def __init__(self, cell: int, problems: list[Problem]):
        super().__init__(cell)
        self.cell, self.problems = cell, problems


def _run_on(client: Any, plan: Plan, cells: list[int], batch: int | None, take: Callable[[list[Any]], None]) -> None:
    """Submit the batches a few at a time (about three per worker in flight), hand on results as
    they come; cancel what is left if anything fails."""
    from distributed import as_completed
    from distributed.client import FutureCancelledError

    try:
        from distributed.scheduler import KilledWorker
    except ImportError:  # pragma: no cover
        from distributed import KilledWorker  # type: ignore[no-redef]

    nworkers = max(1, len(client.scheduler_info().get("workers", {})))
    tasks = iter(batches(plan, cells, batch_size(len(cells) * plan.games, nworkers, batch)))
    shared = client.scatter(plan, broadcast=True)
    pending = as_completed()
    for task in _take(tasks, 3 * nworkers + 2):
        pending.add(client.submit(play_batch, shared, task, True, pure=False))
    try:
        for future in pending:
            try:
                out = future.result()
            except KilledWorker as exc:
                raise GmError.one("simulate.lost", reason=str(exc).splitlines()[0][:200]) from None
            future.release()
            take(out)
            for task in _take(tasks, 1):
                pending.add(client.submit(play_batch, shared, task, True, pure=False))
    except BaseException:
        try:
            client.cancel(list(pending.futures))
        except (FutureCancelledError, OSError, RuntimeError):
            pass
        raise


def _take(it: Iterator[Any], n: int) -> list[Any]:
    out = []
    for _ in range(n):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out


def plan_for(ruleset: Any, scenario: dict[str, Any], source: str, *, seed: str, bots: Any, max_turns: int,
             games: int, cells: list[tuple[tuple[str, Any], ...]] | None = None, detail: bool = False) -> Plan:
    return Plan(ruleset=ruleset.name, module=type(ruleset).__module__, rules_version=int(ruleset.rules_version),
                scenario=scenario, source=source, seed=seed, bots=bots, max_turns=max_turns, games=games,
                cells=cells if cells is not None else [()], detail=detail)


def play_all(ruleset_name: str, scenario: dict[str, Any], source: str, *, games: int, seed: str,
             bots: str = "random", max_turns: int = 50, workers: int = 0, scheduler: str | None = None,
             batch: int | None = None, progress: Callable[[int], None] | None = None,
             client: Any = None) -> list[dict[str, Any]]:
    """Play games ``0..games-1`` of one scenario; return their results in game order, whatever
    ``workers`` is (0: in this process; N: a Dask LocalCluster of N processes)."""
    rs = ruleset_of(ruleset_name)
    plan = plan_for(rs, scenario, source, seed=seed, bots=bots, max_turns=max_turns, games=games, detail=True)
    plan.game(0)  # bad input fails here, not inside a worker
    results: list[dict[str, Any]] = []
    execute(plan, [0], lambda cell, sides, done: results.extend(done), workers=workers, scheduler=scheduler,
            batch=batch, on_games=progress, client=client)
    return results


# statistics ------------------------------------------------------------------------------------
def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(wins: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {"n": n, "wins": wins, "rate": round(wins / n, 4) if n else 0.0, "ci95": [round(lo, 4), round(hi, 4)]}


def summarise(results: list[dict[str, Any]], sides: list[str]) -> dict[str, Any]:
    """Win rates per side, per class and per character, with Wilson 95% intervals.

    A unit "wins" a game its side won. Draws and timeouts (games still running at ``max_turns``)
    count as games not won by anyone."""
    n = len(results)
    outcome = {key: 0 for key in (*sides, DRAW, TIMEOUT)}
    for r in results:
        outcome[r["winner"]] = outcome.get(r["winner"], 0) + 1
    side_rows = []
    for side in sides:
        scores = [r["score"].get(side, 0) for r in results]
        side_rows.append({"side": side, **_rate(outcome.get(side, 0), n),
                          "mean_score": round(sum(scores) / n, 2) if n else 0.0})
    groups: dict[str, dict[tuple, list[int]]] = {"class": {}, "character": {}}
    for r in results:
        for uid, side, cls, alive in r["units"]:
            won = int(r["winner"] == side)
            for kind, key in (("class", (cls,)), ("character", (uid, side, cls))):
                acc = groups[kind].setdefault(key, [0, 0, 0])
                acc[0] += 1
                acc[1] += won
                acc[2] += int(alive)
    classes = [{"class": k[0], **_rate(v[1], v[0]), "survived": round(v[2] / v[0], 4)}
               for k, v in sorted(groups["class"].items())]
    characters = [{"id": k[0], "side": k[1], "class": k[2], **_rate(v[1], v[0]), "survived": round(v[2] / v[0], 4)}
                  for k, v in groups["character"].items()]
    turns = [r["turns"] for r in results]
    return {
        "games": n, "outcomes": outcome, "mean_turns": round(sum(turns) / n, 2) if n else 0.0,
        "sides": side_rows, "classes": classes, "characters": characters,
        "per_game": [{"game": r["game"], "winner": r["winner"], "turns": r["turns"]} for r in results],
    }


def run(scenario_ref: str, *, games: int, seed: str = "sim", bots: str = "random", max_turns: int = 50,
        workers: int = 0, scheduler: str | None = None, batch: int | None = None,
        rules: dict[str, int | None] | None = None, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Load a scenario (bundled name or file), play ``games`` games, return the report (plain data,
    identical for any ``workers``, in this process or on a cluster)."""
    from gm_tool.app import _ruleset_of, load_scenario

    scenario, source = load_scenario(scenario_ref)
    scenario = with_rules(scenario, rules or {})
    ruleset = _ruleset_of(scenario, source)
    plan = plan_for(ruleset, scenario, source, seed=seed, bots=bots, max_turns=max_turns, games=games, detail=True)
    game = plan.game(0)  # bad input fails here, not inside a worker
    results: list[dict[str, Any]] = []
    execute(plan, [0], lambda cell, sides, done: results.extend(done), workers=workers, scheduler=scheduler,
            batch=batch, on_games=progress)
    start = game.start
    return {"scenario": scenario.get("name", scenario_ref), "ruleset": ruleset.name, "seed": seed,
            "bots": bots, "max_turns": max_turns, "rules": rules or {},
            "labels": {k: start[k] for k in LABEL_KEYS if k in start}, **summarise(results, game.sides)}


# text ------------------------------------------------------------------------------------------
# what a ruleset may name in summary_for_sim ({"zh": ..., "en": ...} each): its units' classes,
# its units and its score
LABEL_KEYS = ("class_label", "unit_label", "score_label")


def width(text: str) -> int:
    return sum(2 if "\u2e80" <= ch <= "\uffff" else 1 for ch in text)


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(width(str(x)) for x in col) for col in zip(headers, *rows)]

    def line(cells: list[str]) -> str:
        return "  ".join(str(c) + " " * (w - width(str(c))) for c, w in zip(cells, widths)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def render(report: dict[str, Any], lang: str = "zh") -> str:
    t = labels(lang, "simulate")
    names = report.get("labels") or {}
    for key, label in (("class", "class_label"), ("character", "unit_label")):
        if isinstance(names.get(label), dict) and names[label].get(lang):
            t[key] = names[label][lang]
    if isinstance(names.get("score_label"), dict) and names["score_label"].get(lang):
        t["score"] = t["mean_score"].format(label=names["score_label"][lang])
    out = [t["title"].format(**report), ""]
    oc = report["outcomes"]
    out.append(f"{t['outcomes']}: " + ", ".join(
        f"{t.get(k, k) if k in (DRAW, TIMEOUT) else k} {v}" for k, v in oc.items())
        + f"; {t['mean_turns']}: {report['mean_turns']}")
    out.append("")
    ci = lambda r: f"[{_pct(r['ci95'][0])}, {_pct(r['ci95'][1])}]"  # noqa: E731
    out.append(_table([t["side"], t["n"], t["wins"], t["rate"], t["ci"], t["score"]],
                      [[r["side"], r["n"], r["wins"], _pct(r["rate"]), ci(r), f"{r['mean_score']:.1f}"]
                       for r in report["sides"]]))
    out.append("")
    out.append(_table([t["class"], t["n"], t["wins"], t["rate"], t["ci"], t["survived"]],
                      [[r["class"], r["n"], r["wins"], _pct(r["rate"]), ci(r), _pct(r["survived"])]
                       for r in report["classes"]]))
    out.append("")
    out.append(_table([t["character"], t["side"], t["class"], t["wins"], t["rate"], t["ci"], t["survived"]],
                      [[r["id"], r["side"], r["class"], r["wins"], _pct(r["rate"]), ci(r), _pct(r["survived"])]
                       for r in report["characters"]]))
    out.append("")
    out.append(t["note"])
    return "\n".join(out) + "\n"

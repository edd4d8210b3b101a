"""gm-tool benchmarks: the same figures for every ruleset, on this machine.

    python3 bench/bench.py --ruleset grail_war     # one ruleset (~1 min)
    python3 bench/bench.py                         # every ruleset, one after the other (~4 min)
    python3 bench/bench.py --ruleset hunlu --only turn,games --json   # a subset; JSON last line

For each ruleset, on the scenarios of its row in BENCHES (its default scenario unless said):

turn     in-process turn: ``ruleset.resolve`` on a state and parsed orders, over the first turns
         of a greedy-bot game (each turn timed ``--turn-reps`` times): the median turn, and the
         heaviest (the turn whose median is largest). Target <= 1 ms.
games    random-bot full games per second of CPU time on one core, played as `gm simulate` plays
         them (gm_tool.simulate, in process: setup, bot_orders, resolve until nobody is due or
         max_turns), in a child process; the wall-clock rate too. Target >= 50 (the grail war's
         skirmish: 100).
resolve  `gm resolve` of a campaign a few turns in (greedy-bot sheets stored for the turn;
         posts and pictures written) as a whole process, against the import floor
         ``python -c "import yaml, jinja2, typer, markdown_it"``, run interleaved after one
         warm-up of each: medians and their ratio by the wall clock and by CPU time (user + sys
         of each child). Target <= 1.5.
memory   peak RSS of that `gm resolve` against the floor's (goal <= 1.3x), and of the games child.
scale    (the grail war only) a generated 200x140 map with 100 and with 1,000 characters: one
         resolve with a random-bot sheet each (median of a few runs) and the ratio
         t(1000)/t(100), in a child process (which raises the scenario bounds of issue 16, made
         for GMs, not for the engine). Targets: 1,000 <= 1 s, ratio <= 12.

Children are started from a small launcher process, so a child's peak RSS is its own, and run
this checkout's code with cached bytecode, as an installed `gm` does.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FLOOR = [sys.executable, "-c", "import yaml, jinja2, typer, markdown_it"]
PARTS = ("turn", "games", "resolve", "scale")


@dataclass(frozen=True)
class Bench:
    """Where one ruleset is measured: the scenario of the turn and `gm resolve` figures (None:
    its default scenario), the games' scenario and rules (so that every game ends), and the
    targets."""

    scenario: str | None = None
    games_scenario: str | None = None
    games_rules: dict[str, Any] = field(default_factory=dict)
    games: int = 100
    max_turns: int = 1000
    resolve_turn: int = 4  # `gm resolve` times this turn, the ones before played by greedy bots
    turns: int = 16  # the turn figure: the first turns of a greedy game
    targets: dict[str, float] = field(default_factory=lambda: {"turn_ms": 1.0, "games_s": 50.0})


TARGETS = {"resolve_ratio": 1.5, "memory_ratio": 1.3, "scale_1000_s": 1.0, "scale_ratio": 12.0}
BENCHES: dict[str, Bench] = {
    "grail_war": Bench("fuyuki", "skirmish", {"territory_after": 20}, games=300, max_turns=50,
                       targets={"turn_ms": 1.0, "games_s": 100.0}),
    "hunlu": Bench("hunzhan", "hunlu_duel", games=40, max_turns=400, resolve_turn=1),
    "guangying": Bench("standard", games=100, resolve_turn=11),
    "shenjianglu": Bench("shenjianglu", games=100),
}


# helpers ---------------------------------------------------------------------------------------
def commit() -> str:
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=10", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + (" (+ uncommitted changes)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"


# Children are started by a small launcher process: a child's ru_maxrss counts the memory of the
# process it was forked from (before exec), so forking from this process (gm_tool loaded) would
# inflate every child's peak to this process's size.
LAUNCHER = r"""
import json, os, subprocess, sys, time
out = []
for cmd, env in json.load(sys.stdin):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    stdout, stderr = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    out.append([time.perf_counter() - start, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status),
                stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace")[-2000:],
                usage.ru_utime + usage.ru_stime])
json.dump(out, sys.stdout)
"""


def run_batch_cpu(cmds: list[tuple[list[str], dict[str, str] | None]]) -> list[tuple[float, float, str, float]]:
    """Run processes one after the other; return (wall seconds, peak RSS in MB, stdout, CPU seconds)
    of each. CPU is the child's user + system time (``os.wait4``): what the process itself cost,
    which other work on a shared machine does not inflate the way it inflates the wall clock."""
    launched = subprocess.run([sys.executable, "-c", LAUNCHER], input=json.dumps(cmds), capture_output=True,
                              text=True, check=True)
    results = []
    for (cmd, _), (wall, peak, rc, out, err, cpu) in zip(cmds, json.loads(launched.stdout)):
        if rc != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({rc}):\n{err}")
        results.append((wall, peak, out, cpu))
    return results


def run_batch(cmds: list[tuple[list[str], dict[str, str] | None]]) -> list[tuple[float, float, str]]:
    """Run processes one after the other; return (wall seconds, peak RSS in MB, stdout) of each."""
    return [r[:3] for r in run_batch_cpu(cmds)]


def interleaved(floor_runs: list, runs: list) -> dict:
    """Medians of interleaved floor and command runs (tuples of :func:`run_batch_cpu`): wall time,
    CPU time and peak RSS of each, and the command's ratios to the floor."""
    med = statistics.median
    f_wall, f_cpu, f_mem = med(r[0] for r in floor_runs), med(r[3] for r in floor_runs), med(r[1] for r in floor_runs)
    wall, cpu, mem = med(r[0] for r in runs), med(r[3] for r in runs), med(r[1] for r in runs)
    return {"resolve_s": wall, "floor_s": f_wall, "ratio": wall / f_wall,
            "resolve_cpu_s": cpu, "floor_cpu_s": f_cpu, "cpu_ratio": cpu / f_cpu,
            "resolve_peak_mb": mem, "floor_peak_mb": f_mem, "mem_ratio": mem / f_mem}


def run_child(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    return run_batch([(cmd, env)])[0]


def gm_command() -> list[str]:
    """`gm` as installed runs ``gm_tool.entry:main``; ``python -m gm_tool`` runs the same function and
    is sure to run this checkout's code (PYTHONPATH below), whatever is installed."""
    return [sys.executable, "-m", "gm_tool"]


PYCACHE = Path(tempfile.gettempdir()) / "gm-bench-pycache"


def child_env() -> dict[str, str]:
    """As a user runs gm: bytecode cached (here in a private prefix, so a sandbox's
    PYTHONDONTWRITEBYTECODE does not make every run compile gm_tool from source)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
           "GM_LANG": "zh", "PYTHONPYCACHEPREFIX": str(PYCACHE)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed(fn: Any, reps: int) -> list[float]:
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def bot_orders(rs: Any, state: dict, seed: str, kind: str = "random") -> dict:
    """The due players' orders from bot sheets, as `gm simulate` builds them."""
    from gm_tool.core.chance import Chance

    return rs.bot_orders(state, {p: kind for p in rs.due(state)}, Chance(seed, f"bots-{state['turn'] + 1}"))


# one ruleset's setting ----------------------------------------------------------------------------
def bench_of(name: str) -> Bench:
    return BENCHES.get(name, Bench())


def load(name: str, games: bool = False) -> tuple[Any, str, dict[str, Any], str]:
    """(ruleset, scenario name, scenario mapping, source) of the turn and resolve figures, or of
    the games (their rules laid on)."""
    from gm_tool import app
    from gm_tool import simulate as sim
    from gm_tool.core import ruleset as registry

    rs, b = registry.get(name), bench_of(name)
    ref = (b.games_scenario if games else None) or b.scenario or rs.default_scenario
    data, source = app.load_scenario(ref)
    if games and b.games_rules:
        data = sim.with_rules(data, b.games_rules)
    return rs, ref, data, source


# turn -------------------------------------------------------------------------------------------
def turn(name: str, reps: int) -> dict[str, Any]:
    rs, ref, data, source = load(name)
    seed = "bench"
    state = rs.setup(data, source, seed)
    timings = []  # (median seconds, turn, events)
    for n in range(1, bench_of(name).turns + 1):
        if not rs.due(state):
            break
        orders = bot_orders(rs, state, seed, rs.bot_kinds[-1])
        result = rs.resolve(state, orders, seed)
        runs = timed(lambda s=state, o=orders: rs.resolve(s, o, seed), reps)
        timings.append((statistics.median(runs), n, len(result.events)))
        state = result.state
    heavy = max(timings)
    return {"scenario": ref, "bot": rs.bot_kinds[-1], "turns": len(timings), "reps": reps,
            "turn_ms": statistics.median(t for t, _, _ in timings) * 1e3,
            "heaviest_ms": heavy[0] * 1e3, "heaviest_turn": heavy[1], "heaviest_events": heavy[2]}


# games ------------------------------------------------------------------------------------------
def games_measure(name: str) -> dict[str, Any]:
    """In the child process: random-bot games with gm simulate's engine, in this process."""
    from gm_tool import simulate as sim

    rs, ref, data, source = load(name, games=True)
    b = bench_of(name)
    t, cpu = time.perf_counter(), time.process_time()
    results = sim.play_all(rs.name, data, source, games=b.games, seed="bench", bots="random",
                           max_turns=b.max_turns, workers=0)
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    turns = sum(r["turns"] for r in results)
    return {"scenario": ref, "rules": b.games_rules, "games": len(results), "games_per_cpu_s": len(results) / cpu,
            "games_per_s": len(results) / wall, "mean_turns": turns / len(results),
            "unfinished": sum(1 for r in results if r["winner"] == sim.TIMEOUT), "max_turns": b.max_turns}


def games(name: str) -> dict[str, Any]:
    _, peak, out = run_child([sys.executable, str(Path(__file__)), "--child", "games", "--ruleset", name], child_env())
    return {**json.loads(out.strip().splitlines()[-1]), "peak_mb": peak}


# resolve (and memory) ---------------------------------------------------------------------------
def resolve(name: str, reps: int) -> dict[str, Any]:
    from gm_tool import app
    from gm_tool.core.chance import Chance
    from gm_tool.core.store import atomic_write, dump_yaml

    rs, ref, _, _ = load(name)
    at = bench_of(name).resolve_turn
    tmp = Path(tempfile.mkdtemp(prefix=f"gm-bench-{name}-"))
    try:
        base = tmp / "base"
        app.new_campaign(base, ref, "bench-seed-0123456789abcdef", "zh")
        sheets = 0
        for n in range(1, at + 1):  # greedy bots play up to the measured turn, whose sheets are stored
            state = app.open_campaign(base).state()
            if not rs.due(state):
                raise SystemExit(f"the game ended before turn {at}")
            chance = Chance("bench", f"bots-{n}")
            for p in rs.due(state):
                sheet = tmp / "sheets" / f"{n}-{p}.yaml"
                atomic_write(sheet, dump_yaml(rs.bot_sheet(state, p, rs.bot_kinds[-1], chance)))
                app.submit(base, sheet, "zh")
                sheets += n == at
            if n < at:
                app.resolve(base)
        env, gm = child_env(), gm_command()
        cmds: list[tuple[list[str], dict[str, str] | None]] = []
        for i in range(reps + 1):  # the first pair warms the file cache and the bytecode
            shutil.copytree(base, tmp / f"c{i}")
            cmds += [(FLOOR, env), ([*gm, "resolve", str(tmp / f"c{i}")], env)]
        runs = run_batch_cpu(cmds)[2:]
        return {**interleaved(runs[0::2], runs[1::2]), "scenario": ref, "turn": at, "sheets": sheets, "runs": reps,
                "command": "python -m gm_tool resolve DIR"}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# scale (the grail war) ----------------------------------------------------------------------------
def generated_scenario(n: int, width: int = 200, height: int = 140, seed: int = 1) -> dict:
    """A width x height map (rivers, high ground, one stronghold per 20x20 block) with ``n``
    characters, half a side, spread at random over the ground (cell capacity respected)."""
    import random

    from gm_tool.core.grid import cell_name

    rng = random.Random(seed)
    rows = [["."] * width for _ in range(height)]
    for x0 in range(30, width, 50):  # north-south rivers, 2 wide, with fords every 35 rows
        for y in range(height):
            if y % 35 not in (17, 18):
                rows[y][x0] = rows[y][x0 + 1] = "~"
    for _ in range(width * height // 400):  # hills
        cx, cy = rng.randrange(width), rng.randrange(height)
        for y in range(max(0, cy - 2), min(height, cy + 3)):
            for x in range(max(0, cx - 2), min(width, cx + 3)):
                if rows[y][x] == ".":
                    rows[y][x] = "^"
    kinds = ["hand", "equipment", "heal", "vision", "teleport"]
    strongholds = []
    sid = 0
    for by in range(0, height, 20):
        for bx in range(0, width, 20):
            centre = (bx + 10, by + 10)
            if rows[centre[1]][centre[0]] == "~":
                continue
            sid += 1
            territory = [cell_name((x, y)) for y in range(by + 8, by + 13) for x in range(bx + 8, bx + 13)
                         if rows[y][x] != "~"]
            strongholds.append({"id": sid, "name": f"S{sid}", "pos": cell_name(centre), "kind": kinds[sid % 5],
                                "territory": territory})
    classes = ["SABER", "ARCHER", "LANCER", "RIDER", "CASTER", "ASSASSIN", "BERSERKER"]
    ground = [(x, y) for y in range(height) for x in range(width) if rows[y][x] != "~"]
    used: set = set()
    characters = []
    for i in range(n):
        while True:
            pos = rng.choice(ground)
            if pos not in used:
                used.add(pos)
                break
        characters.append({"id": f"c{i}", "name": f"C{i}", "class": classes[i % 7], "side": ("red", "blue")[i % 2],
                           "player": f"p{i}", "pos": cell_name(pos)})
    return {"ruleset": "grail_war", "name": f"generated-{width}x{height}-{n}", "sides": ["red", "blue"],
            "map": {"width": width, "height": height, "rows": ["".join(r) for r in rows], "strongholds": strongholds},
            "characters": characters}


def _past_scenario_bounds() -> None:
    """The scale figure measures how the engine scales, with more characters than a GM's scenario may hold
    since issue 16 (``MAX_CHARACTERS`` 200, characters x cells <= ``MAX_CHARACTER_CELLS``: bounds
    set for the posts, which draw a map per player; P3 times resolution only) and than ten
    copies of the deck can deal to (ruling C33: 1,000 opening hands take 6,000 cards, 68 copies;
    ``rules.decks: auto`` adds copies until the deal takes at most half, so 135). Raised in the
    scale child process only; equipment ids moved above the extra copies' card ids."""
    from gm_tool.rulesets.grail_war import scenario

    scenario.MAX_CHARACTERS = max(scenario.MAX_CHARACTERS, 1000)
    scenario.MAX_CHARACTER_CELLS = max(scenario.MAX_CHARACTER_CELLS, 1000 * 200 * 140)
    scenario.MAX_DECKS = max(scenario.MAX_DECKS, 200)
    scenario.EQUIPMENT_BASE_ID = max(scenario.EQUIPMENT_BASE_ID, 100_000)


def scale_measure(n: int, reps: int) -> dict:
    from gm_tool.core import ruleset as registry

    _past_scenario_bounds()
    rs = registry.get("grail_war")
    t = time.perf_counter()
    state = rs.setup(generated_scenario(n), "generated", "bench")
    orders = bot_orders(rs, state, "bench", "random")
    prep = time.perf_counter() - t
    times = timed(lambda: rs.resolve(state, orders, "bench"), reps)
    events = rs.resolve(state, orders, "bench").events
    return {"characters": n, "resolve_s": statistics.median(times), "setup_and_sheets_s": prep,
            "fights": sum(1 for e in events if e["type"] == "fight"), "events": len(events), "reps": reps}


def scale() -> dict:
    """The grail war's engine on a big generated map, in a child process (its peak RSS its own)."""
    _, peak, out = run_child([sys.executable, str(Path(__file__)), "--child", "scale", "--ruleset", "grail_war"],
                             child_env())
    data = json.loads(out.strip().splitlines()[-1])
    small, big = data["100"], data["1000"]
    return {"t100_s": small["resolve_s"], "t1000_s": big["resolve_s"], "ratio": big["resolve_s"] / small["resolve_s"],
            "peak_mb": peak, "fights_100": small["fights"], "fights_1000": big["fights"],
            "events_1000": big["events"], "prep_1000_s": big["setup_and_sheets_s"]}


# main -------------------------------------------------------------------------------------------
def part(label: str, fn: Any, *args: Any) -> Any:
    """Run one part; a failure is printed and the other parts still run."""
    try:
        return fn(*args)
    except (Exception, SystemExit) as exc:
        print(f"  {label} FAILED: {type(exc).__name__}: {str(exc).strip()[-400:]}", flush=True)
        return None


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def report(name: str, only: set[str], reps: int, turn_reps: int) -> dict[str, Any]:
    """Every figure of one ruleset, printed as it comes."""
    b = bench_of(name)
    out: dict[str, Any] = {}
    print(f"{name}", flush=True)
    if "turn" in only and (r := part("turn", turn, name, turn_reps)):
        out["turn"] = r
        print(f"  turn     {r['scenario']}, {r['bot']} bots, first {r['turns']} turns: median {r['turn_ms']:.3f} ms "
              f"(heaviest: turn {r['heaviest_turn']}, {r['heaviest_events']} events, {r['heaviest_ms']:.3f} ms)   "
              f"target <= {b.targets['turn_ms']} ms: {verdict(r['turn_ms'] <= b.targets['turn_ms'])}", flush=True)
    if "games" in only and (r := part("games", games, name)):
        out["games"] = r
        rules = "".join(f", {k} {v}" for k, v in r["rules"].items())
        print(f"  games    {r['scenario']}{rules}, random bots, {r['games']} games: {r['games_per_cpu_s']:.1f} per CPU "
              f"second ({r['games_per_s']:.1f} by the wall clock), {r['mean_turns']:.1f} turns a game, "
              f"{r['unfinished']} cut at {r['max_turns']} turns   target >= {b.targets['games_s']:.0f}: "
              f"{verdict(r['games_per_cpu_s'] >= b.targets['games_s'])}", flush=True)
    if "resolve" in only and (r := part("resolve", resolve, name, reps)):
        out["resolve"] = r
        print(f"  resolve  gm resolve of {r['scenario']} turn {r['turn']} ({r['sheets']} sheet(s), posts written), "
              f"{r['runs']} runs each, interleaved: wall {r['resolve_s'] * 1e3:.0f} ms vs floor {r['floor_s'] * 1e3:.0f} = "
              f"{r['ratio']:.2f}; CPU {r['resolve_cpu_s'] * 1e3:.0f} vs {r['floor_cpu_s'] * 1e3:.0f} = {r['cpu_ratio']:.2f}   "
              f"target <= {TARGETS['resolve_ratio']}: {verdict(r['cpu_ratio'] <= TARGETS['resolve_ratio'])}", flush=True)
    if "resolve" in only or "games" in only:
        res, gam = out.get("resolve"), out.get("games")
        line = []
        if res:
            line.append(f"gm resolve {res['resolve_peak_mb']:.1f} MB vs floor {res['floor_peak_mb']:.1f} MB = "
                        f"{res['mem_ratio']:.2f} (goal <= {TARGETS['memory_ratio']}: "
                        f"{verdict(res['mem_ratio'] <= TARGETS['memory_ratio'])})")
        if gam:
            line.append(f"games child {gam['peak_mb']:.1f} MB")
        if line:
            out["memory"] = {"resolve_peak_mb": res and res["resolve_peak_mb"], "floor_peak_mb": res and res["floor_peak_mb"],
                             "ratio": res and res["mem_ratio"], "games_peak_mb": gam and gam["peak_mb"]}
            print(f"  memory   peak RSS: {'; '.join(line)}", flush=True)
    if "scale" in only and name == "grail_war" and (r := part("scale", scale)):
        out["scale"] = r
        print(f"  scale    generated 200x140 map, one turn: 100 characters {r['t100_s'] * 1e3:.1f} ms; 1,000 characters "
              f"{r['t1000_s'] * 1e3:.1f} ms ({r['fights_1000']} fights, {r['events_1000']} events); ratio {r['ratio']:.1f}; "
              f"peak {r['peak_mb']:.1f} MB   targets: 1,000 <= {TARGETS['scale_1000_s']} s "
              f"{verdict(r['t1000_s'] <= TARGETS['scale_1000_s'])}, ratio <= {TARGETS['scale_ratio']:.0f} "
              f"{verdict(r['ratio'] <= TARGETS['scale_ratio'])}", flush=True)
    return out


def main() -> None:
    from gm_tool.core import ruleset as registry

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--ruleset", action="append", help="a ruleset to measure (again for more; default: every one)")
    ap.add_argument("--only", default=",".join(PARTS), help=f"a comma-separated subset of {', '.join(PARTS)}")
    ap.add_argument("--reps", type=int, default=15, help="gm resolve and import floor runs of each (default 15)")
    ap.add_argument("--turn-reps", type=int, default=100, help="runs of each turn for the turn figure (default 100)")
    ap.add_argument("--json", action="store_true", help="also print every figure as one JSON line")
    ap.add_argument("--child", choices=("games", "scale"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    names = args.ruleset or registry.available()
    if args.child == "games":
        print(json.dumps(games_measure(names[0])))
        return
    if args.child == "scale":
        # medians of 15 and 9 runs (the 1,000-character turn varies by ~10% run to run on a shared VM)
        print(json.dumps({"100": scale_measure(100, 15), "1000": scale_measure(1000, 9)}))
        return
    unknown = [n for n in names if n not in registry.available()]
    if unknown:
        raise SystemExit(f"unknown ruleset {', '.join(unknown)}; allowed: {', '.join(registry.available())}")
    only = {x.strip().lower() for x in args.only.split(",")}
    started = time.perf_counter()
    head = {"commit": commit(), "python": platform.python_version(),
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, {platform.processor() or '?'}",
            "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else None}
    print(f"gm-tool bench: commit {head['commit']}; Python {head['python']}; {head['machine']}; load {head['load']}")
    print(f"command: python3 bench/bench.py {' '.join(sys.argv[1:])}   (from {ROOT})", flush=True)
    figures = {name: report(name, only, args.reps, args.turn_reps) for name in names}
    total = time.perf_counter() - started
    print(f"bench finished in {total:.0f} s")
    if args.json:
        print(json.dumps({**head, "rulesets": figures, "seconds": total}))


if __name__ == "__main__":
    main()

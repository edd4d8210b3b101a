"""魂陆 speed bars (issue 12): one general-turn resolved in process (median, target <= 1 ms),
random-bot full games per second on one core (target >= 50), and `gm resolve` as a whole process
against the import floor (target <= 1.5x; wall clock and CPU time, interleaved, as bench/bench.py
P1). Run: .venv/bin/python bench/bench_hunlu.py"""

from __future__ import annotations

import importlib.util
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm_tool import app  # noqa: E402
from gm_tool.core import ruleset as registry  # noqa: E402
from gm_tool.core.chance import Chance  # noqa: E402
from gm_tool.core.store import atomic_write, dump_yaml  # noqa: E402

RS = registry.get("hunlu")


def states(seed: str = "bench", limit: int = 60):
    """(state, orders) pairs of a bot game on the default scenario."""
    data, src = app.load_scenario(RS.default_scenario)
    state = RS.setup(data, src, seed)
    out = []
    for n in range(1, limit + 1):
        if not RS.due(state):
            break
        chance = Chance(seed, f"bots-{n}")
        orders = {p: RS.parse_orders(state, RS.bot_sheet(state, p, "random", chance), "b.yaml", "en") for p in RS.due(state)}
        out.append((state, orders))
        state = RS.resolve(state, orders, seed).state
    return out


def turn_median() -> float:
    pairs = states()
    times = []
    for state, orders in pairs:
        t = time.perf_counter()
        RS.resolve(state, orders, "bench")
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def games_per_second(games: int = 20, scenario: str = "hunlu_duel") -> float:
    """Random-bot games to the end on the small duel (the 13x13 hunzhan for information)."""
    data, src = app.load_scenario(scenario)  # read once, as gm simulate does
    t = time.process_time()  # CPU time of this process: games per second per core, whatever the load
    for g in range(games):
        state = RS.setup(data, src, f"g{g}")
        n = 0
        while RS.due(state) and n < 400:
            n += 1
            chance = Chance(f"g{g}", f"bots-{n}")
            orders = RS.bot_orders(state, {p: "random" for p in RS.due(state)}, chance)  # as gm simulate
            state = RS.resolve(state, orders, f"g{g}").state
    return games / (time.process_time() - t)


def _bench_helpers():
    """bench/bench.py's launcher, import floor and child environment."""
    spec = importlib.util.spec_from_file_location("gm_bench", ROOT / "bench" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def process_ratio(runs: int = 15, sheet: bool = False) -> dict:
    """`gm resolve` of turn 1 of a new hunzhan campaign (the due general passes, or with ``sheet``
    plays a greedy bot's sheet) as a whole process against the import floor of bench/bench.py P1,
    interleaved, after one warm-up of each: medians of wall clock, CPU time (user + sys) and
    peak RSS. Children run with cached bytecode (bench.py's environment), as an installed `gm`
    does; without it (``PYTHONDONTWRITEBYTECODE`` and no ``__pycache__`` in the checkout) every
    run compiled gm_tool from source first."""
    h = _bench_helpers()
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-hunlu-"))
    try:
        base = tmp / "base"
        app.new_campaign(base, RS.default_scenario, "hunlu-bench-seed-0123456789abcdef", "zh")
        if sheet:
            op = app.open_campaign(base)
            state = op.state()
            for p in RS.due(state):
                path = tmp / "sheets" / f"1-{p}.yaml"
                atomic_write(path, dump_yaml(RS.bot_sheet(state, p, "greedy", Chance("bench", "bots-1"))))
                app.submit(base, path, "zh")
        env, gm = h.child_env(), h.gm_command()
        cmds = []
        for i in range(runs + 1):  # the first pair warms the file cache and the bytecode
            shutil.copytree(base, tmp / f"c{i}")
            cmds += [(h.FLOOR, env), ([*gm, "resolve", str(tmp / f"c{i}")], env)]
        done = h.run_batch_cpu(cmds)[2:]
        return {**h.interleaved(done[0::2], done[1::2]), "runs": runs}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    print(f"general-turn resolve, median: {turn_median():.3f} ms (target <= 1 ms)")
    print(f"random-bot full games, hunlu_duel: {games_per_second():.1f} per second of CPU (target >= 50)")
    print(f"random-bot full games, hunzhan (information): {games_per_second(5, 'hunzhan'):.1f} per second of CPU")
    for label, with_sheet in (("turn 1, the general passes", False), ("turn 1, a greedy bot's sheet", True)):
        r = process_ratio(sheet=with_sheet)
        print(f"gm resolve process ({label}; {r['runs']} runs each, interleaved): wall {r['resolve_s'] * 1000:.0f} ms, "
              f"{r['ratio']:.2f}x the import floor ({r['floor_s'] * 1000:.0f} ms); CPU {r['resolve_cpu_s'] * 1000:.0f} ms, "
              f"{r['cpu_ratio']:.2f}x ({r['floor_cpu_s'] * 1000:.0f} ms) (target <= 1.5x: "
              f"{'ok' if max(r['ratio'], r['cpu_ratio']) <= 1.5 else 'MISSED'}); peak RSS {r['resolve_peak_mb']:.1f} MB, "
              f"{r['mem_ratio']:.2f}x ({r['floor_peak_mb']:.1f} MB)")

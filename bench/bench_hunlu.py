"""魂陆 speed bars (issue 12): one general-turn resolved in process (median, target <= 1 ms),
random-bot full games per second on one core (target >= 50), and `gm resolve` as a whole process
against the import floor (target <= 1.5x). Run: .venv/bin/python bench/bench_hunlu.py"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gm_tool import app
from gm_tool.core import ruleset as registry
from gm_tool.core.chance import Chance

RS = registry.get("hunlu")
ROOT = Path(__file__).resolve().parent.parent


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


def process_ratio(runs: int = 5) -> tuple[float, float]:
    gm = str(ROOT / ".venv" / "bin" / "gm")
    floor, whole = [], []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import yaml, jinja2, typer, markdown_it"], check=True)  # bench.py P1 floor
        floor.append(time.perf_counter() - t)
        d = Path(tempfile.mkdtemp()) / "c"
        subprocess.run([gm, "new", str(d), "--scenario", RS.default_scenario, "--seed", "hunlu-bench-seed-0123456789abcdef"], check=True,
                       capture_output=True)
        t = time.perf_counter()
        subprocess.run([gm, "resolve", str(d)], check=True, capture_output=True)
        whole.append(time.perf_counter() - t)
        shutil.rmtree(d.parent)
    return statistics.median(whole), statistics.median(whole) / statistics.median(floor)


if __name__ == "__main__":
    print(f"general-turn resolve, median: {turn_median():.3f} ms (target <= 1 ms)")
    print(f"random-bot full games, hunlu_duel: {games_per_second():.1f} per second of CPU (target >= 50)")
    print(f"random-bot full games, hunzhan (information): {games_per_second(5, 'hunzhan'):.1f} per second of CPU")
    secs, ratio = process_ratio()
    print(f"gm resolve process: {secs * 1000:.0f} ms, {ratio:.2f}x the import floor (target <= 1.5x)")

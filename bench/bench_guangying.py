"""光与影 (guangying) benchmarks, against the bars of issue 13.

    python3 bench/bench_guangying.py          # ~20 s; prints B1-B3
    python3 bench/bench_guangying.py --json   # the same figures as one JSON object (last line)

B1  one turn resolved in process (ruleset.resolve on a mid-game state and parsed greedy orders,
    the turn with the most events of a greedy game): median, bar <= 1 ms.
B2  random-bot full games per second on one core (bot_orders and resolve, as `gm simulate`
    plays, to the end of each game on the bundled scenario): bar >= 50.
B3  `gm resolve` of a mid-game turn as a whole process (posts and picture written) against the
    import floor `python -c "import yaml, jinja2, typer, markdown_it"`, interleaved: median ratio,
    bar <= 1.5, by the wall clock and by CPU time (user + sys of each child). The helpers
    (launcher, environment) are bench/bench.py's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

BARS = {"b1_ms": 1.0, "b2_games_s": 50.0, "b3_ratio": 1.5}


def _bench_helpers():
    spec = importlib.util.spec_from_file_location("gm_bench", ROOT / "bench" / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _play(rs, state, seed: str, kinds: dict[str, str], limit: int = 1000):
    """Yield (state, orders) of each turn until the game ends."""
    from gm_tool.core.chance import Chance

    for n in range(limit):
        due = rs.due(state)
        if not due:
            return
        p = due[0]
        chance = Chance(seed, f"bots-{n}")
        orders = rs.bot_orders(state, {p: kinds[p]}, chance)  # as `gm simulate` does
        yield state, orders
        state = rs.resolve(state, orders, seed).state


def b1(reps: int) -> dict:
    from gm_tool import app
    from gm_tool.rulesets.guangying import RULESET as rs

    data, source = app.load_scenario("standard")
    start = rs.setup(data, source, "bench")
    kinds = {p: "greedy" for p in rs.players(start)}
    best = max(_play(rs, start, "bench", kinds), key=lambda so: len(rs.resolve(so[0], so[1], "bench").events))
    state, orders = best
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        rs.resolve(state, orders, "bench")
        times.append(time.perf_counter() - t)
    return {"median_ms": statistics.median(times) * 1000, "events": len(rs.resolve(state, orders, "bench").events),
            "turn": state["turn"] + 1}


def b2(games: int) -> dict:
    from gm_tool import app
    from gm_tool.rulesets.guangying import RULESET as rs

    data, source = app.load_scenario("standard")
    turns = 0
    t, cpu = time.perf_counter(), time.process_time()
    for g in range(games):
        start = rs.setup(data, source, f"g{g}")
        kinds = {p: "random" for p in rs.players(start)}
        turns += sum(1 for _ in _play(rs, start, f"g{g}", kinds))
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    # per core: games over the CPU time this process got (the wall rate too, for a quiet machine)
    return {"games_s": games / cpu, "games_s_wall": games / wall, "games": games, "turns_per_game": turns / games}


def b3(reps: int) -> dict:
    from gm_tool import app
    from gm_tool.core.chance import Chance
    from gm_tool.core.store import atomic_write, dump_yaml

    h = _bench_helpers()
    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-gy-"))
    try:
        base = tmp / "base"
        app.new_campaign(base, "standard", "bench-guangying-seed-0123456789", "zh")
        for n in range(1, 12):
            op = app.open_campaign(base)
            state = op.state()
            p = op.ruleset.due(state)[0]
            sheet = tmp / "sheets" / f"{n}.yaml"
            atomic_write(sheet, dump_yaml(op.ruleset.bot_sheet(state, p, "greedy", Chance("b", str(n)))))
            app.submit(base, sheet, "zh")
            if n < 11:
                app.resolve(base)
        env = h.child_env()
        gm = h.gm_command()
        copies = []
        for i in range(reps + 1):
            dst = tmp / f"c{i}"
            shutil.copytree(base, dst)
            copies.append(dst)
        cmds = []
        for d in copies:
            cmds += [(h.FLOOR, env), ([*gm, "resolve", str(d)], env)]
        runs = h.run_batch_cpu(cmds)[2:]
        return {**h.interleaved(runs[0::2], runs[1::2]), "reps": reps}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args()
    quick = args.quick
    out = {"b1": b1(200 if quick else 1000), "b2": b2(30 if quick else 200), "b3": b3(5 if quick else 15)}
    ok = {"b1": out["b1"]["median_ms"] <= BARS["b1_ms"], "b2": out["b2"]["games_s"] >= BARS["b2_games_s"],
          "b3": out["b3"]["ratio"] <= BARS["b3_ratio"]}
    print(f"B1 one turn in process: {out['b1']['median_ms']:.3f} ms median (turn {out['b1']['turn']}, "
          f"{out['b1']['events']} events); bar <= {BARS['b1_ms']} ms: {'ok' if ok['b1'] else 'MISSED'}")
    print(f"B2 random-bot games: {out['b2']['games_s']:.1f} games/s of CPU ({out['b2']['games_s_wall']:.1f} of wall "
          f"time), {out['b2']['turns_per_game']:.1f} turns a game; "
          f"bar >= {BARS['b2_games_s']}: {'ok' if ok['b2'] else 'MISSED'}")
    print(f"B3 gm resolve process: {out['b3']['resolve_s'] * 1000:.0f} ms vs floor {out['b3']['floor_s'] * 1000:.0f} ms, "
          f"ratio {out['b3']['ratio']:.2f}; bar <= {BARS['b3_ratio']}: {'ok' if ok['b3'] else 'MISSED'}")
    print(f"B3 CPU time (user + sys): {out['b3']['resolve_cpu_s'] * 1000:.0f} ms vs floor "
          f"{out['b3']['floor_cpu_s'] * 1000:.0f} ms, ratio {out['b3']['cpu_ratio']:.2f}: "
          f"{'ok' if out['b3']['cpu_ratio'] <= BARS['b3_ratio'] else 'MISSED'}; peak RSS "
          f"{out['b3']['resolve_peak_mb']:.1f} vs {out['b3']['floor_peak_mb']:.1f} MB ({out['b3']['mem_ratio']:.2f})")
    if args.json:
        print(json.dumps({**out, "ok": ok}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

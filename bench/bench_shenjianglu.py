"""神将录 benchmarks (issue 11's bars), for this machine.

    python3 bench/bench_shenjianglu.py          # ~20 s
    python3 bench/bench_shenjianglu.py --json   # the figures as one JSON object (last line)

S1  one turn resolved in process (ruleset.resolve on a state and parsed orders) on the bundled
    scenario `shenjianglu`, a greedy-bot sheet with summons, moves and attacks: median over the
    first 12 turns of a game, each timed many times. Target <= 1 ms.
S2  random-bot full games per second on one core (setup, bot orders, resolve until the game is
    over, as `gm simulate` plays them), bundled `shenjianglu`: games per second of the process's
    CPU time (the wall-clock figure is printed too). Target >= 50 games/s.
S3  `gm resolve` of a 神将录 turn as a whole process (posts and pictures written) against the import
    floor, interleaved, medians and their ratio by the wall clock and by CPU time (user + sys of
    each child) (the helpers of bench/bench.py). Target <= 1.5.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import bench as common  # noqa: E402  (bench/bench.py: process launcher, import floor, child env)

TARGETS = {"s1_ms": 1.0, "s2_games_s": 50.0, "s3_ratio": 1.5}
SCENARIO = "shenjianglu"


def _rs():
    from gm_tool.core import ruleset as registry

    return registry.get("shenjianglu")


def _start(seed: str, loaded: tuple | None = None):
    from gm_tool import app as ops

    data, source = loaded or ops.load_scenario(SCENARIO)
    return _rs().setup(data, source, seed)


def s1(turns: int = 12, reps: int = 200) -> dict:
    from gm_tool.core.chance import Chance

    rs = _rs()
    state = _start("bench")
    medians = []
    for n in range(turns):
        if not rs.due(state):
            break
        p = rs.due(state)[0]
        orders = {p: rs.parse_orders(state, rs.bot_sheet(state, p, "greedy", Chance("bench", f"b{n}")), "b", "en")}
        medians.append(statistics.median(common.timed(lambda s=state, o=orders: rs.resolve(s, o, "bench"), reps)))
        state = rs.resolve(state, orders, "bench").state
    return {"turn_ms": statistics.median(medians) * 1e3, "turns": len(medians), "reps": reps}


def s2(games: int = 100) -> dict:
    from gm_tool import app as ops
    from gm_tool.core.chance import Chance

    rs = _rs()
    turns = 0
    loaded = ops.load_scenario(SCENARIO)  # as `gm simulate` does: the scenario is read once
    start, cpu = time.perf_counter(), time.process_time()
    for g in range(games):
        seed = f"g{g}"
        state = _start(seed, loaded)
        n = 0
        while rs.due(state) and n < 1000:
            n += 1
            chance = Chance(seed, f"bots-{n}")
            state = rs.resolve(state, rs.bot_orders(state, {p: "random" for p in rs.due(state)}, chance), seed).state
        turns += n
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    # per core: games per second of this process's CPU time (on a busy machine the wall clock
    # also counts other processes' turns on the core)
    return {"games_s": games / cpu, "games_s_wall": games / wall, "games": games, "mean_turns": turns / games}


def s3(reps: int = 9) -> dict:
    from gm_tool import app as ops
    from gm_tool.core.chance import Chance
    from gm_tool.core.store import atomic_write, dump_yaml

    tmp = Path(tempfile.mkdtemp(prefix="gm-bench-sjl-"))
    try:
        base = tmp / "base"
        ops.new_campaign(base, SCENARIO, "bench", "zh")
        for n in range(1, 5):
            op = ops.open_campaign(base)
            state = op.state()
            for p in op.ruleset.due(state):
                sheet = tmp / "sheets" / f"{n}-{p}.yaml"
                atomic_write(sheet, dump_yaml(op.ruleset.bot_sheet(state, p, "greedy", Chance("bench", f"b{n}"))))
                ops.submit(base, sheet, "zh")
            if n < 4:
                ops.resolve(base)
        env = common.child_env()
        gm = common.gm_command()
        copies = []
        for i in range(reps + 1):
            shutil.copytree(base, tmp / f"c{i}")
            copies.append(tmp / f"c{i}")
        cmds = [(common.FLOOR, env), ([*gm, "resolve", str(copies[0])], env)]
        for d in copies[1:]:
            cmds += [(common.FLOOR, env), ([*gm, "resolve", str(d)], env)]
        runs = common.run_batch_cpu(cmds)[2:]
        return {**common.interleaved(runs[0::2], runs[1::2]), "reps": reps}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r1, r2, r3 = s1(), s2(), s3()
    ok1, ok2, ok3 = r1["turn_ms"] <= TARGETS["s1_ms"], r2["games_s"] >= TARGETS["s2_games_s"], r3["ratio"] <= TARGETS["s3_ratio"]
    print(f"S1 one turn in process: median {r1['turn_ms']:.3f} ms over {r1['turns']} turns "
          f"(target <= {TARGETS['s1_ms']} ms) {'ok' if ok1 else 'MISSED'}")
    print(f"S2 random-bot games: {r2['games_s']:.1f} games per CPU-second on one core ({r2['games_s_wall']:.1f} by the "
          f"wall clock), {r2['mean_turns']:.1f} turns a game "
          f"(target >= {TARGETS['s2_games_s']}) {'ok' if ok2 else 'MISSED'}")
    print(f"S3 gm resolve {r3['resolve_s'] * 1e3:.0f} ms, import floor {r3['floor_s'] * 1e3:.0f} ms, ratio "
          f"{r3['ratio']:.2f} (target <= {TARGETS['s3_ratio']}) {'ok' if ok3 else 'MISSED'}")
    print(f"S3 CPU time (user + sys): gm resolve {r3['resolve_cpu_s'] * 1e3:.0f} ms, import floor "
          f"{r3['floor_cpu_s'] * 1e3:.0f} ms, ratio {r3['cpu_ratio']:.2f} "
          f"{'ok' if r3['cpu_ratio'] <= TARGETS['s3_ratio'] else 'MISSED'}; peak RSS {r3['resolve_peak_mb']:.1f} vs "
          f"{r3['floor_peak_mb']:.1f} MB ({r3['mem_ratio']:.2f})")
    if args.json:
        print(json.dumps({"s1": r1, "s2": r2, "s3": r3}))


if __name__ == "__main__":
    main()

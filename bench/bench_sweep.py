"""The balance engine (`gm simulate` / `gm sweep` on Dask) and the built-in bots, for
docs/performance.md and docs/balance.md.

    python3 bench/bench_sweep.py                 # E1-E2, then B1 (a few minutes)
    python3 bench/bench_sweep.py --only E        # the engine only
    python3 bench/bench_sweep.py --only B --games 200

E1  engine overhead: the same random-bot skirmish games (rules.territory_after 20, as P4) played
    by a plain in-process loop (``Game.play``), by the engine in this process (``workers=0``)
    and by the engine on a Dask LocalCluster of one worker process; games per second of each,
    the cluster's start and stop timed apart (a sweep pays them once).
E2  scaling: the same games on LocalClusters of 1 and 2 worker processes; the ratio.
B1  the bots: for every ruleset's bundled scenarios, the share of games the greedy bot wins
    against the random one (greedy on each side in turn; a timeout is not a win), and the share
    of greedy-greedy games that end before the turn limit.

Every figure is printed with the machine's load average before and after (2 cores shared with
other work make the wall clock lie; say how loaded it was).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# scenario -> turn limit for B1 (the bundled scenarios the bots are held to)
# (a turn: every player moves in the grail war and 神将录, one general acts in 魂陆, one player in 光与影)
BOT_SCENARIOS = {"skirmish": 50, "fuyuki": 50, "hunlu_duel": 200, "hunzhan": 200, "standard": 100,
                 "shenjianglu": 50, "shenjianglu-4": 50}
TARGETS = {"overhead": 0.10, "scaling": 1.8, "greedy_beats_random": 0.90, "fuyuki_ends": 0.90}


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (1 min), {five:.2f} (5 min)"


def skirmish_plan(games: int):
    from gm_tool import simulate as sim
    from gm_tool.app import _ruleset_of, load_scenario

    data, source = load_scenario("skirmish")
    data = sim.with_rules(data, {"territory_after": 20})
    rs = _ruleset_of(data, source)
    return sim.plan_for(rs, data, source, seed="bench", bots="random", max_turns=50, games=games)


def _worker_cpu(client) -> float:
    """CPU seconds (user + system) the cluster's worker processes have used so far."""
    if client is None:
        return 0.0

    def cpu() -> float:
        import psutil

        t = psutil.Process().cpu_times()
        return t.user + t.system

    return sum(client.run(cpu).values())


def run_engine(plan, client=None, workers: int = 0) -> tuple[float, list, float]:
    """Wall seconds, results, and CPU seconds (this process and the workers) of one run."""
    from gm_tool import simulate as sim

    out: list = []
    c0, w0 = time.process_time(), _worker_cpu(client)
    t = time.perf_counter()
    sim.execute(plan, [0], lambda cell, sides, done: out.extend(done), workers=workers, client=client)
    wall = time.perf_counter() - t
    return wall, out, time.process_time() - c0 + _worker_cpu(client) - w0


def cluster(n: int):
    from distributed import Client, LocalCluster

    t = time.perf_counter()
    lc = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=logging.ERROR, host="127.0.0.1")
    client = Client(lc)
    client.run(lambda: __import__("gm_tool.rulesets.grail_war"))  # warm: what a first batch would import
    return lc, client, time.perf_counter() - t


def close(lc, client) -> float:
    t = time.perf_counter()
    client.close()
    lc.close()
    return time.perf_counter() - t


def engine(games: int, rounds: int = 3) -> dict:
    """Medians of ``rounds`` interleaved rounds (plain loop, engine in process, 1 worker, 2
    workers), each of ``games`` games; both clusters started first and warmed by a round of 100
    games (a worker process starts with cold caches, as the plain loop's first games do)."""
    import statistics

    before = load()
    game = skirmish_plan(games).game(0)
    for i in range(100):  # warm this process's caches too
        game.play(i, False)
    lc1, client1, t_start1 = cluster(1)
    lc2, client2, t_start2 = cluster(2)
    for client in (client1, client2):
        run_engine(skirmish_plan(100), client)
    rows: dict[str, list[tuple[float, float]]] = {"plain": [], "inproc": [], "one": [], "two": []}
    results = {}
    try:
        for _ in range(rounds):
            c0, t = time.process_time(), time.perf_counter()
            plain = [game.play(i, False) for i in range(games)]
            rows["plain"].append((time.perf_counter() - t, time.process_time() - c0))
            for name, client in (("inproc", None), ("one", client1), ("two", client2)):
                wall, out, cpu = run_engine(skirmish_plan(games), client)
                rows[name].append((wall, cpu))
                results[name] = out
    finally:
        t_close1, t_close2 = close(lc1, client1), close(lc2, client2)
    key = lambda rs: [(r["winner"], r["turns"]) for r in rs]  # noqa: E731
    same = key(plain) == key(results["inproc"]) == key(results["one"]) == key(results["two"])
    wall = {k: statistics.median(w for w, _ in v) for k, v in rows.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in rows.items()}
    return {"games": games, "rounds": rounds, "plain_s": wall["plain"], "inproc_s": wall["inproc"],
            "one_s": wall["one"], "two_s": wall["two"], "plain_cpu_s": cpu["plain"], "inproc_cpu_s": cpu["inproc"],
            "one_cpu_s": cpu["one"], "two_cpu_s": cpu["two"], "start1_s": t_start1, "close1_s": t_close1,
            "start2_s": t_start2, "close2_s": t_close2,
            "overhead_inproc": wall["inproc"] / wall["plain"] - 1, "overhead_one": wall["one"] / wall["plain"] - 1,
            "overhead_one_with_start": (wall["one"] + (t_start1 + t_close1) / rounds) / wall["plain"] - 1,
            "overhead_one_cpu": cpu["one"] / cpu["plain"] - 1, "overhead_two_cpu": cpu["two"] / cpu["plain"] - 1,
            "scaling": wall["one"] / wall["two"], "identical": same, "load_before": before, "load_after": load(),
            "rows": rows}


def bots(games: int, workers: int, only: list[str] | None = None) -> dict:
    from gm_tool import simulate as sim
    from gm_tool.app import _ruleset_of, load_scenario

    out = {}
    for name, turns in BOT_SCENARIOS.items():
        if only and name not in only:
            continue
        data, source = load_scenario(name)
        rs = _ruleset_of(data, source)
        a, b = sim.Game(rs, data, source, "bench", "random", 1).sides[:2]
        won = 0
        for me, other in ((a, b), (b, a)):
            r = sim.run(name, games=games, seed="bench-bots", bots=f"{me}=greedy,{other}=random", max_turns=turns,
                        workers=workers)
            won += r["outcomes"][me]
        gg = sim.run(name, games=games, seed="bench-bots", bots="greedy", max_turns=turns, workers=workers)
        out[name] = {"ruleset": rs.name, "games": games, "turns": turns, "greedy_beats_random": won / (2 * games),
                     "greedy_games_end": 1 - gg["outcomes"]["timeout"] / games, "greedy_mean_turns": gg["mean_turns"]}
        print(f"B1 {name} ({rs.name}, {games} games a pairing, at most {turns} turns): greedy beats random "
              f"{won}/{2 * games} = {won / (2 * games):.0%}; greedy-greedy games ending in time "
              f"{out[name]['greedy_games_end']:.0%} (mean {gg['mean_turns']} turns)", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="E,B", help="E (engine), B (bots) or both")
    ap.add_argument("--engine-games", type=int, default=1000, help="games a round of E1/E2 (default 1000)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds of E1/E2 (default 3)")
    ap.add_argument("--games", type=int, default=100, help="games a pairing in B1 (default 100)")
    ap.add_argument("--scenarios", default="", help="B1 on these scenarios only (comma-separated)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    only = {x.strip().upper() for x in args.only.split(",")}
    print(f"bench_sweep: {os.cpu_count()} CPUs; {load()}", flush=True)
    result: dict = {}
    if "E" in only:
        e = result["engine"] = engine(args.engine_games, args.rounds)
        n = e["games"]
        print(f"E1 {n} random-bot skirmish games a round, medians of {e['rounds']} interleaved rounds: plain loop {n / e['plain_s']:.1f} games/s; engine in process "
              f"{n / e['inproc_s']:.1f} (overhead {e['overhead_inproc']:+.1%}); engine on 1 Dask worker "
              f"{n / e['one_s']:.1f} (overhead {e['overhead_one']:+.1%}; with the cluster's start "
              f"{e['start1_s']:.1f} s and stop {e['close1_s']:.1f} s spread over the rounds: {e['overhead_one_with_start']:+.1%}) "
              f"(target <= {TARGETS['overhead']:.0%})")
        print(f"E1 CPU seconds (this process + the workers): plain {e['plain_cpu_s']:.1f}, in process "
              f"{e['inproc_cpu_s']:.1f}, 1 worker {e['one_cpu_s']:.1f} ({e['overhead_one_cpu']:+.1%}), 2 workers "
              f"{e['two_cpu_s']:.1f} ({e['overhead_two_cpu']:+.1%})")
        print(f"E2 2 Dask workers {n / e['two_s']:.1f} games/s against 1 worker {n / e['one_s']:.1f}: "
              f"x{e['scaling']:.2f} (target >= {TARGETS['scaling']}); results identical: {e['identical']}; "
              f"before: {e['load_before']}, after: {e['load_after']}", flush=True)
    if "B" in only:
        result["bots"] = bots(args.games, 2, [x for x in args.scenarios.split(",") if x])
        print(f"B1 {load()}")
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()

"""How the cost of `gm check`, `gm status` and `gm resolve` grows with the input (issue 16).

Each measure doubles (or quadruples) one size and prints the time and the growth exponent
between successive sizes: log(t2 / t1) / log(n2 / n1). 1 is linear, 2 quadratic. The sizes go
up to the bounds the tool enforces (``gm_tool.rulesets.grail_war.scenario.MAX_CELLS`` and
``MAX_CHARACTERS``, ``safeyaml.MAX_BYTES``), so the last row is the worst a GM can ask for.

    .venv/bin/python bench/bench_growth.py            # all, ~1 min on the CI machine
    .venv/bin/python bench/bench_growth.py check      # one measure

Figures of one run (2-core VM shared with other jobs, so +-50% between runs), growth exponent
in brackets:

    gm check, unknown keys     3,750: 0.08 s   15,000: 0.33 s (1.0-1.3)   60,000: 1.8 s (1.4)
                               (before issue 16: 6,000 keys 4.3 s, 60,000 keys 556 s: exponent 2)
    gm status, players            25: 0.001 s     100: 0.002 s           200: 0.005 s (0.5-1.0)
                               (before: 200 players 0.09 s, exponent 1.3-2.5: the default
                               summary of each missing player rebuilt the game)
    gm resolve, players on 60x60  25: 0.3 s       100: 2.6 s (1.2)       200: 5.6 s (1.1)
    gm resolve, cells (8 players) 625: 0.09 s  10,000: 0.8 s (0.9)    40,000: 3.4 s (1.0)
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm_tool import app  # noqa: E402
from gm_tool.core.store import dump_yaml  # noqa: E402
from gm_tool.errors import GmError  # noqa: E402

CLASSES = ["SABER", "ARCHER", "LANCER", "RIDER", "CASTER", "ASSASSIN", "BERSERKER"]


def scenario(width: int, height: int, players: int) -> dict[str, Any]:
    """An open map with ``players`` characters (one each, two sides) spread over it, two per
    cell at most, so the turn has movement, meetings and fights."""
    cells = [(x, y) for y in range(0, height, 2) for x in range(0, width, 2)]
    step = max(1, len(cells) // players)
    chars = []
    for i in range(players):
        x, y = cells[(i * step) % len(cells)]
        col = ""
        n = x
        while True:
            col = chr(65 + n % 26) + col
            n = n // 26 - 1
            if n < 0:
                break
        chars.append({"id": f"c{i}", "name": f"N{i}", "class": CLASSES[i % len(CLASSES)],
                      "side": "red" if i % 2 else "blue", "player": f"p{i}", "pos": f"{col}{y + 1}"})
    return {"ruleset": "grail_war", "name": "growth", "sides": ["red", "blue"],
            "map": {"width": width, "height": height, "rows": ["." * width] * height, "strongholds": [], "tunnels": []},
            "characters": chars}


def campaign(tmp: Path, width: int, height: int, players: int) -> Path:
    src = tmp / f"s-{width}x{height}-{players}.yaml"
    src.write_text(dump_yaml(scenario(width, height, players)), "utf-8")
    d = tmp / f"c-{width}x{height}-{players}"
    if not d.exists():
        app.new_campaign(d, str(src), "bench-growth-seed-0123456789abcdef")
    return d


def turn(d: Path) -> None:
    """Compute turn 1 (default orders, every post and picture), writing nothing."""
    op = app.open_campaign(d)
    app.compute_turn(op, op.campaign.load_state(0), 1, "bench-growth-seed-0123456789abcdef")


def timed(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def table(title: str, unit: str, rows: list[tuple[int, float]]) -> None:
    print(f"\n{title}")
    print(f"  {unit:>12}  {'seconds':>9}  growth")
    prev = None
    for n, t in rows:
        growth = "" if prev is None else f"{math.log(t / prev[1]) / math.log(n / prev[0]):.2f}"
        print(f"  {n:>12,}  {t:>9.3f}  {growth}")
        prev = (n, t)


def bench_check(tmp: Path) -> None:
    """`gm check` of a sheet of N unknown keys (every key a problem, each given its line)."""
    d = campaign(tmp, 20, 14, 4)
    op = app.open_campaign(d)
    rows = []
    for n in (3_750, 7_500, 15_000, 30_000, 60_000):
        sheet = tmp / f"wide-{n}.yaml"
        sheet.write_text("turn: 1\nplayer: p0\n" + "".join(f"k{i}: {i}\n" for i in range(n)), "utf-8")

        def run(sheet: Path = sheet) -> None:
            try:
                app.check_files(op, [sheet], "en")
            except GmError as exc:
                exc.render("en")

        rows.append((n, timed(run, 1)))
    table("gm check: a sheet of N unknown keys", "keys", rows)


def bench_status(tmp: Path) -> None:
    """`gm status` with N players, none of whom has sent a sheet (each gets a default summary)."""
    rows = []
    for n in (25, 50, 100, 200):
        d = campaign(tmp, 60, 60, n)
        rows.append((n, timed(lambda d=d: app.status(d, "en"), 2)))
    table("gm status: N players, all missing", "players", rows)


def bench_resolve_players(tmp: Path) -> None:
    """`gm resolve` of a turn (default orders, every post and picture) with N players on 60x60."""
    rows = []
    for n in (25, 50, 100, 200):
        d = campaign(tmp, 60, 60, n)
        rows.append((n, timed(lambda d=d: turn(d), 1)))
    table("gm resolve: N players on a 60x60 map", "players", rows)


def bench_resolve_map(tmp: Path) -> None:
    """`gm resolve` of a turn with 8 players on a map of N cells (pictures grow with the map)."""
    rows = []
    for side in (25, 50, 100, 200):
        d = campaign(tmp, side, side, 8)
        rows.append((side * side, timed(lambda d=d: turn(d), 1)))
    table("gm resolve: 8 players on a map of N cells", "cells", rows)


MEASURES = {"check": bench_check, "status": bench_status, "players": bench_resolve_players, "map": bench_resolve_map}


def main(argv: list[str]) -> None:
    names = argv or list(MEASURES)
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            MEASURES[name](Path(tmp))


if __name__ == "__main__":
    main(sys.argv[1:])

"""`gm sweep`: a grid of scenario variants played by bots on Dask — the same results.csv for any
number of workers and on a cluster, resumption after a kill, a lost worker costing its batch,
the chart, the summary in words, and errors that name the sweep file's line and field.

Every test that starts Dask processes checks that none outlives it (``no_stray_processes``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from gm_tool import simulate as sim
from gm_tool import sweep as sw
from tests.conftest import tree, write

ROOT = Path(__file__).resolve().parents[1]
SMALL = """\
# a small sweep: 2 x 2 cells of skirmish
scenario: skirmish
games: 6
seed: ci
bots: greedy
max_turns: 12
vary:
  rules.territory_after: [6, 10]
  bots.blue: [random, greedy]
"""
# twelve quick cells, for killing a sweep half-way
LONG = """\
scenario: skirmish
games: 8
seed: kill
bots: greedy
max_turns: 12
vary:
  rules.territory_after: [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
"""


def _strays(before: set[int]) -> list[psutil.Process]:
    """Processes started since ``before`` still running, but multiprocessing's resource tracker
    (one per parent process, started with the first worker and ended with the parent)."""
    out = []
    for p in psutil.Process().children(recursive=True):
        try:
            if p.pid in before or p.status() == psutil.STATUS_ZOMBIE or "resource_tracker" in " ".join(p.cmdline()):
                continue
        except psutil.NoSuchProcess:
            continue
        out.append(p)
    return out


@pytest.fixture
def no_stray_processes():
    """No process started during the test (Dask workers, nannies, a scheduler) is left after it."""
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    yield
    deadline = time.monotonic() + 15
    while True:
        left = _strays(before)
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert left == [], [p.pid for p in left]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, Path]:
    """The small and the long sweep played in this process (no Dask): the results to match."""
    root = tmp_path_factory.mktemp("ref")
    out = {}
    for name, text in (("small", SMALL), ("long", LONG)):
        sweep_file = write(root / f"{name}.yaml", text)
        sw.run(sweep_file, root / f"{name}-out", workers=0)
        out[name] = root / f"{name}-out"
        out[f"{name}-file"] = sweep_file
    return out


def _csv(path: Path) -> list[list[str]]:
    return [line.split(",") for line in path.read_text("utf-8").splitlines()]


def test_results_csv_counts_every_cell(reference):
    rows = _csv(reference["small"] / "results.csv")
    assert rows[0] == ["rules.territory_after", "bots.blue", "games", "wins_red", "wins_blue", "draws", "timeouts",
                       "win_rate_red", "ci95_low_red", "ci95_high_red", "win_rate_blue", "ci95_low_blue",
                       "ci95_high_blue", "mean_turns"]
    assert [r[:2] for r in rows[1:]] == [["6", "random"], ["6", "greedy"], ["10", "random"], ["10", "greedy"]]
    for r in rows[1:]:
        games, red, blue, draws, timeouts = map(int, r[2:7])
        assert games == 6 and red + blue + draws + timeouts == 6
        assert r[7] == f"{red / 6:.4f}" and r[10] == f"{blue / 6:.4f}"
        lo, hi = sim.wilson(red, 6)
        assert (r[8], r[9]) == (f"{lo:.4f}", f"{hi:.4f}")
    # territory ends every game at turn 6 in the first two cells
    assert rows[1][13] == rows[2][13] == "6.00"
    # each cell is what `gm simulate` plays with the same seed, bots and rules
    report = sim.run("skirmish", games=6, seed="ci", bots="red=greedy,blue=random", max_turns=12,
                     rules={"territory_after": 6})
    assert [int(x) for x in rows[1][3:7]] == [report["outcomes"][k] for k in ("red", "blue", "draw", "timeout")]


def test_two_and_one_dask_workers_give_the_same_bytes(reference, tmp_path, gm, no_stray_processes):
    gm("sweep", reference["small-file"], "--out", tmp_path / "two", "--workers", "2", "--batch", "2")
    gm("sweep", reference["small-file"], "--out", tmp_path / "one", "--workers", "1")
    expected = (reference["small"] / "results.csv").read_bytes()
    assert (tmp_path / "two" / "results.csv").read_bytes() == expected
    assert (tmp_path / "one" / "results.csv").read_bytes() == expected
    assert (tmp_path / "two" / "summary.md").read_bytes() == (reference["small"] / "summary.md").read_bytes()


def test_chart_and_summary(reference, tmp_path):
    from PIL import Image

    chart = reference["small"] / "chart.png"
    with Image.open(chart) as im:  # a two-way grid: a heatmap
        assert im.format == "PNG" and im.size[0] >= 500 and im.size[1] >= 400
        colours = im.convert("RGB").getcolors(1 << 20)
    assert colours is not None and len(colours) > 50  # drawn, not blank
    summary = (reference["small"] / "summary.md").read_text("utf-8")
    assert summary.startswith("# 平衡扫描：skirmish（grail_war）")
    rows = _csv(reference["small"] / "results.csv")
    for r in rows[1:]:
        lo, hi = float(r[8]), float(r[9])
        sentence = f"rules.territory_after = {r[0]}, bots.blue = {r[1]}：red 胜"
        assert (sentence in summary) == (lo > 0.5 or hi < 0.5)
    one_way = write(tmp_path / "one.yaml", SMALL.replace("  bots.blue: [random, greedy]\n", ""))
    result = sw.run(one_way, tmp_path / "o", workers=0, lang="en")
    with Image.open(tmp_path / "o" / "chart.png") as im:  # one way: win rates with intervals
        assert im.format == "PNG"
    assert "Balance sweep: skirmish" in (tmp_path / "o" / "summary.md").read_text("utf-8")
    assert f"wrote {tmp_path / 'o' / 'chart.png'}" in result["text"]


def test_a_killed_sweep_resumes_without_replaying_finished_cells(reference, tmp_path, no_stray_processes):
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "gm_tool", "sweep", str(reference["long-file"]), "--out", str(out),
                             "--workers", "2", "--batch", "4"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env, start_new_session=True)
    journal = out / "cells.jsonl"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.is_file() and journal.read_text("utf-8").count("\n") >= 1:
            break
        time.sleep(0.02)
    assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
    os.killpg(proc.pid, signal.SIGKILL)  # the command, its cluster and its workers, at once
    proc.wait()
    proc.stderr.close()  # type: ignore[union-attr]
    before = [json.loads(x)["cell"] for x in journal.read_text("utf-8").splitlines() if x.strip()]
    assert 1 <= len(before) < 12
    assert not (out / "results.csv").exists()
    result = sw.run(reference["long-file"], out, workers=0, lang="en")
    assert result["resumed"] == len(before)
    assert result["played"] == (12 - len(before)) * 8  # only the cells not yet in the journal
    cells = [json.loads(x)["cell"] for x in journal.read_text("utf-8").splitlines()]
    assert sorted(cells) == list(range(12)) and cells[:len(before)] == before
    assert (out / "results.csv").read_bytes() == (reference["long"] / "results.csv").read_bytes()
    # run again: nothing left to play, the same files
    again = sw.run(reference["long-file"], out, workers=0, lang="en")
    assert again["played"] == 0 and (out / "results.csv").read_bytes() == (reference["long"] / "results.csv").read_bytes()


def test_a_lost_worker_costs_its_batch_not_the_sweep(reference, tmp_path, no_stray_processes):
    import logging

    from distributed import Client, LocalCluster

    killed: list[int] = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.CRITICAL, host="127.0.0.1") as cluster, Client(cluster) as client:
        pids = sorted(client.run(os.getpid).values())
        plan = sw.load(reference["long-file"]).plan()

        def kill_one(k: int) -> None:
            if not killed:  # the first batch is in: shoot a worker while the others play
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        results: dict[int, list] = {}
        sim.execute(plan, list(range(12)), lambda c, sides, r: results.__setitem__(c, r), batch=4,
                    on_games=kill_one, client=client)
    assert killed
    expected = _csv(reference["long"] / "results.csv")[1:]
    for cell, row in enumerate(expected):
        winners = [r["winner"] for r in results[cell]]
        assert [r["game"] for r in results[cell]] == list(range(8))
        assert [winners.count("red"), winners.count("blue")] == [int(row[2]), int(row[3])]


def test_an_existing_cluster_gives_the_same_bytes(reference, tmp_path, gm, no_stray_processes):
    """`dask scheduler` and `dask worker` processes, as on several machines (here on loopback)."""
    dask = Path(sys.executable).with_name("dask")
    if not dask.exists():
        pytest.skip("the dask command is not installed beside this Python")
    info = tmp_path / "scheduler.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                               "--scheduler-file", str(info)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        deadline = time.monotonic() + 60
        while not info.is_file() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(info.read_text("utf-8"))["address"]
        procs.append(subprocess.Popen([str(dask), "worker", address, "--nworkers", "2", "--nthreads", "1",
                                       "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, start_new_session=True))
        gm("sweep", reference["small-file"], "--out", tmp_path / "cluster", "--scheduler", address, "--batch", "3")
        assert (tmp_path / "cluster" / "results.csv").read_bytes() == (reference["small"] / "results.csv").read_bytes()
    finally:
        for proc in reversed(procs):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in reversed(procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def test_an_unreachable_scheduler_is_a_clear_error(reference, tmp_path, gm):
    r = gm("sweep", reference["small-file"], "--out", tmp_path / "x", "--scheduler", "tcp://127.0.0.1:9",
           "--lang", "en", code=2)
    assert "--scheduler" in r.stderr and "cannot reach the Dask scheduler tcp://127.0.0.1:9" in r.stderr


# errors -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, where", [
    (SMALL.replace("games: 6", "games: many"), (3, "games", "wrong type: expected an integer")),
    (SMALL.replace("games: 6", "games: 0"), (3, "games", "out of range")),
    (SMALL + "colour: red\n", (10, "colour", "unknown key; allowed: scenario, games")),
    (SMALL.replace("scenario: skirmish\n", ""), (2, "scenario", "required")),
    (SMALL.replace("rules.territory_after", "characters.nobody.class"),
     (8, "vary.characters.nobody.class", "the scenario has no characters.nobody.class (at characters it has: "
                                         "artoria, gawain, medea, mordred)")),
    (SMALL.replace("[6, 10]", "[6, -3]"), (8, "vary.rules.territory_after[1]",
                                           "with rules.territory_after = -3, bots.blue = random the scenario does not set up")),
    (SMALL.replace("[random, greedy]", "[random, clever]"), (9, "vary.bots.blue[1]", "unknown bot 'blue=clever'; allowed: random, greedy")),
    (SMALL.replace("bots.blue", "bots.green"), (9, "vary.bots.green", "'green' is not a side or player")),
    (SMALL.replace("[6, 10]", "[6, 6]"), (8, "vary.rules.territory_after[1]", "duplicate value 6")),
    (SMALL.replace("[6, 10]", "6"), (8, "vary.rules.territory_after", "a non-empty list of values")),
    (SMALL.replace("bots: greedy", "bots: smart"), (5, "bots", "unknown bot 'smart'")),
    (SMALL.replace("scenario: skirmish", "scenario: nowhere"), (2, "scenario", "unknown scenario 'nowhere'")),
])
def test_sweep_file_errors_name_line_and_field(gm, tmp_path, text, where):
    path = write(tmp_path / "s.yaml", text)
    r = gm("sweep", path, "--out", tmp_path / "out", "--lang", "en", code=None)
    assert r.exit_code in (1, 2), r.output
    line, field, words = where
    place = f"{path}:{line}: {field}:" if line else f"{path}: {field}:"
    assert place in r.stderr and words in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()


def test_errors_in_chinese_by_default(gm, tmp_path):
    path = write(tmp_path / "s.yaml", SMALL.replace("games: 6", "games: many"))
    assert "类型错误：应为整数" in gm("sweep", path, "--out", tmp_path / "o", code=1).stderr


def test_the_output_folder_is_never_overwritten(reference, gm, tmp_path):
    other = tmp_path / "mine"
    write(other / "notes.txt" if other.mkdir() is None else other, "keep me")
    r = gm("sweep", reference["small-file"], "--out", other, "--lang", "en", "-j", "0", code=1)
    assert "not a gm sweep folder" in r.stderr and (other / "notes.txt").read_text() == "keep me"
    changed = write(tmp_path / "changed.yaml", SMALL.replace("games: 6", "games: 7"))
    before = tree(reference["small"])
    r = gm("sweep", changed, "--out", reference["small"], "--lang", "en", "-j", "0", code=1)
    assert "holds the results of another sweep" in r.stderr
    assert tree(reference["small"]) == before


def test_progress_bar_shows_games_cells_and_time_left():
    import io

    stream = io.StringIO()
    bar = sw.Progress("en", 200, 4, enabled=True, stream=stream, games_done=50, cells_done=1)
    bar.games(50)
    bar.cells()
    bar.draw(force=True)
    text = stream.getvalue().split("\r")[-1]
    assert "100/200 games · 2/4 cells" in text and "left" in text and "[############" in text
    bar.close()
    quiet = io.StringIO()
    off = sw.Progress("zh", 10, 1, enabled=False, stream=quiet)
    off.games(10)
    off.close()
    assert quiet.getvalue() == ""


def test_paths_walk_mappings_lists_and_ids():
    scenario = {"rules": {"a": 1}, "characters": [{"id": "x", "hp": 3}, {"id": "y", "hp": 4}]}
    assert sim.path_problem(scenario, "rules.b") is None  # a new key of a mapping
    assert sim.path_problem(scenario, "extra.deep.key") is None  # mappings added on the way
    assert sim.path_problem(scenario, "characters.y.hp") is None and sim.path_problem(scenario, "characters.1.hp") is None
    assert sim.path_problem(scenario, "characters.z.hp") == ("characters", ["x", "y"])
    assert sim.path_problem(scenario, "rules.a.b") == ("rules.a", [])
    seats = {"seats": {1: {"faction": "a"}, 2: {"faction": "b"}}}
    assert sim.set_path(seats, "seats.2.faction", "c")["seats"] == {1: {"faction": "a"}, 2: {"faction": "c"}}
    changed = sim.set_path(scenario, "characters.y.hp", 9)
    assert changed["characters"][1] == {"id": "y", "hp": 9} and scenario["characters"][1]["hp"] == 4
    assert sim.set_path(scenario, "extra.deep.key", [1])["extra"] == {"deep": {"key": [1]}} and "extra" not in scenario

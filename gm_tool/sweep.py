"""`gm sweep FILE --out DIR`: a balance question as a grid of scenario variants, played by bots.

The sweep file (YAML)::

    scenario: skirmish          # a bundled scenario, or a scenario file (relative to this file)
    games: 200                  # games a cell
    seed: balance-1             # game i of every cell uses the seed "balance-1:i"
    bots: greedy                # one kind for all, or {side or player: kind}
    max_turns: 50               # optional (default 50): then a game counts as a timeout
    vary:                       # path in the scenario -> values; the grid is their product
      rules.decks: [1, 2]
      bots.blue: [random, greedy]

A path walks the scenario's mappings by key and its lists by position or by an item's ``id``;
``bots`` and ``bots.NAME`` vary the bots instead. The grid's cells are played on the engine of
:mod:`gm_tool.simulate` (Dask; see docs/balance.md); each finished cell is appended to
``DIR/cells.jsonl`` at once, so a sweep killed half-way resumes from ``DIR`` and plays only the
cells not yet in it. At the end ``DIR`` gets ``results.csv`` (a row a cell, identical for any
number of workers), ``summary.md`` (the cells whose 95% interval excludes an even game, in
words) and ``chart.png``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from gm_tool import simulate as sim
from gm_tool.errors import GmError, Problem

FIELDS = ("scenario", "games", "seed", "bots", "max_turns", "vary")
MAX_GAMES = 1_000_000
MAX_TURNS = 100_000
MAX_CELLS = 1_000_000
MANIFEST, JOURNAL = "sweep.json", "cells.jsonl"
RESULTS, SUMMARY, CHART = "results.csv", "summary.md", "chart.png"
UNEVEN_SHOWN = 100  # summary lines past which the rest is counted, not listed


# the sweep file ----------------------------------------------------------------------------------
@dataclass
class Sweep:
    file: str  # as the user named it (errors cite it)
    text: str
    scenario: dict[str, Any]
    source: str
    scenario_name: str
    ruleset: Any
    games: int
    seed: str
    bots: str | dict[str, str]
    max_turns: int
    vary: list[tuple[str, list[Any]]]

    def cells(self) -> list[tuple[tuple[str, Any], ...]]:
        """The grid, first path slowest: ``((path, value), ...)`` per cell."""
        paths = [p for p, _ in self.vary]
        return [tuple(zip(paths, combo)) for combo in itertools.product(*(values for _, values in self.vary))]

    def plan(self) -> sim.Plan:
        return sim.plan_for(self.ruleset, self.scenario, self.source, seed=self.seed, bots=self.bots,
                            max_turns=self.max_turns, games=self.games, cells=self.cells())

    def fingerprint(self) -> str:
        """What decides every result: a resumed sweep must have the same."""
        data = {"scenario": self.scenario, "ruleset": self.ruleset.name, "rules_version": int(self.ruleset.rules_version),
                "games": self.games, "seed": self.seed, "bots": self.bots, "max_turns": self.max_turns,
                "vary": self.vary}
        return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()

    def error(self, problems: list[Problem]) -> GmError:
        from gm_tool.core.yamlpos import annotate

        return annotate(GmError(problems), self.file, self.text)


def _type(file: str, field: str, expected: str, got: Any, lang: str) -> Problem:
    return Problem("field.type", file, field, {"expected": sim.labels(lang, "expect")[expected],
                                               "got": repr(got)[:80]})


def load(path: Path, lang: str = "zh") -> Sweep:
    """Read and check a sweep file; a GmError names the file, line and field of every problem."""
    from gm_tool.app import _ruleset_of, load_scenario
    from gm_tool.core import safeyaml
    from gm_tool.core.yamlpos import annotate

    file = str(path)
    text = safeyaml.read_text(Path(path))
    data = safeyaml.load_mapping(Path(path))
    problems: list[Problem] = []
    for key in data:
        if key not in FIELDS:
            problems.append(Problem("field.unknown", file, str(key), {"allowed": ", ".join(FIELDS)}))
    for key in ("scenario", "games", "vary"):
        if key not in data:
            problems.append(Problem("field.required", file, key))
    ref = data.get("scenario")
    if "scenario" in data and not isinstance(ref, str):
        problems.append(_type(file, "scenario", "text", ref, lang))

    def number(key: str, default: int, top: int) -> int:
        value = data.get(key, default)
        if type(value) is not int:
            problems.append(_type(file, key, "int", value, lang))
            return default
        if not 1 <= value <= top:
            problems.append(Problem("field.range", file, key, {"value": value, "allowed": f"1-{top}"}))
            return default
        return value

    games = number("games", 1, MAX_GAMES)
    max_turns = number("max_turns", 50, MAX_TURNS)
    seed = data.get("seed", "sweep")
    if not isinstance(seed, (str, int)) or isinstance(seed, bool):
        problems.append(_type(file, "seed", "text", seed, lang))
    bots = data.get("bots", "random")
    if not (isinstance(bots, str) or (isinstance(bots, dict) and all(isinstance(v, str) for v in bots.values()))):
        problems.append(_type(file, "bots", "bots", bots, lang))
    vary = data.get("vary") or {}
    if not isinstance(vary, dict):
        problems.append(_type(file, "vary", "vary", vary, lang))
        vary = {}
    for key, values in vary.items():
        if not isinstance(values, list) or not values:
            problems.append(Problem("sweep.not_list", file, f"vary.{key}"))
        else:
            seen: list[Any] = []
            for k, value in enumerate(values):
                if value in seen:
                    problems.append(Problem("field.duplicate", file, f"vary.{key}[{k}]", {"value": value}))
                seen.append(value)
    if problems:
        raise annotate(GmError(problems), file, text)

    assert isinstance(ref, str)
    beside = Path(path).parent / ref
    try:
        scenario, source = load_scenario(str(beside) if beside.is_file() else ref)
        ruleset = _ruleset_of(scenario, source)
    except GmError as exc:
        for p in exc.problems:
            if p.field == "--scenario":
                p.file, p.field = file, "scenario"
        raise annotate(exc, file, text) from None
    sweep = Sweep(file=file, text=text, scenario=scenario, source=source, scenario_name=str(scenario.get("name", ref)),
                  ruleset=ruleset, games=games, seed=str(seed), bots=bots, max_turns=max_turns,
                  vary=[(str(k), list(v)) for k, v in vary.items()])
    check(sweep, lang)
    return sweep


def check(sweep: Sweep, lang: str) -> None:
    """Every path exists; every value sets up (one cell per value, the other paths at their first
    value); the bots are known. Cells that fail only in combination are reported when played."""
    file = sweep.file
    problems: list[Problem] = []
    first = sim.Game(sweep.ruleset, sweep.scenario, sweep.source, sweep.seed, "random", 1)
    names = [*first.sides, *(p for p in sweep.ruleset.players(sweep.ruleset.setup(sweep.scenario, sweep.source, f"{sweep.seed}:0"))
                             if p not in first.sides)]
    for path, _ in sweep.vary:
        parts = sim.split_path(path)
        if parts and parts[0] == "bots":
            if len(parts) > 2 or (len(parts) == 2 and parts[1] not in names):
                problems.append(Problem("sweep.bots_path", file, f"vary.{path}", {"key": ".".join(parts[1:]),
                                                                                   "allowed": ", ".join(names)}))
            continue
        stop = sim.path_problem(sweep.scenario, path)
        if stop is not None:
            at, allowed = stop
            problems.append(Problem("sweep.path", file, f"vary.{path}", {"path": path, "at": at,
                                                                         "allowed": ", ".join(allowed[:40]) or "-"}))
    cells = 1
    for _, values in sweep.vary:
        cells *= len(values)
    if cells > MAX_CELLS:
        problems.append(Problem("sweep.too_many", file, "vary", {"cells": cells, "limit": MAX_CELLS}))
    if problems:
        raise sweep.error(problems)
    plan = sweep.plan()
    base = tuple((p, values[0]) for p, values in sweep.vary)
    tried: list[tuple[tuple[int, int] | None, tuple[tuple[str, Any], ...]]] = [(None, base)]
    tried += [((i, k), tuple((p, v if j != i else values[k]) for j, (p, v) in enumerate(base)))
              for i, (_, values) in enumerate(sweep.vary) for k in range(1, len(values))]
    for where, cell in tried:
        plan.cells = [cell]
        plan._games.clear()
        try:
            plan.game(0)
        except GmError as exc:
            if where is not None:
                field = f"vary.{sweep.vary[where[0]][0]}[{where[1]}]"
            elif all(p.code == "simulate.bots" for p in exc.problems):
                field = "bots"
            else:
                field = f"vary.{sweep.vary[0][0]}[0]" if len(sweep.vary) == 1 else "vary"
            if all(p.code == "simulate.bots" for p in exc.problems):
                problems += [Problem(p.code, file, field, p.params) for p in exc.problems]
            else:
                problems.append(Problem("sweep.cell", file, field, {"values": cell_label(cell, lang),
                                                                    "reason": "; ".join(exc.render(lang).splitlines())}))
            if len(problems) >= 20:
                break
    if problems:
        raise sweep.error(problems)


def show(value: Any) -> str:
    """A value as a cell of results.csv and of the summary's sentences."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return str(value)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def cell_label(cell: tuple[tuple[str, Any], ...], lang: str) -> str:
    if not cell:
        return sim.labels(lang, "sweep")["no_vary"]
    return ", ".join(f"{path} = {show(value)}" for path, value in cell)


# the output folder ------------------------------------------------------------------------------
def prepare(out: Path, sweep: Sweep, ncells: int) -> dict[int, dict[str, Any]]:
    """Create ``out`` (or reopen it for the same sweep); return the cells already finished."""
    manifest = out / MANIFEST
    fingerprint = sweep.fingerprint()
    if out.exists() and not out.is_dir():
        raise GmError.one("sweep.not_sweep_dir", file=str(out), field="--out")
    if out.is_dir() and any(out.iterdir()):
        if not manifest.is_file():
            raise GmError.one("sweep.not_sweep_dir", file=str(out), field="--out")
        try:
            known = json.loads(manifest.read_text("utf-8")).get("fingerprint")
        except (OSError, ValueError, AttributeError):
            known = None
        if known != fingerprint:
            raise GmError.one("sweep.other", file=str(out), field="--out")
        return read_journal(out / JOURNAL, ncells)
    from gm_tool.core.store import atomic_write

    atomic_write(manifest, json.dumps({"fingerprint": fingerprint, "sweep": sweep.file, "scenario": sweep.scenario_name,
                                       "ruleset": sweep.ruleset.name, "cells": ncells, "games": sweep.games},
                                      ensure_ascii=False, indent=1) + "\n")
    return {}


def read_journal(path: Path, ncells: int) -> dict[int, dict[str, Any]]:
    """The finished cells of the journal; a line cut short by a kill is dropped (and the journal
    rewritten without it, so the next line does not land on its end)."""
    from gm_tool.core.store import atomic_write

    done: dict[int, dict[str, Any]] = {}
    if not path.is_file():
        return done
    good: list[str] = []
    for line in path.read_text("utf-8", errors="replace").splitlines():
        try:
            record = json.loads(line)
            cell = int(record["cell"])
        except (ValueError, KeyError, TypeError):
            continue
        if 0 <= cell < ncells and cell not in done:
            done[cell] = record
            good.append(line)
    atomic_write(path, "".join(x + "\n" for x in good))
    return done


class Journal:
    """``cells.jsonl``: one line per finished cell, flushed and synced as it is written."""

    def __init__(self, path: Path):
        self.fh = open(path, "a", encoding="utf-8")

    def add(self, record: dict[str, Any]) -> None:
        self.fh.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def close(self) -> None:
        self.fh.close()


def record(cell: int, values: tuple[tuple[str, Any], ...], sides: list[str], results: list[dict[str, Any]]) -> dict[str, Any]:
    outcomes = {key: 0 for key in (*sides, sim.DRAW, sim.TIMEOUT)}
    for r in results:
        outcomes[r["winner"]] = outcomes.get(r["winner"], 0) + 1
    return {"cell": cell, "values": [v for _, v in values], "sides": sides, "games": len(results),
            "outcomes": outcomes, "turns": sum(r["turns"] for r in results)}


# progress -------------------------------------------------------------------------------------
class Progress:
    """A one-line bar on a terminal: games done, cells done and the time left (nothing when the
    output is not a terminal)."""

    def __init__(self, lang: str, games: int, cells: int, enabled: bool = True, stream: TextIO | None = None,
                 games_done: int = 0, cells_done: int = 0):
        self.words = sim.labels(lang, "sweep")["progress"]
        self.total, self.cells_total = games, cells
        self.done, self.cells_done, self.base = games_done, cells_done, games_done
        self.enabled, self.stream = enabled, stream or sys.stderr
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = 0

    def games(self, k: int) -> None:
        self.done += k
        self.draw()

    def cells(self, k: int = 1) -> None:
        self.cells_done += k
        self.draw(force=self.cells_done == self.cells_total)

    def line(self) -> str:
        played = self.done - self.base
        elapsed = time.monotonic() - self.start
        left = "?" if not played else _clock(elapsed * (self.total - self.done) / played)
        filled = int(24 * self.done / self.total) if self.total else 24
        text = self.words.format(games_done=f"{self.done:,}", games_total=f"{self.total:,}",
                                 cells_done=f"{self.cells_done:,}", cells_total=f"{self.cells_total:,}", left=left)
        return f"[{'#' * filled}{'.' * (24 - filled)}] {text}"

    def draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not force and now - self.last < 0.1):
            return
        self.last = now
        text = self.line()
        pad = max(0, self.shown - sim.width(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self.shown = sim.width(text)

    def close(self) -> None:
        if self.enabled and self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


# results ----------------------------------------------------------------------------------------
def rows(sweep: Sweep, done: dict[int, dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """Every cell in grid order with its counts and rates; the sides in order of appearance."""
    cells = sweep.cells()
    sides: list[str] = []
    for c in range(len(cells)):
        for side in done[c]["sides"]:
            if side not in sides:
                sides.append(side)
    out = []
    for c, cell in enumerate(cells):
        rec = done[c]
        n, oc = rec["games"], rec["outcomes"]
        row: dict[str, Any] = {"cell": cell, "games": n, "sides": rec["sides"], "draws": oc.get(sim.DRAW, 0),
                               "timeouts": oc.get(sim.TIMEOUT, 0), "mean_turns": rec["turns"] / n if n else 0.0,
                               "wins": {s: oc.get(s, 0) for s in sides}}
        row["ci"] = {s: sim.wilson(row["wins"][s], n) for s in sides}
        out.append(row)
    return sides, out


def results_csv(sweep: Sweep, sides: list[str], table: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([*(p for p, _ in sweep.vary), "games", *(f"wins_{s}" for s in sides), "draws", "timeouts",
                *itertools.chain.from_iterable((f"win_rate_{s}", f"ci95_low_{s}", f"ci95_high_{s}") for s in sides),
                "mean_turns"])
    for row in table:
        n = row["games"]
        w.writerow([*(show(v) for _, v in row["cell"]), n, *(row["wins"][s] for s in sides), row["draws"], row["timeouts"],
                    *itertools.chain.from_iterable((f"{row['wins'][s] / n:.4f}", f"{row['ci'][s][0]:.4f}",
                                                    f"{row['ci'][s][1]:.4f}") for s in sides),
                    f"{row['mean_turns']:.2f}"])
    return buf.getvalue()


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def summary_md(sweep: Sweep, sides: list[str], table: list[dict[str, Any]], lang: str) -> str:
    t = sim.labels(lang, "sweep")
    ncells = len(table)
    out = [f"# {t['title'].format(scenario=sweep.scenario_name, ruleset=sweep.ruleset.name)}", "",
           t["meta"].format(cells=ncells, games=sweep.games, total=ncells * sweep.games, seed=sweep.seed,
                            bots=show(sweep.bots), max_turns=sweep.max_turns),
           "", t["rule"].format(seed=sweep.seed), ""]
    uneven = []
    for row in table:
        even = 1 / len(row["sides"]) if row["sides"] else 0.5
        for side in row["sides"]:
            lo, hi = row["ci"][side]
            if lo > even or hi < even:
                rate = row["wins"][side] / row["games"]
                uneven.append((abs(rate - even), row, side, rate, lo, hi, lo > even))
    out.append(f"## {t['uneven_head']}")
    out.append("")
    if uneven:
        evens = sorted({_pct(1 / len(r["sides"])) for _, r, *_ in uneven})
        out.append(t["uneven_intro"].format(even=", ".join(evens)))
        out.append("")
        shown = uneven if len(uneven) <= UNEVEN_SHOWN else sorted(uneven, key=lambda u: -u[0])[:UNEVEN_SHOWN]
        keep = {id(u) for u in shown}
        for u in uneven:
            if id(u) in keep:
                _, row, side, rate, lo, hi, up = u
                out.append(t["uneven_line"].format(cell=cell_label(row["cell"], lang), side=side, rate=_pct(rate),
                                                   low=_pct(lo), high=_pct(hi), games=row["games"],
                                                   verdict=t["favoured" if up else "disfavoured"]))
        if len(uneven) > len(shown):
            out.append(t["uneven_more"].format(n=len(uneven) - len(shown)))
    else:
        out.append(t["even_none"].format(games=sweep.games))
    slow = [row for row in table if row["games"] and row["timeouts"] / row["games"] > 0.1]
    if slow:
        out += ["", f"## {t['timeouts_head']}", ""]
        for row in slow[:UNEVEN_SHOWN]:
            out.append(t["timeouts_line"].format(cell=cell_label(row["cell"], lang), share=_pct(row["timeouts"] / row["games"])))
        if len(slow) > UNEVEN_SHOWN:
            out.append(t["uneven_more"].format(n=len(slow) - UNEVEN_SHOWN))
    out += ["", t["files"], ""]
    return "\n".join(out)


# the chart ---------------------------------------------------------------------------------------
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
             "Droid Sans Fallback", "AR PL UMing CN", "SimHei", "Microsoft YaHei", "PingFang SC")


def _cjk_font() -> str | None:
    """A font with Chinese glyphs: one matplotlib knows by name, else the one fontconfig offers
    for Chinese (``fc-list :lang=zh``; matplotlib's own list may miss .ttc collections)."""
    import shutil
    import subprocess

    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    known = next((name for name in CJK_FONTS if name in have), None)
    if known or not shutil.which("fc-list"):
        return known
    try:
        listed = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in sorted(listed.splitlines()):
        path = line.strip().rstrip(":")
        if not path:
            continue
        try:
            font_manager.fontManager.addfont(path)
            return font_manager.FontProperties(fname=path).get_name()
        except (OSError, RuntimeError, ValueError):
            continue
    return None


def chart_png(sweep: Sweep, sides: list[str], table: list[dict[str, Any]], lang: str) -> bytes:
    """Win rates with their intervals per cell (one series a side); a heatmap of the first side's
    win rate for a two-way grid. Drawn by matplotlib (Agg, no display). Chinese words need a CJK
    font on the machine (fonts-noto-cjk); without one the chart's words are English."""
    import warnings

    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    font = _cjk_font()
    chart_lang = lang if font or lang == "en" else "en"
    t = sim.labels(chart_lang, "chart")
    rc: Any = {"font.sans-serif": [font, "DejaVu Sans"] if font else ["DejaVu Sans"], "font.family": "sans-serif",
          "svg.hashsalt": "gm", "axes.unicode_minus": False}
    first = sides[0] if sides else "?"
    with matplotlib.rc_context(rc), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if len(sweep.vary) == 2:
            fig = _heatmap(sweep, first, table, t)
        else:
            fig = _bars(sweep, sides, table, t)
        FigureCanvasAgg(fig)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    return buf.getvalue()


def _bars(sweep: Sweep, sides: list[str], table: list[dict[str, Any]], t: dict[str, str]) -> Any:
    from matplotlib.figure import Figure

    n = len(table)
    fig = Figure(figsize=(min(16, max(6, 0.45 * n + 2)), 5), layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(sides))
    for k, side in enumerate(sides):
        xs = [i + (k - (len(sides) - 1) / 2) * width for i in range(n)]
        rates = [row["wins"][side] / row["games"] for row in table]
        low = [max(0.0, r - row["ci"][side][0]) for r, row in zip(rates, table)]
        high = [max(0.0, row["ci"][side][1] - r) for r, row in zip(rates, table)]
        ax.errorbar(xs, rates, yerr=[low, high], fmt="o", capsize=3, label=side)
    evens = {1 / len(row["sides"]) for row in table if row["sides"]} or {0.5}
    for even in sorted(evens):
        ax.axhline(even, color="grey", linestyle="--", linewidth=1, label=f"{t['even']} {100 * even:.0f}%")
    ax.set_ylim(0, 1)
    ax.set_ylabel(t["rate"])
    labels = [", ".join(show(v) for _, v in row["cell"]) or "-" for row in table]
    step = max(1, n // 40)
    ax.set_xticks(range(0, n, step), labels[::step], rotation=45 if n > 6 or max(map(len, labels)) > 12 else 0,
                  ha="right" if n > 6 else "center", fontsize=8)
    ax.set_xlabel(" × ".join(p for p, _ in sweep.vary) or t["cell"])
    ax.set_title(t["title"].format(scenario=sweep.scenario_name, side=" / ".join(sides)))
    ax.legend(loc="best", fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return fig


def _heatmap(sweep: Sweep, side: str, table: list[dict[str, Any]], t: dict[str, str]) -> Any:
    from matplotlib.figure import Figure

    (p1, v1), (p2, v2) = sweep.vary
    grid = [[table[i * len(v2) + j]["wins"][side] / table[i * len(v2) + j]["games"] for j in range(len(v2))]
            for i in range(len(v1))]
    size = max(len(v1), len(v2))
    fig = Figure(figsize=(min(20, max(6, 0.5 * len(v2) + 3)), min(20, max(5, 0.45 * len(v1) + 2))), layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(grid, cmap="RdBu_r", vmin=0, vmax=1, aspect="auto")
    fig.colorbar(image, ax=ax, label=t["rate"])
    step1, step2 = max(1, len(v1) // 40), max(1, len(v2) // 40)
    ax.set_yticks(range(0, len(v1), step1), [show(v) for v in v1][::step1], fontsize=8)
    ax.set_xticks(range(0, len(v2), step2), [show(v) for v in v2][::step2], rotation=45 if len(v2) > 6 else 0,
                  ha="right" if len(v2) > 6 else "center", fontsize=8)
    ax.set_ylabel(p1)
    ax.set_xlabel(f"{p2}\n{t['star']}" if size <= 16 else p2)
    if size <= 16:
        for i in range(len(v1)):
            for j in range(len(v2)):
                row = table[i * len(v2) + j]
                lo, hi = row["ci"][side]
                even = 1 / len(row["sides"]) if row["sides"] else 0.5
                mark = "*" if lo > even or hi < even else ""
                ax.text(j, i, f"{100 * grid[i][j]:.0f}%{mark}", ha="center", va="center", fontsize=8,
                        color="white" if abs(grid[i][j] - 0.5) > 0.3 else "black")
    ax.set_title(t["heat_title"].format(scenario=sweep.scenario_name, side=side))
    return fig


# the command ------------------------------------------------------------------------------------
def run(file: Path, out: Path, *, workers: int = 0, scheduler: str | None = None, batch: int | None = None,
        lang: str = "zh", progress: bool = False, client: Any = None) -> dict[str, Any]:
    """Load the sweep, play the cells ``out`` does not hold yet, write the results; returns the
    lines to print (``text``) and the table."""
    from gm_tool.core.store import atomic_write

    sweep = load(Path(file), lang)
    plan = sweep.plan()
    cells = plan.cells
    out = Path(out)
    done = prepare(out, sweep, len(cells))
    resumed = set(done)
    t = sim.labels(lang, "sweep")
    lines = [t["resumed"].format(dir=out, done=len(done))] if done else []
    pending = [c for c in range(len(cells)) if c not in done]
    bar = Progress(lang, len(cells) * sweep.games, len(cells), enabled=progress,
                   games_done=len(done) * sweep.games, cells_done=len(done))
    journal = Journal(out / JOURNAL)

    def finished(cell: int, sides: list[str], results: list[dict[str, Any]]) -> None:
        rec = record(cell, cells[cell], sides, results)
        journal.add(rec)
        done[cell] = rec
        bar.cells()

    try:
        if pending:
            sim.execute(plan, pending, finished, workers=workers, scheduler=scheduler, batch=batch,
                        on_games=bar.games, client=client)
    except sim.CellError as exc:
        reason = "; ".join(GmError(exc.problems).render(lang).splitlines())
        raise sweep.error([Problem("sweep.cell", sweep.file, "vary", {"values": cell_label(cells[exc.cell], lang),
                                                                      "reason": reason})]) from None
    finally:
        bar.close()
        journal.close()
    sides, table = rows(sweep, done)
    files: dict[str, str | bytes] = {RESULTS: results_csv(sweep, sides, table), SUMMARY: summary_md(sweep, sides, table, lang),
             CHART: chart_png(sweep, sides, table, lang)}
    for name, data in files.items():
        atomic_write(out / name, data)
        lines.append(t["written"].format(path=out / name))
    return {"text": "".join(x + "\n" for x in lines), "sides": sides, "rows": table,
            "played": bar.done - bar.base, "resumed": len(resumed)}

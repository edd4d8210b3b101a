"""Speed work behind the benchmarks (docs/performance.md) that must not change behaviour:
the CLI's start-up fast path for resolve/check/submit, the one-flush atomic_dir, cached cell
parsing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gm_tool.core.grid import parse_cell
from gm_tool.core.store import atomic_dir
from tests.conftest import tree, write

ROOT = Path(__file__).resolve().parents[1]
# runs gm's main() as the console script does, and reports whether pydantic (and typer) were imported
PROBE = ("import atexit, sys; atexit.register(lambda: sys.stderr.write('\\nPYDANTIC=%s TYPER=%s' % "
         "('pydantic' in sys.modules, 'typer' in sys.modules)));"
         "from gm_tool.entry import main; sys.argv = ['gm'] + sys.argv[1:]; main()")


def gm_process(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    env.pop("GM_LANG", None)
    return subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env)


def _sheet(tmp: Path, name: str, text: str) -> Path:
    return write(tmp / name, text)


def test_fast_resolve_matches_typer(gm, skirmish, tmp_path):
    twin = tmp_path / "twin"
    shutil.copytree(skirmish, twin)
    sheet = _sheet(tmp_path, "alice.yaml", "turn: 1\nplayer: alice\nmove: {to: B3}\n")
    gm("submit", skirmish, sheet)
    fast = gm_process("submit", twin, sheet, cwd=tmp_path)
    assert fast.returncode == 0 and "PYDANTIC=False" in fast.stderr
    via_typer = gm("resolve", skirmish)
    fast = gm_process("resolve", twin, cwd=tmp_path)
    assert fast.returncode == 0, fast.stderr
    assert "PYDANTIC=False TYPER=False" in fast.stderr
    assert fast.stdout.replace(str(twin), "DIR") == via_typer.stdout.replace(str(skirmish), "DIR")
    assert tree(twin) == tree(skirmish)  # same state, log and posts, byte for byte


HEAVY = ("dask", "distributed", "matplotlib", "numpy")


@pytest.mark.parametrize("command", ["resolve", "status"])
def test_turn_commands_do_not_load_the_balance_engine(command, gm, skirmish, tmp_path):
    """Dask and matplotlib are imported by `gm simulate` and `gm sweep` only: the turn commands'
    start-up does not grow (P1 of bench/bench.py measures it)."""
    probe = ("import atexit, sys; atexit.register(lambda: sys.stderr.write('\\nHEAVY=%s' % sorted(m for m in sys.modules "
             f"if m.split('.')[0] in {HEAVY!r})));"
             "from gm_tool.entry import main; sys.argv = ['gm'] + sys.argv[1:]; main()")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GM_LANG", None)
    result = subprocess.run([sys.executable, "-c", probe, command, str(skirmish)], capture_output=True, text=True,
                            cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert "HEAVY=[]" in result.stderr


def test_fast_check_errors_and_lang(gm, skirmish, tmp_path):
    good = _sheet(tmp_path, "a.yaml", "turn: 1\nplayer: alice\n")
    bad = _sheet(tmp_path, "b.yaml", "turn: 1\nplayer: bob\nmove: {to: Z99}\n")
    before = tree(skirmish)
    ok = gm_process("check", skirmish, good, "--lang", "en", cwd=tmp_path)
    assert ok.returncode == 0 and "valid (alice)" in ok.stdout and "PYDANTIC=False" in ok.stderr
    fast = gm_process("check", skirmish, good, bad, cwd=tmp_path)
    slow = gm("check", skirmish, good, bad, code=1)
    assert fast.returncode == 1
    assert "move.to" in fast.stderr and fast.stderr.split("\nPYDANTIC")[0].strip() == slow.stderr.strip()
    assert tree(skirmish) == before
    nowhere = gm_process("resolve", tmp_path / "nowhere", "--lang=en", cwd=tmp_path)
    assert nowhere.returncode == 1 and "not a campaign folder" in nowhere.stderr
    badlang = gm_process("resolve", skirmish, "--lang", "fr", cwd=tmp_path)
    assert badlang.returncode == 2 and "fr" in badlang.stderr


@pytest.mark.parametrize("args", [("resolve", "--help"), ("resolve",), ("resolve", "a", "b"), ("status", "x")])
def test_everything_else_goes_through_typer(args, tmp_path):
    result = gm_process(*args, cwd=tmp_path)
    if "--help" in args:
        assert result.returncode == 0 and "Usage" in result.stdout
    elif args[0] == "status":
        assert result.returncode == 1 and "campaign.yaml" in result.stderr
    else:
        assert result.returncode == 2 and "Usage" in result.stderr


def test_atomic_dir_writes_and_replaces(tmp_path):
    target = tmp_path / "reports" / "turn-001"
    atomic_dir(target, {"public.md": "公开", "a/alice.md": "私信", "pic.png": b"\x89PNG"})
    assert (target / "public.md").read_text("utf-8") == "公开"
    assert (target / "a" / "alice.md").read_text("utf-8") == "私信"
    assert (target / "pic.png").read_bytes() == b"\x89PNG"
    atomic_dir(target, {"public.md": "new"})
    assert sorted(p.name for p in target.iterdir()) == ["public.md"]
    assert [p.name for p in target.parent.iterdir()] == ["turn-001"]  # no stage or old copy left


def test_parse_cell_cache_keeps_errors_and_bounds():
    assert parse_cell("C11") == parse_cell(" (c,11) ") == (2, 10)
    for _ in range(2):  # errors are raised every time, not cached away
        with pytest.raises(ValueError, match="not a cell"):
            parse_cell("C-1")
        with pytest.raises(ValueError, match="off the board"):
            parse_cell("F1", 5, 5)
    assert parse_cell("F1") == (5, 0)

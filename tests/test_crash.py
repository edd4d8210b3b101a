"""Crash safety (issue 6): `gm resolve`, `gm rollback`, `gm amend` and `gm submit` killed with
SIGKILL at every write step (fault injection: GM_FAULT_AT=k in gm_tool.core.store), and
`python -m gm_tool resolve` killed at sampled steps and after random delays. Each time the
campaign is found at turn N or N+1, never between, `gm verify` passes, and the next command
finishes the work exactly as an uninterrupted run would have.

Every-step runs fork this test process (the child has everything imported already, so each
run costs only the command itself); the child kills itself with SIGKILL at step k."""

from __future__ import annotations

import contextlib
import errno
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from unittest import mock

import pytest

from gm_tool import app
from gm_tool.core import store
from tests.conftest import tree, write

ROOT = Path(__file__).resolve().parent.parent


def _spawn(args: list[str], fault: int | None) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("GM_FAULT_AT", "GM_LANG")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    if fault is not None:
        env["GM_FAULT_AT"] = str(fault)
    return subprocess.Popen([sys.executable, "-m", "gm_tool", *args], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _fork_all(calls: dict[int, Callable[[], object]]) -> dict[int, int]:
    """Run each call in a forked child with GM_FAULT_AT=k; {k: exit status} (-9: killed)."""
    pids = {}
    for k, fn in calls.items():
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            code = 0
            try:
                os.environ["GM_FAULT_AT"] = str(k)
                store._steps = 0
                fn()
            except BaseException:
                code = 3
            finally:
                os._exit(code)
        pids[k] = pid
    out = {}
    for k, pid in pids.items():
        _, status = os.waitpid(pid, 0)
        out[k] = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    return out


def _steps(fn) -> int:
    before = store.steps()
    fn()
    return store.steps() - before


@contextlib.contextmanager
def _read_only() -> Iterator[None]:
    """Every way gm changes a folder fails as on a read-only disk (EROFS): a published copy."""
    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(args[0]) if args else None)

    with contextlib.ExitStack() as stack:
        for target in ("os.replace", "os.rename", "os.unlink", "os.rmdir", "os.mkdir", "tempfile.mkstemp",
                       "tempfile.mkdtemp", "shutil.rmtree"):
            stack.enter_context(mock.patch(target, refuse))
        yield


def _verify_read_only(d: Path) -> set[str]:
    """`gm verify` of ``d`` as a read-only copy: it passes and changes nothing; the kinds of its
    notes (what it could not finish and left out)."""
    before = tree(d)
    with _read_only():
        result = app.verify(d)
    assert tree(d) == before
    return {note["kind"] for note in result["notes"]}


def _clean(files: dict[str, bytes]) -> dict[str, bytes]:
    return {k: v for k, v in files.items() if not store.is_debris(Path(k).name)}


def _outputs(d: Path) -> dict[str, bytes]:
    """The files a turn writes (states, logs, posts), for comparing with an uninterrupted run."""
    return {k: v for k, v in tree(d).items() if k.split("/")[0] in ("state", "log", "reports")}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A campaign after turn 1, with a sheet and a GM edit waiting for turn 2."""
    d = tmp_path_factory.mktemp("crash") / "base"
    app.new_campaign(d, "skirmish", "crash-test-seed-0123456789")
    app.resolve(d)
    sheet = write(d.parent / "a.yaml", "turn: 2\nplayer: alice\nmove: {to: A2}\n")
    app.submit(d, sheet, "zh")
    app.amend(d, "set_hp", ["medea", "3"], "测试")
    return d


@pytest.fixture(scope="module")
def reference(base, tmp_path_factory) -> dict[str, bytes]:
    d = tmp_path_factory.mktemp("ref") / "c"
    shutil.copytree(base, d)
    app.resolve(d)
    app.verify(d)
    return _outputs(d)


def _check_resolved_or_not(d: Path, reference: dict[str, bytes]) -> int:
    turn = store.Campaign(d).latest()
    assert turn in (1, 2)
    app.verify(d)
    if turn == 1:
        assert not (d / "state/turn-002.json").exists()
        app.resolve(d)  # the next run sweeps the debris and resolves the turn
    assert _outputs(d) == reference  # byte for byte what an uninterrupted (and verified) run writes
    assert not [p for p in d.rglob("*") if store.is_debris(p.name)]
    return turn


def test_resolve_killed_at_every_write_step(base, reference, tmp_path):
    probe = tmp_path / "probe"
    shutil.copytree(base, probe)
    total = _steps(lambda: app.resolve(probe))
    assert total >= 6
    dirs = {k: tmp_path / f"k{k}" for k in range(1, total + 2)}  # the last run is not killed
    for d in dirs.values():
        shutil.copytree(base, d)
    status = _fork_all({k: (lambda d=d: app.resolve(d)) for k, d in dirs.items()})
    assert status == {k: (-signal.SIGKILL if k <= total else 0) for k in dirs}
    # Resolving again is checked after every step but the middle of the staging loop, sampled
    # (a kill after the i-th staged post leaves the same kind of debris for every i).
    again = set(range(1, 4)) | set(range(total - 8, total + 2)) | set(range(4, total - 8, 4))
    seen = set()
    for k, d in dirs.items():
        if k in again:
            seen.add(_check_resolved_or_not(d, reference))
        else:
            assert store.Campaign(d).latest() == 1
            app.verify(d)
    assert seen == {1, 2}  # both outcomes happened: killed before and after the commit point


def test_cli_resolve_killed_at_sampled_steps(base, reference, tmp_path):
    """The real command line, killed at its first write, in the middle, and at the commit point."""
    probe = tmp_path / "probe"
    shutil.copytree(base, probe)
    total = _steps(lambda: app.resolve(probe))
    procs = {}
    for k in (1, total // 2, total - 1, total):
        d = tmp_path / f"k{k}"
        shutil.copytree(base, d)
        procs[k] = (d, _spawn(["resolve", str(d)], k))
    for k, (d, proc) in procs.items():
        proc.wait(timeout=120)
        assert proc.returncode == -signal.SIGKILL, (k, proc.stderr.read())
        assert _check_resolved_or_not(d, reference) == (2 if k == total else 1)


def test_resolve_killed_after_random_delays(base, reference, tmp_path):
    d0 = tmp_path / "timing"
    shutil.copytree(base, d0)
    start = time.monotonic()
    proc = _spawn(["resolve", str(d0)], None)
    assert proc.wait(timeout=120) == 0
    duration = time.monotonic() - start
    rng = random.Random(6)
    runs = []
    for i in range(6):
        d = tmp_path / f"r{i}"
        shutil.copytree(base, d)
        runs.append((d, _spawn(["resolve", str(d)], None), rng.uniform(0.3, 1.1) * duration))
    begun = time.monotonic()
    for _d, proc, delay in sorted(runs, key=lambda r: r[2]):
        time.sleep(max(0.0, begun + delay - time.monotonic()))
        proc.send_signal(signal.SIGKILL)
    for d, proc, _ in runs:
        proc.wait(timeout=120)
        _check_resolved_or_not(d, reference)


def test_rollback_killed_at_every_write_step(base, tmp_path):
    three = tmp_path / "three"
    shutil.copytree(base, three)
    app.resolve(three)
    app.amend(three, "move", ["gawain", "C3"], "x")
    app.resolve(three)
    app.submit(three, write(tmp_path / "a4.yaml", "turn: 4\nplayer: alice\n"), "zh")
    probe = tmp_path / "probe"
    shutil.copytree(three, probe)
    total = _steps(lambda: app.rollback(probe, 1))
    want = tree(probe)
    dirs = {k: tmp_path / f"k{k}" for k in range(1, total + 2)}
    for d in dirs.values():
        shutil.copytree(three, d)
    status = _fork_all({k: (lambda d=d: app.rollback(d, 1)) for k, d in dirs.items()})
    assert status == {k: (-signal.SIGKILL if k <= total else 0) for k in dirs}
    outcomes = set()
    read_only = set()
    for k, d in dirs.items():
        at = store.Campaign(d).latest()
        assert 1 <= at <= 3
        if k % 2:  # a read-only copy of it (EROFS) verifies as it is, the rollback not finished
            read_only |= _verify_read_only(d)
        app.verify(d)  # whatever turn it shows is whole
        op = app.open_campaign(d)
        with app._locked(op):  # any later command first finishes a pending rollback
            pass
        at = store.Campaign(d).latest()
        outcomes.add(at)
        if at == 3:  # killed before its journal was written: the rollback never happened
            assert tree(d) == tree(three)
        else:
            assert at == 1 and tree(d) == want
        app.verify(d)
    assert outcomes == {1, 3} and "pending_rollback" in read_only


def test_amend_and_submit_killed_at_every_write_step(base, tmp_path):
    sheet = write(tmp_path / "b.yaml", "turn: 2\nplayer: bob\nmove: {to: C3}\n")
    commands = {"amend": lambda d: app.amend(d, "close_area", ["E4"], "流局"),
                "submit": lambda d: app.submit(d, sheet, "zh")}
    for name, run in commands.items():
        probe = tmp_path / f"probe-{name}"
        shutil.copytree(base, probe)
        total = _steps(lambda run=run, probe=probe: run(probe))
        dirs = {k: tmp_path / f"{name}{k}" for k in range(1, total + 2)}
        for d in dirs.values():
            shutil.copytree(base, d)
        status = _fork_all({k: (lambda d=d, run=run: run(d)) for k, d in dirs.items()})
        assert status == {k: (-signal.SIGKILL if k <= total else 0) for k in dirs}
        changed = set()
        for d in dirs.values():
            files = _clean(tree(d))
            assert files in (tree(base), tree(probe))  # all or nothing
            changed.add(files != tree(base))
            app.verify(d)
            app.resolve(d)
            app.verify(d)
        assert changed == {False, True}


def _posts(d: Path) -> dict[str, bytes]:
    """The posts (debris of an interrupted write aside: no reader takes it for data)."""
    return {k: v for k, v in tree(d).items() if k.startswith("reports/") and not any(map(store.is_debris, k.split("/")))}


def test_forum_killed_at_every_write_step_rewrites_all_posts_or_none(base, tmp_path):
    """issue 24: `gm forum` renders every stored post again with the new settings; killed
    half-way it left some turns in one dialect and some in the other, which gm verify reported
    as tampering (29 of 30 kill points). Its journal (.rerender-pending.json) is written first
    and campaign.yaml is its commit point: whatever the kill point, the next command (here gm
    verify) finishes it, and the posts are all old or all new. A read-only copy of the folder as
    the kill left it (where it cannot be finished) verifies too: each turn's posts are those of
    the old settings or the new, and a turn's folder a kill left moved aside is read there."""
    two = tmp_path / "two"
    shutil.copytree(base, two)
    app.resolve(two)
    probe = tmp_path / "probe"
    shutil.copytree(two, probe)
    total = _steps(lambda: app.set_forum(probe, dialect="phpbb", names={"alice": "Red Fan"}))
    old, new = _posts(two), _posts(probe)
    assert old != new and total >= 6
    dirs = {k: tmp_path / f"k{k}" for k in range(1, total + 2)}
    for d in dirs.values():
        shutil.copytree(two, d)
    status = _fork_all({k: (lambda d=d: app.set_forum(d, dialect="phpbb", names={"alice": "Red Fan"}))
                        for k, d in dirs.items()})
    assert status == {k: (-signal.SIGKILL if k <= total else 0) for k in dirs}
    outcomes = set()
    read_only = set()
    swapped = 0
    for k, d in dirs.items():
        halfway = bool(store.Campaign(d).half_swapped())  # a turn's folder moved aside, the new not in yet
        swapped += halfway
        if halfway or k % 3 == 0:
            read_only |= _verify_read_only(d)
        app.verify(d)  # finishes what the kill left, then proves every post
        assert not (d / getattr(store, "RERENDER", ".rerender-pending.json")).exists()
        posts = _posts(d)
        assert posts in (old, new)
        outcomes.add(posts == new)
    assert outcomes == {False, True} and swapped and "pending_forum" in read_only


@pytest.mark.parametrize("in_place", [False, True], ids=["new-folder", "empty-folder"])
def test_new_killed_at_every_write_step_leaves_a_whole_campaign_or_none(tmp_path, in_place):
    """issue 24: `gm new` published the folder, then wrote the opening posts: killed in between,
    the campaign never got them. They are now written inside the folder it publishes: a kill at
    any step leaves a whole campaign with its opening posts, or nothing (or a fill the next gm
    new clears), and gm new then makes it whole."""
    seed = "killed-new-0123456789abcdef"
    probe = tmp_path / "probe"
    if in_place:
        probe.mkdir()
    total = _steps(lambda: app.new_campaign(probe, "skirmish", seed))
    want = {k: v for k, v in tree(probe).items() if k.split("/")[0] in ("state", "log", "reports")}
    assert any(k.startswith("reports/turn-000/") for k in want)
    dirs = {k: tmp_path / f"k{k}" for k in range(1, total + 2)}
    for d in dirs.values():
        if in_place:
            d.mkdir()
    status = _fork_all({k: (lambda d=d: app.new_campaign(d, "skirmish", seed)) for k, d in dirs.items()})
    assert status == {k: (-signal.SIGKILL if k <= total else 0) for k in dirs}
    made = set()
    for d in dirs.values():
        whole = store.Campaign(d).exists()
        made.add(whole)
        if not whole:  # nothing, or what a killed in-place fill left: gm new again
            app.new_campaign(d, "skirmish", seed)
        app.verify(d)
        assert {k: v for k, v in tree(d).items() if k.split("/")[0] in ("state", "log", "reports")} == want
    assert made == {False, True}

"""Shared fixtures: a CLI runner with a pinned terminal width, and fresh campaigns."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests import toy

toy.register()  # the toy sequential ruleset (tests/toy) is known to every test, like a bundled one

from gm_tool.cli import app  # noqa: E402  (after the toy is known: `gm amend --help` lists it)

os.environ.setdefault("COLUMNS", "120")
os.environ.pop("GM_LANG", None)


class Gm:
    def __init__(self) -> None:
        self.runner = CliRunner()

    def __call__(self, *args: str | Path, code: int | None = 0):
        result = self.runner.invoke(app, [str(a) for a in args], env={"COLUMNS": "120", "GM_LANG": ""})
        if code is not None:
            assert result.exit_code == code, (result.exit_code, result.output, result.stderr if result.stderr_bytes else "")
        assert "Traceback" not in result.output
        return result


@pytest.fixture
def gm() -> Gm:
    return Gm()


@pytest.fixture
def skirmish(tmp_path: Path, gm: Gm) -> Path:
    d = tmp_path / "c"
    gm("new", d, "--scenario", "skirmish", "--seed", "test-seed")
    return d


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def tree(root: Path) -> dict[str, bytes]:
    """Every file under root (except the lock), for 'nothing changed' assertions."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}


def player_picture(files, player: str) -> str:
    """A player's picture among a turn's files: ``map-PLAYER-TOKEN.png`` (the token comes from
    the campaign's secret: no player can guess another's address, issue 19)."""
    import re

    found = [f for f in files if re.fullmatch(rf"map-{re.escape(player)}-[0-9a-f]{{12}}\.png", f)]
    assert len(found) == 1, (player, sorted(files))
    return found[0]


def grail_posts(*args, **kwargs) -> dict:
    """The grail war's posts of a turn as one mapping: ``{audience: {fmt: text}, "files": {...}}``
    (rendered by the core's pipeline, pictures named with an empty secret)."""
    from gm_tool.rulesets.grail_war import RULESET

    out = RULESET.posts(*args, **kwargs)
    return {**out.texts, "files": out.files}

"""The core serves every ruleset and knows none: no game's words in the core or in the
game-neutral modules around it (the commands, the console, the simulator, the demo). The
generic test every ruleset passes is tests/test_conformance.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "gm_tool"
NEUTRAL = sorted(PACKAGE.glob("core/*.py")) + [PACKAGE / f for f in ("app.py", "cli.py", "console.py", "simulate.py",
                                                                      "errors.py", "i18n.py", "cases.py")]
GAME_WORDS = re.compile(r"grail|stronghold|territory|SABER|CASTER|LANCER|杀|闪|宝石|据点|servant|fuyuki|领土|职阶|"
                        r"hunlu|guangying|shenjianglu|魂|神将|光与影|\bgeneral|\bsquad|\bmana\b|\bking\b", re.I)


def test_core_has_no_game_words():
    hits = [f"{p.relative_to(PACKAGE)}:{i}: {line.strip()}" for p in NEUTRAL
            for i, line in enumerate(p.read_text("utf-8").splitlines(), 1) if GAME_WORDS.search(line)]
    assert hits == []


@pytest.mark.parametrize("module", ["grid", "deck", "schema", "store"])
def test_core_doctests(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"gm_tool.core.{module}"))
    assert result.attempted > 0 and result.failed == 0


def test_a_problem_is_found_on_its_line_and_named_in_the_sheets_own_words():
    """Issue 19: "Errors name fields in the words the sheet used ... their line numbers are right
    for sheets written with Chinese keys: a ruleset declares its aliases once"."""
    from gm_tool.core.yamlpos import annotate
    from gm_tool.errors import GmError, Problem

    text = "回合: 1\n玩家: ann\n步伐:\n  - 式样: 移\n    落点: K2\n  - 式样: 攻\n    落点: Z9\n"
    aliases = {"步伐": "zz_strides", "式样": "zz_kind", "落点": "zz_spot"}
    err = annotate(GmError([Problem("x.bad", "s.yaml", "zz_strides[1].zz_spot"), Problem("x.bad", "s.yaml", "zz_strides[1].range"),
                            Problem("x.bad", "other.yaml", "zz_strides[0]")]), "s.yaml", text, aliases)
    (a, b, c) = err.problems
    assert (a.line, a.field) == (7, "步伐[1].落点")
    assert (b.line, b.field) == (6, "步伐[1].range")  # the part the sheet lacks is kept as given
    assert (c.line, c.field) == (None, "zz_strides[0]")  # another file's problem is left alone
    # without the ruleset's words the key is not found: the problem points at the top
    assert annotate(GmError(Problem("x.bad", "s.yaml", "zz_strides[1].zz_spot")), "s.yaml", text).problems[0].line == 1

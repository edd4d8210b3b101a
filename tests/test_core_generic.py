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

"""`gm demo`: a three-turn campaign on the default scenario, played by the built-in bots.

Each turn, every player's sheet is written by a bot into ``DIR/sheets/turn-NNN/``, submitted
through the same path as a human's (``gm submit``), and the turn is resolved; posts are written
under ``DIR/reports/``. ``export`` copies the sheets and posts into a repository's ``orders/``
and ``reports/`` folders (the committed examples).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from gm_tool import app as ops
from gm_tool.core.chance import Chance
from gm_tool.core.store import atomic_write, dump_yaml, turn_name

DEMO_SEED = "gm-tool-demo"


def free_dir(base: Path) -> Path:
    """``base`` if it does not exist yet, else ``base-2``, ``base-3``... (nothing is overwritten)."""
    if not base.exists():
        return base
    k = 2
    while base.with_name(f"{base.name}-{k}").exists():
        k += 1
    return base.with_name(f"{base.name}-{k}")


def run(directory: Path, scenario: str = "fuyuki", turns: int = 3, bots: str = "greedy",
        lang: str = "zh") -> dict[str, Any]:
    ops.new_campaign(directory, scenario, DEMO_SEED, lang)
    written: list[str] = []
    played = 0
    for _ in range(turns):
        op = ops.open_campaign(directory)
        state = op.state()
        if state.get("winner"):
            break
        n = op.campaign.latest() + 1
        chance = Chance(DEMO_SEED, f"bots-{n}")
        for player in op.ruleset.due(state):
            sheet = op.ruleset.bot_sheet(state, player, bots, chance)
            path = directory / "sheets" / turn_name(n) / f"{player}.yaml"
            atomic_write(path, dump_yaml(sheet))
            ops.submit(directory, path, lang)
        result = ops.resolve(directory)
        written.extend(result["reports"])
        played += 1
    return {"dir": str(directory), "turns": played, "reports": written}


def export(directory: Path, repo: Path) -> None:
    """Copy a demo's stored sheets and posts to ``repo/orders`` and ``repo/reports``."""
    for sub in ("orders", "reports"):
        target = repo / sub / "demo"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(directory / sub, target)

"""`gm demo`: a campaign on a ruleset's bundled scenario, played by the built-in bots to the end
(or for the turns the ruleset's ``demo_turns`` says: the grail war's README demo is three nights).

Each turn, every due player's sheet is written by a bot into ``DIR/sheets/turn-NNN/``, submitted
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
DEFAULT_RULESET = "grail_war"  # the README's demo


def free_dir(base: Path) -> Path:
    """``base`` if it does not exist yet, else ``base-2``, ``base-3``... (nothing is overwritten)."""
    if not base.exists():
        return base
    k = 2
    while base.with_name(f"{base.name}-{k}").exists():
        k += 1
    return base.with_name(f"{base.name}-{k}")


MAX_TURNS = 1000


def scenario_of(ruleset: str | None, scenario: str | None) -> str:
    """The scenario a demo plays: the one named, else the ruleset's bundled default."""
    from gm_tool.core import ruleset as rulesets

    if scenario is not None:
        return scenario
    return rulesets.get(ruleset or DEFAULT_RULESET).default_scenario


def run(directory: Path, scenario: str = "fuyuki", turns: int | None = None, bots: str = "greedy",
        lang: str = "zh") -> dict[str, Any]:
    """Create the campaign and let the bots play ``turns`` turns (None: the ruleset's
    ``demo_turns``, else to the end, at most MAX_TURNS)."""
    ops.new_campaign(directory, scenario, DEMO_SEED, lang)
    op = ops.open_campaign(directory)
    if turns is None:
        turns = op.ruleset.demo_turns or MAX_TURNS
    kind = bots if bots in op.ruleset.bot_kinds else op.ruleset.bot_kinds[-1]
    written: list[str] = []
    played = 0
    for _ in range(turns):
        state = op.state()
        if op.winner(state) is not None:
            break
        n = op.campaign.latest() + 1
        chance = Chance(DEMO_SEED, f"bots-{n}")
        for player in op.ruleset.due(state):
            sheet = op.ruleset.bot_sheet(state, player, kind, chance)
            path = directory / "sheets" / turn_name(n) / f"{player}.yaml"
            atomic_write(path, dump_yaml(sheet))
            ops.submit(directory, path, lang)
        result = ops.resolve(directory)
        written.extend(result["reports"])
        played += 1
    return {"dir": str(directory), "turns": played, "reports": written,
            "winner": op.winner(op.state()), "result": op.result(op.state(), lang)}


def export(directory: Path, repo: Path, lang: str = "zh") -> list[str]:
    """Copy a demo's stored sheets and posts to ``repo/orders/demo`` and ``repo/reports/demo``,
    with the commented sheets of the next turn (``gm template``) under
    ``repo/orders/demo/template-turn-NNN/``. Returns the folders written."""
    written = []
    for sub in ("orders", "reports"):
        target = repo / sub / "demo"
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(directory / sub, target)
        written.append(str(target))
    op = ops.open_campaign(directory)
    state = op.state()
    folder = repo / "orders" / "demo" / f"template-{turn_name(op.campaign.latest() + 1)}"
    for player in op.ruleset.due(state):
        atomic_write(folder / f"{player}.yaml", ops.template(directory, player, lang))
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m gm_tool.demo [REPO]``: play the README's demo (``gm demo``: the default
    scenario, three turns, the greedy bots) in a temporary folder and export it into REPO
    (default: the current folder) as the committed example."""
    import sys
    import tempfile

    args = sys.argv[1:] if argv is None else argv
    repo = Path(args[0]) if args else Path(".")
    with tempfile.TemporaryDirectory() as tmp:
        result = run(Path(tmp) / "demo", "fuyuki")
        for folder in export(Path(tmp) / "demo", repo):
            print(folder)
    print(f"{result['turns']} turns exported")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Helpers of the black-box contract tests: only the CLI and the JSON files it writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

SEED = "contract-audit-seed-0123456789abcdef"


def new(gm, tmp_path: Path, scenario: str, name: str = "c", seed: str = SEED, code: int | None = 0):
    """`gm new` on a bundled scenario name, or on scenario YAML text (written to a file first)."""
    ref = scenario
    if "\n" in scenario:
        path = tmp_path / f"{name}-scenario.yaml"
        path.write_text(scenario, encoding="utf-8")
        ref = str(path)
    folder = tmp_path / name
    result = gm("new", folder, "--scenario", ref, "--seed", seed, code=code)
    return folder if code == 0 else result


def sheet(tmp_path: Path, text: str, name: str = "sheet.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def show(gm, folder: Path, player: str | None = None) -> dict:
    args = ["show", folder, "--json"] + (["--player", player] if player else [])
    return json.loads(gm(*args).output)


def status(gm, folder: Path) -> dict:
    return json.loads(gm("status", folder, "--json", "--lang", "en").output)


def state_file(folder: Path, n: int) -> dict:
    return json.loads((folder / "state" / f"turn-{n:03d}.json").read_text("utf-8"))


def events(folder: Path, n: int) -> list[dict]:
    text = (folder / "log" / f"turn-{n:03d}.jsonl").read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def play(gm, folder: Path, tmp_path: Path, text: str, name: str = "sheet.yaml"):
    """Submit one sheet and resolve the turn; returns the resolve result."""
    gm("submit", folder, sheet(tmp_path, text, name))
    return gm("resolve", folder, "--lang", "en")


def refusals(output: str) -> list[str]:
    """The problem lines of a refused `gm check` (one a problem)."""
    return [line for line in output.splitlines() if "actions" in line or "player" in line or "turn" in line]


def alice_sheet(actions: str, turn: int = 1) -> str:
    """A sheet of alice's with the given YAML flow list of actions."""
    return f"turn: {turn}\nplayer: alice\nactions: {actions}\n"


def check(gm, folder: Path, tmp_path: Path, text: str, code: int = 1) -> list[str]:
    """`gm check` of one sheet in English; the refusal lines (one per problem)."""
    r = gm("check", folder, sheet(tmp_path, text, "check.yaml"), "--lang", "en", code=code)
    return [line for line in r.output.splitlines() if line.strip() and not re.search(r": valid \(\w+\)$", line)]


def amend(gm, folder: Path, *edits: tuple[str, ...]) -> None:
    """Several GM edits (`gm amend DIR ACTION ARGS...`), each with the reason "audit"."""
    for edit in edits:
        gm("amend", folder, *edit, "--reason", "audit")

"""Golden posts: a fixed grail-war campaign whose posts, in every format and language, are
compared with the committed files under ``tests/golden/grail_war/`` (tests/test_posts_golden.py).

Regenerate the expected posts after an intended change to the posts or templates::

    python -m tests.regen_golden            # re-render the posts from the stored campaign
    python -m tests.regen_golden --replay   # also replay the campaign with the current engine

The campaign itself (states and event logs, ``campaign/``) is stored too, so a change in the
combat engine or the bots does not move the golden posts until ``--replay`` is asked for.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from gm_tool.core.events import jsonl

GOLDEN = Path(__file__).parent / "golden" / "grail_war"
SEED = "golden-posts"
TURNS = 3

# skirmish's map with names that carry markup (escaping is part of what the goldens pin)
SCENARIO: dict[str, Any] = {
    "ruleset": "grail_war", "name": "golden", "sides": ["red", "blue"],
    "map": {"width": 8, "height": 6,
            "rows": ["...~~...", ".^.~~.^.", "...~~...", "........", "...~~...", "#..~~..#"],
            "strongholds": [
                {"id": 1, "name": "柳洞寺", "pos": "A1", "kind": "heal", "territory": ["A1", "B1", "C1", "A2", "B2", "C2"]},
                {"id": 2, "name": "远坂邸 [b]x[/b]", "pos": "B5", "kind": "hand",
                 "territory": ["A4", "B4", "C4", "A5", "B5", "C5", "A6", "B6", "C6"], "owner": "red"},
                {"id": 3, "name": "冬木教会", "pos": "H1", "kind": "vision", "territory": ["F1", "G1", "H1", "F2", "G2", "H2"]},
                {"id": 4, "name": "新都站前", "pos": "G5", "kind": "equipment",
                 "territory": ["F4", "G4", "H4", "F5", "G5", "H5", "F6", "G6", "H6"], "owner": "blue"},
                {"id": 5, "name": "新都大桥", "pos": "D4", "kind": "bridge", "territory": ["D4"]}]},
    "characters": [
        {"id": "artoria", "name": "阿尔托利亚", "class": "CASTER", "side": "red", "player": "alice", "pos": "C4"},
        {"id": "gawain", "name": "**高文** <i>", "class": "SABER", "side": "red", "player": "bob", "pos": "B3"},
        {"id": "medea", "name": "美狄亚", "class": "CASTER", "side": "blue", "player": "heidi", "pos": "G3"},
        {"id": "mordred", "name": "[url=javascript:alert(1)]莫德雷德[/url]", "class": "SABER", "side": "blue",
         "player": "ivan", "pos": "E4"},
    ],
}


def play(scenario: dict[str, Any], seed: str, turns: int, bots: str = "greedy") -> list[dict[str, Any]]:
    """Play ``turns`` turns in memory with the built-in bots: the states (from turn 0) and logs."""
    from gm_tool.core.chance import Chance
    from gm_tool.rulesets.grail_war import RULESET

    state = RULESET.setup(scenario, "<scenario>", seed)
    states, logs = [state], []
    for n in range(1, turns + 1):
        if state.get("winner") is not None:
            break
        chance = Chance(seed, f"bots-{n}")
        orders = {p: RULESET.parse_orders(state, RULESET.bot_sheet(state, p, bots, chance), f"{p}.yaml", "zh")
                  for p in RULESET.due(state)}
        result = RULESET.resolve(state, orders, seed)
        state = result.state
        states.append(state)
        logs.append(result.events)
    return {"states": states, "logs": logs}


def load_campaign() -> dict[str, Any]:
    folder = GOLDEN / "campaign"
    states = [json.loads(p.read_text("utf-8")) for p in sorted(folder.glob("turn-*.json"))]
    logs = [[json.loads(line) for line in p.read_text("utf-8").splitlines() if line.strip()]
            for p in sorted(folder.glob("turn-*.jsonl"))]
    return {"states": states, "logs": logs}


def save_campaign(campaign: dict[str, Any]) -> None:
    folder = GOLDEN / "campaign"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for n, state in enumerate(campaign["states"]):
        (folder / f"turn-{n:03d}.json").write_text(json.dumps(state, ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8")
    for n, log in enumerate(campaign["logs"], start=1):
        (folder / f"turn-{n:03d}.jsonl").write_text(jsonl(log), "utf-8")


def pixels(png: bytes) -> str:
    """A digest of a picture's pixels (not of its PNG bytes, which depend on the zlib build)."""
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        return f"{im.size[0]}x{im.size[1]} " + hashlib.sha256(im.convert("RGB").tobytes()).hexdigest()


def render(campaign: dict[str, Any]) -> dict[str, str]:
    """Every expected file: ``{relative path: text}`` (posts of each turn in Chinese, and the
    last turn's in English too; a digest of each picture's pixels)."""
    from gm_tool.core.render import markdown_to_html
    from tests.conftest import grail_posts as posts

    out: dict[str, str] = {}
    states, logs = campaign["states"], campaign["logs"]
    from gm_tool.rulesets.grail_war import RULESET

    for lang in ("zh", "en"):  # the opening posts (turn 0, issue 15)
        opening = RULESET.opening_posts(states[0], lang)
        prefix = "turn-000" + ("" if lang == "zh" else "-en")
        for who, formats in opening.texts.items():
            for fmt, text in formats.items():
                out[f"{prefix}/{who}.{fmt}"] = text
        if lang == "zh":
            out[f"{prefix}/pictures.txt"] = "".join(f"{name} {pixels(data)}\n" for name, data in sorted(opening.files.items()))
    for n, events in enumerate(logs, start=1):
        for lang in ("zh", "en") if n == len(logs) else ("zh",):
            rendered = posts(states[n - 1], states[n], events, lang)
            prefix = f"turn-{n:03d}" + ("" if lang == "zh" else "-en")
            for who, formats in rendered.items():
                if who == "files":
                    continue
                for fmt, text in formats.items():
                    out[f"{prefix}/{who}.{fmt}"] = text
                # the HTML preview, as `gm report --format html` renders it from the Markdown
                out[f"{prefix}/{who}.html"] = markdown_to_html(formats["md"], title=f"turn-{n:03d} {who}")
            if lang == "zh":
                out[f"{prefix}/pictures.txt"] = "".join(f"{name} {pixels(data)}\n"
                                                        for name, data in sorted(rendered["files"].items()))
    return out


def expected_files() -> dict[str, str]:
    return {str(p.relative_to(GOLDEN)): p.read_text("utf-8") for p in sorted(GOLDEN.rglob("*"))
            if p.is_file() and p.parts[len(GOLDEN.parts)] != "campaign"}


def main(argv: list[str]) -> int:
    if "--replay" in argv or not (GOLDEN / "campaign").exists():
        save_campaign(play(SCENARIO, SEED, TURNS))
    for p in sorted(GOLDEN.iterdir()):
        if p.is_dir() and p.name != "campaign":
            shutil.rmtree(p)
    files = render(load_campaign())
    for rel, text in files.items():
        path = GOLDEN / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    print(f"{len(files)} golden files written under {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

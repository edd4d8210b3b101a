"""Golden posts of a turn with GM edits, in every forum dialect (issue 15): the golden campaign's
turn 2 replayed after the GM closed an area, gave a card and handed a character to a replacement
player, rendered as Discuz (zh), NGA with display names and uploaded pictures (zh) and phpBB
(en). The turn (states and log) is stored under ``tests/golden/grail_war_edits/campaign/`` so a
change of the engine does not move these posts until it is replayed.

Regenerate after an intended change of the posts::

    python -m tests.test_posts_golden_edits            # re-render from the stored turn
    python -m tests.test_posts_golden_edits --replay   # also replay the turn with the engine
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from gm_tool.core.events import jsonl

GOLDEN = Path(__file__).parent / "golden" / "grail_war_edits"
EDITS = [
    {"action": "close_area", "args": ["E2", "E3"], "reason": "流局：河东岸封锁"},
    {"action": "give_card", "args": ["gawain", "宝石"], "reason": "补发上回合漏摸的牌"},
    {"action": "reassign", "args": ["artoria", "carol"], "reason": "alice 退出，carol 接手"},
]
FORUMS = {
    "discuz-zh": ({}, "zh"),
    "nga-zh": ({"dialect": "nga", "image_url": "https://img.example.org/golden/{turn}/{file}",
                "names": {"carol": "月下 独酌", "bob": "Saber.Fan", "heidi": "★Lancer★", "ivan": "[b]x[/b]"}}, "zh"),
    "phpbb-en": ({"dialect": "phpbb", "names": {"carol": "月下 独酌"}}, "en"),
}


def play() -> dict[str, Any]:
    """Turn 2 of the golden campaign after the GM's edits: the state before, after and the log
    (edit events first, as `gm resolve` writes them)."""
    from gm_tool.core.chance import Chance
    from gm_tool.core.ruleset import check_amend
    from gm_tool.rulesets.grail_war import RULESET
    from tests.regen_golden import SEED, load_campaign

    state = load_campaign()["states"][1]
    events: list[dict[str, Any]] = []
    for i, edit in enumerate(EDITS):
        state, evs = RULESET.amend(state, check_amend(RULESET, edit, f"edit-{i}"), f"edit-{i}")
        events += evs
    chance = Chance(SEED, "bots-2")
    orders = {p: RULESET.parse_orders(state, RULESET.bot_sheet(state, p, "greedy", chance), f"{p}.yaml", "zh")
              for p in RULESET.due(state)}
    result = RULESET.resolve(state, orders, SEED)
    log = [{**e, "seq": i} for i, e in enumerate(events + result.events)]
    return {"before": state, "after": result.state, "log": log}


def load() -> dict[str, Any]:
    folder = GOLDEN / "campaign"
    return {"before": json.loads((folder / "before.json").read_text("utf-8")),
            "after": json.loads((folder / "after.json").read_text("utf-8")),
            "log": [json.loads(line) for line in (folder / "log.jsonl").read_text("utf-8").splitlines() if line]}


def save(turn: dict[str, Any]) -> None:
    folder = GOLDEN / "campaign"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for name in ("before", "after"):
        (folder / f"{name}.json").write_text(json.dumps(turn[name], ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8")
    (folder / "log.jsonl").write_text(jsonl(turn["log"]), "utf-8")


def render(turn: dict[str, Any]) -> dict[str, str]:
    from gm_tool.core.render import check_forum, use_forum
    from tests.conftest import grail_posts as posts

    out: dict[str, str] = {}
    for label, (settings, lang) in FORUMS.items():
        with use_forum(check_forum(settings, turn="turn-002")):
            rendered = posts(turn["before"], turn["after"], turn["log"], lang)
        for who, formats in rendered.items():
            if who != "files":
                for fmt, text in formats.items():
                    out[f"{label}/{who}.{fmt}"] = text
    return out


def expected() -> dict[str, str]:
    return {str(p.relative_to(GOLDEN)): p.read_text("utf-8") for p in sorted(GOLDEN.rglob("*"))
            if p.is_file() and p.parts[len(GOLDEN.parts)] != "campaign"}


def test_posts_of_a_turn_with_gm_edits_match_the_golden_files():
    got, want = render(load()), expected()
    assert sorted(got) == sorted(want)
    for name in sorted(want):
        assert got[name] == want[name], f"{name} differs: python -m tests.test_posts_golden_edits to regenerate"


def test_the_golden_edits_turn_shows_the_issue_items():
    """What issue 15 asks to see in a turn with GM edits (checked on the stored files)."""
    files = expected()
    carol = files["discuz-zh/carol.md"]
    assert "**本回合获得的牌**" in files["discuz-zh/bob.md"] and "宝石" in files["discuz-zh/bob.md"].split("本回合获得的牌")[1]
    assert "GM 关闭的区域（不得进入）**: E2 E3" in files["discuz-zh/public.md"]
    assert "GM 让替补玩家 **carol** 接手了一名角色" in files["discuz-zh/public.md"]
    assert "阿尔托利亚** 由 **alice** 交给 **carol**" in carol and "原玩家" not in files["discuz-zh/public.md"]
    assert "私信 · carol" in carol and "alice.md" not in files
    nga = files["nga-zh/carol.bbcode"]
    assert "私信 · 月下 独酌" in nga
    assert re.search(r"\[img\]https://img\.example\.org/golden/turn-002/map-carol-[0-9a-f]{12}\.png\[/img\]", nga)
    assert "[size=140%]" in nga and "[table]" in files["nga-zh/public.bbcode"]
    assert "替补玩家 [b]月下 独酌[/b] 接手" in files["nga-zh/public.bbcode"]
    php = files["phpbb-en/public.bbcode"]
    assert "[table]" not in php and "[list]" in php and "[size=140]" in php
    assert "replacement player, [b]月下 独酌[/b]" in php


def main(argv: list[str]) -> int:
    if "--replay" in argv or not (GOLDEN / "campaign").exists():
        save(play())
    for p in sorted(GOLDEN.iterdir()):
        if p.is_dir() and p.name != "campaign":
            shutil.rmtree(p)
    files = render(load())
    for rel, text in files.items():
        path = GOLDEN / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    print(f"{len(files)} golden files written under {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

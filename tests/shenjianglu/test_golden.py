"""Golden playthrough: `gm demo --ruleset shenjianglu --turns 4` replays to the committed example
sheets and posts (orders/shenjianglu, reports/shenjianglu) byte for byte. After an intended change
to the posts, regenerate them (docs/shenjianglu.md explains how) and review the diff."""

from __future__ import annotations

from pathlib import Path

from gm_tool import demo

ROOT = Path(__file__).resolve().parents[2]


def test_demo_replays_the_committed_examples(tmp_path):
    """seed l.99: "抽到“一”號順序牌的為先手，然後按順序依次行動。" — the same seed and bots give the same game, post for post."""
    d = tmp_path / "demo"
    demo.run(d, scenario="shenjianglu", turns=4, bots="greedy")
    compared = 0
    for sub in ("orders", "reports"):
        for mine in sorted((ROOT / sub / "shenjianglu").rglob("*")):
            rel = mine.relative_to(ROOT / sub / "shenjianglu")
            if mine.is_dir() or rel.parts[0].startswith("template") or mine.suffix == ".png":
                continue
            assert (d / sub / rel).read_bytes() == mine.read_bytes(), rel
            compared += 1
    assert compared >= 20

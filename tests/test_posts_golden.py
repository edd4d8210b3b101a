"""Golden posts: a fixed campaign (tests/golden/grail_war/campaign/) rendered in every format
and both languages must match the committed files byte for byte.

After an intended change to the posts, regenerate with ``python -m tests.regen_golden`` and
review the diff (``--replay`` also replays the campaign with the current engine)."""

from __future__ import annotations

import difflib

from tests.regen_golden import GOLDEN, expected_files, load_campaign, render


def test_golden_posts_match_the_committed_files():
    want = expected_files()
    got = render(load_campaign())
    assert sorted(got) == sorted(want), "files differ; run python -m tests.regen_golden"
    for rel in sorted(got):
        if got[rel] != want[rel]:
            diff = "".join(difflib.unified_diff(want[rel].splitlines(True), got[rel].splitlines(True), rel, "now", n=1))
            raise AssertionError(f"{GOLDEN / rel} differs (python -m tests.regen_golden regenerates):\n{diff[:3000]}")


def test_golden_campaign_covers_what_the_posts_show():
    campaign = load_campaign()
    types = {e["type"] for log in campaign["logs"] for e in log}
    assert {"step", "fight", "draw", "capture"} <= types
    files = expected_files()
    assert any("[\u200burl=javascript" in text for rel, text in files.items() if rel.endswith(".bbcode"))
    assert all(rel.rsplit(".", 1)[1] in ("bbcode", "md", "html", "txt") for rel in files)

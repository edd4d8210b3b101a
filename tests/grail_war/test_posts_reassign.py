"""`gm amend DIR reassign CHAR PLAYER` (issue 15, ruling P11): a replacement player takes a
character over; ids stay safe file names, the forum name is a display name."""

from __future__ import annotations

import yaml

from tests.conftest import write


def test_reassign_hands_the_character_to_the_new_player(gm, skirmish):
    """seed l.228 (the GM may act when a game stalls) — a player who leaves is replaced: the new
    player's sheets are due, the old player's are refused, and the posts name the change."""
    gm("amend", skirmish, "reassign", "artoria", "carol", "--reason", "alice 退出，carol 接手")
    gm("forum", skirmish, "--name", "carol=月下 独酌")
    status = gm("status", skirmish, "--json").output
    due = yaml.safe_load(status)["due"]
    assert "carol" in due and "alice" not in due
    sheet = write(skirmish.parent / "carol.yaml", gm("template", skirmish, "carol").output)
    gm("submit", skirmish, sheet)
    old = write(skirmish.parent / "alice.yaml", "turn: 1\nplayer: alice\n")
    assert gm("check", skirmish, old, code=None).exit_code != 0
    gm("resolve", skirmish)
    reports = skirmish / "reports" / "turn-001"
    assert (reports / "carol.bbcode").is_file() and not (reports / "alice.bbcode").exists()
    public = (reports / "public.md").read_text("utf-8")
    assert "GM 把 **阿尔托利亚** 交给了新玩家 月下 独酌（原玩家 alice）。理由：alice 退出，carol 接手" in public
    mine = (reports / "carol.md").read_text("utf-8")
    assert "私信 · 月下 独酌" in mine and "阿尔托利亚" in mine and "玩家: carol" in mine
    gm("verify", skirmish)


def test_reassign_refuses_a_player_id_that_is_no_file_name(gm, skirmish):
    out = gm("amend", skirmish, "reassign", "artoria", "月下 独酌", "--reason", "x", code=1)
    assert "args.1" in out.output + (out.stderr if out.stderr_bytes else "") or "args[1]" in out.output + (
        out.stderr if out.stderr_bytes else "")
    assert "gm forum --name" in out.output + (out.stderr if out.stderr_bytes else "")
    gm("amend", skirmish, "reassign", "artoria", "alice", "--reason", "x", code=1)  # nothing changes

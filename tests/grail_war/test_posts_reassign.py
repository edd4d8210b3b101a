"""`gm amend DIR reassign CHAR PLAYER` (issue 15, ruling P11): a replacement player takes a
character over; ids stay safe file names, the forum name is a display name."""

from __future__ import annotations

import yaml

from tests.conftest import player_picture, write


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
    assert "GM 让替补玩家 **月下 独酌** 接手了一名角色。理由：alice 退出，carol 接手" in public
    mine = (reports / "carol.md").read_text("utf-8")
    assert "私信 · 月下 独酌" in mine and "阿尔托利亚" in mine and "玩家: carol" in mine
    gm("verify", skirmish)


def test_reassign_refuses_a_player_id_that_is_no_file_name(gm, skirmish):
    out = gm("amend", skirmish, "reassign", "artoria", "月下 独酌", "--reason", "x", code=1)
    assert "args.1" in out.output + (out.stderr if out.stderr_bytes else "") or "args[1]" in out.output + (
        out.stderr if out.stderr_bytes else "")
    assert "gm forum --name" in out.output + (out.stderr if out.stderr_bytes else "")
    gm("amend", skirmish, "reassign", "artoria", "alice", "--reason", "x", code=1)  # nothing changes


def test_reassign_is_public_without_saying_which_character_and_the_newcomer_gets_a_handover(gm, skirmish):
    """Ruling P10 (the opening hides who plays whom) and issue 23: the public post says that a
    replacement player took a character over, not which one nor whose it was; the two players
    read which character passed. `gm amend reassign` writes at once the replacement player's
    handover post (the character, its hand, equipment and skills, the map it sees and the sheet
    of the turn due), so the newcomer can send orders for that turn."""
    r = gm("amend", skirmish, "reassign", "artoria", "carol", "--reason", "有玩家退出")
    folder = skirmish / "amendments" / "after-000" / "001-posts"
    assert str(folder / "carol.md") in r.output
    handover = (folder / "carol.md").read_text("utf-8")
    assert "交接（第 1 回合前）" in handover and "GM 把以下角色交给了你（原玩家 alice）" in handover
    assert "阿尔托利亚" in handover and "玩家: carol" in handover and "回合: 1" in handover
    picture = player_picture([p.name for p in folder.iterdir()], "carol")
    assert (folder / picture).read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in folder.iterdir()) == sorted(["carol.bbcode", "carol.md", picture])
    gm("resolve", skirmish)
    reports = skirmish / "reports" / "turn-001"
    public = (reports / "public.md").read_text("utf-8")
    assert "GM 让替补玩家 **carol** 接手了一名角色。理由：有玩家退出" in public
    assert "阿尔托利亚" not in public.split("### GM 调整")[1].split("###")[0]
    assert "**阿尔托利亚** 由 **alice** 交给 **carol**。" in (reports / "carol.md").read_text("utf-8")
    gm("verify", skirmish)

"""Forum settings (issue 15, ruling P11): the BBCode dialect (Discuz, phpBB, NGA), where the
pictures are uploaded, and the players' display names, set per campaign with `gm forum`.

Each dialect is checked against its documented tag set: every tag a post opens is one the
forum knows, every tag is closed in order, and the dialect's own forms are used (phpBB: no
``[table]``, ``[size]`` in percent up to 200; NGA: ``[size=N%]``, ``[collapse]``)."""

from __future__ import annotations

import re

import pytest

from gm_tool.core.render import BBCODE_DIALECTS, Forum, check_forum, display_name, use_forum
from gm_tool.errors import GmError
from tests.conftest import grail_posts as posts
from tests.conftest import player_picture
from tests.regen_golden import load_campaign

TAG = re.compile(r"\[(/?)([a-z*]+)(?:=([^\]]*))?\]")
CODE = re.compile(r"\[code\].*?\[/code\]", re.S)


def check_tags(text: str, dialect: str) -> None:
    """Every tag known to ``dialect`` and properly nested (``[*]`` needs no closing tag)."""
    allowed = BBCODE_DIALECTS[dialect].TAGS
    stack: list[str] = []
    for closing, tag, arg in TAG.findall(CODE.sub("[code][/code]", text)):
        assert tag in allowed, (dialect, tag)
        if tag == "*":
            continue
        if closing:
            assert stack and stack[-1] == tag, (dialect, tag, stack)
            stack.pop()
        else:
            stack.append(tag)
            if tag == "size":
                if dialect == "phpbb":
                    assert arg.isdigit() and 1 <= int(arg) <= 200, arg
                elif dialect == "nga":
                    assert arg.endswith("%") and arg[:-1].isdigit(), arg
                else:
                    assert arg.isdigit() and 1 <= int(arg) <= 7, arg
    assert not stack, (dialect, stack)


@pytest.mark.parametrize("dialect", ["discuz", "phpbb", "nga"])
def test_every_golden_post_uses_only_its_dialects_tags(dialect):
    """Issue 15 "BBCode dialects ... chosen per campaign": the golden campaign rendered in each."""
    campaign = load_campaign()
    states, logs = campaign["states"], campaign["logs"]
    with use_forum(Forum(dialect=dialect)):
        for n, events in enumerate(logs, start=1):
            out = posts(states[n - 1], states[n], events, "zh")
            for who, formats in out.items():
                if who != "files":
                    check_tags(formats["bbcode"], dialect)
    if dialect == "phpbb":
        assert "[table]" not in out["public"]["bbcode"] and "[list]" in out["public"]["bbcode"]
    if dialect == "nga":
        assert "[table]" in out["public"]["bbcode"] and "[size=140%]" in out["public"]["bbcode"]
        with use_forum(Forum(dialect="nga")):
            fights = [posts(states[n - 1], states[n], logs[n - 1], "zh") for n in range(1, len(logs) + 1)]
        assert any("[collapse=" in p[w]["bbcode"] for p in fights for w in p if w != "files")


def test_discuz_is_the_default_and_unchanged():
    campaign = load_campaign()
    plain = posts(campaign["states"][0], campaign["states"][1], campaign["logs"][0], "zh")
    with use_forum(Forum()):
        again = posts(campaign["states"][0], campaign["states"][1], campaign["logs"][0], "zh")
    assert plain["public"] == again["public"] and "[size=4]" in plain["public"]["bbcode"]


def test_image_url_links_every_picture_and_without_it_the_post_says_what_to_attach():
    """Issue 15 "a campaign setting ... makes every post link its maps where the GM uploads them;
    without it, the post says which file to attach"."""
    campaign = load_campaign()
    args = (campaign["states"][0], campaign["states"][1], campaign["logs"][0], "zh")
    bare = posts(*args)
    mine = player_picture(bare["files"], "alice")
    assert f"请把图片 {mine} 作为附件插入此处" in bare["alice"]["bbcode"]
    with use_forum(check_forum({"image_url": "https://img.example.org/g/{turn}/{file}"}, turn="turn-001")):
        linked = posts(*args)
    for who in ("public", "alice", "bob"):
        name = "map-public.png" if who == "public" else player_picture(linked["files"], who)
        assert f"[img]https://img.example.org/g/turn-001/{name}[/img]" in linked[who]["bbcode"]
        assert f"![map](https://img.example.org/g/turn-001/{name})" in linked[who]["md"]
        assert "作为附件" not in linked[who]["bbcode"]


@pytest.mark.parametrize("settings,field", [
    ({"dialect": "vbulletin"}, "forum.dialect"),
    ({"image_url": "javascript:{file}"}, "forum.image_url"),
    ({"image_url": "https://host/no-file-placeholder"}, "forum.image_url"),
    ({"image_url": "https://host/{file}/{__class__}"}, "forum.image_url"),
    ({"names": {"alice": "two\nlines"}}, "forum.names.alice"),
    ({"names": {"alice": "x" * 65}}, "forum.names.alice"),
    ({"names": ["alice"]}, "forum.names"),
    ({"colour": "red"}, "forum.colour"),
])
def test_bad_forum_settings_are_refused_naming_the_field(settings, field):
    with pytest.raises(GmError) as err:
        check_forum(settings, "campaign.yaml")
    assert err.value.problems[0].field == field


def test_display_names_are_free_text_shown_safely():
    """Issue 15: forum names like `Saber.Fan`, `月下 独酌`, `★Lancer★` (and one holding markup)."""
    campaign = load_campaign()
    names = {"alice": "Saber.Fan", "bob": "月下 独酌", "heidi": "★Lancer★", "ivan": "[b]x[/b] <i>"}
    with use_forum(check_forum({"names": names})):
        assert display_name("bob") == "月下 独酌" and display_name("nobody") == "nobody"
        out = posts(campaign["states"][0], campaign["states"][1], campaign["logs"][0], "zh")
    assert "私信 · Saber.Fan" in out["alice"]["bbcode"] and "私信 · 月下 独酌" in out["bob"]["bbcode"]
    assert "私信 · ★Lancer★" in out["heidi"]["md"]
    assert "[b]x" not in out["ivan"]["bbcode"] and "[\u200bb]x" in out["ivan"]["bbcode"]
    assert "玩家: alice" in out["alice"]["bbcode"]  # the sheet keeps the player id


def test_gm_forum_rerenders_every_post_and_verify_agrees(gm, skirmish):
    """Changing the settings mid-campaign renders the stored posts again: verify still passes."""
    gm("resolve", skirmish)
    gm("forum", skirmish, "--dialect", "phpbb", "--image-url", "https://img.example.org/{turn}/{file}",
       "--name", "alice=Saber.Fan", "--name", "bob=月下 独酌")
    gm("verify", skirmish)
    text = (skirmish / "reports" / "turn-001" / "alice.bbcode").read_text("utf-8")
    assert "私信 · Saber.Fan" in text and "[size=140]" in text
    mine = player_picture([p.name for p in (skirmish / "reports" / "turn-001").iterdir()], "alice")
    assert f"[img]https://img.example.org/turn-001/{mine}[/img]" in text
    opening = (skirmish / "reports" / "turn-000" / "bob.bbcode").read_text("utf-8")
    assert "开局 · 私信 · 月下 独酌" in opening
    gm("forum", skirmish, "--image-url", "")
    assert "作为附件" in (skirmish / "reports" / "turn-001" / "alice.bbcode").read_text("utf-8")
    gm("verify", skirmish)
    assert gm("forum", skirmish, "--name", "zed=x", code=1).exit_code == 1
    assert gm("forum", skirmish, "--name", "novalue", code=2).exit_code == 2

"""The grail war's posts on the core's road (issue 19): display names everywhere, a picture
readable on a phone with its legend, numbers that stay with their characters for the whole game,
the opening's rules in force."""

from __future__ import annotations

import io
import re
from pathlib import Path

import yaml

import gm_tool
from gm_tool.core.render import check_forum, use_forum
from gm_tool.rulesets.grail_war import RULESET
from tests.conftest import grail_posts as posts
from tests.conftest import player_picture
from tests.regen_golden import SCENARIO, load_campaign, play

NAMES = {"alice": "月下 独酌", "bob": "Saber Fan", "heidi": "★ 美狄亚的主人", "ivan": "x y"}


def test_every_player_is_named_by_display_name_and_no_raw_id_outside_the_sheet():
    """ruling P11: a display name (spaces, CJK) stands for the player in every post; the id stays
    only in the pre-filled sheet, which is what the player sends back."""
    camp = load_campaign()
    with use_forum(check_forum({"names": NAMES}, turn="turn-001")):
        out = posts(camp["states"][0], camp["states"][1], camp["logs"][0], "zh")
    for player, shown in NAMES.items():
        for fmt in ("md", "bbcode"):
            text = out[player][fmt]
            assert f"私信 · {shown}" in text.replace("\\", "")
            body = text.split("```")[0] if fmt == "md" else text.split("[code]")[0]
            for other in NAMES:
                assert not re.search(rf"(?<![\w]){other}(?![\w])", body), (player, fmt, other)


def test_pictures_are_over_600_px_wide_with_a_legend_under_the_board():
    """issue 19 "readable on a phone": the seed's 20-column map at 30 px a cell, and a legend (each
    side's colour, the kinds of strongholds, the reader's ring) under it; the post's legend words
    each colour with its side."""

    from PIL import Image

    from gm_tool.rulesets.grail_war import picture
    from gm_tool.rulesets.grail_war.scenario import build

    fuyuki = yaml.safe_load((Path(gm_tool.__file__).parent / "scenarios" / "fuyuki.yaml").read_text("utf-8"))
    state = build(fuyuki, "fuyuki.yaml", "legend").to_state()
    out = RULESET.opening_posts(state, "zh")
    im = Image.open(io.BytesIO(out.files[player_picture(out.files, "alice")]))
    board = picture.Painter(state["map"], state["strongholds"], state["sides"]).size()
    assert im.size[0] >= 600 and im.size[0] == board[0] and im.size[1] > board[1] + 30
    assert "红色为红方、蓝色为蓝方" in out.texts["alice"]["md"] and "红色为红方、蓝色为蓝方" in out.texts["public"]["md"]


def test_a_character_keeps_its_number_for_the_whole_game():
    """issue 19 "labels stable for the whole game": the number before a character in every table and
    on every picture is the one it was given at setup (its place in the scenario), never reused."""
    game = play(SCENARIO, "numbers", 3, "random")
    labels = {c["id"]: c["label"] for c in game["states"][0]["characters"]}
    assert sorted(labels.values()) == ["1", "2", "3", "4"]
    names = {c["id"]: c["name"] for c in game["states"][0]["characters"]}
    for n in range(1, len(game["states"])):
        assert {c["id"]: c["label"] for c in game["states"][n]["characters"]} == labels
        out = posts(game["states"][n - 1], game["states"][n], game["logs"][n - 1], "en")
        for player in RULESET.players(game["states"][n]):
            text = out[player]["md"]
            for cid, name in names.items():
                for number in re.findall(rf"\| (\d+) \| {re.escape(name)} \|", text):
                    assert number == labels[cid], (n, player, name)


def test_the_opening_post_lists_the_rules_in_force_with_the_house_rule():
    """ruling C8's switch in the opening post: the scenario's rules, each against the seed's reading."""
    state = RULESET.setup({**SCENARIO, "rules": {"magic_play": "helpful"}}, "s.yaml", "switch")
    text = RULESET.opening_posts(state, "zh").texts["public"]["md"]
    assert "| 魔术牌的使用 | 只在对己方有利时使用 | 本局改动 | l.107, C8 |" in text
    assert "| 视野半径（格） | 2 | 按原文 | l.229, R7 |" in text

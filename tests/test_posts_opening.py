"""Opening posts (issue 15, ruling P10): `gm new` writes turn 0's posts under reports/turn-000/,
`gm report --turn 0` prints them and `gm verify` checks them byte for byte."""

from __future__ import annotations

import copy

import yaml

from gm_tool.core.ruleset import RulesetBase
from gm_tool.rulesets.grail_war import RULESET
from tests.conftest import write
from tests.regen_golden import SCENARIO


def test_gm_new_writes_the_opening_posts_and_report_prints_them(gm, skirmish):
    """seed l.120-154 (the sample sheet a player sends) and l.237 (the character card): before the
    first turn each player knows their character, its skills and equipment, the hand and a sheet."""
    reports = skirmish / "reports" / "turn-000"
    names = sorted(p.name for p in reports.iterdir())
    assert "public.bbcode" in names and "public.md" in names and "map-public.png" in names and "gm-map.png" in names
    state = yaml.safe_load((skirmish / "state" / "turn-000.json").read_text("utf-8"))
    for c in state["characters"]:
        text = gm("report", skirmish, "--turn", "0", "--player", c["player"]).output
        assert c["name"] in text and "起始手牌" in text and "技能【" in text
        for card in c["hand"]:
            assert card["name"] in text
        assert "回合: 1\n玩家: " + c["player"] in text  # the first sheet, pre-filled
        assert "gm template" not in text
    public = gm("report", skirmish, "--turn", "0", "--format", "markdown").output
    assert "参战玩家" in public and "[img]" not in public
    assert all(c["name"] not in public for c in state["characters"])  # who leads whom is not public
    assert all(c["pos"] not in public.split("### 据点")[0] for c in state["characters"])  # no place told
    gm("verify", skirmish)


def test_verify_catches_an_edited_opening_post(gm, skirmish):
    """An opening post is part of what players verify: an edited one is named."""
    post = skirmish / "reports" / "turn-000" / "public.md"
    post.write_text(post.read_text("utf-8") + "x", "utf-8")
    out = gm("verify", skirmish, code=None)
    assert out.exit_code != 0 and "turn-000/public.md" in out.output + (out.stderr if out.stderr_bytes else "")


def test_opening_posts_in_english(gm, tmp_path):
    write(tmp_path / "sc.yaml", yaml.safe_dump(copy.deepcopy(SCENARIO), allow_unicode=True))
    d = tmp_path / "c"
    gm("new", d, "--scenario", tmp_path / "sc.yaml", "--seed", "s", "--lang", "en")
    text = gm("report", d, "--turn", "0", "--player", "alice").output
    assert "Opening · Private report · alice" in text and "Skill【湖之选定】" in text and "turn: 1\nplayer: alice" in text


def test_turn_0_report_is_refused_without_opening_posts(gm, skirmish):
    import shutil

    shutil.rmtree(skirmish / "reports" / "turn-000")
    out = gm("report", skirmish, "--turn", "0", code=2)
    assert "Traceback" not in out.output
    gm("verify", skirmish, code=1)  # gm new writes them with the folder now (issue 24): they are missing
    (skirmish / "log" / "turn-000.inputs.json").unlink()  # as in a campaign made before issue 15 (and 24)
    gm("verify", skirmish)  # which still verifies


def test_the_base_ruleset_offers_no_opening_posts():
    assert RulesetBase().opening_posts({}, "zh") is None
    assert RULESET.opening_posts(RULESET.setup(copy.deepcopy(SCENARIO), "<s>", "x"), "zh") is not None


def test_opening_private_post_does_not_change_with_hidden_things():
    """seed l.4 "每人将获得自己的视野（不同）": another player's hand changes nothing in alice's opening."""
    s0 = RULESET.setup(copy.deepcopy(SCENARIO), "<s>", "x")
    base = RULESET.opening_posts(s0, "zh").texts["alice"]
    changed = copy.deepcopy(s0)
    for c in changed["characters"]:
        if c["player"] != "alice":
            c["hand"] = c["hand"][:1]
    assert RULESET.opening_posts(changed, "zh").texts["alice"] == base

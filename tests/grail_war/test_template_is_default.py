"""The template is what happens (issue 23; seed l.61 "玩家选择自己留下来的手牌,下回合的战斗选项,下回合的行动"
and l.108 "此选项不是必填选项": what a player leaves out takes its default, and `gm template` shows
those defaults): `gm status` says a player who sends nothing "acts on
the template's values", so the pre-filled sheet of `gm template`, sent back unchanged, must play
exactly as no sheet (ruling G1, spec §4 "a missing key takes the default that gm template
shows"). Each turn of a crowded campaign (fights every turn, every optional equipment effect
worn, hands over the limit) is resolved twice from the same folder, once with no sheets and
once with every due player's template submitted as it is: the states, logs and posts are
byte-identical."""

from __future__ import annotations

import filecmp
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from gm_tool import app as ops
from gm_tool.core.store import turn_name
from tests.conftest import write

# every equipment card with an optional effect (data/cards.yaml default_use), on and off by default
GEAR = [("七夜", "正式外典"), ("万华杖", "奉纳殿六十四层"), ("穿刺死棘之枪", "月灵髓液"), ("佩耳修斯之剑", "炽天覆七重圆环"),
        ("誓约胜利之剑", None), ("乖离剑", None), ("黑键", None), ("物干焯", None), ("斩击皇帝", None), ("干将莫邪", None)]
ROSTER = [("artoria", "CASTER", "red"), ("gawain", "SABER", "red"), ("emiya", "ARCHER", "red"),
          ("iskandar", "RIDER", "red"), ("mordred", "SABER", "blue"), ("medea", "CASTER", "blue"),
          ("medusa", "RIDER", "blue"), ("kojiro", "ASSASSIN", "blue")]


def crowded(k: int) -> dict[str, Any]:
    """Eight servants, four a side, two by two in two cells of a 4x4 plain, each holding eight
    cards (over the limit of a 4-HP servant) and wearing equipment that has optional effects
    (rotated by ``k``, so different campaigns wear different sets)."""
    chars = []
    for i, (cid, cls, side) in enumerate(ROSTER):
        weapon, armor = GEAR[(i + k) % len(GEAR)]
        chars.append({"id": cid, "class": cls, "side": side, "player": f"p{i}", "pos": "B2" if i % 2 else "C3",
                      "equipment": {"weapon": weapon, **({"armor": armor} if armor else {})}})
    for c in chars[2:4] + chars[6:8]:  # two pairs of enemies meet in C3, two in B2
        c["pos"] = "C3" if c["pos"] == "B2" else "B2"
    return {"ruleset": "grail_war", "name": "crowded", "sides": ["red", "blue"],
            "map": {"width": 4, "height": 4, "rows": ["...."] * 4, "strongholds": [], "tunnels": []},
            "rules": {"decks": 3, "initial_hand": 8}, "characters": chars}


def _files(d: Path, n: int) -> list[Path]:
    name = turn_name(n)
    return [d / "state" / f"{name}.json", d / "log" / f"{name}.jsonl",
            *sorted(p for p in (d / "reports" / name).rglob("*") if p.is_file())]


@pytest.mark.parametrize("k", [0, 3, 6])
def test_a_template_sent_back_unchanged_plays_byte_identically_to_no_sheet(tmp_path, k):
    scenario = write(tmp_path / "s.yaml", yaml.safe_dump(crowded(k), allow_unicode=True))
    base = tmp_path / "base"
    ops.new_campaign(base, str(scenario), f"template-is-default-{k}-0123456789")
    fought = 0
    for n in range(1, 5):
        op = ops.open_campaign(base)
        state = op.state()
        if op.winner(state) is not None:
            break
        with_templates = tmp_path / f"t{n}"
        shutil.copytree(base, with_templates)
        for player in op.ruleset.due(state):
            sheet = write(tmp_path / f"{player}-{n}.yaml", ops.template(with_templates, player, "zh"))
            ops.submit(with_templates, sheet, "zh")
        ops.resolve(base)
        ops.resolve(with_templates)
        for a, b in zip(_files(base, n), _files(with_templates, n), strict=True):
            assert a.relative_to(base) == b.relative_to(with_templates)
            assert filecmp.cmp(a, b, shallow=False), a.relative_to(base)
        events = (base / "log" / f"{turn_name(n)}.jsonl").read_text("utf-8")
        fought += events.count('"type": "fight"') + events.count('"type":"fight"')
    assert fought >= 4  # the comparison covered fights, not only quiet turns


def test_the_english_template_also_plays_as_no_sheet(tmp_path):
    scenario = write(tmp_path / "s.yaml", yaml.safe_dump(crowded(1), allow_unicode=True))
    base, other = tmp_path / "base", tmp_path / "other"
    ops.new_campaign(base, str(scenario), "template-is-default-en-0123456789")
    shutil.copytree(base, other)
    op = ops.open_campaign(other)
    for player in op.ruleset.due(op.state()):
        ops.submit(other, write(tmp_path / f"{player}.yaml", ops.template(other, player, "en")), "en")
    ops.resolve(base)
    ops.resolve(other)
    for a, b in zip(_files(base, 1), _files(other, 1), strict=True):
        assert filecmp.cmp(a, b, shallow=False), a.relative_to(base)


# gm check warns when the hand limit will undo what a valid sheet names ---------------------------
def _over_the_limit(tmp_path: Path) -> Path:
    """阿尔托利亚 (4 HP: a limit of 6) holding eight cards: the SAMPLE's six, a 咒 and a 扭曲螺旋."""
    from tests.grail_war.test_sample_fight import ARTORIA, MORDRED, scenario

    artoria = dict(ARTORIA, hand=ARTORIA["hand"] + ["咒", "扭曲螺旋"])
    path = write(tmp_path / "s.yaml", yaml.safe_dump(scenario([artoria, MORDRED]), allow_unicode=True))
    ops.new_campaign(tmp_path / "c", str(path), "check-warnings-0123456789abcdef")
    return tmp_path / "c"


def test_check_warns_when_the_hand_limit_cuts_a_card_the_skill_discards(tmp_path, gm):
    """seed l.61 "（即下回合的战术选项回复前加上弃牌的名字和张数。）" and l.263 "你不能在手里保留超过你手牌上限数量的牌":
    the keep line (l.125) decides what survives the limit at the start of the turn, before the
    skill phase (ruling C23); a skill discard it cuts skips the skill (ruling C24). The sheet is
    valid, so `gm check` accepts it and warns at the discard's line."""
    d = _over_the_limit(tmp_path)
    sheet = write(tmp_path / "a.yaml", "回合: 1\n玩家: alice\n保留: [闪, 万法破尽, 杀, 宝石]\n"
                                       "技能: {使用: 是, 丢弃: [万法破尽, 王之财宝]}\n")
    r = gm("check", d, sheet)
    assert "有效（alice）" in r.output
    assert "a.yaml:4: 技能.丢弃[1]: 手牌 8 张超过上限 6：回合开始时按保留顺序会弃掉【王之财宝" in r.output
    assert "技能将不发动" in r.output
    r = gm("submit", d, sheet, "--lang", "en")
    assert "note: " in r.output and "技能.丢弃[1]" in r.output and "is not used" in r.output
    fine = write(tmp_path / "b.yaml", "回合: 1\n玩家: alice\n保留: [王之财宝, 闪, 万法破尽, 杀, 宝石]\n"
                                      "技能: {使用: 是, 丢弃: [万法破尽, 王之财宝]}\n")
    assert "注意" not in gm("check", d, fine).output


def test_check_warns_when_the_keep_line_names_more_than_the_limit_holds(tmp_path, gm):
    d = _over_the_limit(tmp_path)
    sheet = write(tmp_path / "a.yaml", "turn: 1\nplayer: alice\nkeep: [闪, 杀, 杀, 宝石, 咒, 万法破尽, 扭曲螺旋]\n")
    r = gm("check", d, sheet, "--lang", "en")
    assert "valid (alice)" in r.output
    assert "a.yaml:3: keep: keep names 7 cards but the hand limit is 6: 【扭曲螺旋" in r.output


def test_no_warning_for_a_hand_within_the_limit(tmp_path, gm):
    from tests.grail_war.test_import import campaign

    d = campaign(tmp_path)
    sheet = write(tmp_path / "a.yaml", "turn: 1\nplayer: alice\nkeep: [闪]\nskill: {discard: [万法破尽, 王之财宝]}\n")
    assert "note" not in gm("check", d, sheet, "--lang", "en").output


def test_the_template_of_a_character_on_a_closed_cell_stays_put_and_passes_check(tmp_path, gm):
    """seed l.228 "GM有权对地图和据点进行限制" (ruling M20: a closed cell is never entered, a character
    already in it may leave): staying put is not entering, so the template's 目的地, the cell the
    character stands on, is valid there as no sheet is."""
    from tests.grail_war.test_import import campaign

    d = campaign(tmp_path)
    gm("amend", d, "close-area", "F10", "--reason", "流局")
    gm("resolve", d)
    sheet = write(tmp_path / "a.yaml", gm("template", d, "alice").output)
    assert "目的地: F10" in sheet.read_text("utf-8")
    gm("check", d, sheet)

"""The combat part of the order sheet where it is not a rule case: the seed's sample sheet read
into orders (the parser), `gm check`'s lines (the command) and a fight's determinism. The sheet's
refusals, the hand limit from `keep` (R8), the sample sheet played and who learns what are rule
cases: tests/grail_war/cases/combat-orders.yaml."""

from __future__ import annotations

from gm_tool.rulesets.grail_war import orders

from .combat_kit import A, B, build, fight


def parse(hand, sheet, cid="artoria", **kw):
    game, _ = build(A(cid, *hand, skills=None, **kw), B("mordred"))
    c = game.character(cid)
    return game, orders.parse(game, {"turn": 1, "player": c.player, **sheet}, "s.yaml", "en")


SAMPLE_HAND = ["杀", "闪", "杀", "万法破尽", "王之财宝", "宝石"]
SAMPLE = {
    "保留": ["闪", "万法尽破", "杀", "宝石"],
    "技能": {"使用": "是", "丢弃": ["万法破尽", "王之财宝"]},
    "目标优先": "血多的优先",
    "出杀顺序": [{"对": "对敌人出杀"}, {"对": "对魔术牌出杀"}, "不出杀"],
    "出闪顺序": [{"对": "对杀出闪"}, {"对": "对魔术牌出闪", "转换": "正式外典"}, "不出闪"],
    "咒": "不使用",
    "宝石": "对队友优先",
    "魔术牌": {"使用": "不使用"},
    "装备": {"万华杖": {"发动": "是", "区域": ["装备区", "手牌"]}},
}


def test_sample_sheet_of_artoria_parses():
    """l.120-154, the seed's sample sheet of 阿尔托利亚 (4 HP, 万华杖, 正式外典), in its own words."""
    _, o = parse(SAMPLE_HAND, SAMPLE, weapon="万华杖", armor="正式外典")
    assert o.keep == ["闪", "万法破尽", "杀", "宝石"]
    assert o.skill_use and o.skill_discard == ["万法破尽", "王之财宝"]
    assert o.target_priority == "more_hp"
    assert [e.against for e in o.strike_order] == ["enemy", "magic"]
    assert [(e.against, e.via) for e in o.dodge_order] == [("strike", None), ("magic", "正式外典")]
    assert (o.use_curse, o.gem, o.magic_use) == (False, "ally_first", False)
    assert o.equipment["万华杖"].use and o.equipment["万华杖"].zones == ["equipment", "hand"]


def test_gm_check_names_file_and_field(gm, skirmish, tmp_path):
    """Spec §2 `gm check`: one line per problem, with file and field, exit 1."""
    sheet = tmp_path / "a.yaml"
    sheet.write_text("turn: 1\nplayer: alice\nstrike_order: [{against: enemy, count: 0}]\nskill: {name: 飞行}\n",
                     encoding="utf-8")
    out = gm("check", skirmish, sheet, code=1).output
    lines = out.splitlines()
    assert any("a.yaml" in l and "strike_order[0].count" in l for l in lines)
    assert any("a.yaml" in l and "skill.name" in l for l in lines)


# determinism ----------------------------------------------------------------------------------
def test_resolve_through_the_pipeline_is_deterministic():
    """Determinism (brief): the same state, orders and seed give the same fight log."""
    a = fight(A("gawain", "杀", "扭曲螺旋", "闪"), B("mordred", "杀", "赤主槛发", "闪"), seed="x")
    b = fight(A("gawain", "杀", "扭曲螺旋", "闪"), B("mordred", "杀", "赤主槛发", "闪"), seed="x")
    assert a.log == b.log

"""Sheets (aliases, standing orders, refusals), hidden information as a property, posts."""

from __future__ import annotations

import copy

import pytest

from gm_tool.errors import GmError
from tests.hunlu.helpers import RS, check, new, play, unit

A = {"pos": "C3", "move": 4}
B = {"player": "bob", "pos": "C5"}


def board():
    return new({"a": A, "b": B, "c": {"player": "bob", "pos": "H8"}})


def test_chinese_keys_and_values():
    """seed l.29: "每次选择一个方向（上下左右）" (the seed's wording is accepted on sheets)"""
    s = board()
    o = RS.parse_orders(s, {"回合": 1, "玩家": "alice", "行动": [{"移动": "D3"}, {"普攻": "b"}],
                            "常驻": {"联合攻击": {"a": {"时机": "回合前"}}}}, "a.yaml", "zh")
    assert [a["kind"] for a in o.actions] == ["move", "attack"] and o.standing["joint_attack"]["a"]["when"] == "before_turn"


def test_unit_name_as_target():
    """seed l.63: "仅可以对射程内的目标使用" (a target may be named by its general's name when unique)"""
    s = new({"a": A, "b": {**B, "general": "pozhenzi"}})
    o = RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"attack": "破阵子"}]}, "a.yaml", "zh")
    assert o.actions[0]["target"] == "b"


def test_not_due_player_may_send_standing_only():
    """seed l.85: "在此时只有第一魂将可以行动" (a player not due sends only standing orders)"""
    s = board()
    o = RS.parse_orders(s, {"turn": 1, "player": "bob", "standing": {"reserve_order": []}}, "b.yaml", "en")
    assert o.actions == []
    with pytest.raises(GmError) as e:
        RS.parse_orders(s, {"turn": 1, "player": "bob", "actions": [{"attack": "a"}]}, "b.yaml", "en")
    assert e.value.problems[0].code == "hunlu.orders.not_due" and e.value.problems[0].field == "actions"


def test_wrong_unit_refused():
    """seed l.85: "在此时只有第一魂将可以行动" """
    s = board()
    with pytest.raises(GmError) as e:
        RS.parse_orders(s, {"turn": 1, "player": "alice", "unit": "zz", "actions": []}, "a.yaml", "en")
    assert e.value.problems[0].field == "unit"


def test_wrong_turn_refused():
    """seed l.80: "魂将们由第一位开始行动" (a sheet names the general-turn it is for)"""
    with pytest.raises(GmError) as e:
        RS.parse_orders(board(), {"turn": 7, "player": "alice"}, "a.yaml", "en")
    assert e.value.problems[0].code == "orders.turn"


def test_hostile_action_shapes():
    """seed l.61: "每点行动点数都可以在四项之中选择一项执行。" (anything else is refused, naming the field)"""
    for bad in ([1], [{"fly": "C4"}], [{"move": "C4", "attack": "b"}], [{"move": [1, 2]}], [{"attack": 5}],
                [{"skill": ["x"]}], "move", [{"move": ["C4", "C5", "C6"]}]):
        with pytest.raises(GmError):
            RS.parse_orders(board(), {"turn": 1, "player": "alice", "actions": bad}, "a.yaml", "en")


def test_huge_action_list_refused():
    """seed l.61: "每名魂将在自己的回合都有2点行动点数" (a huge list is refused at once)"""
    with pytest.raises(GmError) as e:
        RS.parse_orders(board(), {"turn": 1, "player": "alice", "actions": [{"attack": "b"}] * 100000}, "a.yaml", "en")
    assert e.value.problems[0].code == "hunlu.orders.too_many"


def test_standing_refuses_other_players_units():
    """seed l.64: "自己可以选择" (standing orders name one's own generals)"""
    with pytest.raises(GmError) as e:
        RS.parse_orders(board(), {"turn": 1, "player": "alice", "standing": {"joint_attack": {"b": {}}}}, "a.yaml", "en")
    assert e.value.problems[0].field == "standing.joint_attack.b"


def test_first_skills_must_be_first():
    """seed l.164: "圣心坚盾：先手释放" (only 先手 skills go in first_skills)"""
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3"}, "b": B})
    with pytest.raises(GmError) as e:
        RS.parse_orders(s, {"turn": 1, "player": "alice", "standing": {"first_skills": {"d": ["圣道之刃"]}}}, "a.yaml", "en")
    assert e.value.problems[0].code == "hunlu.orders.not_first"


def test_passive_cannot_be_cast():
    """seed l.167: "被动·不灭之躯" (a passive is not cast from a sheet)"""
    s = new({"d": {"general": "duanmo_zhijian", "pos": "C3", "move": 4}, "b": B})
    assert check(s, [{"skill": "bumie_zhiqu"}]) == ["hunlu.skip.skill_not_active@actions.0.skill"]


def test_template_validates_as_is():
    """seed l.85: "两次行动点数用完或主动跳过则进入下一人回合" (the template is a valid pass)"""
    import yaml
    s = board()
    for p in s["players"]:
        RS.parse_orders(s, yaml.safe_load(RS.template(s, p, "zh")), f"{p}.yaml", "zh")


def test_heart_card_hidden_from_others():
    """seed l.120: "心战：准备三张卡牌（A,B,未启用）选择一张卡牌扣在自己面前" (face down: hidden)"""
    s = board()
    s, _ = play(s, [], standing={"bob": {"heart_card": {"b": "A"}}})
    assert "bob" not in RS.view(s, "alice")["standing"] and RS.view(s, "bob")["standing"]["bob"]["heart_card"] == {"b": "A"}


def test_views_and_private_posts_ignore_hidden_changes():
    """seed l.120: "选择一张卡牌扣在自己面前，当技能效果结束时，展示卡牌" (changing bob's card changes nothing alice sees)"""
    s = board()
    s1, ev1 = play(s, [], standing={"bob": {"heart_card": {"b": "A"}}})
    s2, ev2 = play(s, [], standing={"bob": {"heart_card": {"b": "B"}}})
    assert RS.view(s1, "alice") == RS.view(s2, "alice")
    p1 = RS.posts(s, s1, ev1, "zh")
    p2 = RS.posts(s, s2, ev2, "zh")
    assert p1.texts["alice"] == p2.texts["alice"] and p1.texts["public"] == p2.texts["public"]


def test_public_post_tells_every_roll():
    """seed l.47: "每当需要判定时，扔一次骰子，上面显示的数值即为判定结果。" (players can check the arithmetic)"""
    s = board()
    s1, ev = play(s, [{"attack": "b"}], dice=[5])
    md = RS.posts(s, s1, ev, "zh").texts["public"]["md"]
    assert "5 点" in md and "论坛骰" in md and "精 6" in md


def test_posts_in_english():
    """seed l.47: "扔一次骰子" (posts in English with --lang en)"""
    s = board()
    s1, ev = play(s, [{"attack": "b"}], dice=[5])
    assert "forum roll" in RS.posts(s, s1, ev, "en").texts["public"]["bbcode"]


def test_due_players_private_post_has_sheet():
    """seed l.85: "第一人回合：在此时只有第一魂将可以行动" (the next general's owner is told, with a sheet)"""
    s = board()
    s1, ev = play(s, [])
    posts = RS.posts(s, s1, ev, "zh")
    assert "player: bob" in posts.texts["bob"]["md"] and "player: bob" not in posts.texts["alice"]["md"]


def test_board_picture_is_png():
    """seed l.14: "地图上的一个个十字交错点...为魂将们可以行动，停留的地方" (the board as a picture)"""
    s = board()
    s1, ev = play(s, [])
    assert RS.posts(s, s1, ev, "zh").files["map-public.png"][:4] == b"\x89PNG"


def test_hostile_scenario_errors():
    """seed l.17: "每场战斗开始之前，双方都要选择五位魂将" (a bad scenario is refused field by field)"""
    from tests.hunlu.helpers import scenario
    sc = scenario({"a": {"pos": "C3", "crit": 20}, "b": {"player": "bob", "pos": "Z99"}})
    sc["dice"] = [1, 7, "x"]
    with pytest.raises(GmError) as e:
        RS.setup(sc, "s.yaml", "x")
    fields = {p.field for p in e.value.problems}
    assert {"players.alice.team.a.crit", "players.bob.team.b.pos", "dice.1", "dice.2"} <= fields


def test_scenario_general_without_python():
    """seed l.191: "全魂将名单" (a GM adds any other general in a scenario)"""
    gens = {"xiuluo": {"name": "修罗", "element": "火", "jing": 6, "qi": 5, "qi_regen": 1, "shen": 7, "move": 4,
                       "range": 3, "crit": 35,
                       "skills": [{"id": "sha", "name": "杀", "qi": 1, "shape": "single", "effects": [{"strike": 2}]}]}}
    s = new({"x": {"general": "xiuluo", "pos": "C3"}, "b": B}, generals=gens)
    s, _ = play(s, [{"skill": "杀", "target": "b"}], dice=[4])
    assert unit(s, "b")["jing"] == 5


def test_amend_edits():
    """seed l.20: "精：即魂将的生命值" (the GM may correct 精/气/神, positions, statuses, order)"""
    s = board()
    s2, ev = RS.amend(s, {"action": "set_jing", "args": ["b", "4.5"], "reason": "fix"}, "gm amend")
    assert unit(s2, "b")["jing"] == 4.5 and ev[0]["type"] == "amend"
    s3, _ = RS.amend(s2, {"action": "move", "args": ["b", "D5"], "reason": "fix"}, "gm amend")
    assert unit(s3, "b")["pos"] == "D5"
    with pytest.raises(GmError):
        RS.amend(s3, {"action": "move", "args": ["b", "H8"], "reason": "x"}, "gm amend")
    s4, _ = RS.amend(s3, {"action": "add_status", "args": ["b", "沉默", 2], "reason": "x"}, "gm amend")
    assert unit(s4, "b")["statuses"][0]["name"] == "沉默"


def test_amend_kill_ends_game():
    """seed l.6: "当其中一方的魂将全部死亡时，即宣告游戏结束。" (a GM edit to 精 0 kills)"""
    s = new({"a": A, "b": B})
    s2, _ = RS.amend(s, {"action": "set_jing", "args": ["b", "0"], "reason": "x"}, "gm amend")
    assert s2["winner"] == "red"


def test_state_shape():
    """seed l.19-22: "魂将的基础属性如下：(1) 精 (2) 气 (3) 神" (state JSON paths of contract section 6)"""
    s = board()
    assert {"ruleset", "round", "turn", "winner", "order", "next", "units", "obstacles", "dice", "standing"} <= set(s)
    u = unit(s, "a")
    assert {"id", "name", "general", "player", "side", "role", "alive", "pos", "jing", "max_jing", "qi", "max_qi",
            "shen", "move", "ap", "range", "element", "statuses"} <= set(u)
    assert copy.deepcopy(s) == s


def test_moves_and_knockbacks_are_public():
    """seed l.94: "击退：将目标向一个方向移动一定格数" (every move, dash and knockback is told to all)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "E2"}})
    s1, ev = play(s, [{"move": "C2"}, {"skill": "tianjie_zhongzhan", "direction": "right"}], dice=[3])
    told = [e for e in ev if e["type"] in ("move", "knockback")]
    assert [(e["type"], e["dest"], e["to"]) for e in told] == [("move", "C2", "all"), ("knockback", "F2", "all")]
    assert "→ F2" in RS.posts(s, s1, ev, "zh").texts["public"]["md"]


def test_round_posts_tell_the_whole_round():
    """seed l.80: "魂将们由第一位开始行动，一直到最后一位的回合结束，一个大回合便宣告结束。" (rules.posts: round)"""
    s = new({"a": {"pos": "C3", "move": 4}, "b": B}, rules={"field": 3, "reserves": 2, "posts": "round"})
    s1, ev1 = play(s, [{"attack": "b"}], dice=[3])
    first = RS.posts(s, s1, ev1, "zh").texts["public"]["md"]
    assert "第1回合进行中" in first and "普攻" not in first
    s2, ev2 = play(s1, [{"attack": "a"}], dice=[4])
    whole = RS.posts(s1, s2, ev2, "zh").texts["public"]["md"]
    assert whole.count(") 普攻 ") == 2 and "第1回合结束" in whole and "回合进行中" not in whole


def test_private_post_shows_own_heart_card_only():
    """seed l.120: "选择一张卡牌扣在自己面前，当技能效果结束时，展示卡牌" (only its owner sees the card)"""
    s = board()
    s1, ev = play(s, [], standing={"alice": {"heart_card": {"a": "B"}}})
    posts = RS.posts(s, s1, ev, "zh")
    assert "你的常驻指令：心战：木人(a) B" in posts.texts["alice"]["bbcode"]
    assert "heart_card" not in posts.texts["bob"]["md"] and "heart_card" not in posts.texts["public"]["md"]


def test_bot_orders_equal_parsed_bot_sheets():
    """seed l.61: "每点行动点数都可以在四项之中选择一项执行。" (gm simulate's fast path gives the same orders)"""
    from gm_tool import app
    from gm_tool.core.chance import Chance
    data, src = app.load_scenario("hunzhan")
    state = RS.setup(data, src, "bots")
    for n in range(1, 25):
        if not RS.due(state):
            break
        kinds = {p: ("random", "greedy")[n % 2] for p in RS.due(state)}
        fast = RS.bot_orders(state, kinds, Chance("bots", f"b{n}"))
        slow = {p: RS.parse_orders(state, RS.bot_sheet(state, p, k, Chance("bots", f"b{n}")), "s.yaml", "en")
                for p, k in kinds.items()}
        assert fast == slow
        state = RS.resolve(state, fast, "bots").state


@pytest.mark.parametrize("effect, field", [
    ({"damage": "x"}, "generals.g.skills.0.effects.0.damage"),
    ({"knockback": {"cells": -1}}, "generals.g.skills.0.effects.0.knockback"),
    ({"buff": {"rounds": 0}}, "generals.g.skills.0.effects.0.buff.rounds"),
    ({"buff": {"stats": {"crit": 20}}}, "generals.g.skills.0.effects.0.buff.stats.crit"),
    ({"status": {"name": "中毒"}}, "generals.g.skills.0.effects.0.status.name"),
    ({"if": {"cond": "bogus", "then": []}}, "generals.g.skills.0.effects.0.if"),
    ({"heal": [1]}, "generals.g.skills.0.effects.0.heal"),
])
def test_bad_effects_refused_with_field(effect, field):
    """seed l.191: "全魂将名单" (a GM's own general is checked field by field, never a crash)"""
    gens = {"g": {"name": "测", "jing": 7, "move": 3, "skills": [{"id": "s", "name": "测技", "effects": [effect]}]}}
    with pytest.raises(GmError) as e:
        new({"a": {"general": "g", "pos": "C3"}, "b": B}, generals=gens)
    assert field in {p.field for p in e.value.problems}


def test_resolve_and_bots_leave_their_input_alone():
    """seed l.47: "每当需要判定时，扔一次骰子" (a step is pure: the state it starts from is not changed)"""
    import json

    from gm_tool import app
    from gm_tool.core.chance import Chance
    data, src = app.load_scenario("hunzhan")
    state = RS.setup(data, src, "pure")
    for n in range(1, 40):
        if not RS.due(state):
            break
        before = json.dumps(state, sort_keys=True)
        kinds = {p: ("random", "greedy")[n % 2] for p in RS.due(state)}
        orders = RS.bot_orders(state, kinds, Chance("pure", f"b{n}"))
        after = RS.resolve(state, orders, "pure").state
        RS.posts(state, after, [], "zh")
        assert json.dumps(state, sort_keys=True) == before
        state = after


def test_opening_post_tells_initiative_rolls():
    """seed l.56-57: "B判定为3点，C判定为4点，则C处于第二位，B处于第三位。" (the opening post shows the roll-offs)"""
    from gm_tool.core.posts import opening_posts
    from tests.hunlu.helpers import scenario

    begun = RS.begin(scenario({"A": {"pos": "B2", "move": 4}, "B": {"pos": "D2"}, "C": {"player": "bob", "pos": "F8"}},
                              dice=[3, 4]), "case.yaml", "case")
    md = opening_posts(RS, begun.state, "zh", events=begun.events).texts["public"]["md"]
    assert "3 点" in md and "4 点" in md and "强制队列" in md and "木人(A) > 木人(C) > 木人(B)" in md


def test_amend_kill_last_enemy_ends_game_with_no_next():
    """seed l.6: "当其中一方的魂将全部死亡时，即宣告游戏结束。" (the game is over: nobody is next)"""
    s = new({"a": A, "b": B})
    s2, _ = RS.amend(s, {"action": "set_jing", "args": ["b", "0"], "reason": "x"}, "gm amend")
    assert s2["next"] is None and RS.due(s2) == []


def test_amend_jing_refuses_bad_values():
    """seed l.20: "精：即魂将的生命值" (精 in half points, up to the maximum)"""
    for bad in ("7.5", "3.3", "x", "-1"):
        with pytest.raises(GmError) as e:
            RS.amend(board(), {"action": "set_jing", "args": ["b", bad], "reason": "x"}, "gm amend")
        assert e.value.problems[0].field == "args.1"

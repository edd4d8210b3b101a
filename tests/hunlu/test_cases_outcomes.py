"""Rule cases for issue 20: outcomes a GM need not fix by hand (DATC style: each docstring quotes
the seed line it checks; the rulings are docs/rulings/hunlu.md R3, R5, R27-R33). Most are data:
tests/hunlu/cases/outcomes.yaml (run by gm_tool/cases.py). What stays here is what a case file
cannot say: a scenario refused field by field (R29), a phrase told exactly once and the victory as
the last thing told (R30), the words of `gm check`, `gm status` and `gm dice` and of an error's
message (R31-R33), and a bundled scenario's comment."""

from __future__ import annotations

import pytest

from gm_tool.errors import GmError
from tests.hunlu.helpers import RS, events, new, pass_until, play, scenario, unit

B = {"player": "bob", "pos": "C5"}


def post(before, after, evs, reader=None, lang="zh", fmt="md"):
    return RS.posts(before, after, evs, lang).texts["public" if reader is None else reader][fmt]


# --- the catalogue as the contract writes it (ruling R29) ----------------------------------------

def test_r29_team_starting_values_from_zero():
    """seed l.21: "气：即魂将的法力值" (contract section 5: a team entry's jing qi shen are starting
    values from 0 to the maximum; 精 0 would be a dead general, l.20)"""
    s = new({"a": {"pos": "C3", "qi": 0, "shen": 0}, "b": B})
    assert (unit(s, "a")["qi"], unit(s, "a")["shen"]) == (1, 0)  # 0, then round 1's 恢气 of 1
    for bad, field in (({"jing": 0}, "jing"), ({"qi": 11}, "qi"), ({"shen": 0.5}, "shen")):
        with pytest.raises(GmError) as e:
            new({"a": {"pos": "C3", **bad}, "b": B})
        assert [p.field for p in e.value.problems] == [f"players.alice.team.a.{field}"]


@pytest.mark.parametrize("entry,field", [
    ({"statuses": [{"name": "迟缓", "rounds": 2, "stats": {"move_pct": 50}}]}, "statuses.0.stats.move_pct"),
    ({"statuses": [{"name": "迟缓", "rounds": 2, "stats": {"strike_fail": -50}}]}, "statuses.0.stats.strike_fail"),
    ({"statuses": [{"name": "迟缓", "rounds": 2, "stats": {"move_max": -1}}]}, "statuses.0.stats.move_max"),
    ({"statuses": [{"name": "迟缓", "rounds": 2, "round_end": {"heal": -1}}]}, "statuses.0.round_end"),
    ({"statuses": [{"name": "迟缓", "rounds": 2, "round_end": {"heal": 1, "when": "x"}}]}, "statuses.0.round_end"),
    ({"statuses": [{"name": "心战", "rounds": 2, "heart": {"A": []}}]}, "statuses.0.heart"),
    ({"skills": [{"id": "x", "trigger": "round_end", "effects": [{"heal": 1}]}]}, "skills.0.trigger"),
    ({"skills": [{"id": "x", "effects": [{"status": {"name": "沉默", "rounds": 1, "chance": 50}}]}]},
     "skills.0.effects.0.status"),
    ({"skills": [{"id": "x", "effects": [{"if": {"cond": "not_damaged", "then": [], "else": []}}]}]},
     "skills.0.effects.0.if"),
])
def test_r29_no_value_silently_ignored(entry, field):
    """seed l.41: "某一项属性的点数通常使用概率值来表示" (what the engine would not read is refused,
    naming the field, rather than ignored)"""
    with pytest.raises(GmError) as e:
        new({"a": {"pos": "C3", **entry}, "b": B})
    assert f"players.alice.team.a.{field}" in [p.field for p in e.value.problems]


# --- posts that explain themselves (ruling R30) --------------------------------------------------

HEART = {"xin": {"name": "心战诀", "qi": 2, "shape": "single", "range": 3,
                 "effects": [{"buff": {"name": "心战", "rounds": 1,
                                       "heart": {"A": [{"damage": 2}], "B": [{"status": {"name": "沉默", "rounds": 1}}]}}}]},
         "cut": {"name": "斩", "qi": 0, "shape": "single", "range": 3, "effects": [{"damage": 7}]}}
MIND = {"mind": {"name": "心战者", "jing": 7, "qi": 10, "move": 4, "range": 2, "skills": ["xin", "cut"]}}


def test_r30_heart_reveal_told_once_with_the_qi_paid():
    """seed l.120: "心战技能的耗气将在展示卡牌后消耗。" (the end is told once, by the reveal, and the
    2 气 paid then is posted)"""
    s = new({"a": {"general": "mind", "pos": "C3"}, "b": {**B, "move": 1}}, generals=MIND, skills=HEART)
    s, _ = play(s, [{"skill": "xin", "target": "b", "card": "A"}])
    s = pass_until(s, "a")
    s, _ = play(s, [])
    s, ev = play(s, [])  # round 2 ends
    assert [e["name"] for e in events(ev, "status_end")] == [] and len(events(ev, "heart_reveal")) == 1
    assert [(e["qi"], e["left"]) for e in events(ev, "heart_paid")] == [(2, unit(s, "a")["qi"])]
    text = post(s, s, ev)
    assert text.count("心战】结束") == 1 and "支付【心战】的 2 气" in text


def test_r30_no_line_about_a_dead_general_after_the_end():
    """seed l.6: "当其中一方的魂将全部死亡时，即宣告游戏结束。" (龙魂震慑's 停止行动 does not land on the
    general its damage killed; nothing follows the winner)"""
    s = new({"z": {"general": "tianjie_zhizi", "pos": "C3", "move": 4}, "b": {"player": "bob", "pos": "C6", "jing": 1}})
    s1, ev = play(s, [{"skill": "龙魂震慑"}])
    told = [e for e in ev if e["type"] not in ("turn_end", "next")]
    assert s1["winner"] == "red" and told[-1]["type"] == "victory"
    assert not events(ev, "status") and not unit(s1, "b")["statuses"]


# --- gm check warnings (ruling R31) ---------------------------------------------------------------

def test_r31_check_warns_of_an_attack_after_a_leg_into_a_chasm(tmp_path, gm):
    """seed l.126: "移动经过上面的目标将被立即移出战场" (gm check accepts, and warns that the attack
    after the leg will not happen)"""
    import yaml

    sc = scenario({"a": {"pos": "C3", "move": 5}, "b": B}, obstacles=[{"pos": "E3", "grade": 3}])
    (tmp_path / "s.yaml").write_text(yaml.safe_dump(sc, allow_unicode=True), encoding="utf-8")
    gm("new", tmp_path / "c", "--scenario", tmp_path / "s.yaml", "--seed", "hunlu-warn-seed-0123456789")
    (tmp_path / "a.yaml").write_text("turn: 1\nplayer: alice\nactions:\n  - move: G3\n  - attack: b\n", encoding="utf-8")
    out = gm("check", tmp_path / "c", tmp_path / "a.yaml").output
    assert "有效" in out and "注意" in out and "a.yaml:5: actions.1" in out and "天堑" in out


# --- steps and rounds: one vocabulary (ruling R32) -------------------------------------------------

def test_r32_round_is_the_big_round_step_is_a_general_turn():
    """seed l.81: "前文的回合，大多指的是大回合。" (posts, gm status: 回合 = the big round, 步 = one
    general's turn; no 大回合 beside a 回合 meaning something else)"""
    s = new({"a": {"pos": "C3", "move": 5}, "b": B})
    s1, ev = play(s, [])
    text = post(s, s1, ev)
    assert text.startswith("## 魂陆 case 第1步（第1回合）") and "大回合" not in text
    assert RS.default_summary(s1, "bob", "zh").startswith("第1回合，第2步")
    s2, ev = play(s1, [])
    assert "### 第2回合开始（天启回合）" in post(s1, s2, ev)


# --- the GM's hands (ruling R33) --------------------------------------------------------------------

def test_r33_ambiguous_name_lists_the_ids_and_substitute_by_name():
    """seed l.68: "自己将被一名所指定的副将（副位魂将）替换" (a general's name is read where it is
    unique among the likely ones; two enemies of one name: refused, listing the ids)"""
    s = new({"a": {"pos": "C3", "move": 5}, "r": {"general": "tianjie_zhizi", "role": "reserve"},
             "z1": {"player": "bob", "general": "tianjie_zhizi", "pos": "C5"},
             "z2": {"player": "bob", "general": "tianjie_zhizi", "pos": "D4"}})
    with pytest.raises(GmError) as e:
        RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"attack": "天劫之子"}]}, "a.yaml", "zh")
    p = e.value.problems[0]
    assert (p.code, p.field, p.params["ids"]) == ("hunlu.orders.ambiguous", "actions.0.attack", "z1, z2")
    assert "z1, z2" in p.render("zh")
    o = RS.parse_orders(s, {"turn": 1, "player": "alice", "actions": [{"替换": "天劫之子"}]}, "a.yaml", "zh")
    assert o.actions == [{"kind": "substitute", "reserve": "r"}]


def test_r33_dice_note_shown_beside_its_rolls(tmp_path, gm):
    """seed l.47: "每当需要判定时，扔一次骰子，上面显示的数值即为判定结果。" (forum rolls: full-width
    digits read, a mistyped roll withdrawn with --replace, the floor's note beside the roll)"""
    import json

    d = tmp_path / "c"
    gm("new", d, "--scenario", "hunlu_duel", "--seed", "hunlu-dice-seed-0123456789")
    gm("dice", d, "６", "--note", "错楼")
    gm("dice", d, "３，５", "--note", "12 楼", "--replace")
    assert (d / "orders/turn-001/_dice.yaml").read_text("utf-8") == "dice:\n- 3\n- 5\nnote: 12 楼\n"
    nxt = json.loads(gm("show", d, "--json").stdout)["next"]
    (tmp_path / "s.yaml").write_text(f"turn: 1\nplayer: {nxt['player']}\nactions: []\n", encoding="utf-8")
    gm("submit", d, tmp_path / "s.yaml")
    gm("resolve", d)
    text = (d / "reports/turn-001/public.md").read_text("utf-8")
    assert "本步的论坛骰：3、5（12 楼）" in text
    gm("dice", d, "--replace")
    assert (d / "orders/turn-002/_dice.yaml").read_text("utf-8") == "dice: []\n"
    gm("verify", d)


def test_r33_duel_comment_agrees_with_the_demo_default():
    """seed l.9: "在标准地图【魂战之地】之中" (the standard map is the default demo; the duel's
    comment says so)"""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "scenarios" / "hunlu_duel.yaml").read_text("utf-8")
    assert RS.default_scenario == "hunzhan" and "plays the standard hunzhan" in text
    assert "the default scenario of" not in text

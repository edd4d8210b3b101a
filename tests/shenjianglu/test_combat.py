"""Rule cases: damage, death, counter-attacks, effects and their order, equipment, spells, the
end of a player and of the game (seed 1.1-1.3, 3.12-3.14, 附录)."""

from __future__ import annotations

from tests.shenjianglu.helpers import duel, pass_turn, play, seat, types, unit

STRONG = {"type": "character", "cost": 1, "faction": "neutral", "quality": "white", "attack": 6, "stamina": 9, "move": 1}


def dmg(events, who=None):
    return [(e["unit"], e["amount"]) for e in events if e["type"] == "damage" and (who is None or e["unit"] == who)]


def test_a_normal_attack_deals_its_attack():
    """seed l.15: "【武力】 一次普通攻擊產生的傷害。" """
    s = duel(units=[{"id": "a1", "card": "刺", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    assert dmg(play(s, {"command": "a1", "attack": "b1"})[1]) == [("b1", 3)]


def test_death_when_damage_in_one_turn_reaches_stamina():
    """seed l.173: "當一個人物在一個回合內受到一次或者多次攻擊的累計傷害總和大於等於他的體力，則該人物死亡。" """
    s = duel(hand1=["雷"], units=[{"id": "a1", "card": "零", "owner": "alice", "pos": "D4"},
                                  {"id": "a2", "card": "兵", "owner": "alice", "pos": "C3"},
                                  {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]})
    assert unit(s2, "b1") is not None  # 2 < 3
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]}, {"command": "a2", "attack": "b1"})
    assert unit(s2, "b1") is None and "death" in types(ev)  # 2 + 2 >= 3


def test_damage_equal_to_stamina_kills():
    """seed l.173: "累計傷害總和大於等於他的體力" — equal is enough."""
    s = duel(hand1=["雷"], units=[{"id": "b1", "card": "快", "owner": "bob", "pos": "D3"}])
    assert unit(play(s, {"cast": "雷", "targets": ["b1"]})[0], "b1") is None


def test_damage_does_not_carry_over_turns():
    """seed l.17: "【體力】 一個回合內能夠承受傷害的累計最大值。" — 2 this turn and 2 the next do not add up."""
    s = duel(hand1=["雷"], hand2=[], order1=["雷"], units=[{"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"}])
    s, _ = play(s, {"cast": "雷", "targets": ["b1"]})
    s = pass_turn(s)
    s, _ = play(s, {"cast": "雷", "targets": ["b1"]})
    assert unit(s, "b1") is not None


def test_the_dead_go_to_their_owners_graveyard():
    """seed l.67: "【墓地】 左手區域為墓地，我方死亡的人物、用過的法術或裝備放到這裡。" """
    s = duel(hand1=["雷"], units=[{"id": "b1", "card": "快", "owner": "bob", "pos": "D3"}])
    s2, _ = play(s, {"cast": "雷", "targets": ["b1"]})
    assert seat(s2, "bob")["graveyard"] == ["快"] and seat(s2, "alice")["graveyard"] == ["雷"]


def test_equipment_goes_to_the_graveyard_with_its_wearer():
    """seed l.49: "若人物死亡或被收服（壓在身下），當前裝備會進入墓地。" """
    s = duel(hand1=["大雷"], units=[{"id": "b1", "card": "兵", "owner": "bob", "pos": "D3", "equipment": "甲"}])
    s2, _ = play(s, {"cast": "大雷", "targets": ["b1"]})
    assert sorted(seat(s2, "bob")["graveyard"]) == sorted(["兵", "甲"])


def test_counter_attack_on_an_adjacent_attack():
    """seed l.177: "對相鄰別方人物（包括友方）進行帶傷害的攻擊，會遭到反擊（傷害等於武力）。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert dmg(ev) == [("b1", 2), ("a1", 1)]
    assert [e["how"] for e in ev if e["type"] == "damage"] == ["normal", "counter"]


def test_ranged_attacks_are_not_countered():
    """seed l.179: "距離2格及以上的攻擊（即遠程攻擊）不被反擊。" """
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D5"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "skill": "射", "targets": ["b1"]})
    assert dmg(ev) == [("b1", 2)] and "counter" not in types(ev)


def test_a_ranged_skill_used_on_an_adjacent_unit_is_countered():
    """seed l.177: "對相鄰別方人物（包括友方）進行帶傷害的攻擊，會遭到反擊" — distance decides, not the skill's range (ruling 3)."""
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "skill": "射", "targets": ["b1"]})
    assert dmg(ev) == [("b1", 2), ("a1", 1)]


def test_only_the_first_attack_received_is_countered():
    """seed l.181: "一個回合內一個人物最多只反擊第一次受到的攻擊。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}, {"id": "a2", "card": "兵", "owner": "alice", "pos": "C3"},
                    {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"}, {"command": "a2", "attack": "b1"})
    assert [e["target"] for e in ev if e["type"] == "counter"] == ["a1"]


def test_a_spell_first_uses_up_the_counter():
    """seed l.181: "最多只反擊第一次受到的攻擊" — a spell was the first attack received (ruling 4)."""
    s = duel(hand1=["雷"], units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"},
                                  {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]}, {"command": "a1", "attack": "b1"})
    assert "counter" not in types(ev)


def test_the_counter_is_renewed_each_turn():
    """seed l.181: "一個回合內一個人物最多只反擊第一次受到的攻擊。" — 一個回合內: the next turn it answers again."""
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"},
                    {"id": "b2", "card": "盾", "owner": "bob", "pos": "C4"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert [e["unit"] for e in ev if e["type"] == "counter"] == ["b1"]
    s3, ev = play(s2, {"command": "b2", "attack": "a1"})
    assert [(e["unit"], e["target"]) for e in ev if e["type"] == "counter"] == [("a1", "b2")]


def test_attack_and_counter_land_together():
    """seed l.183: "攻擊和反擊是同時發起的。" — both die."""
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"}],
             catalogue={"兵": {"type": "character", "cost": 1, "faction": "neutral", "quality": "white", "attack": 3,
                              "stamina": 3, "move": 2}})
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert unit(s2, "a1") is None and unit(s2, "b1") is None


def test_spells_are_never_countered():
    """seed l.179: "距離2格及以上的攻擊（即遠程攻擊）不被反擊。" and l.177 — a spell is no unit's attack (S15)."""
    s = duel(hand1=["雷"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D6"}])
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]})
    assert "counter" not in types(ev)


def test_no_counter_skill():
    """seed l.191: "人物技能 > 法術和裝備 > 基本規則" — 刺's skill (no_counter) beats the counter rule."""
    s = duel(units=[{"id": "a1", "card": "刺", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert "counter" not in types(ev)


def test_an_attack_without_damage_is_not_countered():
    """seed l.177: "進行帶傷害的攻擊，會遭到反擊" — 武力 0 deals no damage (ruling 4)."""
    s = duel(units=[{"id": "a1", "card": "零", "owner": "alice", "pos": "D4"}, {"id": "a2", "card": "兵", "owner": "alice", "pos": "C3"},
                    {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert "counter" not in types(ev)


def test_an_attack_reduced_to_zero_is_still_countered():
    """seed l.177: "帶傷害的攻擊" — an attack with damage stays one when armour takes it all (ruling 4)."""
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D4"},
                    {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3", "equipment": "甲"}])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert dmg(ev) == [("b1", 0), ("a1", 1)]


def test_reduce_takes_from_each_damage():
    """seed l.45: "需要裝配到人物身上才能使用它的效果" — 甲: each damage taken −1."""
    s = duel(hand1=["雷"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3", "equipment": "甲"}])
    assert dmg(play(s, {"cast": "雷", "targets": ["b1"]})[1]) == [("b1", 1)]


def test_cap_bounds_each_damage():
    """seed l.45: "需要裝配到人物身上才能使用它的效果" — 衣: each damage taken at most 2."""
    s = duel(hand1=["大雷"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3", "equipment": "衣"}])
    assert dmg(play(s, {"cast": "大雷", "targets": ["b1"]})[1]) == [("b1", 2)]


def test_latest_placed_effect_first():
    """seed l.193: "後放的效果優先於先放的效果。例如袁洪穿上了八卦仙衣，受到攻擊時，會先算減傷之後再算技能效果。" """
    s = duel(hand1=["大雷"], units=[{"id": "b1", "card": "袁洪", "owner": "bob", "pos": "D3", "equipment": "八卦仙衣"}])
    # 20 − 2 (八卦仙衣, put on later) = 18, then 袁洪's cap 3: 3; the other order would give 1
    assert dmg(play(s, {"cast": "大雷", "targets": ["b1"]})[1]) == [("b1", 3)]


def test_a_new_equipment_replaces_the_old():
    """seed l.47: "一個人物最多只能裝配一件裝備。給已有裝備的人物再次使用裝備，舊裝備會進入墓地。" """
    s = duel(hand1=["矛"], units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4", "equipment": "甲"}])
    s2, _ = play(s, {"equip": "矛", "unit": "a1"})
    assert unit(s2, "a1")["equipment"] == "矛" and unit(s2, "a1")["attack"] == 4
    assert seat(s2, "alice")["graveyard"] == ["甲"]


def test_equipment_goes_on_own_units_by_default():
    """seed l.45: "需要裝配到人物身上才能使用它的效果" — 甲 has no target: own units only (ruling 10)."""
    from tests.shenjianglu.helpers import refused

    s = duel(hand1=["甲"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    assert refused(s, {"equip": "甲", "unit": "b1"}) == [("shenjianglu.orders.bad_target", "actions.1.unit")]


def test_equipment_on_an_enemy_goes_to_the_players_graveyard():
    """seed l.67: "我方...用過的法術或裝備放到這裡。" — 矛 (target any) on bob's unit ends in alice's graveyard (ruling 10)."""
    s = duel(hand1=["矛", "雷"], units=[{"id": "b1", "card": "快", "owner": "bob", "pos": "D3"}])
    s2, _ = play(s, {"equip": "矛", "unit": "b1"})
    assert unit(s2, "b1")["attack"] == 3 and unit(s2, "b1")["equipment"] == "矛"
    s3, _ = play(s, {"equip": "矛", "unit": "b1"}, {"cast": "雷", "targets": ["b1"]})
    assert seat(s3, "alice")["graveyard"] == ["雷", "矛"] and seat(s3, "bob")["graveyard"] == ["快"]


def test_a_skill_beats_a_spell():
    """seed l.191: "【是否生效優先級】 當兩種描述相矛盾時，邏輯優先級順序為：人物技能 > 法術和裝備 > 基本規則。" — 妲己's 妖身 (immune: spell)."""
    s = duel(hand1=["雷"], units=[{"id": "b1", "card": "妲己", "owner": "bob", "pos": "D3"}])
    s2, ev = play(s, {"cast": "雷", "targets": ["b1"]})
    assert dmg(ev) == [] and "immune" in types(ev)
    assert seat(s2, "alice")["graveyard"] == ["雷"]


def test_spells_reach_any_distance():
    """seed l.39: "絕大部分法術可對任意人物施放，無距離限制。" """
    s = duel(hand1=["雷"])
    assert unit(play(s, {"cast": "雷", "targets": ["K2"]})[0], "K2")["damage"] == 2


def test_spent_spells_go_to_the_graveyard():
    """seed l.41: "使用法術同樣需要消耗法力，效果結束後放入各自的墓地。" """
    s2, _ = play(duel(hand1=["雷", "疗"]), {"cast": "雷", "targets": ["K2"]}, {"cast": "疗", "targets": ["K1"]})
    assert seat(s2, "alice")["graveyard"] == ["雷", "疗"] and seat(s2, "alice")["hand"] == [seat(s2, "alice")["hand"][0]]


def test_a_dead_king_puts_its_player_out():
    """seed l.187: "王被殺死的玩家將退出遊戲，場上將士和手牌進入墓地（不觸發死亡效果）。" """
    s = duel(hand1=["雷"], hand2=["兵", "盾"], units=[{"id": "K2", "damage": 8},
                                                    {"id": "y1", "card": "袁洪", "owner": "bob", "pos": "D4"},
                                                    {"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}])
    s2, ev = play(s, {"cast": "雷", "targets": ["K2"]})
    b = seat(s2, "bob")
    assert b["out"] and b["hand"] == [] and unit(s2, "y1") is None and unit(s2, "a1") is not None
    assert b["graveyard"] == ["测王", "袁洪", "兵", "盾"]  # the king too, then its troops, then its hand
    assert "trigger" not in types(ev) and unit(s2, "a1")["damage"] == 0  # 袁洪's 反噬 did not fire


def test_out_seats_are_skipped():
    """seed l.187: "王被殺死的玩家將退出遊戲" — the turn passes over them."""
    from gm_tool import app as ops
    from gm_tool.rulesets.shenjianglu import RULESET as RS

    data, source = ops.load_scenario("shenjianglu-4")
    s = RS.setup(data, source, "s")
    s["seats"][1]["out"] = True
    s["units"] = [u for u in s["units"] if u["id"] != "K2"]
    assert pass_turn(s)["next"] == "carol"


def test_the_game_ends_when_a_team_has_no_king():
    """seed l.219: "某一隊的王被全滅則遊戲結束。" and l.75 "同一隊的目標就是消滅敵對玩家全部的王即為勝利。" """
    from gm_tool.rulesets.shenjianglu import RULESET as RS

    s = duel(hand1=["雷"], units=[{"id": "K2", "damage": 8}])
    s2, ev = play(s, {"cast": "雷", "targets": ["K2"]})
    assert s2["winner"] == "red" and s2["next"] is None and RS.due(s2) == []
    assert RS.outcome(s2).winner == "red"


def test_actions_after_the_end_are_skipped():
    """seed l.219: "某一隊的王被全滅則遊戲結束。" — at once: later actions are skipped and logged (S18)."""
    s = duel(hand1=["雷", "兵"], units=[{"id": "K2", "damage": 8}])
    s2, ev = play(s, {"cast": "雷", "targets": ["K2"]}, {"summon": "兵", "at": "D6"})
    assert [(e["index"], e["reason"]) for e in ev if e["type"] == "action.skipped"] == [(2, "game_over")]
    assert "兵" in seat(s2, "alice")["hand"]


def test_last_kings_dying_together_is_a_draw():
    """seed l.213: "【平局】 若雙方最後一個王同時死亡則為平局。" — a king's attack and the other's counter."""
    s = duel(units=[{"id": "K1", "pos": "D2", "damage": 8}, {"id": "K2", "damage": 8}])
    s2, ev = play(s, {"command": "K1", "attack": "K2"})
    assert s2["winner"] == "draw" and s2["next"] is None
    from gm_tool.rulesets.shenjianglu import RULESET as RS

    assert RS.outcome(s2).draw


def test_a_death_trigger_fires():
    """seed l.165: "【自動技能】 人物上場後自動生效，若死亡或被收服則失效。" — 袁洪's 反噬 answers its death."""
    s = duel(hand1=["大雷"], units=[{"id": "b1", "card": "袁洪", "owner": "bob", "pos": "D5"},
                                    {"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}],
             catalogue={"大雷": {"type": "spell", "cost": 9, "target": "any", "effects": [{"damage": 3}, {"damage": 3}],
                                "faction": "neutral", "quality": "purple"}})
    s2, ev = play(s, {"cast": "大雷", "targets": ["b1"]})
    assert unit(s2, "b1") is None
    assert ("a1", 2) in dmg(ev)


def test_an_arrival_trigger_fires():
    """seed l.165: "人物上場後自動生效" — 闻仲's 雷法 hits every enemy king when it arrives."""
    s = pass_turn(duel(hand2=["闻仲"], deck2=None, catalogue={"闻仲": {"type": "character", "cost": 6, "faction": "neutral",
                                                                   "quality": "purple", "attack": 3, "stamina": 5, "move": 2,
                                                                   "skills": [{"name": "雷法", "mode": "auto", "when": "arrive",
                                                                               "target": "enemy", "enemy_kings": True,
                                                                               "effects": [{"damage": 1}]}]}}))
    s2, ev = play(s, {"summon": "闻仲", "at": "D2"})
    assert unit(s2, "K1")["damage"] == 1 and unit(s2, "K2")["damage"] == 0


def test_a_start_trigger_gives_mana():
    """seed l.109: "開始階段：某些技能的效果會在這個階段觸發。" """
    s = duel(units=[{"id": "b1", "card": "闻仲", "owner": "bob", "pos": "A1"}])
    s = pass_turn(s)
    assert seat(s, "bob")["mana"] == 10


def test_a_buff_lasts_until_the_end_of_the_turn():
    """seed l.195: "每個玩家從自己的回合開始到結束稱為“一個回合”。" — one-off buffs end with it."""
    s = duel(hand1=["鼓舞"], units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}],
             catalogue={"鼓舞": {"type": "spell", "cost": 2, "faction": "neutral", "quality": "green", "target": "own",
                                "count": 2, "effects": [{"buff": {"attack": 1, "move": 1}}]}})
    s2, ev = play(s, {"cast": "鼓舞", "targets": ["a1"]}, {"command": "a1", "to": "C2"})
    assert [e["attack"] for e in ev if e["type"] == "buff"] == [3]
    assert unit(s2, "a1")["attack"] == 2 and unit(s2, "a1")["move"] == 2 and unit(s2, "a1")["buffs"] == []


def test_a_spell_forces_a_turn():
    """seed l.143: "除非被別人用技能或法術強制轉向。" """
    s = duel(hand1=["转"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}],
             catalogue={"转": {"type": "spell", "cost": 1, "faction": "neutral", "quality": "white", "target": "enemy",
                              "effects": [{"face": "E"}]}})
    assert unit(play(s, {"cast": "转", "targets": ["b1"]})[0], "b1")["facing"] == "E"


def test_bonus_damage_against_a_kind():
    """seed l.25: "【細分類型】 某些技能會對某些類型的人物產生針對效果。" — 象兵 hits 步兵 for 1 more."""
    s = duel(units=[{"id": "b1", "card": "象兵", "owner": "bob", "pos": "D3"}, {"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"},
                    {"id": "a2", "card": "快", "owner": "alice", "pos": "C3"}])
    s = pass_turn(s)
    assert dmg(play(s, {"command": "b1", "attack": "a1"})[1], "a1") == [("a1", 4)]
    assert dmg(play(s, {"command": "b1", "attack": "a2"})[1], "a2") == [("a2", 3)]


def test_stamina_buff_from_equipment():
    """seed l.45: "需要裝配到人物身上才能使用它的效果或攜帶的技能。" — 木牛流马 +2 move, +1 stamina."""
    s = duel(hand1=["木牛流马"], units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}])
    s2, _ = play(s, {"equip": "木牛流马", "unit": "a1"}, {"command": "a1", "to": "B3"})
    assert (unit(s2, "a1")["stamina"], unit(s2, "a1")["move"], unit(s2, "a1")["pos"]) == (4, 4, "B3")

"""Rule cases: summoning, commanding, moving, attacking and skills (seed 2, 3.8-3.11)."""

from __future__ import annotations

from tests.shenjianglu.helpers import duel, pass_turn, play, refused, seat, unit

BOB_TROOP = {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}


def test_summon_on_a_free_own_spawn_point():
    """seed l.63: "【出兵點】 王位周圍帶有星的格子是該方玩家可用的出兵點。" """
    s, ev = play(duel(hand1=["兵"]), {"summon": "兵", "at": "D6", "id": "a1"})
    u = unit(s, "a1")
    assert (u["owner"], u["pos"], u["arrived"], u["card"]) == ("alice", "D6", 1, "兵")
    assert "兵" not in seat(s, "alice")["hand"]


def test_summon_off_a_spawn_point_is_refused():
    """seed l.63: "王位周圍帶有星的格子是該方玩家可用的出兵點" — D5 is no spawn point."""
    assert refused(duel(hand1=["兵"]), {"summon": "兵", "at": "D5"}) == [("shenjianglu.orders.not_spawn", "actions.1.at")]


def test_summon_on_an_enemy_spawn_point_is_refused():
    """seed l.63: "該方玩家可用的出兵點" — bob's C1 is not alice's."""
    assert refused(duel(hand1=["兵"]), {"summon": "兵", "at": "C1"}) == [("shenjianglu.orders.not_spawn", "actions.1.at")]


def test_summon_on_an_occupied_spawn_point_is_refused():
    """seed l.63: "若出兵點上有人，則此點不能出兵。" """
    s = duel(hand1=["兵"], units=[{"id": "b9", "card": "盾", "owner": "bob", "pos": "D6"}])
    assert refused(s, {"summon": "兵", "at": "D6"}) == [("shenjianglu.orders.spawn_taken", "actions.1.at")]


def test_second_summon_on_the_same_spawn_point_is_refused():
    """seed l.63: "若出兵點上有人，則此點不能出兵。" — the first summon of the sheet now stands there."""
    assert refused(duel(hand1=["兵", "盾"]), {"summon": "兵", "at": "C7"}, {"summon": "盾", "at": "C7"}) == [
        ("shenjianglu.orders.spawn_taken", "actions.2.at")]


def test_a_unit_cannot_act_on_its_arrival_turn():
    """seed l.115: "剛召喚的人物本回合內不能立刻行動（此稱為“立足時間”）。" """
    assert refused(duel(hand1=["兵"]), {"summon": "兵", "at": "D6", "id": "a1"}, {"command": "a1", "to": "D5"}) == [
        ("shenjianglu.orders.arriving", "actions.2.command")]


def test_a_summoned_unit_acts_on_its_next_turn():
    """seed l.117: "指揮上一回合上場的我方全部人物陸續行動一次。" """
    s, _ = play(duel(hand1=["兵"]), {"summon": "兵", "at": "D6", "id": "a1"})
    assert unit(s, "a1")["can_act"] is False
    s = pass_turn(s)
    assert unit(s, "a1")["can_act"] is True
    s, _ = play(s, {"command": "a1", "to": "D4"})
    assert unit(s, "a1")["pos"] == "D4"


def test_a_unit_still_settling_counter_attacks():
    """seed l.115: "但若受到攻擊會反擊。" — alice's summon, attacked on bob's turn before it ever acted, answers."""
    s, _ = play(duel(hand1=["盾"], units=[{"id": "b1", "card": "兵", "owner": "bob", "pos": "D5"}]),
                {"summon": "盾", "at": "D6", "id": "a1"})
    s, ev = play(s, {"command": "b1", "attack": "a1"})
    assert [(e["unit"], e["target"]) for e in ev if e["type"] == "counter"] == [("a1", "b1")]


def test_haste_lets_a_unit_act_on_arrival():
    """seed l.191: "人物技能 > 法術和裝備 > 基本規則" — 快's skill (haste) beats 立足時間."""
    s, _ = play(duel(hand1=["快"]), {"summon": "快", "at": "D6", "id": "a1"}, {"command": "a1", "to": "D3"})
    assert unit(s, "a1")["pos"] == "D3"


def test_summons_without_id_are_numbered_per_player():
    """seed l.113: "召喚人物： 消耗法力召喚人物上場。" — ids alice-1, alice-2 (contract §2)."""
    s, _ = play(duel(hand1=["兵", "盾"]), {"summon": "兵", "at": "C7"}, {"summon": "盾", "at": "E7"})
    assert {unit(s, "alice-1")["card"], unit(s, "alice-2")["card"]} == {"兵", "盾"}


def test_a_taken_id_is_refused():
    """seed l.135: "任何人物不能重疊在一起" — nor share a name: ids are unique (contract §2)."""
    assert refused(duel(hand1=["兵"]), {"summon": "兵", "at": "C7", "id": "K2"}) == [
        ("shenjianglu.orders.id_taken", "actions.1.id")]


def test_a_card_not_in_hand_is_refused():
    """seed l.125: "法術或者裝備牌可在自己回合裡使用，只要法力值足夠。" — from the hand only."""
    assert refused(duel(hand1=["兵"]), {"cast": "雷", "targets": ["K2"]})[0] == (
        "shenjianglu.orders.not_in_hand", "actions.1.cast")


def test_a_card_drawn_mid_turn_is_playable_next_turn_only():
    """seed l.111: "摸牌階段：從牌堆中摸1張牌。" — a card drawn by an effect mid-turn waits for the next turn (contract §2)."""
    extra = {"书": {"type": "spell", "cost": 1, "faction": "neutral", "quality": "white", "target": "own",
                   "effects": [{"draw": 1}]}}
    s = duel(hand1=["书"], order1=["兵", "雷"], catalogue=extra)
    assert refused(s, {"cast": "书", "targets": ["K1"]}, {"cast": "雷", "targets": ["K2"]}) == [
        ("shenjianglu.orders.not_in_hand", "actions.2.cast")]
    s2, _ = play(s, {"cast": "书", "targets": ["K1"]})
    assert "雷" in seat(s2, "alice")["hand"]


def test_a_character_cannot_be_cast():
    """seed l.5: "神將錄的卡牌分為人物、法術、裝備、順序牌4種。" — each is played its own way."""
    assert refused(duel(hand1=["兵"]), {"cast": "兵", "targets": ["K2"]}) == [
        ("shenjianglu.orders.wrong_card_type", "actions.1.cast")]


def test_move_within_movement():
    """seed l.19: "【移動力】 一個回合內的最遠移動距離。" — 兵 moves 2."""
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}])
    assert unit(play(s, {"command": "a1", "to": "D3"})[0], "a1")["pos"] == "D3"
    assert refused(s, {"command": "a1", "to": "D2"}) == [("shenjianglu.orders.no_route", "actions.1.to")]


def test_a_diagonal_cell_is_two_steps_away():
    """seed l.131: "可移動距離以連接目標的一條或者多條直線線路計算路線長度" — a corner costs its two segments (ruling 1)."""
    s = duel(units=[{"id": "a1", "card": "盾", "owner": "alice", "pos": "D5"},
                    {"id": "a2", "card": "兵", "owner": "alice", "pos": "B5"}])
    assert refused(s, {"command": "a1", "to": "C4"}) == [("shenjianglu.orders.no_route", "actions.1.to")]
    assert unit(play(s, {"command": "a2", "to": "C4"})[0], "a2")["pos"] == "C4"


def test_move_through_own_units():
    """seed l.133: "人物移動只可越過本方或友方人物，不能越過敵方人物。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"},
                    {"id": "a2", "card": "盾", "owner": "alice", "pos": "D4"}])
    assert unit(play(s, {"command": "a1", "to": "D3"})[0], "a1")["pos"] == "D3"


def test_no_moving_through_an_enemy():
    """seed l.133: "不能越過敵方人物。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"},
                    {"id": "b1", "card": "盾", "owner": "bob", "pos": "D4"}])
    assert refused(s, {"command": "a1", "to": "D3"}) == [("shenjianglu.orders.no_route", "actions.1.to")]


def test_no_ending_on_a_unit():
    """seed l.135: "任何人物不能重疊在一起，除非是特殊情況。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"},
                    {"id": "a2", "card": "盾", "owner": "alice", "pos": "D4"}])
    assert refused(s, {"command": "a1", "to": "D4"}) == [("shenjianglu.orders.cell_taken", "actions.1.to")]


def test_an_empty_enemy_spawn_point_may_be_entered():
    """seed l.137: "任何王位和出兵點上只要無人，就可進入。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}])
    assert unit(play(s, {"command": "a1", "to": "D2"})[0], "a1")["pos"] == "D2"


def test_an_empty_throne_may_be_entered():
    """seed l.137: "任何王位和出兵點上只要無人，就可進入。" — the king has left its throne."""
    s = duel(units=[{"id": "K1", "pos": "A7"}, {"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}])
    assert unit(play(s, {"command": "a1", "to": "D7"})[0], "a1")["pos"] == "D7"


def test_via_chooses_the_route():
    """seed l.131: "以連接目標的一條或者多條直線線路計算路線長度" — via C5 to C4 is two steps; via E5 to C4 too long."""
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}])
    s2, ev = play(s, {"command": "a1", "to": "C4", "via": ["C5"]})
    assert [e["path"] for e in ev if e["type"] == "move"] == [["C5", "C4"]]
    assert refused(s, {"command": "a1", "to": "C4", "via": ["E5"]}) == [("shenjianglu.orders.no_route", "actions.1.to")]


def test_units_face_their_seat_front():
    """seed l.141: "人物的初始朝向為玩家座位的正前方" """
    s, _ = play(duel(hand1=["兵"], hand2=["兵"]), {"summon": "兵", "at": "D6", "id": "a1"})
    s, _ = play(s, {"summon": "兵", "at": "D2", "id": "b1"})
    assert (unit(s, "a1")["facing"], unit(s, "b1")["facing"]) == ("N", "S")


def test_moving_never_turns_a_unit():
    """seed l.143: "人物的朝向一般情況下不會改變，除非被別人用技能或法術強制轉向。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}])
    assert unit(play(s, {"command": "a1", "to": "C4"})[0], "a1")["facing"] == "N"


def test_a_forced_turn_by_a_skill():
    """seed l.143: "除非被別人用技能或法術強制轉向。" — 杨戬's 天眼 turns its target round."""
    s = duel(units=[{"id": "a1", "card": "杨戬", "owner": "alice", "pos": "D5"}, BOB_TROOP],
             catalogue={})
    s2, _ = play(s, {"command": "a1", "skill": "天眼", "targets": ["b1"]})
    assert unit(s2, "b1")["facing"] == "N"


def test_attack_after_moving():
    """seed l.149: "可在移動後（也可在原地）對相鄰敵方或者友方目標發起普通攻擊。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D2"}])
    s2, ev = play(s, {"command": "a1", "to": "D3", "attack": "b1"})
    assert [(e["unit"], e["amount"]) for e in ev if e["type"] == "damage"] == [("b1", 2), ("a1", 1)]
    assert unit(s2, "a1")["pos"] == "D3"


def test_attack_in_place():
    """seed l.149: "（也可在原地）對相鄰敵方...目標發起普通攻擊。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}, BOB_TROOP])
    s2, ev = play(s, {"command": "a1", "attack": "b1"})
    assert ("attack", "a1") in [(e["type"], e.get("unit")) for e in ev]
    assert unit(s2, "a1")["pos"] == "D4"


def test_attack_needs_adjacency():
    """seed l.119: "移動後攻擊一個別方相鄰人物。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}, BOB_TROOP])
    assert refused(s, {"command": "a1", "attack": "b1"}) == [("shenjianglu.orders.not_adjacent", "actions.1.attack")]


def test_a_diagonal_unit_is_not_adjacent():
    """seed l.119: "攻擊一個別方相鄰人物" — adjacent means sharing a side (ruling 1)."""
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "C4"}, BOB_TROOP])
    assert refused(s, {"command": "a1", "attack": "b1"}) == [("shenjianglu.orders.not_adjacent", "actions.1.attack")]


def test_no_normal_attack_on_own_units():
    """seed l.151: "人物不能普通攻擊我方人物。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"},
                    {"id": "a2", "card": "盾", "owner": "alice", "pos": "D4"}])
    assert refused(s, {"command": "a1", "attack": "a2"}) == [("shenjianglu.orders.attack_own", "actions.1.attack")]


def test_an_active_skill_is_not_used_after_moving():
    """seed l.157: "主動技能（包括裝備攜帶的技能）不能在移動後使用，只能在原地施放。" """
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D5"}, BOB_TROOP])
    assert refused(s, {"command": "a1", "to": "D4", "skill": "射", "targets": ["b1"]}) == [
        ("shenjianglu.orders.skill_in_place", "actions.1.to")]


def test_attack_or_skill_not_both():
    """seed l.159: "每回合只能在普通攻擊和主動技能之中選擇一種。" """
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D4"}, BOB_TROOP])
    assert refused(s, {"command": "a1", "attack": "b1", "skill": "射", "targets": ["b1"]}) == [
        ("shenjianglu.orders.skill_in_place", "actions.1.attack")]


def test_each_unit_acts_once():
    """seed l.117: "指揮上一回合上場的我方全部人物陸續行動一次。" """
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5"}])
    assert refused(s, {"command": "a1", "to": "D4"}, {"command": "a1", "to": "D3"}) == [
        ("shenjianglu.orders.acted", "actions.2.command")]


def test_no_commanding_an_enemy():
    """seed l.117: "指揮上一回合上場的我方全部人物" — own units only."""
    assert refused(duel(units=[BOB_TROOP]), {"command": "b1", "to": "D4"}) == [
        ("shenjianglu.orders.not_own", "actions.1.command")]


def test_skill_range_ignores_blockers():
    """seed l.169: "若長度在該技能的射程之內則可執行，無論連接的路線上是否存在人物阻擋。" """
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D4"},
                    {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"},
                    {"id": "b2", "card": "盾", "owner": "bob", "pos": "D2"}])
    s2, ev = play(s, {"command": "a1", "skill": "射", "targets": ["K2"]})
    assert unit(s2, "K2")["damage"] == 2


def test_skill_out_of_range_is_refused():
    """seed l.169: "若長度在該技能的射程之內則可執行" — D6 to D1 is 5, beyond 3."""
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D6"}])
    assert refused(s, {"command": "a1", "skill": "射", "targets": ["K2"]}) == [
        ("shenjianglu.orders.out_of_range", "actions.1.targets.1")]


def test_range_counts_both_segments():
    """seed l.167: "用一條或多條線段連接兩點計算距離" — C5 to D3 is 1 + 2 = 3."""
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "C5"}, BOB_TROOP])
    assert unit(play(s, {"command": "a1", "skill": "射", "targets": ["b1"]})[0], "b1") is not None
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "B5"}, BOB_TROOP])
    assert refused(s, {"command": "a1", "skill": "射", "targets": ["b1"]}) == [
        ("shenjianglu.orders.out_of_range", "actions.1.targets.1")]


def test_skills_on_own_units():
    """seed l.161: "絕大部分技能可對我方人物施放（用來觸發某些效果）。" """
    extra = {"医": {"type": "character", "cost": 1, "faction": "neutral", "quality": "white", "attack": 1,
                   "stamina": 2, "move": 1, "skills": [{"name": "愈", "mode": "active", "range": 2, "target": "own",
                                                        "effects": [{"buff": {"attack": 2}}]}]}}
    s = duel(units=[{"id": "a1", "card": "医", "owner": "alice", "pos": "D5"},
                    {"id": "a2", "card": "兵", "owner": "alice", "pos": "D4"}, BOB_TROOP], catalogue=extra)
    s2, ev = play(s, {"command": "a1", "skill": "愈", "targets": ["a2"]}, {"command": "a2", "attack": "b1"})
    assert [e["amount"] for e in ev if e["type"] == "damage"][0] == 4


def test_skill_target_kind_is_checked():
    """seed l.25: "【細分類型】 某些技能會對某些類型的人物產生針對效果。" — a skill aimed at 骑兵 only."""
    extra = {"猎": {"type": "character", "cost": 1, "faction": "neutral", "quality": "white", "attack": 1,
                   "stamina": 2, "move": 1, "skills": [{"name": "套", "mode": "active", "range": 3, "target": "enemy",
                                                        "kind": "骑兵", "effects": [{"damage": 1}]}]}}
    s = duel(units=[{"id": "a1", "card": "猎", "owner": "alice", "pos": "D5"},
                    {"id": "b1", "card": "快", "owner": "bob", "pos": "D3"},
                    {"id": "b2", "card": "兵", "owner": "bob", "pos": "C4"}], catalogue=extra)
    assert refused(s, {"command": "a1", "skill": "套", "targets": ["b2"]}) == [
        ("shenjianglu.orders.bad_target", "actions.1.targets.1")]
    s2, ev = play(s, {"command": "a1", "skill": "套", "targets": ["b1"]})
    assert [(e["unit"], e["amount"]) for e in ev if e["type"] == "damage"] == [("b1", 1)]


def test_equipment_skills_are_active_skills_of_the_wearer():
    """seed l.157: "主動技能（包括裝備攜帶的技能）不能在移動後使用" — 乾坤圈 brings 掷圈."""
    s = duel(units=[{"id": "a1", "card": "兵", "owner": "alice", "pos": "D5", "equipment": "乾坤圈"}, BOB_TROOP])
    s2, ev = play(s, {"command": "a1", "skill": "掷圈", "targets": ["b1"]})
    assert [(e["unit"], e["amount"]) for e in ev if e["type"] == "damage"] == [("b1", 2)]
    assert refused(s, {"command": "a1", "to": "D4", "skill": "掷圈", "targets": ["b1"]}) == [
        ("shenjianglu.orders.skill_in_place", "actions.1.to")]


def test_a_unit_killed_earlier_in_the_sheet_cannot_act():
    """seed l.173: "累計傷害總和大於等於他的體力，則該人物死亡。" — check plays the sheet in order."""
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D4"},
                    {"id": "b1", "card": "刺", "owner": "bob", "pos": "D3"}])
    s = pass_turn(s)  # bob: 刺 kills 弓 (3 >= 2) and is not countered
    s2, _ = play(s, {"command": "b1", "attack": "a1"})
    assert unit(s2, "a1") is None
    s = duel(units=[{"id": "a1", "card": "零", "owner": "alice", "pos": "D4"},
                    {"id": "a2", "card": "零", "owner": "alice", "pos": "C3"},
                    {"id": "b1", "card": "弓", "owner": "bob", "pos": "D3"}], hand1=["雷"])
    assert refused(s, {"cast": "雷", "targets": ["b1"]}, {"command": "a1", "attack": "b1"}) == [
        ("shenjianglu.orders.no_unit", "actions.2.attack")]

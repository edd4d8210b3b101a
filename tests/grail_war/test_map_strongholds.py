"""DATC-style cases for strongholds: R2 (territory), R5 (capture), R6 (functions), BERSERKER
destruction, the GM's closures (流局) and the end of the game (rulings M17, M19, M20, G5).
One case a test; each docstring quotes the seed line it checks."""

from __future__ import annotations

from gm_tool.core.events import EventLog
from gm_tool.rulesets.grail_war.model import Game
from gm_tool.rulesets.grail_war.resolve import check_victory
from tests.grail_war.map_kit import C, S, char, events, pos, refusal, setup, sheet, stronghold, turn

ROW = ["........", "........"]


def test_r2_territory_table():
    """seed l.17-37 "领土中枢点 领土数 百分比": the bundled map's table is checked cell for cell in
    tests/grail_war/test_fuyuki_map.py::test_territory_table_exact; here, territory is counted per
    side from the strongholds each side holds."""
    s = setup(ROW, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "H2")],
              [S(1, "B1", "hand", "red", ["A1", "B1", "C1"]), S(2, "G2", "hand", "blue", ["G2"]), S(3, "E1", "heal")])
    assert s["territory"] == {"red": 3, "blue": 1}


# ------------------------------------------------------------------------------------ R5
def test_r5_entering_is_not_enough():
    """seed l.39 "据点首先进驻并停留一回合": a character entering a neutral stronghold does not take it that
    turn; staying the next turn does."""
    s = setup(ROW, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "H2")], [S(1, "C1", "hand", None, ["C1", "D1"])])
    res = turn(s, sheet(s, "r", to="C1"))
    assert stronghold(res.state, 1)["owner"] is None and events(res, "capture") == []
    res2 = turn(res.state)
    assert stronghold(res2.state, 1)["owner"] == "red"
    cap = events(res2, "capture")
    assert len(cap) == 1 and cap[0]["to"] == "all" and cap[0]["previous"] is None
    assert res2.state["territory"] == {"red": 2, "blue": 0}


def test_r5_an_enemy_stronghold_falls_after_a_quiet_turn():
    """seed l.39 "敌方据点进入后1回合内不发生战斗即视为那一方放弃此据点": an enemy stronghold entered and held a
    turn without a fight changes hands."""
    s = setup(ROW, [C("r", "SABER", "red", "B1"), C("b", "SABER", "blue", "H2")], [S(1, "C1", "hand", "blue")])
    res = turn(turn(s, sheet(s, "r", to="C1")).state)
    assert stronghold(res.state, 1)["owner"] == "red"
    assert events(res, "capture")[0]["previous"] == "blue"


def test_r5_a_fight_keeps_it_the_enemys():
    """seed l.39 "若发生战斗则仍视为敌方据点": red began the turn inside blue's stronghold, but blue came in
    and they fought: it stays blue's."""
    s = setup(ROW, [C("r", "SABER", "red", "C1"), C("b", "SABER", "blue", "E1")], [S(1, "C1", "hand", "blue")])
    res = turn(s, sheet(s, "b", to="C1"))
    assert [e["cell"] for e in events(res, "fight")] == ["C1"]
    assert stronghold(res.state, 1)["owner"] == "blue"


def test_r5_a_quiet_turn_after_the_fight_takes_it():
    """seed l.39 "敌方在据点内战斗，战斗结束后1回合内无继续战斗则控制方夺得据点": after the fight, the enemy
    leaves; the next turn passes quietly and red takes it."""
    s = setup(ROW, [C("r", "SABER", "red", "C1"), C("b", "SABER", "blue", "E1")], [S(1, "C1", "hand", "blue")])
    res = turn(s, sheet(s, "b", to="C1"))
    res2 = turn(res.state, sheet(res.state, "b", to="E1"))
    assert pos(res2.state)["b"] == "E1"
    assert stronghold(res2.state, 1)["owner"] == "red"


def test_r5_holding_is_not_taking():
    """seed l.39 "据点首先进驻并停留一回合": staying in one's own stronghold is no capture."""
    s = setup(ROW, [C("r", "SABER", "red", "C1"), C("b", "SABER", "blue", "H2")], [S(1, "C1", "heal", "red")])
    assert events(turn(s), "capture") == []


# ------------------------------------------------------------------------------------ R6
def test_r6_hand_stronghold_gives_a_card():
    """seed l.42 "8.1功能类型1：占据此据点可额外获得手牌": a character of the holding side in it at the end of
    the turn draws one card, told only to its player (ruling M19)."""
    s = setup(ROW, [C("r", "SABER", "red", "C1"), C("b", "SABER", "blue", "H2")], [S(1, "C1", "hand", "red")])
    top = s["deck"]["draw_pile"][-1]
    res = turn(s)
    assert char(res.state, "r")["hand"] == [top]
    ev = events(res, "stronghold_card")
    assert len(ev) == 1 and ev[0]["to"] == ["r"]
    assert char(res.state, "b")["hand"] == []


def test_r6_equipment_comes_from_the_stronghold_pile():
    """seed l.43 "8.2功能类型2：占据此据点可额外获得装备牌" and l.203 "装备只能通过据点获得": the top card of the
    equipment pile goes into its slot; a replaced card goes to the bottom of the pile."""
    s = setup(ROW, [C("r", "SABER", "red", "C1"), C("b", "SABER", "blue", "H2")], [S(1, "C1", "equipment", "red")])
    pile = s["equipment_pile"]
    top = pile[-1]
    res = turn(s)
    from gm_tool.rulesets.grail_war import cards

    slot = cards.slot_of(top["name"])
    assert char(res.state, "r")["equipment"][slot] == top["name"]
    assert res.state["equipment_pile"] == pile[:-1]
    s2 = res.state
    # a second item of the same slot replaces the first, which goes under the pile
    while cards.slot_of(s2["equipment_pile"][-1]["name"]) != slot:
        s2["equipment_pile"].insert(0, s2["equipment_pile"].pop())
    second = s2["equipment_pile"][-1]
    res2 = turn(s2)
    assert char(res2.state, "r")["equipment"][slot] == second["name"]
    assert res2.state["equipment_pile"][0]["name"] == top["name"]


def test_r6_heal_then_five_turns_cooldown():
    """seed l.44 "8.3功能类型3：占据此据点可额外获得1点体力（同一角色5回合后才可以再次获得）" (ruling M19): healed
    at the end of turn 1, not at turns 2-5, again at turn 6."""
    s = setup(ROW, [C("r", "SABER", "red", "C1", hp=1, max_hp=4), C("b", "SABER", "blue", "H2")],
              [S(1, "C1", "heal", "red")])
    hps = []
    for _ in range(6):
        res = turn(s)
        s = res.state
        hps.append(char(s, "r")["hp"])
    assert hps == [2, 2, 2, 2, 2, 3]
    assert char(s, "r")["healed_turn"] == 6


def test_m19_a_full_character_is_not_healed_and_keeps_its_turn():
    """seed l.44 "额外获得1点体力" (ruling M19): at full HP nothing is healed and no cooldown starts."""
    s = setup(ROW, [C("r", "SABER", "red", "C1"), C("b", "SABER", "blue", "H2")], [S(1, "C1", "heal", "red")])
    res = turn(s)
    assert char(res.state, "r")["hp"] == 4 and char(res.state, "r")["healed_turn"] is None


def test_m19_a_contested_stronghold_gives_nothing():
    """seed l.42 "占据此据点可额外获得手牌" (ruling M19): with an enemy inside at the end of the turn, the
    holders in it get no function."""
    s = setup(ROW, [C("r", "SABER", "red", "C1"), C("b", "SABER", "blue", "D1")], [S(1, "C1", "hand", "red")])
    res = turn(s, sheet(s, "b", to="C1"))
    assert events(res, "stronghold_card") == []


def test_m19_only_the_holding_side_gets_the_function():
    """seed l.42 "占据此据点可额外获得手牌": an enemy entering a stronghold it does not (yet) hold gets nothing."""
    s = setup(ROW, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "D1")], [S(1, "C1", "hand", "red")])
    res = turn(s, sheet(s, "b", to="C1"))
    assert events(res, "stronghold_card") == [] and char(res.state, "b")["hand"] == []
    res2 = turn(res.state)  # a quiet turn inside: blue takes it, and its function with it
    assert stronghold(res2.state, 1)["owner"] == "blue" and len(char(res2.state, "b")["hand"]) == 1


# ------------------------------------------------------------------------------------ M17
def test_m17_berserker_destroys_a_stronghold_it_keeps_its_territory():
    """seed l.15 "中枢点的职能不因为BERSERKER破坏据点而消失。即被破坏的据点虽然丧失了据点的功能且不能传送，但占领后仍然能获得这一片领土"
    (ruling M17): the BERSERKER walks in with special destroy; at the end of the turn the stronghold is
    destroyed (public), keeps its owner and territory, and gives no function any more."""
    s = setup(ROW, [C("x", "BERSERKER", "red", "A1"), C("b", "SABER", "blue", "D2", hp=2, max_hp=4)],
              [S(1, "C1", "heal", "blue", ["C1", "D1"])])
    res = turn(s, sheet(s, "x", to="C1", special="destroy"), sheet(s, "b", to="D1"))
    sh = stronghold(res.state, 1)
    assert sh["destroyed"] is True and sh["owner"] == "blue"
    ev = events(res, "destroyed")
    assert len(ev) == 1 and ev[0]["to"] == "all" and ev[0]["character"] == "x"
    assert res.state["territory"]["blue"] == 2
    res2 = turn(res.state, sheet(res.state, "b", to="D1"))  # b stays away; x holds C1 quietly
    assert stronghold(res2.state, 1)["owner"] == "red" and res2.state["territory"]["red"] == 2
    s3 = res2.state
    for c in s3["characters"]:
        if c["id"] == "x":
            c["hp"] = 1
    assert char(turn(s3).state, "x")["hp"] == 1  # destroyed: no heal


def test_m17_destroy_is_refused_where_it_cannot_be():
    """seed l.15 "被破坏的据点" (ruling M17): only a BERSERKER, only an enemy or neutral stronghold that still
    works."""
    s = setup(ROW, [C("x", "BERSERKER", "red", "A1"), C("y", "SABER", "red", "A2"), C("b", "SABER", "blue", "H2")],
              [S(1, "C1", "heal", "red"), S(2, "D1", "hand")])
    assert "own stronghold" in refusal(s, "x", to="C1", special="destroy")
    assert "no stronghold to destroy" in refusal(s, "x", to="B1", special="destroy")
    assert "cannot destroy" in refusal(s, "y", to="D1", special="destroy")
    stronghold(s, 2)["destroyed"] = True
    assert "already destroyed" in refusal(s, "x", to="D1", special="destroy")


def test_m17_destroy_fails_if_the_berserker_is_not_there_at_the_end():
    """seed l.15 (ruling M17): a BERSERKER stopped on the way (here by meeting an enemy) destroys nothing."""
    s = setup(ROW, [C("x", "BERSERKER", "red", "A1"), C("b", "SABER", "blue", "B1")], [S(1, "C1", "hand")])
    res = turn(s, sheet(s, "x", to="C1", special="destroy"))
    assert pos(res.state)["x"] == "B1" and stronghold(res.state, 1)["destroyed"] is False


# ------------------------------------------------------------------------------------ M20: 流局
def test_m20_a_closed_stronghold_works_for_nobody():
    """seed l.228 "流局当出现存活人数无法满足胜利条件的时候,GM有权对地图和据点进行限制" (ruling M20): a closed stronghold
    gives no function, cannot be taken, and is no teleport destination."""
    s = setup(ROW, [C("r", "SABER", "red", "C1"), C("c", "CASTER", "red", "A2"), C("b", "SABER", "blue", "H2")],
              [S(1, "C1", "hand", "red"), S(2, "B2", "hand"), S(3, "D2", "hand", "red")])
    for n in (1, 2):
        stronghold(s, n)["closed"] = True
    assert "destroyed or closed" in refusal(s, "c", to="C1", special="teleport")
    res = turn(s, sheet(s, "c", to="B2"))
    res2 = turn(res.state)
    assert events(res2, "stronghold_card") == []
    assert stronghold(res2.state, 2)["owner"] is None and events(res2, "capture") == []
    assert res2.state["territory"] == {"red": 2, "blue": 0}  # what was held stays held


# ------------------------------------------------------------------------------------ the end
def test_g5_a_side_wins_when_every_enemy_is_dead():
    """seed l.51 "生命值归零且无法救活的一方就算阵亡" and l.227 "任何一方满足游戏胜利条件即游戏结束": the last blue
    character dead, red wins (public)."""
    s = setup(ROW, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "H2")])
    game = Game.from_state(s)
    game.character("b").alive = False
    log = EventLog()
    check_victory(game, log)
    assert game.winner == "red" and log.events[-1]["type"] == "victory" and log.events[-1]["to"] == "all"


def test_g5_territory_share_after_n_turns():
    """seed l.14 "当你占据此据点时相应地也就获得了这片领土" (G5, GM option territory_after): after turn N the side
    holding more territory wins."""
    s = setup(ROW, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "H2")],
              [S(1, "B1", "hand", "red", ["A1", "B1"]), S(2, "G2", "hand", "blue", ["G2"])],
              rules={"territory_after": 2})
    res = turn(s)
    assert res.state["winner"] is None
    res2 = turn(res.state)
    assert res2.state["winner"] == "red"
    assert events(res2, "victory")[0]["territory"] == {"red": 2, "blue": 1}

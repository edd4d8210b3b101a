"""DATC-style cases for movement: R3 (terrain, rivers, tunnels), R4 (CASTER teleport), the
teleport strongholds of R6, and rulings M10-M16. One case a test; each docstring quotes the seed
line it checks. R1 (capacity), R3's simultaneous steps and meetings, and rulings M13-M14 are
data: tests/grail_war/cases/movement.yaml."""

from __future__ import annotations

from gm_tool.rulesets.grail_war.data import load
from tests.grail_war.map_kit import C, S, events, inside, path_of, place, pos, refusal, setup, sheet, turn

FLAT = ["......", "......", "......"]
HILL = ["..^#", "....", "...."]


def test_r3_ground_is_entered_from_higher_to_lower_only():
    """seed l.7 "一般介职只能从内到外即由高到低移动": a SABER walks down from the cliff top but is refused
    going up, with the reason."""
    s = setup(HILL, [C("r", "SABER", "red", "B1"), C("d", "SABER", "red", "D1"), C("b", "SABER", "blue", "A3")])
    assert "higher to lower ground only" in refusal(s, "r", to="C1")
    assert "cannot climb" in refusal(s, "r", to="C1", special="climb")
    res = turn(s, sheet(s, "d", to="B1", via=["C1"]))
    assert pos(res.state)["d"] == "B1"


def test_m11_climbing_must_be_asked_for():
    """seed l.7 "如果要从低到高只有LANCER、RIDER和CASTER使用技能才能通过" and l.151 "8.本回合移动，是否发动介职特效"
    (ruling M11): a RIDER climbs only when its sheet asks for the class movement."""
    s = setup(HILL, [C("r", "RIDER", "red", "B1"), C("b", "SABER", "blue", "A3")])
    assert "ask for the class movement" in refusal(s, "r", to="D1")
    res = turn(s, sheet(s, "r", to="D1", special="climb"))
    assert path_of(res, "r") == ["B1", "C1", "D1"]


def test_m12_lancer_jump_up_costs_two():
    """seed l.7 "其中LANCER使用技能通过高地时，跳跃的距离-1" (ruling M12): each step up costs a LANCER two of
    its move; it spends the first where it stands. Level and downhill steps cost one."""
    s = setup(HILL, [C("l", "LANCER", "red", "A1"), C("b", "SABER", "blue", "A3")])
    assert "takes 5 steps" in refusal(s, "l", to="D1", special="jump")
    assert "ask for the class movement" in refusal(s, "l", to="C1")
    res = turn(s, sheet(s, "l", to="C1", special="jump"))
    assert pos(res.state)["l"] == "C1"
    assert path_of(res, "l") == ["A1", "B1", "C1"]  # 3 ticks: B1, waiting at B1, C1


def test_m12_lancer_jumps_but_does_not_cross_rivers():
    """seed l.10 "只有RIDER和CASTER使用技能才能通过" and l.12 "不能使用跳跃技能" (ruling M11): jumping is the
    LANCER's; crossing rivers is not."""
    s = setup([".~~.", "....", "...."], [C("l", "LANCER", "red", "A1"), C("r", "RIDER", "red", "A3"),
                                         C("b", "SABER", "blue", "D3")])
    assert "cannot cross rivers" in refusal(s, "l", to="D1", special="cross")
    assert "cannot jump" in refusal(s, "r", to="B3", special="jump")


RIVER = ["..~~..", "..~~..", "..~~.."]


def test_r3_rivers_only_rider_or_caster():
    """seed l.10 "原则上河道不允许通过，只有RIDER和CASTER使用技能才能通过": a SABER is refused; a RIDER with its
    class movement crosses the 2-wide river in 3 steps."""
    s = setup(RIVER, [C("s", "SABER", "red", "B1"), C("r", "RIDER", "red", "B2"), C("b", "SABER", "blue", "F3")])
    assert "cannot cross rivers" in refusal(s, "s", to="E1")
    assert "ask for the class movement" in refusal(s, "r", to="E2")
    res = turn(s, sheet(s, "r", to="E2", special="cross"))
    assert path_of(res, "r") == ["B2", "C2", "D2", "E2"]


def test_r3_a_move_may_not_end_in_the_river():
    """seed l.10 "河道的宽都为2，请玩家看准使用技能时的移动距离，以免渡河失败": a crossing that would stop in the
    river is refused."""
    s = setup(RIVER, [C("r", "CASTER", "red", "B2"), C("b", "SABER", "blue", "F3")])
    assert "may not end in the river" in refusal(s, "r", to="D2", special="cross")


def test_m14_a_crossing_cut_short_stays_in_the_river():
    """seed l.10 "请玩家看准使用技能时的移动距离，以免渡河失败" (ruling M14): two enemy RIDERs crossing from
    opposite banks bar each other in mid-river; the crossings fail and both stay in the river."""
    s = setup(["..~~.."], [C("r", "RIDER", "red", "B1"), C("b", "RIDER", "blue", "E1")])
    res = turn(s, sheet(s, "r", to="E1", special="cross"), sheet(s, "b", to="B1", special="cross"))
    assert pos(res.state) == {"r": "C1", "b": "D1"}
    assert {e["character"] for e in events(res, "blocked", reason="enemy")} == {"r", "b"}


def test_m11_class_movement_crosses_and_climbs_together():
    """seed l.151 "是否发动介职特效" (ruling M11): the class movement is one yes/no: a CASTER asking for it
    may both cross the river and climb the far bank."""
    s = setup(["..~~^."], [C("c", "CASTER", "red", "B1"), C("b", "SABER", "blue", "F1")])
    res = turn(s, sheet(s, "c", to="E1", special="cross"))
    assert pos(res.state)["c"] == "E1"


def test_m10_class_defaults():
    """seed l.234 "移动阶段根据不同职业,移动的效果距离和方式是不同的" and l.233 "职业并不影响战斗结算" (ruling M10):
    without hp or move in the scenario, every class has 4 HP; RIDER and ASSASSIN move 4, the rest 3."""
    classes = ["SABER", "ARCHER", "LANCER", "RIDER", "CASTER", "ASSASSIN", "BERSERKER"]
    chars = [C(f"x{i}", cls, "red" if i % 2 else "blue", f"{'ABCDEFG'[i]}1") for i, cls in enumerate(classes)]
    s = setup(["......."], chars)
    got = {c["class"]: (c["hp"], c["max_hp"], c["move"]) for c in s["characters"]}
    assert got == {"SABER": (4, 4, 3), "ARCHER": (4, 4, 3), "LANCER": (4, 4, 3), "RIDER": (4, 4, 4),
                   "CASTER": (4, 4, 3), "ASSASSIN": (4, 4, 4), "BERSERKER": (4, 4, 3)}
    assert load("classes")["CASTER"]["move"] < 5  # the sample's 4-cell teleport is worth it (l.154)


# ------------------------------------------------------------------------------------ tunnels
TUNNEL_MAP = ["..~~.^", "..~~..", "..~~.."]
TUNNEL = [{"mouths": ["A3", "F3"], "length": 3}]


def test_m16_walking_through_the_tunnel():
    """seed l.12 "海底隧道为双通道，双口均为双向出入口" (ruling M16): from a mouth, a tunnel of length 3 is 3
    steps inside (cells named below the map) and a 4th out of the other mouth."""
    s = setup(TUNNEL_MAP, [C("r", "RIDER", "red", "A3"), C("b", "SABER", "blue", "A1")], tunnels=TUNNEL)
    res = turn(s, sheet(s, "r", to="F3"))
    assert path_of(res, "r") == ["A3", "A4", "B4", "C4", "F3"]
    assert inside(s, 0, 0) == "A4"


def test_m16_a_move_may_end_inside_and_go_on_next_turn():
    """seed l.12 "海底隧道为双通道" (ruling M16): a SABER (move 3) ends its first turn inside, named as the
    state names it, and comes out the next."""
    s = setup(TUNNEL_MAP, [C("r", "SABER", "red", "F3"), C("b", "SABER", "blue", "A1")], tunnels=TUNNEL)
    assert "takes 4 steps" in refusal(s, "r", to="A3")
    res = turn(s, sheet(s, "r", to="B4"))
    assert pos(res.state)["r"] == "B4"
    res2 = turn(res.state, sheet(res.state, "r", to="B3"))
    assert path_of(res2, "r") == ["B4", "A4", "A3", "B3"]


def test_m16_no_jump_needed_or_made_in_the_tunnel():
    """seed l.12 "同时也不能使用跳跃技能" (ruling M16): steps into, through and out of a tunnel are level: a
    SABER leaves by a mouth on high ground without climbing, and a LANCER's jump costs nothing there."""
    s = setup(TUNNEL_MAP, [C("s", "SABER", "red", "A3"), C("l", "LANCER", "red", "B3"),
                           C("b", "SABER", "blue", "A1")], tunnels=[{"mouths": ["A3", "F1"], "length": 3}])
    place(s, s="C4", l="B4")
    res = turn(s, sheet(s, "s", to="F1"), sheet(s, "l", to="F1", special="jump"))
    assert path_of(res, "s") == ["C4", "F1"]
    assert path_of(res, "l") == ["B4", "C4", "F1"]


def test_m16_enemies_meet_inside_the_tunnel_unseen():
    """seed l.12 "隧道内玩家只能看见自己，丧失视野" (ruling M16): enemies entering from both mouths meet inside
    and fight there; only they are told."""
    s = setup(TUNNEL_MAP, [C("r", "SABER", "red", "A3"), C("b", "SABER", "blue", "F3"),
                           C("w", "SABER", "red", "B2")], tunnels=TUNNEL)
    res = turn(s, sheet(s, "r", to="C4"), sheet(s, "b", to="A4"))
    assert pos(res.state)["r"] == pos(res.state)["b"] == "B4"
    fight = events(res, "fight")
    assert [e["cell"] for e in fight] == ["B4"] and fight[0]["to"] == ["b", "r"]
    assert all("w" not in e["to"] for e in res.events if e["to"] != "all" and e.get("character") in ("r", "b"))


def test_m16_a_caster_may_teleport_from_inside_the_tunnel():
    """seed l.12 "但是速度加成、斜向移动和瞬移功能可以使用" (ruling M16): inside the tunnel a CASTER may
    teleport; the distance runs through the nearer mouth."""
    s = setup(TUNNEL_MAP, [C("c", "CASTER", "red", "A2"), C("b", "SABER", "blue", "E3")],
              [S(1, "B1", "hand", "red"), S(2, "F2", "hand", "red")], tunnels=[{"mouths": ["A3", "F3"], "length": 5}])
    place(s, c="A4")
    assert "beyond the teleport range" in refusal(s, "c", to="F2", special="teleport")  # 1 + 6, or 5 + 1
    res = turn(s, sheet(s, "c", to="B1", special="teleport"))  # 1 + 3
    assert pos(res.state)["c"] == "B1"


# ------------------------------------------------------------------------------------ R4
CASTLE = ["......", "......", "......"]


def test_r4_caster_teleports_to_an_own_stronghold_5_cells_away():
    """seed l.153 "魔术师“CASTER”可进行瞬间转移，目的地只能是自己方的据点，距离最长为5格": 5 cells away is allowed."""
    s = setup(CASTLE, [C("c", "CASTER", "red", "A1"), C("b", "SABER", "blue", "A3")],
              [S(1, "F1", "hand", "red")])
    res = turn(s, sheet(s, "c", to="F1", special="teleport"))
    assert pos(res.state)["c"] == "F1"
    assert [(e["start"], e["end"]) for e in events(res, "teleport")] == [("A1", "F1")]


def test_r4_teleport_too_far():
    """seed l.153 "距离最长为5格": 6 cells is refused."""
    s = setup(["......."], [C("c", "CASTER", "red", "A1"), C("b", "SABER", "blue", "C1")], [S(1, "G1", "hand", "red")])
    assert "beyond the teleport range of 5" in refusal(s, "c", to="G1", special="teleport")


def test_m15_teleport_distance_is_counted_in_orthogonal_steps():
    """seed l.153 "距离最长为5格" (ruling M15): the distance is counted as steps (3 across + 3 down = 6),
    not diagonally."""
    s = setup(["....", "....", "....", "...."], [C("c", "CASTER", "red", "A1"), C("b", "SABER", "blue", "A4")],
              [S(1, "D4", "hand", "red")])
    assert "beyond the teleport range" in refusal(s, "c", to="D4", special="teleport")


def test_r4_teleport_only_to_an_own_stronghold():
    """seed l.153 "目的地只能是自己方的据点": neutral and enemy strongholds and plain cells are refused."""
    s = setup(CASTLE, [C("c", "CASTER", "red", "A1"), C("b", "SABER", "blue", "F3")],
              [S(1, "C1", "hand"), S(2, "D1", "hand", "blue")])
    assert "not an own stronghold" in refusal(s, "c", to="C1", special="teleport")
    assert "not an own stronghold" in refusal(s, "c", to="D1", special="teleport")
    assert "is not another stronghold" in refusal(s, "c", to="B1", special="teleport")


def test_r4_teleport_meets_no_one_on_the_way():
    """seed l.153 "中间有敌人也不会遭遇战斗": an enemy between start and destination is not met."""
    s = setup(CASTLE, [C("c", "CASTER", "red", "A2"), C("b", "SABER", "blue", "C2")], [S(1, "E2", "hand", "red")])
    res = turn(s, sheet(s, "c", to="E2", special="teleport"))
    assert pos(res.state) == {"c": "E2", "b": "C2"}
    assert events(res, "fight") == []


def test_m15_teleporting_onto_an_enemy_is_a_fight():
    """seed l.153 "中间有敌人也不会遭遇战斗" (ruling M15): only the way is safe: an enemy standing in the
    destination is met there."""
    s = setup(CASTLE, [C("c", "CASTER", "red", "A2"), C("b", "SABER", "blue", "E2")], [S(1, "E2", "hand", "red")])
    res = turn(s, sheet(s, "c", to="E2", special="teleport"))
    assert pos(res.state)["c"] == "E2" and [e["cell"] for e in events(res, "fight")] == ["E2"]


def test_r4_only_a_caster_teleports_off_a_teleport_stronghold():
    """seed l.153 "魔术师“CASTER”可进行瞬间转移": a SABER away from a teleport stronghold cannot."""
    s = setup(CASTLE, [C("s", "SABER", "red", "A1"), C("b", "SABER", "blue", "F3")], [S(1, "C1", "hand", "red")])
    assert "cannot teleport" in refusal(s, "s", to="C1", special="teleport")


def test_m15_a_full_destination_refuses_the_teleport():
    """seed l.3 "每方最多两名" (ruling M15): capacity holds at a teleport's destination."""
    s = setup(CASTLE, [C("c", "CASTER", "red", "A1"), C("r1", "SABER", "red", "C1"), C("r2", "SABER", "red", "C1"),
                       C("b", "SABER", "blue", "F3")], [S(1, "C1", "hand", "red")])
    res = turn(s, sheet(s, "c", to="C1", special="teleport"))
    assert pos(res.state)["c"] == "A1" and events(res, "blocked", character="c")[0]["reason"] == "capacity"


# ------------------------------------------------------------------------ R6 teleport strongholds
GATES = ["........", "........"]


def test_r6_teleport_stronghold_to_any_own_stronghold():
    """seed l.46 "8.5功能类型5：占据此据点可瞬间移动至另一个己方据点": any class, any distance."""
    s = setup(GATES, [C("s", "SABER", "red", "A1"), C("b", "SABER", "blue", "D2")],
                      [S(1, "A1", "teleport", "red"), S(2, "H2", "heal", "red")])
    res = turn(s, sheet(s, "s", to="H2", special="teleport"))
    assert pos(res.state)["s"] == "H2"


def test_r6_teleport_stronghold_to_an_enemy_teleport_point():
    """seed l.46 "也可以传送到敌方的传送点": an enemy teleport stronghold is a destination, an enemy heal
    stronghold is not."""
    s = setup(GATES, [C("s", "SABER", "red", "A1"), C("b", "SABER", "blue", "D2")],
              [S(1, "A1", "teleport", "red"), S(2, "H2", "teleport", "blue"), S(3, "H1", "heal", "blue")])
    assert "neither an own stronghold nor an enemy teleport point" in refusal(s, "s", to="H1", special="teleport")
    res = turn(s, sheet(s, "s", to="H2", special="teleport"))
    assert pos(res.state)["s"] == "H2"


def test_r6_the_bridge_teleports_too():
    """seed l.47 "8.6据点9新都大桥：...并可以使用瞬移功能": standing on an own 新都大桥 works as a teleport
    stronghold."""
    s = setup(GATES, [C("s", "SABER", "red", "D1"), C("b", "SABER", "blue", "A2")],
              [S(9, "D1", "bridge", "red"), S(2, "H2", "hand", "red")])
    res = turn(s, sheet(s, "s", to="H2", special="teleport"))
    assert pos(res.state)["s"] == "H2"


def test_m15_a_destroyed_stronghold_neither_sends_nor_receives():
    """seed l.15 "被破坏的据点虽然丧失了据点的功能且不能传送": no teleport from or to a destroyed stronghold."""
    s = setup(GATES, [C("s", "SABER", "red", "A1"), C("c", "CASTER", "red", "A2"), C("b", "SABER", "blue", "D2")],
              [S(1, "A1", "teleport", "red"), S(2, "C2", "hand", "red"), S(3, "H2", "hand", "red")])
    for sh in s["strongholds"]:
        sh["destroyed"] = sh["id"] in (1, 2)
    assert "cannot teleport" in refusal(s, "s", to="H2", special="teleport")
    assert "destroyed or closed" in refusal(s, "c", to="C2", special="teleport")


# ------------------------------------------------------------------------------------ bad input
def test_bad_moves_are_refused_with_the_reason():
    """seed l.118 "8.本回合移动，是否发动介职特效移动的具体地点，地图坐标": every illegal move is refused by the
    check with its reason: off the map, an unknown special, a special the class lacks."""
    s = setup(FLAT, [C("s", "SABER", "red", "A1"), C("b", "SABER", "blue", "F3")])
    assert "move.to" in refusal(s, "s", to="Z9") and "A-F" in refusal(s, "s", to="Z9")
    assert "move.special" in refusal(s, "s", to="B1", special="fly")
    assert "cannot destroy" in refusal(s, "s", to="B1", special="destroy")
    assert "cannot cross" in refusal(s, "s", to="B1", special="cross")


def test_closed_cells_cannot_be_entered():
    """seed l.228 "流局当出现存活人数无法满足胜利条件的时候,GM有权对地图和据点进行限制" (ruling M20): a cell the GM
    closed is refused as a destination and avoided as a waypoint of a path."""
    s = setup(FLAT, [C("s", "SABER", "red", "A2"), C("b", "SABER", "blue", "F3")])
    s["closed_cells"] = ["B2", "C2"]
    assert "closed by the GM" in refusal(s, "s", to="C2")
    res = turn(s, sheet(s, "s", to="A1"))
    assert pos(res.state)["s"] == "A1"
    assert "takes 5 steps" in refusal(s, "s", to="D2")  # around the closed cells: A1 B1 C1 D1 D2

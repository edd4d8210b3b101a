"""Rule cases on the seed's arithmetic: pips, rounding in halves, damage changes, 行动力 cuts,
range squares, sectors (DATC style: one case per test, the seed line quoted)."""

from __future__ import annotations

from gm_tool.rulesets.hunlu import rules as R


def test_percentages_map_to_pips():
    """seed l.41: "15%，35%，50%，65%，85%，100%分别对应点数1-6" """
    assert [R.pips(p) for p in (15, 35, 50, 65, 85, 100)] == [1, 2, 3, 4, 5, 6]


def test_hit_50_is_faces_1_to_3():
    """seed l.43: "如A魂将的命中概率为50%，则当普攻所判定点数为1-3时，该次攻击触发命中效果" """
    assert [f for f in range(1, 7) if R.low_faces(R.pips(50), f)] == [1, 2, 3]


def test_hit_85_is_faces_1_to_5():
    """seed l.43: "命中概率为85%，命中点数即为1-5." """
    assert [f for f in range(1, 7) if R.low_faces(R.pips(85), f)] == [1, 2, 3, 4, 5]


def test_weakness_50_is_faces_6_to_4():
    """seed l.44: "但弱点概率若为50，则弱点点数为6-4." """
    assert [f for f in range(1, 7) if R.high_faces(R.pips(50), f)] == [4, 5, 6]


def test_weakness_counts_from_six():
    """seed l.41: "弱点点数从6-1开始计算" """
    assert [f for f in range(1, 7) if R.high_faces(R.pips(15), f)] == [6]


def test_no_weakness_never_triggers():
    """seed l.41: "弱点点数从6-1开始计算" (0 % is no pip: face 7 never comes)"""
    assert not any(R.high_faces(0, f) for f in range(1, 7))


def test_35_plus_35_is_65():
    """seed l.45: "35%所代表的骰子数为2，2+2=4，转化为概率值为65%。" """
    assert R.PIPS_PCT[R.clamp_pips(R.pips(35) + R.pips(35))] == 65


def test_pips_capped_at_six():
    """seed l.41: "100%分别对应点数...6" (no more than six faces)"""
    assert R.clamp_pips(R.pips(85) + R.pips(50)) == 6


def test_round_up_halves():
    """seed l.117: "向上取整：当数值为3.1-3.4时，转化为3.5；当数值为3.6-3.9时，转化为4" """
    assert (R.ceil_half(3.2), R.ceil_half(3.7), R.ceil_half(3.5)) == (3.5, 4, 3.5)


def test_round_down_halves():
    """seed l.118: "向下取整：当数值为3.1-3.4时，转化为3；当数值为3.6-3.9时，转化为3.5" """
    assert (R.floor_half(3.2), R.floor_half(3.7), R.floor_half(3.5)) == (3, 3.5, 3.5)


def test_damage_plus_50_on_1():
    """seed l.142: "A获得伤害提升50%的效果时，普攻伤害若为1点，则最终伤害为1*1.5=1.5点。" """
    assert R.change_damage(1, 50, 0) == 1.5


def test_damage_plus_50_on_1_5():
    """seed l.143: "若普攻伤害为1.5点，最终伤害为1*1.5+0.5=2点。" """
    assert R.change_damage(1.5, 50, 0) == 2


def test_half_point_damage_unchanged():
    """seed l.144: "而当单次伤害为0.5点时，不受任何伤害改变效果。" """
    assert R.change_damage(0.5, 100, 0) == 0.5 and R.change_damage(0.5, 0, 50) == 0.5


def test_move_pct_then_flat():
    """seed l.137-138: "A身上存在“降低50%行动力”与“降低1点行动力”与“降低2点行动力”的效果，而他总共有4点行动力...4*0.5-2=0点。" """
    assert R.effective_move(4, [-1, -2], [50], []) == 0


def test_move_not_flat_then_pct():
    """seed l.139: "如果这个顺序颠倒，A的最终行动力为（4-2）*0.5=1点。" (the wrong order is not used)"""
    assert R.effective_move(4, [-2], [50], []) != 1


def test_move_strongest_pct_only():
    """seed l.135: "如受到降低40%行动力和降低50%行动力的效果，只降低50%行动力。" """
    assert R.effective_move(4, [], [40, 50], []) == 2


def test_move_cap_after_cuts():
    """seed l.134: "三为特定条件（如行动力至多为2）" (caps after the cuts, contract H23)"""
    assert R.effective_move(5, [1], [], [2]) == 2


def test_move_floor_zero():
    """seed l.137-138: "4*0.5-2=0点" (never below 0)"""
    assert R.effective_move(2, [-3], [], []) == 0


def test_range_square_of_side_seven():
    """seed l.27: "A魂将的射程为3...现在A魂将处在一个长7格，宽7格的正方形之中" """
    inside = [(x, y) for x in range(-5, 6) for y in range(-5, 6) if R.in_square((0, 0), (x, y), 3)]
    assert len(inside) == 49 and R.in_square((0, 0), (3, 3), 3) and not R.in_square((0, 0), (4, 0), 3)


def test_front_is_left_of_target_in_sector_3():
    """seed l.105: "A在B的上东南方向，此时B若突进至A的面前，将来到A的左边一格。" """
    b, a = (0, 0), (3, 1)  # A east and a little south of B: sector 3
    assert R.sector(b, a) == 3
    assert R.front_back(b, a)[0] == (2, 1)


def test_back_is_right_of_target_in_sector_3():
    """seed l.106: "若为突进至A的身后，将来到A的右边一格。" """
    assert R.front_back((0, 0), (3, 1))[1] == (4, 1)


def test_sector_1_is_north_north_east():
    """seed l.95: "设星星所在的区域为1区——北偏东30°" """
    assert R.sector((5, 5), (6, 3)) == 1  # 北偏东约27°


def test_sectors_clockwise():
    """seed l.95-99: "以顺时针为方向开始分别将八个区域设为1-8区" """
    c = (5, 5)
    pts = [(6, 2), (8, 4), (8, 6), (6, 8), (4, 8), (2, 6), (2, 4), (4, 2)]
    assert [R.sector(c, p) for p in pts] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_diagonal_knockback_is_vertical():
    """seed l.101: "当目标处于对角线的时候，方向为上/下。" """
    assert R.push_direction((0, 0), (2, 2)) == (0, 1) and R.push_direction((2, 2), (0, 0)) == (0, -1)


def test_knockback_away_horizontally():
    """seed l.94: "击退：将目标向一个方向移动一定格数" (sector 3 pushes east, away from the source)"""
    assert R.push_direction((0, 0), (3, 1)) == (1, 0)


def test_segment_points_strictly_inside():
    """seed l.15: "地图上的障碍无法被飞行物穿过。" (the points a flying object crosses)"""
    assert R.between((0, 0), (4, 2)) == [(2, 1)] and R.between((0, 0), (3, 2)) == []


def test_resist_halves():
    """seed l.40: "若为元抗点数则受到伤害降低50%" """
    assert R.resist_halve(2) == 1 and R.resist_halve(1) == 0.5


def test_resist_on_half_point_is_zero():
    """seed l.40: "若原始（未被衰减前）伤害不高于0.5点则伤害无效" """
    assert R.resist_halve(0.5) == 0

"""Rulings C3, C8, C16 and M16 re-examined against the seed's text (issue 14), DATC style: one
case per point, each quoting the seed line it reads. C3, C16 and M16 are kept, C8 changed (see
docs/rulings/grail_war.md)."""

from __future__ import annotations

import json
import random

from gm_tool.rulesets.grail_war import cards as catalog
from gm_tool.rulesets.grail_war.combat import Fight

from .combat_kit import ROSTER, A, B, F, build, fight
from .map_kit import C, S, path_of, place, pos, refusal, setup, sheet, turn

# C3 ------------------------------------------------------------------------------------------------


def test_c3_gained_armour_is_worn_at_once_and_the_old_one_goes_under_the_pile():
    """seed l.186 "【赤主槛发】…你选择并获得该角色的手牌或装备区的一张牌", l.269 "获得的牌加入你的手牌里" and
    l.239 "当你使用一张装备牌时…只要将它放到你的装备区里…在使用后不会进入弃牌堆": the armour taken is used at
    once: worn, not left in the hand; the armour it replaces goes under the equipment pile."""
    r = fight(A("gawain", "赤主槛发", armor="天之服", sheet={"magic": {"zone_priority": ["armor"]}}),
              B("mordred", "闪", armor="六道境界"))
    assert r["gawain"].equipment["armor"].name == "六道境界" and r["mordred"].equipment["armor"] is None
    assert r.hand("gawain") == [] and r.hand("mordred") == ["闪"]
    assert r.game.equipment_pile[0].name == "天之服"
    assert all(not catalog.is_equipment(c.name) for c in r.game.deck.discard_pile)


def test_c3_a_weapon_taken_by_dead_apostle_is_worn():
    """seed l.190 "【不死徒手】…A需对角色B使用一张【杀】，否则你获得A装备区里的武器" with l.269 and l.239: the
    weapon gained is worn at once (no weapon before: nothing goes back to the pile)."""
    r = fight(A("gawain", "不死徒手"), B("mordred", weapon="七夜"), B("medea"))
    assert r["gawain"].equipment["weapon"].name == "七夜" and r.hand("gawain") == []
    assert "七夜" not in [c.name for c in r.game.equipment_pile]


def test_c3_no_equipment_ever_reaches_a_hand_or_the_deck():
    """seed l.203 "装备牌注：装备只能通过据点获得。" and l.239 "装备牌只能在据点获得": over 40 random fights
    of several turns full of 赤主槛发, 不死徒手, 扭曲螺旋 and equipped fighters (hand limits applied
    each turn, as a turn does), equipment changes hands, yet no equipment card is ever in a hand,
    the draw pile or the discard pile, where a draw could bring it into play."""
    from .test_conformance import random_turns

    taken = 0
    for seed in range(40):
        rng = random.Random(seed)
        ids = rng.sample(sorted(ROSTER), 4)
        weapons = [n for n in catalog.all_names() if catalog.slot_of(n) == "weapon"]
        armors = [n for n in catalog.all_names() if catalog.slot_of(n) == "armor"]
        rng.shuffle(weapons)
        rng.shuffle(armors)
        fs = [F(cid, "red" if i % 2 == 0 else "blue",
                [rng.choice(["赤主槛发", "不死徒手", "扭曲螺旋", "杀", "闪", "宝石"]) for _ in range(6)],
                weapon=weapons.pop(), armor=armors.pop(), skills=None) for i, cid in enumerate(ids)]
        game, _ = build(*fs, draw=2, filler=40)
        def magic_on(sheet: dict) -> None:
            sheet["magic"] = {**(sheet.get("magic") or {}), "use": True}

        for t, (alive, parsed, log, chance) in enumerate(random_turns(game, rng, 4, str(seed), "t", magic_on)):
            Fight(game, (0, 0), alive, parsed, log, chance).run()
            taken += sum(1 for e in log.events if e["type"] == "take_card")
            loose = game.deck.draw_pile + game.deck.discard_pile + [x for c in game.characters for x in c.hand]
            assert not [x.name for x in loose if catalog.is_equipment(x.name)], (seed, t)
    assert taken >= 10  # equipment really was gained


# C8 ------------------------------------------------------------------------------------------------


def test_c8_anniversary_is_played_when_only_an_enemy_is_wounded():
    """seed l.107 "玩家不一定会一定有魔术牌，但是选项选择后一旦抽到魔术牌后将会根据选项使用" and l.191-192
    "【阿宁艾鲁贝的一日】目标，所有角色 效果，目标角色回复1点体力": with magic cards on, the card is used
    though only the enemy is wounded: the enemy heals."""
    r = fight(A("gawain", "阿宁艾鲁贝的一日"), B("mordred", hp=2))
    assert r.hand("gawain") == [] and r.hp("mordred") == 3 and r.hp("gawain") == 4
    assert [e["name"] for e in r.of("magic", character="gawain")] == ["阿宁艾鲁贝的一日"]


def test_c8_anniversary_not_played_with_magic_off():
    """seed l.139-140 "6.是否使用魔术牌 不使用魔术牌。": the player who will not heal enemies turns
    magic cards off; the card stays in hand and the wounded enemy is not healed."""
    r = fight(A("gawain", "阿宁艾鲁贝的一日", sheet={"magic": {"use": False}}), B("mordred", hp=2))
    assert r.hand("gawain") == ["阿宁艾鲁贝的一日"] and r.hp("mordred") == 2


HELPFUL = {"magic_play": "helpful"}


def test_c8_house_rule_keeps_the_anniversary_that_would_heal_only_the_enemy():
    """seed l.107 read as groups who play a card only when it helps read it (issue 23), the
    scenario's ``rules: {magic_play: helpful}``: 阿宁 (l.191 "目标，所有角色") is kept while it would
    heal as many enemies as allies, and played once it heals more of its owner's side."""
    kept = fight(A("gawain", "阿宁艾鲁贝的一日"), B("mordred", hp=2), rules=HELPFUL)
    assert kept.hand("gawain") == ["阿宁艾鲁贝的一日"] and kept.hp("mordred") == 2
    even = fight(A("gawain", "阿宁艾鲁贝的一日", hp=3), B("mordred", hp=2), rules=HELPFUL)
    assert even.hand("gawain") == ["阿宁艾鲁贝的一日"]
    played = fight(A("gawain", "阿宁艾鲁贝的一日", hp=3), A("emiya", hp=2), B("mordred", hp=2), rules=HELPFUL)
    assert played.hand("gawain") == [] and (played.hp("gawain"), played.hp("emiya"), played.hp("mordred")) == (4, 3, 3)


def test_c8_house_rule_keeps_the_petrifying_eye_from_an_enemy_who_holds_nothing():
    """seed l.199-200 【石化魔眼】 "若不为红桃，直至回合结束，不能使用【杀】" under ``magic_play: helpful``: an
    enemy who holds no card that could be a 杀 is not worth the card; as written (the default) it
    is spent on him all the same."""
    literal = fight(A("gawain", "石化魔眼"), B("mordred", hp=1), deck=["闪 ♠2"])
    assert literal.hand("gawain") == [] and literal.of("petrified", character="mordred")
    kept = fight(A("gawain", "石化魔眼"), B("mordred", hp=1), deck=["闪 ♠2"], rules=HELPFUL)
    assert kept.hand("gawain") == ["石化魔眼"] and kept.of("judge") == []
    armed = fight(A("gawain", "石化魔眼"), B("mordred", "杀", hp=1), deck=["闪 ♠2"], rules=HELPFUL)
    assert armed.hand("gawain") == [] and armed.of("petrified", character="mordred")


def test_c8_the_house_rule_is_a_scenario_switch_with_the_seeds_reading_as_default(tmp_path, gm):
    """The switch is the scenario's ``rules.magic_play`` (``always``, the seed's reading, by default;
    ``helpful``); anything else is refused naming the field and what is allowed."""
    import yaml

    from tests.conftest import write
    from tests.regen_golden import SCENARIO

    d = tmp_path / "c"
    gm("new", d, "--scenario", write(tmp_path / "s.yaml", yaml.safe_dump(SCENARIO, allow_unicode=True)))
    assert json.loads((d / "state" / "turn-000.json").read_text("utf-8"))["rules"]["magic_play"] == "always"
    bad = dict(SCENARIO, rules={"magic_play": "sometimes"})
    r = gm("new", tmp_path / "x", "--scenario", write(tmp_path / "b.yaml", yaml.safe_dump(bad, allow_unicode=True)),
           "--lang", "en", code=1)
    assert "rules.magic_play: value 'sometimes' is not allowed; allowed: always, helpful" in r.output


# C16 -----------------------------------------------------------------------------------------------


def test_c16_an_enemy_anniversary_heals_and_the_next_enemy_card_is_cancelled():
    """seed l.87 "万法破尽只能针对对方对你的第一张魔术牌，不可选择。默认设定不能万法尽破自己的阿宁艾鲁贝的一日":
    an enemy's 阿宁, played before any other enemy card, heals the holder of 万法破尽 and is not "the
    first": the 万法破尽 stays for the 决斗 that follows and cancels it."""
    r = fight(A("gawain", "阿宁艾鲁贝的一日", hp=3), A("emiya", "决斗"),
              B("mordred", "万法破尽", hp=3), order=["gawain", "mordred", "emiya"])
    assert [e["name"] for e in r.of("magic")] == ["阿宁艾鲁贝的一日", "决斗"]
    assert r.hp("mordred") == 4 and r.hand("mordred") == []
    assert [e["against"] for e in r.of("nullify", character="mordred")] == ["决斗"]


# M16 -----------------------------------------------------------------------------------------------
TUNNEL_MAP = ["..~~.^", "..~~..", "..~~.."]
TUNNEL = [{"mouths": ["A3", "F3"], "length": 3}]


def test_m16_the_speed_bonus_works_in_the_tunnel():
    """seed l.12 "但是速度加成、斜向移动和瞬移功能可以使用": the RIDER's speed bonus (move 4, ruling M10)
    works inside: from the mouth A3 it goes through the 3 cells and out at F3 in one turn, while a
    SABER (move 3) on the same way stops in the last cell inside."""
    s = setup(TUNNEL_MAP, [C("r", "RIDER", "red", "A3"), C("w", "SABER", "red", "A2"),
                           C("b", "SABER", "blue", "A1")], tunnels=TUNNEL)
    s = place(s, w="A3")
    res = turn(s, sheet(s, "r", to="F3"), sheet(s, "w", to="C4"))
    assert path_of(res, "r") == ["A3", "A4", "B4", "C4", "F3"] and pos(res.state)["r"] == "F3"
    assert path_of(res, "w") == ["A3", "A4", "B4", "C4"]
    assert "takes 4 steps" in refusal(s, "w", to="F3")


def test_m16_no_diagonal_step_into_or_out_of_the_tunnel():
    """seed l.12 "斜向移动…可以使用" grants no diagonal move (ruling M16, contract R3 "along orthogonal
    steps"): a character with 1 move inside the first tunnel cell reaches the mouth or the next cell
    inside, not B3 beside the mouth; outside, 1 move does not reach a diagonal neighbour."""
    s = setup(TUNNEL_MAP, [C("r", "SABER", "red", "A2", move=1), C("b", "SABER", "blue", "F1")],
              tunnels=TUNNEL)
    s = place(s, r="A4")
    assert "takes 2 steps" in refusal(s, "r", to="B3")
    assert pos(turn(s, sheet(s, "r", to="A3")).state)["r"] == "A3"
    assert pos(turn(s, sheet(s, "r", to="B4")).state)["r"] == "B4"
    s2 = setup(TUNNEL_MAP, [C("r", "SABER", "red", "A2", move=1), C("b", "SABER", "blue", "F1")], tunnels=TUNNEL)
    assert "takes 2 steps" in refusal(s2, "r", to="B1")


def test_m16_a_caster_teleports_to_a_stronghold_from_inside():
    """seed l.12 "…瞬移功能可以使用" with l.153 "距离最长为5格": from the second cell inside (2 steps to the
    mouth A3), a CASTER teleports to its stronghold B1 (2 + 3 = 5 steps away)."""
    s = setup(TUNNEL_MAP, [C("c", "CASTER", "red", "A2"), C("b", "SABER", "blue", "F2")],
              [S(1, "B1", "hand", "red")], tunnels=TUNNEL)
    s = place(s, c="B4")
    res = turn(s, sheet(s, "c", to="B1", special="teleport"))
    assert pos(res.state)["c"] == "B1"

"""Black-box audit of the hunlu ruleset against its contract (spec/hunlu.md, seed 000).

Only the CLI and the JSON files it writes are used. Each docstring quotes the contract line it
checks (``spec §N``) and, where it matters, the seed line (``seed l.N``) or the ruling
(``docs/rulings/hunlu.md`` Rn) for a point the contract leaves open."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.contract.conftest import alice_sheet, amend, check, events, new, play, sheet, show, state_file, status


def scenario(name: str, alice: list[str], bob: list[str], *, field: int = 1, obstacles: str = "[{pos: A1, grade: 3}]",
             dice: str = "[]") -> str:
    """A 7x7 scenario: alice (red) and bob (blue) with these team entries (`id: {...}`)."""
    team = {who: "".join(f"      {entry}\n" for entry in entries) for who, entries in (("alice", alice), ("bob", bob))}
    return (f"ruleset: hunlu\nname: {name}\nmap: {{width: 7, height: 7, obstacles: {obstacles}, spawns: [A7, G1]}}\n"
            f"rules: {{field: {field}, reserves: 1, unique: false, default_range: 2}}\nplayers:\n"
            f"  alice:\n    side: red\n    team:\n{team['alice']}  bob:\n    side: blue\n    team:\n{team['bob']}"
            f"dice: {dice}\n")


# A small field: one main and one reserve a side, a grade II rock between the mains' column,
# a 天堑 in a corner. Initiative: both have 行动力 3, so the tie is rolled off from the forced
# queue (dm 6, b1 1: dm first), which keeps [2] for the first judged strike.
DUEL = scenario(
    "audit",
    ["dm: {general: duanmo_zhijian, role: main, pos: D6, qi: 3}",
     "pzz: {general: pozhenzi, role: reserve}"],
    ["b1: {general: tianjie_zhizi, role: main, pos: D3}",
     "b2: {general: pozhenzi, role: reserve}"],
    obstacles="[{pos: D5, grade: 2}, {pos: A1, grade: 3}]", dice="[6, 1, 2]")

# The contract's example scenario (spec §5) verbatim, plus the second side the contract demands
# ("exactly two sides") but its excerpt leaves out.
EXAMPLE_SCENARIO = """\
ruleset: hunlu
name: hunzhan                # the bundled default scenario
map:                         # a bundled map name, or inline:
  width: 13                  # columns A.. (≤ 26); rows 1..height, row 1 = north edge
  height: 13
  obstacles: [{pos: D6, grade: 2}, {pos: [E9, F9], grade: 3}]   # grades 2-4 (units are I)
  spawns: [C3, G3, K3, C7, G7, K7, C11, G11, K11]
rules: {field: 3, reserves: 2, unique: false, default_range: 2}
players:                     # in order; exactly two sides
  alice:
    side: red
    team:                    # unit id -> entry, in order
      dm: {general: duanmo_zhijian, role: main, pos: C3}
      tw: {general: tianwei_jianjun, role: main, spawn: [G3, C7]}
      pzz: {general: pozhenzi, role: reserve}
  bob:
    side: blue
    team:
      b1: {general: tianjie_zhizi, role: main, pos: C11}
generals: {}                 # catalogue entries (over the bundled ones)
skills: {}                   # shared skills by id
dice: [3, 5, 6]              # forced queue (section 4)
"""


def unit(state: dict, uid: str) -> dict:
    return next(u for u in state["units"] if u["id"] == uid)




@pytest.fixture
def duel(gm, tmp_path):
    return new(gm, tmp_path, DUEL)


# --- bundled scenario, example scenario ---------------------------------------------------


def test_bundled_default_scenario_hunzhan(gm, tmp_path):
    """spec §5: "name: hunzhan  # the bundled default scenario"; "**魂战之地** (`hunzhan`) ...
    13×13 points, grade II obstacles D6 J6 D8 J8 G4 G10"; rules field 3, reserves 2."""
    s = show(gm, new(gm, tmp_path, "hunzhan"))
    assert s["ruleset"] == "hunlu" and s["round"] == 1 and s["turn"] == 0
    assert sorted((o["pos"], o["grade"]) for o in s["obstacles"]) == sorted(
        (p, 2) for p in ("D6", "J6", "D8", "J8", "G4", "G10"))
    for player in ("alice", "bob"):
        roles = [u["role"] for u in s["units"] if u["player"] == player]
        assert roles.count("main") == 3 and roles.count("reserve") == 2
    cols = {u["pos"][0] for u in s["units"] if u["pos"]}
    rows = {int(u["pos"][1:]) for u in s["units"] if u["pos"]}
    assert cols <= set("ABCDEFGHIJKLM") and rows <= set(range(1, 14))


def test_example_scenario_setup(gm, tmp_path):
    """spec §5 example: `pos` puts a main on any free point; "a main without it takes, in
    initiative order, its first free `spawn`"; obstacles `{pos: [E9, F9], grade: 3}` are two
    points; spec §4 / R23: the forced queue is used "setup included": the three tied generals
    (行动力 3) roll 3, 5, 6 in scenario order, "higher first" (H11, seed l.54-55)."""
    s = show(gm, new(gm, tmp_path, EXAMPLE_SCENARIO))
    assert unit(s, "dm")["pos"] == "C3" and unit(s, "tw")["pos"] == "G3" and unit(s, "b1")["pos"] == "C11"
    assert unit(s, "pzz")["pos"] is None and unit(s, "pzz")["role"] == "reserve"
    assert sorted((o["pos"], o["grade"]) for o in s["obstacles"]) == [("D6", 2), ("E9", 3), ("F9", 3)]
    assert s["order"] == ["b1", "tw", "dm"]
    assert s["dice"] == [] and s["next"] == {"unit": "b1", "player": "bob"}


def test_catalogue_sample_duanmo_zhijian(gm, duel):
    """spec §5: "duanmo_zhijian: {name: 断魔之剑, tier: C, no: 1, element: null, jing: 7, qi: 7,
    qi_regen: 1.5, shen: 8, move: 3, range: 2" (seed l.161-166)."""
    dm = unit(show(gm, duel), "dm")
    assert (dm["name"], dm["general"], dm["element"]) == ("断魔之剑", "duanmo_zhijian", None)
    assert (dm["max_jing"], dm["max_qi"], dm["shen"], dm["range"]) == (7, 7, 8, 2)
    assert dm["move"] == 3


# --- state JSON -----------------------------------------------------------------------------

UNIT_KEYS = {"id": str, "name": str, "general": str, "player": str, "side": str, "role": str,
             "alive": bool, "jing": (int, float), "max_jing": (int, float), "qi": (int, float),
             "max_qi": (int, float), "shen": (int, float), "move": int, "ap": int, "statuses": list}


def test_state_json_paths_after_setup(gm, duel):
    """spec §6: `{"ruleset": "hunlu", "round": 2, "turn": 5, "winner": null, "order": [...],
    "next": {"unit": "tw", "player": "alice"}, "units": [...], "obstacles": [...], "dice": [5, 2],
    "standing": {"alice": {}}}`; "`turn`: resolved general-turns (0 after `gm new`)"; "`units`:
    all, in scenario order"; "`pos`: null on the bench"; "`dice`: the forced queue left (always
    present)"."""
    s = show(gm, duel)
    assert s == state_file(duel, 0)
    assert (s["ruleset"], s["round"], s["turn"], s["winner"]) == ("hunlu", 1, 0, None)
    assert s["order"] == ["dm", "b1"] and s["next"] == {"unit": "dm", "player": "alice"}
    assert [u["id"] for u in s["units"]] == ["dm", "pzz", "b1", "b2"]
    for u in s["units"]:
        for key, kind in UNIT_KEYS.items():
            assert isinstance(u[key], kind), (u["id"], key)
        assert "pos" in u and "range" in u and "element" in u
    assert unit(s, "pzz")["pos"] is None and unit(s, "dm")["pos"] == "D6"
    assert unit(s, "dm")["side"] == "red" and unit(s, "b1")["side"] == "blue"
    assert {(o["pos"], o["grade"]) for o in s["obstacles"]} == {("D5", 2), ("A1", 3)}
    assert s["dice"] == [2]
    assert set(s["standing"]) == {"alice", "bob"}


def test_round_one_regenerates_at_new(gm, duel):
    """spec §5: a team entry's "`jing qi shen` are starting values"; H16: "Round 1 (not 天启)
    starts and regenerates at `gm new`" (H2: "regains its bracket value", 1.5 for 断魔之剑):
    qi 3 -> 4.5; points 2 and 行动力 3 (H12, H16 d)."""
    dm = unit(show(gm, duel), "dm")
    assert dm["qi"] == 4.5 and dm["ap"] == 2 and dm["move"] == 3


def test_state_after_a_turn_of_two_legs(gm, duel, tmp_path):
    """H5/H12: two straight legs, "each one action point", 「每移动1格就需要消耗1点行动力」; spec §6:
    `turn` 1 after one general-turn, `next` the next general, "`move`: 行动力 left this round;
    `ap`: action points left"."""
    gm("submit", duel, sheet(tmp_path, alice_sheet("[{move: C6}, {move: C4}]")))
    gm("resolve", duel)
    s = state_file(duel, 1)
    assert s["turn"] == 1 and s["round"] == 1 and s["next"] == {"unit": "b1", "player": "bob"}
    dm = unit(s, "dm")
    assert dm["pos"] == "C4" and dm["ap"] == 0 and dm["move"] == 0


def _adjacent(gm, duel, tmp_path):
    """Bob's general stands diagonally next to alice's (in range 2, nothing between), alice due."""
    gm("amend", duel, "move", "b1", "E5", "--reason", "audit")
    return duel


def test_strike_uses_forced_queue_and_keeps_a_point(gm, duel, tmp_path):
    """H13 (seed l.63): "Normal attack: 1 point, a strike of 1"; spec §3: "Unspent points stay for
    联合攻击 until the round ends"; spec §4: "Every 判定 is one d6, taken from ... (2) the forced
    queue"; "Each roll is an event `{type: roll, value, source: file|queue|seed}`"."""
    _adjacent(gm, duel, tmp_path)
    play(gm, duel, tmp_path, alice_sheet("[{attack: b1}]"))
    s = state_file(duel, 1)
    assert unit(s, "b1")["jing"] == 6 and unit(s, "b1")["pos"] == "E5"
    assert unit(s, "dm")["ap"] == 1
    rolls = [e for e in events(duel, 1) if e["type"] == "roll"]
    assert [(r["value"], r["source"]) for r in rolls] == [(2, "queue")]
    assert s["dice"] == []


def test_forum_dice_come_first_and_extra_are_dropped(gm, duel, tmp_path):
    """spec §2: "`gm dice DIR D... [--note T]` stores forum rolls for the turn due"; spec §4:
    "(1) the turn's `orders/turn-NNN/_dice.yaml` (`dice: [3, 5]`, optional `note`)"; "Unused
    turn-file dice are dropped with a warning"; the forced queue stays untouched."""
    _adjacent(gm, duel, tmp_path)
    gm("submit", duel, sheet(tmp_path, alice_sheet("[{attack: b1}]")))
    gm("dice", duel, "4", "5", "--note", "论坛 12 楼")
    stored = yaml.safe_load((duel / "orders/turn-001/_dice.yaml").read_text("utf-8"))
    assert stored == {"dice": [4, 5], "note": "论坛 12 楼"}
    gm("resolve", duel)
    rolls = [e for e in events(duel, 1) if e["type"] == "roll"]
    assert [(r["value"], r["source"]) for r in rolls] == [(4, "file")]
    assert state_file(duel, 1)["dice"] == [2]
    assert [e["dice"] for e in events(duel, 1) if e["type"] == "dice_unused"] == [[5]]
    public = (duel / "reports/turn-001/public.md").read_text("utf-8")
    assert [line for line in public.splitlines() if "5" in line and "丢弃" in line]  # the warning
    gm("verify", duel)  # spec §4: the rolls are "replayed by `gm verify`"


def test_seed_rolls_after_queue(gm, duel, tmp_path):
    """spec §4: "then (3) the seeded generator"; the queue is "used across turns": the second
    strike (bob's) takes the queue's last die, the third (alice's, round 2) a seeded one."""
    _adjacent(gm, duel, tmp_path)
    play(gm, duel, tmp_path, alice_sheet("[{attack: b1}]"), "a1.yaml")
    play(gm, duel, tmp_path, "turn: 2\nplayer: bob\nactions: [{attack: dm}]\n", "b2.yaml")
    s = state_file(duel, 2)
    assert s["round"] == 2 and unit(s, "dm")["jing"] == 6
    due = s["next"]["player"]
    other = unit(s, s["next"]["unit"])
    target = "b1" if due == "alice" else "dm"
    play(gm, duel, tmp_path, f"turn: 3\nplayer: {due}\nactions: [{{attack: {target}}}]\n", "c3.yaml")
    rolls = [e for e in events(duel, 3) if e["type"] == "roll"]
    assert other["player"] == due and [r["source"] for r in rolls] == ["seed"]
    assert 1 <= rolls[0]["value"] <= 6


def test_bad_forum_dice_exit_1(gm, duel):
    """spec §4: "values 1-6, else exit 1"; nothing is stored."""
    for bad in ("0", "7", "x"):
        gm("dice", duel, "3", bad, code=1)
    assert not (duel / "orders/turn-001/_dice.yaml").exists()


def test_roll_shown_in_public_post(gm, duel, tmp_path):
    """spec §4: each roll is "shown in the public post"."""
    _adjacent(gm, duel, tmp_path)
    gm("dice", duel, "5")
    play(gm, duel, tmp_path, alice_sheet("[{attack: b1}]"))
    public = (duel / "reports/turn-001/public.md").read_text("utf-8")
    roll_lines = [line for line in public.splitlines() if "判定" in line]
    assert len(roll_lines) == 1 and "5 点" in roll_lines[0] and "论坛骰" in roll_lines[0]


# --- commands -------------------------------------------------------------------------------


def test_status_names_round_turn_and_general_due(gm, duel):
    """spec §2: "`gm status` names round, turn and the general due"; spec §1: "`due()` names only
    the owner of the next general to act"; no sheet: a pass."""
    s = status(gm, duel)
    assert s["due"] == ["alice"] and s["passes"] == ["alice"]
    text = gm("status", duel, "--lang", "en").output
    assert "round 1" in text and "turn 1" in text and "dm" in text
    assert "断魔之剑" in gm("status", duel).output


def test_template_due_and_standing_only(gm, duel, tmp_path):
    """spec §2: "`gm template DIR P` lists the due general's points, 行动力, 气, legs, targets and
    skills (others get a standing-only sheet)"; both templates pass `gm check`."""
    mine = gm("template", duel, "alice", "--lang", "en").output
    for word in ("dm", "2", "行动力", "4.5", "shengdao_zhiren", "E6"):
        assert word in mine, word
    gm("check", duel, sheet(tmp_path, mine, "t.yaml"))
    other = gm("template", duel, "bob", "--lang", "en").output
    assert not any(line.startswith("actions") for line in other.splitlines())
    gm("check", duel, sheet(tmp_path, other, "o.yaml"))


def test_missing_sheet_is_a_pass(gm, duel):
    """spec §1: "`gm resolve` resolves the turn due (no sheet: a pass), then everything automatic
    up to the next general able to act"."""
    out = gm("resolve", duel, "--lang", "en").output
    assert "passed: alice" in out
    s = state_file(duel, 1)
    assert s["turn"] == 1 and s["next"] == {"unit": "b1", "player": "bob"}
    assert unit(s, "dm")["pos"] == "D6" and unit(s, "dm")["ap"] == 2


def test_example_sheet_verbatim_is_read(gm, tmp_path):
    """spec §3 example sheet: `unit: dm` "must be the general due", `standing:` with every key of
    the example. Played as alice's first turn on the example scenario (dm first there), with the
    actions the field allows (the example's `tw`, `leap`, `回气丹` do not exist at turn 1)."""
    folder = new(gm, tmp_path, EXAMPLE_SCENARIO.replace("dice: [3, 5, 6]", "dice: [6, 5, 3]"))
    assert show(gm, folder)["next"] == {"unit": "dm", "player": "alice"}
    text = """\
turn: 1
player: alice
unit: dm                     # optional; must be the general due
actions:                     # ≤ action points left; empty or absent = pass (主动跳过)
  - move: C5                 # 移动: one straight leg, 1 point; [C3, E3] = two legs, 2 points
standing:                    # 常驻; each key given replaces the stored one
  joint_attack: {dm: {against: any, when: any, keep_qi: 0}}  # defaults shown
  reserve_order: [pzz]       # default: team order
  chasm_return: {dm: [F6]}   # a point or a preference list; default: reading order (H21)
  first_skills: {dm: [shengxin_jiandun]}   # 先手 skills; default none
  heart_card: {dm: A}        # 心战 for triggered skills; default 未启用
"""
    play(gm, folder, tmp_path, text)
    s = state_file(folder, 1)
    assert unit(s, "dm")["pos"] == "C5" and unit(s, "dm")["move"] == 1
    st = s["standing"]["alice"]
    assert st["reserve_order"] == ["pzz"] and st["first_skills"]["dm"] == ["shengxin_jiandun"]
    assert st["heart_card"]["dm"] == "A"


def test_chinese_keys_and_directions(gm, duel, tmp_path):
    """spec §3: "Chinese keys and values are accepted (移动 普攻 技能 物品 替换 常驻 联合攻击,
    上下左右)"."""
    _adjacent(gm, duel, tmp_path)
    text = "回合: 1\n玩家: alice\n魂将: dm\n行动:\n  - 移动: E6\n  - 普攻: b1\n常驻:\n  联合攻击: {dm: {against: any}}\n"
    play(gm, duel, tmp_path, text)
    s = state_file(duel, 1)
    assert unit(s, "dm")["pos"] == "E6" and unit(s, "b1")["jing"] == 6


def test_skill_direction_in_chinese(gm, tmp_path):
    """spec §3: `{skill: leap, direction: right}` with "上下左右" accepted; "Up = north = toward
    row 1". 天劫之子's 天劫重斩 (seed l.178: 「对一个方向的首个目标打击一次，并将其击退1格」) cast 上
    hits the general north of it and pushes it one point further north (H18)."""
    text = DUEL.replace("pos: D6, qi: 3", "pos: D3").replace("pos: D3}\n      b2", "pos: D7}\n      b2")
    text = text.replace("b1: {general: tianjie_zhizi", "b1: {general: duanmo_zhijian").replace(
        "dm: {general: duanmo_zhijian", "dm: {general: tianjie_zhizi")
    folder = new(gm, tmp_path, text)
    gm("amend", folder, "move", "b1", "D2", "--reason", "audit")
    play(gm, folder, tmp_path, alice_sheet("[{技能: tianjie_zhongzhan, 方向: 上}]"))
    s = state_file(folder, 1)
    assert unit(s, "b1")["pos"] == "D1" and unit(s, "b1")["jing"] < 7


# --- gm check refusals (spec §3) --------------------------------------------------------------


@pytest.mark.parametrize(("actions", "field", "words"), [
    ("[{move: E6}, {move: E5}, {move: E4}]", "actions.2", "action points"),
    ("[{move: D5}]", "actions.0.move", "D5"),
    ("[{move: C5}]", "actions.0.move", "row or column"),
    ("[{move: [E6, E4, F4]}]", "actions.0.move", "two legs"),
    ("[{move: [C6, C2]}]", "actions.0.move.1", "行动力"),
    ("[{attack: b1}]", "actions.0.attack", "range"),
    ("[{skill: shengdao_zhiren}]", "actions.0.skill", "气"),
    ("[{move: E6}, {substitute: pzz}]", "actions.1.substitute", "only action"),
], ids=["too-many-points", "onto-grade-II", "off-row-or-column", "third-leg", "beyond-move",
        "out-of-range", "unpayable", "substitution-not-alone"])
def test_check_refuses_one_line_each(gm, duel, tmp_path, actions, field, words):
    """spec §3: "`gm check` ... refuses, one line each, what is illegal before any roll: ... too
    many points, a leg off a row or column, a third leg, a leg beyond the 行动力 left or through or
    onto a grade I, II or IV obstacle, a target out of range ..., a skill unpayable (H6) ..., a
    substitution not alone" (action indexes from 0: docs/hunlu.md `actions.0.move.1`)."""
    lines = check(gm, duel, tmp_path, alice_sheet(actions))
    assert len(lines) == 1, lines
    assert f"{field}:" in lines[0] and words in lines[0], lines
    assert "check.yaml" in lines[0]


def test_check_refuses_a_leg_through_grade_two(gm, duel, tmp_path):
    """spec §3: refuses "a leg ... through ... a grade I, II or IV obstacle" (D5 lies between D6
    and D4)."""
    lines = check(gm, duel, tmp_path, alice_sheet("[{move: D4}]"))
    assert len(lines) == 1 and "actions.0.move" in lines[0]


def test_check_refuses_a_leg_onto_a_general(gm, tmp_path):
    """spec §3 / H21: "I (units, bodies) block moves": a leg onto a general is refused."""
    folder = new(gm, tmp_path, DUEL.replace("pos: D3}", "pos: B6}"))
    lines = check(gm, folder, tmp_path, alice_sheet("[{move: A6}]"))
    assert len(lines) == 1 and "actions.0.move" in lines[0]


def test_check_refuses_actions_not_due(gm, duel, tmp_path):
    """spec §3: refuses "actions not due"; "A player not due may send only `standing`"."""
    lines = check(gm, duel, tmp_path, "turn: 1\nplayer: bob\nactions: [{attack: dm}]\n")
    assert len(lines) == 1 and "actions" in lines[0]
    check(gm, duel, tmp_path, "turn: 1\nplayer: bob\nstanding: {heart_card: {b1: B}}\n", code=0)


def test_check_refuses_unit_not_due(gm, duel, tmp_path):
    """spec §3: "unit: dm  # optional; must be the general due"."""
    lines = check(gm, duel, tmp_path, "turn: 1\nplayer: alice\nunit: pzz\nactions: []\n")
    assert len(lines) == 1 and "unit" in lines[0]


def test_check_refuses_skill_when_silenced(gm, tmp_path):
    """spec §3: refuses "a skill ... barred (沉默, 蓄力)"; spec §5: a team entry's "`statuses:
    [{name, rounds, ...}]` are active from round 1"; H19: "沉默 no active skill"."""
    folder = new(gm, tmp_path, DUEL.replace("qi: 3}", "qi: 3, statuses: [{name: 沉默, rounds: 2}]}"))
    dm = unit(show(gm, folder), "dm")
    assert [(x["name"], x["rounds"], x["active"]) for x in dm["statuses"]] == [("沉默", 2, True)]
    lines = check(gm, folder, tmp_path, alice_sheet("[{skill: jingxin_ningshen}]"))
    assert len(lines) == 1 and "actions.0.skill" in lines[0]


def test_check_refuses_attack_when_disarmed(gm, tmp_path):
    """spec §3: refuses "an attack while 缴械"; H19: "缴械 no normal or joint attack"."""
    folder = new(gm, tmp_path, DUEL.replace("qi: 3}", "qi: 3, statuses: [{name: 缴械, rounds: 1}]}")
                 .replace("pos: D3}", "pos: D4}"))
    lines = check(gm, folder, tmp_path, alice_sheet("[{attack: b1}]"))
    assert len(lines) == 1 and "actions.0" in lines[0] and "缴械" in lines[0]


def test_check_refuses_out_of_line_for_a_wind_general(gm, tmp_path):
    """spec §3: refuses "a target out of range or line (H4 ...)"; H4: "风/火/山 attack or affect
    only their row or column" (seed l.25). A 风 general at D6 may not hit C5 (in its square)."""
    folder = new(gm, tmp_path, DUEL.replace("qi: 3}", "qi: 3, element: 风}").replace("pos: D3}", "pos: C5}"))
    lines = check(gm, folder, tmp_path, alice_sheet("[{attack: b1}]"))
    assert len(lines) == 1 and "actions.0.attack" in lines[0]


# --- scenario refusals ------------------------------------------------------------------------


@pytest.mark.parametrize(("old", "new_text", "field"), [
    ("{pos: D5, grade: 2}", "{pos: D5, grade: 5}", "grade"),
    ("qi: 3}", "qi: 3, crit: 20}", "crit"),
    ("qi: 3}", "qi: 9}", "qi"),
], ids=["grade", "percentage", "above-max"])
def test_scenario_refusals_name_the_field(gm, tmp_path, old, new_text, field):
    """spec §5: "grades 2-4 (units are I)"; catalogue percentages "(0/15/35/50/65/85/100 %, else
    refused)"; team "`jing qi shen` are starting values (≤ max)"."""
    r = new(gm, tmp_path, DUEL.replace(old, new_text), code=1)
    assert field in r.output


def test_unique_refuses_the_same_general_twice(gm, tmp_path):
    """spec §5: "`unique`: no general twice a side, l.75"."""
    text = DUEL.replace("unique: false", "unique: true").replace(
        "pzz: {general: pozhenzi", "pzz: {general: duanmo_zhijian")
    r = new(gm, tmp_path, text, code=1)
    assert "pzz" in r.output or "unique" in r.output


def test_exactly_two_sides(gm, tmp_path):
    """spec §5: "players: # in order; exactly two sides"."""
    text = DUEL.replace("  bob:\n    side: blue", "  bob:\n    side: red")
    assert "players" in new(gm, tmp_path, text, code=1).output


def test_scenario_generals_catalogue_without_python(gm, tmp_path):
    """spec §5: "a GM adds generals in a scenario's `generals:`, without Python"; "`range` (null:
    `default_range`)"."""
    text = DUEL.replace("dice: [6, 1, 2]", """\
dice: [6, 1, 2]
generals:
  xin: {name: 新将, element: 雷, jing: 9, qi: 4, qi_regen: 1, shen: 6, move: 2, range: null,
        crit: 15, weakness: 0, dodge: 0, hit: 0, defence: 0, resist: 35, skills: []}
""").replace("pzz: {general: pozhenzi", "pzz: {general: xin")
    s = show(gm, new(gm, tmp_path, text))
    x = unit(s, "pzz")
    assert (x["name"], x["max_jing"], x["element"], x["range"], x["shen"]) == ("新将", 9, "雷", 2, 6)


# --- GM edits, views, demo --------------------------------------------------------------------


def test_amend_edits_jing_qi_shen_position_status_order(gm, duel):
    """spec §2: "`gm amend` edits 精/气/神, positions, statuses, order" (action names as in
    docs/hunlu.md: set-jing/set-qi in steps of 0.5, set-shen, move, add-status, set-order)."""
    for args in (("set-jing", "b1", "4.5"), ("set-qi", "b1", "2"), ("set-shen", "b1", "5"),
                 ("move", "b1", "F2"), ("add-status", "b1", "沉默", "2"), ("set-order", "b1", "dm")):
        gm("amend", duel, *args, "--reason", "audit")
    gm("resolve", duel)
    s = state_file(duel, 1)
    b1 = unit(s, "b1")
    assert (b1["jing"], b1["qi"], b1["shen"], b1["pos"]) == (4.5, 2, 5, "F2")
    assert "沉默" in [x["name"] for x in b1["statuses"]]
    assert s["order"] == ["b1", "dm"]
    assert "audit" in (duel / "reports/turn-001/public.md").read_text("utf-8")


def test_player_view_hides_others_standing(gm, duel, tmp_path):
    """spec §6: "`--player P`: the same shape, minus others' `standing` and hidden cards"; H19 心战
    "a hidden card A/B/未启用". Changing bob's hidden card changes neither alice's view nor post."""
    gm("submit", duel, sheet(tmp_path, "turn: 1\nplayer: bob\nstanding: {heart_card: {b1: A}}\n", "b.yaml"))
    gm("resolve", duel)
    assert (duel / "orders/turn-001/bob.yaml").is_file()  # spec §2: "standing-only sheets"
    full = show(gm, duel)
    assert full["standing"]["bob"]["heart_card"]["b1"] == "A"
    alice = show(gm, duel, "alice")
    assert "bob" not in alice["standing"] and set(alice) == set(full)
    assert show(gm, duel, "bob")["standing"]["bob"]["heart_card"]["b1"] == "A"
    post_a = (duel / "reports/turn-001/alice.md").read_text("utf-8")
    gm("rollback", duel, "--to", "0")
    (duel / "orders/turn-001/bob.yaml").unlink(missing_ok=True)
    gm("submit", duel, sheet(tmp_path, "turn: 1\nplayer: bob\nstanding: {heart_card: {b1: B}}\n", "b.yaml"))
    gm("resolve", duel)
    assert show(gm, duel, "alice") == alice
    assert (duel / "reports/turn-001/alice.md").read_text("utf-8") == post_a


def test_exit_code_2_on_usage(gm, tmp_path):
    """spec §2: "exit codes 0/1/2": an unknown bundled scenario is a usage error (2)."""
    gm("new", tmp_path / "x", "--scenario", "no_such_hunlu_map", code=2)


def test_demo_reaches_the_end(gm, tmp_path):
    """README / task: "`gm demo --ruleset NAME` plays another ruleset's bundled scenario to the
    end"; spec §6: `winner`: "side, `"draw"` or null", `next` "null when over"; spec §5 "name:
    hunzhan  # the bundled default scenario" is the one played."""
    gm("demo", tmp_path / "d", "--ruleset", "hunlu")
    s = status(gm, tmp_path / "d")
    assert s["winner"] in ("red", "blue", "draw") and s["due"] == []
    last = json.loads(gm("show", tmp_path / "d", "--json").output)
    assert last["next"] is None and last["winner"] == s["winner"]
    assert yaml.safe_load((tmp_path / "d/campaign.yaml").read_text("utf-8"))["scenario"] == "hunzhan"



# --- rules H2, H11, H14, H15, H16, H21, H26 ---------------------------------------------------

# Three mains: 断魔之剑 with 行动力 4 (a team override), 天威剑君 and bob's 天劫之子 with 3.
TRIO = scenario(
    "trio",
    ["dm: {general: duanmo_zhijian, role: main, pos: D6, move: 4, qi: 1}",
     "tw: {general: tianwei_jianjun, role: main, pos: E6}",
     "pzz: {general: pozhenzi, role: reserve}"],
    ["b1: {general: tianjie_zhizi, role: main, pos: D4}",
     "b2: {general: pozhenzi, role: reserve}"],
    field=2, dice="[3, 4]")

# One main a side; alice's stands two points below the 天堑 at A1, blinded for two rounds. The
# forced queue settles initiative (dm first), then fails the next chance checks (不灭之躯's 15 %).
CHASM = scenario(
    "chasm",
    ["dm: {general: duanmo_zhijian, role: main, pos: A3, qi: 1, statuses: [{name: 失明, rounds: 2}]}",
     "pzz: {general: pozhenzi, role: reserve}"],
    ["b1: {general: tianjie_zhizi, role: main, pos: F6}",
     "b2: {general: pozhenzi, role: reserve}"],
    dice="[6, 1, 6, 6, 6, 6]")


def test_initiative_example(gm, tmp_path):
    """H11 (seed l.56-59): "Example l.56-59: A4 B3 C3, B rolls 3, C 4 → A, C, B"; "ties: ... the
    tied roll in scenario order, higher first"; spec §5 "A team entry overrides catalogue
    attributes" (`move: 4`)."""
    s = show(gm, new(gm, tmp_path, TRIO))
    assert s["order"] == ["dm", "b1", "tw"] and s["dice"] == []
    assert [unit(s, x)["move"] for x in ("dm", "tw", "b1")] == [4, 3, 3]


def test_joint_attack(gm, tmp_path):
    """H14 (seed l.64): "after a normal attack ... on enemy T, each other general of the attacker's
    side whose standing order allows, ... T alive and in range (H4, H21), with a point and 1 气
    (+ `keep_qi`), strikes T once"; H12 "联合攻击 1 out of turn"; H2 「联合攻击每次消耗1点气」."""
    folder = new(gm, tmp_path, TRIO)
    play(gm, folder, tmp_path, alice_sheet(
        "[{attack: b1}]\nstanding: {joint_attack: {tw: {against: any, when: any, keep_qi: 0}}}"))
    s = state_file(folder, 1)
    assert unit(s, "b1")["jing"] == 5
    assert (unit(s, "tw")["qi"], unit(s, "tw")["ap"]) == (6, 1)
    joins = [e for e in events(folder, 1) if e["type"] == "joint_attack"]
    assert [(e["unit"], e["target"]) for e in joins] == [("tw", "b1")]


def test_generals_not_listed_never_join(gm, tmp_path):
    """spec §3: "joint_attack: ... generals not listed never join" (standing absent: nobody)."""
    folder = new(gm, tmp_path, TRIO)
    play(gm, folder, tmp_path, alice_sheet("[{attack: b1}]"))
    s = state_file(folder, 1)
    assert unit(s, "b1")["jing"] == 6 and unit(s, "tw")["ap"] == 2
    assert not [e for e in events(folder, 1) if e["type"] == "joint_attack"]


def test_chasm_fall_and_return(gm, tmp_path):
    """H21 (seed l.123-129): "III 天堑: a general moving ... onto it is removed (`pos` null ...) and
    at the next round start returns to a free point within range 1 (standing choice, else
    reading order) with 「10%最大生命值（向下取整）」 damage (7 → 0.5)"; H16: round end, "active
    statuses lose a round"; H2: 恢气 "+1 in 「天启回合（双数回合）」" (2.5 + 1.5 + 1 = 5)."""
    folder = new(gm, tmp_path, CHASM)
    assert unit(show(gm, folder), "dm")["qi"] == 2.5
    play(gm, folder, tmp_path, alice_sheet("[{move: A1}]"))
    dm = unit(state_file(folder, 1), "dm")
    assert dm["pos"] is None and dm["alive"] is True
    gm("resolve", folder)  # bob passes: round 2 starts
    s = state_file(folder, 2)
    dm = unit(s, "dm")
    assert s["round"] == 2 and dm["pos"] == "B1" and dm["jing"] == 6.5
    assert dm["qi"] == 5 and [(x["name"], x["rounds"]) for x in dm["statuses"]] == [("失明", 1)]


def test_substitution(gm, tmp_path):
    """H15 (seed l.68): "Substitution: 2 points; at the next round start the reserve
    「接替自己的位置，行动顺序」; the leaver is benched without statuses"; spec §6 `role`."""
    folder = new(gm, tmp_path, CHASM)
    play(gm, folder, tmp_path, alice_sheet("[{替换: pzz}]"))
    assert unit(state_file(folder, 1), "dm")["ap"] == 0
    gm("resolve", folder)
    s = state_file(folder, 2)
    dm, pzz = unit(s, "dm"), unit(s, "pzz")
    assert (pzz["role"], pzz["pos"], dm["role"], dm["pos"]) == ("main", "A3", "reserve", None)
    assert s["order"] == ["pzz", "b1"] and dm["statuses"] == []


def test_static_passive_holds_after_substitution(gm, tmp_path):
    """spec §5: a passive skill "with `trigger`: ... static" holds while its general lives; H15 clears
    the statuses of the leaver only. 破阵子's 折弓破戟 (seed l.188, a static passive) is on it on
    the bench; it must still be on it once it has come on the field."""
    folder = new(gm, tmp_path, CHASM)
    assert "折弓破戟" in [x["name"] for x in unit(show(gm, folder), "pzz")["statuses"]]
    play(gm, folder, tmp_path, alice_sheet("[{替换: pzz}]"))
    gm("resolve", folder)
    pzz = unit(state_file(folder, 2), "pzz")
    assert pzz["role"] == "main" and "折弓破戟" in [x["name"] for x in pzz["statuses"]]


def test_victory_when_every_enemy_general_is_dead(gm, tmp_path):
    """H26 (seed l.6): "A side with every general dead, bench too, loses"; spec §6 "`winner`: side";
    "`next`: null when over"; "`role`: main | reserve | dead"."""
    folder = new(gm, tmp_path, CHASM)
    amend(gm, folder, ("set-jing", "b1", "0"), ("set-jing", "b2", "0"))
    s = show(gm, folder)
    assert s["winner"] == "red" and s["next"] is None
    assert [(unit(s, x)["role"], unit(s, x)["alive"]) for x in ("b1", "b2")] == [("dead", False)] * 2
    assert status(gm, folder)["winner"] == "red"


def test_victory_by_a_strike(gm, tmp_path):
    """H26 (seed l.6): "A side with every general dead, bench too, loses"; H2 "精 0: death"; spec §6
    "`winner`: side"; "`next`: null when over". The last enemy general (1 精 left) dies to a normal
    attack (a strike of 1, H13)."""
    folder = new(gm, tmp_path, CHASM)
    amend(gm, folder, ("set-jing", "b2", "0"), ("set-jing", "b1", "1"), ("move", "b1", "B4"))
    play(gm, folder, tmp_path, alice_sheet("[{attack: b1}]"))
    s = state_file(folder, 1)
    assert (s["winner"], s["next"]) == ("red", None)
    assert unit(s, "b1")["alive"] is False and unit(s, "b1")["role"] == "dead"
    assert status(gm, folder)["due"] == []


def test_demo_plays_the_bundled_default_scenario(gm, tmp_path):
    """spec §5: "name: hunzhan  # the bundled default scenario": `gm demo --ruleset hunlu` plays
    "the ruleset's bundled default" (README: "plays another ruleset's bundled scenario")."""
    gm("demo", tmp_path / "d", "--ruleset", "hunlu", "--turns", "1")
    assert show(gm, tmp_path / "d")["name"] == "hunzhan"


def test_negative_status_costs_shen_and_waits_a_round(gm, tmp_path):
    """H3 (seed l.22): "神 −1 per 「附带负面状态的打击」 ... a negative status (... 停止行动 ...) from an
    enemy, at once, even pending"; H22 (seed l.131-133): "Statuses of N rounds applied in round r are
    active in rounds r+1..r+N"; spec §6 "`active: false` until in effect"; H19 "停止行动 (turns
    skipped)". 天劫之子's 龙魂震慑 (seed l.180: 「射程5，对范围内所有目标造成1点伤害，并停止其行动一回合」)."""
    folder = new(gm, tmp_path, CHASM)
    gm("resolve", folder)  # alice passes
    play(gm, folder, tmp_path, "turn: 2\nplayer: bob\nactions: [{skill: 龙魂震慑}]\n", "b.yaml")
    log = events(folder, 2)
    pending = [e for e in log if e["type"] == "status" and e["name"] == "停止行动"]
    assert [(e["unit"], e["active"]) for e in pending] == [("dm", False)]
    s = state_file(folder, 2)
    dm = unit(s, "dm")
    assert (dm["jing"], dm["shen"]) == (6, 7)
    stop = next(x for x in dm["statuses"] if x["name"] == "停止行动")
    assert (stop["rounds"], stop["active"], stop["source"]) == (1, True, "b1")
    assert s["round"] == 2 and s["next"] == {"unit": "b1", "player": "bob"}  # dm's turn skipped
    assert unit(s, "b1")["qi"] == 10 - 6 + 1.5 + 1


def test_order_keeps_a_general_in_a_chasm(gm, tmp_path):
    """spec §6: "`order`: the field's acting order (with a general in a 天堑 ...)"; "`pos`: null ...
    in a 天堑"."""
    folder = new(gm, tmp_path, CHASM)
    play(gm, folder, tmp_path, alice_sheet("[{move: A1}]"))
    s = state_file(folder, 1)
    assert unit(s, "dm")["pos"] is None and s["order"] == ["dm", "b1"]


def test_action_made_impossible_by_a_roll_is_skipped_free(gm, tmp_path):
    """spec §3: "An action a roll made impossible (target dead) is skipped, costing nothing"; H15
    "Death ... reserve chosen at once ... the body stays an I obstacle until replaced at the next
    round start". b1 (1 精) dies to the first attack; the second, on its body, is skipped."""
    folder = new(gm, tmp_path, CHASM)
    amend(gm, folder, ("set-jing", "b1", "1"), ("move", "b1", "B4"))
    gm("check", folder, sheet(tmp_path, alice_sheet("[{attack: b1}, {attack: b1}]")))
    play(gm, folder, tmp_path, alice_sheet("[{attack: b1}, {attack: b1}]"))
    s = state_file(folder, 1)
    assert unit(s, "b1")["alive"] is False and s["winner"] is None
    log = events(folder, 1)
    assert [e["ap"] for e in log if e["type"] == "turn_end"] == [1]  # (round 2 has begun since)
    assert len([e for e in log if e["type"] == "roll" and e["unit"] == "dm" and e["why"] == "attack"]) == 1
    assert [e.get("action") for e in log if e["type"] == "skip"] == [1]


def test_a_general_that_has_acted_joins_with_its_unspent_point(gm, tmp_path):
    """spec §3: "Unspent points stay for 联合攻击 until the round ends"; H14; R19 "a general that has
    acted joins with the points it left unspent". dm attacks in its turn (1 point left); later in
    the round tw's attack on b1 draws dm's joint attack (dm's point and 1 气 spent)."""
    folder = new(gm, tmp_path, TRIO)
    play(gm, folder, tmp_path, alice_sheet(
        "[{attack: b1}]\nstanding: {joint_attack: {dm: {against: any, when: any, keep_qi: 0}}}"), "a1.yaml")
    gm("resolve", folder)  # bob passes
    play(gm, folder, tmp_path, alice_sheet("[{attack: b1}]", turn=3), "a3.yaml")
    joins = [e for e in events(folder, 3) if e["type"] == "joint_attack"]
    assert [(e["unit"], e["target"], e["ap"], e["qi"]) for e in joins] == [("dm", "b1", 0, 1.5)]
    assert unit(state_file(folder, 3), "b1")["jing"] == 4


def test_hand_written_dice_file_out_of_range(gm, duel):
    """spec §4: "`orders/turn-NNN/_dice.yaml` (`dice: [3, 5]`, optional `note`; values 1-6, else
    exit 1)": a hand-written file with a 9 stops `gm resolve`, naming the file and field."""
    (duel / "orders/turn-001").mkdir(parents=True, exist_ok=True)
    (duel / "orders/turn-001/_dice.yaml").write_text("dice: [3, 9]\n", encoding="utf-8")
    r = gm("resolve", duel, "--lang", "en", code=1)
    assert "_dice.yaml" in r.output and "dice" in r.output
    assert not (duel / "state/turn-001.json").exists()


def test_more_mains_than_field_refused(gm, tmp_path):
    """spec §5: "A player has 1..`field` mains and ≤ `reserves` reserves"."""
    r = new(gm, tmp_path, DUEL.replace("pzz: {general: pozhenzi, role: reserve}",
                                       "pzz: {general: pozhenzi, role: main, pos: A5}"), code=1)
    assert "players.alice" in r.output or "field" in r.output


def test_wood_generals_normal_attack_is_halved(gm, duel, tmp_path):
    """H13 (seed l.63): 「林，山系魂将的普攻伤害降低50%」; H10: one d6 per strike (no separate 元抗 die
    for a strike); spec §5 "A team entry overrides catalogue attributes" (`element: 林`)."""
    folder = new(gm, tmp_path, DUEL.replace("qi: 3}", "qi: 3, element: 林}"), name="wood")
    amend(gm, folder, ("move", "b1", "E5"))
    play(gm, folder, tmp_path, alice_sheet("[{attack: b1}]"))
    assert unit(state_file(folder, 1), "b1")["jing"] == 6.5
    assert len([e for e in events(folder, 1) if e["type"] == "roll"]) == 1


def test_spawn_preferences_in_initiative_order(gm, tmp_path):
    """spec §5: "a main without it takes, in initiative order, its first free `spawn`, else the first
    free spawn (shared by both sides, l.78)"; H17 "picked in initiative order, never twice". Both
    want G1; bob's b1 wins the roll-off (queue 1 for dm, 6 for b1) and takes it; dm its next one."""
    text = DUEL.replace("pos: D6, qi: 3}", "spawn: [G1, A7]}").replace("pos: D3}", "spawn: [G1]}").replace(
        "dice: [6, 1, 2]", "dice: [1, 6]")
    s = show(gm, new(gm, tmp_path, text))
    assert s["order"] == ["b1", "dm"] and unit(s, "b1")["pos"] == "G1" and unit(s, "dm")["pos"] == "A7"


@pytest.mark.parametrize(("mine", "theirs", "face", "jing"), [
    ("crit: 35", "", 2, 5),
    ("crit: 35", "", 3, 6),
    ("", ", weakness: 15", 6, 5),
    ("", ", weakness: 15", 5, 6),
    ("", ", dodge: 15", 1, 7),
    ("hit: 15", ", dodge: 15", 1, 6),
    ("", ", defence: 35", 2, 7),
], ids=["crit", "no-crit", "weakness", "no-weakness", "dodge", "hit-cancels-dodge", "defence"])
def test_pips_of_a_strike(gm, tmp_path, mine, theirs, face, jing):
    """H7 (seed l.41-45): "15/35/50/65/85/100 % = 1..6 pips; faces 1..n trigger crit, dodge, hit,
    defence ...; faces 7−n..6 weakness (「弱点点数从6-1开始计算」)"; "Attacker's crit and target's
    weakness double; dodge, defence → 0"; H8 (l.42): "命中 or 必中 cancels one 闪避"; H10 one d6 per
    strike, here the forced queue's third die (the first two settle initiative)."""
    text = DUEL.replace("pos: D6, qi: 3}", f"pos: D6, qi: 3, {mine}}}" if mine else "pos: D6, qi: 3}").replace(
        "pos: D3}", f"pos: E5{theirs}}}").replace("dice: [6, 1, 2]", f"dice: [6, 1, {face}]")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{attack: b1}]"))
    assert unit(state_file(folder, 1), "b1")["jing"] == jing
    assert [(e["value"], e["source"]) for e in events(folder, 1) if e["type"] == "roll"] == [(face, "queue")]


def test_item_used_up(gm, tmp_path):
    """spec §3: "{item: 回气丹}  # 物品, 1 point"; H26 (l.66) "Items are used up"; R11: an item is a
    skill of the scenario's `skills:` given by a team entry's `items`."""
    text = DUEL.replace("qi: 3}", "qi: 3, items: [回气丹]}").replace(
        "dice: [6, 1, 2]", "dice: [6, 1, 2]\nskills:\n  回气丹: {name: 回气丹, shape: self, effects: [{qi: 2}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{item: 回气丹}]"))
    dm = unit(state_file(folder, 1), "dm")
    assert (dm["qi"], dm["ap"], dm["items"]) == (6.5, 1, [])


def test_body_awaits_its_reserve(gm, tmp_path):
    """H15 (seed l.69-70): "Death: reserve chosen at once ...; the body stays an I obstacle until
    replaced at the next round start"; spec §6 "`order`: ... (with ... a body awaiting its
    reserve)"; "`pos`: null ... once replaced"; "`role`: main | reserve | dead"."""
    folder = new(gm, tmp_path, TRIO)
    amend(gm, folder, ("set-jing", "b1", "1"))
    play(gm, folder, tmp_path, alice_sheet("[{attack: b1}]"))
    s = state_file(folder, 1)
    b1 = unit(s, "b1")
    assert (b1["role"], b1["alive"], b1["pos"]) == ("dead", False, "D4") and "b1" in s["order"]
    assert s["next"] == {"unit": "tw", "player": "alice"}
    lines = check(gm, folder, tmp_path, alice_sheet("[{move: [E4, D4]}]", turn=2))
    assert len(lines) == 1 and "actions.0.move" in lines[0]  # the body blocks (grade I)
    gm("resolve", folder)  # tw passes: round 2 starts, b2 takes b1's place
    s = state_file(folder, 2)
    assert unit(s, "b1")["pos"] is None and unit(s, "b2")["pos"] == "D4" and unit(s, "b2")["role"] == "main"
    assert "b2" in s["order"] and "b1" not in s["order"]


def test_usage_error_exit_2(gm, duel):
    """spec §2: "exit codes 0/1/2": `gm dice` without a value is a usage error."""
    gm("dice", duel, code=2)


def test_first_skills_cast_at_round_start(gm, tmp_path):
    """spec §3 `first_skills: {dm: [shengxin_jiandun]}  # 先手 skills`; H16 (f) "先手 skills by caster
    行动力 (l.145)" at round start; R3: they cost their 气 and their 行动力, no action point, and
    their statuses are active at once. 圣心坚盾 (seed l.163: 「先手释放，防御提升35%，持续2回合」): 气 2."""
    folder = new(gm, tmp_path, CHASM)
    play(gm, folder, tmp_path, alice_sheet("[]\nstanding: {first_skills: {dm: [shengxin_jiandun]}}"))
    gm("resolve", folder)  # bob passes: round 2 starts
    s = state_file(folder, 2)
    dm = unit(s, "dm")
    assert s["round"] == 2 and (dm["qi"], dm["move"], dm["ap"]) == (2.5 + 2.5 - 2, 2, 2)
    shield = [x for x in dm["statuses"] if x["name"] == "圣心坚盾"]
    assert [(x["rounds"], x["active"]) for x in shield] == [(2, True)]


def test_leg_off_the_board_refused(gm, duel, tmp_path):
    """H1 (seed l.13-14): "the edge cannot be crossed": a point beyond row 7 is refused."""
    lines = check(gm, duel, tmp_path, alice_sheet("[{move: D8}]"))
    assert len(lines) == 1 and "actions.0.move" in lines[0]


def test_check_simulates_dashes_and_knockbacks(gm, tmp_path):
    """spec §3: "`gm check` simulates the sheet (moves, dashes, knockbacks)"; 破阵冲锋 (seed l.186:
    「突进3格，击退第一个目标并造成1点伤害」; R16 the dash stops 身前 of the target; R4 knockback 1;
    H6 "2 if it moves its caster"): from D7 the dash ends on D4, so a leg to C4 is legal after it
    and not before."""
    text = scenario(
        "dash",
        ["pz: {general: pozhenzi, role: main, pos: D7}",
         "r1: {general: duanmo_zhijian, role: reserve}"],
        ["b1: {general: duanmo_zhijian, role: main, pos: D3}",
         "b2: {general: duanmo_zhijian, role: reserve}"],
        obstacles="[]", dice="[6, 1, 6, 6, 6, 6]")
    folder = new(gm, tmp_path, text)
    assert len(check(gm, folder, tmp_path, alice_sheet("[{move: C4}]"))) == 1
    sheet_text = alice_sheet("[{skill: 破阵冲锋, direction: 上}, {move: C4}]")
    check(gm, folder, tmp_path, sheet_text, code=0)
    play(gm, folder, tmp_path, sheet_text)
    s = state_file(folder, 1)
    pz, b1 = unit(s, "pz"), unit(s, "b1")
    assert (pz["pos"], pz["move"], pz["ap"], pz["qi"]) == ("C4", 0, 0, 4)
    assert (b1["pos"], b1["jing"]) == ("D2", 6)


def test_catalogue_transcribes_the_four_samples(gm, tmp_path):
    """spec §5: "The bundled catalogue transcribes the four samples of l.161-188 exactly, gaps null"
    (seed l.161-163 "C断魔之剑 1 / 精:7气:7（1.5）神:8 / 行动力:3 射程:2", l.168-170 天威剑君 7/7/8,
    l.175-177 天劫之子 "精：7 气：10（1.5）神：8", l.182-184 破阵子 7/6/8 with no 射程: R4
    `default_range`). The example scenario fields all four, without overrides."""
    s = show(gm, new(gm, tmp_path, EXAMPLE_SCENARIO))
    seen = {u["general"]: (u["name"], u["max_jing"], u["max_qi"], u["shen"], u["move"], u["range"], u["element"])
            for u in s["units"]}
    assert seen == {
        "duanmo_zhijian": ("断魔之剑", 7, 7, 8, 3, 2, None),
        "tianwei_jianjun": ("天威剑君", 7, 7, 8, 3, 2, None),
        "tianjie_zhizi": ("天劫之子", 7, 10, 8, 3, 2, None),
        "pozhenzi": ("破阵子", 7, 6, 8, 3, 2, None),
    }


def test_tianqi_ties_keep_the_previous_order(gm, tmp_path):
    """H11 (seed l.51-55): initiative "at game start and each 天启 round start"; "ties: the previous
    order, else the tied roll in scenario order, higher first". Three generals of 行动力 3 roll 2, 5,
    4 at `gm new` (x, b1, dm); at round 2 (天启, R17) they tie again and keep that order, rolling
    nothing (only the two 不灭之躯 chances of round 1's end take queue dice)."""
    text = scenario(
        "ties",
        ["dm: {general: duanmo_zhijian, role: main, pos: A7}",
         "x: {general: duanmo_zhijian, role: main, pos: G7}",
         "r: {general: duanmo_zhijian, role: reserve}"],
        ["b1: {general: tianjie_zhizi, role: main, pos: D1}",
         "b2: {general: pozhenzi, role: reserve}"],
        field=2, obstacles="[]", dice="[2, 5, 4, 6, 6, 6, 6, 6, 6]")
    folder = new(gm, tmp_path, text)
    assert show(gm, folder)["order"] == ["x", "b1", "dm"]
    for _ in range(3):
        gm("resolve", folder)
    s = state_file(folder, 3)
    assert s["round"] == 2 and s["order"] == ["x", "b1", "dm"] and s["dice"] == [6, 6, 6, 6]
    rolls = [e["why"] for n in (1, 2, 3) for e in events(folder, n) if e["type"] == "roll"]
    assert rolls == ["不灭之躯", "不灭之躯"]


@pytest.mark.parametrize(("face", "jing"), [(1, 6.5), (2, 6)])
def test_element_strike_resisted_on_the_same_die(gm, tmp_path, face, jing):
    """H9 (seed l.40, l.64): "元抗 ... halves"; "Element damage: any dealt by a general with an
    element (l.64 lets 元抗 trigger on normal attacks)"; H10 "One d6 per strike (l.47, l.63), against
    both sides' attributes at once" (resist 15 % = 1 pip: face 1 halves the strike of 1)."""
    text = DUEL.replace("qi: 3}", "qi: 3, element: 雷}").replace("pos: D3}", "pos: E5, resist: 15}").replace(
        "dice: [6, 1, 2]", f"dice: [6, 1, {face}]")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{attack: b1}]"))
    assert unit(state_file(folder, 1), "b1")["jing"] == jing
    assert [e["value"] for e in events(folder, 1) if e["type"] == "roll"] == [face]


def test_shen_zero_is_jimie(gm, tmp_path):
    """H3 (seed l.23-24): "神 0: 寂灭 at once (l.23-24): turns skipped for good, no joining or chosen
    substitution; a status (rounds null); alive". dm (神 1) loses its last 神 to 龙魂震慑's 停止行动."""
    folder = new(gm, tmp_path, CHASM.replace("qi: 1, statuses: [{name: 失明, rounds: 2}]}", "shen: 1}"))
    gm("resolve", folder)
    play(gm, folder, tmp_path, "turn: 2\nplayer: bob\nactions: [{skill: 龙魂震慑}]\n", "b.yaml")
    s = state_file(folder, 2)
    dm = unit(s, "dm")
    assert (dm["alive"], dm["shen"], dm["role"]) == (True, 0, "main")
    assert [(x["rounds"], x["active"]) for x in dm["statuses"] if x["name"] == "寂灭"] == [(None, True)]
    assert s["next"] == {"unit": "b1", "player": "bob"} and s["winner"] is None


def test_standing_reserve_order_and_chasm_return(gm, tmp_path):
    """spec §3 standing: "reserve_order: [pzz]  # default: team order"; "chasm_return: {dm: [F6]}  # a
    point or a preference list; default: reading order (H21)"; H15 "Death ...: reserve chosen at once
    (standing, else team order)"; H21 returns "to a free point within range 1 (standing choice ...)"."""
    text = scenario("standing",
                    ["dm: {general: duanmo_zhijian, role: main, pos: A3}",
                     "tw: {general: tianwei_jianjun, role: reserve}",
                     "pzz: {general: pozhenzi, role: reserve}"],
                    ["b1: {general: tianjie_zhizi, role: main, pos: B4}",
                     "b2: {general: pozhenzi, role: reserve}",
                     "b3: {general: duanmo_zhijian, role: reserve}"],
                    dice="[6, 1, 6, 6, 6, 6, 6, 6]").replace("reserves: 1", "reserves: 2")
    folder = new(gm, tmp_path, text)
    amend(gm, folder, ("set-jing", "b1", "1"))
    play(gm, folder, tmp_path, alice_sheet(
        "[{move: A1}]\nstanding: {chasm_return: {dm: [A2]}}"), "a.yaml")
    play(gm, folder, tmp_path, "turn: 2\nplayer: bob\nactions: []\nstanding: {reserve_order: [b3]}\n", "b.yaml")
    s = state_file(folder, 2)
    assert s["round"] == 2 and unit(s, "dm")["pos"] == "A2"  # not B1, the first in reading order
    gm("resolve", folder)  # alice passes
    gm("amend", folder, "set-jing", "b1", "0", "--reason", "audit")
    gm("resolve", folder)
    s = state_file(folder, 4)
    assert unit(s, "b1")["role"] == "dead"
    assert unit(s, "b3")["role"] == "main" and unit(s, "b2")["role"] == "reserve"


def test_joint_attack_keeps_qi(gm, tmp_path):
    """spec §3: "joint_attack: {dm: {against: any, when: any, keep_qi: 0}}"; H14 "with a point and 1 气
    (+ `keep_qi`)": tw (气 7) keeping 7 cannot pay 1 气 and does not join."""
    folder = new(gm, tmp_path, TRIO)
    play(gm, folder, tmp_path, alice_sheet(
        "[{attack: b1}]\nstanding: {joint_attack: {tw: {against: [b1], when: any, keep_qi: 7}}}"))
    assert not [e for e in events(folder, 1) if e["type"] == "joint_attack"]
    assert unit(state_file(folder, 1), "tw")["qi"] == 7

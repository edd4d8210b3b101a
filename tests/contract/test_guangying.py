"""Black-box audit of the guangying ruleset against its contract (spec/guangying.md, seed 001).

Only the CLI and the JSON files it writes are used. Each docstring quotes the contract line it
checks (``spec §N``, the G-rules) and, for a point the contract leaves open (§9), the ruling of
``docs/rulings/guangying.md`` (Rn)."""

from __future__ import annotations

import pytest
import yaml

from tests.contract.conftest import alice_sheet, amend, check, events, new, play, sheet, show, state_file, status


def board(name: str, *squads: str, extra: str = "", tail: str = "") -> str:
    """A scenario of alice (south, 先攻) and bob with these squads (flow mappings)."""
    rows = "".join(f"  - {squad}\n" for squad in squads)
    return f"ruleset: guangying\nname: {name}\nplayers: [alice, bob]\n{extra}squads:\n{rows}{tail}"


# spec §5's example scenario verbatim, plus the squad of bob's priest p9 that its rock k1 names
# ("by: the maintaining 牧师"): the excerpt leaves p9 out and a rock needs its priest.
EXAMPLE_SCENARIO = """\
ruleset: guangying
name: standard                 # bundled: the seed's empty start
players: [alice, bob]
first: alice                   # 先攻 (一.3): has turn 1
sides: {alice: south, bob: north}
fortress: {alice: [E1, F1, E2, F2], bob: [E11, F11, E12, F12]}   # default by side
fortress_hp: {alice: 100, bob: 100}
pool: {alice: {法师: 0}}       # unlisted: seed count minus what is placed here
in_hand: {alice: [{id: r1, class: 巡林客, hp: 10}]}
standing: {bob: {leader_dies: return}}
squads:                        # optional start positions; members leader first
  - {id: s1, owner: alice, pos: C5, members: [{id: w1, class: 战士, hp: 20}, {id: r2, class: 巡林客}]}
  - {id: s7, owner: bob, pos: C7, members: [{id: p9, class: 牧师}]}
markers:
  - {id: k1, kind: 岩, owner: bob, cells: [C6], by: p9}   # by: the maintaining 牧师
  - {id: wl1, kind: 风墙, owner: bob, cells: [D5, E5, F5]}
classes: {}                    # overrides of the table below
"""

# A field for the combat rules: alice's s1 (战士 leading a 巡林客) faces bob's s7 (a 战士), her
# ranger r1 has bob's priest three cells up its column, her barbarian b4 stands next to bob's
# fortress.
FIELD = board("audit",
    "{id: s1, owner: alice, pos: C5, members: [{id: w1, class: 战士}, {id: r2, class: 巡林客}]}",
    "{id: s7, owner: bob, pos: C6, members: [{id: w9, class: 战士}]}",
    "{id: s3, owner: alice, pos: G3, members: [{id: r1, class: 巡林客}]}",
    "{id: s8, owner: bob, pos: G6, members: [{id: p8, class: 牧师}]}",
    "{id: s4, owner: alice, pos: E10, members: [{id: b4, class: 野蛮人}]}",
    extra="first: alice\nsides: {alice: south, bob: north}\n")


def piece(state: dict, pid: str) -> dict:
    return next(p for p in state["pieces"] if p["id"] == pid)


def squad(state: dict, sid: str) -> dict:
    return next(s for s in state["squads"] if s["id"] == sid)


def player(state: dict, name: str) -> dict:
    return next(p for p in state["players"] if p["player"] == name)




@pytest.fixture
def field(gm, tmp_path):
    return new(gm, tmp_path, FIELD)


@pytest.fixture
def standard(gm, tmp_path):
    return new(gm, tmp_path, "guangying")


# --- bundled scenario, example scenario ---------------------------------------------------


def test_bundled_scenario_is_named_standard(gm, tmp_path):
    """spec §5: "name: standard  # bundled: the seed's empty start": the bundled scenario is
    `standard` (as hunlu's `name: hunzhan  # the bundled default scenario` is `--scenario
    hunzhan`)."""
    s = show(gm, new(gm, tmp_path, "standard"))
    assert s["name"] == "standard" and s["pieces"] == [] and s["squads"] == []


def test_bundled_empty_start(gm, standard):
    """spec §5 / G1 / G2: the seed's empty start: "Pools: the table's counts, 4 岩, 2 风墙", a
    fortress of "4 cells, bottom centre, 100 HP"; R22: E1 F1 E2 F2 and E11 F11 E12 F12; `first`
    alice (先攻) has turn 1."""
    s = show(gm, standard)
    counts = {"野蛮人": 3, "诗人": 2, "牧师": 4, "德鲁伊": 2, "战士": 9, "圣武士": 9, "巡林客": 5,
              "游荡者": 3, "术士": 2, "法师": 1, "岩": 4, "风墙": 2}
    for p in s["players"]:
        assert p["pool"] == counts and p["fortress_hp"] == 100
    assert player(s, "alice")["fortress"] == ["E1", "F1", "E2", "F2"]
    assert player(s, "bob")["fortress"] == ["E11", "F11", "E12", "F12"]
    assert (s["first"], s["next"], s["turn"], s["winner"]) == ("alice", "alice", 0, None)


def test_example_scenario_setup(gm, tmp_path):
    """spec §5 example: "pool: {alice: {法师: 0}}  # unlisted: seed count minus what is placed
    here"; `in_hand` with `hp: 10`; `standing: {bob: {leader_dies: return}}`; members "leader
    first"; markers with `by: the maintaining 牧师`; a member's `hp` "(default max)"."""
    s = show(gm, new(gm, tmp_path, EXAMPLE_SCENARIO))
    alice, bob = player(s, "alice"), player(s, "bob")
    assert alice["pool"]["法师"] == 0 and alice["pool"]["战士"] == 8 and alice["pool"]["巡林客"] == 3
    assert bob["pool"]["岩"] == 3 and bob["pool"]["风墙"] == 1 and bob["pool"]["牧师"] == 3
    assert [(h["id"], h["class"], h["hp"], h["max_hp"]) for h in alice["in_hand"]] == [("r1", "巡林客", 10, 20)]
    assert bob["standing"]["leader_dies"] == "return"
    assert squad(s, "s1")["members"] == ["w1", "r2"] and squad(s, "s1")["pos"] == "C5"
    assert (piece(s, "w1")["hp"], piece(s, "r2")["hp"]) == (20, 20)
    assert piece(s, "p9")["maintaining"] == "k1"
    markers = {m["id"]: m for m in s["markers"]}
    assert markers["k1"]["cells"] == ["C6"] and markers["k1"]["by"] == "p9" and markers["k1"]["kind"] == "岩"
    assert markers["wl1"]["cells"] == ["D5", "E5", "F5"] and markers["wl1"]["kind"] == "风墙"


@pytest.mark.parametrize(("squads", "words"), [
    ("[{id: s1, owner: alice, pos: C2, members: [{id: a, class: 战士}, {id: b, class: 战士}, "
     "{id: c, class: 战士}, {id: d, class: 战士}]}]", "s"),
    ("[{id: s1, owner: alice, pos: C2, members: [{id: a, class: 战士}, {id: m, class: 法师}]}]", "法师"),
    ("[{id: s1, owner: alice, pos: E1, members: [{id: a, class: 战士}]}]", "E1"),
    ("[{id: s1, owner: alice, pos: C2, members: [{id: a, class: 法师}]}, "
     "{id: s2, owner: alice, pos: D2, members: [{id: b, class: 法师}]}]", "法师"),
    ("[{id: s1, owner: alice, pos: C2, members: [{id: a, class: 战士}]}, "
     "{id: s2, owner: alice, pos: D2, members: [{id: a, class: 战士}]}]", "a"),
], ids=["over-3", "mage-not-alone", "on-fortress", "more-than-seed", "duplicate-id"])
def test_scenario_refusals_name_the_field(gm, tmp_path, squads, words):
    """spec §5: "Refused, naming the field: squads over 3, a 法师/诗人 not alone, a piece on a
    rock or fortress, more of a class than the seed has, duplicate ids"."""
    text = f"ruleset: guangying\nname: x\nplayers: [alice, bob]\nsquads: {squads}\n"
    r = new(gm, tmp_path, text, code=1)
    assert "squads" in r.output and words in r.output


def test_scenario_piece_on_a_rock_refused(gm, tmp_path):
    """spec §5: refused "a piece on a rock"."""
    text = EXAMPLE_SCENARIO.replace("pos: C5, members: [{id: w1", "pos: C6, members: [{id: w1")
    r = new(gm, tmp_path, text, code=1)
    assert "C6" in r.output


# --- state JSON -----------------------------------------------------------------------------


def test_state_json_paths(gm, tmp_path):
    """spec §6: every key of the example: top level `ruleset turn next first winner pending_win
    players squads pieces markers`; a player's `player side home_rows fortress fortress_hp pool
    in_hand dead standing guardian_missing_turns professional_missing_turns`; a squad's `id owner
    pos members actions_left defending`; a piece's `id class owner squad pos hp max_hp power move
    summoned_turn beast maintaining portal_open`; a marker's `id kind owner cells by`."""
    folder = new(gm, tmp_path, EXAMPLE_SCENARIO)
    s = show(gm, folder)
    assert s == state_file(folder, 0)
    assert {"ruleset", "turn", "next", "first", "winner", "pending_win", "players", "squads", "pieces",
            "markers"} <= set(s)
    assert s["ruleset"] == "guangying" and s["pending_win"] is None
    for p in s["players"]:
        assert {"player", "side", "home_rows", "fortress", "fortress_hp", "pool", "in_hand", "dead",
                "standing", "guardian_missing_turns", "professional_missing_turns"} <= set(p)
        assert isinstance(p["dead"], list) and isinstance(p["fortress_hp"], int)
    assert player(s, "alice")["home_rows"] == [1, 2, 3] and player(s, "bob")["home_rows"] == [10, 11, 12]
    hand = player(s, "alice")["in_hand"][0]
    assert {"id", "class", "hp", "max_hp", "power", "beast", "cannot_return_until"} <= set(hand)
    assert hand["cannot_return_until"] is None
    for sq in s["squads"]:
        assert {"id", "owner", "pos", "members", "actions_left", "defending"} <= set(sq)
    for pc in s["pieces"]:
        assert {"id", "class", "owner", "squad", "pos", "hp", "max_hp", "power", "move", "summoned_turn",
                "beast", "maintaining", "portal_open"} <= set(pc)
    w1 = piece(s, "w1")
    assert (w1["max_hp"], w1["power"], w1["move"], w1["summoned_turn"], w1["beast"]) == (28, 4, 3, 0, False)
    for m in s["markers"]:
        assert {"id", "kind", "owner", "cells", "by"} <= set(m)


def test_state_after_a_turn(gm, field, tmp_path):
    """spec §6: "`turn`: resolved sheets; `next`: the player due"; "`actions_left`: what the squad
    had left when the last turn ended (2 for the other player's)"; G2: a fortress attack deals
    "the attacker's power" (野蛮人 7); G21: "Damage hits the target's leader"; G26 射击 "power 1"."""
    play(gm, field, tmp_path, alice_sheet(
        "[{attack: s1, target: s7}, {ability: 射击, by: r1, target: s8}, {attack: s4, target: fortress}]"))
    s = state_file(field, 1)
    assert (s["turn"], s["next"], s["winner"]) == (1, "bob", None)
    assert piece(s, "w9")["hp"] == 24 and piece(s, "p8")["hp"] == 23
    assert player(s, "bob")["fortress_hp"] == 93
    assert [squad(s, x)["actions_left"] for x in ("s1", "s3", "s4", "s7", "s8")] == [1, 0, 1, 2, 2]
    kinds = [e["type"] for e in events(field, 1)]
    assert "attack" in kinds and "damage" in kinds


def test_views_equal_the_gm_view(gm, tmp_path):
    """spec §1: "Nothing is hidden: every view equals the GM's"."""
    folder = new(gm, tmp_path, EXAMPLE_SCENARIO)
    full = show(gm, folder)
    assert show(gm, folder, "alice") == full and show(gm, folder, "bob") == full


# --- the order sheet --------------------------------------------------------------------------


def test_example_summon_with_ids(gm, standard, tmp_path):
    """spec §3: "{summon: 战士, at: C2, id: w3, squad: s6}  # class from the pool"; G5: "The new
    piece's squad has no chances that turn"."""
    play(gm, standard, tmp_path, alice_sheet("[{summon: 战士, at: C2, id: w3, squad: s6}]"))
    s = state_file(standard, 1)
    assert piece(s, "w3")["pos"] == "C2" and piece(s, "w3")["summoned_turn"] == 1
    assert squad(s, "s6")["members"] == ["w3"] and squad(s, "s6")["actions_left"] == 0
    assert player(s, "alice")["pool"]["战士"] == 8


def test_unnamed_ids(gm, standard, tmp_path):
    """spec §3: "unnamed new ones get `alice-warrior<n>` (English class), `alice-s<n>` ... (smallest
    free n)"."""
    play(gm, standard, tmp_path, alice_sheet("[{summon: 战士, at: C2}]"))
    s = state_file(standard, 1)
    assert [p["id"] for p in s["pieces"]] == ["alice-warrior1"]
    assert [q["id"] for q in s["squads"]] == ["alice-s1"]


def test_chinese_aliases_and_cell_forms(gm, standard, tmp_path):
    """spec §3: "Aliases: 召唤 位置 编号 小队 ..."; "classes also as barbarian, bard, ..."; "Cells
    `C5`, `C,5`, `(C,5)`"; the top keys 回合 玩家 行动 (docs/guangying.md)."""
    text = "回合: 1\n玩家: alice\n行动:\n  - {召唤: warrior, 位置: '(C,2)', 编号: w3, 小队: s6}\n"
    play(gm, standard, tmp_path, text)
    s = state_file(standard, 1)
    assert piece(s, "w3")["class"] == "战士" and piece(s, "w3")["pos"] == "C2" and squad(s, "s6")["pos"] == "C2"
    text = "回合: 2\n玩家: bob\n行动:\n  - {召唤: 牧师, 位置: 'D,11'}\n常设: {队长死亡: 回手}\n"
    play(gm, standard, tmp_path, text, "bob.yaml")
    s = state_file(standard, 2)
    assert [p["pos"] for p in s["pieces"] if p["owner"] == "bob"] == ["D11"]
    assert player(s, "bob")["standing"]["leader_dies"] == "return"


def test_example_move_attack_full_attack_defend(gm, field, tmp_path):
    """spec §3: "{move: s1, path: [C4, C5, D5]}  # orthogonal steps"; "{full_attack: s2, target:
    s7}"; G19: "Double damage; the target squad is pushed 1 cell straight away from the attacker";
    G10: with a 战士 leader a squad moves "the average" ((3+4)/2 = 3)."""
    play(gm, field, tmp_path, alice_sheet("[{full_attack: s1, target: s7}, {move: s3, path: [H3, H4, H5]}]"))
    s = state_file(field, 1)
    assert piece(s, "w9")["hp"] == 20 and squad(s, "s7")["pos"] == "C7"
    assert squad(s, "s3")["pos"] == "H5" and piece(s, "r1")["hp"] == 20


def test_defend_halves_and_splits(gm, field, tmp_path):
    """spec §3: "{defend: s3}"; G20: "Until its owner's next turn, the squad's damage is halved, then
    split equally among the members" (bob's 战士 hits alice's defending s1 for 4: 2, one each)."""
    play(gm, field, tmp_path, alice_sheet("[{defend: s1}]"))
    assert squad(state_file(field, 1), "s1")["defending"] is True
    play(gm, field, tmp_path, "turn: 2\nplayer: bob\nactions: [{attack: s7, target: s1}]\n", "b.yaml")
    s = state_file(field, 2)
    assert (piece(s, "w1")["hp"], piece(s, "r2")["hp"]) == (27, 19)


def test_example_leader_split_return_suicide(gm, tmp_path):
    """spec §3: "{leader: w2}  # w2 goes to the top of its squad"; "{split: [r1], path: [C6, C7],
    squad: s8}  # 离队"; "{return: [w1, p1]}  # 回手"; "{suicide: w5}"; G6 回手 "any own pieces in
    own home rows, free"; G8 自杀 free."""
    text = FIELD.replace("pos: G3, members: [{id: r1, class: 巡林客}]",
                         "pos: G3, members: [{id: r1, class: 巡林客}, {id: w5, class: 战士}]") + \
        "  - {id: s5, owner: alice, pos: B2, members: [{id: w2, class: 战士}, {id: p1, class: 牧师}]}\n"
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet(
        "[{leader: r2}, {split: [w1], path: [B5, B4], squad: s9}, {return: [w2, p1]}, {suicide: w5}]"))
    s = state_file(folder, 1)
    assert squad(s, "s1")["members"] == ["r2"] and squad(s, "s9")["members"] == ["w1"]
    assert squad(s, "s9")["pos"] == "B4"
    hand = [h["id"] for h in player(s, "alice")["in_hand"]]
    assert sorted(hand) == ["p1", "w2"] and "w5" in player(s, "alice")["dead"]


def test_example_abilities(gm, tmp_path):
    """spec §3: "{ability: 风墙, by: d1, at: D6, orientation: horizontal, id: wl1}"; "{ability: 奉献,
    by: pa1, target: r1, amount: 5}"; G26 风墙: "if the line through `at` meets the druid, the wall
    is `at` and 2 cells beyond, else `at` is its middle"; 奉献 "`amount` HP from it to a squadmate";
    G7: "wounded pieces in own home rows +1 (本阵)" at the upkeep."""
    text = board("abilities",
        "{id: s1, owner: alice, pos: D5, members: [{id: d1, class: 德鲁伊}]}",
        "{id: s2, owner: alice, pos: B2, members: [{id: pa1, class: 圣武士}, {id: r1, class: 巡林客, hp: 10}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet(
        "[{ability: 风墙, by: d1, at: D6, orientation: horizontal, id: wl1}, {ability: 奉献, by: pa1, target: r1, amount: 5}]"))
    s = state_file(folder, 1)
    wall = next(m for m in s["markers"] if m["id"] == "wl1")
    assert wall["cells"] == ["C6", "D6", "E6"] and wall["kind"] == "风墙"
    # r1 (10 HP, wounded in its own home rows) got +1 at the upkeep (G7), then the 5
    assert (piece(s, "pa1")["hp"], piece(s, "r1")["hp"]) == (31, 16)


def test_standing_per_squad(gm, field, tmp_path):
    """spec §3: "standing: leader_dies: fight_on  # or return; per squad: squads: {s2: return}";
    "kept until a later sheet of this player changes it"."""
    play(gm, field, tmp_path, "turn: 1\nplayer: alice\nactions: []\nstanding: {leader_dies: return, squads: {s1: fight_on}}\n")
    play(gm, field, tmp_path, "turn: 2\nplayer: bob\n", "b.yaml")
    st = player(state_file(field, 2), "alice")["standing"]
    assert st["leader_dies"] == "return" and st["squads"] == {"s1": "fight_on"}


# --- gm check refusals (spec §4) --------------------------------------------------------------


@pytest.mark.parametrize(("actions", "field_name", "words"), [
    ("[{summon: 战士, at: C2}, {summon: 牧师, at: D2}]", "actions[1]", "summon"),
    ("[{summon: 战士, at: C9}]", "actions[0].at", "C9"),
    ("[{move: s1, path: [D5, D4, D3, D2]}]", "actions[0].path", "3"),
    ("[{move: s1, path: [C4, D3]}]", "actions[0].path", ""),
    ("[{attack: s3, target: s7}]", "actions[0].target", "s7"),
    ("[{attack: zz, target: s7}]", "actions[0]", "zz"),
    ("[{attack: s1, target: s7}, {attack: s1, target: s7}]", "actions[1]", ""),
    ("[{return: [w1]}]", "actions[0].return", "home"),
], ids=["second-summon", "summon-cell", "too-costly-path", "bad-path", "out-of-reach", "foreign-id",
        "second-attack", "return-outside-home"])
def test_check_refuses_one_line_each(gm, field, tmp_path, actions, field_name, words):
    """spec §4: "`gm check` (exit 1; a line per problem: file, `actions[i].field`, reason, what is
    allowed) refuses ... foreign ids, too few chances, a bad or too costly path, a target out of
    reach or immune, a bad summon cell, G3's limits, a second summon"; G14: "a second `attack` by
    a squad is refused" (R30: indexes from 0). FIELD has bob's wind wall nowhere; D5 costs 1."""
    text = FIELD + "markers: [{id: wl1, kind: 风墙, owner: bob, cells: [D5, D4, D3]}]\n"
    folder = new(gm, tmp_path, text, name="w")
    lines = check(gm, folder, tmp_path, alice_sheet(actions))
    assert len(lines) == 1, lines
    assert f"{field_name}" in lines[0] and words in lines[0] and "check.yaml" in lines[0]


def test_check_refuses_a_shot_at_an_immune_bard(gm, tmp_path):
    """spec §4: refuses "a target ... immune"; G26: "诗人, 法师: no 射击/火球 damage (such a target is
    refused)"."""
    text = FIELD.replace("pos: G6, members: [{id: p8, class: 牧师}]", "pos: G6, members: [{id: p8, class: 诗人}]")
    lines = check(gm, new(gm, tmp_path, text), tmp_path, alice_sheet("[{ability: 射击, by: r1, target: s8}]"))
    assert len(lines) == 1 and "actions[0].target" in lines[0]


def test_check_refuses_a_sheet_not_due(gm, field, tmp_path):
    """spec §3: "player: alice  # the player due, else refused (orders.not_due)"."""
    lines = check(gm, field, tmp_path, "turn: 1\nplayer: bob\nactions: []\n")
    assert len(lines) == 1 and "player" in lines[0] and "alice" in lines[0]


def test_check_refuses_over_ten_pieces(gm, tmp_path):
    """G3: "At most 10 own pieces on the board and 5 squads"."""
    members = ", ".join(f"{{id: p{i}, class: 圣武士}}" for i in range(3))
    rows = "".join(f"  - {{id: q{k}, owner: alice, pos: {c}2, members: [{members.replace('p', 'p' + str(k))}]}}\n"
                   for k, c in enumerate("ABC"))
    text = "ruleset: guangying\nname: x\nplayers: [alice, bob]\nsquads:\n" + rows + \
        "  - {id: q9, owner: alice, pos: G2, members: [{id: z1, class: 战士}]}\n"
    folder = new(gm, tmp_path, text)
    lines = check(gm, folder, tmp_path, alice_sheet("[{summon: 战士, at: H2}]"))
    assert len(lines) == 1 and "actions[0]" in lines[0]


def test_missing_sheet_is_a_pass(gm, field):
    """spec §2: "`gm status` shows one sheet due and `gm resolve` resolves that sheet (missing: a
    pass)"."""
    st = status(gm, field)
    assert st["due"] == ["alice"] and st["passes"] == ["alice"]
    out = gm("resolve", field, "--lang", "en").output
    assert "passed: alice" in out
    s = state_file(field, 1)
    assert (s["turn"], s["next"]) == (1, "bob")
    assert [(p["id"], p["pos"], p["hp"]) for p in s["pieces"]] == [
        (p["id"], p["pos"], p["hp"]) for p in state_file(field, 0)["pieces"]]


def test_template_is_valid(gm, field, tmp_path):
    """spec §2 (as grail-war §2-3): `gm template` gives the player due a sheet that `gm check`
    accepts."""
    text = gm("template", field, "alice").output
    gm("check", field, sheet(tmp_path, text, "t.yaml"))


# --- rules --------------------------------------------------------------------------------------


def test_victory_first_player_pending_then_wins(gm, field, tmp_path):
    """G27: "a fortress at 0 loses (要塞破坏)"; "If the first player wins in their own turn, the
    second plays one more (`pending_win`): winning too makes it `"draw"`, else the first wins"."""
    gm("amend", field, "set-fortress", "bob", "5", "--reason", "audit")
    play(gm, field, tmp_path, alice_sheet("[{attack: s4, target: fortress}]"))
    s = state_file(field, 1)
    assert player(s, "bob")["fortress_hp"] == 0
    assert (s["pending_win"], s["winner"], s["next"]) == ("alice", None, "bob")
    gm("resolve", field)
    s = state_file(field, 2)
    assert (s["winner"], s["next"]) == ("alice", None)


def test_guardian_missing_three_turns_loses(gm, tmp_path):
    """G27 / spec §8: "A player ending 3 consecutive own turns with no 护卫者, or no 职业者, on the
    board loses"; "三回合内" counts own turns."""
    text = board("x",
        "{id: s1, owner: alice, pos: C2, members: [{id: w1, class: 战士}]}",
        "{id: s2, owner: alice, pos: D2, members: [{id: r1, class: 巡林客}]}",
        "{id: s3, owner: bob, pos: C11, members: [{id: w2, class: 战士}]}")
    folder = new(gm, tmp_path, text)
    for n in range(1, 6):
        gm("resolve", folder)
        s = state_file(folder, n)
        if n % 2 == 0:
            assert player(s, "bob")["professional_missing_turns"] == n // 2
    assert s["winner"] is None
    gm("resolve", folder)
    s = state_file(folder, 6)
    assert player(s, "bob")["professional_missing_turns"] == 3 and s["winner"] == "alice"


def test_upkeep_in_hand_heals_two(gm, tmp_path):
    """G7: "Upkeep ... at its start, in order: in hand +2"; G6 "in hand +2 HP a turn"."""
    folder = new(gm, tmp_path, EXAMPLE_SCENARIO)
    gm("resolve", folder)  # alice's turn: her upkeep ran first
    assert player(state_file(folder, 1), "alice")["in_hand"][0]["hp"] == 12


def test_ambush_on_passing(gm, tmp_path):
    """G16 (措手不及): "Passing (entering, then leaving) a cell within 1 of one enemy squad draws its
    leader's instant normal attack; ending there does not"."""
    text = board("x",
        "{id: s1, owner: alice, pos: A5, members: [{id: g1, class: 游荡者}]}",
        "{id: s2, owner: bob, pos: C6, members: [{id: w2, class: 战士}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{move: s1, path: [B5, C5, D5, E5]}]"))
    s = state_file(folder, 1)
    assert squad(s, "s1")["pos"] == "E5" and piece(s, "g1")["hp"] == 16


def test_amend_actions(gm, field):
    """spec §2: "`gm amend`: `set-hp PIECE HP`, `move SQUAD CELL`, `set-fortress PLAYER HP`, `kill
    PIECE`, `remove-marker ID`"."""
    amend(gm, field, ("set-hp", "w9", "5"), ("move", "s8", "H8"), ("set-fortress", "alice", "60"), ("kill", "r1"))
    gm("resolve", field)
    s = state_file(field, 1)
    assert piece(s, "w9")["hp"] == 5 and squad(s, "s8")["pos"] == "H8"
    assert player(s, "alice")["fortress_hp"] == 60 and "r1" in player(s, "alice")["dead"]
    folder = field
    gm("amend", folder, "remove-marker", "nope", "--reason", "audit", code=1)


def test_remove_marker(gm, tmp_path):
    """spec §2: "`remove-marker ID`"; spec §6: "`pool`: ... markers not on the board"."""
    folder = new(gm, tmp_path, EXAMPLE_SCENARIO)
    gm("amend", folder, "remove-marker", "wl1", "--reason", "audit")
    gm("resolve", folder)
    s = state_file(folder, 1)
    assert [m["id"] for m in s["markers"]] == ["k1"] and player(s, "bob")["pool"]["风墙"] == 2


def test_no_chance_is_used(gm, field, tmp_path):
    """spec §2: "No chance is used": no chance event in a turn's log."""
    play(gm, field, tmp_path, alice_sheet("[{attack: s1, target: s7}]"))
    assert not any(e["type"] in ("chance", "roll") for e in events(field, 1))


def test_demo_reaches_the_end(gm, tmp_path):
    """README: "`gm demo --ruleset NAME` plays another ruleset's bundled scenario to the end";
    spec §6 `winner`: "player, `"draw"` or null", `next` "null when over"; spec §5 "name: standard
    # bundled: the seed's empty start" is the scenario it plays."""
    gm("demo", tmp_path / "d", "--ruleset", "guangying")
    s = status(gm, tmp_path / "d")
    assert s["winner"] in ("alice", "bob", "draw") and s["due"] == []
    assert show(gm, tmp_path / "d")["next"] is None
    assert yaml.safe_load((tmp_path / "d/campaign.yaml").read_text("utf-8"))["scenario"] == "standard"



# --- reactions, deaths, G16-G26 -------------------------------------------------------------

REACT = board("react",
    "{id: s1, owner: alice, pos: C5, members: [{id: w1, class: 战士}]}",
    "{id: s2, owner: bob, pos: C6, members: [{id: w2, class: 战士}]}",
    "{id: s3, owner: bob, pos: E6, members: [{id: w3, class: 战士}]}",
    "{id: s4, owner: alice, pos: H5, members: [{id: b1, class: 野蛮人}, {id: p1, class: 牧师}]}",
    "{id: s5, owner: bob, pos: H6, members: [{id: w5, class: 战士}]}",
    "{id: s6, owner: bob, pos: I5, members: [{id: w6, class: 战士}]}")


def test_opportunity_ambush_sweep_and_surrounded(gm, tmp_path):
    """G17 (借机攻击): "A squad starting a move within 1 of enemy squads takes, as it leaves, each
    one's leader's attack at half power"; G16: passing a cell within 1 of an enemy "draws its
    leader's instant normal attack"; G26 "野蛮人: its attack hits every enemy squad within 1; each
    squadmate loses 3"; G17 "One within 1 of 2+ enemy squads that attacks one takes a half attack
    from each other one after its own"."""
    folder = new(gm, tmp_path, REACT)
    play(gm, folder, tmp_path, alice_sheet("[{move: s1, path: [D5, E5, F5]}, {attack: s4, target: s5}]"))
    s = state_file(folder, 1)
    assert squad(s, "s1")["pos"] == "F5" and piece(s, "w1")["hp"] == 28 - 2 - 4
    assert (piece(s, "w5")["hp"], piece(s, "w6")["hp"]) == (21, 21)
    assert (piece(s, "b1")["hp"], piece(s, "p1")["hp"]) == (20 - 2, 24 - 3)
    kinds = [e.get("kind") for e in events(folder, 1) if e["type"] == "reaction"]
    assert kinds == ["opportunity", "ambush", "surrounded"]
    gm("verify", folder)  # spec §2: as grail-war §2-3 (`gm verify` replays the turn)


def test_deadly_pincer_stops_the_move(gm, tmp_path):
    """G18 (致命夹击): "A move ends in the first passed cell within 1 of 2+ enemy squads"; R11: the
    squads that catch the mover there strike, each once."""
    text = board("pincer",
        "{id: s7, owner: alice, pos: C2, members: [{id: g7, class: 游荡者}]}",
        "{id: s8, owner: bob, pos: B4, members: [{id: w8, class: 战士}]}",
        "{id: s9, owner: bob, pos: D4, members: [{id: w9, class: 战士}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{move: s7, path: [C3, C4, C5, C6]}]"))
    s = state_file(folder, 1)
    assert squad(s, "s7")["pos"] == "C4" and piece(s, "g7")["hp"] == 12


DEATHS = board("deaths",
    "{id: s1, owner: alice, pos: C5, members: [{id: w1, class: 战士}]}",
    "{id: s2, owner: bob, pos: C6, members: [{id: w2, class: 战士, hp: 4}, {id: r2, class: 巡林客}]}",
    "{id: s4, owner: alice, pos: H5, members: [{id: b1, class: 野蛮人}]}",
    "{id: s5, owner: bob, pos: H6, members: [{id: w5, class: 战士}]}",
    extra="standing: {bob: {leader_dies: return}}\nclasses: {野蛮人: {power: 30}}\n")


def test_leader_dies_members_flee(gm, tmp_path):
    """G22: "A dead leader's members fight on (the next leads) or go to hand, per `standing`; these
    (逃跑) cannot be summoned for 5 turns"; spec §6 "`dead`: ids in order of death",
    "`cannot_return_until`: first turn from which a fled piece may be summoned"; G1 "The dead are
    gone"; spec §5 `classes` overrides."""
    folder = new(gm, tmp_path, DEATHS)
    play(gm, folder, tmp_path, alice_sheet("[{attack: s1, target: s2}]"))
    s = state_file(folder, 1)
    bob = player(s, "bob")
    assert bob["dead"] == ["w2"] and [h["id"] for h in bob["in_hand"]] == ["r2"]
    until = bob["in_hand"][0]["cannot_return_until"]
    assert isinstance(until, int) and until > 2
    lines = check(gm, folder, tmp_path, "turn: 2\nplayer: bob\nactions: [{summon: r2, at: C11}]\n")
    assert len(lines) == 1 and "actions[0]" in lines[0]


def test_leader_dies_fight_on(gm, tmp_path):
    """G22 / spec §3 `leader_dies: fight_on`: "the next leads"."""
    folder = new(gm, tmp_path, DEATHS.replace("leader_dies: return", "leader_dies: fight_on"))
    play(gm, folder, tmp_path, alice_sheet("[{attack: s1, target: s2}]"))
    s = state_file(folder, 1)
    assert squad(s, "s2")["members"] == ["r2"] and player(s, "bob")["in_hand"] == []


def test_unyielding_will(gm, tmp_path):
    """G23: "不屈意志: a full-HP leader killed by enemies is left at 1 HP and takes no more damage
    that turn"."""
    folder = new(gm, tmp_path, DEATHS)
    play(gm, folder, tmp_path, alice_sheet("[{attack: s4, target: s5}]"))
    assert piece(state_file(folder, 1), "w5")["hp"] == 1


def test_summon_onto_own_squad_and_penalty(gm, tmp_path):
    """G4: "Onto an own squad ... the piece goes on top, if the squad stays ≤ 3 and holds no
    法师/诗人"; G5: "a squad summoned onto loses the rest ("整个队伍")"."""
    text = board("onto",
        "{id: s1, owner: alice, pos: C2, members: [{id: w1, class: 战士}]}",
        "{id: s2, owner: alice, pos: F3, members: [{id: m1, class: 法师}]}")
    folder = new(gm, tmp_path, text)
    lines = check(gm, folder, tmp_path, alice_sheet("[{summon: 战士, at: F3}]"))
    assert len(lines) == 1 and "actions[0]" in lines[0]
    lines = check(gm, folder, tmp_path, alice_sheet("[{summon: 牧师, at: C2, id: p2}, {move: s1, path: [C3]}]"))
    assert len(lines) == 1 and "actions[1]" in lines[0]
    play(gm, folder, tmp_path, alice_sheet("[{summon: 牧师, at: C2, id: p2}]"))
    s = state_file(folder, 1)
    assert squad(s, "s1")["members"] == ["p2", "w1"] and squad(s, "s1")["actions_left"] == 0


def test_rock_costs_two_and_cannot_end_a_move(gm, tmp_path):
    """G15: "2 into a 岩, which cannot end it ("一共要三点")"; G24 "岩: no stopping in it"."""
    text = board("rock",
        "{id: s1, owner: alice, pos: C2, members: [{id: w1, class: 战士}]}",
        "{id: s2, owner: alice, pos: H2, members: [{id: p1, class: 牧师}]}",
        tail="markers:\n  - {id: k1, kind: 岩, owner: alice, cells: [C3], by: p1}\n")
    folder = new(gm, tmp_path, text)
    assert len(check(gm, folder, tmp_path, alice_sheet("[{move: s1, path: [C3]}]"))) == 1
    assert len(check(gm, folder, tmp_path, alice_sheet("[{move: s1, path: [C3, C4, C5]}]"))) == 1
    play(gm, folder, tmp_path, alice_sheet("[{move: s1, path: [C3, C4]}]"))
    assert squad(state_file(folder, 1), "s1")["pos"] == "C4"


def test_make_rock_and_song(gm, tmp_path):
    """G26: "造岩: on an empty orthogonal neighbour"; "唱诗 (2 chances): own leaders within 2 get +3
    power"; spec §3 `{ability: 造岩, by, at, id}` and "唱诗: by"; spec §6 "`power` includes 变身野兽,
    no temporary bonus"."""
    text = board("song",
        "{id: s1, owner: alice, pos: C5, members: [{id: w1, class: 战士}]}",
        "{id: s2, owner: bob, pos: C6, members: [{id: w2, class: 战士}]}",
        "{id: s3, owner: alice, pos: D4, members: [{id: d1, class: 诗人}]}",
        "{id: s4, owner: alice, pos: H2, members: [{id: p1, class: 牧师}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet(
        "[{ability: 唱诗, by: d1}, {attack: s1, target: s2}, {ability: 造岩, by: p1, at: H3, id: k9}]"))
    s = state_file(folder, 1)
    assert piece(s, "w2")["hp"] == 28 - 7 and piece(s, "w1")["power"] == 4
    rock = next(m for m in s["markers"] if m["id"] == "k9")
    assert (rock["kind"], rock["cells"], rock["by"]) == ("岩", ["H3"], "p1") and piece(s, "p1")["maintaining"] == "k9"
    assert player(s, "alice")["pool"]["岩"] == 3


def test_fireball_splits_and_beast(gm, tmp_path):
    """G26: "火球: an enemy squad within 3, 10 split over its pieces"; G21 "伤害均分: equal shares, the
    remainder resisted"; "变身野兽: +20 HP and max HP, +2 power, for good"."""
    text = board("fire",
        "{id: s1, owner: alice, pos: C3, members: [{id: so, class: 术士}]}",
        "{id: s2, owner: bob, pos: C6, members: [{id: w2, class: 战士}, {id: w3, class: 战士}, {id: w4, class: 战士}]}",
        "{id: s3, owner: alice, pos: H2, members: [{id: d1, class: 德鲁伊}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{ability: 火球, by: so, target: s2}, {ability: 变身野兽, by: d1}]"))
    s = state_file(folder, 1)
    assert [piece(s, x)["hp"] for x in ("w2", "w3", "w4")] == [25, 25, 25]
    d1 = piece(s, "d1")
    assert (d1["hp"], d1["max_hp"], d1["power"], d1["beast"]) == (36, 36, 7, True)


def test_vertical_wind_wall_cells_in_board_order(gm, tmp_path):
    """G26 风墙: "if the line through `at` meets the druid, the wall is `at` and 2 cells beyond";
    spec §3 `orientation: ... # or vertical` (纵向); spec §6 "Marker `cells`: on the board, in board
    order (row, then column)"; G1 pool "2 风墙"; G25 "each piece standing in it loses 2 a turn"."""
    text = board("wall",
        "{id: s1, owner: alice, pos: D5, members: [{id: d1, class: 德鲁伊}]}",
        "{id: s2, owner: bob, pos: H8, members: [{id: w2, class: 战士}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, "回合: 1\n玩家: alice\n行动: [{能力: 风墙, 发动者: d1, 位置: D4, 方向: 纵向}]\n")
    s = state_file(folder, 1)
    wall = next(m for m in s["markers"] if m["kind"] == "风墙")
    assert wall["cells"] == ["D2", "D3", "D4"] and wall["owner"] == "alice" and wall["id"] == "alice-wall1"
    assert player(s, "alice")["pool"]["风墙"] == 1


def test_resolve_skips_what_really_happened_made_impossible(gm, tmp_path):
    """spec §4: "`gm resolve` runs the actions in order on the live board and skips one that what
    really happened made impossible (squad dead ...): event `{"type": "action_skipped", "index": i,
    "reason": CODE}`, shown in the posts" (R30: i from 0). s1's leader (2 HP) dies to the 借机攻击
    of its move (G17), so its attack is skipped."""
    text = board("skip",
        "{id: s1, owner: alice, pos: C5, members: [{id: w1, class: 战士, hp: 2}]}",
        "{id: s2, owner: bob, pos: C6, members: [{id: w2, class: 战士}]}",
        "{id: s3, owner: bob, pos: A4, members: [{id: w3, class: 战士}]}")
    folder = new(gm, tmp_path, text)
    gm("check", folder, sheet(tmp_path, alice_sheet("[{move: s1, path: [B5, B4]}, {attack: s1, target: s3}]")))
    play(gm, folder, tmp_path, alice_sheet("[{move: s1, path: [B5, B4]}, {attack: s1, target: s3}]"))
    s = state_file(folder, 1)
    assert player(s, "alice")["dead"] == ["w1"] and piece(s, "w3")["hp"] == 28
    skipped = [e for e in events(folder, 1) if e["type"] == "action_skipped"]
    assert [e["index"] for e in skipped] == [1] and all(e["reason"] for e in skipped)
    public = (folder / "reports/turn-001/public.md").read_text("utf-8")
    assert "跳过" in public


def test_formation_and_squad_named_by_a_piece(gm, tmp_path):
    """G12 (战阵): "Members sharing the attacker's class attack with it, same action, one hit of the
    summed powers" (two 游荡者: 5 + 5); spec §3 "A squad is named by its id or any of its pieces"
    (`attack: g1`, `target: w2`); G9 "Fractions round down" (a 野蛮人's half power 7 -> 3, G17)."""
    text = board("formation",
                 "{id: s1, owner: alice, pos: C5, members: [{id: g1, class: 游荡者}, {id: g2, class: 游荡者}]}",
                 "{id: s2, owner: bob, pos: C6, members: [{id: w2, class: 战士}]}",
                 "{id: s3, owner: bob, pos: F6, members: [{id: b3, class: 野蛮人}]}",
                 "{id: s4, owner: alice, pos: F5, members: [{id: w4, class: 战士}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{attack: g1, target: w2}, {move: w4, path: [G5, H5]}]"))
    s = state_file(folder, 1)
    assert piece(s, "w2")["hp"] == 28 - 10 and piece(s, "w4")["hp"] == 28 - 3


def test_only_turn_and_player_required(gm, field, tmp_path):
    """spec §3: "Only `turn` and `player` are required" (a pass)."""
    check(gm, field, tmp_path, "turn: 1\nplayer: alice\n", code=0)


def test_second_player_wins_too_in_the_extra_turn_draw(gm, field, tmp_path):
    """G27: "If the first player wins in their own turn, the second plays one more (`pending_win`):
    winning too makes it `"draw"`"."""
    text = FIELD + "  - {id: s9, owner: bob, pos: E3, members: [{id: w0, class: 战士}]}\n"
    folder = new(gm, tmp_path, text, name="draw")
    amend(gm, folder, ("set-fortress", "bob", "5"), ("set-fortress", "alice", "4"))
    play(gm, folder, tmp_path, alice_sheet("[{attack: s4, target: fortress}]"))
    assert state_file(folder, 1)["pending_win"] == "alice"
    play(gm, folder, tmp_path, "turn: 2\nplayer: bob\nactions: [{attack: s9, target: fortress}]\n", "b.yaml")
    s = state_file(folder, 2)
    assert (s["winner"], s["next"], player(s, "alice")["fortress_hp"]) == ("draw", None, 0)


def test_example_precise_strike_by_a_member(gm, tmp_path):
    """spec §3 verbatim: "{attack: s1, target: s7, by: r2, member: p9}"; G11 "Under a 战士 leader a
    member may attack (`by`)"; G26 "精准打击: a 巡林客 attacker names the `member` hit" (r2's power 3
    to p9, not to the leader w9)."""
    text = board("precise",
                 "{id: s1, owner: alice, pos: C5, members: [{id: w1, class: 战士}, {id: r2, class: 巡林客}]}",
                 "{id: s7, owner: bob, pos: C6, members: [{id: w9, class: 战士}, {id: p9, class: 牧师}]}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{attack: s1, target: s7, by: r2, member: p9}]"))
    s = state_file(folder, 1)
    assert (piece(s, "p9")["hp"], piece(s, "w9")["hp"]) == (21, 28)


@pytest.mark.parametrize(("actions", "field_name"), [
    ("[{move: s3, path: [G2]}, {defend: s3}]", "actions[1]"),
    ("[{summon: 战士, at: C4}]", "actions[0].at"),
    ("[{split: [r2], path: [B5], squad: s9}, {split: [r2], path: [B4]}]", "actions[1]"),
], ids=["too-few-chances", "row-beyond-home-not-for-a-warrior", "split-of-a-one-piece-squad"])
def test_check_refuses_more(gm, field, tmp_path, actions, field_name):
    """spec §4 refuses "too few chances", "a bad summon cell" (G4: "游荡者 also the row just beyond"
    home; a 战士 not); G14 离队: "1 or 2 members leave ... as a new squad" (one leaving its squad
    alone is no split)."""
    lines = check(gm, field, tmp_path, alice_sheet(actions))
    assert len(lines) == 1 and field_name in lines[0], lines
    check(gm, field, tmp_path, alice_sheet("[{summon: 游荡者, at: C4}]"), code=0)


@pytest.mark.parametrize(("ident", "key"), [
    ("fortress", "id"), ("warrior", "id"), ("战士", "id"), ("'a b'", "id"), ("a" * 33, "id"),
    ("s7", "id"), ("w1", "id"),
])
def test_new_ids_are_checked(gm, field, tmp_path, ident, key):
    """spec §3: "Ids: 1-32 of `A-Za-z0-9_-`, unique over pieces, squads and markers, not a class or
    `fortress`"."""
    lines = check(gm, field, tmp_path, alice_sheet(f"[{{summon: 战士, at: C2, {key}: {ident}}}]"))
    assert len(lines) == 1 and f"actions[0].{key}" in lines[0]
    check(gm, field, tmp_path, alice_sheet("[{summon: 战士, at: C2, id: " + "a" * 32 + ", squad: New_sq-1}]"), code=0)


def test_unnamed_rock_and_fled_until(gm, tmp_path):
    """spec §3: unnamed new ones get "... `alice-rock<n>` ..."; R1 (the 5 逃跑 turns):
    `cannot_return_until` = the owner's next turn + 10 (bob flees in alice's turn 1: 12)."""
    folder = new(gm, tmp_path, DEATHS + "  - {id: s6, owner: alice, pos: H2, members: [{id: p1, class: 牧师}]}\n")
    play(gm, folder, tmp_path, alice_sheet("[{attack: s1, target: s2}, {ability: 造岩, by: p1, at: H3}]"))
    s = state_file(folder, 1)
    assert [m["id"] for m in s["markers"]] == ["alice-rock1"]
    assert player(s, "bob")["in_hand"][0]["cannot_return_until"] == 12


def test_upkeep_wind_wall_costs_two(gm, tmp_path):
    """G7: "each piece in a 风墙 cell −2" at its owner's upkeep; G25 "each piece standing in it loses
    2 a turn ("依人数每人")"."""
    text = board("wind",
                 "{id: s1, owner: alice, pos: D5, members: [{id: w1, class: 战士}]}",
                 "{id: s2, owner: bob, pos: H8, members: [{id: d2, class: 德鲁伊}]}",
                 tail="markers:\n  - {id: wl1, kind: 风墙, owner: bob, cells: [D5, E5, F5]}\n")
    folder = new(gm, tmp_path, text)
    gm("resolve", folder)
    assert piece(state_file(folder, 1), "w1")["hp"] == 26


def test_check_applies_placements_not_deaths(gm, tmp_path):
    """spec §4: `gm check` "applies only the sheet's own placements (... moves ending at the path's
    end ...), never damage, deaths, reactions": an attack from where a move ends is accepted, and a
    second attack on a squad the first one would kill is accepted too (then skipped at resolution,
    its target dead)."""
    text = board("place",
                 "{id: s1, owner: alice, pos: C3, members: [{id: w1, class: 战士}]}",
                 "{id: s4, owner: alice, pos: B6, members: [{id: g4, class: 游荡者}]}",
                 "{id: s7, owner: bob, pos: C6, members: [{id: w9, class: 战士, hp: 4}]}")
    folder = new(gm, tmp_path, text)
    actions = "[{move: s1, path: [C4, C5]}, {attack: s1, target: s7}, {attack: s4, target: s7}]"
    check(gm, folder, tmp_path, alice_sheet(actions), code=0)
    play(gm, folder, tmp_path, alice_sheet(actions))
    s = state_file(folder, 1)
    assert player(s, "bob")["dead"] == ["w9"] and piece(s, "g4")["hp"] == 20
    assert [e["index"] for e in events(folder, 1) if e["type"] == "action_skipped"] == [2]


@pytest.mark.parametrize(("actions", "field_name"), [
    ("[{ability: 火球, by: so, target: s5}]", "actions[0].by"),
    ("[{ability: 射击, by: r1, target: s4}]", "actions[0].target"),
    ("[{ability: 射击, by: r1, target: s5}]", "actions[0].target"),
], ids=["fireball-with-an-enemy-within-1", "shot-four-cells", "shot-off-line"])
def test_check_refuses_out_of_reach_abilities(gm, tmp_path, actions, field_name):
    """G26: "火球: an enemy squad within 3 ...; not with an enemy within 1"; "射击: same row or column,
    1-3 cells"; spec §4 refuses "a target out of reach"."""
    text = board("reach",
                 "{id: s1, owner: alice, pos: C3, members: [{id: so, class: 术士}]}",
                 "{id: s2, owner: bob, pos: C4, members: [{id: w2, class: 战士}]}",
                 "{id: s3, owner: alice, pos: H2, members: [{id: r1, class: 巡林客}]}",
                 "{id: s4, owner: bob, pos: H6, members: [{id: w4, class: 战士}]}",
                 "{id: s5, owner: bob, pos: F4, members: [{id: w5, class: 战士}]}")
    lines = check(gm, new(gm, tmp_path, text), tmp_path, alice_sheet(actions))
    assert len(lines) == 1 and field_name in lines[0]


MAGE = board("mage",
             "{id: s1, owner: alice, pos: C5, members: [{id: m1, class: 法师}]}",
             "{id: s2, owner: bob, pos: D4, members: [{id: w2, class: 战士}]}")


def test_portal_summon_without_penalty(gm, tmp_path):
    """G26 "开启传送阵: in own home or neutral rows; this turn's summon may go on an orthogonal
    neighbour in own home or neutral rows, no penalty"; G5 "a portal summon has no penalty"; spec §6
    `portal_open` (R4: closed at the turn's end)."""
    folder = new(gm, tmp_path, MAGE)
    play(gm, folder, tmp_path, alice_sheet(
        "[{ability: 开启传送阵, by: m1}, {summon: 战士, at: C6, id: w7}, {move: w7, path: [B6]}]"))
    s = state_file(folder, 1)
    assert piece(s, "w7")["pos"] == "B6" and squad(s, piece(s, "w7")["squad"])["actions_left"] == 1
    assert piece(s, "m1")["portal_open"] is False


def test_summoned_next_to_an_enemy_is_ambushed(gm, tmp_path):
    """G16: "A piece summoned within 1 of enemy squads takes each one's 措手不及"."""
    folder = new(gm, tmp_path, MAGE)
    play(gm, folder, tmp_path, alice_sheet("[{summon: 战士, at: D3, id: w7}]"))
    assert piece(state_file(folder, 1), "w7")["hp"] == 24


@pytest.mark.parametrize(("actions", "ok"), [
    ("[{move: s3, path: [G4, G5]}]", False),
    ("[{move: s3, path: [G4]}]", True),
    ("[{attack: s1, target: s2, by: r1}]", False),
    ("[{ability: 奉献, by: pa, target: g1, amount: 1}]", False),
    ("[{ability: 射击, by: r1, target: s2}]", True),
], ids=["slowest-member", "slowest-member-ok", "member-attack", "guardian-member-ability", "member-ability"])
def test_members_and_squad_speed(gm, tmp_path, actions, ok):
    """G10: "A squad moves at its slowest member's move" (游荡者 5 with a 圣武士 1: 1); G11 "Members
    cannot attack ("一般情况") but may use active abilities ... A 护卫者 member never attacks nor uses
    an ability"."""
    text = board("members",
                 "{id: s1, owner: alice, pos: C5, members: [{id: g1, class: 游荡者}, {id: r1, class: 巡林客}, "
                 "{id: pa, class: 圣武士}]}",
                 "{id: s2, owner: bob, pos: C6, members: [{id: w2, class: 战士}]}",
                 "{id: s3, owner: alice, pos: G3, members: [{id: g3, class: 游荡者}, {id: k3, class: 圣武士}]}")
    lines = check(gm, new(gm, tmp_path, text), tmp_path, alice_sheet(actions), code=0 if ok else 1)
    assert ok or (len(lines) == 1 and "actions[0]" in lines[0])

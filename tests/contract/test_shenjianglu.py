"""Black-box audit of the shenjianglu ruleset against its contract (spec/shenjianglu.md, seed 003).

Only the CLI and the JSON files it writes are used. Each docstring quotes the contract line it
checks (``spec §N``, the S-rules) and, for a point the contract leaves open (§6), the ruling of
``docs/rulings/shenjianglu.md``."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.contract.conftest import alice_sheet, amend, check, events, new, play, sheet, show, state_file, status

# spec §3's example scenario, verbatim.
EXAMPLE_SCENARIO = """\
ruleset: shenjianglu
name: duel
board:                     # a bundled board by name (duel, four, six, eight) or inline:
  width: 7                 # columns A.., rows 1..
  height: 7
  void: []                 # cells of the rectangle not on the board
  thrones: {1: D7, 2: D1}  # 王位 by seat number
  spawns: {1: [C7, E7, D6], 2: [C1, E1, D2]}   # 出兵点 by seat
  facing: {1: N, 2: S}     # each seat's front: N towards row 1, E towards later columns
seats:                     # 1..k, 2 <= k <= 8 and <= thrones
  1: {player: alice, king: 周王, deck: [步卒, 步卒, 弓手], hand: [], graveyard: [], order: []}
  2: {player: bob, faction: 商}   # instead of deck: the bundled faction deck + 4 random neutrals (3.3)
units:                     # optional set pieces already on the board
  - {id: u1, card: 步卒, owner: alice, pos: C5, facing: N, damage: 0, equipment: 铁甲}
  - {id: K2, pos: B1}      # a king's id moves that king
catalogue: {}              # cards added to the bundled sample set (same name replaces)
rules: {mana: 9, draw: 1, initial_hand: 5, draw_limit: 12, empty_deck_loss: 2, odd_mana: 6, odd_draw: 1, neutrals: 4}
"""

LEGAL_DECK = ("deck: [步卒, 步卒, 弓手, 弓手, 周弓兵, 周弓兵, 盾卫, 盾卫, 天雷, 天雷, 火球, 火球, 铁甲, 铁甲, 护心镜], "
              "hand: [步卒, 铁甲, 火球, 天雷, 弓手], graveyard: [护心镜], order: [盾卫, 天雷]")

# The example with a deck that S21 allows, a chosen hand, graveyard and draw order.
EXAMPLE_LEGAL = EXAMPLE_SCENARIO.replace("deck: [步卒, 步卒, 弓手], hand: [], graveyard: [], order: []", LEGAL_DECK)

# The example sheet's whole field: the units it names (a2 alice's archer; b2, b3 bob's foot) and a
# 周王 of 移动力 2 (the sheet walks K1 from D7 via D6 to D5).
SHEET_FIELD = EXAMPLE_LEGAL.replace(
    "  - {id: K2, pos: B1}      # a king's id moves that king\n",
    "  - {id: K2, pos: B1}      # a king's id moves that king\n"
    "  - {id: a2, card: 弓手, owner: alice, pos: B5}\n"
    "  - {id: b2, card: 商兵, owner: bob, pos: D4}\n"
    "  - {id: b3, card: 商兵, owner: bob, pos: B3}\n").replace(
    "catalogue: {}",
    "catalogue:\n  周王: {type: character, role: king, cost: 0, faction: 周, attack: 2, stamina: 12, move: 2, "
    "quality: orange, kind: 王}")

EXAMPLE_SHEET = """\
turn: 1              # resolved turns + 1
player: alice        # must be `next`
actions:             # 行动, done in this order
  - {summon: 步卒, at: C7, id: a1}   # 召唤 at a free own spawn point; id optional
  - {equip: 铁甲, unit: a1}          # 装备 on a unit the card's target allows (default own)
  - {command: K1, to: D5, via: [D6], attack: b2}  # 指挥: optional move (shortest legal route via D6), optional attack
  - {command: a2, skill: 射箭, targets: [b3]}     # active skill, in place: no to/via/attack
  - {cast: 火球, targets: [b2]}      # 法术
"""


def unit(state: dict, uid: str) -> dict | None:
    return next((u for u in state["units"] if u["id"] == uid), None)


def seat(state: dict, player: str) -> dict:
    return next(s for s in state["seats"] if s["player"] == player)




@pytest.fixture
def field(gm, tmp_path):
    return new(gm, tmp_path, SHEET_FIELD)


# --- bundled scenarios and boards ---------------------------------------------------------


@pytest.mark.parametrize(("name", "seats"), [("shenjianglu", 2), ("shenjianglu-4", 4), ("shenjianglu-8", 8)])
def test_bundled_scenarios(gm, tmp_path, name, seats):
    """spec §3: "scenarios `shenjianglu` (2 seats), `shenjianglu-4`, `shenjianglu-8`"; S1 "單數紅隊,
    雙數綠隊"; S2 "Kings start on their thrones (3.4); each player draws 5 from their own deck";
    spec §1: "`gm new` does seat 1's start and draw phases" (seat 1 holds 6)."""
    s = show(gm, new(gm, tmp_path, name))
    assert [x["seat"] for x in s["seats"]] == list(range(1, seats + 1))
    assert [x["team"] for x in s["seats"]] == ["red" if n % 2 else "green" for n in range(1, seats + 1)]
    for x in s["seats"]:
        king = unit(s, f"K{x['seat']}")
        assert king["king"] is True and king["pos"] == s["board"]["thrones"][str(x["seat"])]
        assert x["hand_count"] == (6 if x["seat"] == 1 else 5)
    assert s["next"] == s["seats"][0]["player"] and s["turn"] == 0


def test_six_is_eight_without_seats_seven_and_eight(gm, tmp_path):
    """S22: "Six seats = the eight-seat board without seats 7, 8; units there face the enemy";
    spec §3: "Bundled boards: `duel`, `four`, `eight` (odd thrones facing even ones), `six`"."""
    eight = show(gm, new(gm, tmp_path, "shenjianglu-8", name="e"))["board"]
    seats = "".join(f"  {n}: {{player: p{n}, faction: {'周' if n % 2 else '商'}}}\n" for n in range(1, 7))
    six = show(gm, new(gm, tmp_path, f"ruleset: shenjianglu\nname: six\nboard: six\nseats:\n{seats}"))["board"]
    assert six["thrones"] == {k: v for k, v in eight["thrones"].items() if k not in ("7", "8")}
    assert (six["width"], six["height"]) == (eight["width"], eight["height"])
    fronts = {six["facing"][k] for k in six["facing"]}
    assert len(fronts) == 2 and six["facing"]["1"] != six["facing"]["2"]


def test_duel_board(gm, tmp_path):
    """spec §3 example board: "thrones: {1: D7, 2: D1}", "spawns: {1: [C7, E7, D6], 2: [C1, E1,
    D2]}", "facing: {1: N, 2: S}" (ruling 2: the bundled `duel` is this 7x7 board)."""
    b = show(gm, new(gm, tmp_path, "shenjianglu"))["board"]
    assert (b["width"], b["height"], b["thrones"]) == (7, 7, {"1": "D7", "2": "D1"})
    assert b["spawns"] == {"1": ["C7", "E7", "D6"], "2": ["C1", "E1", "D2"]} and b["facing"] == {"1": "N", "2": "S"}


# --- example scenario ----------------------------------------------------------------------


def test_example_scenario_deck_refused(gm, tmp_path):
    """spec §3: "`gm new` refuses (exit 1, field `seats.N.deck`) one that breaks S21"; S21 "15-50
    cards": the example's three-card deck is refused."""
    r = new(gm, tmp_path, EXAMPLE_SCENARIO, code=1)
    assert "seats.1.deck" in r.output


def test_example_scenario_with_a_legal_deck(gm, tmp_path):
    """spec §3: "`hand` replaces the 5 dealt, `graveyard` starts there, `order` is the top of the
    draw pile after the opening hand (first = next drawn)"; "a king entry in `units` may give any
    of pos"; "A unit without `facing` faces its seat's front"; set piece `equipment: 铁甲`."""
    s = show(gm, new(gm, tmp_path, EXAMPLE_LEGAL))
    alice = seat(s, "alice")
    assert alice["hand"] == ["步卒", "铁甲", "火球", "天雷", "弓手", "盾卫"]  # drew the `order` top
    assert alice["deck"][0] == "天雷" and alice["graveyard"] == ["护心镜"]
    assert alice["deck_count"] == 15 - 5 - 1 - 1 and len(alice["deck"]) == alice["deck_count"]
    assert unit(s, "K2")["pos"] == "B1" and unit(s, "K2")["facing"] == "S"
    u1 = unit(s, "u1")
    assert (u1["owner"], u1["pos"], u1["facing"], u1["equipment"], u1["arrived"]) == ("alice", "C5", "N", "铁甲", 0)
    assert seat(s, "bob")["hand_count"] == 5 and seat(s, "bob")["deck_count"] >= 15 - 5


@pytest.mark.parametrize(("deck", "why"), [
    ("[步卒, 步卒, 步卒, 弓手, 弓手, 周弓兵, 周弓兵, 盾卫, 盾卫, 天雷, 天雷, 火球, 火球, 铁甲, 铁甲]", "步卒"),
    ("[姜尚, 姜尚, 弓手, 弓手, 周弓兵, 周弓兵, 盾卫, 盾卫, 天雷, 天雷, 火球, 火球, 铁甲, 铁甲, 步卒]", "姜尚"),
    ("[商兵, 步卒, 弓手, 弓手, 周弓兵, 周弓兵, 盾卫, 盾卫, 天雷, 天雷, 火球, 火球, 铁甲, 铁甲, 步卒]", "商兵"),
], ids=["three-white", "two-purple", "other-faction"])
def test_deck_rules(gm, tmp_path, deck, why):
    """S21: "15-50 cards of the king's faction or neutral; per name at most 2 white, green or blue,
    1 purple or orange"; refused at `gm new`, exit 1, field `seats.N.deck`."""
    text = EXAMPLE_SCENARIO.replace("deck: [步卒, 步卒, 弓手]", f"deck: {deck}")
    r = new(gm, tmp_path, text, code=1)
    assert "seats.1.deck" in r.output and why in r.output


def test_card_with_unknown_key_refused(gm, tmp_path):
    """spec §3: "Anything else is refused by `gm new`" (a card made of anything but the listed
    primitives)."""
    text = EXAMPLE_LEGAL.replace("catalogue: {}", "catalogue:\n  怪兵: {type: character, cost: 1, faction: neutral, "
                                 "attack: 1, stamina: 1, move: 1, quality: white, teleport: 3}")
    r = new(gm, tmp_path, text, code=1)
    assert "catalogue" in r.output and "teleport" in r.output


def test_catalogue_card_in_the_seeds_words(gm, tmp_path):
    """spec §3: "Cards (keys also in the seed's words: 法力消耗, 阵营, 武力, 体力, 移动力, 品质, 细分类型,
    射程, 生效方式 = `mode`: 主动/自动)"; a scenario card is playable."""
    text = EXAMPLE_LEGAL.replace("catalogue: {}", "catalogue:\n  石兵: {type: character, 法力消耗: 1, 阵营: neutral, "
                                 "武力: 4, 体力: 5, 移动力: 1, 品质: white, 细分类型: 步兵}").replace(
        "hand: [步卒, 铁甲, 火球, 天雷, 弓手]", "hand: [石兵, 铁甲, 火球, 天雷, 弓手]").replace(
        "[步卒, 步卒, 弓手, 弓手,", "[石兵, 步卒, 弓手, 弓手,")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{summon: 石兵, at: E7, id: st}]"))
    st = unit(state_file(folder, 1), "st")
    assert (st["card"], st["attack"], st["stamina"], st["move"], st["arrived"]) == ("石兵", 4, 5, 1, 1)


# --- the example sheet --------------------------------------------------------------------


def test_example_sheet_verbatim(gm, field, tmp_path):
    """spec §2 example sheet, verbatim: summon (S7), equip, command with move and attack (S8, S11,
    S13 "damage = 武力"), an active skill in place (S14), a spell (S9 "then go to the graveyard");
    S15: the counter "is answered with the target's 武力", not for an attack from 2+ cells; S10:
    "Death: damage in one 回合 ≥ 体力"; "Every end phase heals all wounded 將士", kings never."""
    gm("check", field, sheet(tmp_path, EXAMPLE_SHEET, "ex.yaml"))
    play(gm, field, tmp_path, EXAMPLE_SHEET, "ex.yaml")
    s = state_file(field, 1)
    assert (s["turn"], s["next"], s["winner"]) == (1, "bob", None)
    a1 = unit(s, "a1")
    assert (a1["pos"], a1["equipment"], a1["arrived"], a1["facing"]) == ("C7", "铁甲", 1, "N")
    k1 = unit(s, "K1")
    assert k1["pos"] == "D5" and k1["damage"] == 2  # b2's counter (武力 2); kings never recover
    assert unit(s, "b2") is None and seat(s, "bob")["graveyard"] == ["商兵"]
    assert unit(s, "b3")["damage"] == 0  # the shot's 2 healed at the end phase
    alice = seat(s, "alice")
    assert "火球" in alice["graveyard"] and alice["hand"] == ["天雷", "弓手", "盾卫"]
    assert alice["mana"] == 9  # S4: its next turn's mana, the unspent 2 lost
    counters = [e for e in events(field, 1) if e["type"] == "counter"]
    assert [(c["unit"], c["target"], c["amount"]) for c in counters] == [("b2", "K1", 2)]
    gm("verify", field)  # spec §4: "the commitment and `gm verify` prove nothing was re-dealt"


def test_chinese_keys_traditional_and_simplified(gm, field, tmp_path):
    """spec §2: "Keys and values also take the seed's words, traditional or simplified (行動/行动,
    召喚, 指揮, 攻擊, 技能, 目標, 法術, 裝備 ...)"; cells "also `c4`, `C,4`"."""
    text = ("回合: 1\n玩家: alice\n行動:\n  - {召喚: 步卒, 位置: c7, 编号: a1}\n  - {裝備: 铁甲, 人物: a1}\n"
            "  - {指揮: K1, 到: 'D,5', 攻擊: b2}\n  - {指挥: a2, 技能: 射箭, 目標: [b3]}\n  - {法術: 火球, 目标: [b2]}\n")
    play(gm, field, tmp_path, text)
    s = state_file(field, 1)
    assert unit(s, "a1")["equipment"] == "铁甲" and unit(s, "K1")["pos"] == "D5" and unit(s, "b2") is None


def test_summon_without_id(gm, field, tmp_path):
    """spec §2: "a summon without `id` makes `PLAYER-N`, that player's N-th summon: `alice-1`"."""
    play(gm, field, tmp_path, alice_sheet("[{summon: 步卒, at: E7}]"))
    assert unit(state_file(field, 1), "alice-1")["pos"] == "E7"


def test_facing_command(gm, tmp_path):
    """spec §2: "facings 北东南西"; S12: "only skills or spells force a turn": 杨戬's 天眼 `face: back`
    turns its target round; moving never changes facing."""
    text = SHEET_FIELD.replace("  - {id: a2, card: 弓手, owner: alice, pos: B5}",
                               "  - {id: a2, card: 杨戬, owner: alice, pos: B5}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{command: a2, skill: 天眼, targets: [b3]}, {command: u1, to: C4}]"))
    s = state_file(folder, 1)
    assert unit(s, "b3")["facing"] == "N" and unit(s, "u1")["facing"] == "N" and unit(s, "u1")["pos"] == "C4"


# --- state JSON -----------------------------------------------------------------------------

SEAT_KEYS = {"seat": int, "player": str, "team": str, "king": str, "mana": int, "draw": int, "hand": list,
             "hand_count": int, "deck_count": int, "deck": list, "graveyard": list, "out": bool}
UNIT_KEYS = {"id": str, "card": str, "owner": str, "team": str, "king": bool, "pos": str, "facing": str,
             "attack": int, "stamina": int, "move": int, "damage": int, "arrived": int, "can_act": bool}


def test_state_json_paths(gm, field, tmp_path):
    """spec §4: `{"ruleset": "shenjianglu", "turn": 2, "next": "alice", "winner": null, "board": {},
    "seats": [{"seat", "player", "team", "king", "mana", "draw", "hand", "hand_count", "deck_count",
    "deck", "graveyard", "out"}], "units": [{"id", "card", "owner", "team", "king", "pos", "facing",
    "attack", "stamina", "move", "damage", "equipment", "arrived", "can_act"}]}`; "`can_act`: owner
    is `next` and it may still act"."""
    for n in (0, 1):
        if n:
            play(gm, field, tmp_path, EXAMPLE_SHEET)
        s = state_file(field, n)
        assert s == show(gm, field)
        assert s["ruleset"] == "shenjianglu" and isinstance(s["board"], dict) and s["winner"] is None
        for x in s["seats"]:
            for key, kind in SEAT_KEYS.items():
                assert isinstance(x[key], kind), (n, key)
            assert x["hand_count"] == len(x["hand"]) and x["deck_count"] == len(x["deck"])
        for u in s["units"]:
            for key, kind in UNIT_KEYS.items():
                assert isinstance(u[key], kind), (n, u["id"], key)
            assert "equipment" in u
            assert u["can_act"] == (u["owner"] == s["next"] and (u["arrived"] < s["turn"] + 1))
    assert unit(state_file(field, 0), "K1")["can_act"] is True
    assert unit(state_file(field, 1), "b3")["can_act"] is True


def test_player_view_hides_hands_and_decks(gm, field):
    """spec §4: "`--player P` shows every unit (no fog) but omits other players' `hand` key and
    every `deck`, P's own included"."""
    full = show(gm, field)
    mine = show(gm, field, "alice")
    assert "hand" in seat(mine, "alice") and "hand" not in seat(mine, "bob")
    assert all("deck" not in x for x in mine["seats"])
    assert seat(mine, "bob")["hand_count"] == seat(full, "bob")["hand_count"]
    assert [u["id"] for u in mine["units"]] == [u["id"] for u in full["units"]]


def test_hidden_hand_does_not_change_the_other_view_or_post(gm, tmp_path):
    """spec §4 "Fairness: ... no player learns a deck order"; spec §1 private posts: "own hand,
    deck count, cards drawn". Two games differing only in bob's hand and draw order: alice's view
    and alice's private post are the same."""
    deck = ("deck: [商兵, 商兵, 商弩手, 商弩手, 象兵, 象兵, 飞廉, 飞廉, 落石, 落石, 祭祀, 祭祀, 青铜戟, 青铜戟, 八卦仙衣]")
    one = EXAMPLE_LEGAL.replace("2: {player: bob, faction: 商}",
                                f"2: {{player: bob, king: 商王, {deck}, hand: [商兵, 商兵, 落石, 落石, 祭祀], order: [象兵]}}")
    two = EXAMPLE_LEGAL.replace("2: {player: bob, faction: 商}",
                                f"2: {{player: bob, king: 商王, {deck}, hand: [飞廉, 飞廉, 商弩手, 象兵, 青铜戟], order: [落石]}}")
    a, b = new(gm, tmp_path, one, name="a"), new(gm, tmp_path, two, name="b")
    gm("resolve", a)
    gm("resolve", b)
    assert show(gm, a, "alice") == show(gm, b, "alice")
    assert (a / "reports/turn-001/alice.md").read_text("utf-8") == (b / "reports/turn-001/alice.md").read_text("utf-8")
    assert (a / "reports/turn-001/public.md").read_text("utf-8") == (b / "reports/turn-001/public.md").read_text("utf-8")
    assert "象兵" in (a / "reports/turn-001/bob.md").read_text("utf-8")


# --- gm check refusals (spec §2) ------------------------------------------------------------


@pytest.mark.parametrize(("actions", "field_name"), [
    ("[{summon: 步卒, at: C7}, {summon: 弓手, at: E7}, {cast: 火球, targets: [b2]}, {cast: 天雷, targets: [b2]}]",
     "actions.4.cast"),
    ("[{command: K1, to: D6}, {command: K1, to: D5}]", "actions.2.command"),
    ("[{summon: 步卒, at: C7, id: a1}, {command: a1, to: C6}]", "actions.2.command"),
    ("[{command: a2, skill: 射箭, targets: [K2]}]", "actions.1.targets"),
    ("[{command: K1, to: D6, attack: u1}]", "actions.1.attack"),
    ("[{cast: 女娲, targets: [b2]}]", "actions.1.cast"),
    ("[{summon: 步卒, at: C1}]", "actions.1.at"),
    ("[{command: a2, to: B4, skill: 射箭, targets: [b3]}]", "actions.1"),
    ("[{command: u1, to: D4}]", "actions.1.to"),
    ("[{command: u1, attack: b3}]", "actions.1.attack"),
], ids=["over-budget", "acting-twice", "arrival-turn", "out-of-range", "own-unit", "not-in-hand",
        "not-own-spawn", "skill-after-move", "occupied-destination", "attack-not-adjacent"])
def test_check_refuses_one_line_each(gm, field, tmp_path, actions, field_name):
    """spec §2: "`gm check` plays the sheet in order ... and refuses, exit 1, every action illegal at
    its point, one line each: file, `actions[i].FIELD` (i from 1), what is wrong, what is allowed
    (over budget, a unit acting twice or on its arrival turn, a route through an enemy, a target
    out of range ...)"; S8 "an active skill in place (3.11.2 不能在移動後使用)"; S13 "never one's
    own"; S7 "Summon only at a free own spawn point"."""
    lines = check(gm, field, tmp_path, alice_sheet(actions))
    assert len(lines) == 1, lines
    assert field_name in lines[0] and "check.yaml" in lines[0]


def test_check_refuses_a_route_through_an_enemy(gm, field, tmp_path):
    """spec §2: refuses "a route through an enemy"; S11: "through own and allied units, never
    enemies" (C4 holds bob's foot: C5 -> C3 within 移动力 2 only through it)."""
    gm("amend", field, "move", "b3", "C4", "--reason", "audit")
    lines = check(gm, field, tmp_path, alice_sheet("[{command: u1, to: C3}]"))
    assert len(lines) == 1 and "actions.1.to" in lines[0]
    check(gm, field, tmp_path, alice_sheet("[{command: u1, to: B4}]"), code=0)  # past own a2 at B5


def test_check_refuses_a_player_not_next(gm, field, tmp_path):
    """spec §1: "anyone else's sheet is refused by `gm check` (field `player`)"."""
    lines = check(gm, field, tmp_path, "turn: 1\nplayer: bob\nactions: []\n")
    assert len(lines) == 1 and "player" in lines[0]


def test_a_later_action_on_a_unit_killed_earlier(gm, field, tmp_path):
    """spec §2: refuses "a unit dead earlier" (b2 dies to K1's attack and the 火球; a second 天雷
    on it is refused at its index)."""
    lines = check(gm, field, tmp_path, alice_sheet(
        "[{command: K1, to: D5, attack: b2}, {cast: 火球, targets: [b2]}, {cast: 天雷, targets: [b2]}]"))
    assert len(lines) == 1 and "actions.3" in lines[0]


# --- turns ------------------------------------------------------------------------------------


def test_missing_sheet_is_a_pass(gm, field):
    """spec §1: "No sheet = a pass"; "`gm resolve` resolves exactly one turn ... then the next
    seat's start and draw phases"."""
    st = status(gm, field)
    assert st["due"] == ["alice"] and st["passes"] == ["alice"]
    before = show(gm, field)
    assert "passed: alice" in gm("resolve", field, "--lang", "en").output
    s = state_file(field, 1)
    assert (s["turn"], s["next"]) == (1, "bob")
    assert [(u["id"], u["pos"]) for u in s["units"]] == [(u["id"], u["pos"]) for u in before["units"]]
    assert seat(s, "bob")["hand_count"] == seat(before, "bob")["hand_count"] + 1
    assert seat(s, "alice")["hand"] == seat(before, "alice")["hand"]


def test_draw_event_only_for_its_player(gm, field):
    """spec §1: "private — own hand, deck count, cards drawn": the card bob draws is told to bob
    only."""
    gm("resolve", field)
    drawn = [e for e in events(field, 1) if e.get("card") and e["type"] == "drawn"]
    assert drawn and all(e["to"] == ["bob"] for e in drawn)


def test_template_lists_hand_mana_spawns_units(gm, field, tmp_path):
    """spec §1: "`gm template`: hand with costs, mana, free spawn points, units that may act with
    reachable cells and targets"; the template passes `gm check`."""
    text = gm("template", field, "alice").output
    for word in ("步卒(2)", "火球(3)", "9", "C7", "E7", "D6", "K1", "a2", "b3"):
        assert word in text, word
    gm("check", field, sheet(tmp_path, text, "t.yaml"))


def test_twelve_cards_no_draw_and_empty_deck_penalty(gm, tmp_path):
    """S5: "none when holding ≥ 12 at turn start (摸牌限制); nothing to draw: the king loses 2 体力
    每次 (無牌懲罰)". Bob holds 12 of his 15 and 3 in the deck: no draw; alice's deck (15 - 5 - 10
    in the graveyard) is empty: at her next draw K1 loses 2."""
    bob_deck = "[商兵, 商兵, 商弩手, 商弩手, 象兵, 象兵, 飞廉, 飞廉, 落石, 落石, 祭祀, 祭祀, 青铜戟, 青铜戟, 八卦仙衣]"
    text = EXAMPLE_LEGAL.replace(
        "2: {player: bob, faction: 商}",
        f"2: {{player: bob, king: 商王, deck: {bob_deck}, hand: [商兵, 商兵, 商弩手, 商弩手, 象兵, 象兵, 飞廉, 飞廉, "
        "落石, 落石, 祭祀, 祭祀]}").replace(
        "graveyard: [护心镜], order: [盾卫, 天雷]", "graveyard: [护心镜, 步卒, 弓手, 周弓兵, 周弓兵, 盾卫, 盾卫, 天雷, 火球, 铁甲]")
    folder = new(gm, tmp_path, text)
    s0 = show(gm, folder)
    assert seat(s0, "alice")["deck_count"] == 0 and unit(s0, "K1")["damage"] == 2  # seat 1's first draw
    gm("resolve", folder)
    s1 = state_file(folder, 1)
    assert seat(s1, "bob")["hand_count"] == 12 and seat(s1, "bob")["deck_count"] == 3
    gm("resolve", folder)
    assert unit(state_file(folder, 2), "K1")["damage"] == 4


def test_odd_players_smaller_team_bonus(gm, tmp_path):
    """S6: "With 3, 5 or 7 players the smaller team's players get +6 mana and +1 draw"; spec §4
    "`mana` for its open or next turn (9; 15 by S6); `draw` per draw phase"."""
    text = ("ruleset: shenjianglu\nname: three\nboard: four\nseats:\n  1: {player: a, faction: 周}\n"
            "  2: {player: b, faction: 商}\n  3: {player: c, faction: 周}\n")
    s = show(gm, new(gm, tmp_path, text))
    assert [(x["team"], x["mana"], x["draw"]) for x in s["seats"]] == [("red", 9, 1), ("green", 15, 2), ("red", 9, 1)]


def test_last_king_killed_wins_at_once(gm, field, tmp_path):
    """S17: "A king killed puts its player out: units and hand to their graveyard"; S18: "A team
    wins when every enemy king is dead ... The game ends at once"; spec §4 `winner` `red`, `next`
    null, `out`, "`hand` is then `[]`"; later actions are skipped (`action.skipped`)."""
    amend(gm, field, ("set-damage", "K2", "10"), ("move", "K2", "B2"))
    play(gm, field, tmp_path, alice_sheet("[{command: a2, skill: 射箭, targets: [K2]}, {summon: 步卒, at: C7}]"))
    s = state_file(field, 1)
    assert (s["winner"], s["next"]) == ("red", None)
    bob = seat(s, "bob")
    assert bob["out"] is True and bob["hand"] == [] and not [u for u in s["units"] if u["owner"] == "bob"]
    before = seat(state_file(field, 0), "bob")
    # his king (spec §4: the dead go to the owner's graveyard), his hand, and b2 b3 on the board
    cards = ["商王"] + before["hand"] + before["graveyard"] + ["商兵", "商兵"]
    assert sorted(bob["graveyard"]) == sorted(cards)
    skipped = [e for e in events(field, 1) if e["type"] == "action.skipped"]
    assert [e["index"] for e in skipped] == [2]
    assert unit(s, "alice-1") is None


def test_gm_edits(gm, field):
    """spec: "amendments ... are those of grail-war.md" (per game, docs/shenjianglu.md: set-damage,
    move, face); each opens the next turn's public post with its reason."""
    gm("amend", field, "set-damage", "K2", "3", "--reason", "算错了")
    gm("amend", field, "move", "u1", "E5", "--reason", "算错了")
    gm("amend", field, "face", "u1", "E", "--reason", "算错了")
    gm("resolve", field)
    s = state_file(field, 1)
    assert unit(s, "K2")["damage"] == 3 and unit(s, "u1")["pos"] == "E5" and unit(s, "u1")["facing"] == "E"
    assert "算错了" in (field / "reports/turn-001/public.md").read_text("utf-8")


def test_shuffles_are_gm_only_events(gm, tmp_path):
    """spec §4: "decks are shuffled (and 3.3 neutrals dealt) at `gm new` by the campaign's seeded
    generator, each shuffle a GM-only event"; "There is no other chance": `gm verify` replays."""
    folder = new(gm, tmp_path, "shenjianglu")
    gm("resolve", folder)
    logged = [e for n in (0, 1) if (folder / f"log/turn-{n:03d}.jsonl").exists() for e in events(folder, n)]
    shuffles = [e for e in logged if e["type"] == "chance" or "shuffle" in e["type"]]
    # both seats name a faction: each has its neutrals dealt and its deck shuffled
    assert len(shuffles) >= 2, "no shuffle event recorded for the decks shuffled at gm new"
    assert all(e["to"] != "all" and "alice" not in e["to"] and "bob" not in e["to"] for e in shuffles)
    assert not any(e["type"] == "chance" for e in events(folder, 1) if e.get("op") != "shuffle")
    gm("verify", folder)


def test_demo_reaches_the_end(gm, tmp_path):
    """README: "`gm demo --ruleset NAME` plays another ruleset's bundled scenario to the end";
    spec §4 `winner`: "`red`, `green`, `draw` or null", `next` "null when over"; spec §3 "scenarios
    `shenjianglu` (2 seats), ..." (the two-seat duel is the one played)."""
    gm("demo", tmp_path / "d", "--ruleset", "shenjianglu")
    s = status(gm, tmp_path / "d")
    assert s["winner"] in ("red", "green", "draw") and s["due"] == []
    assert show(gm, tmp_path / "d")["next"] is None
    assert yaml.safe_load((tmp_path / "d/campaign.yaml").read_text("utf-8"))["scenario"] == "shenjianglu"



# --- S9, S10, S15, S18 ----------------------------------------------------------------------


def test_counter_only_the_first_attack_and_death_within_a_turn(gm, tmp_path):
    """S15: "a unit answers at most the first attack it receives in a turn (最多只反擊第一次)"; S10:
    "Death: damage in one 回合 ≥ 体力" (two attacks of 2 on a 商兵 of 体力 3); "Every end phase
    heals all wounded 將士" (the countered 步卒 ends with 0 damage); S17/spec §4 "the dead go to the
    owner's graveyard"."""
    text = SHEET_FIELD.replace("  - {id: b3, card: 商兵, owner: bob, pos: B3}\n",
                               "  - {id: b3, card: 商兵, owner: bob, pos: B3}\n"
                               "  - {id: a3, card: 步卒, owner: alice, pos: E4}\n")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{command: a3, attack: b2}, {command: u1, to: C4, attack: b2}]"))
    s = state_file(folder, 1)
    assert unit(s, "b2") is None and seat(s, "bob")["graveyard"] == ["商兵"]
    assert unit(s, "a3")["damage"] == 0 and unit(s, "u1")["damage"] == 0
    counters = [e for e in events(folder, 1) if e["type"] == "counter"]
    assert [(c["unit"], c["target"]) for c in counters] == [("b2", "a3")]


def test_new_equipment_replaces_the_old(gm, field, tmp_path):
    """S9: "one equipment per unit: a new one, or the unit's death, sends it to the graveyard";
    spec §2 `{equip: 铁甲, unit: a1}`."""
    play(gm, field, tmp_path, alice_sheet("[{equip: 铁甲, unit: u1}]"))
    s = state_file(field, 1)
    assert unit(s, "u1")["equipment"] == "铁甲"
    assert "铁甲" in seat(s, "alice")["graveyard"] and "铁甲" not in seat(s, "alice")["hand"]


def test_last_kings_dying_together_is_a_draw(gm, field, tmp_path):
    """S15: "both land at once, even if one kills"; S18: "the last kings dying together is a draw
    (平局)"; spec §4 `winner` "`draw`"."""
    amend(gm, field, ("set-damage", "K2", "10"), ("set-damage", "K1", "9"), ("move", "K2", "D6"))
    play(gm, field, tmp_path, alice_sheet("[{command: K1, attack: K2}]"))
    s = state_file(field, 1)
    assert (s["winner"], s["next"]) == ("draw", None)


def test_unspent_mana_is_lost_and_mana_is_nine(gm, field, tmp_path):
    """S4: "固定的9點法力值 each turn, paid by 法力消耗 (3.7); unspent mana is lost"."""
    play(gm, field, tmp_path, alice_sheet("[{summon: 步卒, at: C7}]"))
    gm("resolve", field)
    s = state_file(field, 2)
    assert seat(s, "alice")["mana"] == 9 and s["next"] == "alice"
    lines = check(gm, field, tmp_path, alice_sheet(
        "[{cast: 火球, targets: [b2]}, {cast: 天雷, targets: [b3]}, {summon: 弓手, at: E7}, {equip: 铁甲, unit: u1}]",
        turn=3))
    assert len(lines) == 1 and "actions.4" in lines[0]  # 3 + 3 + 3 spent the 9


def test_resolve_rechecks_a_sheet_an_edit_made_illegal(gm, field, tmp_path):
    """spec §2: "`gm resolve` re-checks sheets on the turn's starting state (GM edits included) and
    refuses, exit 1, one an edit made illegal"."""
    gm("submit", field, sheet(tmp_path, alice_sheet("[{command: u1, to: C3}]")))
    gm("amend", field, "move", "b3", "C3", "--reason", "audit")
    r = gm("resolve", field, "--lang", "en", code=1)
    assert "actions.1" in r.output
    assert not (field / "state/turn-001.json").exists()


def test_skipped_action_told_in_the_public_post(gm, field, tmp_path):
    """spec §2: "An action made impossible only during resolution (the game ended earlier in the
    sheet, S18) is skipped: an `action.skipped` event with index and reason, told in the public
    post"."""
    amend(gm, field, ("set-damage", "K2", "10"), ("move", "K2", "B2"))
    play(gm, field, tmp_path, alice_sheet("[{command: a2, skill: 射箭, targets: [K2]}, {summon: 步卒, at: C7}]"))
    skipped = [e for e in events(field, 1) if e["type"] == "action.skipped"]
    assert len(skipped) == 1 and skipped[0]["index"] == 2 and skipped[0]["reason"]
    public = (field / "reports/turn-001/public.md").read_text("utf-8")
    assert "跳过" in public or "skipped" in public


def test_public_post_tells_kings_stamina(gm, field, tmp_path):
    """spec §1: "Posts: public — every summon, move, attack, counter, damage, death, card played,
    kings' 体力"; K1 took b2's counter of 2: 10 of 12 left."""
    play(gm, field, tmp_path, EXAMPLE_SHEET)
    public = (field / "reports/turn-001/public.md").read_text("utf-8")
    assert "10/12" in public and "12/12" in public
    for word in ("步卒", "铁甲", "火球", "射箭"):
        assert word in public, word


@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_bots(gm, bots):
    """spec §1: "Bots `random`, `greedy`" (`gm simulate` plays whole games with them)."""
    report = json.loads(gm("simulate", "shenjianglu", "--games", "2", "--bots", bots, "--json").output)
    assert report["ruleset"] == "shenjianglu" and sum(report["outcomes"].values()) == 2


def test_king_entry_gives_damage_and_facing(gm, tmp_path):
    """spec §3: "a king entry in `units` may give any of pos, facing, damage"; spec §4 "`damage`:
    ... for a king, all it has lost"."""
    text = SHEET_FIELD.replace("  - {id: K2, pos: B1}      # a king's id moves that king",
                               "  - {id: K2, pos: B1, damage: 3, facing: E}")
    k2 = unit(show(gm, new(gm, tmp_path, text)), "K2")
    assert (k2["pos"], k2["facing"], k2["damage"], k2["stamina"]) == ("B1", "E", 3, 12)


def test_equipment_on_an_enemy_refused(gm, field, tmp_path):
    """spec §2: "{equip: 铁甲, unit: a1}  # 装备 on a unit the card's target allows (default own)"."""
    lines = check(gm, field, tmp_path, alice_sheet("[{equip: 铁甲, unit: b3}]"))
    assert len(lines) == 1 and "actions.1.unit" in lines[0]


def test_trigger_key_on_refused(gm, tmp_path):
    """spec §3: "Triggers (auto skills): `when: arrive|start|end|death` ... (never a key `on`: YAML 1.1
    reads it as `true`)"; "Anything else is refused by `gm new`"."""
    text = SHEET_FIELD.replace("catalogue:\n", "catalogue:\n  怪兵: {type: character, cost: 1, faction: neutral, "
                               "attack: 1, stamina: 1, move: 1, quality: white, skills: [{name: 到, mode: auto, "
                               "on: arrive, target: self, effects: [{draw: 1}]}]}\n")
    r = new(gm, tmp_path, text, code=1)
    assert "catalogue" in r.output


def test_hand_card_not_in_the_deck_refused(gm, tmp_path):
    """spec §3: "`hand`, `graveyard`, `order` name cards of that deck"."""
    r = new(gm, tmp_path, EXAMPLE_LEGAL.replace("hand: [步卒, 铁甲, 火球, 天雷, 弓手]", "hand: [步卒, 铁甲, 火球, 天雷, 哪吒]"),
            code=1)
    assert "seats.1.hand" in r.output


@pytest.mark.parametrize(("text", "where"), [
    (alice_sheet("[{summon: 步卒, at: C7, cast: 火球}]"), "actions.1"),
    ("turn: 2\nplayer: alice\nactions: []\n", "turn"),
], ids=["two-verbs", "wrong-turn"])
def test_malformed_sheets(gm, field, tmp_path, text, where):
    """spec §2: "An action has exactly one of `summon`, `command`, `cast`, `equip`"; "turn: 5  #
    resolved turns + 1"."""
    lines = check(gm, field, tmp_path, text)
    assert len(lines) == 1 and f"{where}:" in lines[0]


@pytest.mark.parametrize("seats", [1, 3])
def test_seat_count_within_thrones(gm, tmp_path, seats):
    """spec §3: "seats: # 1..k, 2 <= k <= 8 and <= thrones" (the duel board has 2 thrones)."""
    rows = "".join(f"  {n}: {{player: p{n}, faction: {'周' if n % 2 else '商'}}}\n" for n in range(1, seats + 1))
    r = new(gm, tmp_path, f"ruleset: shenjianglu\nname: x\nboard: duel\nseats:\n{rows}", code=1)
    assert "seats" in r.output


def test_out_seats_are_skipped(gm, tmp_path):
    """S1: "seat 1 first, then 按順序 (3.6); out seats are skipped"; S17 "A king killed puts its player
    out: units and hand to their graveyard"; spec §4 "`out` (its king died; `hand` is then `[]`)".
    In a four-seat game seat 2's king dies (a GM edit) before seat 1's turn: seat 3 follows seat 1."""
    folder = new(gm, tmp_path, "shenjianglu-4")
    players = [x["player"] for x in show(gm, folder)["seats"]]
    amend(gm, folder, ("set-damage", "K2", "12"))
    gm("resolve", folder)
    s = state_file(folder, 1)
    assert s["next"] == players[2] and unit(s, "K2") is None
    second = seat(s, players[1])
    assert second["out"] is True and second["hand"] == [] and second["hand_count"] == 0


def test_refusals_in_both_languages(gm, field, tmp_path):
    """Team rule / spec §2 "what is wrong, what is allowed": Chinese by default, English with
    `--lang en` (an over-budget cast names the cost and what is left)."""
    text = sheet(tmp_path, alice_sheet(
        "[{summon: 步卒, at: C7}, {summon: 弓手, at: E7}, {cast: 火球, targets: [b2]}, {cast: 天雷, targets: [b2]}]"), "l.yaml")
    en = gm("check", field, text, "--lang", "en", code=1).output
    zh = gm("check", field, text, code=1).output
    assert "actions.4.cast" in en and "mana" in en and "1" in en
    assert "actions.4.cast" in zh and "法力" in zh and "mana" not in zh


def test_a_card_that_cannot_take_effect_is_spent(gm, tmp_path):
    """spec §3: "A card that cannot take effect (a heal on a king, damage to an immune unit) is
    still played and spent"; `immune: spell` (妲己's 妖身); S19 "skill > spell"; S9 spells "then go to
    the graveyard"."""
    text = SHEET_FIELD.replace("{id: b3, card: 商兵, owner: bob, pos: B3}", "{id: b3, card: 妲己, owner: bob, pos: B3}")
    folder = new(gm, tmp_path, text)
    play(gm, folder, tmp_path, alice_sheet("[{cast: 火球, targets: [b3]}, {summon: 弓手, at: E7}, {summon: 步卒, at: C7}]"))
    s = state_file(folder, 1)
    assert unit(s, "b3") is not None and "火球" in seat(s, "alice")["graveyard"]
    assert [e["unit"] for e in events(folder, 1) if e["type"] == "damage"] == []
    assert unit(s, "alice-1")["pos"] == "E7" and unit(s, "alice-2")["pos"] == "C7"  # 3 + 3 + 2 mana
    gm("rollback", folder, "--to", "0")
    lines = check(gm, folder, tmp_path, alice_sheet(
        "[{cast: 火球, targets: [b3]}, {summon: 弓手, at: E7}, {summon: 步卒, at: C7}, {equip: 铁甲, unit: u1}]"))
    assert len(lines) == 1 and "actions.4" in lines[0]  # the spent 火球's 3 count: 3 + 3 + 2 + 2 > 9


def test_allied_units_may_be_attacked_and_counter(gm, tmp_path):
    """S13: "Normal attack: an adjacent enemy or allied unit, never one's own (3.11.1); damage =
    武力"; S15: "a damaging attack on an adjacent unit of another player (allies too) is answered
    with the target's 武力"; S1 "單數紅隊, 雙數綠隊" (seats 1 and 3 are allies)."""
    text = ("ruleset: shenjianglu\nname: allies\nboard: four\nseats:\n  1: {player: alice, faction: 周}\n"
            "  2: {player: bob, faction: 商}\n  3: {player: carol, faction: 周}\n  4: {player: dave, faction: 商}\n"
            "units:\n  - {id: a1, card: 步卒, owner: alice, pos: F5}\n  - {id: c1, card: 盾卫, owner: carol, pos: F4}\n")
    folder = new(gm, tmp_path, text)
    s0 = show(gm, folder)
    assert unit(s0, "a1")["team"] == unit(s0, "c1")["team"] == "red"
    play(gm, folder, tmp_path, alice_sheet("[{command: a1, attack: c1}]"))
    counters = [e for e in events(folder, 1) if e["type"] == "counter"]
    assert [(c["unit"], c["target"], c["amount"]) for c in counters] == [("c1", "a1", 1)]
    damage = {e["unit"]: e["damage"] for e in events(folder, 1) if e["type"] == "damage"}
    assert damage == {"c1": 1, "a1": 1}  # 步卒's 2 less 盾卫's 坚守 (reduce 1); 盾卫's counter 1


def test_occupied_spawn_point_refused(gm, field, tmp_path):
    """S7: "Summon only at a free own spawn point (2 若出兵點上有人，則此點不能出兵)"."""
    amend(gm, field, ("move", "u1", "C7"))
    lines = check(gm, field, tmp_path, alice_sheet("[{summon: 步卒, at: C7}]"))
    assert len(lines) == 1 and "actions.1.at" in lines[0]
    check(gm, field, tmp_path, alice_sheet("[{summon: 步卒, at: E7}]"), code=0)

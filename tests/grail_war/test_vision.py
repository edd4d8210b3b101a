"""DATC-style cases for vision (R7, R6 vision strongholds, ruling M18), and property tests: a
player's view (and private post) never changes when anything outside their vision changes."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tool.core.grid import cell_name, parse_cell, square
from gm_tool.rulesets.grail_war import RULESET
from gm_tool.rulesets.grail_war.model import KINDS
from tests.grail_war.map_kit import C, S, place, scenario, setup, stronghold

WIDE = ["." * 14] * 9


def names(cells) -> list[str]:
    return sorted((cell_name(c) for c in cells), key=lambda n: (len(n), n))


def seen_ids(state: dict, player: str) -> list[str]:
    return [c["id"] for c in RULESET.view(state, player)["characters"]]


def test_r7_own_vision_is_the_5x5_square():
    """seed l.226 "视野你可以获得情报的范围,一般都为2": a player sees the 5x5 square around their character
    (clipped by the map's edge), and an enemy 3 cells away is not seen."""
    s = setup(WIDE, [C("r", "SABER", "red", "E5"), C("b", "SABER", "blue", "H5"), C("n", "SABER", "blue", "G6")])
    v = RULESET.view(s, "r")
    assert v["visible"] == names(square(parse_cell("E5"), 2, 14, 9))
    assert seen_ids(s, "r") == ["r", "n"]
    edge = setup(WIDE, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "N9")])
    assert RULESET.view(edge, "r")["visible"] == names(square((0, 0), 2, 14, 9)) and len(square((0, 0), 2, 14, 9)) == 9


def test_r6_vision_stronghold_adds_its_5x5():
    """seed l.45 "8.4功能类型4：占据此据点可额外获得战场视野,以此据点为中心5X5方格内": a side holding a vision
    stronghold sees around it from anywhere."""
    s = setup(WIDE, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "L8")], [S(1, "K7", "vision", "red")])
    v = RULESET.view(s, "r")
    assert set(names(square(parse_cell("K7"), 2, 14, 9))) <= set(v["visible"])
    assert "b" in seen_ids(s, "r")
    assert "r" not in seen_ids(s, "b")


def test_r6_bridge_gives_7x7():
    """seed l.47 "8.6据点9新都大桥：占据此据点可额外获得以此为中心7X7的战场视野": 3 cells around the bridge."""
    s = setup(WIDE, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "N9")], [S(9, "H5", "bridge", "red")])
    v = set(RULESET.view(s, "r")["visible"])
    assert set(names(square(parse_cell("H5"), 3, 14, 9))) <= v and "E5" in v and "D5" not in v


def test_r7_stronghold_vision_is_the_holders_only():
    """seed l.41 "据点内你的视野不会增加或减少，除非是具有功能类型4的据点": standing in a vision stronghold one
    does not hold adds nothing; a hand stronghold one holds adds nothing either."""
    s = setup(WIDE, [C("r", "SABER", "red", "E5"), C("b", "SABER", "blue", "N9")],
              [S(1, "E5", "vision", "blue"), S(2, "K2", "hand", "red")])
    assert RULESET.view(s, "r")["visible"] == names(square(parse_cell("E5"), 2, 14, 9))


def test_r7_allies_do_not_share_vision():
    """seed l.4 "每回合结束后每人将获得自己的视野（不同）想要增加视野就只能通过私下的情报交换了": an ally sees an
    enemy; the other player of the same side does not."""
    s = setup(WIDE, [C("r1", "SABER", "red", "A1"), C("r2", "SABER", "red", "J5"), C("b", "SABER", "blue", "K6")])
    assert "b" in seen_ids(s, "r2") and "b" not in seen_ids(s, "r1") and "r2" not in seen_ids(s, "r1")


def test_m18_a_destroyed_or_closed_vision_stronghold_shows_nothing():
    """seed l.15 "被破坏的据点虽然丧失了据点的功能" and l.228 "GM有权对地图和据点进行限制" (rulings M17, M20)."""
    s = setup(WIDE, [C("r", "SABER", "red", "A1"), C("b", "SABER", "blue", "L8")], [S(1, "K7", "vision", "red")])
    stronghold(s, 1)["destroyed"] = True
    assert "b" not in seen_ids(s, "r")
    stronghold(s, 1)["destroyed"], stronghold(s, 1)["closed"] = False, True
    assert "b" not in seen_ids(s, "r")


def test_m18_inside_the_tunnel_one_sees_only_oneself_and_is_seen_by_nobody():
    """seed l.12 "隧道内玩家只能看见自己，丧失视野": inside, a player sees no cell (not even their side's vision
    stronghold) and nobody sees them, not an enemy at the mouth."""
    s = setup(WIDE, [C("r", "SABER", "red", "A9"), C("b", "SABER", "blue", "A8")], [S(1, "K7", "vision", "red")],
              tunnels=[{"mouths": ["A9", "N1"], "length": 3}])
    place(s, r="A10")
    v = RULESET.view(s, "r")
    assert v["visible"] == [] and [c["id"] for c in v["characters"]] == ["r"]
    assert "r" not in seen_ids(s, "b")


def test_r7_gm_show_player_json_holds_only_that(gm, tmp_path):
    """seed l.4 "每回合结束后每人将获得自己的视野": `gm show --player P --json` on the Fuyuki scenario: alice
    (A4) sees emiya (B5) and cu_chulainn (A6), not her ally gawain 3 cells away, and no one's hand
    but her own."""
    d = tmp_path / "c"
    gm("new", d, "--scenario", "fuyuki", "--seed", "v")
    v = json.loads(gm("show", d, "--player", "alice", "--json").output)
    assert [c["id"] for c in v["characters"]] == ["artoria", "emiya", "cu_chulainn"]
    hands = {c["id"]: c["hand"] for c in v["characters"]}
    assert hands["emiya"] is None and len(hands["artoria"]) == 6
    assert "deck" not in v and "equipment_pile" not in v


# ------------------------------------------------------------------------------------ properties
def random_state(rng: random.Random, into_tunnels: bool = True) -> dict:
    """A small random state: terrain, strongholds with random kinds and owners, up to a tunnel,
    2-7 characters of 2-4 players (some inside the tunnel, some dead), hands dealt by the setup."""
    w, h = rng.randint(4, 9), rng.randint(3, 7)
    rows = ["".join(rng.choice("......^#~") for _ in range(w)) for _ in range(h)]
    cells = [(x, y) for y in range(h) for x in range(w)]
    rng.shuffle(cells)
    n = rng.randint(2, min(7, len(cells) - 4))
    players = [f"p{i}" for i in range(rng.randint(2, 4))]
    chars = []
    for i in range(n):
        player = players[i % len(players)]
        chars.append(C(f"c{i}", rng.choice(["SABER", "CASTER", "RIDER", "LANCER"]), ["red", "blue"][players.index(player) % 2],
                       cell_name(cells[i]), player=player))
        del chars[-1]["hand"]
    strongholds = []
    for j, cell in enumerate(cells[n:n + rng.randint(0, 3)]):
        rows[cell[1]] = rows[cell[1]][:cell[0]] + "." + rows[cell[1]][cell[0] + 1:]
        strongholds.append(S(j + 1, cell_name(cell), rng.choice(KINDS), rng.choice([None, "red", "blue"])))
    tunnels = []
    spare = [c for c in cells[n + 3:] if rows[c[1]][c[0]] != "~"]
    if len(spare) >= 2 and rng.random() < 0.6:
        tunnels = [{"mouths": [cell_name(spare[0]), cell_name(spare[1])], "length": rng.randint(1, 3)}]
    state = RULESET.setup(scenario(rows, chars, strongholds, tunnels), "t.yaml", str(rng.random()))
    for c in state["characters"]:
        if tunnels and into_tunnels and rng.random() < 0.2:
            c["pos"] = cell_name((rng.randrange(tunnels[0]["length"]), h))
        if rng.random() < 0.15:
            c["alive"] = False
    return state


def perturb(state: dict, player: str, rng: random.Random, into_tunnels: bool = True) -> tuple[dict, str]:
    """A copy of ``state`` changed only outside what ``player`` may see."""
    s = json.loads(json.dumps(state))
    seen = set(RULESET.view(state, player)["visible"])
    w, h = s["map"]["width"], s["map"]["height"]
    hidden_cells = [cell_name((x, y)) for y in range(h) for x in range(w) if cell_name((x, y)) not in seen]
    for t, tunnel in enumerate(s["map"]["tunnels"] if into_tunnels else []):
        hidden_cells += [cell_name((k, h + t)) for k in range(tunnel["length"])]
    others = [c for c in s["characters"] if c["player"] != player]
    unseen = [c for c in others if c["pos"] not in seen]
    what = rng.choice(["move", "hp", "kill", "remove", "equip", "hands", "deck"])
    if what in ("move", "hp", "kill", "remove", "equip") and unseen:
        c = rng.choice(unseen)
        if what == "move" and hidden_cells:
            c["pos"] = rng.choice(hidden_cells)
        elif what == "hp":
            c["hp"] = rng.randint(1, c["max_hp"])
        elif what == "kill":
            c["alive"] = not c["alive"]
        elif what == "remove":
            s["characters"].remove(c)
        else:
            c["equipment"]["weapon"] = "七夜"
            c["equipment_cards"]["weapon"] = {"id": 9999, "name": "七夜", "suit": "spades", "rank": 1}
    elif what == "hands" and others:
        c = rng.choice(others)
        c["hand"] = c["hand"][1:] + s["deck"]["draw_pile"][:1]
    else:
        rng.shuffle(s["deck"]["draw_pile"])
        rng.shuffle(s["equipment_pile"])
        what = "deck"
    return s, what


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_views_ignore_everything_outside_vision(seed):
    """seed l.4 "每回合结束后每人将获得自己的视野（不同）" and l.262 "除你之外的人都不能看到你的手牌" (R7): for random
    states, a player's view is the same whatever changes outside their vision (positions, HP, life,
    equipment and presence of unseen characters; anyone else's hand; the deck)."""
    rng = random.Random(seed)
    state = random_state(rng)
    player = rng.choice(RULESET.players(state))
    changed, what = perturb(state, player, rng)
    assert RULESET.view(changed, player) == RULESET.view(state, player), what


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_private_posts_ignore_unseen_places_and_hands(seed):
    """seed l.4 "想要增加视野就只能通过私下的情报交换了" (R7): a player's private post is the same when unseen
    characters move or anyone else's hand or the deck changes."""
    from tests.conftest import grail_posts as posts

    rng = random.Random(seed)
    state = random_state(rng, into_tunnels=False)  # see test_m16_posts_of_a_character_inside_a_tunnel
    player = rng.choice(RULESET.players(state))
    changed, what = perturb(state, player, rng, into_tunnels=False)
    if what in ("kill", "remove", "hp", "equip"):  # deaths and the fallen are public (G2)
        return
    before, after = dict(state, turn=0), dict(state, turn=1)
    before2, after2 = dict(changed, turn=0), dict(changed, turn=1)
    mine = posts(before, after, [], "zh")[player]
    theirs = posts(before2, after2, [], "zh")[player]
    assert {k: mine[k] for k in ("bbcode", "md")} == {k: theirs[k] for k in ("bbcode", "md")}, what


def test_m16_posts_of_a_character_inside_a_tunnel():
    """seed l.12 "隧道内玩家只能看见自己" (ruling M16): a turn that ends with a character inside the tunnel
    renders its posts; the reader's post says where it is without drawing it on the map."""
    from tests.conftest import grail_posts as posts
    from tests.grail_war.map_kit import sheet, turn

    s = setup(WIDE, [C("r", "SABER", "red", "A9"), C("b", "SABER", "blue", "N1")],
              tunnels=[{"mouths": ["A9", "N9"], "length": 3}])
    res = turn(s, sheet(s, "r", to="B10"))
    out = posts(s, res.state, res.events, "zh")
    assert "海底隧道内（B10）" in out["r"]["md"]
    assert "B10" not in out["b"]["md"] and "B10" not in out["public"]["md"]

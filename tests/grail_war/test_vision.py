"""Vision (R7, R6 vision strongholds, ruling M18) where it is not a rule case: `gm show --player P
--json` on the bundled scenario, and property tests: a player's view (and private post) never
changes when anything outside their vision changes. The rule cases are data:
tests/grail_war/cases/vision.yaml."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tool.core.grid import cell_name
from gm_tool.rulesets.grail_war import RULESET
from gm_tool.rulesets.grail_war.model import KINDS
from tests.grail_war.map_kit import C, S, scenario


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

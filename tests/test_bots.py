"""Built-in bots: every sheet they write passes parse_orders, on played and on scrambled states;
the greedy bot attacks, heals and takes strongholds."""

from __future__ import annotations

import random

import pytest

from gm_tool import app as ops
from gm_tool.core import ruleset as registry
from gm_tool.core.chance import Chance
from gm_tool.core.grid import cell_name, manhattan, parse_cell
from gm_tool.rulesets.grail_war import bots, cards
from gm_tool.rulesets.grail_war.model import RIVER

RS = registry.get("grail_war")


def _state(scenario: str, seed: str = "b") -> dict:
    data, source = ops.load_scenario(scenario)
    return RS.setup(data, source, seed)


def _scramble(state: dict, rng: random.Random) -> dict:
    """A random but well-formed state: HP, positions (respecting cell capacity), owners, equipment,
    heal cooldowns, hand sizes."""
    s = {**state, "characters": [dict(c) for c in state["characters"]],
         "strongholds": [dict(x) for x in state["strongholds"]]}
    m = s["map"]
    ground = [(x, y) for y in range(m["height"]) for x in range(m["width"]) if m["rows"][y][x] != RIVER]
    taken: dict = {}
    equipment = [n for n in cards.all_names() if cards.is_equipment(n)]
    for i, c in enumerate(s["characters"]):
        c["hp"] = rng.randint(1, c["max_hp"])
        c["alive"] = rng.random() > 0.15
        while True:
            pos = rng.choice(ground)
            group = taken.setdefault(pos, [])
            if len(group) < 4 and sum(1 for side in group if side == c["side"]) < 2:
                group.append(c["side"])
                break
        c["pos"] = cell_name(pos)
        c["hand"] = c["hand"][: rng.randint(0, len(c["hand"]))]
        c["healed_turn"] = rng.choice([None, 0])
        slots = {"weapon": None, "armor": None}
        for k, name in enumerate(rng.sample(equipment, 2)):
            slot = cards.slot_of(name)
            if rng.random() < 0.5:
                slots[slot] = {"id": 5000 + 10 * i + k, "name": name, "suit": None, "rank": None}
        c["equipment_cards"] = slots
        c["equipment"] = {k: (v["name"] if v else None) for k, v in slots.items()}
    for x in s["strongholds"]:
        x["owner"] = rng.choice([None, *s["sides"]])
    return s


@pytest.mark.parametrize("kind", bots.KINDS)
@pytest.mark.parametrize("scenario", ["skirmish", "fuyuki"])
def test_bot_sheets_always_parse(scenario, kind):
    rng = random.Random(f"{scenario}-{kind}")
    base = _state(scenario)
    checked = 0
    for k in range(25):
        state = _scramble(base, rng) if k else base
        chance = Chance("bots", f"{scenario}-{kind}-{k}")
        for player in RS.due(state):
            sheet = RS.bot_sheet(state, player, kind, chance)
            assert isinstance(sheet, dict) and sheet["player"] == player
            orders = RS.parse_orders(state, sheet, f"{player}.yaml", "en")  # raises on any problem
            assert orders.player == player
            checked += 1
    assert checked > 50


def test_bot_sheets_parse_along_played_games():
    state = _state("fuyuki", "played")
    for turn in range(1, 9):
        chance = Chance("played", f"bots-{turn}")
        orders = {p: RS.parse_orders(state, RS.bot_sheet(state, p, ("random", "greedy")[turn % 2], chance), p, "en")
                  for p in RS.due(state)}
        state = RS.resolve(state, orders, "played").state
    assert state["turn"] == 8


def test_random_bot_uses_the_whole_sheet():
    """Across many states the random bot writes waypoints, teleports, keep lists, 出杀/出闪 lists,
    magic and equipment choices — not just a move."""
    rng = random.Random(7)
    base = _state("skirmish")
    seen: set[str] = set()
    for k in range(60):
        state = _scramble(base, rng)
        chance = Chance("cover", str(k))
        for player in RS.due(state):
            sheet = RS.bot_sheet(state, player, "random", chance)
            RS.parse_orders(state, sheet, player, "en")
            seen.update(sheet)
            move = sheet.get("move") or {}
            if "via" in move:
                seen.add("move.via")
            if move.get("special") == "teleport":
                seen.add("move.teleport")
    assert {"keep", "strike_order", "dodge_order", "magic", "equipment", "use_curse", "gem",
            "move", "move.via", "move.teleport"} <= seen


def _place(state: dict, **where: str) -> dict:
    for c in state["characters"]:
        if c["id"] in where:
            c["pos"] = where[c["id"]]
    return state


def _greedy_turn(state: dict) -> dict:
    chance = Chance("g", "bots")
    orders = {p: RS.parse_orders(state, RS.bot_sheet(state, p, "greedy", chance), p, "en") for p in RS.due(state)}
    return RS.resolve(state, orders, "g")


def _char(state: dict, cid: str) -> dict:
    return next(c for c in state["characters"] if c["id"] == cid)


def test_greedy_attacks_a_visible_enemy_in_reach():
    """Moves are simultaneous: it walks where the enemy, walking too, is likeliest met (G3 next to
    mordred on G4, on his way wherever he goes), and they fight this turn."""
    state = _place(_state("skirmish"), artoria="A3", gawain="E4", medea="H3", mordred="G4")
    sheet = RS.bot_sheet(state, "bob", "greedy", Chance("g", "x"))
    assert sheet["move"]["to"] == "G3"
    result = _greedy_turn(state)
    fights = [e for e in result.events if e["type"] == "fight"]
    assert any("gawain" in e["fighters"] and "mordred" in e["fighters"] for e in fights)


def test_greedy_heals_on_a_heal_point_when_nobody_is_in_sight():
    state = _place(_state("skirmish"), artoria="C3", gawain="A1", medea="H3", mordred="H6")
    for s in state["strongholds"]:
        if s["id"] == 1:  # 柳洞寺 A1, heal
            s["owner"] = "red"
    _char(state, "gawain")["hp"] = 1
    sheet = RS.bot_sheet(state, "bob", "greedy", Chance("g", "x"))
    assert "move" not in sheet and sheet["gem"] == "self_first"
    after = _greedy_turn(state).state  # healed at the end of the turn
    assert _char(after, "gawain")["pos"] == "A1" and _char(after, "gawain")["hp"] == 2


def test_greedy_takes_strongholds():
    """Vision points first: seeing nobody, it heads for the neutral bridge 新都大桥 D4 (it shows 7x7
    cells to the whole side) rather than the enemy's card point 远坂邸 B5 next to it."""
    state = _place(_state("skirmish"), artoria="A3", gawain="A6", medea="H3", mordred="H6")
    next(s for s in state["strongholds"] if s["id"] == 2)["owner"] = "blue"
    to = parse_cell(RS.bot_sheet(state, "bob", "greedy", Chance("g", "x"))["move"]["to"])
    assert to == parse_cell("B4")  # the way to 新都大桥 D4 (a vision point, 7x7), not onto B5


def test_greedy_takes_the_card_point_before_a_heal_point():
    """Its side holding the vision points and the bridge, it takes the enemy's card point (远坂邸 B5)
    before the neutral heal point (柳洞寺 A1); standing on it, it stays the turn that takes it. (The
    enemies stand where neither vision point shows them.)"""
    state = _place(_state("skirmish"), artoria="A3", gawain="A6", medea="H4", mordred="H6")
    for s in state["strongholds"]:
        s["owner"] = {2: "blue", 3: "red", 4: "red", 5: "red"}.get(s["id"])
    first = _greedy_turn(state).state
    bob = _char(first, "gawain")
    assert parse_cell(bob["pos"]) == parse_cell("B5")
    second = _greedy_turn(first).state
    assert _char(second, "gawain")["pos"] == "B5"
    assert next(s for s in second["strongholds"] if s["id"] == 2)["owner"] == "red"


def test_greedy_finishes_a_capture_when_no_enemy_can_be_met_this_turn():
    """On the untaken 远坂邸 B5 with medea in sight (through its side's bridge) but too far to meet
    this turn, it stays to take B5; B5 already its side's, it walks at her."""
    state = _place(_state("skirmish"), artoria="A3", gawain="B5", medea="G1", mordred="H6")
    for s in state["strongholds"]:
        s["owner"] = {5: "red"}.get(s["id"])
    assert "move" not in RS.bot_sheet(state, "bob", "greedy", Chance("g", "x"))
    next(s for s in state["strongholds"] if s["id"] == 2)["owner"] = "red"
    to = parse_cell(RS.bot_sheet(state, "bob", "greedy", Chance("g", "x"))["move"]["to"])
    assert manhattan(to, parse_cell("G1")) < manhattan(parse_cell("B5"), parse_cell("G1"))


def test_greedy_pushes_out_from_its_side_towards_the_far_strongholds():
    """Holding nothing, a character looks for the enemy at the far strongholds (nearer first, but a step
    away from home counts three times): gawain on A6 heads east, not to 远坂邸 B5 next to it."""
    state = _place(_state("skirmish"), artoria="A3", gawain="A6", medea="H3", mordred="H6")
    first = _greedy_turn(state).state
    assert parse_cell(_char(first, "gawain")["pos"])[0] > parse_cell("B5")[0]


def test_greedy_hunts_whatever_its_hp():
    """Walking home to heal made greedy fuyuki games run out of turns: hurt or not, it hunts."""
    state = _place(_state("skirmish"), artoria="C3", gawain="C4", medea="E4", mordred="H6")
    for s in state["strongholds"]:
        if s["id"] == 1:  # 柳洞寺 A1, heal
            s["owner"] = "red"
    moves = []
    for hp in (4, 2, 1):
        _char(state, "gawain")["hp"] = hp
        moves.append(RS.bot_sheet(state, "bob", "greedy", Chance("g", "x"))["move"]["to"])
    assert moves == ["F4"] * 3  # past medea on E4, where she is likeliest met: not home to 柳洞寺 A1


@pytest.mark.parametrize("scenario", ["skirmish", "fuyuki"])
def test_bot_orders_equal_sheets_then_parse_orders(scenario):
    """The simulator's one-conversion path gives exactly the Orders of bot_sheet + parse_orders."""
    rng = random.Random(f"eq-{scenario}")
    base = _state(scenario)
    for k in range(12):
        state = _scramble(base, rng) if k else base
        kinds = {p: ("random", "greedy")[i % 2] for i, p in enumerate(RS.due(state))}
        fast = RS.bot_orders(state, kinds, Chance("eq", str(k)))
        slow_chance = Chance("eq", str(k))
        slow = {p: RS.parse_orders(state, RS.bot_sheet(state, p, kind, slow_chance), p, "en")
                for p, kind in kinds.items()}
        assert fast == slow
        assert list(fast) == list(kinds)

"""Random-play conformance (issue 4): thousands of seeded random legal sheets over many turns
never crash the fight engine and keep its invariants:

- HP ≤ max HP; a character is dead exactly when its HP is 0 and it holds no card;
- no card in two places, and draw pile + discard pile + hands + equipment zones + equipment
  pile is always the whole deck;
- every sheet is legal (it passes the real order parser, as `gm check` would).

Engine level: random cells of 2-4 roster servants with random hands, equipment and HP, fought
over several turns (hand limit from the random keep list first, as resolve does). Pipeline
level: whole fuyuki turns through resolve with the bots' random and greedy sheets.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.rulesets.grail_war import cards as catalog
from gm_tool.rulesets.grail_war import hands, orders
from gm_tool.rulesets.grail_war.combat import Fight
from gm_tool.rulesets.grail_war.combat import skills as skilldefs
from gm_tool.rulesets.grail_war.model import Game

from .combat_kit import ROSTER, F, all_cards, build

STRIKE = ["enemy", "skill", "magic", "对敌人出杀", "对魔术牌出杀"]
DODGE = ["strike", "skill", "magic", "对杀出闪", "对技能出闪"]
ZONES = ["weapon", "armor", "hand", "武器", "手牌"]
BASIC = ["杀", "闪", "宝石", "咒"]
DECKISH = BASIC * 4 + [n for n in catalog.all_names() if catalog.kind_of()[n] == "magic"]


def random_sheet(rng: random.Random, game: Game, cid: str) -> dict:
    c = game.character(cid)
    names = [x.name for x in c.hand]
    sheet: dict = {}
    if rng.random() < 0.8:
        sheet["keep"] = rng.sample(names, rng.randint(0, len(names)))
    if c.skills:
        skill: dict = {"use": rng.random() < 0.8}
        active = [s for s in skilldefs.of(c.skills) if s.trigger == "active"]
        need = active[0].cost.get("discard", 0) if active else 0
        if need and len(names) >= need and rng.random() < 0.5:
            skill["discard"] = rng.sample(names, need)
        sheet["skill"] = skill
    sheet["target_priority"] = rng.choice(["more_hp", "more_cards", "血多的优先"])
    for key, pool, conv in (("strike_order", STRIKE, ("正式外典", "佩耳修斯之剑")), ("dodge_order", DODGE, ("正式外典",))):
        entries: list = []
        for against in rng.sample(pool, rng.randint(0, 3)):
            e: dict = {"against": against}
            if rng.random() < 0.4:
                e["count"] = rng.randint(1, 3)
            vias = [v for v in conv if c.equipped(v)]
            if vias and rng.random() < 0.5:
                e["via"] = rng.choice(vias)
            entries.append(e)
        if rng.random() < 0.3:
            entries.insert(rng.randint(0, len(entries)), "none")
        sheet[key] = entries
    sheet["use_curse"] = rng.random() < 0.5
    sheet["gem"] = rng.choice(["self_first", "ally_first", "never", "救队友优先"])
    sheet["magic"] = {"use": rng.random() < 0.85, "zone_priority": rng.sample(ZONES[:3], rng.randint(1, 3)),
                      "hand_size": rng.choice(["more", "fewer"])}
    eq = {}
    for slot in ("weapon", "armor"):
        item = c.equipment[slot]
        if item is not None and rng.random() < 0.7:
            eq[item.name] = {"use": rng.random() < 0.7, "zones": rng.sample(["equipment", "hand"], rng.randint(1, 2))}
    sheet["equipment"] = eq
    return sheet


def check_invariants(game: Game, whole: Counter) -> None:
    ids = all_cards(game)
    assert Counter(ids) == whole, "a card is lost, duplicated or in two places"
    for c in game.characters:
        assert c.hp <= c.max_hp, c.id
        assert c.max_hp >= 1
        if c.alive:
            assert c.hp >= 1, c.id
        else:
            assert c.hp == 0 and not c.hand and not any(c.equipment.values()), c.id
        for slot, item in c.equipment.items():
            assert item is None or catalog.slot_of(item.name) == slot


def random_turns(game: Any, rng: random.Random, turns: int, seed: str, stream: str,
                 tweak: Callable[[dict[str, Any]], None] | None = None) -> Iterator[tuple[list[Any], dict[str, Any], EventLog, Chance]]:
    """Turns of one fight on random sheets, while two sides live: each yields the living, their
    parsed sheets (``tweak`` may edit a sheet first), the turn's log and chance (stream
    ``stream`` + turn), hand limits applied; the caller runs the fight."""
    for turn in range(turns):
        alive = [c for c in game.characters if c.alive]
        if len({c.side for c in alive}) < 2:
            return
        game.turn = turn
        parsed = {}
        for c in alive:
            sheet = {"turn": turn + 1, "player": c.player, **random_sheet(rng, game, c.id)}
            if tweak is not None:
                tweak(sheet)
            parsed[c.player] = orders.parse(game, sheet, f"{c.id}.yaml", "en")
        log = EventLog()
        chance = Chance(seed, f"{stream}{turn}", log)
        hands.apply_limit(game, parsed, log)
        yield alive, parsed, log, chance


def one_campaign(seed: int, turns: int) -> int:
    rng = random.Random(seed)
    ids = rng.sample(sorted(ROSTER), rng.choice([2, 3, 3, 4]))
    weapons = [n for n in catalog.all_names() if catalog.slot_of(n) == "weapon"]
    armors = [n for n in catalog.all_names() if catalog.slot_of(n) == "armor"]
    rng.shuffle(weapons)
    rng.shuffle(armors)
    fs = []
    for i, cid in enumerate(ids):
        side = "red" if i % 2 == 0 else "blue"
        w, a = weapons.pop(), armors.pop()
        fs.append(F(cid, side, [rng.choice(DECKISH) for _ in range(rng.randint(0, 7))],
                    hp=rng.randint(1, ROSTER[cid]["hp"]), max_hp=ROSTER[cid]["hp"], weapon=w if rng.random() < 0.6 else None,
                    armor=a if rng.random() < 0.6 else None, skills=None))
    game, _ = build(*fs, draw=2, filler=40)
    whole = Counter(all_cards(game))
    sheets_checked = 0
    for alive, parsed, log, chance in random_turns(game, rng, turns, f"{seed}", "turn-"):
        sheets_checked += len(parsed)
        for c in alive:
            assert len(c.hand) <= c.hand_limit()
        Fight(game, (0, 0), alive, parsed, log, chance).run()
        check_invariants(game, whole)
        assert all(e["to"] == "all" or e.get("cells") or isinstance(e["to"], list) for e in log.events)
    return sheets_checked


@pytest.mark.parametrize("block", range(8))
def test_random_fights_keep_invariants(block):
    """Seed 002 l.51: HP never above the maximum; l.247-250: cards move between deck, hands,
    equipment and discard pile only. 8 blocks x 60 campaigns x up to 8 turns."""
    total = sum(one_campaign(block * 1000 + k, 8) for k in range(60))
    assert total > 300


def test_pipeline_turns_with_bots(tmp_path):
    """Whole fuyuki turns through resolve with the bots' sheets: fights happen and the whole
    deck is conserved across turns."""
    from gm_tool.app import load_scenario
    from gm_tool.rulesets.grail_war import bots
    from gm_tool.rulesets.grail_war.resolve import resolve
    from gm_tool.rulesets.grail_war.scenario import build as build_scenario

    scenario, _ = load_scenario("fuyuki")
    state = build_scenario(scenario, "fuyuki.yaml", "conf").to_state()
    game = Game.from_state(state)
    whole = Counter(all_cards(game))
    fights = 0
    for n in range(1, 31):
        if state.get("winner") is not None:
            break
        g = Game.from_state(state)
        chance = Chance("conf", f"bots-{n}")
        parsed = {}
        for p in g.players():
            if not any(c.alive for c in g.of_player(p)):
                continue
            sheet = bots.sheet(state, p, "greedy" if n % 3 else "random", chance)
            try:
                parsed[p] = orders.parse(g, sheet, f"{p}.yaml", "en")
            except Exception:  # a bot's movement the movement rules refuse: stay
                parsed[p] = orders.default(g, p)
        result = resolve(state, parsed, "conf")
        state = result.state
        fights += sum(1 for e in result.events if e["type"] == "fight")
        check_invariants(Game.from_state(state), whole)
    assert fights > 0

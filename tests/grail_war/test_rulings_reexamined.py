"""Rulings C3 and C8 re-examined against the seed's text (issue 14), where the check is not a rule
case: a property over random fights (C3) and the scenario switch as `gm new` reads it (C8). The
re-examined rule cases are data: tests/grail_war/cases/combat-reexamined.yaml (C3, C8, C16) and
movement.yaml (M16f-M16j)."""

from __future__ import annotations

import json
import random

from gm_tool.rulesets.grail_war import cards as catalog
from gm_tool.rulesets.grail_war.combat import Fight

from .combat_kit import ROSTER, F, build


# C3 ------------------------------------------------------------------------------------------------
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

"""Cards as a scenario writes them (spec §5: 'A card is a name, or a name with suit and rank'):
hands and the deck's top order are read the same way as sheets, with the same reasons."""

from __future__ import annotations

import pytest

from gm_tool.errors import GmError
from gm_tool.rulesets.grail_war import RULESET
from gm_tool.rulesets.grail_war.model import Game

BASE = {"ruleset": "grail_war", "map": {"width": 3, "height": 1, "rows": ["..."]},
        "characters": [{"id": "a", "class": "SABER", "side": "red", "player": "p1", "pos": "A1"},
                       {"id": "b", "class": "SABER", "side": "blue", "player": "p2", "pos": "C1"}]}


def problems(scenario: dict) -> str:
    with pytest.raises(GmError) as err:
        RULESET.setup(scenario, "t.yaml", "s")
    return err.value.render("en")


def test_hand_and_deck_order_accept_the_seeds_spellings():
    """seed l.124-125 writes 万法尽破 for 万法破尽: a scenario may too, with or without suit and rank."""
    sc = {**BASE, "characters": [dict(BASE["characters"][0], hand=["万法尽破", "闪 ♥2"]), dict(BASE["characters"][1], hand=[])],
          "deck": {"order": ["杀", "宝石"]}}
    game = Game.from_state(RULESET.setup(sc, "t.yaml", "s"))
    assert [c.label for c in game.character("a").hand][1] == "闪 ♥2"
    assert game.character("a").hand[0].name == "万法破尽"
    assert [c.name for c in game.deck.draw_pile[-2:]] == ["宝石", "杀"]  # first listed is on top


def test_unknown_malformed_and_equipment_cards_are_refused_with_their_field():
    sc = {**BASE, "characters": [dict(BASE["characters"][0], hand=["火球", "七夜", {"suit": "hearts"}]),
                                 BASE["characters"][1]],
          "deck": {"order": ["龙", "杀 ♠99"]}}
    text = problems(sc)
    assert "characters[0].hand[0]: there is no card named '火球'" in text
    assert "characters[0].hand[1]: there is no card named '七夜'" in text  # equipment: only from strongholds
    assert "characters[0].hand[2]: unrecognised card" in text
    assert "deck.order[0]: there is no card named '龙'" in text
    assert "deck.order[1]: unrecognised card" in text

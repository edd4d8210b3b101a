"""The scenario's ``rules:`` of 神将录, declared once for the core (``gm_tool.core.rules``): the
seed's numbers, and the house rules, readings a group may change, each with the seed's reading as
its default and the seed line it reads (docs/rulings/shenjianglu.md; words under labels.rules)."""

from __future__ import annotations

from typing import Any

from gm_tool.core.rules import Switch

SWITCHES: tuple[Switch, ...] = (
    Switch("mana", 9, minimum=0, maximum=99, seed="l.103"),
    Switch("draw", 1, minimum=0, maximum=9, seed="l.111"),
    Switch("initial_hand", 5, minimum=0, maximum=50, seed="l.95"),
    Switch("draw_limit", 12, minimum=1, maximum=99, seed="l.207"),
    Switch("empty_deck_loss", 2, minimum=0, maximum=99, seed="l.209"),
    Switch("odd_mana", 6, minimum=0, maximum=99, seed="l.223"),
    Switch("odd_draw", 1, minimum=0, maximum=9, seed="l.223"),
    Switch("neutrals", 4, minimum=0, maximum=20, seed="l.87"),
    # house rules (ruling 5, 13, 15, 16, 11)
    Switch("counter", "first_attack", ("first_attack", "first_counterable"), seed="l.181", house=True),
    Switch("neutral_pool", "shared", ("shared", "per_seat"), seed="l.87", house=True),
    Switch("odd_bonus", "players_in", ("players_in", "at_start"), seed="l.223", house=True),
    Switch("empty_deck_penalty", "per_turn", ("per_turn", "per_draw"), seed="l.209", house=True),
    Switch("captives", "graveyard", ("graveyard", "release"), seed="l.49", house=True),
)
RULES: dict[str, Any] = {s.name: s.default for s in SWITCHES}
HOUSE_RULINGS = {"counter": 5, "neutral_pool": 13, "odd_bonus": 15, "empty_deck_penalty": 16, "captives": 11}

"""The scenario's ``rules:`` knobs (spec §5), declared once (gm_tool.core.rules): each default is
the seed's own reading, and the core lists them, worded from data/messages.yaml (labels.rules),
in the public opening post. ``magic_play`` is a house rule: a contested reading (ruling C8)."""

from __future__ import annotations

from gm_tool.core.rules import Switch

MAX_RULE = 9999  # the largest integer knob (ruling O10: a turn resolves in seconds)

SWITCHES: tuple[Switch, ...] = (
    Switch("vision", 2, minimum=0, maximum=MAX_RULE, seed="l.229, R7"),
    Switch("initial_hand", 6, minimum=0, maximum=MAX_RULE, seed="l.56, R8"),
    Switch("combat_draw", 2, minimum=0, maximum=MAX_RULE, seed="l.58, R8"),
    Switch("cell_capacity", 4, minimum=0, maximum=MAX_RULE, seed="l.3, R1"),
    Switch("side_capacity", 2, minimum=0, maximum=MAX_RULE, seed="l.3, R1"),
    Switch("heal_cooldown", 5, minimum=0, maximum=MAX_RULE, seed="l.44, R6"),
    Switch("stronghold_vision", 2, minimum=0, maximum=MAX_RULE, seed="l.45, R6"),
    Switch("bridge_vision", 3, minimum=0, maximum=MAX_RULE, seed="l.47, R6"),
    Switch("teleport_range", 5, minimum=0, maximum=MAX_RULE, seed="l.153, R4"),
    Switch("territory_after", None, choices=(None,), minimum=0, maximum=MAX_RULE, seed="l.228, G5"),
    Switch("decks", "auto", choices=("auto",), minimum=1, maximum=10, seed="l.56, l.248, C33"),
    Switch("magic_play", "always", choices=("always", "helpful"), seed="l.107, C8", house=True),
)

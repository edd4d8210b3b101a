"""The scenario's ``rules:`` switches of 光与影: contested readings a group may turn, each with the
seed's reading as its default (shown in the opening post). Kept as plain data so they move as
they are to the core's switch declaration (``RulesetBase.switches``) once it is on main.

Each entry: name -> (default, allowed values, seed line). The readings are rulings R8 and R32
of ``docs/rulings/guangying.md``.
"""

from __future__ import annotations

from typing import Any

SWITCHES: dict[str, tuple[Any, tuple[Any, ...], str]] = {
    # R8: moving into an own squad's cell joins it (l.51 "两枚战斗棋子处在同一各自内，算作组队");
    # false: squads form only by summoning (l.13), a move never ends on an own squad
    "merge_by_move": (True, (True, False), "l.51, l.13"),
    # R32: the 法师's portal opens and lands in own home rows or the whole 6x10 neutral area
    # (l.9 "中立区域连接起来，就是一个6*10的中立区域"); own_half: only the neutral rows of its own half
    "portal_area": ("neutral_area", ("neutral_area", "own_half"), "l.8, l.9"),
}

DEFAULTS: dict[str, Any] = {name: spec[0] for name, spec in SWITCHES.items()}

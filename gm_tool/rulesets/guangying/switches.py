"""The scenario's ``rules:`` switches of 光与影: the contested readings a group may turn, each a
house rule whose default is the seed's reading (the core checks a scenario's ``rules:`` against
them and lists them in the opening post, worded from ``labels.rules`` of messages.yaml). The
readings are rulings R8 and R32 of ``docs/rulings/guangying.md``."""

from __future__ import annotations

from typing import Any

from gm_tool.core.rules import Switch, defaults

SWITCHES: tuple[Switch, ...] = (
    # R8: moving into an own squad's cell joins it (l.51 "两枚战斗棋子处在同一各自内，算作组队");
    # false: squads form only by summoning (l.13), a move never ends on an own squad
    Switch("merge_by_move", True, (True, False), seed="l.51, l.13", house=True),
    # R32: the 法师's portal opens and lands in own home rows or the whole 6x10 neutral area
    # (l.9 "中立区域连接起来，就是一个6*10的中立区域"); own_half: only the neutral rows of its own half
    Switch("portal_area", "neutral_area", ("neutral_area", "own_half"), seed="l.8, l.9", house=True),
)

DEFAULTS: dict[str, Any] = defaults(SWITCHES)

"""One `gm resolve`: standing orders, then the due general's turn, then everything automatic up to
the next general able to act (contract sections 1, 3 and 4)."""

from __future__ import annotations

from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.ruleset import Resolution
from gm_tool.core.schema import Validator
from gm_tool.rulesets.hunlu.actions import run
from gm_tool.rulesets.hunlu.engine import Dice, Game, check_dice, fork, refresh
from gm_tool.rulesets.hunlu.orders import apply_standing

DICE_FILE = "_dice.yaml"


def resolve(state: dict[str, Any], orders: dict[str, Any], seed: str, dice: list[int] | None = None) -> Resolution:
    notes = getattr(dice, "notes", None) or {}  # the GM's note of each `gm dice` call
    if dice is not None:
        v = Validator(DICE_FILE)
        dice = check_dice(v, dice, "dice")
        v.raise_if_any()
    s = fork(state)
    log = EventLog()
    n = s["turn"] + 1
    g = Game(s, Dice(s, dice, Chance(seed, f"turn-{n}"), notes), log)
    if dice:
        g.emit("dice_file", dice=list(dice), notes=[notes[i] for i in sorted(notes)])
    for player in s["players"]:
        o = orders.get(player)
        if o is not None and o.standing:
            apply_standing(s, player, o.standing)
            g.emit("standing", to=[player], player=player, keys=sorted(o.standing))
    nxt = s.get("next")
    if nxt is not None and s["winner"] is None:
        u = g.units[nxt["unit"]]
        o = orders.get(nxt["player"])
        actions = o.actions if o is not None else []
        g.emit("turn_start", unit=u["id"], player=u["player"], round=s["round"], passed=not actions,
               ap=u["ap"], move=u["move"], qi=u["qi"])
        run(g, u, actions, strict=False)
        g.end_turn(u)
        g.advance()
    if g.dice.file:
        g.emit("dice_unused", dice=list(g.dice.file))
    s["turn"] = n
    if s["rules"].get("posts") == "round":
        keep_round_story(s, state, log.events)
    refresh(g)
    return Resolution(s, log.events)


def keep_round_story(s: dict[str, Any], before: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Per-round public posts (rules.posts: round): the public events of the round so far are kept
    in the state until the round ends (the next round starts), when its post tells them all."""
    story = list(before.get("round_events") or []) + [e for e in events if e.get("to") == "all"]
    cut = round_cut(story)
    s["round_events"] = story[cut:] if cut is not None else story


def round_cut(story: list[dict[str, Any]]) -> int | None:
    """Where the last finished round's story ends: the last round start after the first event
    (the round's own start opens it), None while the round goes on."""
    starts = [i for i, e in enumerate(story) if e["type"] == "round_start" and i > 0]
    return starts[-1] if starts else None

"""One turn of the grail war, in the seed's order (lines 53-64):
hand limit from the keep lists, simultaneous movement, fights, draws, BERSERKER destruction,
capture, stronghold functions, victory."""

from __future__ import annotations

import gc
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.events import PUBLIC, EventLog
from gm_tool.core.ruleset import Resolution
from gm_tool.rulesets.grail_war import combat, hands, movement, strongholds, vision
from gm_tool.rulesets.grail_war.model import Game


def resolve(state: dict[str, Any], orders: dict[str, Any], seed: str) -> Resolution:
    # A turn allocates tens of thousands of objects and makes no reference cycles: everything
    # it drops is freed by reference counting. The cyclic collector would only walk the heap
    # again and again (at 1,000 characters ~15% of the turn, more the larger the process), so it
    # waits until the turn is done. Nothing else changes (no output depends on it).
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        return _resolve(state, orders, seed)
    finally:
        if paused:
            gc.enable()


def _resolve(state: dict[str, Any], orders: dict[str, Any], seed: str) -> Resolution:
    game = Game.from_state(state)
    game.turn += 1
    log = EventLog()
    chance = Chance(seed, f"turn-{game.turn}", log)
    log.emit("turn", to=PUBLIC, turn=game.turn)
    hands.apply_limit(game, orders, log)
    start = {c.id: c.pos for c in game.characters}
    movement.move_all(game, orders, log, chance)
    fought = combat.resolve_fights(game, movement.fights(game), orders, log, chance)
    strongholds.destroy(game, orders, start, log)
    strongholds.capture(game, start, fought, log)
    strongholds.functions(game, log, chance)
    check_victory(game, log)
    vision.assign_audiences(game, log.events)
    return Resolution(game.to_state(), log.events)


def check_victory(game: Game, log: EventLog) -> None:
    """A side wins when every enemy character is dead; if all die at once the game is drawn.
    With ``rules.territory_after = N``, after turn N the side with the most territory wins."""
    alive_sides = {c.side for c in game.alive()}
    if len(alive_sides) == 1:
        game.winner = next(iter(alive_sides))
    elif not alive_sides:
        game.winner = "draw"
    elif game.rules.get("territory_after") and game.turn >= game.rules["territory_after"]:
        counts = game.territory()
        best = max(counts.values())
        leaders = [s for s, n in counts.items() if n == best]
        game.winner = leaders[0] if len(leaders) == 1 else "draw"
    if game.winner is not None:
        log.emit("victory", to=PUBLIC, winner=game.winner, territory=game.territory())

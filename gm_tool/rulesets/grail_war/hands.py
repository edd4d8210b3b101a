"""Hands (R8): the hand limit applied at the start of a turn from the sheet's ``keep`` list,
and the cards drawn after a fight."""

from __future__ import annotations

from gm_tool.core.chance import Chance
from gm_tool.core.deck import Card
from gm_tool.core.events import EventLog
from gm_tool.rulesets.grail_war.model import Character, Game

# With no keep list, the cards kept first (ruling C-hand-default): defence, healing, attack, the rest.
DEFAULT_KEEP_ORDER = ("闪", "宝石", "杀", "咒", "万法破尽")


def choose_kept(char: Character, keep: list[str] | None) -> tuple[list[Card], list[Card]]:
    """Split the hand into (kept, discarded) under the limit. Named cards are kept in the
    sheet's order (first = most wanted); then, for a short list or no list, the default order,
    then the rest of the hand in the order it was received."""
    limit = char.hand_limit()
    if len(char.hand) <= limit:
        return list(char.hand), []
    remaining = list(char.hand)
    kept: list[Card] = []
    wanted = list(keep or []) + [n for n in DEFAULT_KEEP_ORDER] + [c.name for c in char.hand]
    for name in wanted:
        if len(kept) == limit:
            break
        card = next((c for c in remaining if c.name == name), None)
        if card is not None:
            remaining.remove(card)
            kept.append(card)
    kept_ids = {c.id for c in kept}
    return [c for c in char.hand if c.id in kept_ids], [c for c in char.hand if c.id not in kept_ids]


def apply_limit(game: Game, orders: dict, log: EventLog) -> None:
    for o in orders.values():
        char = game.character(o.character)
        if not char.alive:
            continue
        kept, dropped = choose_kept(char, o.keep)
        if dropped:
            char.hand = kept
            game.deck.discard(*dropped)
            log.emit("discard", to=[char.player], character=char.id, reason="hand_limit",
                     limit=char.hand_limit(), cards=[c.to_dict() for c in dropped])


def draw(game: Game, char: Character, n: int, reason: str, log: EventLog, chance: Chance) -> list[Card]:
    cards = game.deck.draw(n, chance)
    char.hand.extend(cards)
    log.emit("draw", to=[char.player], character=char.id, reason=reason, cards=[c.to_dict() for c in cards])
    return cards

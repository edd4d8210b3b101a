"""Hands (R8): the hand limit applied at the start of a turn from the sheet's ``keep`` list,
and the cards drawn after a fight."""

from __future__ import annotations

from gm_tool.core.chance import Chance
from gm_tool.core.deck import Card
from gm_tool.core.events import EventLog
from gm_tool.rulesets.grail_war.model import Character, Game

# With no keep list, the cards kept first (ruling C-hand-default): defence, healing, attack, the rest.
DEFAULT_KEEP_ORDER = ("闪", "宝石", "杀", "咒", "万法破尽")


Ref = tuple[str, str | None, int | None]  # a card as a sheet names it: (name, suit, rank)


def pick(hand: list[Card], refs: list[Ref]) -> list[Card | None]:
    """The hand card each ref names, each card at most once (ruling G10): a ref with a suit or
    rank takes exactly that card; then each bare name takes the first card of that name left, in
    the order the hand was received (so ``[闪, 闪 ♦4]`` leaves ♦4 to the second). None where
    the hand has no such card left."""
    out: list[Card | None] = [None] * len(refs)
    taken: set[int] = set()
    for _, suit, rank in refs:
        if suit is not None or rank is not None:
            break
    else:  # names only: one pass (plain loops: the bots' keep lists come here every turn)
        for i, (name, _, _) in enumerate(refs):
            for c in hand:
                if c.name == name and c.id not in taken:
                    taken.add(c.id)
                    out[i] = c
                    break
        return out
    for exact in (True, False):
        for i, (name, suit, rank) in enumerate(refs):
            if (suit is not None or rank is not None) is exact:
                card = next((c for c in hand if c.id not in taken and c.matches(name, suit, rank)), None)
                if card is not None:
                    taken.add(card.id)
                    out[i] = card
    return out


def choose_kept(char: Character, keep: list[str] | None,
                refs: list[Ref] | None = None) -> tuple[list[Card], list[Card]]:
    """Split the hand into (kept, discarded) under the limit. Named cards are kept in the
    sheet's order (first = most wanted; ``refs``, when given, say which card of a name by its
    suit and rank); then, for a short list or no list, the default order, then the rest of the
    hand in the order it was received."""
    limit = char.hand_limit()
    if len(char.hand) <= limit:
        return list(char.hand), []
    remaining = list(char.hand)
    kept: list[Card] = []
    if refs is None or len(refs) != len(keep or []):
        refs = [(name, None, None) for name in keep or []]
    for card in pick(char.hand, refs):
        if len(kept) == limit:
            break
        if card is not None:
            remaining.remove(card)
            kept.append(card)
    wanted = [n for n in DEFAULT_KEEP_ORDER] + [c.name for c in char.hand]
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
        kept, dropped = choose_kept(char, o.keep, o.keep_refs)
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

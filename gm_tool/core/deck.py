"""Playing cards and decks: cards with suit and rank, a draw pile, a discard pile, reshuffles.

A card is identified by ``id`` (unique within a campaign), so invariants such as "no card in
two places" can be checked. Cards serialise as ``{"id", "name", "suit", "rank"}``; ``suit`` and
``rank`` may be ``None`` for cards that have none.

>>> parse_card_text("Oak ♥2")
('Oak', 'hearts', 2)
>>> Card(1, "Elm", "spades", 12).label
'Elm ♠Q'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Any

from gm_tool.core.chance import Chance

SUITS = ("spades", "hearts", "clubs", "diamonds")
SUIT_SYMBOL = {"spades": "♠", "hearts": "♥", "clubs": "♣", "diamonds": "♦"}
SYMBOL_SUIT = {v: k for k, v in SUIT_SYMBOL.items()}
SUIT_ALIASES = {
    **{s: s for s in SUITS}, **SYMBOL_SUIT,
    "♤": "spades", "♡": "hearts", "♧": "clubs", "♢": "diamonds",
    "黑桃": "spades", "红桃": "hearts", "梅花": "clubs", "方块": "diamonds", "方片": "diamonds",
    "spade": "spades", "heart": "hearts", "club": "clubs", "diamond": "diamonds",
}
RED_SUITS = frozenset({"hearts", "diamonds"})
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_VALUES = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(1, 14)}}

_CARD_RE = re.compile(r"^\s*(?P<name>[^\s♠♥♣♦♤♡♧♢]+?)\s*(?:(?P<suit>[♠♥♣♦♤♡♧♢])\s*(?P<rank>10|[2-9AJQKajqk]|1[1-3]?))?\s*$")


def rank_label(rank: int | None) -> str:
    return "" if rank is None else RANK_NAMES.get(rank, str(rank))


def parse_suit(value: Any) -> str:
    suit = SUIT_ALIASES.get(str(value).strip().lower()) if value is not None else None
    if suit is None:
        raise ValueError(f"unknown suit {value!r}")
    return suit


def parse_rank(value: Any) -> int:
    rank = RANK_VALUES.get(str(value).strip().upper())
    if rank is None:
        raise ValueError(f"unknown rank {value!r}")
    return rank


@lru_cache(maxsize=4096)  # sheets name the same few cards again and again
def parse_card_text(text: str) -> tuple[str, str | None, int | None]:
    """``"Oak ♥2"`` -> ``("Oak", "hearts", 2)``; ``"Elm"`` -> ``("Elm", None, None)``."""
    m = _CARD_RE.match(text)
    if not m:
        raise ValueError(f"not a card: {text!r}")
    if m.group("suit"):
        return m.group("name"), parse_suit(m.group("suit")), parse_rank(m.group("rank"))
    return m.group("name"), None, None


def parse_card_spec(value: Any) -> tuple[str, str | None, int | None]:
    """A card as written in a scenario or sheet: a text or a ``{name, suit, rank}`` mapping."""
    if isinstance(value, str):
        return parse_card_text(value)
    if isinstance(value, dict) and isinstance(value.get("name"), str):
        suit = parse_suit(value["suit"]) if value.get("suit") is not None else None
        rank = parse_rank(value["rank"]) if value.get("rank") is not None else None
        return value["name"], suit, rank
    raise ValueError(f"not a card: {value!r}")


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    name: str
    suit: str | None = None
    rank: int | None = None

    @property
    def label(self) -> str:
        if self.suit is None:
            return self.name
        return f"{self.name} {SUIT_SYMBOL[self.suit]}{rank_label(self.rank)}"

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    def matches(self, name: str, suit: str | None = None, rank: int | None = None) -> bool:
        return self.name == name and (suit is None or self.suit == suit) and (rank is None or self.rank == rank)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "suit": self.suit, "rank": self.rank}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Card":
        key = (d["id"], d["name"], d.get("suit"), d.get("rank"))
        try:
            return _CARDS[key]  # cards are immutable values: one object per card serves every state
        except KeyError:
            pass
        except TypeError:  # an unhashable field: build it as given
            return cls(*key)
        card = cls(*key)
        if len(_CARDS) < 1 << 16:
            _CARDS[key] = card
        return card


_CARDS: dict[tuple, Card] = {}
_CARD_KEY = itemgetter("id", "name", "suit", "rank")


def cards_from_dicts(ds: list[dict[str, Any]]) -> list[Card]:
    """``[Card.from_dict(d) for d in ds]``; when every card was seen before (a state holds the
    same cards turn after turn), looked up all at once without a Python call per card."""
    if len(ds) > 1:
        try:
            return list(itemgetter(*map(_CARD_KEY, ds))(_CARDS))
        except (KeyError, TypeError):  # a card not seen yet (or written without suit/rank)
            pass
    return [Card.from_dict(d) for d in ds]


def card_dicts(cards: list[Card]) -> list[dict[str, Any]]:
    """``[c.to_dict() for c in cards]`` without a method call per card (a state writes its piles
    every turn)."""
    return [{"id": c.id, "name": c.name, "suit": c.suit, "rank": c.rank} for c in cards]


@dataclass
class Deck:
    """A draw pile (top is the end of the list) and a discard pile."""

    draw_pile: list[Card] = field(default_factory=list)
    discard_pile: list[Card] = field(default_factory=list)
    name: str = "deck"

    def draw(self, n: int, chance: Chance | None) -> list[Card]:
        """Draw up to ``n`` cards, reshuffling the discard pile into a new draw pile when empty.
        Returns fewer only when both piles are exhausted."""
        drawn: list[Card] = []
        for _ in range(n):
            if not self.draw_pile:
                if not self.discard_pile or chance is None:
                    break
                self.reshuffle(chance)
            drawn.append(self.draw_pile.pop())
        return drawn

    def reshuffle(self, chance: Chance) -> None:
        pile = sorted(self.discard_pile, key=lambda c: c.id)
        self.discard_pile = []
        chance.shuffle(pile, why=f"{self.name}.reshuffle", label=lambda c: c.id)
        self.draw_pile = pile + self.draw_pile

    def take(self, name: str, suit: str | None = None, rank: int | None = None) -> Card | None:
        """Remove and return the topmost card in the draw pile that matches, or None."""
        for i in range(len(self.draw_pile) - 1, -1, -1):
            if self.draw_pile[i].matches(name, suit, rank):
                return self.draw_pile.pop(i)
        return None

    def discard(self, *cards: Card) -> None:
        self.discard_pile.extend(cards)

    def to_dict(self) -> dict[str, Any]:
        return {"draw_pile": card_dicts(self.draw_pile), "discard_pile": card_dicts(self.discard_pile)}

    @classmethod
    def from_dict(cls, d: dict[str, Any], name: str = "deck") -> "Deck":
        return cls(cards_from_dicts(d.get("draw_pile", [])), cards_from_dicts(d.get("discard_pile", [])), name)

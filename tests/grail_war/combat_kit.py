"""Helpers for the DATC-style combat cases: set up one cell, give the sheets, play the fight.

``fight(A(...), B(...), deck=[...], order=[...])`` builds a Game with those characters in one
cell, parses each sheet with the real order parser, plays the fight with a fixed actor order
and returns a Result with the characters, the log and the game. Cards are written as in a
scenario (``"杀 ♠7"`` or a bare name, which gets a neutral ♣2-♣K suit); ``deck`` lists the
top of the draw pile first (judgements and draws take from there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.deck import Card, Deck, parse_card_spec
from gm_tool.core.events import EventLog
from gm_tool.rulesets.grail_war import cards as catalog
from gm_tool.rulesets.grail_war import data, orders
from gm_tool.rulesets.grail_war.combat import Fight
from gm_tool.rulesets.grail_war.model import Board, Character, Game
from gm_tool.rulesets.grail_war.scenario import DEFAULT_RULES

ROSTER = {c["id"]: c for c in data.load("characters")["characters"]}


class Ids:
    def __init__(self) -> None:
        self.n = 0

    def card(self, spec: Any) -> Card:
        self.n += 1
        name, suit, rank = parse_card_spec(spec)
        name = catalog.canonical(name) or name
        if suit is None:
            suit, rank = "clubs", 2 + self.n % 12
        return Card(self.n, name, suit, rank)


@dataclass
class F:
    """One fighter: a roster id (for name, class, HP and skills) and its overrides."""

    id: str
    side: str = "red"
    hand: list[Any] = field(default_factory=list)
    hp: int | None = None
    max_hp: int | None = None
    weapon: str | None = None
    armor: str | None = None
    skills: list[str] | None = None
    sheet: dict[str, Any] = field(default_factory=dict)


def A(cid: str, *hand: Any, **kw: Any) -> F:
    """A red fighter with no skill unless given (so card rules are tested alone)."""
    kw.setdefault("skills", [])
    return F(cid, "red", list(hand), **kw)


def B(cid: str, *hand: Any, **kw: Any) -> F:
    kw.setdefault("skills", [])
    return F(cid, "blue", list(hand), **kw)


@dataclass
class Result:
    game: Game
    log: list[dict[str, Any]]
    chars: dict[str, Character]

    def __getitem__(self, cid: str) -> Character:
        return self.chars[cid]

    def hand(self, cid: str) -> list[str]:
        return sorted(c.name for c in self.chars[cid].hand)

    def hp(self, cid: str) -> int:
        return self.chars[cid].hp

    def types(self) -> list[str]:
        return [e["type"] for e in self.log if e["type"] != "chance"]

    def of(self, type_: str, **match: Any) -> list[dict[str, Any]]:
        return [e for e in self.log if e["type"] == type_ and all(e.get(k) == v for k, v in match.items())]

    def damage(self) -> list[tuple[str | None, str, int]]:
        return [(e["source"], e["target"], e["amount"]) for e in self.of("damage")]


def build(*fs: F, deck: list[Any] | None = None, draw: int = 0, filler: int = 20,
          rules: dict[str, Any] | None = None) -> tuple[Game, dict[str, Any]]:
    ids = Ids()
    chars: list[Character] = []
    equipment = [Card(1000 + i, n) for i, n in enumerate(n for n in catalog.all_names() if catalog.is_equipment(n))]
    for f in fs:
        base = ROSTER.get(f.id, {"name": f.id, "class": "SABER", "hp": 4})
        max_hp = f.max_hp or (f.hp if f.hp and f.hp > base.get("hp", 4) else base.get("max_hp", base.get("hp", 4)))
        c = Character(f.id, base["name"], f"p_{f.id}", f.side, base["class"], f.hp or max_hp, max_hp, (0, 0), 3,
                      skills=list(base.get("skills", []) if f.skills is None else f.skills))
        c.hand = [ids.card(x) for x in f.hand]
        for slot, name in (("weapon", f.weapon), ("armor", f.armor)):
            if name:
                item = next(e for e in equipment if e.name == name)
                equipment.remove(item)
                c.equipment[slot] = item
        chars.append(c)
    top = [ids.card(x) for x in (deck or [])]
    rest = [ids.card(f"杀 ♣{r}") for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")][:0]
    rest += [ids.card(spec) for spec in (["杀 ♣3", "闪 ♦4", "宝石 ♥5", "扭曲螺旋 ♠6"] * filler)[:filler]]
    pile = Deck(rest + list(reversed(top)), [], "deck")
    table = {**DEFAULT_RULES, **(rules or {})}
    table["combat_draw"] = draw
    game = Game(0, ["red", "blue"], Board(1, 1, ["."]), chars, [], pile, equipment, table)
    sheets = {f.id: f.sheet for f in fs}
    return game, sheets


def parse_sheets(game: Game, sheets: dict[str, dict[str, Any]]) -> dict[str, orders.Orders]:
    out = {}
    for c in game.characters:
        sheet = {"turn": game.turn + 1, "player": c.player, **sheets.get(c.id, {})}
        out[c.player] = orders.parse(game, sheet, f"{c.id}.yaml", "en")
    return out


def fight(*fs: F, deck: list[Any] | None = None, order: list[str] | None = None, draw: int = 0,
          seed: str = "case", rules: dict[str, Any] | None = None) -> Result:
    game, sheets = build(*fs, deck=deck, draw=draw, rules=rules)
    parsed = parse_sheets(game, sheets)
    log = EventLog()
    chance = Chance(seed, "fight", log)
    Fight(game, (0, 0), list(game.characters), parsed, log, chance, order=order or [f.id for f in fs]).run()
    return Result(game, log.events, {c.id: c for c in game.characters})


def all_cards(game: Game) -> list[int]:
    """Every card id in play: draw and discard piles, hands, equipment zones and pile."""
    ids = [c.id for c in game.deck.draw_pile] + [c.id for c in game.deck.discard_pile]
    ids += [c.id for c in game.equipment_pile]
    for ch in game.characters:
        ids += [c.id for c in ch.hand] + [c.id for c in ch.equipment.values() if c is not None]
    return ids

"""The grail war's state as typed objects, and its round trip to the plain JSON of spec §6.

``Game.from_state(d).to_state() == d`` for every state the ruleset writes. The JSON keeps the
spec's keys in the spec's order; the keys after them (``move``, ``skills``, ``deck``...) are
this ruleset's additions.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from gm_tool.core.deck import Card, Deck, card_dicts, cards_from_dicts
from gm_tool.core.grid import Cell, cell_name, cell_names, parse_cell, parse_cells

SIDES_DEFAULT = ("red", "blue")
CLASSES = ("SABER", "ARCHER", "LANCER", "RIDER", "CASTER", "ASSASSIN", "BERSERKER")
KINDS = ("hand", "equipment", "heal", "vision", "teleport", "bridge")
SLOTS = ("weapon", "armor")

# terrain characters of a map row, and their heights ("ground is entered from higher to lower only")
GROUND, RIVER, HIGH, CLIFF = ".", "~", "^", "#"
TERRAIN = {GROUND: 0, RIVER: 0, HIGH: 1, CLIFF: 2}


_BOARD_IDENTS: dict[tuple, int] = {}
_BOARD_COUNT = itertools.count()


@dataclass(slots=True)
class Board:
    """The static map: terrain rows (row 1 first) and tunnels."""

    width: int
    height: int
    rows: list[str]
    tunnels: list[dict[str, Any]] = field(default_factory=list)
    _links: dict[Cell, list[Cell]] | None = field(default=None, init=False, repr=False, compare=False)
    _key: tuple | None = field(default=None, init=False, repr=False, compare=False)
    _ident: int | None = field(default=None, init=False, repr=False, compare=False)

    def terrain(self, cell: Cell) -> str:
        """The terrain character of a cell; a tunnel's inside is level ground."""
        return self.rows[cell[1]][cell[0]] if cell[1] < self.height else GROUND

    def height_of(self, cell: Cell) -> int:
        return TERRAIN[self.terrain(cell)]

    # tunnels: the cells inside tunnel i (from 0) are virtual cells below the map, on row
    # ``height + i``: (0, height + i) next to mouths[0], ..., (length - 1, height + i) next to mouths[1]
    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.width and 0 <= cell[1] < self.height

    def in_tunnel(self, cell: Cell) -> tuple[int, int] | None:
        """(tunnel index, step inside from the first mouth, from 0) for a cell inside a tunnel."""
        i = cell[1] - self.height
        if 0 <= i < len(self.tunnels) and 0 <= cell[0] < self.tunnel_length(i):
            return i, cell[0]
        return None

    def tunnel_length(self, i: int) -> int:
        return int(self.tunnels[i].get("length", 1))

    def tunnel_inside(self, i: int) -> list[Cell]:
        return [(k, self.height + i) for k in range(self.tunnel_length(i))]

    def tunnel_mouths(self, i: int) -> tuple[Cell, Cell]:
        a, b = self.tunnels[i]["mouths"]
        return parse_cell(a), parse_cell(b)

    def tunnel_links(self) -> dict[Cell, list[Cell]]:
        """Steps through tunnels: mouth -> first cell inside, inside -> inside or mouth (cached)."""
        if self._links is None:
            links: dict[Cell, list[Cell]] = {}
            for i in range(len(self.tunnels)):
                first, last = self.tunnel_mouths(i)
                chain = [first, *self.tunnel_inside(i), last]
                for a, b in zip(chain, chain[1:]):
                    links.setdefault(a, []).append(b)
                    links.setdefault(b, []).append(a)
            self._links = links
        return self._links

    def neighbours(self, cell: Cell) -> list[Cell]:
        """Cells one step away: the orthogonal neighbours on the map (N, E, S, W), then tunnel links."""
        x, y = cell
        out: list[Cell] = []
        if y < self.height:
            for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                if 0 <= nx < self.width and 0 <= ny < self.height:
                    out.append((nx, ny))
        links = self._links if self._links is not None else self.tunnel_links()
        if cell in links:
            out.extend(links[cell])
        return out

    def key(self) -> tuple:
        """What walking on this board depends on (terrain and tunnels), hashable: tables derived
        from the map alone are kept per key (cached; a board is not changed once built)."""
        if self._key is None:
            self._key = (self.width, self.height, tuple(self.rows),
                         tuple((tuple(t["mouths"]), self.tunnel_length(i)) for i, t in enumerate(self.tunnels)))
        return self._key

    def ident(self) -> int:
        """A small number standing for :meth:`key` (equal keys, equal numbers, in this process):
        cheap to hash, where the key hashes every row each time."""
        if self._ident is None:
            key = self.key()
            ident = _BOARD_IDENTS.get(key)
            if ident is None:
                if len(_BOARD_IDENTS) >= 256:  # numbers are never reused: forgetting only costs a miss
                    _BOARD_IDENTS.clear()
                ident = _BOARD_IDENTS[key] = next(_BOARD_COUNT)
            self._ident = ident
        return self._ident

    def to_dict(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "rows": list(self.rows), "tunnels": self.tunnels}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Board":
        return cls(d["width"], d["height"], list(d["rows"]), list(d.get("tunnels", [])))


@dataclass(slots=True)
class Character:
    id: str
    name: str
    player: str
    side: str
    cls: str
    hp: int
    max_hp: int
    pos: Cell
    move: int
    alive: bool = True
    hand: list[Card] = field(default_factory=list)
    equipment: dict[str, Card | None] = field(default_factory=lambda: {"weapon": None, "armor": None})
    skills: list[str] = field(default_factory=list)
    healed_turn: int | None = None          # last turn a heal stronghold healed this character
    status: dict[str, Any] = field(default_factory=dict)  # lasting statuses (e.g. skip next draw)
    label: str = ""  # its number on the maps and tables, given at setup and kept for the whole game

    def equipped(self, name: str) -> bool:
        for c in self.equipment.values():  # (a loop: any() over a generator costs twice as much)
            if c is not None and c.name == name:
                return True
        return False

    def hand_limit(self) -> int:
        return 7 if self.equipped("天之服") else max(self.hp, 0) + 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "player": self.player, "side": self.side, "class": self.cls,
            "hp": self.hp, "max_hp": self.max_hp, "pos": cell_name(self.pos), "alive": self.alive,
            "hand": card_dicts(self.hand),
            "equipment": {slot: (card.name if card else None) for slot, card in self.equipment.items()},
            "move": self.move, "skills": list(self.skills),
            "equipment_cards": {slot: (card.to_dict() if card else None) for slot, card in self.equipment.items()},
            "healed_turn": self.healed_turn, "status": dict(self.status), "label": self.label,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Character":
        cards = d.get("equipment_cards") or {}
        weapon, armor = cards.get("weapon"), cards.get("armor")  # SLOTS, in order
        equipment = {"weapon": Card.from_dict(weapon) if weapon else None,
                     "armor": Card.from_dict(armor) if armor else None}
        return cls(d["id"], d["name"], d["player"], d["side"], d["class"], d["hp"], d["max_hp"],
                   parse_cell(d["pos"]), d["move"], d["alive"], cards_from_dicts(d["hand"]),
                   equipment, list(d.get("skills", [])), d.get("healed_turn"), dict(d.get("status", {})),
                   d.get("label", ""))


@dataclass(slots=True)
class Stronghold:
    id: int
    name: str
    pos: Cell
    kind: str
    territory: list[Cell]
    owner: str | None = None
    destroyed: bool = False
    closed: bool = False  # closed by the GM (流局)

    @property
    def working(self) -> bool:
        """Whether its function (cards, heal, vision, teleport) works."""
        return not self.destroyed and not self.closed

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "pos": cell_name(self.pos), "kind": self.kind,
                "owner": self.owner, "destroyed": self.destroyed,
                "territory": cell_names(self.territory), "closed": self.closed}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Stronghold":
        return cls(d["id"], d["name"], parse_cell(d["pos"]), d["kind"], parse_cells(d["territory"]),
                   d.get("owner"), d.get("destroyed", False), d.get("closed", False))


@dataclass(slots=True)
class Game:
    turn: int
    sides: list[str]
    board: Board
    characters: list[Character]
    strongholds: list[Stronghold]
    deck: Deck
    equipment_pile: list[Card]
    rules: dict[str, Any]
    winner: str | None = None
    closed_cells: list[Cell] = field(default_factory=list)  # areas the GM closed (流局)
    # the scenario's own skill definitions (ruling C27), {id: definition as in data/skills.yaml};
    # the bundled ones are not copied here. State key "skills", written only when not empty.
    skills: dict[str, dict[str, Any]] = field(default_factory=dict)
    # lookups by id and by player, built on first use: ids and players never change, and the
    # roster is not added to once a game is built (rebuilt if the list or its length changes)
    _by_id: dict[str, Character] | None = field(default=None, init=False, repr=False, compare=False)
    _by_player: dict[str, list[Character]] | None = field(default=None, init=False, repr=False, compare=False)
    _indexed: tuple[list[Character] | None, int] = field(default=(None, -1), init=False, repr=False, compare=False)
    _sites: tuple[list[Stronghold] | None, int, dict[Cell, Stronghold]] = field(
        default=(None, -1, {}), init=False, repr=False, compare=False)

    # lookups ------------------------------------------------------------------------------
    def _index(self) -> None:
        by_id: dict[str, Character] = {}
        by_player: dict[str, list[Character]] = {}
        for c in self.characters:
            by_id.setdefault(c.id, c)  # the first of a (never valid) repeated id, as a scan finds
            by_player.setdefault(c.player, []).append(c)
        self._by_id, self._by_player, self._indexed = by_id, by_player, (self.characters, len(self.characters))

    def _stale(self) -> bool:
        roster, n = self._indexed
        return roster is not self.characters or n != len(self.characters)

    def character(self, cid: str) -> Character:
        if self._stale():
            self._index()
        assert self._by_id is not None
        return self._by_id[cid]

    def of_player(self, player: str) -> list[Character]:
        if self._stale():
            self._index()
        assert self._by_player is not None
        return list(self._by_player.get(player, ()))

    def players(self) -> list[str]:
        """Every player, in roster order of their first character."""
        if self._stale():
            self._index()
        assert self._by_player is not None
        return list(self._by_player)

    def alive(self) -> list[Character]:
        return [c for c in self.characters if c.alive]

    def strongholds_by_pos(self) -> dict[Cell, Stronghold]:
        """``{s.pos: s}`` for every stronghold (kept: strongholds never move). Read only."""
        listed, n, index = self._sites
        if listed is not self.strongholds or n != len(self.strongholds):
            index = {s.pos: s for s in self.strongholds}
            self._sites = (self.strongholds, len(self.strongholds), index)
        return index

    def stronghold_at(self, cell: Cell) -> Stronghold | None:
        for s in self.strongholds:
            if s.pos == cell:
                return s
        return None

    def territory(self) -> dict[str, int]:
        counts = {side: 0 for side in self.sides}
        for s in self.strongholds:
            if s.owner in counts:
                counts[s.owner] += len(s.territory)
        return counts

    # JSON ---------------------------------------------------------------------------------
    def to_state(self) -> dict[str, Any]:
        return {
            "ruleset": "grail_war", "turn": self.turn, "winner": self.winner,
            "characters": [c.to_dict() for c in self.characters],
            "strongholds": [s.to_dict() for s in self.strongholds],
            "territory": self.territory(),
            "sides": list(self.sides), "rules": dict(self.rules), "map": self.board.to_dict(),
            "closed_cells": cell_names(self.closed_cells),
            "deck": self.deck.to_dict(), "equipment_pile": card_dicts(self.equipment_pile),
        } | ({"skills": {k: self.skills[k] for k in self.skills}} if self.skills else {})

    @classmethod
    def from_state(cls, d: dict[str, Any]) -> "Game":
        return cls(d["turn"], list(d["sides"]), Board.from_dict(d["map"]),
                   [Character.from_dict(c) for c in d["characters"]],
                   [Stronghold.from_dict(s) for s in d["strongholds"]],
                   Deck.from_dict(d["deck"]), cards_from_dicts(d["equipment_pile"]),
                   dict(d["rules"]), d.get("winner"), parse_cells(d.get("closed_cells", [])),
                   dict(d.get("skills") or {}))

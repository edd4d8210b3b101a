"""GM edits between turns (`gm amend`): fix a mistake, or restrict the map for the seed's 流局.

An amendment is ``{"action": NAME, "args": [...], "reason": TEXT}``. :func:`amend` checks it
against a state and returns the edited state plus its events; it is pure, so `gm verify`
replays amendments exactly. The events tell the public post what kind of edit was made, to
whom and why (ruling O3); what the rules hide (a card, an exact HP, a cell) goes only to those
entitled to see it: the character's player, plus, for HP and moves, whoever sees the cells.

Actions (seed 002 l.228: "流局 ... GM有权对地图和据点进行限制"):

- ``set_hp CHARACTER HP``              1 <= HP <= max HP, living characters only
- ``move CHARACTER CELL``              any open cell on the map it may stand on (capacity, river)
- ``give_card CHARACTER CARD``         from the draw pile, else the discard pile; equipment from the
                                        equipment pile into its slot (the old item goes back under it)
- ``take_card CHARACTER CARD``         from the hand to the discard pile; equipped items back under
                                        the equipment pile
- ``close_stronghold ID`` / ``open_stronghold ID``
- ``close_area CELL...`` / ``open_area CELL...``
- ``reassign CHARACTER PLAYER``         a living character passes to a (replacement) player, whose id
                                        is a safe file name; the display name is a forum setting
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.deck import Card, parse_card_spec
from gm_tool.core.events import PUBLIC, EventLog
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.ruleset import AmendAction, Arg, read_int
from gm_tool.core.store import safe_name
from gm_tool.errors import GmError
from gm_tool.rulesets.grail_war import cards
from gm_tool.rulesets.grail_war.model import RIVER, Character, Game, Stronghold
from gm_tool.rulesets.grail_war.words import labels

# each edit's arguments; its help text is the ruleset's labels (amend.NAME)
ARGS: dict[str, tuple[Arg, ...]] = {
    "set_hp": (Arg("character"), Arg("hp")), "move": (Arg("character"), Arg("cell")),
    "give_card": (Arg("character"), Arg("card")), "take_card": (Arg("character"), Arg("card")),
    "close_stronghold": (Arg("stronghold"),), "open_stronghold": (Arg("stronghold"),),
    "close_area": (Arg("cell", "str..."),), "open_area": (Arg("cell", "str..."),),
    "reassign": (Arg("character"), Arg("player")),
}


def actions() -> dict[str, AmendAction]:
    """The edits with their help in every language (read from data/messages.yaml)."""
    from gm_tool.i18n import LANGS

    return {name: AmendAction(args, {lang: labels(lang)["amend"][name] for lang in LANGS}) for name, args in ARGS.items()}


SWIMMERS = frozenset({"RIDER", "CASTER"})
MAX_AREA = 400

def amend(state: dict[str, Any], action: dict[str, Any], source: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Apply one GM edit to ``state``: the new state and the edit's events (audiences set).
    Raise GmError naming ``source`` and the argument at fault."""
    name = action["action"]  # known, with its arguments checked (core.ruleset.check_amend)
    args = action["args"]
    reason = str(action.get("reason", ""))
    game = Game.from_state(state)
    log = EventLog()
    _Edit(game, log, source, reason).run(name, args)
    from gm_tool.rulesets.grail_war import vision

    vision.assign_audiences(game, log.events)
    return game.to_state(), log.events


class _Edit:
    def __init__(self, game: Game, log: EventLog, source: str, reason: str) -> None:
        self.game, self.log, self.source, self.reason = game, log, source, reason

    def fail(self, code: str, field: str, **params: Any) -> GmError:
        return GmError.one(code, file=self.source, field=field, **params)

    def run(self, name: str, args: list[Any]) -> None:
        getattr(self, name)(*args)

    # arguments ------------------------------------------------------------------------------
    def character(self, ref: Any, field: str = "args[0]") -> Character:
        text = str(ref).strip()
        for c in self.game.characters:
            if text in (c.id, c.name):
                if not c.alive:
                    raise self.fail("grail_war.amend.dead", field, value=c.id)
                return c
        raise self.fail("grail_war.amend.character", field, value=ref,
                        allowed=", ".join(c.id for c in self.game.characters))

    def cell(self, ref: Any, field: str) -> tuple[int, int]:
        board = self.game.board
        try:
            return parse_cell(str(ref), board.width, board.height)
        except ValueError:
            raise self.fail("grail_war.amend.cell", field, value=ref, last_col=cell_name((board.width - 1, 0))[:-1],
                            rows=board.height) from None

    def stronghold(self, ref: Any, field: str = "args[0]") -> Stronghold:
        text = str(ref).strip()
        for s in self.game.strongholds:
            if text in (str(s.id), s.name):
                return s
        raise self.fail("grail_war.amend.stronghold", field, value=ref,
                        allowed=", ".join(str(s.id) for s in self.game.strongholds))

    def card_spec(self, ref: Any, field: str = "args[1]") -> tuple[str, str | None, int | None]:
        try:
            name, suit, rank = parse_card_spec(ref)
        except ValueError:
            raise self.fail("grail_war.bad_card", field, value=ref) from None
        canon = cards.canonical(name)
        if canon is None:
            raise self.fail("grail_war.unknown_card", field, value=name)
        return canon, suit, rank

    def public(self, type_: str, **data: Any) -> None:
        self.log.emit(type_, to=PUBLIC, reason=self.reason, **data)

    # actions --------------------------------------------------------------------------------
    def set_hp(self, who: Any, hp: Any) -> None:
        c = self.character(who)
        value = read_int(hp)  # ASCII or full-width digits ("²".isdigit() but int("²") fails)
        if value is None or not 1 <= value <= c.max_hp:
            raise self.fail("grail_war.amend.hp", "args[1]", value=hp, max_hp=c.max_hp, character=c.id)
        if value == c.hp:
            raise self.fail("grail_war.amend.same", "args[1]", what=f"{c.id}.hp", value=value)
        old, c.hp = c.hp, value
        self.public("gm_set_hp", character=c.id)
        self.log.emit("gm_set_hp_detail", to=[], actors=[c.player], cells=[cell_name(c.pos)],
                      character=c.id, old=old, hp=value)

    def move(self, who: Any, where: Any) -> None:
        c = self.character(who)
        to = self.cell(where, "args[1]")
        game = self.game
        if to == c.pos:
            raise self.fail("grail_war.amend.same", "args[1]", what=f"{c.id}.pos", value=cell_name(to))
        if to in game.closed_cells:
            raise self.fail("grail_war.amend.closed_cell", "args[1]", cell=cell_name(to))
        if game.board.terrain(to) == RIVER and c.cls not in SWIMMERS:
            raise self.fail("grail_war.amend.river", "args[1]", cell=cell_name(to), klass=c.cls)
        there = [x for x in game.alive() if x.pos == to]
        rules = game.rules
        if len(there) + 1 > rules["cell_capacity"] or \
                sum(1 for x in there if x.side == c.side) + 1 > rules["side_capacity"]:
            raise self.fail("grail_war.amend.capacity", "args[1]", cell=cell_name(to),
                            limit=f"{rules['cell_capacity']}/{rules['side_capacity']}")
        start, c.pos = c.pos, to
        self.public("gm_move", character=c.id)
        self.log.emit("gm_move_detail", to=[], actors=[c.player], cells=[cell_name(start), cell_name(to)],
                      character=c.id, start=cell_name(start), end=cell_name(to))

    def give_card(self, who: Any, ref: Any) -> None:
        c = self.character(who)
        name, suit, rank = self.card_spec(ref)
        game = self.game
        slot = cards.slot_of(name)
        if slot is not None:
            card = next((x for x in reversed(game.equipment_pile) if x.matches(name, suit, rank)), None)
            if card is None:
                raise self.fail("grail_war.amend.no_card", "args[1]", value=str(ref), where=self.holder(name, suit, rank))
            game.equipment_pile.remove(card)
            old = c.equipment.get(slot)
            if old is not None:
                game.equipment_pile.insert(0, old)
            c.equipment[slot] = card
        else:
            card = game.deck.take(name, suit, rank) or self.from_discard(name, suit, rank)
            if card is None:
                raise self.fail("grail_war.amend.no_card", "args[1]", value=str(ref), where=self.holder(name, suit, rank))
            c.hand.append(card)
        self.public("gm_give_card", character=c.id)
        self.log.emit("gm_give_card_detail", to=[c.player], character=c.id, card=card.to_dict(),
                      **({"slot": slot} if slot else {}))

    def take_card(self, who: Any, ref: Any) -> None:
        c = self.character(who)
        name, suit, rank = self.card_spec(ref)
        card: Card | None = next((x for x in c.hand if x.matches(name, suit, rank)), None)
        if card is not None:
            c.hand.remove(card)
            self.game.deck.discard(card)
        else:
            slot = next((s for s, x in c.equipment.items() if x is not None and x.matches(name, suit, rank)), None)
            if slot is None:
                raise self.fail("grail_war.amend.not_held", "args[1]", character=c.id, value=str(ref))
            worn = c.equipment[slot]
            assert worn is not None  # the slot was found holding the card
            card = worn
            c.equipment[slot] = None
            self.game.equipment_pile.insert(0, worn)
        self.public("gm_take_card", character=c.id)
        self.log.emit("gm_take_card_detail", to=[c.player], character=c.id, card=card.to_dict())

    def from_discard(self, name: str, suit: str | None, rank: int | None) -> Card | None:
        pile = self.game.deck.discard_pile
        for i in range(len(pile) - 1, -1, -1):
            if pile[i].matches(name, suit, rank):
                return pile.pop(i)
        return None

    def holder(self, name: str, suit: str | None, rank: int | None) -> str:
        """Where the card is, for the error message (the GM sees everything)."""
        for c in self.game.characters:
            if any(x.matches(name, suit, rank) for x in c.hand) or \
                    any(x is not None and x.matches(name, suit, rank) for x in c.equipment.values()):
                return f" ({c.id})"
        return ""

    def _toggle_stronghold(self, ref: Any, close: bool) -> None:
        s = self.stronghold(ref)
        if s.closed == close:
            raise self.fail("grail_war.amend.same", "args[0]", what=f"stronghold {s.id}.closed", value=close)
        s.closed = close
        self.public("gm_close_stronghold" if close else "gm_open_stronghold", stronghold=s.id, name=s.name,
                    cell=cell_name(s.pos))

    def close_stronghold(self, ref: Any) -> None:
        self._toggle_stronghold(ref, True)

    def open_stronghold(self, ref: Any) -> None:
        self._toggle_stronghold(ref, False)

    def _area(self, refs: tuple[Any, ...]) -> list[tuple[int, int]]:
        if len(refs) > MAX_AREA:
            raise self.fail("grail_war.amend.area_size", "args", limit=MAX_AREA)
        cells: list[tuple[int, int]] = []
        for i, ref in enumerate(refs):
            cell = self.cell(ref, f"args[{i}]")
            if cell not in cells:
                cells.append(cell)
        return cells

    def close_area(self, *refs: Any) -> None:
        cells = [c for c in self._area(refs) if c not in self.game.closed_cells]
        if not cells:
            raise self.fail("grail_war.amend.same", "args", what="closed", value=" ".join(map(str, refs)))
        self.game.closed_cells = sorted({*self.game.closed_cells, *cells}, key=lambda c: (c[1], c[0]))
        self.public("gm_close_area", area=[cell_name(c) for c in sorted(cells, key=lambda c: (c[1], c[0]))])

    def open_area(self, *refs: Any) -> None:
        cells = [c for c in self._area(refs) if c in self.game.closed_cells]
        if not cells:
            raise self.fail("grail_war.amend.same", "args", what="open", value=" ".join(map(str, refs)))
        self.game.closed_cells = [c for c in self.game.closed_cells if c not in cells]
        self.public("gm_open_area", area=[cell_name(c) for c in sorted(cells, key=lambda c: (c[1], c[0]))])

    def reassign(self, who: Any, player: Any) -> None:
        c = self.character(who)
        name = str(player).strip()
        if not safe_name(name):
            raise self.fail("grail_war.amend.player_name", "args[1]", value=player)
        if name == c.player:
            raise self.fail("grail_war.amend.same", "args[1]", what=f"{c.id}.player", value=name)
        old, c.player = c.player, name
        # who plays which character is not public (ruling P10): the thread learns that a
        # replacement player took a character over, the two players which one
        self.public("gm_reassign", new_player=name)
        self.log.emit("gm_reassign_detail", to=sorted({old, name}), character=c.id, new_player=name, old_player=old)


def default_summary(state: dict[str, Any], player: str, lang: str) -> str:
    """What a player who sends no sheet does this turn (for `gm status`)."""
    # read from the state itself: `gm status` asks this of every missing player, and building the
    # whole game for each made it quadratic in the number of players (ruling O11's growth bench)
    chars = [c for c in state["characters"] if c["player"] == player and c["alive"]]
    words = labels(lang)
    where = words["import"]["sep"].join(f"{c['name']} {c['pos']}" for c in chars) or "—"
    return words["summary"]["stays"].format(where=where)

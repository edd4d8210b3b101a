"""Scenario YAML (spec §5) to the initial :class:`Game`, refusing bad input with the field at fault."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.deck import Card, Deck, parse_card_spec
from gm_tool.core.events import EventLog
from gm_tool.core.grid import Cell, cell_name
from gm_tool.core.rules import defaults
from gm_tool.core.schema import Validator, id_problem
from gm_tool.core.store import safe_name
from gm_tool.rulesets.grail_war import cards, data
from gm_tool.rulesets.grail_war.model import CLASSES, KINDS, RIVER, SIDES_DEFAULT, TERRAIN, Board, Character, Game, Stronghold
from gm_tool.rulesets.grail_war.switches import MAX_RULE, SWITCHES

# the seed's values, from the declared switches (switches.py); an integer knob set to null is off
# only where its default is (territory_after)
DEFAULT_RULES: dict[str, Any] = defaults(SWITCHES)
# rules whose value is a word, with the words allowed (the first is the seed's reading)
WORD_RULES: dict[str, tuple[str, ...]] = {s.name: tuple(s.choices) for s in SWITCHES
                                          if s.choices and all(isinstance(c, str) for c in s.choices) and not s.integer}

TOP_KEYS = {k: k for k in ("ruleset", "name", "title", "description", "sides", "map", "rules", "characters", "deck",
                            "skills")}
MAP_KEYS = {k: k for k in ("name", "width", "height", "rows", "strongholds", "tunnels")}
SH_KEYS = {k: k for k in ("id", "name", "pos", "kind", "territory", "owner")}
CHAR_KEYS = {k: k for k in ("id", "name", "class", "side", "player", "hp", "max_hp", "move", "pos", "hand",
                            "equipment", "skills", "title")}
EQUIPMENT_BASE_ID = 1000

# What one turn can resolve in seconds (bench/bench_growth.py): the turn draws one map picture
# per player, so its cost grows with players x cells; a bigger scenario is refused at gm new.
MAX_CELLS = 40_000            # e.g. 200 x 200
MAX_CHARACTERS = 200
MAX_CHARACTER_CELLS = 1_000_000  # characters x cells: 200 on 70 x 70, 25 on 200 x 200
# Copies of the draw deck (ruling C33): card ids run 1 .. 89 x MAX_DECKS, below the equipment's.
MAX_DECKS = 10
AUTO = ("auto", "自动")

def _skills(v: Validator, raw: Any) -> dict[str, dict[str, Any]]:
    """The scenario's own skill definitions (``skills:``, ruling C27), each checked as the
    bundled data/skills.yaml ones are; problems are reported at ``skills.<id>.<what>``."""
    import json

    from gm_tool.rulesets.grail_war.combat import skills as skilldefs

    if raw is None or not v.typed(raw, dict, "skills"):
        return {}
    bundled = skilldefs.registry()
    out: dict[str, dict[str, Any]] = {}
    for sid, d in raw.items():
        p = f"skills.{sid}"
        if not safe_name(sid):
            v.add("grail_war.skill_id", p, value=sid)
            continue
        if sid in bundled:
            v.add("grail_war.skill_clash", p, value=sid, allowed=", ".join(bundled))
            continue
        bad = skilldefs.problems(d)
        for problem in bad:
            what = problem.split(":", 1)[0] if ":" in problem and isinstance(d, dict) else ""
            v.add("grail_war.skill_bad", f"{p}.{what}" if what else p, problem=problem)
        if bad:
            continue
        try:  # states are JSON: a YAML date or the like cannot travel with the game
            out[sid] = json.loads(json.dumps(d, ensure_ascii=False))
        except (TypeError, ValueError):
            v.add("grail_war.skill_bad", p, problem=repr(d))
    return out


def build(scenario: dict[str, Any], source: str, seed: str, lang: str = "zh", log: EventLog | None = None) -> Game:
    """The game at turn 0: every problem of the scenario is reported at once, naming its field.
    The shuffles of the deck and the equipment pile are GM-only chance events in ``log``."""
    v = Validator(source, lang)
    top = v.unknown_keys(scenario, TOP_KEYS)
    sides = _sides(v, top)
    if "map" not in top:
        v.add("field.required", "map")
        v.raise_if_any()
    built = _board(v, top["map"], sides)
    rules = _rules(v, top.get("rules") or {})
    if built is None:
        v.raise_if_any()
        raise AssertionError("a board that failed validation leaves a problem")
    board, strongholds = built
    rules["decks"] = _decks(v, rules, top.get("characters"))
    pool, equipment = _cards(rules["decks"])
    setup = _Setup(v, board, sides, pool, equipment, _skills(v, top.get("skills")), top.get("skills"))
    characters, deal_later = _characters(setup, top.get("characters") or [])
    for i, c in enumerate(characters):  # their numbers on every map and table, for the whole game
        c.label = str(i + 1)
    _check_capacity(v, characters, rules)
    _check_deck_order(v, top.get("deck"), pool)
    v.raise_if_any()
    _shuffle_and_deal(Chance(seed, "setup", log), pool, equipment, deal_later, top.get("deck"), rules)
    return Game(0, list(sides), board, characters, strongholds, pool, equipment, rules, skills=setup.skills)


def _sides(v: Validator, top: dict[str, Any]) -> list[Any]:
    """``sides``: two or more distinct usable names (else the default two, reported)."""
    sides = top.get("sides", list(SIDES_DEFAULT))
    if not v.typed(sides, list, "sides") or len(sides) < 2 or len(set(map(str, sides))) != len(sides) \
            or not all(safe_name(s) for s in sides):
        v.add("grail_war.sides", "sides", value=sides)
        sides = list(SIDES_DEFAULT)
    return sides


def _rules(v: Validator, raw: Any) -> dict[str, Any]:
    """``rules``: the defaults, with the scenario's integers over them (null only where the
    default is null: an option that is off)."""
    rules = dict(DEFAULT_RULES)
    if v.typed(raw, dict, "rules"):
        for key, value in raw.items():
            if key not in DEFAULT_RULES:
                v.add("field.unknown", f"rules.{key}", allowed=", ".join(DEFAULT_RULES))
            elif key in WORD_RULES:
                if value in WORD_RULES[key]:
                    rules[key] = value
                else:
                    v.add("field.choice", f"rules.{key}", value=value, allowed=", ".join(WORD_RULES[key]))
            elif key == "decks":
                if value in AUTO or (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_DECKS):
                    rules[key] = "auto" if value in AUTO else value
                else:
                    v.add("grail_war.rules_decks", "rules.decks", value=repr(value), limit=MAX_DECKS)
            elif (value is None and DEFAULT_RULES[key] is not None) or (
                    value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0)):
                v.add("field.type", f"rules.{key}", expected="integer ≥ 0", got=repr(value))
            elif value is not None and value > MAX_RULE:
                v.add("field.range", f"rules.{key}", value=value, allowed=f"0-{MAX_RULE}")
            else:
                rules[key] = value
    return rules


def _decks(v: Validator, rules: dict[str, Any], raw: Any) -> int:
    """How many copies of the draw deck the game is played with (ruling C33): ``rules.decks``, or
    with ``auto`` the fewest copies whose cards the opening deal (the hands the scenario gives and
    ``initial_hand`` for every other character) takes at most half of. A deal bigger than the
    copies is refused, naming ``rules.decks``."""
    size = len(data.load("deck")["cards"])
    roster = {c["id"]: c for c in (data.load("characters") or {}).get("characters", [])} \
        if (data.HERE / "characters.yaml").exists() else {}
    deal = 0
    for ch in raw if isinstance(raw, list) else []:
        if isinstance(ch, dict):
            base = {**roster.get(ch.get("id"), {}), **ch} if isinstance(ch.get("id"), str) else ch
            hand = base.get("hand") if "hand" in base else [None] * rules["initial_hand"]
            deal += len(hand) if isinstance(hand, list) else 0
    n = rules["decks"]
    if n == "auto":
        n = 1
        while 2 * deal > n * size and n < MAX_DECKS:
            n += 1
    if deal > n * size:
        v.add("grail_war.deal_too_big", "rules.decks", deal=deal, decks=n, cards=n * size, limit=MAX_DECKS)
    return int(n)


def _cards(copies: int = 1) -> tuple[Deck, list[Card]]:
    """The deck (R8) in its file's order, ``copies`` times (ruling C33: copy k's card i has id
    89k + i), and the equipment pile (R6), one card per equipment."""
    texts = data.load("deck")["cards"]
    deck_cards = [Card(k * len(texts) + i, *parse_card_spec(text))
                  for k in range(copies) for i, text in enumerate(texts, 1)]
    marks = data.load("deck").get("equipment") or {}
    equipment = [Card(EQUIPMENT_BASE_ID + i, *parse_card_spec(f"{name} {marks[name]}" if name in marks else name))
                 for i, name in enumerate(n for n in cards.all_names() if cards.is_equipment(n))]
    return Deck(list(reversed(deck_cards)), [], "deck"), equipment


def _shuffle_and_deal(chance: Chance, pool: Deck, equipment: list[Card], deal_later: list[Character],
                      deck: Any, rules: dict[str, Any]) -> None:
    """Shuffle what is left of the deck, put ``deck.order`` on top, deal the hands the scenario
    did not give, shuffle the equipment pile."""
    rest = sorted(pool.draw_pile, key=lambda card: card.id)
    chance.shuffle(rest, why="deck", label=Card.to_dict)
    on_top = [_take_from(rest, spec) for spec in ((deck or {}).get("order") or [])]
    pool.draw_pile = rest + list(reversed(on_top))
    for c in deal_later:
        c.hand = pool.draw(rules["initial_hand"], None)
    chance.shuffle(equipment, why="equipment", label=Card.to_dict)


def _mappings(v: Validator, raw: list[Any], path: str, keys: dict[str, str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each item of a list of mappings with its path (``path[i]``), unknown keys reported; an
    item that is not a mapping is reported and skipped."""
    for i, item in enumerate(raw):
        p = f"{path}[{i}]"
        if v.typed(item, dict, p):
            yield p, v.unknown_keys(item, keys, f"{p}.")


def _unique(v: Validator, value: Any, seen: set[Any], path: str) -> None:
    """Report ``value`` at ``path`` if it was seen before; remember it."""
    if value in seen:
        v.add("field.duplicate", path, value=value)
    seen.add(value)


# the map -------------------------------------------------------------------------------------------
def _board(v: Validator, spec: Any, sides: list[str]) -> tuple[Board, list[Stronghold]] | None:
    """``map``: a bundled map's name or an inline map: size, rows, tunnels, strongholds."""
    if isinstance(spec, str):
        if spec not in data.map_names():
            v.add("field.choice", "map", value=spec, allowed=", ".join(data.map_names()) or "(inline map)")
            return None
        spec = data.load(f"maps/{spec}")
    if not v.typed(spec, dict, "map"):
        return None
    spec = v.unknown_keys(spec, MAP_KEYS, "map.")
    width = v.integer(spec, "width", "map.width", 1, 702)
    height = v.integer(spec, "height", "map.height", 1, 9999)
    if width is None or height is None:
        if spec.get("width") is None:  # absent or null (a wrong value is reported by v.integer)
            v.add("field.required", "map.width")
        if spec.get("height") is None:
            v.add("field.required", "map.height")
        return None
    if width * height > MAX_CELLS:  # refused before anything the size of the map is built (issue 16)
        v.add("grail_war.map_too_big", "map", cells=width * height, width=width, height=height, limit=MAX_CELLS)
        return None
    rows = _rows(v, spec.get("rows"), width, height)
    if rows is None:
        return None
    board = Board(width, height, [str(r) for r in rows], [])
    _tunnels(v, spec.get("tunnels") or [], board)
    return board, _strongholds(v, spec.get("strongholds") or [], board, sides)


def _rows(v: Validator, rows: Any, width: int, height: int) -> list[Any] | None:
    """``map.rows``: ``height`` strings of ``width`` terrain letters (all plain when absent)."""
    if rows is None:
        rows = ["." * width] * height
    if not v.typed(rows, list, "map.rows"):
        return None
    if len(rows) != height:
        v.add("field.range", "map.rows", value=f"{len(rows)} rows", allowed=f"{height} rows (map.height)")
    for i, row in enumerate(rows):
        if not v.typed(row, str, f"map.rows[{i}]"):
            continue
        if len(row) != width:
            v.add("field.range", f"map.rows[{i}]", value=f"{len(row)} characters", allowed=f"{width} (map.width)")
        bad = sorted(set(row) - set(TERRAIN))
        if bad:
            v.add("field.choice", f"map.rows[{i}]", value="".join(bad), allowed=" ".join(TERRAIN))
    return rows


def _on_rows(board: Board, c: Cell) -> bool:
    """Whether the rows reach this cell, so that its terrain can be looked up."""
    return c[1] < len(board.rows) and isinstance(board.rows[c[1]], str) and c[0] < len(board.rows[c[1]])


def _tunnels(v: Validator, tunnels: Any, board: Board) -> None:
    """``map.tunnels``: two distinct mouths off the river and a length each."""
    if not v.typed(tunnels, list, "map.tunnels"):
        return
    for i, t in enumerate(tunnels):
        p = f"map.tunnels[{i}]"
        if not v.typed(t, dict, p):
            continue
        mouths = t.get("mouths")
        if not isinstance(mouths, list) or len(mouths) != 2:
            v.add("field.type", f"{p}.mouths", expected="2 cells", got=repr(mouths))
            continue
        cells = [v.cell(m, f"{p}.mouths[{j}]", board.width, board.height) for j, m in enumerate(mouths)]
        length = v.integer(t, "length", f"{p}.length", 1, 99, default=1)
        for j, c in enumerate(cells):
            in_river = c is not None and _on_rows(board, c) and board.terrain(c) == RIVER
            if c is not None and (in_river or (j == 1 and c == cells[0])):
                v.add("grail_war.tunnel_mouth", f"{p}.mouths[{j}]", cell=cell_name(c))
        mouth_cells = [c for c in cells if c is not None]
        if len(mouth_cells) == len(cells):
            board.tunnels.append({"mouths": [cell_name(c) for c in mouth_cells], "length": length})


def _strongholds(v: Validator, raw: Any, board: Board, sides: list[str]) -> list[Stronghold]:
    """``map.strongholds``: unique ids, a kind, a position inside its territory and off the
    river, territories that do not overlap."""
    strongholds: list[Stronghold] = []
    if not v.typed(raw, list, "map.strongholds"):
        return strongholds
    owned: dict[Cell, int] = {}
    ids: set[int] = set()
    for p, s in _mappings(v, raw, "map.strongholds", SH_KEYS):
        sid = v.integer(s, "id", f"{p}.id", 1)
        if sid is None:
            v.add("field.required", f"{p}.id")
            continue
        _unique(v, sid, ids, f"{p}.id")
        pos = v.cell(s.get("pos"), f"{p}.pos", board.width, board.height)
        kind = v.choice(s, "kind", {k: k for k in KINDS}, f"{p}.kind")
        if kind is None and "kind" not in s:
            v.add("field.required", f"{p}.kind")
        owner = v.choice(s, "owner", {x: x for x in sides}, f"{p}.owner")
        territory = _territory(v, s, p, sid, board, owned)
        if pos is not None and territory and pos not in territory:
            v.add("grail_war.stronghold_outside", f"{p}.pos", cell=cell_name(pos))
        if pos is not None and _on_rows(board, pos) and board.terrain(pos) == RIVER:
            v.add("grail_war.stronghold_river", f"{p}.pos", cell=cell_name(pos))
        if pos is not None and kind is not None:
            given = s.get("name")
            name = given if isinstance(given, str) else f"#{sid}"
            strongholds.append(Stronghold(sid, name, pos, kind, territory, owner))
    return strongholds


def _territory(v: Validator, s: dict[str, Any], p: str, sid: int, board: Board, owned: dict[Cell, int]) -> list[Cell]:
    """A stronghold's territory (its own cell when not given); a cell another stronghold
    owns is reported."""
    territory: list[Cell] = []
    given = s.get("territory")
    if given is not None and not v.typed(given, list, f"{p}.territory"):  # `territory: true` crashed
        return territory
    for j, t in enumerate(given or ([s["pos"]] if "pos" in s else [])):
        c = v.cell(t, f"{p}.territory[{j}]", board.width, board.height)
        if c is None:
            continue
        if c in owned and owned[c] != sid:
            v.add("grail_war.territory_overlap", f"{p}.territory[{j}]", cell=cell_name(c), other=owned[c])
        elif c not in territory:
            owned[c] = sid
            territory.append(c)
    return territory


# the characters -------------------------------------------------------------------------------------
class _Setup:
    """What reading the characters needs from the rest of the scenario."""

    def __init__(self, v: Validator, board: Board, sides: list[str], pool: Deck, equipment: list[Card],
                 skills: dict[str, dict[str, Any]], raw_skills: Any):
        from gm_tool.rulesets.grail_war.combat import skills as skilldefs

        self.v, self.board, self.sides, self.pool, self.equipment = v, board, sides, pool, equipment
        self.skills = skills          # the scenario's own skills that passed their checks
        self.raw_skills = raw_skills  # the scenario's ``skills:`` as written
        self.bundled = skilldefs.registry()
        self.roster = {c["id"]: c for c in (data.load("characters") or {}).get("characters", [])} \
            if (data.HERE / "characters.yaml").exists() else {}
        self.class_defaults = data.load("classes")


def _characters(setup: _Setup, raw: Any) -> tuple[list[Character], list[Character]]:
    """``characters``: each one read over its roster entry. Returns the characters and those
    whose hand is to be dealt."""
    v = setup.v
    if not v.typed(raw, list, "characters") or not raw:
        v.add("field.required", "characters")
        v.raise_if_any()
    cells = setup.board.width * setup.board.height
    if len(raw) > MAX_CHARACTERS:  # what a turn resolves in seconds (issue 16, ruling O10)
        v.add("grail_war.too_many_characters", "characters", n=len(raw), limit=MAX_CHARACTERS)
        v.raise_if_any()
    if len(raw) * cells > MAX_CHARACTER_CELLS:
        v.add("grail_war.too_much_work", "characters", n=len(raw), cells=cells, limit=MAX_CHARACTER_CELLS)
        v.raise_if_any()
    characters: list[Character] = []
    deal_later: list[Character] = []
    seen_ids: set[str] = set()
    for p, ch in _mappings(v, raw, "characters", CHAR_KEYS):
        cid = ch.get("id")
        if not isinstance(cid, str) or not safe_name(cid):
            v.add("grail_war.bad_id", f"{p}.id", value=cid)
            continue
        if (bad := id_problem(cid, "", (), seen_ids)) is not None:  # medea beside Medea
            v.add(bad[0], f"{p}.id", **bad[1])
            continue
        _unique(v, cid, seen_ids, f"{p}.id")
        base = {**setup.roster.get(cid, {}), **ch}
        c = _character(setup, base, cid, p)
        if c is None:
            continue
        if "hand" in base:
            _hand(setup, c, base["hand"], p)
        else:
            deal_later.append(c)
        _gear(setup, c, base.get("equipment") or {}, p)
        characters.append(c)
    return characters, deal_later


def _character(setup: _Setup, base: dict[str, Any], cid: str, p: str) -> Character | None:
    """One character's class, side, player, position, HP, move and skills (None if unusable)."""
    v = setup.v
    cls = v.choice(base, "class", {c: c for c in CLASSES} | {c.lower(): c for c in CLASSES}, f"{p}.class")
    if cls is None:
        if "class" not in base:
            v.add("field.required", f"{p}.class")
        return None
    side = v.choice(base, "side", {s: s for s in setup.sides}, f"{p}.side")
    player = base.get("player", cid)
    if not safe_name(player):
        v.add("player.bad_name", f"{p}.player", player=player)
    pos = v.cell(base.get("pos"), f"{p}.pos", setup.board.width, setup.board.height)
    defaults = setup.class_defaults[cls]
    max_hp = v.integer(base, "max_hp", f"{p}.max_hp", 1, 99, default=base.get("hp", defaults["hp"]) if isinstance(base.get("hp", 0), int) else defaults["hp"])
    hp = v.integer(base, "hp", f"{p}.hp", 1, max_hp or 99, default=max_hp)
    move = v.integer(base, "move", f"{p}.move", 0, 99, default=defaults["move"])
    skills = _skill_ids(setup, base.get("skills", []), p)
    if side is None or pos is None or hp is None or move is None or max_hp is None:
        if side is None and "side" not in base:
            v.add("field.required", f"{p}.side")
        return None
    return Character(cid, str(base.get("name", cid)), player, side, cls, hp, max_hp, pos, move, skills=list(skills))


def _skill_ids(setup: _Setup, skills: Any, p: str) -> list[str]:
    """A character's skills: ids of bundled skills or of the scenario's own."""
    v = setup.v
    if not isinstance(skills, list) or not all(isinstance(s, str) for s in skills):
        v.add("field.type", f"{p}.skills", expected="list of skill ids", got=repr(skills))
        return []
    for j, sid in enumerate(skills):
        if sid not in setup.bundled and sid not in setup.skills \
                and not (isinstance(setup.raw_skills, dict) and sid in setup.raw_skills):  # reported at skills.<id>
            v.add("field.choice", f"{p}.skills[{j}]", value=sid, allowed=", ".join([*setup.skills, *setup.bundled]))
    return skills


def _hand(setup: _Setup, c: Character, raw: Any, p: str) -> None:
    """A hand the scenario gives: cards taken out of the deck (never equipment)."""
    hand = raw if isinstance(raw, list) else None
    if hand is None:
        setup.v.add("field.type", f"{p}.hand", expected="list", got=repr(raw))
    for j, spec in enumerate(hand or []):
        card = _take_card(setup.v, setup.pool, spec, f"{p}.hand[{j}]")
        if card:
            c.hand.append(card)


def _gear(setup: _Setup, c: Character, equip: Any, p: str) -> None:
    """``equipment``: a weapon and an armour of the right slot, taken out of the equipment pile."""
    v = setup.v
    if not v.typed(equip, dict, f"{p}.equipment"):
        return
    for slot, name in equip.items():
        ep = f"{p}.equipment.{slot}"
        if slot not in ("weapon", "armor"):
            v.add("field.unknown", ep, allowed="weapon, armor")
            continue
        if name is None:
            continue
        canon = cards.canonical(name)
        if canon is None or cards.slot_of(canon) != slot:
            v.add("grail_war.bad_equipment", ep, value=name, slot=slot)
            continue
        item = next((e for e in setup.equipment if e.name == canon), None)
        if item is None:
            v.add("grail_war.equipment_taken", ep, value=canon)
            continue
        setup.equipment.remove(item)
        c.equipment[slot] = item


def _take_card(v: Validator, pool: Deck, spec: Any, path: str) -> Card | None:
    read = cards.read(v, spec, path)
    if read is None:
        return None
    canon, suit, rank = read
    if cards.is_equipment(canon):  # equipment comes from its own pile (R6), never in a hand
        v.add("grail_war.unknown_card", path, value=canon)
        return None
    card = pool.take(canon, suit, rank)
    if card is None:
        v.add("grail_war.card_unavailable", path, value=spec)
    return card


def _take_from(pile: list[Card], spec: Any) -> Card:
    name, suit, rank = parse_card_spec(spec)
    canon = cards.canonical(name)
    for i, card in enumerate(pile):
        if canon is not None and card.matches(canon, suit, rank):
            return pile.pop(i)
    raise AssertionError("checked by _check_deck_order")


def _check_deck_order(v: Validator, deck: Any, pool: Deck) -> None:
    if deck is None:
        return
    if not v.typed(deck, dict, "deck"):
        return
    for key in deck:
        if key != "order":
            v.add("field.unknown", f"deck.{key}", allowed="order")
    order = deck.get("order") or []
    if not v.typed(order, list, "deck.order"):
        return
    trial = list(pool.draw_pile)
    for j, spec in enumerate(order):
        read = cards.read(v, spec, f"deck.order[{j}]")
        if read is None:
            continue
        canon, suit, rank = read
        hit = next((i for i in range(len(trial) - 1, -1, -1) if trial[i].matches(canon, suit, rank)), None)
        if hit is None:
            v.add("grail_war.card_unavailable", f"deck.order[{j}]", value=spec)
        else:
            trial.pop(hit)


def _check_capacity(v: Validator, characters: list[Character], rules: dict[str, Any]) -> None:
    cells: dict[Cell, list[Character]] = {}
    for c in characters:
        cells.setdefault(c.pos, []).append(c)
    for cell, group in cells.items():
        per_side: dict[str, int] = {}
        for c in group:
            per_side[c.side] = per_side.get(c.side, 0) + 1
        if len(group) > rules["cell_capacity"] or max(per_side.values()) > rules["side_capacity"]:
            v.add("grail_war.capacity", "characters", cell=cell_name(cell),
                  limit=f"{rules['cell_capacity']}/{rules['side_capacity']}")

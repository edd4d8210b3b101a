"""A scenario (contract §3) into the initial state: board, seats and teams, decks checked by S21,
3.3's neutrals, shuffles from the campaign's seeded generator, opening hands, kings on their
thrones, set pieces, then seat 1's start and draw phases (the state stands at its action phase).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name, column_name, parse_cell
from gm_tool.core.rules import check_rules
from gm_tool.core.schema import id_problem
from gm_tool.errors import GmError, Problem
from gm_tool.rulesets.shenjianglu import cards as cardlib
from gm_tool.rulesets.shenjianglu.cards import NEUTRAL, rank, wrong
from gm_tool.rulesets.shenjianglu.effects import FACE_VALUES
from gm_tool.rulesets.shenjianglu.engine import Turn, first_labels, new_unit, team_of
from gm_tool.rulesets.shenjianglu.keys import aliases
from gm_tool.rulesets.shenjianglu.rules import RULES, SWITCHES

TOP_KEYS = ("ruleset", "name", "description", "board", "seats", "units", "catalogue", "rules")
BOARD_KEYS = aliases({"width": ("宽", "寬"), "height": ("高",), "void": ("空缺",), "thrones": ("王位",),
                       "spawns": ("出兵点", "出兵點"), "facing": ("朝向",)})
SEAT_KEYS = aliases({"player": ("玩家",), "king": ("王",), "faction": ("阵营", "陣營"), "deck": ("套牌", "牌堆"),
                      "hand": ("手牌",), "graveyard": ("墓地",), "order": ("顺序", "順序", "牌序")})
UNIT_KEYS = aliases({"id": ("编号", "編號"), "card": ("卡牌",), "owner": ("玩家", "主人"), "pos": ("位置",),
                      "facing": ("朝向",), "damage": ("伤害", "傷害"), "equipment": ("装备", "裝備")})
FACINGS = {a: v for a, v in FACE_VALUES.items() if v != "back"}
PLAYER_RE = re.compile(r"^[\w\-]{1,32}$")
ID_RE = re.compile(r"^[\w\-]{1,32}$")
MIN_DECK, MAX_DECK = 15, 50


class _Check:
    def __init__(self, source: str):
        self.source = source
        self.problems: list[Problem] = []

    def bad(self, code: str, field: str, **params: Any) -> None:
        self.problems.append(Problem(code, self.source, field, params))

    def keys(self, data: Any, table: dict[str, str], path: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            self.bad("shenjianglu.type.mapping", path, **wrong(data))
            return {}
        out = {}
        for k, v in data.items():
            canon = table.get(k) if isinstance(k, str) else None
            if canon is None:
                self.bad("field.unknown", f"{path}.{k}", allowed=", ".join(sorted(set(table.values()))))
            else:
                out[canon] = v
        return out

    def names(self, value: Any, path: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            self.bad("shenjianglu.type.cards", path, **wrong(value))
            return []
        return [x.strip() for x in value]


def load_board(ref: Any, c: _Check) -> dict[str, Any] | None:
    if isinstance(ref, str):
        boards = cardlib.bundled_boards()
        if ref not in boards:
            c.bad("field.choice", "board", value=ref, allowed=", ".join(boards))
            return None
        ref = boards[ref]
    data = c.keys(ref, BOARD_KEYS, "board")
    before = len(c.problems)
    w, h = data.get("width"), data.get("height")
    for k, v in (("width", w), ("height", h)):
        if type(v) is not int or not 3 <= v <= 26:
            c.bad("field.range", f"board.{k}", value=v, allowed="3-26")
    if len(c.problems) > before or not isinstance(w, int) or not isinstance(h, int):  # (the last two are reported)
        return None

    def cell(v: Any, path: str) -> str | None:
        try:
            return cell_name(parse_cell(v, w, h))
        except ValueError:
            c.bad("cell.bad", path, value=v, cols=f"A-{column_name(w - 1)}", rows=h)
            return None

    raw_void = data.get("void") or []
    if not isinstance(raw_void, list):
        c.bad("shenjianglu.type.cells", "board.void", **wrong(raw_void))
        raw_void = []
    void = [cell(v, f"board.void.{i}") for i, v in enumerate(raw_void, 1)]
    out: dict[str, Any] = {"width": w, "height": h, "void": [v for v in void if v], "thrones": {}, "spawns": {},
                           "facing": {}}
    for key in ("thrones", "spawns", "facing"):
        table = data.get(key)
        if not isinstance(table, dict) or not table:
            c.bad("field.required", f"board.{key}")
            return None
    seats = sorted(_seat_no(k) or 0 for k in data["thrones"])
    if seats != list(range(1, len(seats) + 1)) or len(seats) < 2:
        c.bad("shenjianglu.scenario.seat_numbers", "board.thrones", allowed="1..k, 2 <= k <= 8")
        return None
    used: set[str] = set()
    for n in seats:
        throne = cell(_by_seat(data["thrones"], n), f"board.thrones.{n}")
        spawns = _by_seat(data["spawns"], n)
        if not isinstance(spawns, list) or not spawns:
            c.bad("field.required", f"board.spawns.{n}")
            spawns = []
        cells = [cell(v, f"board.spawns.{n}.{i}") for i, v in enumerate(spawns, 1)]
        face = _by_seat(data["facing"], n)
        facing = FACINGS.get(face) if isinstance(face, str) else None
        if facing is None:
            c.bad("field.choice", f"board.facing.{n}", value=face, allowed="N, E, S, W")
        for i, x in enumerate([throne, *cells]):
            if x is None:
                continue
            field = f"board.thrones.{n}" if i == 0 else f"board.spawns.{n}.{i}"
            if x in out["void"] or x in used:
                c.bad("shenjianglu.scenario.cell_reused", field, cell=x)
            used.add(x)
        out["thrones"][str(n)] = throne
        out["spawns"][str(n)] = [x for x in cells if x]
        out["facing"][str(n)] = facing
    return out if len(c.problems) == before else None


def _seat_no(key: Any) -> int | None:
    if type(key) is int:
        return key
    if isinstance(key, str) and key.strip().isdigit():
        return int(key)
    return None


def _by_seat(table: dict[Any, Any], n: int) -> Any:
    return table.get(n, table.get(str(n)))


def check_deck(deck: list[str], king: dict[str, Any], cat: dict[str, Any], c: _Check, path: str) -> None:
    """S21: 15-50 cards (the king not counted), of the king's faction or neutral; per name at most
    2 white/green/blue, 1 purple/orange."""
    if not MIN_DECK <= len(deck) <= MAX_DECK:
        c.bad("shenjianglu.scenario.deck_size", path, count=len(deck), allowed=f"{MIN_DECK}-{MAX_DECK}")
    for name, n in sorted(Counter(deck).items()):
        card = cat.get(name)
        if card is None:
            c.bad("shenjianglu.scenario.unknown_card", path, card=name)
            continue
        if card.get("role") == "king":
            c.bad("shenjianglu.scenario.king_in_deck", path, card=name)
        if card["faction"] not in (king["faction"], NEUTRAL):
            c.bad("shenjianglu.scenario.deck_faction", path, card=name, faction=card["faction"],
                  allowed=f"{king['faction']}, {NEUTRAL}")
        limit = 2 if rank(card["quality"]) <= 2 else 1
        if n > limit:
            c.bad("shenjianglu.scenario.deck_copies", path, card=name, count=n, limit=limit, quality=card["quality"])


class _Neutrals:
    """3.3's neutral cards for seats given ``faction:`` (ruling 13). ``shared`` (l.87 將中立陣營牌
    ...隨機發給每人4張): one pool, shuffled once, dealt in seat order; as many copies of the base
    pool as the table needs (l.215: more seats take another set), a card that would break the
    deck-building limits for a seat (l.237) left for the next. ``per_seat``: each seat its own
    copy of the pool."""

    def __init__(self, pool: list[str], cat: dict[str, Any], chance: Chance, rules: dict[str, Any], seats: int):
        self.base, self.cat, self.chance, self.n = list(pool), cat, chance, rules["neutrals"]
        self.shared = rules["neutral_pool"] == "shared"
        self.pile: list[str] | None = None
        self.seats = seats

    def deal(self, seat: int, deck: list[str]) -> list[str]:
        if not self.shared:
            pool = list(self.base)
            self.chance.shuffle(pool, why=f"neutrals seat {seat}")
            return pool[:self.n]
        if self.pile is None:
            copies = max(1, -(-self.n * self.seats // max(1, len(self.base))))
            self.pile = self.base * copies
            self.chance.shuffle(self.pile, why="neutrals")
        got: list[str] = []
        for card in list(self.pile):
            if len(got) >= self.n:
                break
            limit = 2 if rank(self.cat[card]["quality"]) <= 2 else 1
            if (deck + got).count(card) < limit:
                got.append(card)
                self.pile.remove(card)
        return got


def _take(pool: list[str], names: list[str], c: _Check, path: str) -> None:
    for i, name in enumerate(names, 1):
        if name in pool:
            pool.remove(name)
        else:
            c.bad("shenjianglu.scenario.not_in_deck", f"{path}.{i}", card=name)


def build(scenario: dict[str, Any], source: str, seed: str, log: EventLog | None = None) -> dict[str, Any]:
    """Turn 0 from a scenario; each shuffle is a GM-only chance event in ``log`` (spec §4)."""
    c = _Check(source)
    for key in scenario:
        if key not in TOP_KEYS:
            c.bad("field.unknown", str(key), allowed=", ".join(TOP_KEYS))
    try:
        rules = check_rules(SWITCHES, scenario.get("rules"), source)
    except GmError as exc:
        c.problems.extend(exc.problems)
        rules = dict(RULES)
    extra: dict[str, Any] = {}
    raw_cat = scenario.get("catalogue") or {}
    if not isinstance(raw_cat, dict):
        c.bad("shenjianglu.type.mapping", "catalogue", **wrong(raw_cat))
        raw_cat = {}
    for name, body in raw_cat.items():
        if not isinstance(name, str) or not name.strip() or len(name) > 20:
            c.bad("shenjianglu.type.card_name", f"catalogue.{name}", **wrong(name))
            continue
        card = cardlib.read_card(name, body, source, f"catalogue.{name}", c.problems)
        if card:
            extra[name] = card
    cat = {**cardlib.bundled(), **extra}
    board = load_board(scenario.get("board"), c) if "board" in scenario else None
    if "board" not in scenario:
        c.bad("field.required", "board")
    raw_seats = scenario.get("seats")
    if not isinstance(raw_seats, dict) or not raw_seats:
        c.bad("field.required", "seats")
        raise GmError(c.problems)
    numbers = sorted(_seat_no(k) or 0 for k in raw_seats)
    k = len(numbers)
    thrones = len(board["thrones"]) if board else 8
    if numbers != list(range(1, k + 1)) or not 2 <= k <= min(8, thrones):
        c.bad("shenjianglu.scenario.seat_count", "seats", count=k, allowed=f"seats 1..k, 2 <= k <= {min(8, thrones)}")
    if c.problems:
        raise GmError(c.problems)
    chance = Chance(seed, "setup", log)
    decks = cardlib.bundled_decks()
    dealer = _Neutrals(decks["neutrals"], cat, chance, rules, k)
    seats: list[dict[str, Any]] = []
    players: set[str] = set()
    for n in range(1, k + 1):
        path = f"seats.{n}"
        raw_seat = _by_seat(raw_seats, n)
        data = c.keys(raw_seat, SEAT_KEYS, path)
        if not isinstance(raw_seat, dict):
            continue
        player = data.get("player")
        if player is None:
            c.bad("field.required", f"{path}.player")
            continue
        if not isinstance(player, str) or not PLAYER_RE.match(player):
            c.bad("player.bad_name", f"{path}.player", player=player)
            continue
        if player in players:
            c.bad("field.duplicate", f"{path}.player", value=player)
        players.add(player)
        faction = data.get("faction")
        if faction is not None and (not isinstance(faction, str) or faction not in decks["factions"]):
            c.bad("field.choice", f"{path}.faction", value=faction, allowed=", ".join(decks["factions"]))
            continue
        king_name = data.get("king") or (decks["factions"][faction]["king"] if faction else None)
        king = cat.get(king_name) if isinstance(king_name, str) else None
        if king is None or king.get("role") != "king":
            kings = sorted(x for x, v in cat.items() if v.get("role") == "king")
            c.bad("shenjianglu.scenario.no_king", f"{path}.king", card=king_name, allowed=", ".join(kings))
            continue
        dealt: list[str] = []
        if "deck" in data:
            deck = c.names(data["deck"], f"{path}.deck")
        elif faction is not None:
            deck = list(decks["factions"][faction]["deck"])
            dealt = dealer.deal(n, deck)
            deck.extend(dealt)
        else:
            c.bad("field.required", f"{path}.deck")
            continue
        check_deck(deck, king, cat, c, f"{path}.deck")
        rest = list(deck)
        hand = c.names(data.get("hand"), f"{path}.hand") if "hand" in data else None
        grave = c.names(data.get("graveyard"), f"{path}.graveyard")
        order = c.names(data.get("order"), f"{path}.order")
        _take(rest, grave, c, f"{path}.graveyard")
        if hand is not None:
            _take(rest, hand, c, f"{path}.hand")
        _take(rest, order, c, f"{path}.order")
        chance.shuffle(rest, why=f"deck seat {n}")
        if hand is None:
            hand, rest = rest[:rules["initial_hand"]], rest[rules["initial_hand"]:]
        seats.append({"seat": n, "player": player, "team": team_of(n), "king": king_name, "mana": rules["mana"],
                      "draw": rules["draw"], "hand": hand, "hand_count": 0, "deck_count": 0, "deck": order + rest,
                      "graveyard": grave, "out": False, "summoned": 0, "neutrals": dealt})
    if c.problems or board is None:  # no board is a problem reported above
        raise GmError(c.problems)
    state: dict[str, Any] = {"ruleset": "shenjianglu", "name": str(scenario.get("name", "")), "turn": 0,
                             "next": None, "winner": None, "board": board, "rules": rules, "catalogue": extra,
                             "seats": seats, "units": []}
    by_player = {s["player"]: s for s in seats}
    for seat in seats:
        no = str(seat["seat"])
        state["units"].append(new_unit(f"K{no}", seat["king"], seat, board["thrones"][no], board["facing"][no], 0, True))
    _set_pieces(state, scenario.get("units") or [], by_player, cat, c)
    if c.problems:
        raise GmError(c.problems)
    state["labels"] = first_labels(state["units"])
    t = Turn(state, EventLog())
    for u in state["units"]:
        t.restat(u)
    t.begin_next(first=True)
    return t.finish()


def _set_pieces(state: dict[str, Any], raw: Any, by_player: dict[str, Any], cat: dict[str, Any], c: _Check) -> None:
    if not isinstance(raw, list):
        c.bad("shenjianglu.type.list", "units", **wrong(raw))
        return
    board = state["board"]
    w, h = board["width"], board["height"]
    units = {u["id"]: u for u in state["units"]}
    for i, entry in enumerate(raw, 1):
        path = f"units.{i}"
        data = c.keys(entry, UNIT_KEYS, path)
        uid = data.get("id")
        if not isinstance(uid, str) or not ID_RE.match(uid):
            c.bad("field.required", f"{path}.id")
            continue
        king = units.get(uid) if re.fullmatch(r"K[1-8]", uid) else None
        if king is None and re.fullmatch(r"K[1-8]", uid):
            c.bad("shenjianglu.scenario.no_such_king", f"{path}.id", id=uid)
            continue
        if king is not None:
            for key in ("card", "owner", "equipment"):
                if key in data:
                    c.bad("shenjianglu.scenario.king_fixed", f"{path}.{key}")
            u = king
        else:
            if uid in units:
                c.bad("field.duplicate", f"{path}.id", value=uid)
                continue
            card_name = data.get("card")
            card = cat.get(card_name) if isinstance(card_name, str) else None
            if card is None or card["type"] != "character" or card.get("role") == "king":
                c.bad("shenjianglu.scenario.unknown_card", f"{path}.card", card=data.get("card"))
                continue
            owner = data.get("owner")
            seat = by_player.get(owner) if isinstance(owner, str) else None
            if seat is None:
                c.bad("player.unknown", f"{path}.owner", player=data.get("owner"), allowed=", ".join(by_player))
                continue
            if (bad := id_problem(uid, str(owner), by_player, units)) is not None:  # Κ2 beside K2, bob-1 for alice
                c.bad(bad[0], f"{path}.id", **bad[1])
                continue
            u = new_unit(uid, card["name"], seat, "", board["facing"][str(seat["seat"])], 0)
            units[uid] = u
            state["units"].append(u)
            if "pos" not in data:
                c.bad("field.required", f"{path}.pos")
        if "pos" in data:
            try:
                cell = parse_cell(data["pos"], w, h)
            except ValueError:
                c.bad("cell.bad", f"{path}.pos", value=data["pos"], cols=f"A-{column_name(w - 1)}", rows=h)
                continue
            if cell_name(cell) in board["void"]:
                c.bad("shenjianglu.scenario.void_cell", f"{path}.pos", cell=cell_name(cell))
            u["pos"] = cell_name(cell)
        if "facing" in data:
            f = FACINGS.get(data["facing"]) if isinstance(data["facing"], str) else None
            if f is None:
                c.bad("field.choice", f"{path}.facing", value=data["facing"], allowed="N, E, S, W")
            else:
                u["facing"] = f
        if "damage" in data:
            if type(data["damage"]) is not int or data["damage"] < 0:
                c.bad("field.range", f"{path}.damage", value=data["damage"], allowed="0-")
            else:
                u["damage"] = data["damage"]
        if data.get("equipment") is not None:
            eq = cat.get(data["equipment"]) if isinstance(data["equipment"], str) else None
            if eq is None or eq["type"] != "equipment":
                c.bad("shenjianglu.scenario.unknown_card", f"{path}.equipment", card=data["equipment"])
            else:
                u["equipment"], u["equipment_by"] = eq["name"], u["owner"]
    seen: dict[str, str] = {}
    for u in state["units"]:
        if u["pos"] in seen:
            c.bad("shenjianglu.scenario.stacked", "units", cell=u["pos"], units=f"{seen[u['pos']]}, {u['id']}")
        seen[u["pos"]] = u["id"]

"""Order sheets (spec §4): parsing, aliases (the seed's own Chinese wording) and validation.

Each section of a sheet (keep, skill, ..., move) is one kind of action (:data:`ACTIONS`, see
gm_tool.core.actions): its reading, its options for the servant (the template, the bots and
`gm check` agree on them) and its application to the servant's :class:`Orders`.
``parse(game, sheet, source)`` returns :class:`Orders` or raises GmError listing every problem
with its field and what is allowed. Everything after parsing may trust the Orders it gets;
choices that turn impossible during resolution are skipped and logged there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from gm_tool.core import yamlpos
from gm_tool.core.actions import ActionKind, ActionTable, Reading
from gm_tool.core.deck import parse_card_spec
from gm_tool.core.grid import Cell, cell_name
from gm_tool.core.schema import Validator, has_exact_key
from gm_tool.errors import Problem
from gm_tool.rulesets.grail_war import cards, movement
from gm_tool.rulesets.grail_war.aliases import (
    DODGE_KEYS,
    EQUIP_KEYS,
    KEY_ALIASES,
    KEYS,
    MAGIC_KEYS,
    MOVE_KEYS,
    SKILL_KEYS,
    STRIKE_KEYS,
)
from gm_tool.rulesets.grail_war.hands import Ref, pick
from gm_tool.rulesets.grail_war.model import RIVER, Character, Game

yamlpos.register_aliases(KEYS, SKILL_KEYS, STRIKE_KEYS, DODGE_KEYS, MAGIC_KEYS, EQUIP_KEYS, MOVE_KEYS)

NONE = "none"
TARGET_PRIORITY = {"more_hp": "more_hp", "血多的优先": "more_hp", "血多": "more_hp", "血多的角色": "more_hp",
                   "more_cards": "more_cards", "牌多的优先": "more_cards", "牌多": "more_cards", "牌多的角色": "more_cards"}
STRIKE_AGAINST = {"enemy": "enemy", "对敌人出杀": "enemy", "敌人": "enemy",
                  "skill": "skill", "对技能出杀": "skill", "技能": "skill",
                  "magic": "magic", "对魔术牌出杀": "magic", "魔术牌": "magic",
                  NONE: NONE, "不出杀": NONE}
DODGE_AGAINST = {"strike": "strike", "对杀出闪": "strike", "杀": "strike",
                 "skill": "skill", "对技能出闪": "skill", "技能": "skill",
                 "magic": "magic", "对魔术牌出闪": "magic", "魔术牌": "magic",
                 NONE: NONE, "不出闪": NONE}
GEM = {"self_first": "self_first", "自用": "self_first", "自己优先": "self_first", "宝石自用": "self_first",
       "用 自用": "self_first",
       "ally_first": "ally_first", "救队友优先": "ally_first", "队友优先": "ally_first", "对队友优先": "ally_first",
       "用 对队友优先": "ally_first", "用 救队友优先": "ally_first",
       "never": "never", "不用": "never", "不使用": "never", "不用宝石": "never", "不使用宝石": "never"}
ZONES = {"weapon": "weapon", "武器": "weapon", "armor": "armor", "防具": "armor",
         "hand": "hand", "手牌": "hand", "equipment": "equipment", "装备区": "equipment", "装备": "equipment"}
MAGIC_ZONES = {k: x for k, x in ZONES.items() if x != "equipment"}
HAND_SIZE = {"more": "more", "手牌多": "more", "多": "more", "手牌多的": "more", "手牌多的优先": "more",
             "fewer": "fewer", "手牌少": "fewer", "少": "fewer", "手牌少的": "fewer", "手牌少的优先": "fewer"}
SPECIAL = {"teleport": "teleport", "瞬移": "teleport", "传送": "teleport", "瞬间转移": "teleport", "瞬间移动": "teleport",
           "climb": "climb", "攀登": "climb", "攀爬": "climb", "jump": "jump", "跳跃": "jump",
           "cross": "cross", "渡河": "cross", "destroy": "destroy", "破坏": "destroy", "破坏据点": "destroy"}
BOOL = {True: True, False: False, "yes": True, "no": False, "是": True, "否": False,
        "使用": True, "不使用": False, "发动": True, "不发动": False, "用": True, "不用": False}
# the seed's answers that name what they answer (l.139 "不使用咒", l.143 "不使用魔术牌。")
CURSE = {**BOOL, "使用咒": True, "不使用咒": False, "用咒": True, "不用咒": False}
MAGIC_USE = {**BOOL, "使用魔术牌": True, "不使用魔术牌": False}
SKILL_USE = {**BOOL, "使用角色技能": True, "不使用角色技能": False}
# the seed's short names of the converting equipment (l.133 "发动外典 将杀转换成闪")
CONVERTER_NAMES = {"外典": "正式外典", "佩耳修斯": "佩耳修斯之剑"}

_FULL_DIGITS = str.maketrans({chr(0xFF10 + i): str(i) for i in range(10)} | {"．": ".", "。": "."})
_NUMBERING = re.compile(r"^\s*\d+(?:\s*\.\s*\d+)*\s*[.、:)）]?\s*")
_PUNCT = re.compile(r"[\s,，、。.?？!！:：;；()（）【】\"'“”‘’]+")


def _plain(text: str) -> str:
    """A key or value as the seed writes it, for comparison: without the numbering it may carry
    (``2.1.``, ``1.1``, ``０．``), spaces and punctuation."""
    t = text.translate(_FULL_DIGITS)
    return _PUNCT.sub("", _NUMBERING.sub("", t, count=1))


_PLAIN_CACHE: dict[int, tuple[dict[Any, Any], dict[str, Any]]] = {}


def _plain_table(table: dict[Any, Any]) -> dict[str, Any]:
    """``table`` keyed by the plain form of each of its text keys (built once per table)."""
    cached = _PLAIN_CACHE.get(id(table))
    if cached is not None and cached[0] is table:
        return cached[1]
    out: dict[str, Any] = {}
    for alias, canon in table.items():
        if isinstance(alias, str):
            out.setdefault(_plain(alias), canon)
    if len(_PLAIN_CACHE) < 256:
        _PLAIN_CACHE[id(table)] = (table, out)
    return out


def _lookup(table: dict[Any, Any], value: Any) -> Any:
    """``table[value]``, else by the plain form of a text value; None when neither."""
    try:
        hit = table.get(value.strip() if isinstance(value, str) else value)
    except TypeError:
        return None
    if hit is None and isinstance(value, str):
        hit = _plain_table(table).get(_plain(value))
    elif hit is not None and not isinstance(value, str) and not has_exact_key(table, value):
        return None  # 0 is not False, 1.0 is not 1 (equal in Python, not in a sheet)
    return hit


def _is_chinese(text: str) -> bool:
    return any(ord(ch) > 0x2E7F for ch in text)


_SHOWN = 8  # longer aliases (the seed's whole headings) are accepted but not listed


def allowed_zh(table: dict[Any, Any]) -> str:
    """What a table accepts, for a Chinese message: each canonical value with the seed's words
    for it (``自用/自己优先（self_first）``), in the table's order."""
    words: dict[Any, list[str]] = {}
    for alias, canon in table.items():
        words.setdefault(canon, [])
        if isinstance(alias, str) and _is_chinese(alias) and len(alias) <= _SHOWN and alias not in words[canon]:
            words[canon].append(alias)
    shown = {True: "true", False: "false"}
    return "、".join(f"{'/'.join(ws)}（{shown.get(c, c)}）" if ws else str(shown.get(c, c)) for c, ws in words.items())


class SheetValidator(Validator):
    """The schema helpers for a sheet: keys and values also read in their plain form (the
    seed's numbering and punctuation left out), and what is allowed told in the seed's words
    for a Chinese reader (the English codes for an English one)."""

    def __init__(self, source: str, lang: str = "zh") -> None:
        super().__init__(source, lang)
        self.written: dict[str, str] = {}  # field -> the key as the sheet wrote it, where it differs

    def rewrite(self, field: str) -> str:
        """``field`` with its parts named as the sheet wrote them (``1.1是否使用角色技能.use``), so
        its line can be found in the text (ruling G8)."""
        for made in sorted(self.written, key=len, reverse=True):
            if field == made or field.startswith((made + ".", made + "[")):
                return self.written[made] + field[len(made):]
        return field

    def unknown_keys(self, data: dict[str, Any], allowed: dict[str, str], path: str = "") -> dict[str, Any]:
        out: dict[str, Any] = {}
        plain = _plain_table(allowed)
        for key, value in data.items():
            name = allowed.get(key) if isinstance(key, str) else None
            if name is None and isinstance(key, str):
                name = plain.get(_plain(key))
            if name is not None and name != key:  # problems are named in the sheet's own words (宝石, not gem)
                self.written[f"{path}{name}"] = self.rewrite(f"{path}{key}")
            if name is None:
                self.add("grail_war.sheet.unknown_key", f"{path}{key}", allowed=", ".join(sorted(set(allowed.values()))),
                         allowed_zh=allowed_zh(allowed))
            elif name in out:
                self.add("field.duplicate", f"{path}{key}", value=key)
            else:
                out[name] = value
        return out

    def choice(self, data: dict[str, Any], key: str, options: dict[Any, Any], path: str, default: Any = None) -> Any:
        value = data.get(key)
        if value is None:
            return default
        if type(value) is str:  # fast path: the table's own spelling (_lookup's first try)
            hit = options.get(value.strip())
            if hit is not None:
                return hit
        hit = _lookup(options, value)
        if hit is None:
            self.add("grail_war.sheet.choice", path, value=data[key],
                     allowed=", ".join(sorted({str(v) for v in options.values()})), allowed_zh=allowed_zh(options))
            return default
        return hit


@dataclass(slots=True)
class Entry:
    """One line of a 出杀 / 出闪 priority list."""

    against: str
    count: int | None = None
    via: str | None = None


@dataclass(slots=True)
class EquipmentChoice:
    use: bool = True
    zones: list[str] = field(default_factory=lambda: ["equipment", "hand"])


@dataclass(slots=True)
class Orders:
    player: str
    turn: int
    character: str
    keep: list[str] | None = None
    keep_refs: list[Ref] | None = None  # the keep list as written: (name, suit, rank), suit and rank None for a bare name
    skill_use: bool = True
    skill_discard: list[str] = field(default_factory=list)
    skill_discard_refs: list[Ref] = field(default_factory=list)  # likewise for skill_discard
    skill_name: str | None = None     # which skill, when the sheet names one
    target_priority: str = "more_hp"
    strike_order: list[Entry] = field(default_factory=lambda: [Entry("enemy"), Entry("magic")])
    dodge_order: list[Entry] = field(default_factory=lambda: [Entry("strike"), Entry("magic"), Entry("skill")])
    use_curse: bool = False
    gem: str = "self_first"
    magic_use: bool = True
    zone_priority: list[str] = field(default_factory=lambda: ["hand", "weapon", "armor"])
    hand_size: str = "more"
    equipment: dict[str, EquipmentChoice] = field(default_factory=dict)
    move_to: Cell | None = None
    move_via: list[Cell] = field(default_factory=list)
    move_special: str | None = None
    # what will not happen as the sheet may expect (gm check warns, still accepting the sheet)
    warnings: list[Problem] = field(default_factory=list, compare=False, repr=False)

    def discard_refs(self) -> list[Ref]:
        """The skill's discards as (name, suit, rank): as written, or by name only."""
        if len(self.skill_discard_refs) == len(self.skill_discard):
            return list(self.skill_discard_refs)
        return [(name, None, None) for name in self.skill_discard]


def _canon(v: Validator, data: dict[str, Any], allowed: dict[str, str], path: str = "") -> dict[str, Any]:
    """``v.unknown_keys(data, allowed, path)``, without its work when every key is the table's
    own once (it reports the problems, and remembers the sheet's spellings, otherwise)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = allowed.get(key) if isinstance(key, str) else None
        if name is None or name in out or name != key:
            return v.unknown_keys(data, allowed, path)
        out[name] = value
    return out


def default(game: Game, player: str) -> Orders:
    """A missing sheet: stay, default options (the options `gm template` shows)."""
    char = _actor(game, player) or game.of_player(player)[0]
    return Orders(player=player, turn=game.turn + 1, character=char.id)


def _bool(v: Validator, data: dict[str, Any], key: str, path: str, default: bool) -> bool:
    return v.choice(data, key, BOOL, path, default)


def _card_list(v: Validator, raw: Any, path: str, char: Character, *, must_hold: bool = True) -> tuple[list[str], list[Ref]]:
    """The cards a list names, as (names, refs); one text may name several (``【闪】♦4【杀】``,
    ``闪 ♦4, 杀``). A card named with its suit and rank is that card of the hand (ruling G10);
    each card named must be held, once."""
    if raw is None:
        return [], []
    if type(raw) is list:  # fast path: every item a card's own name (what bots and templates write)
        names = _card_names()
        if all(type(item) is str and item in names for item in raw):
            bare: list[Ref] = [(item, None, None) for item in raw]
            if not must_hold or all(held is not None for held in pick(char.hand, bare)):
                return list(raw), bare  # the same as below; a card not held is told below
    items = raw if isinstance(raw, list) else [raw]
    if isinstance(raw, str) and cards.canonical(raw) is None:
        items = cards.split_text(items[0])
    refs: list[Ref] = []
    where: list[str] = []
    for i, item in enumerate(items):
        p = f"{path}[{i}]" if isinstance(raw, list) else path
        several = isinstance(item, str) and isinstance(raw, list) and cards.canonical(item) is None
        parts = cards.split_text(item) if several else [item]
        for part in parts if len(parts) > 1 else [item]:  # 【闪】【杀】 in one line of the list
            card = cards.read(v, part, p)
            if card is not None:
                refs.append(card)
                where.append(p)
    named = [ref[0] for ref in refs]
    if must_hold:
        for ref, held, p in zip(refs, pick(char.hand, refs), where):
            if held is not None:
                continue
            hand = "、".join(c.label for c in char.hand) or "—"
            if ref[1] is not None or ref[2] is not None:
                v.add("grail_war.card_not_in_hand", p, value=cards.label(*ref), hand=hand)
            else:
                v.add("grail_war.not_held", p, value=ref[0], held=sum(1 for c in char.hand if c.name == ref[0]), hand=hand)
    return named, refs


@cache
def _card_names() -> frozenset[str]:
    """The names :func:`cards.read` takes as they are: each card's own name, which
    ``parse_card_spec`` reads as a bare name and ``cards.canonical`` maps to itself."""
    return frozenset(n for n in cards.all_names() if parse_card_spec(n) == (n, None, None) and cards.canonical(n) == n)


# words a 出杀 / 出闪 line may carry besides what it answers and the converting equipment
# (seed l.133 "2.发动外典 将杀转换成闪 对魔术牌出闪")
_FILLER = re.compile("将杀转换成闪|将闪转换成杀|转换成闪|转换成杀|转换|发动|用|以")
# a count on a list line (seed l.77 "可注明出杀的张数", l.84): 2张, （2张）, ×2, in the plain form
# (brackets and spaces gone), as gm import reads it from a message
_ENTRY_COUNT = re.compile(rf"([1-9]\d?|{cards.NUMERALS})张|[x×*]([1-9]\d?)")
_LEAD_COUNT = re.compile(rf"\s*([1-9]\d?|{cards.NUMERALS})\s*张")  # 2张 对敌人出杀: a count first, not the seed's numbering


def _entry_text(v: Validator, text: str, against: dict[str, str], path: str) -> dict[str, Any] | None:
    """A list line written as one text, the way the seed writes it (``2.1.对敌人出杀``,
    ``发动外典 将杀转换成闪 对魔术牌出闪``, ``对敌人出杀（2张）``): ``{against, via?, count?}``; None
    after reporting."""
    hit = _lookup(against, text)
    if hit is not None:
        return {"against": text}
    lead = _LEAD_COUNT.match(text)
    plain = _plain(text) if lead is None else lead.group(1) + "张" + _plain(text[lead.end():])
    words = sorted((w for w in against if w.endswith(("出杀", "出闪"))), key=len, reverse=True)
    said = next((w for w in words if w in plain), None)
    rest = plain.replace(said, "", 1) if said else plain
    names = sorted([*CONVERTER_NAMES, *CONVERTERS["strike_order"]], key=len, reverse=True)
    via = next((n for n in names if n in rest), None)
    rest = _FILLER.sub("", rest.replace(via, "", 1) if via else rest)
    found = _ENTRY_COUNT.fullmatch(rest) if said is not None and rest else None
    count = cards.number(found.group(1) or found.group(2)) if found is not None else 0
    if count:  # 十十张 (0) is no count: the line stays refused
        rest = ""
    if said is None:  # not a line at all: what the list allows
        v.choice({"against": text}, "against", against, path)
        return None
    if rest:
        v.add("grail_war.sheet.entry_text", path, value=text, allowed=", ".join(sorted(set(against.values()))),
              allowed_zh="、".join(w for w in against if w.endswith(("出杀", "出闪"))))
        return None
    entry: dict[str, Any] = {"against": said}
    if count:
        entry["count"] = count
    if via is not None:
        entry["via"] = CONVERTER_NAMES.get(via, via)
    return entry


def _converter(value: Any) -> str | None:
    """The equipment a ``via`` names: a card's name, or the seed's short name (外典)."""
    if not isinstance(value, str):
        return None
    text = _plain(value)
    text = text[2:] if text.startswith("发动") else text
    return cards.canonical(text) or CONVERTER_NAMES.get(text) or cards.canonical(value)


def _priority(v: Validator, raw: Any, path: str, keys: dict[str, str], against: dict[str, str],
              char: Character, with_via: bool) -> list[Entry] | None:
    if raw is None:
        return None
    if isinstance(raw, str):  # one text, its lines in order (seed l.130-132 "对敌人出杀，对魔术牌出杀，不出杀")
        raw = _lines_of(raw)
    if not v.typed(raw, list, path):
        return None
    if any(type(item) is str and _SEPARATED.search(item) for item in raw):  # [对敌人出杀，不出杀]: a YAML
        raw = [w for item in raw for w in (_lines_of(item) if type(item) is str else [item])]  # flow list, one item
    out: list[Entry] = []
    stopped = False
    for i, item in enumerate(raw):
        # fast path: a line that is an answer as the table writes it (``enemy``, or
        # ``{against: enemy, count: 2}`` with canonical keys, no via): what the general path
        # below reads from it, without the copies and paths it builds
        said = item if type(item) is str else item.get("against") if type(item) is dict and item.keys() <= _ENTRY_KEYS else None
        if type(said) is str and said in against and said == said.strip():
            count = item.get("count") if type(item) is dict else None
            if (count is None or (type(count) is int and 1 <= count <= 99)) and (type(item) is str or item.get("via") is None):
                what = against[said]
                if what == NONE:
                    stopped = True
                if not stopped:
                    out.append(Entry(what, count, None))
                continue
        p = f"{path}[{i}]"
        spot = f"{p}.against"  # where a problem with what the line answers is told
        if isinstance(item, str):
            spot = p  # a line written as a text: told at the line itself
            item = {"against": item} if item in against else _entry_text(v, item, against, p)
            if item is None:
                continue
        if not v.typed(item, dict, p):
            continue
        item = _canon(v, item, keys, f"{p}.")
        said = item.get("against")
        if isinstance(said, str) and said not in against and _lookup(against, said) is None:
            entry = _entry_text(v, item["against"], against, spot)
            if entry is None:
                continue
            item = {**item, **entry} if "via" not in item else {**item, "against": entry["against"]}
        what = v.choice(item, "against", against, spot)
        if what is None:
            if "against" not in item:
                v.add("field.required", f"{p}.against")
            continue
        count = v.integer(item, "count", f"{p}.count", 1, 99)
        via = None
        if with_via and item.get("via") is not None:
            via = _converter(item["via"])
            if via is None:
                v.add("grail_war.unknown_card", f"{p}.via", value=item["via"])
            elif not char.equipped(via):
                v.add("grail_war.not_equipped", f"{p}.via", value=via)
            elif via not in CONVERTERS[path]:
                v.add("grail_war.bad_via", f"{p}.via", value=via, allowed=", ".join(CONVERTERS[path]))
        if what == NONE:
            stopped = True
        if not stopped:
            out.append(Entry(what, count, via))
    return out


# what separates the lines of a list written as one text: commas of either width, 、, ;, line
# breaks, and brackets closing one line and opening the next (【对敌人出杀】【不出杀】)
_SEPARATED = re.compile(r"[,，、;；\n]|】\s*【")


def _lines_of(text: str) -> list[str]:
    return [w.strip() for w in _SEPARATED.split(text) if w.strip(" 【】")]


_ENTRY_KEYS = frozenset({"against", "count", "via"})  # a list line's canonical keys (STRIKE_KEYS, DODGE_KEYS)
# equipment that lets a card stand for the one a list answers with (via:)
CONVERTERS = {"strike_order": ("正式外典", "佩耳修斯之剑"), "dodge_order": ("正式外典",)}

def _check_skill(v: Validator, skill: dict[str, Any], discard: list[str], char: Character,
                 custom: dict[str, Any] | None = None) -> str | None:
    """The skill section against the character's skills: a named skill must be one of them
    (its id returned), and discards must match the cost of the active skill they pay for."""
    from gm_tool.rulesets.grail_war.combat import skills as defs

    own = defs.of(char.skills, custom)
    name = skill.get("name")
    chosen = [s for s in own if s.trigger == "active"]
    found = None
    if name is not None:
        hit = next((s for s in own if name in (s.id, s.name)), None)
        if hit is None:
            v.add("grail_war.skill_unknown", "skill.name", value=name, allowed=", ".join(s.name for s in own) or "—")
            return None
        found = hit.id
        chosen = [hit]
    if discard:
        paying = [s for s in chosen if s.cost.get("discard")]
        if not paying:  # nothing here discards cards: say what the skills are, not "discards 0"
            v.add("grail_war.sheet.no_discard", "skill.discard", got=len(discard),
                  skills="、".join(s.name for s in own) or "—")
        elif len(discard) != paying[0].cost["discard"]:
            v.add("grail_war.skill_discards", "skill.discard", skill=paying[0].name,
                  need=paying[0].cost["discard"], got=len(discard))
    return found


def parse(game: Game, sheet: dict[str, Any], source: str, lang: str = "zh") -> Orders:
    v = SheetValidator(source, lang)
    sheet, moved = _value_keys(v, sheet)
    data = _canon(v, sheet, KEYS)
    char = _character(v, game, data)
    o = Orders(player=data["player"], turn=game.turn + 1, character=char.id)
    reading = SheetReading(game, o.player, source, v=v, char=char, data=data)
    for kind in ACTIONS.kinds.values():  # each section read by its kind, in the table's order
        order = kind.read(data.get(kind.name), {}, reading, kind.name)
        if order is not None:
            kind.apply(o, order)
    v.written.update(moved)
    if v.ok:
        o.warnings = _warnings(v, char, o)
    for problem in (*v.problems, *o.warnings):  # told at the key as the sheet wrote it
        if problem.field is not None:
            problem.field = v.rewrite(problem.field)
    v.raise_if_any()
    return o


def _warnings(v: Validator, char: Character, o: Orders) -> list[Problem]:
    """What the hand limit at the start of the turn (ruling C23) will undo of a valid sheet: a
    card the skill discards cut away (the skill is then skipped, ruling C24), and cards the keep
    line names beyond the limit."""
    from gm_tool.rulesets.grail_war.hands import choose_kept

    limit = char.hand_limit()
    if len(char.hand) <= limit:
        return []
    _, dropped = choose_kept(char, o.keep, o.keep_refs)
    gone = {c.id for c in dropped}
    out: list[Problem] = []
    for i, card in enumerate(pick(char.hand, o.discard_refs())):
        if card is not None and card.id in gone:
            out.append(Problem("grail_war.sheet.discard_cut", v.source, f"skill.discard[{i}]",
                               {"card": f"【{card.label}】", "count": len(char.hand), "limit": limit}))
    if o.keep is not None and len(o.keep) > limit:
        refs: list[Ref] = o.keep_refs if o.keep_refs is not None and len(o.keep_refs) == len(o.keep) else \
            [(n, None, None) for n in o.keep]
        cut = [card for card in pick(char.hand, refs) if card is not None and card.id in gone]
        if cut:
            out.append(Problem("grail_war.sheet.keep_cut", v.source, "keep",
                               {"named": len(o.keep), "limit": limit, "cards": "".join(f"【{c.label}】" for c in cut)}))
    return out


# a key that is one of the seed's answers (l.129-143 "2.1.对敌人出杀", "1.2血多的优先", "不使用咒"):
# plain text -> (the key it belongs to, what it says there)
_VALUE_KEYS: dict[str, tuple[str, Any]] = {
    **{_plain(w): ("strike_order", w) for w in STRIKE_AGAINST if w.endswith("出杀")},
    **{_plain(w): ("dodge_order", w) for w in DODGE_AGAINST if w.endswith("出闪")},
    **{_plain(w): ("target_priority", w) for w in TARGET_PRIORITY if _is_chinese(w) and len(w) > 2},
    **{_plain(w): ("use_curse", x) for w, x in CURSE.items() if isinstance(w, str) and "咒" in w},
    **{_plain(w): ("magic", x) for w, x in MAGIC_USE.items() if isinstance(w, str) and "魔术牌" in w},
}
# the character lines heading the seed's SAMPLE (l.121-124 "角色:阿尔托利亚 CASTER 当前4血", "武器:【万华杖】",
# "装备:【正式外典】", "手牌:【杀】 ..."): information, not orders
_INFO_KEYS = {"武器", "防具", "手牌", "当前", "体力", "当前体力", "位置"}
_LINE_WORDS = sorted((w for w in (*STRIKE_AGAINST, *DODGE_AGAINST) if w.endswith(("出杀", "出闪"))), key=len, reverse=True)
_WHAT = {"strike_order": "出杀顺序", "dodge_order": "出闪顺序", "target_priority": "目标优先", "use_curse": "咒", "magic": "魔术牌"}


def _value_key(key: str) -> tuple[str, Any] | None:
    """What an answer-key stands for: the seed's answer as the key, or a list line that carries
    more (``2.发动外典 将杀转换成闪 对魔术牌出闪``), then the whole key is the line."""
    plain = _plain(key)
    hit = _VALUE_KEYS.get(plain)
    if hit is None and plain in _INFO_KEYS:
        return ("_info", None)
    if hit is None:
        said = next((w for w in _LINE_WORDS if w in plain), None)
        if said is not None:
            hit = ("strike_order" if said in STRIKE_AGAINST else "dodge_order", key)
    return hit


def _value_keys(v: Validator, sheet: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The sheet with its answer-keys (``2.1.对敌人出杀: ``, ``不使用咒: ``) folded into the keys
    they answer, in the order written, and ``{field made: the key as written}`` so a problem is
    told at the line the player wrote (ruling G8). A key that is a key is left alone."""
    for k in sheet:
        if k not in KEYS and isinstance(k, str):
            break
    else:  # every key a key as the table writes it: nothing to fold (the loop below finds nothing)
        return sheet, {}
    plain_keys = _plain_table(KEYS)
    found = [(k, hit) for k in sheet if isinstance(k, str) and k not in KEYS and _plain(k) not in plain_keys
             for hit in [_value_key(k)] if hit is not None]
    if not found:
        return sheet, {}
    out = {k: x for k, x in sheet.items() if k not in {key for key, _ in found}}
    given = {KEYS.get(k) or plain_keys.get(_plain(k)) for k in out if isinstance(k, str)}
    moved: dict[str, str] = {}
    for key, (canon, said) in found:
        value = sheet[key]
        if canon == "_info":
            v.add("grail_war.sheet.info_key", key, key=key)
            continue
        if canon in given:
            v.add("grail_war.sheet.value_key", key, key=key, what=canon, what_zh=_WHAT[canon])
            continue
        yes = _lookup(BOOL, value) if isinstance(value, (str, bool)) else None
        if canon in ("strike_order", "dodge_order"):
            if yes is False:
                continue
            if isinstance(value, bool) or value is None or yes is True:
                entry: Any = said
            elif isinstance(value, int):
                entry = {"against": said, "count": value}
            elif isinstance(value, dict):
                entry = {"against": said, **value}
            elif isinstance(value, str):
                entry = f"{said} {value}"
            else:
                v.add("grail_war.sheet.value_key_value", key, key=key, value=value)
                continue
            moved[f"{canon}[{len(out.setdefault(canon, []))}]"] = key
            out[canon].append(entry)
            continue
        if value is not None and yes is None:
            v.add("grail_war.sheet.value_key_value", key, key=key, value=value)
            continue
        moved[canon] = key
        if canon == "target_priority":
            if yes is not False:
                out[canon] = said
        elif canon == "magic":
            out[canon] = {"use": said if yes is not False else not said}
        else:
            out[canon] = said if yes is not False else not said
        given.add(canon)
    return out, moved


def _character(v: Validator, game: Game, data: dict[str, Any]) -> Character:
    """``turn``, ``player`` and ``character``: whose sheet this is, for which turn (stops at
    the first of these problems that leaves nothing to check the rest against). A dead
    character takes no orders (ruling G9)."""
    turn, player, cid = data.get("turn"), data.get("player"), data.get("character")
    if type(turn) is int and turn == game.turn + 1 and type(player) is str and type(cid) is str:
        for c in game.of_player(player):  # fast path: a sound header naming a living character
            if cid == c.id or cid == c.name:  # the one the general path below finds first
                if c.alive:
                    return c
                break
    missing = [key for key in ("turn", "player") if key not in data]
    for key in missing:
        v.add("field.required", key)
    if missing:
        v.raise_if_any()
    player = data["player"]
    mine = game.of_player(player) if isinstance(player, str) else []  # every player has a character
    if not mine:
        v.add("player.unknown", "player", player=player, allowed=", ".join(game.players()))
        v.raise_if_any()
    v.turn(data, "turn", game.turn + 1)
    living = [c for c in mine if c.alive]
    cid = data.get("character", (living or mine)[0].id)
    words = cid.split() if isinstance(cid, str) else []  # the seed's "角色:阿尔托利亚 CASTER 当前4血"
    char = next((c for c in mine if cid in (c.id, c.name)), None) or \
        next((c for c in mine if words and words[0] in (c.id, c.name)), None)
    if char is None:
        v.add("field.choice", "character", value=cid, allowed=", ".join(f"{c.id} ({c.name})" for c in mine))
        v.raise_if_any()
    assert char is not None
    if not char.alive:
        names = "、".join(c.name for c in mine if not c.alive)
        if living:
            v.add("grail_war.orders.dead", "character", character=char.name,
                  allowed=", ".join(f"{c.id}（{c.name}）" for c in living))
        else:
            v.add("grail_war.orders.all_dead", "character" if "character" in data else "player", player=player,
                  character=names)
        v.raise_if_any()
    return char


def _section(v: Validator, raw: Any, keys: dict[str, str], path: str, short: str = "use",
             short_types: tuple[type, ...] = (bool, str), required: bool = False) -> dict[str, Any] | None:
    """A section of the sheet with its keys made canonical; a bare value of ``short_types``
    stands for ``{short: value}``. None when absent (unless ``required``) or, reported, when
    it is not a mapping."""
    if raw is None and not required:
        return None
    if isinstance(raw, short_types):
        raw = {short: raw}
    if not v.typed(raw, dict, path):
        return None
    return _canon(v, raw, keys, f"{path}.")


def _zone_list(v: Validator, raw: Any, table: dict[str, str], path: str) -> list[str] | None:
    """A list of zones, each read through ``table`` (or one text naming them in order, as the
    seed's l.146 "装备区，手牌"); None when absent or not a list."""
    if isinstance(raw, str):
        raw = [w for w in re.split(r"[\s,，、;；/]+", raw) if w]
    if raw is None or not v.typed(raw, list, path):
        return None
    if all(type(z) is str and z in table and z == z.strip() for z in raw):  # fast path: the table's own words
        return [table[z] for z in raw]
    picked = (v.choice({"z": z}, "z", table, f"{path}[{i}]") for i, z in enumerate(raw))
    return [z for z in picked if z is not None]


# a cell whose comma YAML took for a separator inside {...} or [...] (移动: {目的地: （F,10）} is
# {目的地: "（F", "10）": null}; 途经: [(F,9)] is ["(F", "9)"]): its column, then its row
_CELL_HEAD = re.compile(r"\s*[（(【\[]?\s*([A-Za-z]{1,2})\s*")
_CELL_TAIL = re.compile(r"\s*(\d{1,3})\s*[)）】\]]?\s*")


def _joined(head: Any, tail: Any) -> str | None:
    """The cell ``head`` and ``tail`` were before a comma split it, or None."""
    h = _CELL_HEAD.fullmatch(head) if type(head) is str else None
    t = _CELL_TAIL.fullmatch(str(tail)) if type(tail) in (str, int) and h is not None else None
    return h.group(1) + t.group(1) if h is not None and t is not None else None


def _rejoined(move: dict[Any, Any]) -> dict[Any, Any]:
    """``move`` with each cell a comma split inside braces or brackets put back together (seed
    l.154 writes cells （C,11）, and a flow mapping or list splits them at the comma)."""
    out: dict[Any, Any] = {}
    last: Any = None
    for key, value in move.items():
        cell = _joined(out[last], key) if value is None and last is not None else None
        if cell is not None:
            out[last] = cell
            last = None
            continue
        if type(value) is list:
            value = _rejoined_list(value)
        out[key] = value
        last = key
    return out


def _rejoined_list(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for item in items:
        cell = _joined(out[-1], item) if out else None
        if cell is not None:
            out[-1] = cell
        else:
            out.append(item)
    return out


_COORDINATE = re.compile(r"坐标\s*[（(]?\s*([A-Za-z]{1,2})\s*[,，]?\s*(\d{1,3})\s*[)）]?\s*[。.]?$")
# the class movement 是 asks for (seed l.7-10, l.15, l.153); a CASTER's is its teleport when the
# destination is a stronghold it may teleport to (l.153 "可进行瞬间转移，目的地只能是自己方的据点")
_CLASS_SPECIAL = {"LANCER": "jump", "RIDER": "cross", "CASTER": "climb", "BERSERKER": "destroy"}

def _class_special(game: Game, char: Character, to: Cell | None) -> str | None:
    """The special movement that 是 asks for: a teleport when ``to`` is a stronghold it may
    teleport to, else the class's own movement, else None."""
    if to is not None and to in game.strongholds_by_pos() and movement.teleport_problem(game, char, to) is None:
        return "teleport"
    return _CLASS_SPECIAL.get(char.cls)


# the kinds of entry a sheet holds (gm_tool.core.actions): one class each ------------------------
@dataclass(kw_only=True)
class SheetReading(Reading[Game]):
    """Reading one sheet: the schema helpers (``v``, where every problem goes), the character it
    orders and the sheet with its keys made canonical (``data``)."""

    v: SheetValidator
    char: Character
    data: dict[str, Any]

    def problem(self, field_path: str, code: str, **params: Any) -> None:
        self.v.add(code, field_path, **params)


def _actor(game: Game, player: str) -> Character | None:
    """The character a player's sheet orders when it names none (the template's, ``default``'s)."""
    chars = [c for c in game.of_player(player) if c.alive]
    return chars[0] if chars else None


class SheetKind(ActionKind[Game, Any, Orders]):
    """One section of the sheet (spec §4): a standing choice for the servant's turn. ``read``
    takes the section's value (None when the sheet leaves it out) and returns what it chose, or
    None (nothing chosen, or problems told); ``apply`` writes it into the servant's Orders, which
    the movement and the fights consult as the turn resolves; ``options`` are the values a sheet
    may write for the servant ``default`` orders (the template's)."""

    def options(self, state: Game, actor: str) -> Iterable[dict[str, Any]]:
        char = _actor(state, actor)
        return () if char is None else ({self.name: value} for value in self.values(state, char))

    def values(self, game: Game, char: Character) -> Iterable[Any]:
        """The section's values ``char`` may write now, in a stable order."""
        raise NotImplementedError


def _aliases(name: str) -> tuple[str, ...]:
    return KEY_ALIASES[name]


class KeepKind(SheetKind):
    """``keep`` (保留): the hand cards to keep first when discarding (seed l.61)."""

    name = "keep"
    aliases = _aliases("keep")

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[Game], path: str) -> Any:
        assert isinstance(reading, SheetReading)
        return None if value is None else _card_list(reading.v, value, path, reading.char)

    def apply(self, game: Orders, order: tuple[list[str], list[Ref]]) -> None:
        game.keep, game.keep_refs = order

    def values(self, game: Game, char: Character) -> Iterable[list[str]]:
        names = list(dict.fromkeys(c.name for c in char.hand))
        yield []
        yield from ([name] for name in names)
        if len(char.hand) > 1:
            yield [c.name for c in char.hand]


@dataclass(slots=True)
class SkillChoice:
    use: bool
    discard: tuple[list[str], list[Ref]]
    name: str | None


class SkillKind(SheetKind):
    """``skill`` (技能): whether to use the character's skills, which one, and the cards it
    discards (also as the seed writes it on one line, l.129 "是 丢弃 万法破尽 王之财宝")."""

    name = "skill"
    aliases = _aliases("skill")

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[Game], path: str) -> SkillChoice | None:
        assert isinstance(reading, SheetReading)
        v, char = reading.v, reading.char
        if isinstance(value, str) and "丢弃" in value:
            use, _, discard = value.partition("丢弃")
            value = {"use": use.strip() or True, "discard": discard.strip() or None}
        skill = _section(v, value, SKILL_KEYS, path)
        if skill is None:
            return None
        choice = SkillChoice(v.choice(skill, "use", SKILL_USE, f"{path}.use", True),
                             _card_list(v, skill.get("discard"), f"{path}.discard", char), None)
        if choice.use and not char.skills and "use" in skill:
            v.add("grail_war.no_skill", f"{path}.use", character=char.id)
        choice.name = _check_skill(v, skill, choice.discard[0], char, reading.state.skills)
        return choice

    def apply(self, game: Orders, order: SkillChoice) -> None:
        game.skill_use = order.use
        game.skill_discard, game.skill_discard_refs = order.discard
        if order.name is not None:
            game.skill_name = order.name

    def values(self, game: Game, char: Character) -> Iterable[dict[str, Any]]:
        """Using them first (what a missing sheet does) when the character has skills; a use
        paying its discards with the first cards held when the active skill asks for some."""
        if not char.skills:
            yield {"use": False}
            return
        yield {"use": True}
        yield {"use": False}
        from gm_tool.rulesets.grail_war.combat import skills as defs

        active = [s for s in defs.of(char.skills, game.skills) if s.trigger == "active"]
        need = int(active[0].cost.get("discard", 0)) if active else 0
        if need and len(char.hand) >= need:
            yield {"use": True, "discard": [c.name for c in char.hand[:need]]}


class ChoiceKind(SheetKind):
    """A section answered by one word of a table (``table``: every spelling -> its code);
    ``codes`` are the answers in the order offered."""

    table: ClassVar[dict[Any, Any]] = {}
    codes: ClassVar[tuple[Any, ...]] = ()
    fallback: ClassVar[Any] = None  # what a problem leaves (the missing sheet's choice)

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[Game], path: str) -> Any:
        assert isinstance(reading, SheetReading)
        return reading.v.choice({self.name: value}, self.name, self.table, path, self.fallback)

    def apply(self, game: Orders, order: Any) -> None:
        setattr(game, self.name, order)

    def values(self, game: Game, char: Character) -> Iterable[Any]:
        return self.codes


class TargetKind(ChoiceKind):
    """``target_priority`` (目标优先, seed l.69-70): which enemy a 杀 goes to first."""

    name = "target_priority"
    aliases = _aliases("target_priority")
    table = TARGET_PRIORITY
    codes = ("more_hp", "more_cards")
    fallback = "more_hp"


class CurseKind(ChoiceKind):
    """``use_curse`` (咒, l.139): whether a 咒 is played."""

    name = "use_curse"
    aliases = _aliases("use_curse")
    table = CURSE
    codes = (True, False)
    fallback = False


class GemKind(ChoiceKind):
    """``gem`` (宝石, l.140-141): on whom a 宝石 is used first, or never."""

    name = "gem"
    aliases = _aliases("gem")
    table = GEM
    codes = ("self_first", "ally_first", "never")
    fallback = "self_first"


class OrderKind(SheetKind):
    """A 出杀 / 出闪 list (seed l.77-87): what the servant answers with a card, in order, each line
    with a count and the equipment a card is converted through (``via``)."""

    keys: ClassVar[dict[str, str]] = {}
    table: ClassVar[dict[str, str]] = {}
    answers: ClassVar[tuple[str, ...]] = ()  # what a line may answer, in the order offered
    converted: ClassVar[str] = ""  # the answer a converting equipment's card is played against

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[Game], path: str) -> list[Entry] | None:
        assert isinstance(reading, SheetReading)
        return _priority(reading.v, value, path, self.keys, self.table, reading.char, True)

    def apply(self, game: Orders, order: list[Entry]) -> None:
        setattr(game, self.name, order)

    def vias(self, char: Character) -> list[str]:
        """The converting equipment the character wears, that a line of this list may name."""
        return [name for name in CONVERTERS[self.name] if char.equipped(name)]

    def values(self, game: Game, char: Character) -> Iterable[list[Any]]:
        yield [{"against": a} for a in self.answers]
        yield from ([{"against": a}] for a in self.answers)
        yield [{"against": self.answers[0], "count": 2}, NONE]
        yield [NONE]
        yield from ([{"against": self.converted, "via": name}] for name in self.vias(char))


class StrikeKind(OrderKind):
    name = "strike_order"
    aliases = _aliases("strike_order")
    keys = STRIKE_KEYS
    table = STRIKE_AGAINST
    answers = ("enemy", "skill", "magic")
    converted = "enemy"


class DodgeKind(OrderKind):
    name = "dodge_order"
    aliases = _aliases("dodge_order")
    keys = DODGE_KEYS
    table = DODGE_AGAINST
    answers = ("strike", "skill", "magic")
    converted = "strike"


@dataclass(slots=True)
class MagicChoice:
    use: bool
    zones: list[str] | None
    hand_size: str | None


class MagicKind(SheetKind):
    """``magic`` (魔术牌, l.143-147): whether magic cards are played, the zone a card is taken
    from first, and whose hand first (more or fewer cards)."""

    name = "magic"
    aliases = _aliases("magic")
    zones = ("hand", "weapon", "armor")  # the missing sheet's zone priority
    hand_sizes = ("more", "fewer")

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[Game], path: str) -> MagicChoice | None:
        assert isinstance(reading, SheetReading)
        v = reading.v
        magic = _section(v, value, MAGIC_KEYS, path)
        if magic is None:
            return None
        use = v.choice(magic, "use", MAGIC_USE, f"{path}.use", True)
        zones = _zone_list(v, magic.get("zone_priority"), MAGIC_ZONES, f"{path}.zone_priority")
        return MagicChoice(use, zones, v.choice(magic, "hand_size", HAND_SIZE, f"{path}.hand_size"))

    def apply(self, game: Orders, order: MagicChoice) -> None:
        game.magic_use = order.use
        if order.zones is not None:
            game.zone_priority = order.zones
        if order.hand_size is not None:
            game.hand_size = order.hand_size

    def values(self, game: Game, char: Character) -> Iterable[dict[str, Any]]:
        for size in self.hand_sizes:
            yield {"use": True, "zone_priority": list(self.zones), "hand_size": size}
        yield {"use": True, "zone_priority": list(reversed(self.zones))}
        yield {"use": False}


class EquipmentKind(SheetKind):
    """``equipment`` (装备, l.145-146): per equipped card, whether its optional effect is used and
    which zones it takes cards from."""

    name = "equipment"
    aliases = _aliases("equipment")
    zones = ("equipment", "hand")

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[Game], path: str) -> dict[str, EquipmentChoice] | None:
        assert isinstance(reading, SheetReading)
        v, char = reading.v, reading.char
        if isinstance(value, str) and cards.split_text(value) and all(
                cards.canonical(x) or cards.canonical(cards.normal_text(x)) for x in cards.split_text(value)):
            v.add("grail_war.sheet.info_key", path, key=value)  # l.122 "装备:【正式外典】"
            return None
        if value is None or not v.typed(value, dict, path):
            return None
        out: dict[str, EquipmentChoice] = {}
        for name, raw in value.items():
            p = f"{path}.{name}"
            canon = (cards.canonical(name) or cards.canonical(cards.normal_text(name))) if isinstance(name, str) else None
            if canon is None or not cards.is_equipment(canon):
                v.add("grail_war.unknown_card", p, value=name)
                continue
            if not char.equipped(canon):
                v.add("grail_war.not_equipped", p, value=canon)
                continue
            if isinstance(raw, dict):  # l.145 "是否发动【万华杖】的效果（发动或不发动都默认为针对两人）"
                raw = {("use" if isinstance(k, str) and _plain(k).startswith("是否发动") and k not in EQUIP_KEYS else k): x
                       for k, x in raw.items()}
            choice = _section(v, raw, EQUIP_KEYS, p, required=True)
            if choice is None:
                continue
            ec = EquipmentChoice(_bool(v, choice, "use", f"{p}.use", True))
            zones = _zone_list(v, choice.get("zones"), ZONES, f"{p}.zones")
            if zones is not None:
                ec.zones = zones
            out[canon] = ec
        return out

    def apply(self, game: Orders, order: dict[str, EquipmentChoice]) -> None:
        game.equipment.update(order)

    def values(self, game: Game, char: Character) -> Iterable[dict[str, Any]]:
        """For each worn card with an optional effect (ruling C14), slot by slot: its use as a
        missing sheet makes it first, then the other."""
        from gm_tool.rulesets.grail_war import data

        defaults = data.load("cards").get("default_use", {})  # what the fights use when a sheet is silent
        for card in char.equipment.values():
            if card is not None and card.name in defaults:
                for use in (bool(defaults[card.name]), not defaults[card.name]):
                    yield {card.name: {"use": use, "zones": list(self.zones)}}


@dataclass(slots=True)
class Move:
    """A move order (what ``movement.check`` reads)."""

    move_to: Cell | None = None
    move_via: list[Cell] = field(default_factory=list)
    move_special: str | None = None


class MoveKind(SheetKind):
    """``move`` (移动, l.151-154): the destination, waypoints and class movement (渡河 crossing,
    攀登 climbing, 跳跃 jumping, 瞬移 teleport, 破坏 destroying), checked against the map when the
    rest of the sheet is sound."""

    name = "move"
    aliases = _aliases("move")
    # the class movement the options offer beside walking (movement.special_problem says who may)
    class_special: ClassVar[dict[str, str]] = {"LANCER": "jump", "RIDER": "cross", "CASTER": "climb"}

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[Game], path: str) -> Move | None:
        assert isinstance(reading, SheetReading)
        v, game, char = reading.v, reading.state, reading.char
        raw = value
        if type(raw) is dict:
            raw = _rejoined(raw)
        if isinstance(raw, str) and _lookup(BOOL, raw) is not None:
            raw = {"special": raw}  # l.151-152 "8.本回合移动，是否发动介职特效 / 是" (the word, not `move: true`)
        move = _section(v, raw, MOVE_KEYS, path, short="to", short_types=(str,))
        if move is None:
            return None
        out = Move()
        w, h = game.board.width, game.board.height
        if move.get("to") is not None:
            to = move["to"]
            said = _COORDINATE.search(to) if isinstance(to, str) else None
            tunnel = movement.tunnel_cell(game, to)
            if said is not None and tunnel is None:  # l.154 "...，到达地图坐标（C,11）"
                to = said.group(1) + said.group(2)
                tunnel = movement.tunnel_cell(game, to)
            out.move_to = tunnel or v.cell(to, f"{path}.to", w, h)
        via = move.get("via") or []
        if v.typed(via, list, f"{path}.via"):
            out.move_via = [c for c in (movement.tunnel_cell(game, x) or v.cell(x, f"{path}.via[{i}]", w, h)
                                        for i, x in enumerate(via)) if c]
        special = move.get("special")
        yes = _lookup(BOOL, special) if isinstance(special, (str, bool)) and _lookup(SPECIAL, special) is None else None
        if yes is None:
            out.move_special = v.choice(move, "special", SPECIAL, f"{path}.special")
        elif yes:  # the seed's 是否发动介职特效 answered 是: the class's own (ruling G7)
            out.move_special = _class_special(game, char, out.move_to)
            if out.move_special is None:
                v.add("grail_war.move.no_class_special", f"{path}.special", cls=char.cls)
        if v.ok and char.alive:
            for fld, code, params in movement.check(game, char, out):
                v.add(code, fld, **params)
        return out

    def apply(self, game: Orders, order: Move) -> None:
        game.move_to, game.move_via, game.move_special = order.move_to, order.move_via, order.move_special

    def values(self, game: Game, char: Character) -> Iterable[dict[str, Any]]:
        """Every cell the servant may end its walk in (board order), those only its class
        movement reaches, the strongholds it may teleport to (in the strongholds' order), and
        a BERSERKER's destroying where it stands when it may."""
        walk, extra, special = self.walks(game, char)
        yield from ({"to": cell_name(c)} for c in walk)
        yield from ({"to": cell_name(c), "special": special} for c in extra)
        yield from ({"to": cell_name(c), "special": "teleport"} for c in self.teleports(game, char))
        if char.cls == "BERSERKER" and movement.destroy_problem(game, char, char.pos) is None:
            yield {"special": "destroy"}

    def walks(self, game: Game, char: Character) -> tuple[list[Cell], list[Cell], str | None]:
        """The cells a walk may end in, those only the class movement reaches, and that movement."""
        def ends(special: str | None) -> set[Cell]:
            reach = movement.reachable(game, char, special)
            return {c for c in reach if c[0] >= 0 and c[1] >= 0 and c not in game.closed_cells
                    and (c[1] >= game.board.height or c[0] < game.board.width and game.board.terrain(c) != RIVER)}

        walk = ends(None)
        special = self.class_special.get(char.cls)
        extra = ends(special) - walk if special and movement.special_problem(char, special) is None else set()
        return sorted(walk, key=_row_major), sorted(extra, key=_row_major), special

    def teleports(self, game: Game, char: Character) -> list[Cell]:
        """The strongholds the servant may teleport to, in the strongholds' order (only a CASTER,
        or one standing on a stronghold, ever may: R4, R6)."""
        if char.cls != "CASTER" and game.stronghold_at(char.pos) is None:
            return []
        return [s.pos for s in game.strongholds if movement.teleport_problem(game, char, s.pos) is None]


def _row_major(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


KEEP_KIND, SKILL_KIND, TARGET_KIND, STRIKE_KIND, DODGE_KIND, CURSE_KIND, GEM_KIND, MAGIC_KIND, EQUIPMENT_KIND, MOVE_KIND = (
    KeepKind(), SkillKind(), TargetKind(), StrikeKind(), DodgeKind(), CurseKind(), GemKind(), MagicKind(),
    EquipmentKind(), MoveKind())
# the sheet's sections, read in this order after the header
ACTIONS: ActionTable[Game, Orders] = ActionTable(
    KEEP_KIND, SKILL_KIND, TARGET_KIND, STRIKE_KIND, DODGE_KIND, CURSE_KIND, GEM_KIND, MAGIC_KIND, EQUIPMENT_KIND, MOVE_KIND)

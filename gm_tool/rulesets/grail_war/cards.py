"""The card catalog: which names exist, of which kind, and the spellings accepted for them."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from gm_tool.core.deck import SUIT_SYMBOL, parse_card_spec, rank_label
from gm_tool.core.schema import Validator
from gm_tool.rulesets.grail_war import data

KINDS = ("basic", "magic", "weapon", "armor")


@cache
def kind_of() -> dict[str, str]:
    catalog = data.load("cards")
    return {name: kind for kind in KINDS for name in catalog[kind]}


@cache
def aliases() -> dict[str, str]:
    return {**{n: n for n in kind_of()}, **data.load("cards").get("aliases", {})}


def canonical(name: str) -> str | None:
    """The seed's name for a card as a player wrote it, or None if no such card."""
    return aliases().get(name.strip()) if isinstance(name, str) else None


def is_equipment(name: str) -> bool:
    return kind_of().get(name) in ("weapon", "armor")


def slot_of(name: str) -> str | None:
    kind = kind_of().get(name)
    return kind if kind in ("weapon", "armor") else None


def all_names() -> list[str]:
    return list(kind_of())


# a count of cards in Chinese numerals (三张, 两张, 十二张), as players write counts
NUMERALS = "[一二两三四五六七八九十]{1,3}"
_DIGIT = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}


def number(text: str) -> int:
    """A count as written: ``3``, ``三``, ``两``, ``十二``, ``二十``, ``九十九``; 0 for what is no
    number of 1-99 (``十十``, ``一二``), which no count allows."""
    if text.isdigit():
        return int(text)
    tens, sep, ones = text.partition("十")
    if not sep:
        return _DIGIT.get(text, 0) if len(text) == 1 else 0
    if len(tens) > 1 or len(ones) > 1 or "十" in ones or tens == "两" or ones == "两":
        return 0
    value = (_DIGIT[tens] if tens else 1) * 10 + (_DIGIT[ones] if ones else 0)
    return value if tens != "一" else 0  # 一十 is not how a count is written


# a suit written as a word (the posts print symbols; players write both)
SUIT_WORDS = {"黑桃": "♠", "红桃": "♥", "红心": "♥", "梅花": "♣", "草花": "♣", "方块": "♦", "方片": "♦"}
_SUIT_WORD = re.compile("|".join(SUIT_WORDS))
_BRACKETS = str.maketrans({"【": " ", "】": " ", "[": " ", "]": " ", "(": " ", ")": " ", "（": " ", "）": " ",
                           **{chr(0xFF10 + i): str(i) for i in range(10)},
                           **{chr(0xFF21 + ord(c) - 65): c for c in "AJQK"}, **{chr(0xFF41 + ord(c) - 97): c for c in "ajqk"}})
# one card of a text naming several: 【闪】♦4, 【闪 ♦4】, 闪♦4, 闪 ♦4, 闪 方片4, 宝石
_SUIT = "[♠♥♣♦♤♡♧♢]|" + "|".join(SUIT_WORDS)
_RANK = r"10|1[1-3]|[2-9AJQKajqk１-９ＡＪＱＫ]|1(?![0-9])"
_ONE_CARD = re.compile(rf"【\s*([^】]+?)\s*】\s*(?:[(（]?\s*({_SUIT})\s*({_RANK})\s*[)）]?)?"
                       rf"|([^\s,，、;；/【】♠♥♣♦♤♡♧♢]+?)\s*[(（]?\s*(?:({_SUIT})\s*({_RANK}))?\s*[)）]?(?=[\s,，、;；/【]|$)")


def normal_text(text: str) -> str:
    """A card as the posts print it (``闪 ♦4``) from the ways a player writes one: in 【】 with the
    suit inside or after the brackets, without the space, with the suit as a word (方片4, 红桃K),
    with full-width ranks."""
    t = _SUIT_WORD.sub(lambda m: " " + SUIT_WORDS[m.group(0)], text.translate(_BRACKETS))
    return " ".join(t.split())


def split_text(text: str) -> list[str]:
    """The cards a text names one after another (``【闪】♦4【杀】``, ``闪 ♦4, 杀``, ``闪 杀 宝石``),
    each as :func:`normal_text` writes it; the text itself when it names none that way."""
    found: list[str] = []
    for m in _ONE_CARD.finditer(text.strip()):
        name = m.group(1) or m.group(4)
        suit, rank = (m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(6))
        if name:
            found.append(normal_text(f"{name} {suit}{rank}" if suit else name))
    return found or [text]


def label(name: str, suit: str | None, rank: int | None) -> str:
    """``闪 ♦4`` (or the bare name), as the posts print a card."""
    return f"{name} {SUIT_SYMBOL[suit]}{rank_label(rank)}" if suit in SUIT_SYMBOL else name


def read(v: Validator, spec: Any, path: str) -> tuple[str, str | None, int | None] | None:
    """A card as a player or scenario wrote it (``闪 ♥2``, ``【闪】♥2``, ``闪 红桃2``, ``万法尽破``,
    ``{name, suit, rank}``), with the seed's name; None after reporting a malformed spec or an
    unknown name at ``path``."""
    try:
        name, suit, rank = parse_card_spec(spec)
    except ValueError:
        name = None
    if isinstance(spec, str) and (name is None or canonical(name) is None):
        try:  # the other ways a player writes a card, tried only when the plain reading fails
            name, suit, rank = parse_card_spec(normal_text(spec))
        except ValueError:
            pass
    if name is None:
        v.add("grail_war.bad_card", path, value=spec)
        return None
    canon = canonical(name)
    if canon is None:
        v.add("grail_war.unknown_card", path, value=name)
        return None
    return canon, suit, rank

"""The card catalog: which names exist, of which kind, and the spellings accepted for them."""

from __future__ import annotations

from functools import cache
from typing import Any

from gm_tool.core.deck import parse_card_spec
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


def read(v: Validator, spec: Any, path: str) -> tuple[str, str | None, int | None] | None:
    """A card as a player or scenario wrote it (``闪 ♥2``, ``万法尽破``, ``{name, suit, rank}``), with
    the seed's name; None after reporting a malformed spec or an unknown name at ``path``."""
    try:
        name, suit, rank = parse_card_spec(spec)
    except ValueError:
        v.add("grail.bad_card", path, value=spec)
        return None
    canon = canonical(name)
    if canon is None:
        v.add("grail.unknown_card", path, value=name)
        return None
    return canon, suit, rank

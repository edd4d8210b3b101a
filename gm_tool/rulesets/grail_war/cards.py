"""The card catalog: which names exist, of which kind, and the spellings accepted for them."""

from __future__ import annotations

from functools import cache

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

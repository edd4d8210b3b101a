"""The class table (classes.yaml) of seed 001 and the spellings players type (variants.yaml),
loaded once."""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
MARKER_COUNTS = {"岩": 4, "风墙": 2}  # seed l.3: "4个岩标记与2个风墙标记"


def _load(name: str) -> Any:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(HERE / name, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)  # noqa: S506 (a safe loader)


@lru_cache(maxsize=1)
def classes() -> dict[str, dict[str, Any]]:
    return _load("classes.yaml")


@lru_cache(maxsize=1)
def _variants() -> tuple[dict[int, str], dict[str, str]]:
    data = _load("variants.yaml")
    return str.maketrans(data["characters"]), data["names"]


def normal(text: str) -> str:
    """A key or a name as the tables spell it: full-width forms to ASCII (NFKC), outer spaces
    dropped, lower case, traditional characters to the seed's simplified ones."""
    if text.isascii():
        return text.strip().lower()
    chars, _ = _variants()
    return unicodedata.normalize("NFKC", text).strip().lower().translate(chars)


@lru_cache(maxsize=1)
def class_aliases() -> dict[str, str]:
    """Every accepted spelling of a class name (as :func:`normal` gives it) -> the seed's name."""
    out: dict[str, str] = {}
    for name, row in classes().items():
        out[name] = name
        out[row["en"]] = name
    for other, name in _variants()[1].items():
        out[other] = name
    return out


def class_of(value: Any) -> str | None:
    """The seed's class name for what a sheet or scenario wrote, or None."""
    if not isinstance(value, str):
        return None
    aliases = class_aliases()
    return aliases.get(value) or aliases.get(normal(value))


def close_class(value: Any) -> str | None:
    """The class a misspelt name was most likely meant as (for "did you mean"), or None."""
    if not isinstance(value, str):
        return None
    import difflib

    found = difflib.get_close_matches(normal(value), list(class_aliases()), n=1, cutoff=0.6)
    return class_aliases()[found[0]] if found else None

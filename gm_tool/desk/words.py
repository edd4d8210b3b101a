"""The desk's words, kept as data in ``data/messages.yaml`` (the one format of the rulesets'
words): ``messages`` (its error codes, ``desk.*``, registered in the one catalogue) and ``labels``
(``{zh: {...}, en: {...}}``, nested maps with the same keys in both languages)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from gm_tool.i18n import LANGS, register

FILE = Path(__file__).parent / "data" / "messages.yaml"


def _shape(value: Any) -> Any:
    return {k: _shape(v) for k, v in value.items()} if isinstance(value, dict) else None


@functools.cache
def _load() -> dict[str, Any]:
    import yaml

    with open(FILE, encoding="utf-8") as fh:
        data = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 (a safe loader)
    labels = data.get("labels") or {}
    if set(labels) != set(LANGS) or len({repr(_shape(labels[lang])) for lang in LANGS}) != 1:
        raise ValueError(f"{FILE}: labels need the same keys in {', '.join(LANGS)}")
    messages = data.get("messages") or {}
    if any(not code.startswith("desk.") for code in messages):
        raise ValueError(f"{FILE}: every message code starts with 'desk.'")
    register(messages)
    return data


def labels(lang: str) -> dict[str, Any]:
    """Every label of the desk's pages in ``lang``."""
    return _load()["labels"][lang if lang in LANGS else "en"]


def load() -> None:
    """Register the desk's messages in the catalogue (done by any page)."""
    _load()


load()

"""Player-facing words of 光与影, kept in ``data/messages.yaml`` in the one format of
:mod:`gm_tool.core.texts`: loading them registers the message codes (``guangying.action.<code>``
for the refusals of :class:`~.model.Refusal`, and the other ``guangying.*`` codes) in the one
catalogue; the posts, summaries and templates read the narration and the labels."""

from __future__ import annotations

from typing import Any

from gm_tool.core import texts as _texts
from gm_tool.rulesets.guangying.data import HERE

TEXTS = _texts.load(HERE, "guangying")


def labels(lang: str) -> dict[str, Any]:
    """The labels of ``lang`` (English for a language the file does not have)."""
    return TEXTS.labels(lang)

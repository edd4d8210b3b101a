"""Player-facing texts of 光与影, kept in ``data/messages.yaml``: registered in the message catalog
(``guangying.action.<code>`` for the codes of :class:`~.model.Refusal`, and the other
``guangying.*`` codes) and read by the posts (narration, words, labels)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import yaml

from gm_tool.i18n import register
from gm_tool.rulesets.guangying.data import HERE


@lru_cache(maxsize=1)
def texts() -> dict[str, Any]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    with open(HERE / "messages.yaml", encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)


register({"guangying.action." + code: entry for code, entry in texts()["action"].items()})
register(texts()["codes"])

"""Player-facing texts of 神将录, kept as data in ``data/messages.yaml``: the error messages (codes
``shenjianglu.*``) registered in the one message catalogue, and the narration of events (section
titles and one sentence per event type)."""

from __future__ import annotations

from pathlib import Path

from gm_tool.core import safeyaml
from gm_tool.core.narrate import Narration
from gm_tool.i18n import register

TEXTS = safeyaml.load_mapping(Path(__file__).parent / "data" / "messages.yaml")
register(TEXTS["messages"])

NARRATION = Narration(titles=TEXTS["titles"], silent=("chance",))
NARRATION.register(TEXTS["sentences"])

"""Player-facing messages of 魂陆 (codes prefixed ``hunlu.``), Chinese and English: refusals and
skips (``hunlu.skip.*``), scenario and catalogue errors, GM edits and the sentences events are
told with (``hunlu.event.*``). The catalogue is data: ``data/messages.json``."""

from __future__ import annotations

import json
from pathlib import Path

from gm_tool.i18n import register

CATALOGUE = json.loads((Path(__file__).parent / "data" / "messages.json").read_text("utf-8"))
register(CATALOGUE)

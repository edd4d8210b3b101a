"""The "sent" marks the GM sets on posts, kept in the campaign folder so a reload or a second GM
sees what has gone out: ``desk/sent.json``, ``{turn-NNN: {post: {fmt, sha256, at}}}``.

The file lies outside ``state/``, ``log/`` and ``reports/`` (which `gm verify` compares with a
replay): marks are the GM's bookkeeping, not part of the game. A mark keeps the sha256 of the post
it was set on, so a post that changed since (a rollback and a new resolve, new forum settings)
is shown as such. Written atomically under the campaign lock."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path
from typing import Any

from gm_tool.core.store import Campaign, atomic_write, dump_json
from gm_tool.errors import GmError

FILE = Path("desk") / "sent.json"
MAX_BYTES = 1 << 20


def load(root: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """Every mark (empty when none was set); GmError naming the file when it is not ours to read
    (a link, too large, not the JSON the desk writes), so it is never overwritten."""
    path = Path(root) / FILE
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return {}
    folder = os.lstat(path.parent)
    if stat.S_ISLNK(folder.st_mode) or not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
        raise GmError.one("desk.sent_file", file=str(FILE))
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        raise GmError.one("desk.sent_file", file=str(FILE)) from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) and all(isinstance(m, dict) for m in v.values())
                                             for v in data.values()):
        raise GmError.one("desk.sent_file", file=str(FILE))
    return data


def mark(campaign: Campaign, turn: str, who: str, fmt: str, sha256: str, sent: bool) -> None:
    """Set (``sent``) or clear the mark of post ``who`` of ``turn``."""
    with campaign.lock(wait=5.0):
        data = load(campaign.root)
        posts = data.setdefault(turn, {})
        if sent:
            posts[who] = {"fmt": fmt, "sha256": sha256, "at": time.strftime("%Y-%m-%d %H:%M")}
        else:
            posts.pop(who, None)
            if not posts:
                data.pop(turn)
        atomic_write(campaign.root / FILE, dump_json(data))

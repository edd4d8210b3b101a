"""The `gm` entry point.

The commands a GM runs every night (``resolve DIR``, ``check DIR FILE...``, ``submit DIR FILE``,
with at most ``--lang``) run straight away through :mod:`gm_tool.console`, so they do not pay for
importing typer and pydantic (docs/performance.md, P1); everything else, and anything unusual in
those (``--help``, other options), goes through the typer app in :mod:`gm_tool.cli`, which calls
the same functions.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from gm_tool.console import check, guarded, resolve, submit

_FAST_PATHS = {"resolve": (1, 1), "check": (2, None), "submit": (2, 2)}


def _fast_call(argv: list[str]):
    if not argv or argv[0] not in _FAST_PATHS:
        return None
    lang = os.environ.get("GM_LANG") or "zh"
    paths: list[str] = []
    rest = iter(argv[1:])
    for arg in rest:
        if arg == "--lang":
            value = next(rest, None)
            if value is None:
                return None
            lang = value
        elif arg.startswith("--lang="):
            lang = arg[len("--lang="):]
        elif arg.startswith("-") and arg != "-":
            return None
        else:
            paths.append(arg)
    low, high = _FAST_PATHS[argv[0]]
    if len(paths) < low or (high is not None and len(paths) > high):
        return None
    directory, *more = [Path(p) for p in paths]
    if argv[0] == "resolve":
        return lang, lambda: resolve(directory, lang)
    if argv[0] == "check":
        return lang, lambda: check(directory, more, lang)
    return lang, lambda: submit(directory, more[0], lang)


def main() -> None:
    fast = _fast_call(sys.argv[1:])
    if fast is not None:
        lang, call = fast
        sys.exit(guarded(call, lang))
    from gm_tool.cli import app

    app(prog_name="gm")

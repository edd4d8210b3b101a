"""The `gm` entry point.

The commands a GM runs every night (``resolve DIR``, ``check DIR FILE...``, ``submit DIR FILE``,
with at most ``--lang``) run straight away through :mod:`gm_tool.console`, so they do not pay for
importing typer and pydantic (docs/performance.md, P1); everything else, and anything unusual in
those (``--help``, other options), goes through the typer app in :mod:`gm_tool.cli`, which calls
the same functions.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

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
    from gm_tool.console import check, resolve, submit

    if argv[0] == "resolve":
        return lang, lambda: resolve(directory, lang)
    if argv[0] == "check":
        return lang, lambda: check(directory, more, lang)
    return lang, lambda: submit(directory, more[0], lang)


def main() -> None:
    # Start-up runs with the cyclic GC off: importing allocates many objects that live as long as
    # the process, and the collections their allocations trigger walked every object imported so
    # far. Once the command's modules are in (for `resolve` also Jinja and Pillow, which every
    # ruleset's posts use), ``gc.freeze`` moves them out of the GC's reach (the few hundred
    # cycles imports leave would never be freed either) and the GC runs again for the command
    # itself. A whole `gm resolve` costs ~13 + ~5 ms less CPU (docs/performance.md).
    gc.disable()
    try:
        fast = _fast_call(sys.argv[1:])
        if fast is not None:
            import gm_tool.app  # noqa: F401  (every fast command runs it)

            if sys.argv[1] == "resolve":  # every ruleset's posts render templates and paint the board
                import jinja2  # noqa: F401
                import PIL.Image  # noqa: F401
            from gm_tool.console import guarded
    finally:
        gc.freeze()
        gc.enable()
    if fast is not None:
        lang, call = fast
        sys.exit(guarded(call, lang))
    from gm_tool.cli import app

    app(prog_name="gm")

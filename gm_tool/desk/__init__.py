"""The GM's desk: `gm serve DIR...`, a turn run from one browser tab.

One local page per campaign for the whole turn: the board (who is due, who sent a sheet and what
its check says), intake (a player's pasted message imported or checked, then stored as
`gm submit` stores it), the preview and the resolve, the posts to copy with their pictures and a
"sent" mark per post, the GM's edits, rollback, forum dice and verify. It calls the functions the
CLI calls, under the same campaign lock, and knows no game.

Built on Flask (routes, forms, a test client) served by waitress (a pure-Python threaded WSGI
server): the desk's work is blocking file I/O and CPU under a file lock, which a WSGI worker
does as plainly as anything. Neither is imported by any other command."""

from __future__ import annotations

import ipaddress
import secrets
import sys
from pathlib import Path
from typing import TextIO

from gm_tool.errors import USAGE, GmError

DEFAULT_PORT = 8765
LOOPBACK = "127.0.0.1"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def campaigns(dirs: list[Path]) -> list[Path]:
    """The campaign folders, each opened once (a GmError names one that is not a campaign)."""
    from gm_tool import app as ops

    roots: list[Path] = []
    for d in dirs:
        root = Path(d).absolute()
        ops.open_campaign(root)
        if any(r.resolve() == root.resolve() for r in roots):
            raise GmError.one("desk.duplicate", file=str(d), exit_code=USAGE)
        roots.append(root)
    return roots


def serve(dirs: list[Path], host: str | None = None, port: int = DEFAULT_PORT, lang: str = "zh",
          out: TextIO | None = None, err: TextIO | None = None) -> None:
    """Serve the desk for ``dirs`` until interrupted. Prints one line, the address with its
    token; listens on the loopback address unless ``host`` is given (then warns, unless that too
    is a loopback address)."""
    import logging

    import waitress

    from gm_tool.desk import words
    from gm_tool.desk.web import create_app
    from gm_tool.i18n import message

    out, err = out or sys.stdout, err or sys.stderr
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # one worker: a page's pictures wait their turn
    words.load()
    roots = campaigns(dirs)
    bind = host or LOOPBACK
    token = secrets.token_urlsafe(32)
    hosts: set[str] = set()
    app = create_app(roots, lang, token, hosts=hosts if is_loopback(bind) else None)
    try:
        server = waitress.create_server(app, host=bind, port=port, threads=1, ident="gm-desk",
                                        max_request_body_size=4 << 20)
    except OSError as exc:
        raise GmError.one("desk.port", field="--port", host=bind, port=port, reason=exc.strerror or str(exc)) from None
    real = server.effective_port
    named = f"[{bind}]" if ":" in bind else bind
    hosts.update({f"{named}:{real}", f"127.0.0.1:{real}", f"localhost:{real}", f"[::1]:{real}"})
    app.config["DESK_COOKIE"] = f"gm_desk_{real}"  # one per port: two desks on one machine keep theirs
    if not is_loopback(bind):
        print(message("desk.open_host", lang, host=bind), file=err, flush=True)
    print(f"http://{named}:{real}/?token={token}", file=out, flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()

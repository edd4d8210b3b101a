"""The desk's web layer (Flask): routes, the token, protection against cross-site requests, and
pages rendered from Jinja templates with autoescape. What a page shows comes from
:mod:`gm_tool.desk.pages`; this module only reads requests and answers them.

Every request needs the token `gm serve` printed: in the address (``?token=``, then kept in a
cookie scoped to this server and sent to it only from its own pages) or in that cookie. A POST
(anything that changes a campaign) also needs the token in its form and must come from the
desk's own page (``Sec-Fetch-Site`` and ``Origin``); anything else is answered 403 and changes
nothing. On the loopback address only requests naming it (``Host``) are served, so a web page
cannot reach the desk through a name it points at 127.0.0.1. Pages allow no inline script and no
resource from elsewhere (Content-Security-Policy)."""

from __future__ import annotations

import hmac
import secrets
import sys
from collections import OrderedDict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from flask import Flask, abort, redirect, request, send_file
from werkzeug.wrappers import Response

from gm_tool import console  # noqa: F401  (the console's lines: the desk says what the CLI says)
from gm_tool.core.store import Campaign
from gm_tool.desk import pages, words
from gm_tool.errors import GmError
from gm_tool.i18n import message

HERE = Path(__file__).parent
MAX_BODY = 2 << 20  # a pasted message is at most 1 MB (safeyaml's bound)
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
       "frame-ancestors 'none'; base-uri 'none'")
PAGES = {"board": ("board.html.j2", "b"), "preview": ("preview.html.j2", "p"), "posts": ("posts.html.j2", "p"),
         "gm": ("gm.html.j2", "g")}  # page -> (template, the name of its data)
EXTRA = {"board": {"result": None}, "gm": {"verified": None}}  # what else a page shows, when there is nothing
STATIC = {"desk.css": "text/css; charset=utf-8", "desk.js": "text/javascript; charset=utf-8"}


def environment() -> jinja2.Environment:
    """The pages' Jinja environment: every value autoescaped, an unknown name an error."""
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "templates")), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


class Notices:
    """One-time notices carried across a redirect by a random id (the last 64 kept)."""

    def __init__(self) -> None:
        self.items: OrderedDict[str, str] = OrderedDict()

    def put(self, text: str) -> str:
        key = secrets.token_urlsafe(8)
        self.items[key] = text
        while len(self.items) > 64:
            self.items.popitem(last=False)
        return key

    def take(self, key: str | None) -> str | None:
        return self.items.pop(key, None) if key else None


def conflict(exc: GmError) -> int:
    """409 for a change that met another (the campaign locked, a page of an earlier turn), else 400."""
    return 409 if exc.problems[0].code in ("campaign.locked", "resolve.stale", "desk.stale") else 400


def create_app(roots: list[Path], lang: str = "zh", token: str | None = None, cookie: str = "gm_desk",
               hosts: set[str] | None = None) -> Flask:
    """The desk for the campaign folders ``roots``. ``hosts``: the only ``Host`` values served
    (None: any, for a desk listening beyond the loopback address)."""
    token = token or secrets.token_urlsafe(32)
    roots = [Path(r) for r in roots]
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.config["DESK_TOKEN"] = token
    app.config["DESK_COOKIE"] = cookie
    env = environment()
    t = words.labels(lang)
    notices = Notices()

    def same(given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8"))

    def forbidden() -> Response:
        return Response(message("desk.forbidden", lang) + "\n", 403, {"Content-Type": "text/plain; charset=utf-8"})

    @app.before_request
    def guard() -> Any:
        if hosts is not None and request.host not in hosts:
            return forbidden()
        given = request.args.get("token")
        if request.method == "GET" and same(given):  # the printed address: keep the token in a cookie
            rest = [(k, v) for k, v in request.args.items(multi=True) if k != "token"]
            target = request.path + ("?" + urlencode(rest) if rest else "")
            answer = redirect(target, 303)
            answer.set_cookie(app.config["DESK_COOKIE"], token, httponly=True, samesite="Strict", path="/")
            return answer
        if not (same(request.cookies.get(app.config["DESK_COOKIE"])) or same(given)):
            return forbidden()
        if request.method not in ("GET", "HEAD"):
            site = request.headers.get("Sec-Fetch-Site")
            origin = request.headers.get("Origin")
            if site not in (None, "same-origin", "none") or (origin is not None and origin != request.host_url.rstrip("/")):
                return forbidden()
            if not same(request.form.get("csrf")):
                return forbidden()
        return None

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"  # "no-referrer" makes a form post say Origin: null
        response.headers["X-Frame-Options"] = "DENY"
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    def root_of(cid: int) -> Path:
        if not 0 <= cid < len(roots):
            abort(404)
        return roots[cid]

    def error_lines(exc: GmError, root: Path | None = None) -> list[str]:
        lines = exc.render(lang).splitlines()
        return [pages.relative(root, line) for line in lines] if root is not None else lines

    def render(name: str, cid: int | None = None, status: int = 200, **context: Any) -> Response:
        campaign = None
        if cid is not None:
            try:
                campaign = pages.header(roots[cid])
            except GmError as exc:
                context["errors"] = [*context.get("errors", []), *error_lines(exc, roots[cid])]
        context.setdefault("errors", [])
        context.setdefault("notice", notices.take(request.args.get("n")))
        html = env.get_template(name).render(t=t, lang=lang, csrf=token, c=campaign, base=f"/c/{cid}", **context)
        return Response(html, status, {"Content-Type": "text/html; charset=utf-8"})

    def show(key: str, cid: int, load: Callable[[Path], Any] | None, status: int = 200,
             errors: list[str] | None = None, **extra: Any) -> Response:
        """Page ``key`` of campaign ``cid`` showing ``load(root)`` (None: the page without its data,
        for a failed change), with ``errors``; a failing ``load`` adds its own."""
        name, var = PAGES[key]
        root = root_of(cid)
        errors, data = list(errors or []), None
        if load is not None:
            try:
                data = guarded(root, lambda: load(root))
            except GmError as exc:
                errors += error_lines(exc, root)
                status = conflict(exc) if status == 200 else status
        return render(name, cid, status, page=key, title=t["nav"][key], errors=errors, **{var: data},
                      **{**EXTRA.get(key, {}), **extra})

    def failed_change(key: str, cid: int, exc: GmError, load: Callable[[Path], Any] | None = None) -> Response:
        return show(key, cid, load, conflict(exc), error_lines(exc, root_of(cid)))

    def back(cid: int, where: str, text: str | None = None, anchor: str = "") -> Response:
        target = f"/c/{cid}{where}"
        if text is not None:
            target += ("&" if "?" in target else "?") + "n=" + notices.put(text)
        return redirect(target + anchor, 303)

    def guarded(root: Path, call: Callable[[], Any]) -> Any:
        """Run an app call on campaign ``root``, after making sure the folder holds no link (no
        request reads or writes through one, whatever it points at); the operating system's
        errors become a message naming the file."""
        try:
            Campaign(root).refuse_foreign()
            return call()
        except OSError as exc:
            from gm_tool.console import os_error

            raise GmError.one("desk.os", problem=os_error(exc, lang)) from None

    def number(name: str) -> int | None:
        value = request.values.get(name)
        return int(value) if value is not None and value.strip().lstrip("-").isdigit() else None

    def board_of(root: Path) -> Any:
        return pages.board(root, lang)

    def tools_of(root: Path) -> Any:
        return pages.gm_tools(root, lang)

    # pages ---------------------------------------------------------------------------------
    @app.get("/")
    def index() -> Response:
        if len(roots) == 1:
            return redirect("/c/0/", 303)
        items = []
        for i, root in enumerate(roots):
            try:
                items.append({"id": i, "name": root.name, **guarded(root, partial(pages.header, root)), "error": None})
            except GmError as exc:
                items.append({"id": i, "name": root.name, "error": " ".join(error_lines(exc, root))})
        return render("index.html.j2", None, title=t["index"]["title"], campaigns=items, page="index")

    @app.get("/c/<int:cid>/")
    def board(cid: int) -> Response:
        return show("board", cid, board_of)

    @app.post("/c/<int:cid>/intake")
    def intake(cid: int) -> Response:
        root = root_of(cid)
        form = request.form
        try:
            result = guarded(root, lambda: pages.intake(root, form.get("player", ""), form.get("text", ""), lang,
                                                  form.get("action") == "store", number("turn"),
                                                  form.get("reading", "auto")))
        except GmError as exc:
            return failed_change("board", cid, exc, board_of)
        stored = result["stored"]
        if stored is None:  # checked (or refused): the page again, the box holding the text and what it says
            return show("board", cid, board_of, result=result)
        note = message("cli.stored", lang, path=stored["path"])
        if stored["replaced"]:
            note += "\n" + message("cli.replaced", lang, player=stored["player"], path=stored["replaced"])
        return back(cid, "/", note, f"#p-{stored['player']}")

    @app.get("/c/<int:cid>/preview")
    def preview(cid: int) -> Response:
        return show("preview", cid, lambda root: pages.preview(root, request.args.get("fmt", "bbcode")))

    @app.post("/c/<int:cid>/resolve")
    def resolve(cid: int) -> Response:
        root = root_of(cid)
        turn = number("turn")
        if request.form.get("confirm") != "yes" or turn is None:
            return show("preview", cid, None, 400, [message("desk.confirm", lang)])
        try:
            result = guarded(root, lambda: pages.resolve(root, turn))
        except GmError as exc:
            return failed_change("preview", cid, exc)
        lines = [message("cli.resolved", lang, turn=result["turn"], state=pages.relative(root, result["state"]))]
        if result["passed"]:
            lines.append(message("cli.passed", lang, players=", ".join(result["passed"])))
        elif result["missing"]:
            lines.append(message("cli.defaulted", lang, players=", ".join(result["missing"])))
        if result["winner"]:
            lines.append(message("cli.winner", lang, winner=result["winner"]))
        return back(cid, f"/posts?turn={result['turn']}", "\n".join(lines))

    @app.get("/c/<int:cid>/posts")
    def posts(cid: int) -> Response:
        return show("posts", cid, lambda root: pages.posts(root, number("turn"), request.args.get("fmt", "bbcode"), lang))

    @app.post("/c/<int:cid>/sent")
    def sent(cid: int) -> Response:
        root = root_of(cid)
        turn, who, fmt = number("turn"), request.form.get("who", ""), request.form.get("fmt", "bbcode")
        if turn is None:
            abort(400)
        try:
            guarded(root, lambda: pages.mark_sent(root, turn, who, fmt, request.form.get("sent") == "1"))
        except GmError as exc:
            return failed_change("posts", cid, exc)
        return back(cid, f"/posts?turn={turn}&fmt={fmt}", None, f"#post-{who}")

    @app.get("/c/<int:cid>/file/<int:turn>/<name>")
    def file(cid: int, turn: int, name: str) -> Response:
        root = root_of(cid)
        try:
            path = guarded(root, lambda: pages.picture(root, turn, name))
        except GmError:
            path = None
        if path is None:
            abort(404)
        kind = pages.MEDIA.get(path.suffix.lower(), "application/octet-stream")
        return send_file(path, mimetype=kind, as_attachment=request.args.get("download") == "1",
                         download_name=name, max_age=0)

    @app.get("/c/<int:cid>/gm")
    def gm(cid: int) -> Response:
        return show("gm", cid, tools_of)

    @app.post("/c/<int:cid>/amend")
    def amend(cid: int) -> Response:
        root = root_of(cid)
        form = request.form
        try:
            result = guarded(root, lambda: pages.amend(root, form.get("action", ""), form.getlist("arg"), form.get("many"),
                                                 form.get("reason", ""), lang, number("turn")))
        except GmError as exc:
            return failed_change("gm", cid, exc, tools_of)
        lines = [message("cli.amended", lang, file=result["file"], turn=result["turn"])]
        if result["stale"]:
            lines += [message("cli.stale", lang), *result["stale"]]
        return back(cid, "/gm", "\n".join(lines))

    @app.post("/c/<int:cid>/rollback")
    def rollback(cid: int) -> Response:
        root = root_of(cid)
        to, shown = number("to"), number("from")
        if request.form.get("confirm") != "yes" or to is None:
            return show("gm", cid, tools_of, 400, [message("desk.confirm", lang)])
        try:
            result = guarded(root, lambda: pages.rollback(root, to, shown))
        except GmError as exc:
            return failed_change("gm", cid, exc, tools_of)
        return back(cid, "/", message("cli.rolled", lang, turn=result["turn"],
                                      superseded=pages.relative(root, result["superseded"])))

    @app.post("/c/<int:cid>/dice")
    def dice(cid: int) -> Response:
        root = root_of(cid)
        values = request.form.get("values", "").replace(",", " ").replace("\uff0c", " ").split()
        try:
            result = guarded(root, lambda: pages.dice(root, values, request.form.get("note", ""), number("turn")))
        except GmError as exc:
            return failed_change("gm", cid, exc, tools_of)
        return back(cid, "/gm", message("cli.dice_stored", lang, turn=result["turn"],
                                        file=pages.relative(root, result["file"]), dice=" ".join(map(str, result["dice"]))),
                    "#dice")

    @app.post("/c/<int:cid>/verify")
    def verify(cid: int) -> Response:
        root = root_of(cid)
        try:
            result = guarded(root, lambda: pages.verify(root))
        except GmError as exc:
            return failed_change("gm", cid, exc, tools_of)
        text = message("cli.verified", lang, **result)
        if result.get("templates"):
            text += "\n" + message("cli.overridden", lang, names=", ".join(result["templates"]))
        return show("gm", cid, tools_of, verified=text)

    @app.get("/static/<name>")
    def static(name: str) -> Response:
        if name not in STATIC:
            abort(404)
        return Response((HERE / "static" / name).read_bytes(), 200, {"Content-Type": STATIC[name]})

    @app.errorhandler(Exception)
    def failed(exc: Exception) -> Any:  # a bug: one clean line, never a traceback on the page
        from werkzeug.exceptions import HTTPException

        if isinstance(exc, HTTPException):
            return exc
        print(f"gm serve: {type(exc).__name__}: {exc}", file=sys.stderr)
        text = message("cli.internal", lang, error=f"{type(exc).__name__}: {exc}")
        return Response(text + "\n", 500, {"Content-Type": "text/plain; charset=utf-8"})

    return app

"""Rendering forum posts: one Jinja template per post, written once for every format.

A template calls the markup object ``m`` (``m.b(text)``, ``m.table(rows)``, ``m.code(text)``...)
and the active :class:`Markup` turns that into BBCode or Markdown. Every piece of text that
comes from users (names, ids) passes ``m.esc`` (applied by the helpers), so a name holding
BBCode, Markdown or HTML can neither break nor inject markup. HTML previews are rendered from
the Markdown by markdown-it-py with raw HTML disabled.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

_MD_SPECIAL = re.compile(r"([\\`*_\[\]#|~])")
_MD_LINE_START = re.compile(r"^(\d{1,9}(?=[.)])|(?=[-+=>]))(.)")


class Markup:
    name = ""

    def esc(self, text: Any) -> str:
        raise NotImplementedError

    def b(self, text: Any) -> str:
        raise NotImplementedError

    def color(self, text: Any, color: str) -> str:
        raise NotImplementedError

    def h(self, text: Any, level: int = 2) -> str:
        raise NotImplementedError

    def code(self, text: str) -> str:
        raise NotImplementedError

    def img(self, url: str) -> str:
        raise NotImplementedError

    def table(self, header: list[Any], rows: list[list[Any]]) -> str:
        raise NotImplementedError

    def item(self, text: Any) -> str:
        return f"- {text}"


class BBCode(Markup):
    """Discuz / phpBB BBCode. A ``[`` in user text gets a zero-width space so it opens no tag."""

    name = "bbcode"

    def esc(self, text: Any) -> str:
        return _one_line(text).replace("[", "[\u200b")

    def b(self, text: Any) -> str:
        return f"[b]{self.esc(text)}[/b]"

    def color(self, text: Any, color: str) -> str:
        return f"[color={_safe_color(color)}]{self.esc(text)}[/color]"

    def h(self, text: Any, level: int = 2) -> str:
        return f"[size={6 - level}][b]{self.esc(text)}[/b][/size]"

    def code(self, text: str) -> str:
        return f"[code]{text.replace('[/code]', '[/co' + chr(0x200b) + 'de]')}[/code]"

    def img(self, url: str) -> str:
        return f"[img]{_safe_url(url)}[/img]"

    def table(self, header: list[Any], rows: list[list[Any]]) -> str:
        def row(cells: list[Any], bold: bool = False) -> str:
            return "[tr]" + "".join(f"[td]{self.b(c) if bold else self.esc(c)}[/td]" for c in cells) + "[/tr]"

        return "[table]\n" + "\n".join([row(header, True)] + [row(r) for r in rows]) + "\n[/table]"


class Markdown(Markup):
    """CommonMark. User text is backslash-escaped and ``<``/``&`` made entities."""

    name = "md"

    def esc(self, text: Any) -> str:
        s = _MD_SPECIAL.sub(r"\\\1", _one_line(text).replace("&", "&amp;").replace("<", "&lt;"))
        # what means something only at the start of a line: list, quote and setext markers,
        # ordered-list numbers, and indentation (a code block)
        s = _MD_LINE_START.sub(lambda g: g.group(1) + "\\" + g.group(2), s, count=1)
        return "&#32;" + s[1:] if s.startswith(" ") else s

    def b(self, text: Any) -> str:
        return f"**{self.esc(text)}**"

    def color(self, text: Any, color: str) -> str:
        return self.b(text)

    def h(self, text: Any, level: int = 2) -> str:
        return f"{'#' * level} {self.esc(text)}"

    def code(self, text: str) -> str:
        fence = "```"
        while fence in text:
            fence += "`"
        return f"{fence}\n{text}\n{fence}"

    def img(self, url: str) -> str:
        return f"![map]({_safe_url(url)})"

    def table(self, header: list[Any], rows: list[list[Any]]) -> str:
        def row(cells: list[Any]) -> str:
            return "| " + " | ".join(self.esc(c) for c in cells) + " |"

        return "\n".join([row(header), "|" + "---|" * len(header)] + [row(r) for r in rows])


MARKUPS: dict[str, Markup] = {"bbcode": BBCode(), "md": Markdown()}

_URL_SAFE = re.compile(r"[^A-Za-z0-9._~:/?#@!$&'*+,;=%-]")


def _one_line(text: Any) -> str:
    return " ".join(str(text).splitlines())


def _safe_color(color: str) -> str:
    """A colour name or ``#rrggbb``; anything else (it never comes from users) becomes black."""
    return color if re.fullmatch(r"#[0-9a-fA-F]{6}|[a-z]{3,20}", color) else "black"


def _safe_url(url: str) -> str:
    """A relative path or http(s) URL, percent-encoded so it cannot close the markup around it;
    any other scheme (``javascript:``...) is refused and becomes ``#``."""
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", url)
    if scheme and scheme.group(1).lower() not in ("http", "https"):
        return "#"
    return _URL_SAFE.sub(lambda m: "".join(f"%{b:02X}" for b in m.group().encode()), url).replace("[", "%5B")


@functools.lru_cache(maxsize=32)
def environment(package_dir: Path, override_dir: Path | None = None):
    """A Jinja environment reading templates from ``override_dir`` first (a campaign's own
    ``templates/``), then the ruleset's bundled templates. Built once per process and folder
    pair: templates are compiled once, not per post."""
    import jinja2

    dirs = [str(override_dir)] if override_dir else []
    try:  # compiled templates kept across runs (a private per-user temp folder, keyed by source)
        cache = jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        cache = None
    return jinja2.Environment(loader=jinja2.FileSystemLoader(dirs + [str(package_dir)]), autoescape=False,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                              undefined=jinja2.StrictUndefined, bytecode_cache=cache)


def render_all(env, template: str, context: dict[str, Any]) -> dict[str, str]:
    """Render ``template`` once per format: ``{"bbcode": ..., "md": ...}``."""
    tpl = env.get_template(template)
    out = {}
    for name, markup in MARKUPS.items():
        text = tpl.render(m=markup, **context)
        out[name] = re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
    return out


@functools.lru_cache(maxsize=1)
def _markdown_it():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_to_html(text: str, title: str = "") -> str:
    """A standalone HTML page from Markdown; raw HTML in the source is shown, never run."""
    from html import escape

    body = _markdown_it().render(text)
    return ("<!DOCTYPE html>\n<html lang=\"zh\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:52em;margin:auto;padding:1em}"
            "table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .5em}"
            "pre{background:#f4f4f4;padding:.5em;line-height:1.1}img{max-width:100%}</style></head>\n"
            f"<body>\n{body}</body></html>\n")

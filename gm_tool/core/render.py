"""Rendering forum posts: one Jinja template per post, written once for every format.

A template calls the markup object ``m`` (``m.b(text)``, ``m.table(rows)``, ``m.code(text)``...)
and the active :class:`Markup` turns that into BBCode or Markdown. Every piece of text that
comes from users (names, ids) passes ``m.esc`` (applied by the helpers), so a name holding
BBCode, Markdown or HTML can neither break nor inject markup. HTML previews are rendered from
the Markdown by markdown-it-py with raw HTML disabled.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")


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
        return str(text).replace("[", "[\u200b")

    def b(self, text: Any) -> str:
        return f"[b]{self.esc(text)}[/b]"

    def color(self, text: Any, color: str) -> str:
        return f"[color={color}]{self.esc(text)}[/color]"

    def h(self, text: Any, level: int = 2) -> str:
        return f"[size={6 - level}][b]{self.esc(text)}[/b][/size]"

    def code(self, text: str) -> str:
        return f"[code]{text.replace('[/code]', '[/co' + chr(0x200b) + 'de]')}[/code]"

    def img(self, url: str) -> str:
        return f"[img]{self.esc(url)}[/img]"

    def table(self, header: list[Any], rows: list[list[Any]]) -> str:
        def row(cells: list[Any], bold: bool = False) -> str:
            return "[tr]" + "".join(f"[td]{self.b(c) if bold else self.esc(c)}[/td]" for c in cells) + "[/tr]"

        return "[table]\n" + "\n".join([row(header, True)] + [row(r) for r in rows]) + "\n[/table]"


class Markdown(Markup):
    """CommonMark. User text is backslash-escaped and ``<``/``&`` made entities."""

    name = "md"

    def esc(self, text: Any) -> str:
        s = str(text).replace("&", "&amp;").replace("<", "&lt;").replace("\n", " ")
        return _MD_SPECIAL.sub(r"\\\1", s)

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
        return f"![map]({url.replace(' ', '%20').replace(')', '%29')})"

    def table(self, header: list[Any], rows: list[list[Any]]) -> str:
        def row(cells: list[Any]) -> str:
            return "| " + " | ".join(self.esc(c) for c in cells) + " |"

        return "\n".join([row(header), "|" + "---|" * len(header)] + [row(r) for r in rows])


MARKUPS: dict[str, Markup] = {"bbcode": BBCode(), "md": Markdown()}


def environment(package_dir: Path, override_dir: Path | None = None):
    """A Jinja environment reading templates from ``override_dir`` first (a campaign's own
    ``templates/``), then the ruleset's bundled templates."""
    import jinja2

    dirs = [str(override_dir)] if override_dir else []
    return jinja2.Environment(loader=jinja2.FileSystemLoader(dirs + [str(package_dir)]), autoescape=False,
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                              undefined=jinja2.StrictUndefined)


def render_all(env, template: str, context: dict[str, Any]) -> dict[str, str]:
    """Render ``template`` once per format: ``{"bbcode": ..., "md": ...}``."""
    tpl = env.get_template(template)
    out = {}
    for name, markup in MARKUPS.items():
        text = tpl.render(m=markup, **context)
        out[name] = re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
    return out


def markdown_to_html(text: str, title: str = "") -> str:
    """A standalone HTML page from Markdown; raw HTML in the source is shown, never run."""
    from html import escape

    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(text)
    return ("<!DOCTYPE html>\n<html lang=\"zh\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:52em;margin:auto;padding:1em}"
            "table{border-collapse:collapse}td,th{border:1px solid #999;padding:.2em .5em}"
            "pre{background:#f4f4f4;padding:.5em;line-height:1.1}</style></head>\n"
            f"<body>\n{body}</body></html>\n")

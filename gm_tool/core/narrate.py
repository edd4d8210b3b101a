"""Narration: events told as sentences in the post's language, grouped into a post's sections.

A ruleset makes one :class:`Narration` (its catalogue of sentences, the sections event types
open, the section titles) and tells a post's events through a :class:`Teller` (display names,
language, markup). Nothing here is a module global: two rulesets never see each other's
sentences, and registering the same event type twice is an error.

An event type without a sentence is told generically (its type and values, escaped), so a new
event never breaks a post. Sections: the log is read in order; an event whose type opens a
section starts a new one when the current section is of another kind (a kind listed in
``always_new`` always starts a new one); every other event joins the current section. Sections
are cut on the GM's full log, then each post keeps the events its reader may know.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gm_tool.core.events import PUBLIC, visible_to
from gm_tool.core.render import Markup

Event = dict[str, Any]
Section = tuple[str, list[Event]]

_SKIP = ("seq", "type", "to", "actors", "cells", "told_apart")


class Narration:
    """A ruleset's catalogue: ``sentences[type][lang]``, ``opens[type] = section kind``,
    ``titles[lang][kind]`` and the types never told (``silent``)."""

    def __init__(self, titles: dict[str, dict[str, str]], silent: Iterable[str] = ("chance",),
                 always_new: Iterable[str] = ()) -> None:
        self.sentences: dict[str, dict[str, str]] = {}
        self.opens: dict[str, str] = {}
        self.titles = {lang: dict(t) for lang, t in titles.items()}
        self.silent = set(silent)
        self.always_new = set(always_new)

    def register(self, entries: dict[str, dict[str, Any]]) -> None:
        """Add sentences: ``{type: {"zh": ..., "en": ..., "section": kind (optional), "silent":
        True (optional)}}``. Placeholders are the event's keys as the teller formats them."""
        for type_, entry in entries.items():
            if type_ in self.sentences or type_ in self.opens:
                raise ValueError(f"narration: event type {type_!r} registered twice")
            entry = dict(entry)
            section = entry.pop("section", None)
            if section:
                self.opens[type_] = str(section)
            if entry.pop("silent", False):
                self.silent.add(type_)
            if entry:
                self.sentences[type_] = {k: str(v) for k, v in entry.items()}

    def add_titles(self, titles: dict[str, dict[str, str]]) -> None:
        for lang, entries in titles.items():
            for kind, text in entries.items():
                self.titles.setdefault(lang, {}).setdefault(kind, text)

    def section_of(self, event: Event) -> str | None:
        """The kind of section ``event`` opens, or None (it joins the current one)."""
        return self.opens.get(event["type"])

    def sections(self, events: list[Event]) -> list[Section]:
        """Cut the GM's full log into sections: ``[(kind, [events...]), ...]``, silent dropped."""
        out: list[Section] = []
        for e in events:
            if e["type"] in self.silent:
                continue
            kind = self.section_of(e)
            if kind is not None and (not out or kind in self.always_new or out[-1][0] != kind):
                out.append((kind, [e]))
            elif out:
                out[-1][1].append(e)
            else:
                out.append(("other", [e]))
        return out

    def story(self, events: list[Event], teller: Teller, player: str | None, public: bool = False,
              cut: list[Section] | None = None) -> list[dict[str, Any]]:
        """The sections a reader may know, told: ``[{"kind", "title", "lines"}]``. ``public``
        keeps only public events; otherwise those ``player`` may know (``None``: the GM)."""
        told = []
        for kind, group in (self.sections(events) if cut is None else cut):
            seen = [e for e in group if (e["to"] == PUBLIC if public else visible_to(e, player))]
            if not seen:
                continue
            head = group[0] if group[0] in seen and self.section_of(group[0]) == kind else None
            told.append({"kind": kind, "title": teller.title(kind, head), "lines": self.lines(kind, seen, teller)})
        return told

    def lines(self, kind: str, seen: list[Event], teller: Teller) -> list[str]:
        """A section's lines: one sentence per event by default; a ruleset may tell a kind of
        section otherwise (several events in one line)."""
        return [teller.sentence(e) for e in seen]


class Teller:
    """Tells events for one post: the catalogue, display names, language and markup are fixed.

    ``names`` maps ids (units, players) to display names, printed in bold. A ruleset subclasses
    to format its own kinds of values (cards, sides...) in :meth:`value`."""

    name_keys: tuple[str, ...] = ("character", "unit", "source", "target", "by", "attacker", "defender",
                                  "victim", "killer", "user")
    name_list_keys: tuple[str, ...] = ("units", "characters", "targets")

    def __init__(self, narration: Narration, names: dict[str, str], lang: str, m: Markup) -> None:
        self.narration, self.names, self.lang, self.m = narration, names, lang, m
        self.sep = "、" if lang == "zh" else ", "

    def name(self, value: Any) -> str:
        return self.m.b(self.names.get(value, value))

    def yes_no(self, value: bool) -> str:
        return ("是" if value else "否") if self.lang == "zh" else ("yes" if value else "no")

    def value(self, key: str, value: Any, event: Event, params: dict[str, Any]) -> str | None:
        """A ruleset's own formatting of one value (None: the generic one). May add to ``params``."""
        return None

    def params(self, event: Event) -> dict[str, Any]:
        m, names = self.m, self.names
        params: dict[str, Any] = {}
        for key, value in event.items():
            if key in _SKIP:
                continue
            if key in self.name_keys and isinstance(value, str) or isinstance(value, str) and value in names:
                params[key] = self.name(value)
                continue
            if isinstance(value, list) and value and all(isinstance(v, str) and v in names for v in value) \
                    or key in self.name_list_keys and isinstance(value, list):
                params[key] = self.sep.join(self.name(v) for v in value)
                continue
            own = self.value(key, value, event, params)
            if own is not None:
                params[key] = own
            elif isinstance(value, bool):
                params[key] = self.yes_no(value)
            elif isinstance(value, list):
                params[key] = m.esc(self.sep.join(map(str, value)))
            elif isinstance(value, dict):
                params[key] = m.esc(self.sep.join(f"{k} {v}" for k, v in value.items()))
            else:
                params[key] = m.esc(value)
        return params

    def sentence(self, event: Event) -> str:
        params = self.params(event)
        entry = self.narration.sentences.get(event["type"])
        if entry is not None:
            try:
                return entry.get(self.lang, entry.get("en", "")).format(**params)
            except (KeyError, IndexError, ValueError):
                pass
        return self.generic(event["type"], params)

    def generic(self, type_: str, params: dict[str, Any]) -> str:
        """An event nobody wrote a sentence for: its type and its values, all escaped."""
        body = "，".join(f"{self.m.esc(k)} {v}" for k, v in params.items())
        return f"〔{self.m.esc(type_)}〕{body}"

    def title(self, kind: str, head: Event | None) -> str:
        """A section's title, as plain text (the template escapes it)."""
        t = self.narration.titles.get(self.lang) or self.narration.titles.get("en", {})
        return t.get(kind, t.get("other", kind))

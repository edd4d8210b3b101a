"""A scenario's ``rules:`` switches, declared once per ruleset and checked by the core.

A ruleset lists its knobs as :class:`Switch` values (``RulesetBase.switches``): each has a name,
a default (the rule document's own reading: a scenario that says nothing plays the seed), what
is allowed (a list of values, an integer range, or both: ``decks: 1-10 or auto``) and the seed
line it reads. A *house rule* is a switch for a contested reading: groups that read the line
otherwise turn it. :func:`check_rules` validates a scenario's ``rules:`` mapping against the
declaration (every problem named, as any scenario field), and :func:`rows` words the switches in
force for the opening post, from the ruleset's labels (``labels.rules.<name>.title`` and
optionally ``labels.rules.<name>.values.<value>``).

>>> s = (Switch("decks", "auto", choices=("auto",), minimum=1, maximum=10), Switch("posts", "step", ("step", "round")))
>>> check_rules(s, {"decks": 2}, "x.yaml")
{'decks': 2, 'posts': 'step'}
>>> check_rules(s, {"posts": "turn"}, "x.yaml")
Traceback (most recent call last):
...
gm_tool.errors.GmError: x.yaml: rules.posts: value 'turn' is not allowed; allowed: step, round
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gm_tool.errors import GmError, Problem


@dataclass(frozen=True)
class Switch:
    """One knob of a scenario's ``rules:``: its default (the seed's reading), the values allowed
    (``choices``; for an integer, ``minimum``-``maximum``), the seed line it reads, and whether it
    is a house rule (a contested reading turned by groups who read the line otherwise)."""

    name: str
    default: Any
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    seed: str = ""
    house: bool = False

    @property
    def integer(self) -> bool:
        return self.minimum is not None or self.maximum is not None

    def allows(self, value: Any) -> bool:
        if any(value == c and type(value) is type(c) for c in self.choices):
            return True
        if self.integer and type(value) is int:
            return (self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum)
        return False

    def allowed(self) -> str:
        """What may be written, as plain text (``1-10, auto``; ``true, false``)."""
        parts = []
        if self.integer:
            parts.append(f"{'' if self.minimum is None else self.minimum}-{'' if self.maximum is None else self.maximum}")
        parts += [_plain(c) for c in self.choices]
        return ", ".join(parts)


def _plain(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def defaults(switches: Iterable[Switch]) -> dict[str, Any]:
    return {s.name: s.default for s in switches}


def check_rules(switches: Iterable[Switch], raw: Any, source: str, field: str = "rules") -> dict[str, Any]:
    """The rules in force: ``raw`` (a scenario's ``rules:``, None for none) over the defaults.
    GmError listing every unknown key and every value that is not allowed."""
    switches = tuple(switches)
    out = defaults(switches)
    if raw is None:
        return out
    if not isinstance(raw, dict):
        raise GmError.one("field.type", file=source, field=field, expected="mapping (name: value)", got=type(raw).__name__)
    known = {s.name: s for s in switches}
    problems = []
    for key, value in raw.items():
        switch = known.get(key) if isinstance(key, str) else None
        if switch is None:
            problems.append(Problem("field.unknown", source, f"{field}.{key}", {"allowed": ", ".join(known) or "-"}))
        elif not switch.allows(value):
            code = "field.range" if switch.integer and type(value) is int else "field.choice"
            problems.append(Problem(code, source, f"{field}.{key}", {"value": value, "allowed": switch.allowed()}))
        else:
            out[key] = value
    if problems:
        raise GmError(problems)
    return out


def rows(switches: Iterable[Switch], rules: dict[str, Any], labels: dict[str, Any], lang: str) -> list[list[str]]:
    """The switches in force as table rows ``[name, value, seed reading or changed, seed line]``
    in the post's language: a house rule that differs from the seed is marked as changed."""
    from gm_tool.i18n import message

    words = labels.get("rules") or {}
    out = []
    for s in switches:
        value = rules.get(s.name, s.default)
        own = words.get(s.name) or {}
        title = own.get("title", s.name) if isinstance(own, dict) else str(own)
        values = own.get("values") or {} if isinstance(own, dict) else {}
        shown = values.get(_plain(value), values.get(value, message("rules.yes" if value else "rules.no", lang)
                                                      if isinstance(value, bool) else _plain(value)))
        mark = message("rules.seed" if value == s.default else "rules.changed", lang)
        out.append([title, shown, mark, s.seed or "-"])
    return out

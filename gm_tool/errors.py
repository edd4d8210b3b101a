"""User-facing errors.

Every problem a user can cause is a :class:`GmError`: it names the file and the field,
says what was wrong and what is allowed. The CLI turns it into one line per problem and
an exit code (1 for bad input, 2 for bad usage); nothing else ever reaches the user.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from gm_tool.i18n import register

INPUT = 1
USAGE = 2

register({"errors.more": {"zh": "……另有 {n} 个问题未列出（先改正以上各项）",
                          "en": "... and {n} more problems not shown (fix the ones above first)"}})


@dataclass
class Problem:
    """One problem: a message code from the catalog plus where it was found."""

    code: str
    file: str | None = None
    field: str | None = None
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    line: int | None = None  # the line of ``field`` in ``file``, when known (gm_tool.core.yamlpos)

    def render(self, lang: str = "zh") -> str:
        from gm_tool.i18n import message

        text = message(self.code, lang, **self.params)
        place = f"{self.file}:{self.line}" if self.file and self.line else self.file
        where = ": ".join(part for part in (place, self.field) if part)
        return f"{where}: {text}" if where else text


class GmError(Exception):
    """One or more user problems, with the exit code they deserve."""

    def __init__(self, problems: Problem | list[Problem], exit_code: int = INPUT,
                 reading: list[tuple[int, str, str]] | None = None):
        self.problems = problems if isinstance(problems, list) else [problems]
        self.exit_code = exit_code
        # what was understood of an input read line by line ((line, text, understood as)), shown
        # with the problems so a failed reading still tells what it made of each line (gm import)
        self.reading = reading or []
        super().__init__(self.render("en"))

    @classmethod
    def one(cls, code: str, *, file: str | None = None, field: str | None = None,
            exit_code: int = INPUT, **params: Any) -> "GmError":
        return cls(Problem(code, file, field, params), exit_code)

    def render(self, lang: str = "zh") -> str:
        """One line per problem; past :data:`MAX_SHOWN`, one line saying how many more (a sheet
        of 60,000 unknown keys needs its first lines fixed, not 60,000 lines)."""
        lines = [p.render(lang) for p in self.problems[:MAX_SHOWN]]
        if len(self.problems) > MAX_SHOWN:
            from gm_tool.i18n import message

            lines.append(message("errors.more", lang, n=len(self.problems) - MAX_SHOWN))
        return "\n".join(lines)


MAX_SHOWN = 100

"""The ruleset protocol and the registry of rulesets.

A ruleset is a package under ``gm_tool.rulesets`` whose ``RULESET`` object implements
:class:`Ruleset`. The core never branches on which game it runs; it only calls these methods.

A turn is "the sheets that are due, then resolution". A simultaneous game makes every player's
sheet due every turn; a sequential game makes due only the sheet(s) of whoever acts next, and
its sheets also carry standing choices for reactions outside that player's turn. ``resolve``
resolves one step from the sheets given (a missing sheet is the player's default orders).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Any, Protocol

from gm_tool.errors import USAGE, GmError

State = dict[str, Any]
Event = dict[str, Any]


@dataclass
class Resolution:
    """What one resolved turn produced: the new state and every event, in order."""

    state: State
    events: list[Event] = field(default_factory=list)


class Ruleset(Protocol):
    name: str
    bot_kinds: tuple[str, ...]  # the built-in bots, by name (`gm simulate --bots`)

    def setup(self, scenario: dict[str, Any], source: str, seed: str) -> State:
        """The initial state (turn 0) from a validated scenario mapping; raises GmError."""

    def players(self, state: State) -> list[str]:
        """Every player of the campaign, in a stable order."""

    def due(self, state: State) -> list[str]:
        """Players whose sheets the next resolution needs (empty when the game is over)."""

    def parse_orders(self, state: State, sheet: dict[str, Any], source: str, lang: str) -> Any:
        """Validate one sheet against ``state``; raise GmError listing every problem.
        The result has a ``player`` attribute; the rest is the ruleset's own."""

    def default_orders(self, state: State, player: str) -> Any:
        """What a player who sent nothing does."""

    def resolve(self, state: State, orders: dict[str, Any], seed: str) -> Resolution:
        """Resolve the next turn. Pure: same inputs, same outputs."""

    def view(self, state: State, player: str | None) -> State:
        """What ``player`` may see (``None``: the GM's full view), in the state's shape."""

    def summary(self, view: State, player: str | None, lang: str) -> str:
        """A view as text for the terminal (`gm show` without --json)."""

    def template(self, state: State, player: str, lang: str) -> str:
        """A commented order sheet for ``player``'s next turn that validates as it is."""

    def bot_sheet(self, state: State, player: str, kind: str, chance: Any) -> dict[str, Any]:
        """An order sheet (a plain mapping that passes parse_orders) written by a built-in bot."""

    def summary_for_sim(self, state: State) -> dict[str, Any]:
        """For `gm simulate`: ``{"sides": [...], "winner": side | "draw" | None (not over),
        "score": {side: number} (optional), "units": [{"id", "player", "side", "class", "alive"}]}``."""

    def bot_orders(self, state: State, kinds: dict[str, str], chance: Any) -> dict[str, Any]:
        """``{player: orders}`` for the bots ``{player: kind}``: equal to calling ``bot_sheet`` then
        ``parse_orders`` for each player in the order given (a ruleset may do it faster)."""

    def posts(self, before: State, after: State, events: list[Event], lang: str,
              templates_dir: Any = None) -> dict[str, dict[str, str]]:
        """Rendered posts: ``{"public": {...}, PLAYER: {...}}``, each ``{"bbcode": ..., "md": ...}``.
        Optional extra files (pictures) go under the key ``"files"`` as ``{name: bytes}``."""

    def amend(self, state: State, action: dict[str, Any], source: str) -> tuple[State, list[Event]]:
        """Apply one GM edit between turns (``{"action": NAME, "args": [...], "reason": TEXT}``):
        the edited state and the edit's events, audiences set. Pure; raises GmError naming
        ``source`` and the argument at fault. The events open the next turn's log and posts."""

    def amend_actions(self) -> dict[str, str]:
        """The GM edits this ruleset knows: ``{action: "its arguments"}``."""

    def default_summary(self, state: State, player: str, lang: str) -> str:
        """What ``player`` does if no sheet arrives (for `gm status`)."""


def available() -> list[str]:
    import gm_tool.rulesets as pkg

    return sorted(m.name for m in pkgutil.iter_modules(pkg.__path__) if m.ispkg)


def get(name: str) -> Ruleset:
    if not isinstance(name, str) or name not in available():
        raise GmError.one("ruleset.unknown", field="ruleset", exit_code=USAGE, name=name,
                          allowed=", ".join(available()))
    module = importlib.import_module(f"gm_tool.rulesets.{name}")
    return module.RULESET

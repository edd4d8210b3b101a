"""Actions with their options: one class per kind of action a sheet may hold.

A kind of action (a move, an attack, a card played, a step of a race) is one class that holds
everything about it in one place:

- how a sheet writes it: its ``name`` (the key naming it in a sheet entry), the ``aliases`` a
  player may use instead (the rule document's own words), its other ``fields`` with their
  aliases, and :meth:`ActionKind.read`, which turns one entry into a typed order or names
  every problem by field;
- :meth:`ActionKind.options`: the entries the actor may write in a state. The template offers
  them, the bots choose among them, the posts list them, and ``read`` accepts every one
  (:func:`consistency` checks that over a few hundred random states);
- :meth:`ActionKind.apply`: what it does, to the ruleset's own game object.

An :class:`ActionTable` maps kind names and their aliases to kinds: an entry is read by the kind
its key names, an order applied by the kind it came from (``order.kind``). Nothing reaches a
method by building its name (``getattr(self, "do_" + kind)``).

A sheet entry names its kind by a key whose value is the action's main argument, and gives
its other fields beside it: ``{summon: X, at: D6}`` is a ``summon`` of ``X`` with ``at``
``D6``. A ruleset whose sheet holds one action writes it at the top level (``step: 2``), one
with a list of actions reads each item of the list with the same table.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from gm_tool.errors import GmError, Problem

if TYPE_CHECKING:
    from gm_tool.core.ruleset import RulesetBase

S = TypeVar("S")  # the ruleset's state
G = TypeVar("G")  # what ``apply`` changes: the ruleset's game (a turn being resolved)
A = TypeVar("A")  # one kind's order


def normal(word: str) -> str:
    """How a spelling is matched: Unicode NFKC (full-width letters and digits as ASCII), trimmed,
    case folded."""
    return unicodedata.normalize("NFKC", word).strip().casefold()


def at(path: str, key: str | int) -> str:
    """A field path one step further: ``at("actions.2", "to") == "actions.2.to"``."""
    return f"{path}.{key}" if path else str(key)


@dataclass
class Reading(Generic[S]):
    """What reading one sheet needs: the state it is checked against, who acts, the file, and
    the problems found so far (every problem of a sheet is reported at once)."""

    state: S
    actor: str
    source: str
    problems: list[Problem] = field(default_factory=list)

    def problem(self, field_path: str, code: str, **params: Any) -> None:
        self.problems.append(Problem(code, self.source, field_path, params))


@dataclass(frozen=True)
class Option:
    """One thing an actor may do now: the kind's name and the entry a sheet writes for it
    (canonical keys: ``{"trip": "ben"}``)."""

    kind: str
    entry: dict[str, Any]


class ActionKind(Generic[S, A, G]):
    """One kind of action. Subclasses set ``name`` (and ``aliases``, ``fields``) and implement
    ``read``, ``options`` and ``apply``."""

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()  # other spellings of ``name`` a sheet may use
    # the entry's other keys: canonical name -> its other spellings
    fields: ClassVar[dict[str, tuple[str, ...]]] = {}

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[S], path: str) -> A | None:
        """The order an entry stands for: ``value`` is the kind key's value, ``entry`` the other
        fields under their canonical names. Refuse what the state does not allow (every option
        ``options`` gives must pass, nothing else need); on a problem, add it to ``reading``
        (field paths from ``path``) and return None."""
        raise NotImplementedError

    def options(self, state: S, actor: str) -> Iterable[dict[str, Any]]:
        """Every entry ``actor`` may write now (canonical keys, the kind's own key included), in
        a stable order. A kind with too many to list (every path over a board) gives a
        representative few; ``read`` stays the judge."""
        raise NotImplementedError

    def apply(self, game: G, order: A) -> None:
        """Carry the order out on the ruleset's game (events, chance: the game's)."""
        raise NotImplementedError


class ActionTable(Generic[S, G]):
    """The kinds of action a ruleset knows, by name and alias (matched by :func:`normal`)."""

    def __init__(self, *kinds: ActionKind[S, Any, G]) -> None:
        self.kinds: dict[str, ActionKind[S, Any, G]] = {}
        self._by_word: dict[str, ActionKind[S, Any, G]] = {}
        for kind in kinds:
            if not kind.name or kind.name in self.kinds:
                raise ValueError(f"action kind {kind.name!r} is unnamed or named twice")
            self.kinds[kind.name] = kind
            for word in (kind.name, *kind.aliases):
                if normal(word) in self._by_word:
                    raise ValueError(f"the word {word!r} names two action kinds")
                self._by_word[normal(word)] = kind
        for kind in kinds:  # a field spelled like a kind would make an entry name two kinds
            for name, spellings in kind.fields.items():
                clash = [w for w in (name, *spellings) if normal(w) in self._by_word]
                if clash:
                    raise ValueError(f"field {clash[0]!r} of {kind.name} is also an action kind")

    def __contains__(self, name: object) -> bool:
        return name in self.kinds

    def kind(self, word: str) -> ActionKind[S, Any, G] | None:
        """The kind a key names (its name or an alias, in any width or case), or None."""
        return self._by_word.get(normal(word)) if isinstance(word, str) else None

    def words(self) -> dict[str, str]:
        """``{spelling: canonical key}`` of every kind and field alias, for the ruleset's
        ``sheet_aliases`` (problems are then found on their line and named as the sheet wrote
        them)."""
        out: dict[str, str] = {}
        for kind in self.kinds.values():
            out.update({alias: kind.name for alias in kind.aliases})
            for name, spellings in kind.fields.items():
                out.update({alias: name for alias in spellings})
        return out

    def read(self, entry: Any, reading: Reading[S], path: str = "", *, ignore: Iterable[str] = ()) -> Any | None:
        """One entry read by the kind its key names: the kind's order, or None with the problems
        added to ``reading``. Keys in ``ignore`` belong to the sheet around the entry (a sheet
        holding one action at its top level ignores ``turn`` and ``player``)."""
        if not isinstance(entry, Mapping):
            reading.problem(path, "action.not_mapping", kinds=self.allowed())
            return None
        ignore = tuple(ignore)
        skip = set(ignore)
        before = len(reading.problems)
        named = [(key, self.kind(key)) for key in entry if key not in skip]
        kinds = [(key, kind) for key, kind in named if kind is not None]
        if not kinds:
            reading.problem(path or next((str(k) for k in entry if k not in skip), ""), "action.none",
                            kinds=self.allowed())
            return None
        if len(kinds) > 1:
            reading.problem(at(path, str(kinds[1][0])), "action.several", first=kinds[0][0], kinds=self.allowed())
            return None
        key, kind = kinds[0]
        assert kind is not None
        spelled = {normal(w): name for name, spellings in kind.fields.items() for w in (name, *spellings)}
        fields: dict[str, Any] = {}
        for other, value in entry.items():
            if other == key or other in skip:
                continue
            name = spelled.get(normal(other)) if isinstance(other, str) else None
            if name is None:
                reading.problem(at(path, str(other)), "field.unknown", allowed=", ".join([*ignore, kind.name, *kind.fields]))
            elif name in fields:
                reading.problem(at(path, str(other)), "field.duplicate", value=other)
            else:
                fields[name] = value
        order = kind.read(entry[key], fields, reading, path)
        return order if len(reading.problems) == before else None

    def allowed(self) -> str:
        return ", ".join(self.kinds)

    def options(self, state: S, actor: str) -> list[Option]:
        """Every option of every kind, kinds in the table's order."""
        return [Option(kind.name, dict(entry)) for kind in self.kinds.values() for entry in kind.options(state, actor)]

    def apply(self, game: G, order: Any) -> None:
        """Carry out an order read by this table (its ``kind`` names the kind)."""
        self.kinds[order.kind].apply(game, order)


# consistency: what the template offers, gm check accepts, and the bots write ----------------------
@dataclass
class Finding:
    """One disagreement: in the state after ``turn`` (game ``game``), ``player``'s ``what``
    (``template zh``, ``option``, ``bot random``...) was refused by the sheet check."""

    game: int
    turn: int
    player: str
    what: str
    sheet: Any
    problems: list[str]

    def __str__(self) -> str:
        return (f"game {self.game}, after turn {self.turn}, {self.player}, {self.what}: "
                f"{'; '.join(self.problems)}\n  sheet: {self.sheet!r}")


@dataclass
class Consistency:
    """What :func:`consistency` looked at, and every disagreement it found."""

    states: int = 0
    options: int = 0
    sheets: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)  # options checked, per kind
    findings: list[Finding] = field(default_factory=list)


def checked(ruleset: RulesetBase[Any, Any], state: Any, text: str, source: str, lang: str) -> list[str]:
    """The problems `gm check` finds in a sheet's text (``code@field`` each), [] when it passes:
    the text read as `gm check` reads a file (the safe YAML loader), then ``parse_orders``."""
    from gm_tool.core import safeyaml

    try:
        sheet = safeyaml.loads(text, source)
        if not isinstance(sheet, dict):
            return [f"yaml.not_mapping@ ({type(sheet).__name__})"]
        ruleset.parse_orders(state, sheet, source, lang)
    except GmError as exc:
        return [f"{p.code}@{p.field}" for p in exc.problems]
    return []


def consistency(ruleset: RulesetBase[Any, Any], scenario: dict[str, Any], source: str, *,
                options: Callable[[Any, str], Iterable[Option]],
                sheet_for: Callable[[Any, str, Option], dict[str, Any]],
                states: int = 300, seed: str = "consistency", per_state: int = 12, max_turns: int = 200,
                langs: tuple[str, ...] = ("zh", "en")) -> Consistency:
    """Play bot games of ``scenario`` (the ruleset's bot kinds in turn, game after game) until
    ``states`` states were seen, and in each, for every due player, check that `gm check`
    accepts:

    - the template (``ruleset.template``) in each of ``langs``, as it stands;
    - every option ``options(state, player)`` gives (at most ``per_state``, chosen by a seeded
      draw when there are more), written as a sheet by ``sheet_for(state, player, option)``;
    - the sheet of every bot kind (``ruleset.bot_sheet``).

    Returns what was checked and every refusal (:class:`Finding`); a ruleset's test asserts
    there is none. Sheets go through YAML text, as a player's file does."""
    from gm_tool.core.chance import Chance
    from gm_tool.core.store import dump_yaml

    report = Consistency()
    game = 0
    while report.states < states:
        kind = ruleset.bot_kinds[game % len(ruleset.bot_kinds)]
        game_seed = f"{seed}:{game}"
        state = ruleset.setup(scenario, source, game_seed)
        for n in range(1, max_turns + 1):
            due = ruleset.due(state)
            if not due or report.states >= states:
                break
            report.states += 1
            turn = ruleset.turn(state)
            pick = Chance(game_seed, f"consistency-{n}")
            for player in due:
                sheets: list[tuple[str, str, Any]] = []  # (what, the text gm check reads, what to show)
                for lang in langs:
                    text = ruleset.template(state, player, lang)
                    sheets.append((f"template {lang}", text, text))
                offered = list(options(state, player))
                if len(offered) > per_state:
                    chosen = list(range(len(offered)))
                    pick.shuffle(chosen)
                    offered = [offered[i] for i in sorted(chosen[:per_state])]
                report.options += len(offered)
                for option in offered:
                    report.by_kind[option.kind] = report.by_kind.get(option.kind, 0) + 1
                    sheet = sheet_for(state, player, option)
                    sheets.append((f"option {option.kind} {option.entry!r}", dump_yaml(sheet), sheet))
                for bot in ruleset.bot_kinds:
                    sheet = ruleset.bot_sheet(state, player, bot, Chance(game_seed, f"bots-{n}-{bot}"))
                    sheets.append((f"bot {bot}", dump_yaml(sheet), sheet))
                for what, text, shown in sheets:
                    report.sheets += 1
                    problems = checked(ruleset, state, text, f"{player}.yaml", langs[0] if langs else "en")
                    if problems:
                        report.findings.append(Finding(game, turn, player, what, shown, problems))
            chance = Chance(game_seed, f"bots-{n}")
            try:
                orders = ruleset.bot_orders(state, {p: kind for p in due}, chance)
            except GmError:  # a bot's sheet refused (a finding above when it was the one checked): next game
                break
            state = ruleset.resolve(state, orders, game_seed).state
        game += 1
    return report

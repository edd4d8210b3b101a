"""The ruleset contract, its base class and the registry of rulesets.

A ruleset is a package under ``gm_tool.rulesets`` whose ``RULESET`` object is an instance of a
subclass of :class:`RulesetBase`. The core never branches on which game it runs; it only reads
the members declared here.

A turn is "the sheets that are due, then resolution". A simultaneous game makes every player's
sheet due every turn; a sequential game makes due only the sheet(s) of whoever acts next, and
its sheets may also carry standing choices for reactions outside that player's turn. What a
missing sheet means is declared by the ruleset (``missing_sheet``): the player's default orders,
or a pass. Either way the core says so: `gm status` lists what each missing player will do and
`gm resolve` reports who passed; a ruleset's posts tell it from the orders it was given.
"""

from __future__ import annotations

import copy
import importlib
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from gm_tool.core.events import EventLog
from gm_tool.errors import USAGE, GmError

if TYPE_CHECKING:
    from gm_tool.core.actions import Option
    from gm_tool.core.narrate import Narration, Teller
    from gm_tool.core.posts import Post, Posts, PostTurn
    from gm_tool.core.rules import Switch
    from gm_tool.core.texts import Texts

State = dict[str, Any]
Event = dict[str, Any]


class TurnKind(StrEnum):
    """Whose sheets a turn needs: every player's (simultaneous) or only whoever acts next."""

    SIMULTANEOUS = "simultaneous"
    SEQUENTIAL = "sequential"


class MissingSheet(StrEnum):
    """What a due player who sent no sheet does: their default orders, or a pass."""

    DEFAULT = "default"
    PASS = "pass"


class Hides(StrEnum):
    """What a player's view (``view(state, player)``) hides from that player.

    ``NOTHING``: every view is the GM's (the base class's ``view``); ``HOLDINGS``: what the
    other players hold or chose (cards in hand, a deck's order, standing choices, secret
    numbers), the board being the same for all; ``SIGHT``: holdings and also the part of the
    board beyond the player's sight."""

    NOTHING = "nothing"
    HOLDINGS = "holdings"
    SIGHT = "sight"


# the names before the enums (a ruleset may still import them: they are the enum members)
SIMULTANEOUS = TurnKind.SIMULTANEOUS
SEQUENTIAL = TurnKind.SEQUENTIAL
DEFAULT = MissingSheet.DEFAULT
PASS = MissingSheet.PASS

DRAW = "draw"


class Orders(Protocol):
    """A validated order sheet. Everything besides ``player`` is the ruleset's own."""

    @property
    def player(self) -> str: ...


S = TypeVar("S", bound=Mapping[str, Any])  # a ruleset's state (plain JSON data, a mapping)
O = TypeVar("O", bound=Orders)  # a ruleset's validated orders


@dataclass
class Resolution(Generic[S]):
    """What one resolved turn produced: the new state and every event, in order."""

    state: S
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """How a campaign stands: over or not, and who won (``winner`` is a player or side name;
    ``draw`` is true for a drawn game, with ``winner`` None)."""

    over: bool
    winner: str | None = None
    draw: bool = False

    @property
    def label(self) -> str | None:
        """The winner's name, ``"draw"``, or None while the game goes on."""
        return DRAW if self.draw else self.winner


MAX_AMEND_INT = 9999  # no count, HP or number of rounds of these games comes near it
MAX_AMEND_ARGS = 100  # `close-area CELL...` of a whole quarter of a map
MAX_AMEND_TEXT = 100  # characters of one argument (an id, a cell, a card's name)


@dataclass(frozen=True)
class Arg:
    """One argument of a GM edit: its name and kind (``"str"``, ``"int"`` or ``"str..."`` for one
    or more strings, which must be last). ``minimum`` and ``maximum`` bound an ``int`` (at most
    :data:`MAX_AMEND_INT` unless the ruleset says less)."""

    name: str
    kind: str = "str"
    minimum: int | None = None
    maximum: int = MAX_AMEND_INT


_FULL_WIDTH = str.maketrans("０１２３４５６７８９－．", "0123456789-.")


def read_number(value: Any, halves: bool = False) -> int | float | None:
    """A number a GM typed: an integer of ASCII or full-width digits with an optional leading
    minus (``12``, ``１２``, ``-1``), or a YAML integer; with ``halves`` also a half (``3.5``).
    None for anything else: ``1_0``, ``١٠`` (Arabic-Indic), ``²``, ``1e3``, ``inf``, ``+1``, a
    boolean (Python's int() and float() take most of these). At most 30 digits: the caller bounds it."""
    if type(value) is int:
        return value
    if halves and type(value) is float:
        return value if value * 2 == int(value * 2) else None
    if not isinstance(value, str):
        return None
    text = value.strip().translate(_FULL_WIDTH)
    digits = text[1:] if text.startswith("-") else text
    whole, dot, half = digits.partition(".")
    if not (whole.isascii() and whole.isdigit() and len(whole) <= 30) or (dot and not (halves and half in ("0", "5"))):
        return None
    number = int(whole) + (0.5 if half == "5" else 0)
    number = -number if text.startswith("-") else number
    return int(number) if number == int(number) else number


def read_int(value: Any) -> int | None:
    """:func:`read_number` without halves: an ``int`` or None."""
    number = read_number(value)
    return number if isinstance(number, int) else None


@dataclass(frozen=True)
class AmendAction:
    """A GM edit a ruleset offers: its arguments and a one-line description per language."""

    args: tuple[Arg, ...]
    help: dict[str, str] = field(default_factory=dict)

    def usage(self) -> str:
        return " ".join(a.name.upper() + ("..." if a.kind.endswith("...") else "") for a in self.args)


def convert_amend_args(name: str, spec: AmendAction, args: list[Any], source: str) -> list[Any]:
    """``args`` checked and converted against ``spec``; a GmError names the argument at fault."""
    fixed = [a for a in spec.args if not a.kind.endswith("...")]
    rest = spec.args[-1] if spec.args and spec.args[-1].kind.endswith("...") else None
    if len(args) < len(fixed) + (1 if rest else 0) or (rest is None and len(args) > len(fixed)) \
            or len(args) > MAX_AMEND_ARGS:
        raise GmError.one("amend.arity", file=source, field="args", action=name, usage=spec.usage(),
                          got=len(args))
    out: list[Any] = []
    for i, value in enumerate(args):
        arg = fixed[i] if i < len(fixed) else rest
        assert arg is not None
        if arg.kind == "int":
            number = read_int(value)
            if number is None:
                raise GmError.one("amend.int", file=source, field=f"args.{i}", name=arg.name, value=value)
            if (arg.minimum is not None and number < arg.minimum) or number > arg.maximum:
                raise GmError.one("amend.range", file=source, field=f"args.{i}", name=arg.name, value=number,
                                  minimum="-∞" if arg.minimum is None else arg.minimum, maximum=arg.maximum)
            out.append(number)
        else:
            from gm_tool.core.schema import text_problem

            problem = text_problem(value, MAX_AMEND_TEXT, one_line=True)
            if problem is not None:
                raise GmError.one(problem[0], file=source, field=f"args.{i}", **problem[1])
            out.append(str(value))
    return out


class RulesetBase(Generic[S, O]):
    """What every ruleset declares and implements, with defaults a small game can keep.

    Generic over the ruleset's state ``S`` (plain JSON data: a mapping) and its validated
    orders ``O`` (what ``parse_orders`` returns): ``class Race(RulesetBase[RaceState, RaceOrders])``.
    A subclass must set ``name`` and implement ``setup``, ``players``, ``due``,
    ``parse_orders``, ``resolve``, ``summary``, ``template``, ``bot_sheet``,
    ``summary_for_sim`` and ``post``, plus ``default_orders`` (``MissingSheet.DEFAULT``)
    or ``pass_orders`` (``MissingSheet.PASS``)."""

    name: ClassVar[str] = ""
    turn_kind: ClassVar[TurnKind] = TurnKind.SIMULTANEOUS
    missing_sheet: ClassVar[MissingSheet] = MissingSheet.DEFAULT
    hides: ClassVar[Hides] = Hides.NOTHING  # what a player's view hides (the base view hides nothing)
    bot_kinds: ClassVar[tuple[str, ...]] = ("random",)
    uses_dice_file: ClassVar[bool] = False  # `gm dice` stores forum rolls passed to resolve()
    standing_sheets: ClassVar[bool] = False  # sheets of players not due (standing orders) reach resolve() too
    default_scenario: ClassVar[str] = ""  # the bundled scenario `gm demo --ruleset NAME` plays
    demo_turns: ClassVar[int | None] = None  # turns `gm demo` plays by default (None: to the end)
    # raised by one whenever a rules change makes a campaign replay differently (a fixed card, a
    # changed ruling); recorded in campaign.yaml by `gm new`, and `gm verify` replays only its own
    rules_version: ClassVar[int] = 1
    package_dir: ClassVar[Path | None] = None  # where templates/ and data/messages.yaml live
    # the scenario's ``rules:`` knobs (gm_tool.core.rules): defaults are the seed's readings
    switches: ClassVar[tuple[Switch, ...]] = ()
    # ``{spelling: canonical key}`` of the sheet's keys (the seed's own words): problems are found
    # on their line and named in the words the sheet used
    sheet_aliases: ClassVar[dict[str, str]] = {}

    # setup and players ---------------------------------------------------------------------
    def setup(self, scenario: dict[str, Any], source: str, seed: str, log: EventLog | None = None) -> S:
        """The initial state (turn 0) from a scenario mapping; raises GmError naming fields.
        What setting up draws or tells goes to ``log`` when given (``Chance(seed, "setup", log)``
        records each shuffle as a GM-only event); a ruleset with nothing to tell ignores it."""
        raise NotImplementedError

    def begin(self, scenario: dict[str, Any], source: str, seed: str) -> Resolution[S]:
        """The initial state with the events of setting it up (`gm new` writes them to
        ``log/turn-000.jsonl``; `gm verify` replays them): ``setup()`` given a log."""
        log = EventLog()
        return Resolution(self.setup(scenario, source, seed, log), log.events)

    def players(self, state: S) -> list[str]:
        """Every player of the campaign, in a stable order."""
        raise NotImplementedError

    def due(self, state: S) -> list[str]:
        """Players whose sheets the next resolution needs (empty when the game is over)."""
        raise NotImplementedError

    def turn(self, state: S) -> int:
        """How many turns the state has resolved."""
        return int(state["turn"])

    def outcome(self, state: S) -> Outcome:
        """Whether the game is over and who won: the one place the winner comes from (every
        command, the posts and `gm simulate` read it here). By default read from
        ``state["winner"]`` (a name, ``"draw"`` or None)."""
        winner = state.get("winner")
        if winner is None:
            return Outcome(False)
        if winner == DRAW:
            return Outcome(True, None, True)
        return Outcome(True, str(winner))

    # orders --------------------------------------------------------------------------------
    def parse_orders(self, state: S, sheet: dict[str, Any], source: str, lang: str) -> O:
        """Validate one sheet against ``state``; raise GmError listing every problem."""
        raise NotImplementedError

    def default_orders(self, state: S, player: str) -> O:
        """What a due player who sent nothing does, in a game whose ``missing_sheet`` is DEFAULT."""
        raise NotImplementedError

    def pass_orders(self, state: S, player: str) -> O:
        """A pass, for a due player who sent nothing in a game whose ``missing_sheet`` is PASS."""
        raise NotImplementedError

    def missing_orders(self, state: S, player: str) -> O:
        """What the core uses for a due player without a sheet: a pass or the default orders."""
        if self.missing_sheet is MissingSheet.PASS:
            return self.pass_orders(state, player)
        return self.default_orders(state, player)

    def turn_orders(self, state: S, sent: Mapping[str, O]) -> tuple[dict[str, O], list[str]]:
        """What :meth:`resolve` gets from the sheets in hand (``sent``: player -> parsed orders):
        the orders of every due player (a missing sheet is :meth:`missing_orders`), then, with
        ``standing_sheets``, those of the players not due who sent one; and the due players who
        sent nothing. `gm resolve` and the rule cases (gm_tool.core.cases) both read it here."""
        due = self.due(state)
        orders = {p: sent[p] if p in sent else self.missing_orders(state, p) for p in due}
        if self.standing_sheets:
            orders.update({p: sent[p] for p in self.players(state) if p not in due and p in sent})
        return orders, [p for p in due if p not in sent]

    def import_message(self, state: S, text: str, source: str, lang: str,
                       player: str | None) -> tuple[dict[str, Any], list[tuple[int, str, str]]]:
        """A player's message written in the rule document's own form, read into a sheet:
        ``(sheet, [(line number, line, what it was understood as)])``; GmError naming each line
        that cannot be placed. Rulesets whose documents give no such form do not offer it."""
        raise GmError.one("import.unsupported", file=source, ruleset=self.name)

    def default_summary(self, state: S, player: str, lang: str) -> str:
        """What ``player`` does if no sheet arrives (for `gm status`)."""
        from gm_tool.i18n import message

        return message("status.passes" if self.missing_sheet is MissingSheet.PASS else "status.defaults", lang)

    # resolution ----------------------------------------------------------------------------
    def resolve(self, state: S, orders: dict[str, O], seed: str,
                dice: list[int] | None = None) -> Resolution[S]:
        """Resolve the next turn from the due players' orders. Pure: same inputs, same outputs.
        ``dice`` are the turn's forum rolls when the ruleset ``uses_dice_file``."""
        raise NotImplementedError

    # what players see ----------------------------------------------------------------------
    def view(self, state: S, player: str | None) -> S:
        """What ``player`` may see (``None``: the GM), in the state's shape. The default shows
        everything: right only for a game without hidden information."""
        return copy.deepcopy(state)

    def summary(self, view: S, player: str | None, lang: str) -> str:
        """A view as text for the terminal (`gm show` without --json)."""
        raise NotImplementedError

    def template(self, state: S, player: str, lang: str) -> str:
        """A commented order sheet for ``player``'s next turn that validates as it is."""
        raise NotImplementedError

    def posts(self, before: State, after: State, events: list[Event], lang: str,
              templates_dir: Path | None = None) -> Posts:
        """The turn's posts, rendered by the core from :meth:`post` (the campaign's commands call
        :func:`gm_tool.core.posts.turn_posts`, which also takes the secret naming the pictures)."""
        from gm_tool.core.posts import turn_posts

        return turn_posts(self, before, after, events, lang, templates_dir=templates_dir)

    def opening_posts(self, state: State, lang: str, templates_dir: Path | None = None) -> Posts | None:
        """The posts of turn 0, rendered by the core from :meth:`opening_post` (None: none)."""
        from gm_tool.core.posts import opening_posts

        return opening_posts(self, state, lang, templates_dir=templates_dir)

    # what a post holds (the core renders it: gm_tool.core.posts) -------------------------------
    def post(self, turn: PostTurn, reader: str | None) -> Post | None:
        """The content of one post of a resolved turn: the public post (``reader`` None) or a
        player's. Built from ``self.view(turn.after, reader)`` and the events the reader may know."""
        raise NotImplementedError

    def opening_post(self, turn: PostTurn, reader: str | None) -> Post | None:
        """The content of one post of turn 0 (``turn.opening``): the board, seats and order (public);
        what the player holds and the first sheet if due (private). None: no such post."""
        return None

    def gm_picture(self, turn: PostTurn) -> bytes | Any | None:
        """The GM's picture of the turn (everything shown), saved as ``gm-map.png``; None: none."""
        return None

    def texts(self) -> Texts | None:
        """The ruleset's words (``data/messages.yaml``), or None when it has no such file."""
        if self.package_dir is None:
            return None
        from gm_tool.core import texts

        folder = Path(self.package_dir) / "data"
        if not (folder / texts.FILE).is_file():
            return None
        return texts.load(folder, self.name)

    def labels(self, lang: str) -> dict[str, Any]:
        words = self.texts()
        return words.labels(lang) if words is not None else {}

    def narration(self) -> Narration:
        words = self.texts()
        if words is not None:
            return words.narration
        from gm_tool.core.narrate import Narration

        return Narration({})

    teller_class: ClassVar[type | None] = None  # a Teller subclass formatting the ruleset's own values

    def teller(self, names: dict[str, str], lang: str, m: Any) -> Teller:
        """Tells events for one post (``names``: ids to display names and unit labels)."""
        from gm_tool.core.narrate import Teller

        return (self.teller_class or Teller)(self.narration(), names, lang, m)

    def tell(self, turn: PostTurn, reader: str | None, teller: Teller, **options: Any) -> list[dict[str, Any]]:
        """The story of a post: the sections of the turn's events the reader may know (public
        events only for the public post), told by ``teller``."""
        return self.narration().story(turn.events, teller, reader, public=reader is None, cut=turn.cut(self))

    def unit_labels(self, view: S, lang: str) -> dict[str, str]:
        """How the posts name units, by id (the labels of the board), for the teller; player ids
        are shown by their display names whatever this says."""
        return {}

    def winner_words(self, outcome: Outcome, lang: str) -> str:
        """The result in words: a draw, the winning player's display name, or the winning side's
        name (``labels.sides.<side>``)."""
        from gm_tool.core.render import display_name
        from gm_tool.i18n import message

        if outcome.draw or outcome.winner is None:
            return message("posts.draw", lang)
        sides = self.labels(lang).get("sides") or {}
        return str(sides.get(outcome.winner) or display_name(outcome.winner))

    def amend_posts(self, state: State, action: dict[str, Any], events: list[Event], lang: str,
                    templates_dir: Path | None = None, secret: str = "") -> Posts | None:
        """Posts a GM edit sends at once, before the next turn (a replacement player's handover),
        from ``state`` with the edits made; `gm amend` writes them beside the edit (pictures
        named from ``secret`` as a turn's, gm_tool.core.posts.render_posts). None: none."""
        return None

    # what a player may do (gm_tool.core.actions) ----------------------------------------------
    def options(self, state: S, player: str) -> list[Option]:
        """Every option ``player`` has now, for the template, the bots and the posts to derive
        from (a ruleset with an ``ActionTable``: its ``options`` for a player who is due); the
        conformance test checks that `gm check` accepts each, written by :meth:`sheet_for`.
        None declared: []."""
        return []

    def sheet_for(self, state: S, player: str, option: Option) -> dict[str, Any]:
        """The sheet (a plain mapping) that sends one of :meth:`options`."""
        raise NotImplementedError

    # bots and simulation ---------------------------------------------------------------------
    def bot_sheet(self, state: S, player: str, kind: str, chance: Any) -> dict[str, Any]:
        """An order sheet (a plain mapping that passes parse_orders) written by a built-in bot."""
        raise NotImplementedError

    def bot_orders(self, state: S, kinds: dict[str, str], chance: Any) -> dict[str, O]:
        """``{player: orders}`` for the bots ``{player: kind}``, in the order given."""
        return {p: self.parse_orders(state, self.bot_sheet(state, p, kind, chance), f"<bot {p}>", "en")
                for p, kind in kinds.items()}

    def summary_for_sim(self, state: S) -> dict[str, Any]:
        """For `gm simulate`: ``{"sides": [...], "score": {side: number} (optional),
        "score_label": {"zh", "en"} (optional), "units": [{"id", "player", "side", "class", "alive"}]}``.
        Who won is not here: `gm simulate` reads :meth:`outcome` (its winner is a side)."""
        raise NotImplementedError

    # GM edits --------------------------------------------------------------------------------
    def amend_actions(self) -> dict[str, AmendAction]:
        """The GM edits this ruleset knows, by action name (drives `gm amend --help`)."""
        return {}

    def amend(self, state: S, action: dict[str, Any], source: str) -> tuple[S, list[Event]]:
        """Apply one GM edit between turns (``{"action", "args", "reason"}``, the arguments
        already converted by ``amend_actions``' specs): the edited state and its events."""
        raise GmError.one("amend.unknown", file=source, field="action", value=action.get("action"),
                          allowed=", ".join(self.amend_actions()) or "-")


def check_amend(ruleset: RulesetBase[Any, Any], action: dict[str, Any], source: str) -> dict[str, Any]:
    """An amendment record with its action known and its arguments converted; GmError if not."""
    actions = ruleset.amend_actions()
    name = action.get("action")
    if name not in actions:
        raise GmError.one("amend.unknown", file=source, field="action", value=name,
                          allowed=", ".join(actions) or "-")
    args = action.get("args") or []
    if not isinstance(args, list):
        raise GmError.one("amend.bad_file", file=source, field="args")
    return {**action, "args": convert_amend_args(name, actions[name], args, source)}


_EXTRA: dict[str, RulesetBase[Any, Any]] = {}


def register(ruleset: RulesetBase[Any, Any]) -> None:
    """Make a ruleset that lives outside ``gm_tool.rulesets`` known by its name (tests, plugins
    loaded by a program). Nothing a campaign folder holds can call this."""
    _EXTRA[ruleset.name] = ruleset


def available() -> list[str]:
    import gm_tool.rulesets as pkg

    return sorted({m.name for m in pkgutil.iter_modules(pkg.__path__) if m.ispkg} | set(_EXTRA))


def get(name: str) -> RulesetBase[Any, Any]:
    if isinstance(name, str) and name in _EXTRA:
        return _EXTRA[name]
    if not isinstance(name, str) or name not in available():
        raise GmError.one("ruleset.unknown", field="ruleset", exit_code=USAGE, name=name,
                          allowed=", ".join(available()))
    module = importlib.import_module(f"gm_tool.rulesets.{name}")
    ruleset: RulesetBase[Any, Any] = module.RULESET
    return ruleset

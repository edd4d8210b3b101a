"""The road from a turn to the forum, owned by the core: every ruleset's posts go through here.

For each audience (the public thread, then each player) the core takes the ruleset's content
for that post (:meth:`RulesetBase.post`, or :meth:`RulesetBase.opening_post` for turn 0) as
plain data, a :class:`Post`, and renders it in every format and BBCode dialect of the
campaign's forum. The ruleset never builds markup, never applies a display name and never
names a file:

- the template (the ruleset's ``templates/``, overridable by a campaign's own) gets ``m`` (the
  markup), ``L`` (the ruleset's labels in the post's language), ``story`` (the events this reader
  may know, told section by section; each section's ``block`` is its lines as list items),
  ``name(player)`` (a display name, escaped), ``display(player)`` (the same unescaped, for the
  cells of ``m.table``, which escapes them), ``picture`` (the post's picture, linked through the
  forum's image address when one is set), ``reader`` (the reader's display name, None for the
  public post), ``turn``, ``lang``, ``over`` and ``winner`` (the outcome in words), plus the
  ruleset's own ``context``;
- after the template's text the core adds what every game's post carries the same way: the
  pre-filled sheet of a player who is due (a code block under one heading), and in the public
  opening post the seed commitment and the rules switches in force;
- pictures are named here: ``map-public.png`` for the public post, ``map-<player>-<token>.png``
  for a player's, where the token comes from the campaign's secret (another player cannot guess
  the address of a private map from their own), and ``gm-map.png`` for the GM's.

Events are told by the ruleset's narration (its ``data/messages.yaml``) through its teller
class; player ids become display names and unit ids the labels the ruleset gives
(:meth:`RulesetBase.unit_labels`). A public post tells public events only; a player's post
the events that player may know.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm_tool.core.chance import commitment
from gm_tool.core.render import Forum, current_forum, display_name, environment, markups, use_forum
from gm_tool.i18n import message

if TYPE_CHECKING:
    from gm_tool.core.ruleset import RulesetBase

State = dict[str, Any]
Event = dict[str, Any]
PUBLIC = "public"
GM_PICTURE = "gm-map.png"
PUBLIC_PICTURE = "map-public.png"


@dataclass
class Posts:
    """A turn's rendered posts: ``texts[audience][format]`` (audience ``"public"`` or a player,
    format ``"bbcode"`` or ``"md"``) and extra files such as pictures (``{name: bytes}``)."""

    texts: dict[str, dict[str, str]] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass
class Post:
    """One post's content, as a ruleset hands it to the core: plain data, no markup.

    ``template``: a file of the ruleset's ``templates/``; ``context``: what that template reads
    besides the core's own names (see the module docstring); ``picture``: the post's PNG (bytes,
    or a function drawing it); ``sheet``: the pre-filled order sheet of a player who is due;
    ``story_options``: extra arguments for the ruleset's :meth:`~RulesetBase.tell`."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)
    picture: bytes | Callable[[], bytes] | None = None
    sheet: str | None = None
    story_options: dict[str, Any] = field(default_factory=dict)


@dataclass
class PostTurn:
    """What the posts of one turn are made from. ``opening``: turn 0 (``before`` is ``after``,
    ``events`` the public and private events of setting up). ``shared`` is scratch space a ruleset
    may fill once per turn and read from every reader's post (a painter, a converted state)."""

    n: int
    before: State
    after: State
    events: list[Event]
    lang: str
    opening: bool = False
    shared: dict[str, Any] = field(default_factory=dict)
    _cut: Any = None

    def cut(self, ruleset: RulesetBase) -> Any:
        """The GM's full log cut into sections once per turn (each post keeps what its reader may know)."""
        if self._cut is None:
            self._cut = ruleset.narration().sections(self.events)
        return self._cut


def picture_name(secret: str, n: int, reader: str | None) -> str:
    """The file of a post's picture: public, or a player's with a token from the secret that no
    other player can derive from their own file name; stable across replays (``gm verify``)."""
    if reader is None:
        return PUBLIC_PICTURE
    token = hmac.new(secret.encode("utf-8"), f"picture\x00{n}\x00{reader}".encode(), hashlib.sha256).hexdigest()[:12]
    return f"map-{reader}-{token}.png"


def turn_posts(ruleset: RulesetBase, before: State, after: State, events: list[Event], lang: str, *,
               templates_dir: Path | None = None, secret: str = "", forum: Forum | None = None) -> Posts:
    """Every post of one resolved turn, in every format, with its pictures."""
    turn = PostTurn(ruleset.turn(after), before, after, events, lang)
    return _render(ruleset, turn, ruleset.post, templates_dir, secret, forum)


def opening_posts(ruleset: RulesetBase, state: State, lang: str, *, events: list[Event] | None = None,
                  templates_dir: Path | None = None, secret: str = "", forum: Forum | None = None) -> Posts | None:
    """The posts of turn 0 (None: the ruleset has none)."""
    if not _gives(ruleset, "opening_post"):
        return None
    turn = PostTurn(0, state, state, list(events or ()), lang, opening=True)
    posts = _render(ruleset, turn, ruleset.opening_post, templates_dir, secret, forum)
    return posts if posts.texts else None


def _gives(ruleset: RulesetBase, hook: str) -> bool:
    """True when a ruleset's own class (not the core's base) defines ``hook``."""
    return any(hook in vars(c) for c in type(ruleset).__mro__ if c.__module__ != "gm_tool.core.ruleset")


def render_posts(ruleset: RulesetBase, turn: PostTurn, content: Callable[[PostTurn, str | None], Post | None], *,
                 templates_dir: Path | None = None, secret: str = "", forum: Forum | None = None) -> Posts:
    """Posts outside a turn's (a GM edit's handover to a replacement player): ``content(turn,
    reader)`` for each reader (None: no post), rendered as a turn's are (without the GM's map)."""
    posts = _render(ruleset, turn, content, templates_dir, secret, forum)
    posts.files.pop(GM_PICTURE, None)
    return posts


def _render(ruleset: RulesetBase, turn: PostTurn, content: Callable[[PostTurn, str | None], Post | None],
            templates_dir: Path | None, secret: str, forum: Forum | None) -> Posts:
    env = None  # made for the first post there is (a ruleset with no opening posts needs none)
    out = Posts()
    with use_forum(forum or current_forum()):
        players = ruleset.players(turn.after)
        outcome = ruleset.outcome(turn.after)
        labels = ruleset.labels(turn.lang)
        common = {"L": labels, "lang": turn.lang, "turn": turn.n, "over": outcome.over,
                  "winner": ruleset.winner_words(outcome, turn.lang) if outcome.over else None}
        for reader in [None, *players]:
            post = content(turn, reader)
            if post is None:
                continue
            picture = None
            if post.picture is not None:
                picture = picture_name(secret, turn.n, reader)
                out.files[picture] = post.picture() if callable(post.picture) else post.picture
            view = ruleset.view(turn.after, reader)
            names = {**ruleset.unit_labels(view, turn.lang), **{p: display_name(p) for p in players}}
            texts: dict[str, str] = {}
            if env is None:
                assert ruleset.package_dir is not None, f"ruleset {ruleset.name} sets no package_dir"
                env = environment(Path(ruleset.package_dir) / "templates", templates_dir)
            template = env.get_template(post.template)
            for fmt, m in markups().items():
                teller = ruleset.teller(names, turn.lang, m)
                story = [{**s, "block": "\n".join(m.item(line) for line in s["lines"])}
                         for s in ruleset.tell(turn, reader, teller, **post.story_options)]
                context = {**post.context, **common, "m": m, "story": story, "reader": display_name(reader) if reader else None,
                           "name": lambda p, m=m: m.esc(display_name(p)), "display": display_name,
                           "picture": m.picture(picture, message("posts.attach", turn.lang, file=picture)) if picture else ""}
                body = template.render(**context)
                body += _core_parts(ruleset, turn, reader, post, m, labels, secret)
                texts[fmt] = re.sub(r"\n{3,}", "\n\n", body).strip() + "\n"
            out.texts[PUBLIC if reader is None else reader] = texts
        gm = ruleset.gm_picture(turn)
        if gm is not None:
            out.files[GM_PICTURE] = gm() if callable(gm) else gm
    return out


def _core_parts(ruleset: RulesetBase, turn: PostTurn, reader: str | None, post: Post, m: Any,
                labels: dict[str, Any], secret: str) -> str:
    """What the core adds after a template's text: the opening's commitment and rules (public),
    the pre-filled sheet (a player who is due)."""
    parts = [""]
    if turn.opening and reader is None:
        parts.append(m.b(message("posts.commitment", turn.lang)) + " " + m.esc("sha256: " + commitment(secret)))
        switches = ruleset.switches
        if switches:
            from gm_tool.core.rules import rows

            head = [message(f"posts.rules_{k}", turn.lang) for k in ("name", "value", "reading", "line")]
            parts.append(m.h(message("posts.rules", turn.lang), 3) + "\n\n"
                         + m.table(head, rows(switches, turn.after.get("rules") or {}, labels, turn.lang)))
    if post.sheet:
        heading = message("posts.sheet", turn.lang, n=ruleset.turn(turn.after) + 1)
        parts.append(m.h(heading, 3) + "\n\n" + m.code(sheet_text(m, post.sheet)))
    return "\n\n".join(parts) + "\n" if len(parts) > 1 else ""


def sheet_text(m: Any, sheet: str) -> str:
    """A sheet shown in a code block: in BBCode, names in its comment lines open no tag (a
    zero-width space after ``[``); the YAML lines are left as they are, so the sheet pastes as is."""
    if m.name != "bbcode":
        return sheet
    return "\n".join(line.replace("[", "[\u200b") if line.lstrip().startswith("#") else line for line in sheet.split("\n"))

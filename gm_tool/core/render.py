"""Rendering forum posts: one Jinja template per post, written once for every format.

A template calls the markup object ``m`` (``m.b(text)``, ``m.table(rows)``, ``m.code(text)``...)
and the active :class:`Markup` turns that into BBCode or Markdown. Every piece of text that
comes from users (names, ids) passes ``m.esc`` (applied by the helpers), so a name holding
BBCode, Markdown or HTML can neither break nor inject markup. HTML previews are rendered from
the Markdown by markdown-it-py with raw HTML disabled.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm_tool.i18n import register

register({
    "render.template_unsafe": {"zh": "模板做了沙箱不允许的事（可能是恶意代码），已拒绝渲染：{problem}",
                               "en": "the template does something the sandbox refuses (possibly hostile code); not rendered: {problem}"},
    "render.template_syntax": {"zh": "模板语法错误：{problem}", "en": "template syntax error: {problem}"},
    "render.template_recursion": {"zh": "模板递归过深：{problem}", "en": "the template recurses too deeply: {problem}"},
    "render.template_memory": {"zh": "模板生成的内容过大：{problem}", "en": "the template builds too much text: {problem}"},
    "render.template_slow": {"zh": "战役自带的模板运行过久，已停止（可能是恶意的循环）：{problem}",
                             "en": "the campaign's own template ran too long and was stopped (a hostile loop?): {problem}"},
    "render.template_budget": {"zh": "战役自带的模板用完了本命令的时间或内存预算（所有帖子合计），已停止（可能是恶意模板）：{problem}",
                               "en": "the campaign's own templates used up this command's time or memory budget (all posts together) and were stopped (hostile templates?): {problem}"},
    "render.template_failed": {"zh": "战役自带的模板渲染失败：{problem}",
                               "en": "the campaign's own template failed: {problem}"},
    "render.template_link": {"zh": "战役模板必须是 templates/ 里的普通文件，不能是链接或其他类型；请删除它或换成普通文件",
                             "en": "a campaign template must be a regular file inside templates/, not a link or anything else; remove it or replace it with a plain file"},
    "render.template_big": {"zh": "战役模板过大，上限 {limit} 字节", "en": "the campaign template is too large; the limit is {limit} bytes"},
    "render.forum_key": {"zh": "未知的论坛设置 {key!r}；可用：{allowed}", "en": "unknown forum setting {key!r}; allowed: {allowed}"},
    "render.forum_dialect": {"zh": "未知的 BBCode 方言 {value!r}；可用：{allowed}", "en": "unknown BBCode dialect {value!r}; allowed: {allowed}"},
    "render.forum_image_url": {"zh": "image_url 必须是以 http:// 或 https:// 开头、含 {{file}} 的网址（可含 {{turn}}），而不是 {value!r}",
                               "en": "image_url must be an http:// or https:// address holding {{file}} (and optionally {{turn}}), not {value!r}"},
    "render.forum_name": {"zh": "玩家 {player!r} 的显示名必须是 1-{limit} 个字符的单行文字", "en": "the display name of player {player!r} must be one line of 1-{limit} characters"},
    "render.forum_names": {"zh": "names 必须是 玩家: 显示名 的映射", "en": "names must map players to display names"},
})

@dataclass(frozen=True)
class Forum:
    """How a campaign's posts are rendered for its forum (campaign.yaml ``forum:``):

    - ``dialect``: the BBCode flavour of the ``.bbcode`` posts: ``discuz`` (the default), ``phpbb``
      (no ``[size=4]``, no ``[table]``) or ``nga`` (``[size=150%]``, ``[collapse]``);
    - ``image_url``: where the GM uploads the pictures, e.g. ``https://host/path/{turn}/{file}``
      (``turn`` is ``turn-001``); posts then link every picture there. Without it a post links the
      bare file name and says which file to attach;
    - ``names``: ``{player id: display name}``, free text (``Red.Fan``, ``月下 独酌``, ``★Lan★``) shown in posts
      where the player id would be. Ids stay safe file names.

    Game-neutral: a ruleset's templates call ``m.picture(file, note)`` and
    :func:`display_name`; the app sets the forum around rendering with :func:`use_forum`."""

    dialect: str = "discuz"
    image_url: str | None = None
    names: tuple[tuple[str, str], ...] = ()
    turn: str = ""

    def image(self, file: str) -> str | None:
        """The uploaded address of a picture file, or None without ``image_url``."""
        if not self.image_url or "/" in file or ":" in file:
            return None
        return self.image_url.replace("{turn}", self.turn).replace("{file}", file)


DIALECTS = ("discuz", "phpbb", "nga")
FORUM_KEYS = ("dialect", "image_url", "names")
MAX_DISPLAY_NAME = 64
_FORUM: ContextVar[Forum] = ContextVar("gm_forum", default=Forum())  # noqa: B039 (Forum is frozen)


def check_forum(settings: Any, source: str = "campaign.yaml", turn: str = "") -> Forum:
    """The ``forum:`` settings of a campaign, checked (GmError naming the field at fault)."""
    from gm_tool.errors import GmError

    if settings is None:
        return Forum(turn=turn)
    if not isinstance(settings, dict):
        raise GmError.one("render.forum_key", file=source, field="forum", key=settings, allowed=", ".join(FORUM_KEYS))
    for key in settings:
        if key not in FORUM_KEYS:
            raise GmError.one("render.forum_key", file=source, field=f"forum.{key}", key=key, allowed=", ".join(FORUM_KEYS))
    dialect = settings.get("dialect", "discuz")
    if dialect not in DIALECTS:
        raise GmError.one("render.forum_dialect", file=source, field="forum.dialect", value=dialect,
                          allowed=", ".join(DIALECTS))
    url = settings.get("image_url")
    if url is not None and not (isinstance(url, str) and re.match(r"https?://[^\s]+$", url) and "{file}" in url
                                and not re.search(r"\{(?!file\}|turn\})", url)):
        raise GmError.one("render.forum_image_url", file=source, field="forum.image_url", value=url)
    names = settings.get("names") or {}
    if not isinstance(names, dict):
        raise GmError.one("render.forum_names", file=source, field="forum.names")
    for player, name in names.items():
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_DISPLAY_NAME or "\n" in name \
                or "\r" in name:
            raise GmError.one("render.forum_name", file=source, field=f"forum.names.{player}", player=player,
                              limit=MAX_DISPLAY_NAME)
    return Forum(dialect, url, tuple(sorted((str(k), v) for k, v in names.items())), turn)


@contextmanager
def use_forum(forum: Forum) -> Iterator[Forum]:
    """Render with ``forum``'s dialect, picture addresses and display names inside the block."""
    token = _FORUM.set(forum)
    try:
        yield forum
    finally:
        _FORUM.reset(token)


def current_forum() -> Forum:
    return _FORUM.get()


def display_name(player: str) -> str:
    """A player's display name on the forum (the id when none is set)."""
    return dict(current_forum().names).get(player, player)


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

    def picture(self, file: str, note: str = "") -> str:
        """A picture of the post: linked where the GM uploads it (the forum's ``image_url``), else
        the bare file name and ``note`` (which file to attach), escaped."""
        url = current_forum().image(file)
        if url is not None:
            return self.img(url)
        return self.img(file) + ("\n\n" + self.esc(note) if note else "")

    def collapse(self, title: Any, body: str) -> str:
        """A long part of a post (a fight log) folded where the dialect can; as it is elsewhere."""
        return body


class BBCode(Markup):
    """Discuz BBCode (the default dialect). A ``[`` in user text gets a zero-width space so it
    opens no tag."""

    name = "bbcode"
    dialect = "discuz"
    TAGS: tuple[str, ...] = ("b", "i", "u", "size", "color", "code", "img", "url", "table", "tr", "td", "list", "*", "quote")

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


class PhpBB(BBCode):
    """phpBB 3 BBCode: ``[size]`` is a percentage and there is no ``[table]`` (a table becomes a
    bold header line and a list)."""

    name = "bbcode"
    dialect = "phpbb"
    TAGS = ("b", "i", "u", "size", "color", "code", "img", "url", "list", "*", "quote")

    def h(self, text: Any, level: int = 2) -> str:
        return f"[size={200 - 30 * level}][b]{self.esc(text)}[/b][/size]"

    def table(self, header: list[Any], rows: list[list[Any]]) -> str:
        head = "[b]" + " | ".join(self.esc(c) for c in header) + "[/b]"
        body = "".join(f"[*]{' | '.join(self.esc(c) for c in r)}\n" for r in rows)
        return head + ("\n[list]\n" + body + "[/list]" if rows else "")


class Nga(BBCode):
    """NGA BBCode: ``[size=N%]``, its own ``[table]`` (rows ``[tr]``, cells ``[td]``) and
    ``[collapse=title]`` for long parts."""

    name = "bbcode"
    dialect = "nga"
    TAGS = ("b", "i", "u", "size", "color", "code", "img", "url", "table", "tr", "td", "collapse", "quote", "list", "*")

    def h(self, text: Any, level: int = 2) -> str:
        return f"[size={200 - 30 * level}%][b]{self.esc(text)}[/b][/size]"

    def collapse(self, title: Any, body: str) -> str:
        return f"[collapse={self.esc(title).replace(']', '')}]\n{body}\n[/collapse]"


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
BBCODE_DIALECTS: dict[str, BBCode] = {"discuz": MARKUPS["bbcode"], "phpbb": PhpBB(), "nga": Nga()}  # type: ignore[dict-item]


def markups() -> dict[str, Markup]:
    """The markups a post is rendered in, for the current forum: its BBCode dialect and Markdown."""
    dialect = current_forum().dialect
    if dialect == "discuz":
        return MARKUPS
    return {"bbcode": BBCODE_DIALECTS[dialect], "md": MARKUPS["md"]}

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


MAX_TEMPLATE_BYTES = 256 * 1024  # a campaign's own template (the bundled ones are ~3 KB)
MAX_TEMPLATE_TEXT = 4_000_000     # the longest string or list a template may build with * or **


@functools.lru_cache(maxsize=32)
def environment(package_dir: Path, override_dir: Path | None = None):
    """A Jinja environment reading templates from ``override_dir`` first (a campaign's own
    ``templates/``), then the ruleset's bundled templates. Built once per process and folder
    pair: templates are compiled once, not per post.

    A campaign folder may come from a stranger (a player runs ``gm verify`` on the folder the GM
    published), so with an ``override_dir`` every template runs in Jinja's immutable sandbox: no
    ``__`` attributes (the ``cycler.__init__.__globals__`` family), no mutating methods, no unsafe
    format strings, at most 100,000 steps per ``range``, ``*``/``**`` bounded
    (:data:`MAX_TEMPLATE_TEXT`), no ``lipsum``, :data:`MAX_RENDER_SECONDS` per post. A
    campaign template must be a regular file (no link) of at most :data:`MAX_TEMPLATE_BYTES`.
    Whatever the sandbox refuses, and any failure of a campaign template, is a :class:`GmError`
    naming the template file (``render.template_*`` messages), never code run or a traceback."""
    import jinja2

    options: dict[str, Any] = dict(autoescape=False, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                                   undefined=jinja2.StrictUndefined)
    if override_dir is None:  # the bundled templates only: ours, trusted, rendered at full speed
        try:  # compiled templates kept across runs (a private per-user temp folder, keyed by source)
            cache = jinja2.FileSystemBytecodeCache()
        except (OSError, RuntimeError):
            cache = None
        return jinja2.Environment(loader=jinja2.FileSystemLoader([str(package_dir)]), bytecode_cache=cache, **options)
    env_class, loader_class = _sandbox_classes()
    # no bytecode cache: a campaign's templates are compiled afresh, within the render limits
    # (compiling folds constants), and nothing compiled elsewhere is ever loaded here
    env = env_class(loader=loader_class([str(override_dir), str(package_dir)]), **options)
    env.campaign_dir = str(override_dir)
    env.globals.pop("lipsum", None)  # lipsum(10**8) would fill the memory; no post needs it
    return env


MAX_RENDER_SECONDS = 60.0  # per post from a campaign's templates; the bundled ones take milliseconds


MAX_RENDER_MEMORY = 256 << 20  # more address space a campaign template may take while it renders


@contextlib.contextmanager
def _memory_limit(extra: int):
    """While the block runs, the process may grow by at most ``extra`` bytes of address space
    (RLIMIT_AS, restored after): a template building a gigabyte string gets a MemoryError
    instead of the machine swapping. Linux only (the size is read from /proc); else no limit."""
    try:
        import resource

        with open("/proc/self/statm", "rb") as fh:
            size = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError, IndexError):
        yield
        return
    limit = size + extra
    if (soft != resource.RLIM_INFINITY and soft <= limit) or (hard != resource.RLIM_INFINITY and hard < limit):
        yield
        return
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


class RenderTimeout(Exception):
    """A campaign template ran past :data:`MAX_RENDER_SECONDS`."""


class RenderBudget(RenderTimeout):
    """A command's campaign templates used up its :func:`run_budget`."""


MAX_RUN_SECONDS = 60.0  # all the campaign-template work of one command (a whole `gm verify` included)
MAX_RUN_MEMORY = 256 << 20  # the address space one command's campaign templates may keep, all together


@dataclass
class _Budget:
    seconds: float
    memory: int
    spent: float = 0.0
    kept: int = 0


_BUDGET: ContextVar[_Budget | None] = ContextVar("gm_render_budget", default=None)


@contextlib.contextmanager
def run_budget(seconds: float | None = None, memory: int | None = None) -> Iterator[None]:
    """One time and memory budget for every campaign template rendered or compiled in the block
    (a command: `gm verify` renders every post of every turn). Without it each post had its own
    :data:`MAX_RENDER_SECONDS` and :data:`MAX_RENDER_MEMORY`: a template just under the limit
    made an 11-turn verify take 22 minutes, and templates keeping what they built (constants a
    compile folds) reached 1.26 GB. Within the block the seconds spent and the address space
    kept add up, to :data:`MAX_RUN_SECONDS` and :data:`MAX_RUN_MEMORY`. Inside another block
    (a command finishing what a killed one left, then doing its own work) without ``seconds``
    or ``memory``, the block shares the outer budget."""
    outer = _BUDGET.get()
    if outer is not None and seconds is None and memory is None:
        yield
        return
    token = _BUDGET.set(_Budget(MAX_RUN_SECONDS if seconds is None else seconds,
                                MAX_RUN_MEMORY if memory is None else memory))
    try:
        yield
    finally:
        _BUDGET.reset(token)


def _process_size() -> int | None:
    """The process's address space in bytes (Linux), or None."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def _limits() -> Iterator[None]:
    """The limits of one render or compile of a campaign template: :data:`MAX_RENDER_SECONDS`
    and :data:`MAX_RENDER_MEMORY`, and no more than what is left of the run's budget."""
    import time

    budget = _BUDGET.get()
    seconds, memory = MAX_RENDER_SECONDS, MAX_RENDER_MEMORY
    if budget is not None:
        seconds, memory = min(seconds, budget.seconds - budget.spent), min(memory, budget.memory - budget.kept)
        if seconds <= 0 or memory <= 0:
            raise RenderBudget(f"the campaign's templates have used up this command's budget "
                               f"({budget.seconds:g} s, {budget.memory >> 20} MB)")
    start, before = time.monotonic(), _process_size()
    try:
        over = None if budget is None or seconds >= MAX_RENDER_SECONDS else \
            f"the campaign's templates used up this command's time ({budget.seconds:g} s for all posts together)"
        with _time_limit(seconds, over), _memory_limit(memory):
            yield
    finally:
        if budget is not None:
            budget.spent += time.monotonic() - start
            after = _process_size()
            if before is not None and after is not None:
                budget.kept += max(0, after - before)


@contextlib.contextmanager
def _time_limit(seconds: float, budget: str | None = None):
    """Raise :class:`RenderTimeout` in the block after ``seconds`` (:class:`RenderBudget`, saying
    ``budget``, when they are what is left of the run's budget; SIGALRM: only in the main thread
    and when nobody else uses the alarm, else no limit)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer") \
            or signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN, None) \
            or signal.getitimer(signal.ITIMER_REAL)[0]:
        yield
        return

    def stop(*_: Any) -> None:
        if budget is not None:
            raise RenderBudget(budget)
        raise RenderTimeout(f"still running after {seconds:g} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def overridden_templates(override_dir: Path | None) -> list[str]:
    """The template files a campaign's ``templates/`` folder holds (what replaces the bundled
    posts), sorted; ``gm verify`` names them."""
    if override_dir is None or not Path(override_dir).is_dir():
        return []
    return sorted(p.name for p in Path(override_dir).iterdir() if not p.name.startswith("."))


@functools.lru_cache(maxsize=1)
def _sandbox_classes():
    import jinja2
    from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError

    from gm_tool.errors import GmError

    def refused(env, name: str | None, exc: BaseException) -> GmError:
        if isinstance(exc, GmError):
            return exc
        if isinstance(exc, SecurityError):
            code = "render.template_unsafe"
        elif isinstance(exc, jinja2.TemplateSyntaxError):
            code = "render.template_syntax"
        elif isinstance(exc, RecursionError):
            code = "render.template_recursion"
        elif isinstance(exc, MemoryError):
            code = "render.template_memory"
        elif isinstance(exc, RenderBudget):
            code = "render.template_budget"
        elif isinstance(exc, RenderTimeout):
            code = "render.template_slow"
        else:
            code = "render.template_failed"
        line = getattr(exc, "lineno", None)
        problem = f"{type(exc).__name__}: {exc}"[:300]
        return GmError.one(code, file=name, problem=problem + (f" (line {line})" if line else ""))

    def in_campaign(env, filename: str | None) -> bool:
        return bool(env.campaign_dir and filename and str(filename).startswith(os.path.join(env.campaign_dir, "")))

    class Template(jinja2.Template):
        def render(self, *args, **kwargs):  # type: ignore[override]
            try:
                if getattr(self.environment, "campaign_dir", None) is None:
                    return super().render(*args, **kwargs)
                # a loop of loops would hang gm verify; "{:999999999}" would fill the memory
                with _limits():
                    return super().render(*args, **kwargs)
            except Exception as exc:  # a bundled template failing is a bug: let it through
                if not in_campaign(self.environment, self.filename) and not isinstance(exc, SecurityError):
                    raise
                raise refused(self.environment, self.filename, exc) from None

    class Sandbox(ImmutableSandboxedEnvironment):
        template_class = Template
        campaign_dir: str = ""  # the campaign's templates/ folder (set by environment())
        intercepted_binops = frozenset({"*", "**"})

        def call_binop(self, context, operator, left, right):
            if operator == "**" and isinstance(right, (int, float)) and abs(right) > 64 \
                    and isinstance(left, (int, float)) and abs(left) > 1:
                raise SecurityError(f"{left!r} ** {right!r} is too big")
            if operator == "*":
                for seq, times in ((left, right), (right, left)):
                    if isinstance(seq, (str, bytes, list, tuple)) and isinstance(times, int) \
                            and len(seq) * times > MAX_TEMPLATE_TEXT:
                        raise SecurityError(f"a sequence of {len(seq)} * {times} is longer than {MAX_TEMPLATE_TEXT}")
            return super().call_binop(context, operator, left, right)

        def get_template(self, name, parent=None, globals=None):  # type: ignore[override]
            try:  # compiling folds constants ("x" | center(10**9)): bounded like rendering
                with _limits():
                    return super().get_template(name, parent, globals)
            except jinja2.TemplateNotFound:
                raise
            except Exception as exc:  # a campaign template that does not compile, or a link...
                filename = getattr(exc, "filename", None)
                if filename is None and isinstance(name, str) and os.path.lexists(os.path.join(self.campaign_dir, name)):
                    filename = os.path.join(self.campaign_dir, name)
                if not isinstance(exc, GmError) and not in_campaign(self, filename):
                    raise
                raise refused(self, filename, exc) from None

    class Loader(jinja2.FileSystemLoader):
        """Templates of the campaign folder: regular files only (a link could reach any file of
        the reader's), bounded in size, UTF-8."""

        def get_source(self, environment, template):
            from jinja2.loaders import split_template_path

            pieces = split_template_path(template)  # TemplateNotFound for "..", like the loader
            for folder in self.searchpath[:-1]:  # the campaign folder (the last is the bundled one)
                path = Path(folder).joinpath(*pieces)
                if not os.path.lexists(path):
                    continue
                real = os.path.realpath(path)
                if Path(folder).is_symlink() or real != os.path.join(os.path.realpath(folder), *pieces):
                    raise GmError.one("render.template_link", file=str(path))
                if not path.is_file():
                    raise GmError.one("render.template_link", file=str(path))
                if path.stat().st_size > MAX_TEMPLATE_BYTES:
                    raise GmError.one("render.template_big", file=str(path), limit=MAX_TEMPLATE_BYTES)
                try:
                    path.read_bytes().decode("utf-8")
                except UnicodeDecodeError:
                    raise GmError.one("file.encoding", file=str(path)) from None
            return super().get_source(environment, template)

    return Sandbox, Loader


def render_all(env: Any, template: Any, context: dict[str, Any],
               per_format: Any = None) -> dict[str, str]:
    """Render a post once per format: ``{"bbcode": ..., "md": ...}``. ``template`` is a name in
    ``env`` or a loaded template; ``per_format(fmt, markup)`` adds what differs by format (a
    story told with that format's markup). Runs of blank lines are folded, one final newline."""
    tpl = env.get_template(template) if isinstance(template, str) else template
    out = {}
    for name, markup in markups().items():
        extra = per_format(name, markup) if per_format is not None else {}
        text = tpl.render(m=markup, **context, **extra)
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

"""What each page of the desk shows, as plain data, from the functions the CLI calls
(:mod:`gm_tool.app`) under the same campaign lock: the turn board (`gm status`), intake
(`gm import`, `gm check`, `gm submit`), the preview (`gm preview`), a turn's posts (`gm report`)
with their sent marks, and the GM's tools (`gm amend`, `gm rollback`, `gm dice`, `gm verify`).

Nothing here knows a game: a ruleset is read only through the members every ruleset declares
(``players``, ``due``, ``amend_actions``, ``uses_dice_file``, ``import_message``). Files are read
only inside the campaign folder, never through a link (:func:`inside`)."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

from gm_tool import app as ops
from gm_tool.core import ruleset as rulesets
from gm_tool.core import safeyaml
from gm_tool.core.render import check_forum
from gm_tool.core.store import safe_name, turn_name
from gm_tool.desk import sent as marks
from gm_tool.errors import GmError, Problem
from gm_tool.i18n import message

TEXT_FORMATS = {"bbcode": "bbcode", "md": "md"}  # format shown -> file extension
MEDIA = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp"}
MAX_READ = 4 << 20  # a post or sheet the desk shows (posts are a few KB)


# reading inside the campaign ---------------------------------------------------------------
def inside(root: Path, path: Path) -> bool:
    """True if ``path`` is a regular file of the campaign ``root`` reached through no link."""
    try:
        rel = Path(path).relative_to(root)
    except ValueError:
        return False
    here = Path(root)
    for part in rel.parts:
        if part in ("", ".", ".."):
            return False
        here = here / part
        try:
            mode = os.lstat(here).st_mode
        except OSError:
            return False
        if stat.S_ISLNK(mode):
            return False
    return stat.S_ISREG(mode)


def read_inside(root: Path, path: Path) -> str | None:
    """The text of a campaign file (None if it is not one, or not UTF-8 text)."""
    if not inside(root, path):
        return None
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_READ)
        return raw.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def listing(root: Path, folder: Path) -> list[str]:
    """The regular files directly inside a campaign folder (no link, no dot-file), sorted."""
    try:
        rel = folder.relative_to(root)
    except ValueError:
        return []
    here = Path(root)
    for part in rel.parts:
        here = here / part
        try:
            if not stat.S_ISDIR(os.lstat(here).st_mode):
                return []
        except OSError:
            return []
    try:
        return sorted(e.name for e in os.scandir(folder) if not e.name.startswith(".") and e.is_file(follow_symlinks=False))
    except OSError:
        return []


def relative(root: Path, text: str) -> str:
    """``text`` with the campaign's own path taken out (campaign files are named from its folder)."""
    return text.replace(str(root) + os.sep, "")


# the campaign in the header -------------------------------------------------------------------
def header(root: Path) -> dict[str, Any]:
    op = ops.open_campaign(root)
    return {"name": root.name, "ruleset": op.ruleset.name, "scenario": op.meta.get("scenario"),
            "turn": op.campaign.latest(), "uses_dice": op.ruleset.uses_dice_file}


def display_names(op: ops.Open) -> dict[str, str]:
    """The players' display names on the forum (campaign.yaml ``forum.names``)."""
    try:
        return dict(check_forum(op.meta.get("forum"), str(op.campaign.meta_path)).names)
    except GmError:
        return {}


def _problem(p: Problem, lang: str, root: Path, label: str | None = None, paths: tuple[str, ...] = ()) -> dict[str, Any]:
    """A problem for a page: its line, its field (in the sheet's words) and what is wrong."""
    where = p.file or ""
    for path in paths:
        where = where.replace(path, label or "")
    where = relative(root, where).strip(" →")
    field = p.field
    if field and p.line is not None and re.fullmatch(rf"line {p.line}", field):
        field = None  # an imported line names itself by its number
    return {"file": where or None, "line": p.line, "field": field, "text": message(p.code, lang, **p.params)}


# the turn board ------------------------------------------------------------------------------
def board(root: Path, lang: str) -> dict[str, Any]:
    """The turn due, who is due, who sent a sheet and what its check says (every problem with
    its line), what a missing sheet will do, the edits and forum dice waiting for the turn."""
    op = ops.open_campaign(root)
    s = ops.status(root, lang)
    state = op.state(s["turn"])
    players = op.ruleset.players(state)
    files = op.campaign.order_files(s["next"])
    names = display_names(op)
    rows = []
    for player in players:
        path = files.get(player)
        problems = [relative(root, line) for line in s["invalid"].get(player, [])]
        if path is not None and player not in s["due"]:  # a standing sheet of a player not due
            try:
                ops.check_files(op, [path], lang, state)
            except GmError as exc:
                problems = [relative(root, p.render(lang)) for p in exc.problems]
        rows.append({"player": player, "shown": names.get(player), "due": player in s["due"],
                     "received": path is not None, "problems": problems, "default": s["defaults"].get(player),
                     "sheet": read_inside(root, path) if path is not None else None,
                     "sheet_path": str(path.relative_to(root)) if path is not None else None})
    latest = latest_posts(op)
    return {**s, "rows": rows, "players": players, "passes_kind": op.ruleset.missing_sheet == rulesets.PASS,
            "imports": imports(op.ruleset), "posts": latest}


def imports(ruleset: rulesets.RulesetBase) -> bool:
    """True if the ruleset reads players' messages written as its rule document's sample."""
    return type(ruleset).import_message is not rulesets.RulesetBase.import_message


def latest_posts(op: ops.Open) -> dict[str, Any] | None:
    """The latest turn with posts, and how many of its posts are marked sent."""
    n = op.campaign.latest()
    folder = op.campaign.reports_dir(n)
    names = [x for x in listing(op.campaign.root, folder) if x.endswith(".bbcode")]
    if not names:
        return None
    try:
        sent = marks.load(op.campaign.root).get(turn_name(n), {})
    except GmError:  # the posts page says what is wrong with the marks
        return {"turn": n, "posts": len(names), "sent": "?"}
    return {"turn": n, "posts": len(names), "sent": sum(1 for x in names if x[:-len(".bbcode")] in sent)}


# intake ------------------------------------------------------------------------------------
READINGS = ("auto", "message", "sheet")


def intake(root: Path, player: str, text: str, lang: str, store: bool = False, turn: int | None = None,
           reading: str = "auto") -> dict[str, Any]:
    """A player's pasted message (or YAML sheet) read as `gm import` (rulesets that import) or
    `gm check` would, with its reading and problems; with ``store``, a sheet without problems is
    stored as `gm submit` stores it (the imported sheet for a message). ``turn``: the turn the
    page was showing (a sheet is never stored for another). ``reading``: ``message`` or
    ``sheet``, or ``auto``: a text that reads as a YAML mapping is a sheet, anything else a
    message where the ruleset imports."""
    op = ops.open_campaign(root)
    state = op.state()
    players = op.ruleset.players(state)
    if player not in players or not safe_name(player):
        raise GmError.one("player.unknown", field="player", player=player, allowed=", ".join(players))
    n = op.campaign.latest() + 1
    if turn is not None and turn != n:
        raise GmError.one("desk.stale", field="turn", want=turn, turn=n)
    label = message("desk.pasted", lang, player=player)
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # a browser sends a text box's lines as CRLF
    with tempfile.TemporaryDirectory(prefix="gm-desk-") as tmp:
        pasted = Path(tmp) / f"{player}.txt"
        pasted.write_bytes(text.encode("utf-8"))
        as_message = imports(op.ruleset) and (reading == "message" or (reading != "sheet" and not _is_mapping(pasted)))
        result = _import(root, pasted, player, lang) if as_message else _check(op, pasted, player, text, lang)
        result["problems"] = [_problem(p, lang, root, label, (str(pasted),)) for p in result["problems"]]
        target = op.campaign.orders_dir(n) / f"{result.get('player') or player}.yaml"
        result["replaces"] = str(target.relative_to(root)) if target.is_file() else None
        result.update(player_box=player, turn=n, text=text, stored=None, reading=reading if reading in READINGS else "auto")
        if store and not result["problems"]:
            sheet = Path(tmp) / f"{result['player']}.yaml"
            sheet.write_bytes(result["yaml"].encode("utf-8"))
            done = ops.submit_sheet(root, sheet, lang)
            result["stored"] = {"path": str(Path(done["path"]).relative_to(root)), "replaced": done["replaced"],
                                "player": done["player"]}
    return result


def _import(root: Path, pasted: Path, player: str, lang: str) -> dict[str, Any]:
    """A message read as `gm import` reads it: each line with what it was understood as (also
    when the sheet it gives has problems), the sheet with that reading as comments."""
    try:
        got = ops.import_message(root, pasted, player, lang)
    except GmError as exc:
        return {"kind": "message", "lines": getattr(exc, "reading", None) or [], "yaml": None, "player": player,
                "problems": exc.problems}
    return {"kind": "message", "lines": got["lines"], "yaml": got["yaml"], "player": got["player"], "problems": []}


def _check(op: ops.Open, pasted: Path, player: str, text: str, lang: str) -> dict[str, Any]:
    """A YAML sheet checked as `gm check` checks it; another player's sheet is refused here."""
    try:
        (who, _), = ops.check_files(op, [pasted], lang).items()
    except GmError as exc:
        return {"kind": "sheet", "lines": [], "yaml": None, "player": player, "problems": exc.problems}
    problems = []
    if who != player:  # bob's sheet pasted in alice's box: stored as nobody's by mistake
        problems.append(Problem("desk.other_player", str(pasted), "player", {"player": who, "box": player}))
    return {"kind": "sheet", "lines": [], "yaml": text, "player": who, "problems": problems}


def _is_mapping(path: Path) -> bool:
    try:
        safeyaml.load_mapping(path)
    except GmError:
        return False
    return True


# posts -------------------------------------------------------------------------------------
def _order(stems: list[str], players: list[str]) -> list[str]:
    """Public first, then the players in their order, then anything else."""
    rank = {p: i for i, p in enumerate(players)}
    return sorted(stems, key=lambda s: (s != "public", rank.get(s, len(rank)), s))


def refers(text: str, name: str) -> bool:
    """True if a post's text refers to the file ``name`` (bare, in a link, or percent-encoded)."""
    for form in {name, quote(name, safe="._~:/?#@!$&'*+,;=%-")}:
        if re.search(rf"(?<![\w.%-]){re.escape(form)}(?![\w.%-])", text):
            return True
    return False


def _assemble(texts: dict[str, str], pictures: list[str], players: list[str], ext: str) -> dict[str, Any]:
    stems = _order([name[:-len(ext) - 1] for name in texts if name.endswith("." + ext)], players)
    posts = []
    used: set[str] = set()
    for stem in stems:
        text = texts[f"{stem}.{ext}"]
        shown = [p for p in pictures if refers(text, p)]
        used.update(shown)
        posts.append({"who": stem, "text": text, "pictures": shown,
                      "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()})
    return {"posts": posts, "uploads": [p for p in pictures if p in used],
            "gm_files": [p for p in pictures if p not in used]}


def turns_with_posts(op: ops.Open) -> list[int]:
    return [n for n in range(op.campaign.latest() + 1) if listing(op.campaign.root, op.campaign.reports_dir(n))]


def posts(root: Path, turn: int | None, fmt: str, lang: str) -> dict[str, Any]:
    """Every post of a turn (default: the latest with posts) in the campaign's dialect (or
    Markdown), the pictures each shows, the files to upload, and the sent marks (when the marks
    file cannot be read, ``marks_problem`` says why and the posts are shown unmarked)."""
    op = ops.open_campaign(root)
    ext = TEXT_FORMATS.get(fmt, "bbcode")
    turns = turns_with_posts(op)
    n = turn if turn is not None else (turns[-1] if turns else op.campaign.latest())
    if n not in turns:
        raise GmError.one("report.missing", field="turn", turn=n, name="public")
    folder = op.campaign.reports_dir(n)
    names = listing(root, folder)
    texts = {}
    for name in names:
        if name.endswith("." + ext):
            text = read_inside(root, folder / name)
            if text is not None:
                texts[name] = text
    pictures = [x for x in names if not x.endswith(tuple(f".{e}" for e in TEXT_FORMATS.values()))]
    out = _assemble(texts, pictures, op.ruleset.players(op.state(n)), ext)
    marks_problem = None
    try:
        sent = marks.load(root).get(turn_name(n), {})
    except GmError as exc:
        sent, marks_problem = {}, exc.render(lang)
    shown_names = display_names(op)
    for post in out["posts"]:
        mark = sent.get(post["who"])
        post["sent"] = mark
        post["changed"] = mark is not None and _changed(root, folder, post["who"], mark, ext, post["sha256"])
        post["shown"] = shown_names.get(post["who"])
    return {**out, "turn": n, "turns": turns, "fmt": ext, "marks_problem": marks_problem,
            "dialect": (op.meta.get("forum") or {}).get("dialect", "discuz"),
            "sent_count": sum(1 for p in out["posts"] if p["sent"])}


def _changed(root: Path, folder: Path, who: str, mark: dict[str, Any], shown: str, sha: str) -> bool:
    """True if the post marked sent has changed since (a rollback and a new resolve, new forum
    settings): the mark's sha256 is compared with the post in the format it was set on."""
    if mark.get("fmt") == shown:
        return mark.get("sha256") != sha
    ext = TEXT_FORMATS.get(str(mark.get("fmt")))
    text = read_inside(root, folder / f"{who}.{ext}") if ext else None
    return text is None or hashlib.sha256(text.encode("utf-8")).hexdigest() != mark.get("sha256")


def picture(root: Path, turn: int, name: str) -> Path | None:
    """A file of a turn's reports folder the desk may send (a regular file listed there, reached
    through no link), or None."""
    op = ops.open_campaign(root)
    folder = op.campaign.reports_dir(turn)
    if name not in listing(root, folder):
        return None
    path = folder / name
    return path if inside(root, path) else None


def mark_sent(root: Path, turn: int, who: str, fmt: str, sent: bool) -> None:
    """Set or clear the sent mark of one post (``desk/sent.json``)."""
    op = ops.open_campaign(root)
    ext = TEXT_FORMATS.get(fmt)
    folder = op.campaign.reports_dir(turn)
    if ext is None or f"{who}.{ext}" not in listing(root, folder):
        raise GmError.one("report.missing", field="who", turn=turn, name=who)
    text = read_inside(root, folder / f"{who}.{ext}")
    if text is None:
        raise GmError.one("report.missing", field="who", turn=turn, name=who)
    marks.mark(op.campaign, turn_name(turn), who, fmt, hashlib.sha256(text.encode("utf-8")).hexdigest(), sent)


# preview -----------------------------------------------------------------------------------
def preview(root: Path, fmt: str = "bbcode") -> dict[str, Any]:
    """The turn due resolved without saving (`gm preview`): every post, its pictures inline."""
    op = ops.open_campaign(root)
    result = ops.resolve(root, preview=True)
    n = result["turn"]
    prefix = f"reports/{turn_name(n)}/"
    files = {k[len(prefix):]: v for k, v in result["files"].items() if k.startswith(prefix)}
    ext = TEXT_FORMATS.get(fmt, "bbcode")
    texts = {k: v for k, v in files.items() if isinstance(v, str)}
    pictures = [k for k, v in files.items() if isinstance(v, bytes)]
    out = _assemble(texts, sorted(pictures), op.ruleset.players(op.state()), ext)
    inline = {k: data_uri(k, files[k]) for k in pictures}
    return {**out, "turn": n, "missing": result["missing"], "passed": result["passed"], "inline": inline,
            "fmt": fmt if fmt in TEXT_FORMATS else "bbcode"}


def data_uri(name: str, data: bytes) -> str | None:
    kind = MEDIA.get(Path(name).suffix.lower())
    return f"data:{kind};base64," + base64.b64encode(data).decode("ascii") if kind else None


def resolve(root: Path, turn: int) -> dict[str, Any]:
    """Resolve the turn due (`gm resolve`), only if it is still ``turn`` (the one previewed)."""
    result = ops.resolve(root, expect=turn)
    return {**result, "reports": [relative(root, r) for r in result["reports"]]}


# the GM's tools ----------------------------------------------------------------------------
def gm_tools(root: Path, lang: str) -> dict[str, Any]:
    """The ruleset's GM edits as forms (from ``amend_actions``), the edits waiting for the next
    turn, the turns a rollback may go back to, and the forum dice stored (rulesets that use them)."""
    op = ops.open_campaign(root)
    s = ops.status(root, lang)
    forms = []
    for action, spec in op.ruleset.amend_actions().items():
        forms.append({"action": action, "name": action.replace("_", "-"), "usage": spec.usage(),
                      "help": spec.help.get(lang) or spec.help.get("en") or "",
                      "args": [{"name": a.name, "int": a.kind == "int", "many": a.kind.endswith("..."),
                                "minimum": a.minimum} for a in spec.args]})
    return {"turn": s["turn"], "next": s["next"], "winner": s["winner"], "amendments": s["amendments"],
            "forms": forms, "rollback_to": list(range(s["turn"] - 1, -1, -1)),
            "uses_dice": op.ruleset.uses_dice_file, "dice": s.get("dice")}


def amend(root: Path, action: str, args: list[str], many: str | None, reason: str, lang: str,
          turn: int | None = None) -> dict[str, Any]:
    """A GM edit from its form (`gm amend`): ``args`` in order, ``many`` the words of a last
    "one or more" argument. ``turn``: the turn the page was showing."""
    op = ops.open_campaign(root)
    if turn is not None and turn != op.campaign.latest():
        raise GmError.one("desk.stale", field="turn", want=turn + 1, turn=op.campaign.latest() + 1)
    values = list(args) + (many.split() if many is not None else [])
    result = ops.amend(root, action, values, reason, lang)
    return {**result, "file": relative(root, result["file"]), "stale": [relative(root, x) for x in result["stale"]]}


def rollback(root: Path, to: int, shown: int | None) -> dict[str, Any]:
    """`gm rollback --to`, only if the latest turn is still ``shown`` (the one the page showed)."""
    latest = ops.open_campaign(root).campaign.latest()
    if shown is not None and shown != latest:
        raise GmError.one("desk.stale", field="from", want=shown + 1, turn=latest + 1)
    return ops.rollback(root, to)


def dice(root: Path, values: list[str], note: str, turn: int | None) -> dict[str, Any]:
    """`gm dice`: forum rolls for the turn due, only if it is still ``turn``."""
    due = ops.open_campaign(root).campaign.latest() + 1
    if turn is not None and turn != due:
        raise GmError.one("desk.stale", field="turn", want=turn, turn=due)
    return ops.store_dice(root, values, note)


def verify(root: Path) -> dict[str, Any]:
    """`gm verify`: every turn replayed and compared byte for byte."""
    return ops.verify(root)

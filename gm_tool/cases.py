"""Rule cases as data: a case file (YAML) holds cases in the manner of the Diplomacy
adjudicator test cases (DATC): each names the line of the rule document it checks, sets a game
up from a base scenario, plays a few steps from sheets, and says what `gm show --json` must then
hold. A GM adds a case without writing Python; one runner plays every ruleset's cases.

The format is described in docs/rule-cases.md. In short::

    ruleset: toy              # optional: the base scenario names it
    base: race.yaml           # a scenario file beside this one, or a bundled scenario's name
    seed: cases               # optional: the seed of every case (chance, setup)
    cases:
      - id: T2
        rule: 'toy rules: "a runner on your cell or the next one falls back two cells"'
        title: a trip sends the runner ahead two cells back
        scenario: {length: 10}          # merged over the base (mappings key by key)
        state: {runners.1.pos: 3}       # set on the state after setup (optional)
        steps:
          - sheets: {ann: {step: 2}}    # turn and player filled in; a due player without a sheet
            dice: [1]                   #   passes or gets the default orders, as in gm resolve
            expect:                     # a path holding [...] is a key of a block mapping
              runners[id=ann].pos: 3
              next: ben
          - sheets: {ben: {trip: ann}}
            expect: {runners.0.pos: 1}
            events: [{type: trip, unit: ben, target: ann}]

A path is dotted keys and list indices (``runners.0.pos``), and ``[key=value]`` picks the one
item of a list whose ``key`` is ``value`` (``runners[id=ann].pos``). Run the cases of files with
``python -m gm_tool.cases [--module M] FILE...``; the test suite runs every case file under ``tests/``.
"""

from __future__ import annotations

import copy
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm_tool.errors import GmError, Problem
from gm_tool.i18n import register

register({
    "cases.ruleset": {"zh": "规则集 {ruleset!r} 与基础剧本的 {base!r} 不符", "en": "ruleset {ruleset!r} differs from the base scenario's {base!r}"},
    "cases.id": {"zh": "每个案例需要一个不重复的 id（文字或数字），实为 {value!r}",
                 "en": "every case needs an id of its own (text or a number), got {value!r}"},
    "cases.rule": {"zh": "写明所检验的规则原文出处，并加引号引用原文（如 l.87: \"...\"）",
                   "en": "name the rule line the case checks and quote it (l.87: \"...\")"},
    "cases.path": {"zh": "路径 {value!r} 无法识别；写法如 runners.0.pos 或 runners[id=ann].pos",
                   "en": "cannot read the path {value!r}; write it as runners.0.pos or runners[id=ann].pos"},
})

CASE_KEYS = ("id", "rule", "title", "base", "scenario", "seed", "state", "expect", "expect_view", "absent",
             "setup_refused", "steps")
STEP_KEYS = ("amend", "sheets", "dice", "refused", "refusal_says", "warned", "expect", "expect_view", "absent", "events",
             "events_in_order", "events_times", "no_events", "amend_refused", "resolve_refused", "posts", "posts_lack",
             "state")
FILE_KEYS = ("ruleset", "base", "seed", "cases")
# a problem named in a case: code@field, or code@field:LINE (the line of a sheet given as text)
_LINE = re.compile(r"^(.*):(\d+)$")
# a rule is quoted: "...", “...” or 「...」 (at least two characters)
QUOTED = re.compile(r'"[^"]{2,}"|“[^”]{2,}”|「[^」]{2,}」')
_STEP = re.compile(r"([^.\[\]]+)|\[([^=\]]+)=([^\]]*)\]")


def _mapping_of(test: Any) -> Any:
    return lambda v: isinstance(v, dict) and all(test(x) for x in v.values())


def _list_of(test: Any) -> Any:
    return lambda v: isinstance(v, list) and all(test(x) for x in v)


# what each key of a case or a step holds, and its name in a problem
_SHAPES: dict[str, Any] = {
    "scenario": _mapping_of(lambda x: True), "state": _mapping_of(lambda x: True),
    "expect": _mapping_of(lambda x: True), "expect_view": _mapping_of(lambda x: isinstance(x, dict)),
    "setup_refused": _list_of(lambda x: isinstance(x, str)), "amend": _list_of(lambda x: isinstance(x, dict)),
    "sheets": _mapping_of(lambda x: x is None or isinstance(x, dict | str)),
    "dice": _list_of(lambda x: type(x) is int), "refused": _mapping_of(_list_of(lambda x: isinstance(x, str))),
    "refusal_says": _mapping_of(_list_of(lambda x: isinstance(x, str))),
    "warned": _mapping_of(_list_of(lambda x: isinstance(x, str))), "absent": _list_of(lambda x: isinstance(x, str)),
    "events": _list_of(lambda x: isinstance(x, dict)), "no_events": _list_of(lambda x: isinstance(x, dict)),
    "events_in_order": _list_of(lambda x: isinstance(x, dict)),
    "amend_refused": _list_of(lambda x: isinstance(x, str)), "resolve_refused": _list_of(lambda x: isinstance(x, str)),
    "posts": _mapping_of(_list_of(lambda x: isinstance(x, str))),
    "posts_lack": _mapping_of(_list_of(lambda x: isinstance(x, str))),
    "events_times": _list_of(lambda x: isinstance(x, dict) and type(x.get("times")) is int),
}
_SHAPE_WORDS = {
    "scenario": "mapping", "state": "mapping of path: value", "expect": "mapping of path: value",
    "expect_view": "mapping of player: {path: value}", "setup_refused": "list of code@field",
    "amend": "list of {action, args, reason}", "sheets": "mapping of player: sheet", "dice": "list of integers",
    "refused": "mapping of player: [code@field]", "refusal_says": "mapping of player: [phrase]",
    "warned": "mapping of player: [code@field]", "absent": "list of paths", "events": "list of mappings",
    "no_events": "list of mappings",
    "events_in_order": "list of mappings",
    "amend_refused": "list of code@field", "resolve_refused": "list of code@field",
    "posts": "mapping of reader: [text]", "posts_lack": "mapping of reader: [text]",
    "events_times": "list of mappings, each with times: N",
}


@dataclass
class Case:
    """One rule case, read from its file (``where``: ``FILE#ID`` for reports)."""

    id: str
    rule: str
    title: str
    ruleset: str
    scenario: dict[str, Any]
    source: str
    seed: str
    data: dict[str, Any]
    where: str = ""


@dataclass
class Result:
    case: Case
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures


# paths ----------------------------------------------------------------------------------------
def path_steps(path: str) -> list[str | int | tuple[str, str]]:
    """``runners[id=ann].pos`` -> ``['runners', ('id', 'ann'), 'pos']``; digits are indices."""
    out: list[str | int | tuple[str, str]] = []
    pos = 0
    for m in _STEP.finditer(path):
        if m.start() != pos and path[pos:m.start()] != ".":
            raise ValueError(path)
        pos = m.end()
        if m.group(1) is not None:
            out.append(int(m.group(1)) if m.group(1).isdigit() else m.group(1))
        else:
            out.append((m.group(2), m.group(3)))
    if pos != len(path) or not out:
        raise ValueError(path)
    return out


class Missing(Exception):
    """A path leads nowhere (its message says where it stopped)."""


def _step_into(node: Any, step: str | int | tuple[str, str], done: str) -> Any:
    if isinstance(step, tuple):
        key, value = step
        if not isinstance(node, list):
            raise Missing(f"{done or 'the top'} is not a list")
        hits = [x for x in node if isinstance(x, dict) and str(x.get(key)) == value]
        if len(hits) != 1:
            raise Missing(f"{done} has {len(hits)} items with {key} = {value}")
        return hits[0]
    if isinstance(step, int) and isinstance(node, list):
        if not -len(node) <= step < len(node):
            raise Missing(f"{done} has {len(node)} items")
        return node[step]
    if isinstance(node, dict) and (step in node or str(step) in node):
        return node[step] if step in node else node[str(step)]
    raise Missing(f"{done or 'the top'} has no {step}")


def get(data: Any, path: str) -> Any:
    """The value at ``path``; :class:`Missing` when there is none. A ``*`` step takes every item
    of a list and gives the list of what the rest of the path reaches in each
    (``characters[id=ann].hand.*.name``: the names of her cards, in order); a last ``#`` step
    gives how many items a list or mapping holds (``characters[id=ann].hand.#``)."""
    return _get(data, path_steps(path), "")


def _get(node: Any, steps: list[str | int | tuple[str, str]], done: str) -> Any:
    for i, step in enumerate(steps):
        if step == "*":
            if not isinstance(node, list):
                raise Missing(f"{done or 'the top'} is not a list")
            return [_get(item, steps[i + 1:], f"{done}.{k}") for k, item in enumerate(node)]
        if step == "#" and i == len(steps) - 1 and isinstance(node, list | dict):
            return len(node)
        node = _step_into(node, step, done)
        done = f"{done}.{step}" if done else str(step)
    return node


def put(data: Any, path: str, value: Any) -> None:
    """Set the value at ``path`` (its parent must exist)."""
    steps = path_steps(path)
    if "*" in steps or steps[-1] == "#":
        raise Missing(f"cannot set {path}: * reads every item, it sets none")
    parent = get(data, _join(steps[:-1])) if steps[:-1] else data
    last = steps[-1]
    if isinstance(last, tuple) or isinstance(last, int) and not isinstance(parent, list):
        raise Missing(f"cannot set {path}")
    if isinstance(parent, list) and isinstance(last, int):
        parent[last] = value
    elif isinstance(parent, dict):
        parent[last] = value
    else:
        raise Missing(f"cannot set {path}")


def _join(steps: list[str | int | tuple[str, str]]) -> str:
    return "".join(f"[{s[0]}={s[1]}]" if isinstance(s, tuple) else f".{s}" for s in steps).lstrip(".")


def merge(base: Any, over: Any) -> Any:
    """``over`` laid on ``base``: mappings key by key, anything else replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base.get(k), v) if k in base else copy.deepcopy(v)
        return out
    return copy.deepcopy(over)


def matches(event: dict[str, Any], want: dict[str, Any]) -> bool:
    """An event holds every key of ``want`` with that value; a mapping in ``want`` matches a
    mapping holding at least its keys, a list a list of as many items, each matching in turn
    (``card: {name: ace}`` matches whatever else the card holds)."""
    return all(k in event and _holds(event[k], v) for k, v in want.items())


def _holds(got: Any, want: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and matches(got, want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(_holds(g, w) for g, w in zip(got, want))
    return bool(got == want)


# reading a case file ------------------------------------------------------------------------------
def load(path: Path) -> list[Case]:
    """Every case of a file, checked: a GmError names each bad field (its line found in the file)."""
    from gm_tool import app
    from gm_tool.core import safeyaml

    source = str(path)
    data = safeyaml.load_mapping(path)
    problems: list[Problem] = []

    def problem(field_path: str, code: str, **params: Any) -> None:
        problems.append(Problem(code, source, field_path, params))

    for key in data:
        if key not in FILE_KEYS:
            problem(str(key), "field.unknown", allowed=", ".join(FILE_KEYS))
    bases: dict[str, tuple[dict[str, Any], str]] = {}

    def base_of(ref: Any, at: str) -> tuple[dict[str, Any], str]:
        """The scenario ``ref`` names (a file beside this one or a bundled scenario), read once."""
        if not isinstance(ref, str):
            problem(at, "field.required")
            return {}, source
        if ref not in bases:
            beside = path.parent / ref
            try:
                bases[ref] = app.load_scenario(str(beside) if beside.is_file() else ref)
            except GmError as exc:
                problems.extend(exc.problems)
                bases[ref] = {}, source
        return bases[ref]

    base, base_source = base_of(data.get("base"), "base")
    ruleset = data.get("ruleset", base.get("ruleset"))
    if not isinstance(ruleset, str):
        problem("ruleset", "field.required")
    elif base and base.get("ruleset") not in (None, ruleset):
        problem("ruleset", "cases.ruleset", ruleset=ruleset, base=base.get("ruleset"))
    seed = data.get("seed", "rule-cases")
    if not isinstance(seed, str):
        problem("seed", "field.type", expected="str", got=type(seed).__name__)
    cases = data.get("cases")
    if not isinstance(cases, list) or not cases:
        problem("cases", "field.required")
        cases = []
    out: list[Case] = []
    seen: set[str] = set()
    for i, raw in enumerate(cases):
        at = f"cases[{i}]"
        if not isinstance(raw, dict):
            problem(at, "field.type", expected="mapping", got=type(raw).__name__)
            continue
        for key in raw:
            if key not in CASE_KEYS:
                problem(f"{at}.{key}", "field.unknown", allowed=", ".join(CASE_KEYS))
            elif key in _SHAPES and not _SHAPES[key](raw[key]):
                problem(f"{at}.{key}", "field.type", expected=_SHAPE_WORDS[key], got=type(raw[key]).__name__)
        cid, rule = raw.get("id"), raw.get("rule")
        if not isinstance(cid, str | int) or isinstance(cid, bool) or str(cid) in seen:
            problem(f"{at}.id", "cases.id", value=cid)
        seen.add(str(cid))
        if not isinstance(rule, str) or not QUOTED.search(rule):
            problem(f"{at}.rule", "cases.rule")
        steps = raw.get("steps") or []
        if not isinstance(steps, list):
            problem(f"{at}.steps", "field.type", expected="list", got=type(steps).__name__)
            steps = []
        for j, step in enumerate(steps):
            if not isinstance(step, dict):
                problem(f"{at}.steps[{j}]", "field.type", expected="mapping", got=type(step).__name__)
                continue
            for key in step:
                if key not in STEP_KEYS:
                    problem(f"{at}.steps[{j}].{key}", "field.unknown", allowed=", ".join(STEP_KEYS))
                elif not _SHAPES[key](step[key]):
                    problem(f"{at}.steps[{j}].{key}", "field.type", expected=_SHAPE_WORDS[key], got=type(step[key]).__name__)
        _check_paths(raw, at, problem)
        own, own_source = base_of(raw["base"], f"{at}.base") if "base" in raw else (base, base_source)
        if "base" in raw and own.get("ruleset") not in (None, ruleset):
            problem(f"{at}.base", "cases.ruleset", ruleset=ruleset, base=own.get("ruleset"))
        out.append(Case(str(cid), str(rule), str(raw.get("title") or ""), str(ruleset),
                        merge(own, raw.get("scenario") or {}), own_source, str(raw.get("seed") or seed), raw,
                        f"{path.name}#{cid}"))
    if problems:
        from gm_tool.core.yamlpos import annotate_file

        raise annotate_file(GmError(problems), source, path)
    return out


def _check_paths(raw: dict[str, Any], at: str, problem: Any) -> None:
    """Every path a case names is well formed."""
    def views(where: str, table: Any) -> list[tuple[str, Any]]:
        if table is None or isinstance(table, dict):
            return [(f"{where}.{p}", v) for p, v in (table or {}).items()]
        return [(where, table)]

    def listed(where: str, paths: Any) -> list[tuple[str, Any]]:
        return [(where, dict.fromkeys(paths))] if isinstance(paths, list) else []

    places = [(f"{at}.state", raw.get("state")), (f"{at}.expect", raw.get("expect"))]
    places += listed(f"{at}.absent", raw.get("absent"))
    places += views(f"{at}.expect_view", raw.get("expect_view"))
    steps = raw.get("steps")
    for j, step in enumerate(steps if isinstance(steps, list) else []):
        if isinstance(step, dict):
            places += [(f"{at}.steps[{j}].state", step.get("state")), (f"{at}.steps[{j}].expect", step.get("expect"))]
            places += listed(f"{at}.steps[{j}].absent", step.get("absent"))
            places += views(f"{at}.steps[{j}].expect_view", step.get("expect_view"))
    for where, table in places:
        if table is None:
            continue
        if not isinstance(table, dict):
            problem(where, "field.type", expected="mapping", got=type(table).__name__)
            continue
        for key in table:
            try:
                path_steps(str(key))
            except ValueError:
                problem(where, "cases.path", value=key)


# running a case -------------------------------------------------------------------------------
def _put_all(state: Any, table: dict[str, Any] | None, where: str, failures: list[str]) -> None:
    """Set each ``path: value`` of ``table`` on ``state`` (a position reached without playing up to it)."""
    for path, value in (table or {}).items():
        try:
            put(state, str(path), copy.deepcopy(value))
        except Missing as exc:
            failures.append(f"{where}: {path}: {exc}")


def _problems(exc: GmError) -> list[str]:
    return [_named(p) for p in exc.problems]


def _named(p: Problem) -> str:
    """``code@field``, and ``:LINE`` when the problem knows its line (a sheet given as text)."""
    line = getattr(p, "line", None)
    return f"{p.code}@{p.field}" + (f":{line}" if line else "")


def _same_problems(got: list[str], wanted: list[str]) -> bool:
    """Each wanted problem is one found, and nothing else was found: ``code@field:LINE`` names the
    line too, ``code@field`` any line."""
    left = list(got)
    for want in wanted:
        hit = next((g for g in left if g == want or not _LINE.match(want) and _LINE.sub(r"\1", g) == want), None)
        if hit is None:
            return False
        left.remove(hit)
    return not left


def _expect(where: str, view: Any, table: dict[str, Any] | None, failures: list[str]) -> None:
    for path, want in (table or {}).items():
        try:
            got = get(view, str(path))
        except Missing as exc:
            failures.append(f"{where}: {path}: no such value ({exc})")
            continue
        if got != want:
            failures.append(f"{where}: {path} is {got!r}, expected {want!r}")


def _views(ruleset: Any, state: Any, where: str, expect: Any, expect_view: Any, failures: list[str],
           absent: Any = None) -> None:
    shown = ruleset.view(state, None)
    _expect(where, shown, expect, failures)
    for path in absent or []:
        try:
            got = get(shown, str(path))
        except Missing:
            continue
        failures.append(f"{where}: {path} is {got!r}, expected nothing there")
    for player, table in (expect_view or {}).items():
        if player not in ruleset.players(state):
            failures.append(f"{where}: expect_view names {player!r}, not a player")
            continue
        _expect(f"{where} (view of {player})", ruleset.view(state, player), table, failures)


def run(case: Case) -> Result:
    """Play one case in memory, as the commands would (`gm new`, `gm amend`, `gm check`/`gm
    submit` reading each sheet from YAML text, `gm dice`, `gm resolve`, `gm show --json`)."""
    from gm_tool.core import ruleset as registry
    from gm_tool.core import safeyaml
    from gm_tool.core.store import dump_yaml

    result = Result(case)
    failures = result.failures
    rs = registry.get(case.ruleset)
    raw = case.data
    try:
        state = rs.setup(case.scenario, case.source, case.seed)
    except GmError as exc:
        if raw.get("setup_refused") is None:
            failures.append(f"setup refused the scenario: {', '.join(_problems(exc))}")
        elif sorted(_problems(exc)) != sorted(raw["setup_refused"]):
            failures.append(f"setup refused with {_problems(exc)}, expected {raw['setup_refused']}")
        return result
    if raw.get("setup_refused") is not None:
        failures.append(f"setup accepted the scenario, expected it refused with {raw['setup_refused']}")
        return result
    _put_all(state, raw.get("state"), "state", failures)
    _views(rs, state, "after setup", raw.get("expect"), raw.get("expect_view"), failures, raw.get("absent"))
    for i, step in enumerate(raw.get("steps") or [], 1):
        where = f"step {i}"
        if step.get("state"):
            state = copy.deepcopy(state)
            _put_all(state, step["state"], f"{where}: state", failures)
        before = state
        events: list[dict[str, Any]] = []
        amend_refused: list[str] = []
        for j, edit in enumerate(step.get("amend") or []):
            try:
                action = registry.check_amend(rs, dict(edit), f"{where}.amend.{j}")
                state, done = rs.amend(state, action, f"{where}.amend.{j}")
                events += done
            except GmError as exc:
                amend_refused += _problems(exc)
        if step.get("amend_refused") is None and amend_refused:
            failures.append(f"{where}: GM edits refused: {', '.join(amend_refused)}")
        elif sorted(amend_refused) != sorted(step.get("amend_refused") or amend_refused):
            failures.append(f"{where}: GM edits refused with {amend_refused}, expected {step['amend_refused']}")
        n = rs.turn(state) + 1
        sent: dict[str, Any] = {}
        refused: dict[str, list[str]] = {}
        said: dict[str, str] = {}
        warned: dict[str, list[str]] = {}
        for player, sheet in (step.get("sheets") or {}).items():
            try:
                if isinstance(sheet, str):  # the file as written: read as gm check reads it
                    sent[player], warned[player] = _check_text(rs, state, player, sheet)
                else:
                    full = {"turn": n, "player": player, **(sheet or {})}
                    sent[player] = rs.parse_orders(state, safeyaml.loads(dump_yaml(full), f"{player}.yaml"),
                                                   f"{player}.yaml", "en")
                    warned[player] = [_named(w) for w in getattr(sent[player], "warnings", None) or ()]
            except GmError as exc:
                refused[player] = _problems(exc)
                said[player] = exc.render("en")
        for player, phrases in (step.get("refusal_says") or {}).items():
            for phrase in phrases:
                if phrase not in said.get(player, ""):
                    failures.append(f"{where}: {player}'s sheet: the refusal does not say {phrase!r}: "
                                    f"{said.get(player, 'accepted')!r}")
        want_warned = step.get("warned")
        for player in sorted(set(warned) | set(want_warned or {})) if want_warned is not None else ():
            if not _same_problems(warned.get(player, []), want_warned.get(player) or []):
                failures.append(f"{where}: {player}'s sheet: warned {warned.get(player, [])}, "
                                f"expected {want_warned.get(player) or 'no warning'}")
        want_refused = step.get("refused")
        if want_refused is not None:  # a step checking sheets only: nothing is resolved
            for player in sorted(set(refused) | set(want_refused)):
                if not _same_problems(refused.get(player, []), want_refused.get(player) or []):
                    failures.append(f"{where}: {player}'s sheet: refused with {refused.get(player, [])}, "
                                    f"expected {want_refused.get(player) or 'accepted'}")
        elif step.get("refusal_says") is not None:  # so is this one
            for player in sorted(set(refused) - set(step["refusal_says"])):
                failures.append(f"{where}: {player}'s sheet refused: {', '.join(refused[player])}")
        else:
            for player, problems in refused.items():
                failures.append(f"{where}: {player}'s sheet refused: {', '.join(problems)}")
            if failures:
                return result
            orders, _ = rs.turn_orders(state, sent)
            dice = step.get("dice")
            if dice is not None and not rs.uses_dice_file:
                failures.append(f"{where}: dice given, but {rs.name} takes no forum dice")
            try:
                resolution = rs.resolve(state, orders, case.seed, list(dice) if dice is not None else None)
            except GmError as exc:
                if step.get("resolve_refused") is None:
                    raise
                if sorted(_problems(exc)) != sorted(step["resolve_refused"]):
                    failures.append(f"{where}: the turn refused with {_problems(exc)}, expected {step['resolve_refused']}")
            else:
                if step.get("resolve_refused") is not None:
                    failures.append(f"{where}: the turn resolved, expected it refused with {step['resolve_refused']}")
                state, events = resolution.state, events + resolution.events
        _views(rs, state, where, step.get("expect"), step.get("expect_view"), failures, step.get("absent"))
        if step.get("posts") or step.get("posts_lack"):
            _posts(rs, before, state, events, where, step, failures)
        for want in step.get("events") or []:
            if not any(matches(e, want) for e in events):
                failures.append(f"{where}: no event matches {want!r} (types: {[e.get('type') for e in events]})")
        _in_order(where, events, step.get("events_in_order") or [], failures)
        for want in step.get("events_times") or []:
            match = {k: v for k, v in want.items() if k != "times"}
            n = sum(matches(e, match) for e in events)
            if n != want["times"]:
                failures.append(f"{where}: {n} events match {match!r}, expected {want['times']}")
        for unwanted in step.get("no_events") or []:
            if any(matches(e, unwanted) for e in events):
                failures.append(f"{where}: an event matches {unwanted!r}, expected none")
    return result


def _check_text(rs: Any, state: Any, player: str, text: str) -> tuple[Any, list[str]]:
    """A sheet given as the text of its file, checked as `gm check` checks a file: read from disk,
    nothing filled in; its problems and warnings named in the sheet's own words, each with its
    line. Returns the orders and the warnings (``code@field:LINE``)."""
    import tempfile

    from gm_tool import app
    from gm_tool.core import safeyaml
    from gm_tool.core.yamlpos import annotate_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{player}.yaml"
        path.write_text(text, "utf-8")
        try:
            orders = rs.parse_orders(state, safeyaml.load_mapping(path), str(path), "en")
        except GmError as exc:
            if any(p.field for p in exc.problems):
                exc = annotate_file(exc, str(path), path, rs.sheet_aliases)
            raise exc from None
        return orders, [_named(w) for w in app.sheet_warnings(orders, path)]


def _posts(rs: Any, before: Any, after: Any, events: list[dict[str, Any]], where: str, step: dict[str, Any],
           failures: list[str]) -> None:
    """The step's posts (markdown, as `gm resolve` writes them) hold the texts of ``posts`` in
    their order and none of ``posts_lack``; a reader is ``public`` or a player (``READER@en``:
    the post in English)."""
    rendered: dict[str, Any] = {}
    for key, want, present in [(k, v, True) for k, v in (step.get("posts") or {}).items()] + \
            [(k, v, False) for k, v in (step.get("posts_lack") or {}).items()]:
        reader, _, lang = str(key).partition("@")
        lang = lang or "zh"
        if lang not in rendered:
            rendered[lang] = rs.posts(before, after, events, lang).texts
        text = rendered[lang].get(reader, {}).get("md")
        if text is None:
            failures.append(f"{where}: no post for {key!r} (posts: {sorted(rendered[lang])})")
            continue
        at = 0
        for phrase in want:
            found = text.find(phrase, at) if present else text.find(phrase)
            if (found >= 0) != present:
                failures.append(f"{where}: {key}'s post {'lacks' if present else 'holds'} {phrase!r}"
                                + (" (after the texts before it)" if present and phrase in text else ""))
            elif present:
                at = found + len(phrase)


def _in_order(where: str, events: list[dict[str, Any]], wanted: list[dict[str, Any]], failures: list[str]) -> None:
    """Each of ``wanted`` matches an event later than the one the previous matched (other
    events may come between)."""
    i = 0
    for event in events:
        if i < len(wanted) and matches(event, wanted[i]):
            i += 1
    if i < len(wanted):
        failures.append(f"{where}: no event matches {wanted[i]!r} after those matching {wanted[:i]!r}, in order")


def find(folders: Iterable[Path]) -> list[Path]:
    """Every case file under ``folders``: ``cases.yaml``, ``cases-*.yaml`` and ``cases/*.yaml``."""
    out: set[Path] = set()
    for folder in folders:
        out.update(folder.rglob("cases.yaml"))
        out.update(folder.rglob("cases-*.yaml"))
        out.update(p for p in folder.rglob("*.yaml") if p.parent.name == "cases")
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    """``python -m gm_tool.cases [--module M] FILE...``: run the cases of each file, one line per
    case. ``--module`` imports a module holding a ruleset that lives outside gm_tool (its
    ``RULESET``, registered by name: ``--module tests.toy`` for the toy race)."""
    import argparse
    import importlib

    from gm_tool.core import ruleset as registry

    ap = argparse.ArgumentParser(prog="python -m gm_tool.cases", description="Run rule cases written as data.")
    ap.add_argument("--module", action="append", default=[], help="a module whose RULESET to register")
    ap.add_argument("files", nargs="+", type=Path)
    args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    for name in args.module:
        registry.register(importlib.import_module(name).RULESET)
    failed = 0
    for path in args.files:
        try:
            cases = load(path)
        except GmError as exc:
            print(exc.render("en"), file=sys.stderr)
            failed += 1
            continue
        for case in cases:
            try:
                result = run(case)
            except GmError as exc:
                result = Result(case, [exc.render("en")])
            except Exception as exc:  # a ruleset crashing on a case: say so, and go on
                result = Result(case, [f"crashed: {type(exc).__name__}: {exc}"])
            print(f"{'ok  ' if result.passed else 'FAIL'} {case.where}: {case.title or case.rule}")
            for line in result.failures:
                print(f"     {line}")
            failed += not result.passed
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

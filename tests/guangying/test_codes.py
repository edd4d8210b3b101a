"""Every message and sentence 光与影 emits has what it needs (issue 19, "no raw codes"): the
package's source is read, and at every place a message code is raised (a refusal, a sheet or
scenario problem, a GM edit's refusal, a message printed) or an event is emitted, the message or
sentence it names must exist in both languages and every placeholder it holds must be among the
values given there. A placeholder left unfilled prints the raw template and a dict repr (a post
once read "{squad} 的一个身位格内；可攻击：{allowed} {'value': 'a#3', 'squad': 'b#3'}"); an event
whose sentence lacks a value is told generically ("〔move〕...").

Codes built at run time are followed where the code can see them: a literal, ``"prefix." +
literal``, either branch of a conditional, a local name assigned from those, or a package
function whose every ``return`` is a literal. A site that only passes on a code it was given (a
wrapper, the refusal re-raised as a sheet problem) is listed in ``FORWARDING`` with why."""

from __future__ import annotations

import ast
import string
from dataclasses import dataclass
from pathlib import Path

import gm_tool.rulesets.guangying as package
from gm_tool.i18n import _lookup
from gm_tool.rulesets.guangying.messages import TEXTS

PACKAGE = Path(package.__file__).parent

# callee -> (prefix of the message code, index of the code argument, values the callee adds)
SINKS: dict[str, tuple[str, int, frozenset[str]]] = {
    "Refusal": ("guangying.action.", 0, frozenset()),
    "fail": ("guangying.amend.", 0, frozenset({"value"})),  # amend._Edit.fail names the argument's value
    "add": ("", 0, frozenset()),  # reading.SheetReader.add
    "problem": ("", 1, frozenset()),  # core Reading.problem(field, code, ...)
    "bad": ("", 0, frozenset()),  # scenario.build's bad()
    "one": ("", 0, frozenset()),  # GmError.one(code, file=, field=, ...)
    "message": ("", 0, frozenset()),
    "Problem": ("", 0, frozenset()),
}
NOT_PARAMS = {"file", "field", "lang"}  # keyword arguments of a sink that are not the message's values

# (file, function): why a code is not a literal there
FORWARDING = {
    ("amend.py", "fail"): "the wrapper: its callers give the codes (checked at each call)",
    ("scenario.py", "bad"): "the wrapper: its callers give the codes (checked at each call)",
    ("reading.py", "add"): "the wrapper: its callers give the codes (checked at each call)",
    ("sheet.py", "read"): "a refusal of the placements-only run re-raised as a sheet problem, its params as they were",
    ("posts.py", "_action_skipped"): "an action_skipped event's reason and params, as the turn recorded them",
}


@dataclass
class Site:
    file: str
    line: int
    function: str
    codes: list[str] | None  # None: not followed
    params: set[str] | None  # None: passed on whole (**params)

    def __str__(self) -> str:
        return f"{self.file}:{self.line} ({self.function})"


def _trees() -> dict[str, ast.Module]:
    return {path.name: ast.parse(path.read_text("utf-8")) for path in sorted(PACKAGE.glob("*.py"))}


def _functions(trees: dict[str, ast.Module]) -> dict[str, ast.FunctionDef]:
    """The package's functions and methods by name (a code may come from another module's)."""
    return {n.name: n for tree in trees.values() for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}


def _enclosing(tree: ast.Module) -> dict[ast.AST, list[ast.FunctionDef]]:
    """Each node -> the functions around it, innermost first."""
    out: dict[ast.AST, list[ast.FunctionDef]] = {}

    def visit(node: ast.AST, around: list[ast.FunctionDef]) -> None:
        out[node] = around
        inner = [node, *around] if isinstance(node, ast.FunctionDef) else around
        for child in ast.iter_child_nodes(node):
            visit(child, inner)  # type: ignore[arg-type]

    visit(tree, [])
    return out


def _returns(fn: ast.FunctionDef) -> list[str] | None:
    """The literal strings ``fn`` returns (None: one of its returns is not a literal or None)."""
    out = []
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and node.value is not None:
            if isinstance(node.value, ast.Constant) and node.value.value is None:
                continue
            if not (isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
                return None
            out.append(node.value.value)
    return out


def _codes(node: ast.expr, around: list[ast.FunctionDef], funcs: dict[str, ast.FunctionDef]) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _codes(node.left, around, funcs), _codes(node.right, around, funcs)
        return None if left is None or right is None else [a + b for a in left for b in right]
    if isinstance(node, ast.IfExp):
        a, b = _codes(node.body, around, funcs), _codes(node.orelse, around, funcs)
        return None if a is None or b is None else a + b
    if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        return _returns(funcs[name]) if name in funcs else None
    if isinstance(node, ast.Name):
        fn = next((f for f in around if any(isinstance(a, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == node.id for t in a.targets) for a in ast.walk(f))), None)
        if fn is None:
            return None
        values = [a.value for a in ast.walk(fn) if isinstance(a, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)]
        out: list[str] = []
        for v in values:
            got = _codes(v, around, funcs)
            if got is None:
                return None
            out += got
        return out
    return None


def _callee(call: ast.Call) -> str | None:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def sites() -> list[Site]:
    out = []
    trees = _trees()
    funcs = _functions(trees)
    for name, tree in trees.items():
        around_of = _enclosing(tree)
        # values added to a refusal after it is made (problem.params["allowed"] = ...)
        added = {t.slice.value for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets
                 if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr == "params"
                 and isinstance(t.slice, ast.Constant)}
        for node in ast.walk(tree):
            callee = _callee(node) if isinstance(node, ast.Call) else None
            if callee not in SINKS:
                continue
            assert isinstance(node, ast.Call)
            prefix, at, implied = SINKS[callee]
            if len(node.args) <= at or callee == "add" and len(node.args) < 2:
                continue  # a set's add(), not a problem
            around = around_of[node]
            codes = _codes(node.args[at], around, funcs)
            params: set[str] | None = {k.arg for k in node.keywords if k.arg} - NOT_PARAMS | set(implied)
            if any(k.arg is None for k in node.keywords):
                params = None
            if callee == "Problem":
                given = node.args[3] if len(node.args) > 3 else None
                params = ({k.value for k in given.keys if isinstance(k, ast.Constant)}
                          if isinstance(given, ast.Dict) else None)
            if callee == "Refusal" and params is not None:
                params |= added
            out.append(Site(name, node.lineno, around[0].name if around else "<module>",
                            None if codes is None else [prefix + c for c in codes], params))
    return out


def placeholders(text: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_code_raised_exists_and_gets_every_value_its_message_names():
    found = sites()
    assert len(found) > 100  # the scan sees the package's refusals
    problems = []
    for site in found:
        if site.codes is None or site.params is None:
            if (site.file, site.function) not in FORWARDING:
                problems.append(f"{site}: a code or its values not followed; list it in FORWARDING if it only passes them on")
            continue
        for code in site.codes:
            entry = _lookup(code)
            if entry is None:
                problems.append(f"{site}: no message {code!r}")
                continue
            for lang in ("zh", "en"):
                missing = placeholders(entry[lang]) - site.params
                if missing:
                    problems.append(f"{site}: {code} ({lang}) names {sorted(missing)}, not given (given: {sorted(site.params)})")
    assert not problems, "\n".join(problems)


def test_the_scan_follows_codes_made_at_run_time():
    """The scan is not blind: a conditional code, a code from a helper and the run-time prefix
    are followed (a change that hides them from the scan fails here first)."""
    by_code = {c: s for s in sites() if s.codes for c in s.codes}
    assert {"guangying.action.summon.alone", "guangying.action.summon.full"} <= set(by_code)  # _stack_problem's returns
    assert {"guangying.orders.not_due", "player.unknown"} <= set(by_code)  # a conditional
    assert "guangying.amend.hp" in by_code and "value" in (by_code["guangying.amend.hp"].params or ())
    assert "allowed" in (by_code["guangying.action.target.immune"].params or ())  # added after it is made


# --- events and their sentences ---------------------------------------------------------------
def _teller_adds() -> dict[str, set[str]]:
    """The values the teller (posts.GyTeller) works out for an event type: ``p["key"] = ...``
    in its ``_<type>`` method."""
    tree = ast.parse((PACKAGE / "posts.py").read_text("utf-8"))
    out: dict[str, set[str]] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name.startswith("_") and not fn.name.startswith("__"):
            keys = {t.slice.value for n in ast.walk(fn) if isinstance(n, ast.Assign) for t in n.targets
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "p"
                    and isinstance(t.slice, ast.Constant)}
            out[fn.name[1:]] = keys
    return out


def emitted() -> dict[str, list[tuple[str, set[str]]]]:
    """Every event type the package emits -> [(where, the keys it is emitted with)]; events
    written as dict literals (``{"type": "amend", ...}``) too."""
    out: dict[str, list[tuple[str, set[str]]]] = {}
    for name, tree in _trees().items():
        around_of = _enclosing(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _callee(node) == "emit" and node.args:
                if (name, around_of[node][0].name if around_of[node] else "") == ("model.py", "emit"):
                    continue  # Game.emit passes its caller's type on
                first = node.args[0]
                types = [first.value] if isinstance(first, ast.Constant) else None
                if isinstance(first, ast.BinOp) and isinstance(first.left, ast.Constant):
                    types = [first.left.value + k for k in ("return", "suicide")]  # "standing_" + kind
                assert types is not None, f"{name}:{node.lineno}: an event type not followed"
                keys = {k.arg for k in node.keywords if k.arg}
                for t in types:
                    out.setdefault(t, []).append((f"{name}:{node.lineno}", keys))
            if isinstance(node, ast.Dict):
                pairs = {k.value: v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)}
                if isinstance(pairs.get("type"), ast.Constant) and "seq" in pairs:
                    out.setdefault(pairs["type"].value, []).append((f"{name}:{node.lineno}", set(pairs)))
    return out


def test_every_event_told_has_the_values_its_sentence_names():
    sentences = TEXTS.narration.sentences
    adds = _teller_adds()
    events = emitted()
    problems = []
    for type_, where in sorted(events.items()):
        if type_ in TEXTS.narration.silent:
            continue
        entry = sentences.get(type_)
        if entry is None:
            problems.append(f"{type_}: emitted at {where[0][0]} but has no sentence (told generically)")
            continue
        for place, keys in where:
            for lang in ("zh", "en"):
                missing = placeholders(entry[lang]) - keys - adds.get(type_, set())
                if missing:
                    problems.append(f"{place}: {type_} ({lang}) names {sorted(missing)}, not emitted")
    assert not problems, "\n".join(problems)
    assert {"move", "attack", "summon", "action_skipped", "amend"} <= set(events)

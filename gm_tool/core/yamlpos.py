"""Where a field sits in a YAML text: ``map.rows[3]`` or ``characters[2].class`` to its line.

Validation reports problems by field path; this maps a path back to the line of the source
text, from the composed node marks, so a problem reads ``file:LINE: field: message``. Keys may
be written under an alias (a ruleset registers its alias tables with :func:`register_aliases`).
A path that does not exist in the text (a missing key) points at the deepest part that does.

>>> text = "map:\\n  rows:\\n    - '...'\\n    - '..'\\ncharacters:\\n  - {id: a, class: NINJA}\\n"
>>> line_of(text, "map.rows[1]"), line_of(text, "characters[0].class"), line_of(text, "map.width")
(4, 6, 1)

An index may be written dotted too (``actions.1.skill``):

>>> line_of("actions:\\n  - move: C3\\n  - skill: x\\n", "actions.1.skill")
3

A key that holds dots itself (a sheet copying a rule document's numbering, ``2.1.x: y``) is
found as written:

>>> line_of("a: 1\\n2.1.x: y\\n", "2.1.x"), line_of("a:\\n  1.1b: 2\\n", "a.1.1b.c")
(2, 2)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from gm_tool.errors import GmError

_Loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

_TOKEN = re.compile(r"\[(\d+)\]|([^.\[\]]+)")
_SPELLINGS: dict[str, set[str]] = {}


def register_aliases(*tables: dict[str, str]) -> None:
    """Register ``{spelling: canonical key}`` tables: a path naming the canonical key also finds
    a key written in any of its spellings."""
    for table in tables:
        for alias, canon in table.items():
            _SPELLINGS.setdefault(canon, set()).add(alias)


def parse_path(field: str) -> list[str | int]:
    """``characters[2].class`` -> ``['characters', 2, 'class']``."""
    return [int(m.group(1)) if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(field)]


def compose(text: str) -> yaml.Node | None:
    try:
        loader = _Loader(text)
        try:
            return loader.get_single_node()
        finally:
            loader.dispose()
    except (yaml.YAMLError, RecursionError):
        return None


def node_line(root: yaml.Node | None, field: str, index: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] | None = None,
              spellings: dict[str, set[str]] | None = None) -> int | None:
    """The 1-based line of ``field`` under ``root`` (or of its deepest existing part).
    ``index`` (kept by the caller across calls) holds each mapping's keys once looked up, so
    finding the lines of many problems costs one pass over each mapping, not one per problem."""
    return node_place(root, field, index, spellings)[0]


def node_place(root: yaml.Node | None, field: str, index: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] | None = None,
               spellings: dict[str, set[str]] | None = None) -> tuple[int | None, str]:
    """``(line, field as written)``: the line of ``field`` (see :func:`node_line`) and the path
    in the words the text used (a key found under an alias is named by that alias; the part of
    the path the text lacks is kept as given).

    >>> node_place(compose("机:\\n  速度: 1\\n"), "car.speed", spellings={"car": {"机"}, "speed": {"速度"}})
    (2, '机.速度')
    """
    if root is None:
        return None, field
    node: yaml.Node = root
    line = root.start_mark.line + 1
    index = {} if index is None else index
    known = _SPELLINGS if spellings is None else spellings
    tokens = list(_TOKEN.finditer(field))
    written: list[str] = []
    skip = 0
    done = 0  # tokens consumed so far
    for at, match in enumerate(tokens):
        if at < skip:
            continue
        token: str | int = int(match.group(1)) if match.group(1) is not None else match.group(2)
        if isinstance(token, str) and token.isdigit() and isinstance(node, yaml.SequenceNode):
            token = int(token)  # a dotted index (``actions.1.skill``) in a list
        nxt: yaml.Node | None = None
        if isinstance(token, int) and isinstance(node, yaml.SequenceNode):
            if 0 <= token < len(node.value):
                nxt = node.value[token]
                line = nxt.start_mark.line + 1
                written.append(f"[{token}]" if match.group(1) is not None else f"{'.' if written else ''}{token}")
        elif isinstance(node, yaml.MappingNode):
            keys = index.get(id(node))
            if keys is None:
                keys = index[id(node)] = {}
                for key, value in node.value:
                    if isinstance(key, yaml.ScalarNode):
                        keys.setdefault(key.value, (key, value))
            for name in (str(token), *sorted(known.get(str(token), ()))):
                if name in keys:
                    key, nxt = keys[name]
                    line = key.start_mark.line + 1
                    written.append(("." if written else "") + name)
                    break
            else:  # a key with dots in it: the longest run of the following names that is one
                for end in range(len(tokens) - 1, at, -1):
                    name = field[match.start():tokens[end].end()]
                    if "[" not in name and name in keys:
                        key, nxt = keys[name]
                        line = key.start_mark.line + 1
                        written.append(("." if written else "") + name)
                        skip = end + 1
                        break
        if nxt is None:
            break
        node = nxt
        done = max(at + 1, skip)
    rest = field[tokens[done].start():] if done < len(tokens) else ""
    if rest and written and not rest.startswith("["):
        rest = "." + rest
    return line, "".join(written) + rest


def line_of(text: str, field: str) -> int | None:
    return node_line(compose(text), field)


def spellings_of(aliases: dict[str, str] | None) -> dict[str, set[str]]:
    """The registered spellings with a ruleset's own ``{spelling: canonical key}`` added."""
    if not aliases:
        return _SPELLINGS
    out = {k: set(v) for k, v in _SPELLINGS.items()}
    for alias, canon in aliases.items():
        out.setdefault(canon, set()).add(alias)
    return out


def annotate(error: "GmError", file: str, text: str, aliases: dict[str, str] | None = None) -> "GmError":
    """Fill in the line of every problem of ``error`` that names ``file`` and a field, and name
    the field in the words the text used (a problem of ``car.speed`` in a sheet that wrote the
    rule document's own keys is named ``机.速度``). ``aliases``: the ruleset's sheet words."""
    root: Any = None
    index: dict[int, Any] = {}
    known = spellings_of(aliases)
    for p in error.problems:
        if p.file == file and p.field and getattr(p, "line", None) is None:
            if root is None:
                from gm_tool.core.safeyaml import unwrap_code

                root = compose(unwrap_code(text)) or False
            if root:
                p.line, p.field = node_place(root, p.field, index, known)
    return error


def annotate_file(error: "GmError", file: str, path: Path, aliases: dict[str, str] | None = None) -> "GmError":
    """:func:`annotate` from a file on disk (silently nothing if it cannot be read)."""
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return error
    return annotate(error, file, text, aliases)

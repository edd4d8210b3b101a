"""YAML from strangers: safe loading with bounds on size, depth and alias expansion.

Every failure is a :class:`GmError` naming the file; nothing here can run code, and the work
is bounded whatever the input (a billion-laughs file is refused after counting at most
``max_nodes`` nodes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from gm_tool.errors import GmError

try:  # the C loader is ~10x faster; same safety
    _Loader = yaml.CSafeLoader  # type: ignore[attr-defined]
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

MAX_BYTES = 1 << 20
MAX_DEPTH = 40
MAX_NODES = 200_000


def _check_tree(node: yaml.Node, source: str, max_depth: int, max_nodes: int) -> None:
    """Walk the composed graph as a consumer would (aliases expanded), within bounds."""
    count = 0
    stack: list[tuple[yaml.Node, int]] = [(node, 1)]
    while stack:
        cur, depth = stack.pop()
        count += 1
        if count > max_nodes:
            raise GmError.one("yaml.too_big", file=source, limit=max_nodes)
        if depth > max_depth:
            raise GmError.one("yaml.too_deep", file=source, limit=max_depth)
        if isinstance(cur, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in cur.value)
        elif isinstance(cur, yaml.MappingNode):
            for key, value in cur.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))


def loads(text: str, source: str, *, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES) -> Any:
    if "\x00" in text:
        raise GmError.one("file.binary", file=source)
    try:
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            _check_tree(node, source, max_depth, max_nodes)
            return loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        raise GmError.one("yaml.syntax", file=source,
                          line=(mark.line + 1) if mark else "?", column=(mark.column + 1) if mark else "?",
                          problem=exc.problem or str(exc)) from None
    except yaml.YAMLError as exc:
        raise GmError.one("yaml.syntax", file=source, line="?", column="?", problem=str(exc)) from None
    except RecursionError:
        raise GmError.one("yaml.too_deep", file=source, limit=max_depth) from None


def load_file(path: Path, *, max_bytes: int = MAX_BYTES, display: str | None = None) -> Any:
    source = display or str(path)
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise GmError.one("file.unreadable", file=source, reason="not a regular file")
        if size > max_bytes:
            raise GmError.one("file.too_large", file=source, size=size, limit=max_bytes)
        raw = path.read_bytes()[: max_bytes + 1]
    except FileNotFoundError:
        raise GmError.one("file.missing", file=source) from None
    except OSError as exc:
        raise GmError.one("file.unreadable", file=source, reason=exc.strerror or str(exc)) from None
    if b"\x00" in raw:
        raise GmError.one("file.binary", file=source)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GmError.one("file.encoding", file=source) from None
    return loads(text, source)


def load_mapping(path: Path, display: str | None = None) -> dict[str, Any]:
    data = load_file(path, display=display)
    source = display or str(path)
    if not isinstance(data, dict):
        raise GmError.one("yaml.not_mapping", file=source, got=type(data).__name__)
    for key in data:
        if not isinstance(key, str):
            raise GmError.one("yaml.bad_key", file=source, got=repr(key))
    return data

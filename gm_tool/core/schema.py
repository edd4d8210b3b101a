"""Small validation helpers for YAML mappings that collect every problem with its field path.

>>> v = Validator("x.yaml")
>>> v.choice({"a": "up"}, "a", {"up": "up", "上": "up"}, "a")
'up'
>>> v.ok
True
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.grid import Cell, column_name, parse_cell
from gm_tool.errors import GmError, Problem

_TYPE_NAMES = {bool: ("布尔值", "boolean"), int: ("整数", "integer"), str: ("字符串", "string"),
               list: ("列表", "list"), dict: ("映射", "mapping")}


def type_name(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "string", list: "list",
            dict: "mapping", type(None): "null"}.get(type(value), type(value).__name__)


class Validator:
    """Collects :class:`Problem` s for one file; ``raise_if_any()`` ends validation."""

    def __init__(self, source: str, lang: str = "zh"):
        self.source = source
        self.lang = lang
        self.problems: list[Problem] = []

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, code: str, field: str | None, **params: Any) -> None:
        self.problems.append(Problem(code, self.source, field, params))

    def raise_if_any(self) -> None:
        if self.problems:
            raise GmError(self.problems)

    def unknown_keys(self, data: dict[str, Any], allowed: dict[str, str], path: str = "") -> dict[str, Any]:
        """Map alias keys to canonical ones (``allowed`` maps every accepted key to its canonical
        name); report unknown keys. Returns the mapping with canonical keys."""
        out: dict[str, Any] = {}
        canon = sorted(set(allowed.values()))
        for key, value in data.items():
            name = allowed.get(key) if isinstance(key, str) else None
            if name is None:
                self.add("field.unknown", f"{path}{key}", allowed=", ".join(canon))
            elif name in out:
                self.add("field.duplicate", f"{path}{key}", value=key)
            else:
                out[name] = value
        return out

    def typed(self, value: Any, kind: type, path: str) -> bool:
        if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
            return True
        zh, en = _TYPE_NAMES.get(kind, (kind.__name__, kind.__name__))
        self.add("field.type", path, expected=zh if self.lang == "zh" else en, got=type_name(value))
        return False

    def choice(self, data: dict[str, Any], key: str, options: dict[Any, Any], path: str, default: Any = None) -> Any:
        """``data[key]`` mapped through ``options`` (alias -> canonical value)."""
        if key not in data or data[key] is None:
            return default
        value = data[key]
        try:
            hit = options.get(value.strip() if isinstance(value, str) else value)
        except TypeError:
            hit = None
        if hit is None:
            self.add("field.choice", path, value=value, allowed=", ".join(sorted({str(v) for v in options.values()})))
            return default
        return hit

    def integer(self, data: dict[str, Any], key: str, path: str, lo: int | None = None, hi: int | None = None,
                default: int | None = None) -> int | None:
        if key not in data or data[key] is None:
            return default
        value = data[key]
        if not self.typed(value, int, path):
            return default
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            self.add("field.range", path, value=value, allowed=f"{lo if lo is not None else '-∞'}-{hi if hi is not None else '∞'}")
            return default
        return value

    def cell(self, value: Any, path: str, width: int, height: int) -> Cell | None:
        try:
            return parse_cell(value, width, height)
        except ValueError:
            self.add("cell.bad", path, value=value, cols=f"A-{column_name(width - 1)}", rows=height)
            return None

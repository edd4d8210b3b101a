"""Small validation helpers for YAML mappings that collect every problem with its field path.

>>> v = Validator("x.yaml")
>>> v.choice({"a": "up"}, "a", {"up": "up", "上": "up"}, "a")
'up'
>>> v.ok
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gm_tool.core.grid import Cell, column_name, parse_cell
from gm_tool.errors import GmError, Problem
from gm_tool.i18n import register

register({"text.too_long": {"zh": "文字过长：{length} 个字符，上限 {limit}（写入的内容必须能被再次读出）",
                           "en": "the text is too long: {length} characters, the limit is {limit} (what is written must read back)"},
          "text.control": {"zh": "文字含有控制字符或方向控制符 {char}，不能写入；请删去它",
                           "en": "the text holds a control or direction character ({char}) that cannot be stored; remove it"},
          "id.script": {"zh": "编号 {id!r} 只能用英文字母、数字、汉字、- 和 _（不能混用别的文字，如希腊字母 Κ 冒充 K）",
                        "en": "id {id!r} may use only Latin letters, digits, CJK, - and _ (no letters of other scripts, such as a Greek Κ passing for K)"},
          "id.lookalike": {"zh": "编号 {id!r} 与已有的 {other!r} 只差大小写，容易混淆；请换一个",
                           "en": "id {id!r} differs from the existing {other!r} only by case; choose another"},
          "id.prefix": {"zh": "编号 {id!r} 以玩家 {player} 的前缀 {player}- 开头，会被当成 {player} 的单位；请换一个",
                        "en": "id {id!r} starts with player {player}'s prefix {player}-, so it would pass for {player}'s unit; choose another"},
          "orders.turn_quoted": {"zh": "回合号请写成不带引号的数字 {expected}（{got!r} 带引号，是文字）",
                                 "en": "write the turn as a number without quotes, {expected} ({got!r} in quotes is text)"}})

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
        if hit is not None and not isinstance(value, str) and not has_exact_key(options, value):
            hit = None  # 0 found False and 1.0 found 1 (equal in Python): a sheet's types are exact
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

    def turn(self, data: dict[str, Any], key: str, expected: int, path: str = "turn") -> int | None:
        """The sheet's turn number, which must be the integer ``expected``: ``true`` and ``1.0``
        are refused as the wrong type (they equal 1 in Python) and ``'1'`` is told to drop the
        quotes (not "turn 1 is wrong, the turn is 1"). None when absent or refused."""
        problem = turn_problem(data.get(key), expected, self.lang) if key in data else None
        if problem is not None:
            code, params = problem
            self.add(code, path, **params)
            return None
        return data.get(key)

    def cell(self, value: Any, path: str, width: int, height: int) -> Cell | None:
        try:
            return parse_cell(value, width, height)
        except ValueError:
            self.add("cell.bad", path, value=value, cols=f"A-{column_name(width - 1)}", rows=height)
            return None


def has_exact_key(options: dict[Any, Any], value: Any) -> bool:
    """True if ``options`` holds a key equal to ``value`` and of its very type."""
    return any(type(k) is type(value) and k == value for k in options)


def turn_problem(value: Any, expected: int, lang: str = "zh") -> tuple[str, dict[str, Any]] | None:
    """Why ``value`` is not the turn number ``expected`` (a message code and its parameters), or
    None. Exact: a boolean or a float is the wrong type even when it equals the number, and a
    number written in quotes is named as such."""
    if type(value) is int:
        return None if value == expected else ("orders.turn", {"got": value, "expected": expected})
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return "orders.turn_quoted", {"got": value, "expected": expected}
    return "field.type", {"expected": _TYPE_NAMES[int][lang != "zh"], "got": type_name(value)}


_DIRECTION = set("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def text_problem(value: Any, limit: int, one_line: bool = False) -> tuple[str, dict[str, Any]] | None:
    """Why a text a GM supplies (a note, a reason, a display name, an argument) cannot be stored,
    or None: longer than ``limit`` characters, or holding a control character (a line break or
    tab only where ``one_line`` is false), half a surrogate pair (it cannot be written as UTF-8)
    or a direction control (it would reorder what a post shows). Checked when the text is
    written, so nothing the tool writes is refused when it is read back."""
    import unicodedata

    text = value if isinstance(value, str) else str(value)
    if len(text) > limit:
        return "text.too_long", {"length": len(text), "limit": limit}
    for ch in text:
        if ch in _DIRECTION or (unicodedata.category(ch) in ("Cc", "Cs") and (one_line or ch not in "\n\t")):
            return "text.control", {"char": f"U+{ord(ch):04X}"}
    return None


def id_problem(new: str, owner: str, players: Iterable[str], existing: Iterable[str]) -> tuple[str, dict[str, Any]] | None:
    """Why ``new`` may not name a unit of ``owner``'s, or None: letters of another script (a
    Greek Κ2 beside the unit K2; see :func:`gm_tool.core.store.safe_name`), the same as an
    ``existing`` id but for case, or another player's prefix (``bob-1`` for alice's unit, where
    bob's own summons are named ``bob-N``)."""
    from gm_tool.core.store import safe_name

    if not safe_name(new):
        return "id.script", {"id": new}
    folded = new.casefold()
    for other in existing:
        if other != new and other.casefold() == folded:
            return "id.lookalike", {"id": new, "other": other}
    for player in players:
        if player != owner and folded.startswith(f"{player.casefold()}-"):
            return "id.prefix", {"id": new, "player": player}
    return None

"""Reading what a sheet writes (contract §3), met half-way as cells are: keys and names in any
case, full-width or traditional characters, with spaces around (:func:`~.data.normal`); ids and
squad labels in any case; a cell written ``(D,3)`` inside a flow mapping (which YAML splits at the
comma) joined back. Used by the sheet reader (:mod:`.sheet`), the action kinds (:mod:`.actions`),
the scenario reader and the GM edits."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from gm_tool.core.actions import Reading
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.errors import Problem
from gm_tool.rulesets.guangying.data import normal
from gm_tool.rulesets.guangying.model import piece_label

ORIENTATIONS = {"horizontal": "horizontal", "横向": "horizontal", "vertical": "vertical", "纵向": "vertical"}
LEADER_DIES = {"fight_on": "fight_on", "继续战斗": "fight_on", "return": "return", "回手": "return"}
FORTRESS_WORDS = {"fortress": "fortress", "要塞": "fortress"}


def _cell(value: Any) -> str | None:
    if isinstance(value, list) and len(value) == 2:
        value = f"{value[0]}{value[1]}"
    try:
        c = parse_cell(value, 10, 12)
    except ValueError:
        return None
    return cell_name(c)


def _text(value: Any) -> Any:
    """A string value as typed, tidied: full-width forms to ASCII, outer spaces dropped."""
    if isinstance(value, str):
        return (value if value.isascii() else unicodedata.normalize("NFKC", value)).strip()
    return value


_HALF_OPEN = re.compile(r"^\s*[(\[（【]?\s*[A-Za-zＡ-Ｚａ-ｚ]\s*$")
_HALF_CLOSE = re.compile(r"^\s*[0-9０-９]{1,2}\s*[)\]）】]?\s*$")


def _mend_cells(items: list[Any]) -> list[Any]:
    """A flow sequence YAML split at the commas of ``(C,4)`` (``['(C', '4)']``, or ``['C', 4]``
    from ``C,4``) joined back into cells."""
    out: list[Any] = []
    i = 0
    while i < len(items):
        v = items[i]
        if isinstance(v, str) and _HALF_OPEN.match(v) and i + 1 < len(items) \
                and _HALF_CLOSE.match(str(items[i + 1])) and not isinstance(items[i + 1], bool):
            out.append(f"{v},{items[i + 1]}")
            i += 2
            continue
        out.append(v)
        i += 1
    return out


def _mend_mapping(item: dict[Any, Any]) -> dict[Any, Any]:
    """A flow mapping YAML split at the comma of ``at: (D,3)`` (``{'at': '(D', '3)': None}``)
    joined back into ``{'at': '(D,3)'}``."""
    out: dict[Any, Any] = {}
    last: Any = None
    for key, value in item.items():
        if value is None and last is not None and isinstance(out[last], str) and _HALF_OPEN.match(out[last]) \
                and not isinstance(key, bool) and _HALF_CLOSE.match(str(key)):
            out[last] = f"{out[last]},{key}"
            last = None
            continue
        out[key] = _mend_cells(value) if isinstance(value, list) else value
        last = key
    return out


class SheetReader(Reading[dict[str, Any]]):
    """What reading one sheet (or a GM edit's arguments) needs: the state the names are looked
    up in, the language of the words, the player, and the problems found so far (every problem
    of a sheet is reported at once). The action kinds (:mod:`.actions`) read their fields with
    it."""

    def __init__(self, source: str, lang: str, state: dict[str, Any] | None = None, player: str | None = None):
        super().__init__(state or {}, player or "", source)
        self.lang = lang
        self.state, self.player = state, player  # type: ignore[assignment]
        self._refs: dict[str, str | None] | None = None
        self.new_squads: set[str] = set()

    def add(self, code: str, field_: str | None, **params: Any) -> None:
        self.problems.append(Problem(code, self.source, field_, params))

    def words(self, key: str) -> str:
        """A label in the reader's language."""
        from gm_tool.rulesets.guangying.messages import labels

        return str(labels(self.lang)["sheet"][key])

    def keys(self, data: dict[str, Any], allowed: dict[str, str], path: str,
             written: dict[str, str] | None = None) -> dict[str, Any]:
        """``data`` with its keys read through ``allowed`` (any spelling :func:`normal` meets);
        ``written`` gets each canonical key's spelling in the sheet."""
        out: dict[str, Any] = {}
        for key, value in data.items():
            name = allowed.get(key) if isinstance(key, str) else None
            if name is None and isinstance(key, str):
                name = allowed.get(normal(key))
            if name is None:
                if isinstance(key, str) and "：" in key:
                    self.add("guangying.sheet.colon", f"{path}{key}", key=key)
                else:
                    self.add("field.unknown", f"{path}{key}", allowed=_choices(allowed))
            elif name in out:
                self.add("field.duplicate", f"{path}{key}", value=key)
            else:
                out[name] = value
                if written is not None:
                    written[name] = str(key)
        return out

    # --- references ----------------------------------------------------------------------------
    def refs(self) -> dict[str, str | None]:
        """Every id and squad label of the board and the hands, by its case-folded spelling
        (None where two differ only by case)."""
        if self._refs is None:
            found: dict[str, str | None] = {}
            s = self.state or {"pieces": [], "squads": [], "players": [], "markers": []}

            def put(name: str, ident: str) -> None:
                key = name.casefold()
                found[key] = ident if found.get(key, ident) == ident else None

            for p in s["pieces"]:
                put(p["id"], p["id"])
            for pl in s["players"]:
                for h in pl["in_hand"]:
                    put(h["id"], h["id"])
            for q in s["squads"]:
                put(q["id"], q["id"])
            for m in s["markers"]:
                put(m["id"], m["id"])
            ids = set(found)
            labels = s.get("squad_labels") or {}
            for q in s["squads"]:
                label = labels.get(q["id"])
                if label and label.casefold() not in ids:
                    put(label, q["id"])
            for p in [*s["pieces"], *s["markers"]]:
                label = piece_label(s, p["id"], p["owner"])
                if label.casefold() not in ids:
                    put(label, p["id"])
            self._refs = found
        return self._refs

    def ref(self, value: Any) -> Any:
        """A squad or piece named as a sheet may: its id or label in any case, full-width."""
        value = _text(value)
        if not isinstance(value, str):
            return value
        if normal(value) in FORTRESS_WORDS:
            return "fortress"
        return self.refs().get(value.casefold()) or value

    # --- values --------------------------------------------------------------------------------
    def cells(self, value: Any, f: str) -> list[str] | None:
        if isinstance(value, str) and _cell(value) is not None:
            value = [value]  # a one-step path written as a cell
        if isinstance(value, list):
            value = _mend_cells(value)
        if not isinstance(value, list) or not value:
            self.add("guangying.sheet.path", f)
            return None
        out = []
        for i, v in enumerate(value):
            c = _cell(v)
            if c is None:
                self.add("cell.bad", f"{f}[{i}]", value=v, cols="A-J", rows=12)
                return None
            out.append(c)
        return out


def _lookup(table: dict[str, str], value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    return table.get(value) or table.get(normal(value))


def _choices(table: dict[str, str]) -> str:
    """What a table allows, each canonical name with its other spellings: ``at (位置)``."""
    spellings: dict[str, list[str]] = {}
    for spelling, canon in table.items():
        spellings.setdefault(canon, [])
        if spelling != canon:
            spellings[canon].append(spelling)
    return ", ".join(f"{c} ({'/'.join(s)})" if s else c for c, s in sorted(spellings.items()))

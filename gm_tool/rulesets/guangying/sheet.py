"""Order sheets (contract §3): keys and values with the seed's wording as aliases, read into
:class:`Orders`, then checked by a placements-only run of the turn (contract §4).

What a player types is met half-way, as cells are: keys and names in any case, full-width or
traditional characters, with spaces around (:func:`~.data.normal`); ids and squad labels in any
case; a cell written ``(D,3)`` inside a flow mapping (which YAML splits at the comma) joined
back. Problems name the field in the words the sheet used (``行动[2].位置``), so they are found on
their line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from gm_tool.core import yamlpos
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.schema import turn_problem
from gm_tool.errors import GmError, Problem
from gm_tool.rulesets.guangying.data import class_of, normal

TOP_KEYS = {"turn": "turn", "回合": "turn", "player": "player", "玩家": "player",
            "actions": "actions", "行动": "actions", "standing": "standing", "常设": "standing"}
VERBS = {"summon": "summon", "召唤": "summon", "move": "move", "移动": "move", "attack": "attack",
         "攻击": "attack", "full_attack": "full_attack", "全力攻击": "full_attack", "defend": "defend",
         "防御": "defend", "ability": "ability", "能力": "ability", "leader": "leader", "队长": "leader",
         "split": "split", "离队": "split", "return": "return", "回手": "return", "suicide": "suicide",
         "自杀": "suicide"}
FIELDS = {"at": "at", "位置": "at", "id": "id", "编号": "id", "squad": "squad", "小队": "squad",
          "path": "path", "路径": "path", "target": "target", "目标": "target", "by": "by", "发动者": "by",
          "member": "member", "成员": "member", "orientation": "orientation", "方向": "orientation",
          "amount": "amount", "数值": "amount"}
ALLOWED_FIELDS = {
    "summon": ("at", "id", "squad"), "move": ("path",), "attack": ("target", "by", "member"),
    "full_attack": ("target", "by", "member"), "defend": (), "leader": (), "split": ("path", "squad"),
    "return": (), "suicide": (),
    "ability": ("by", "at", "orientation", "id", "target", "amount", "member"),
}
REQUIRED = {"summon": ("at",), "move": ("path",), "attack": ("target",), "full_attack": ("target",),
            "split": ("path",)}
ABILITIES = {"唱诗": "唱诗", "sing": "唱诗", "治疗": "治疗", "heal": "治疗", "造岩": "造岩", "rock": "造岩",
             "风墙": "风墙", "wind_wall": "风墙", "wall": "风墙", "变身野兽": "变身野兽", "beast": "变身野兽",
             "奉献": "奉献", "devotion": "奉献", "射击": "射击", "shoot": "射击", "火球": "火球",
             "fireball": "火球", "开启传送阵": "开启传送阵", "portal": "开启传送阵"}
ORIENTATIONS = {"horizontal": "horizontal", "横向": "horizontal", "vertical": "vertical", "纵向": "vertical"}
LEADER_DIES = {"fight_on": "fight_on", "继续战斗": "fight_on", "return": "return", "回手": "return"}
STANDING_KEYS = {"leader_dies": "leader_dies", "队长死亡": "leader_dies", "squads": "squads", "小队": "squads",
                 "return": "return", "回手": "return", "suicide": "suicide", "自杀": "suicide"}
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
REF_KEYS = ("move", "attack", "full_attack", "defend", "leader", "suicide", "summon", "target", "by", "member")
NEW_ID_KEYS = ("id", "squad")
FORTRESS_WORDS = {"fortress": "fortress", "要塞": "fortress"}

# the line finder finds a canonical key under any of its spellings
yamlpos.register_aliases(TOP_KEYS, VERBS, FIELDS, STANDING_KEYS)


def id_problem(value: Any, table: dict[str, Any]) -> str | None:
    """The refusal code for a bad new id, or None (contract §3)."""
    if not isinstance(value, str) or not ID_RE.match(value):
        return "id.bad"
    if normal(value) == "fortress" or class_of(value) is not None:
        return "id.reserved"
    return None


@dataclass
class Orders:
    player: str
    turn: int
    actions: list[dict[str, Any]] = field(default_factory=list)
    standing: dict[str, Any] | None = None


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


class _Reader:
    def __init__(self, source: str, lang: str, state: dict[str, Any] | None = None, player: str | None = None):
        self.source, self.lang = source, lang
        self.problems: list[Problem] = []
        self.state, self.player = state, player
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

            from gm_tool.rulesets.guangying.model import piece_label

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

    def action(self, i: int, item: Any, base: str | None = None) -> dict[str, Any] | None:
        base = base or f"actions[{i}]"
        if not isinstance(item, dict):
            if isinstance(item, str) and "：" in item:
                self.add("guangying.sheet.colon", base, key=item)
            else:
                self.add("field.type", base, expected=self.words("mapping"), got=type(item).__name__)
            return None
        item = _mend_mapping(item)
        verbs = [k for k in item if isinstance(k, str) and (k in VERBS or normal(k) in VERBS)]
        if len(verbs) != 1:
            colons = [k for k in item if isinstance(k, str) and "：" in k]
            if colons:
                self.add("guangying.sheet.colon", f"{base}.{colons[0]}", key=colons[0])
            else:
                self.add("guangying.sheet.verb", base, allowed=_choices(VERBS))
            return None
        verb = VERBS.get(verbs[0]) or VERBS[normal(verbs[0])]
        rest = {k: v for k, v in item.items() if k != verbs[0]}
        written = {verb: verbs[0]}
        fields = self.keys(rest, {k: v for k, v in FIELDS.items() if v in ALLOWED_FIELDS[verb]}, base + ".", written)
        if any(isinstance(k, str) and "：" in k for k in rest):
            return None  # the colon is named; what it hid is not asked for again
        a: dict[str, Any] = {"verb": verb, verb: item[verbs[0]], **fields}
        a["written"] = written

        def f(key: str) -> str:
            return f"{base}.{written.get(key, key)}"

        ok = True
        for req in REQUIRED.get(verb, ()):
            if a.get(req) is None:
                self.add("field.required", f(req))
                ok = False
        if verb == "ability":
            name = _lookup(ABILITIES, a["ability"])
            if name is None:
                self.add("field.choice", f("ability"), value=a["ability"], allowed=_choices(ABILITIES))
                ok = False
            a["ability"] = name
            if "orientation" in a:
                o = _lookup(ORIENTATIONS, a["orientation"])
                if o is None:
                    self.add("field.choice", f("orientation"), value=a["orientation"], allowed=_choices(ORIENTATIONS))
                    ok = False
                a["orientation"] = o
            if "amount" in a and (not isinstance(a["amount"], int) or isinstance(a["amount"], bool)):
                self.add("field.type", f("amount"), expected=self.words("integer"), got=type(a["amount"]).__name__)
                ok = False
        if "at" in a:
            c = _cell(a["at"])
            if c is None:
                self.add("cell.bad", f("at"), value=a["at"], cols="A-J", rows=12)
                ok = False
            a["at"] = c
        if "path" in a:
            cells = self.cells(a["path"], f("path"))
            ok = ok and cells is not None
            a["path"] = cells
        for key in (*REF_KEYS, *NEW_ID_KEYS):
            if key in a and a[key] is not None:
                if not isinstance(_text(a[key]), str):
                    self.add("field.type", f(key), expected=self.words("string"), got=type(a[key]).__name__)
                    ok = False
                elif key in NEW_ID_KEYS and not (key == "squad" and verb not in ("summon", "split")):
                    a[key] = _text(a[key])
                else:
                    a[key] = self.ref(a[key])
        if verb in ("summon", "split") and isinstance(a.get("squad"), str):
            self.new_squads.add(a["squad"])
        for key in ("split", "return"):
            if key in a:
                v = a[key]
                if isinstance(v, list):
                    v = _mend_cells(v)
                if not (isinstance(v, str) or isinstance(v, list) and v and all(isinstance(x, str) for x in v)):
                    self.add("field.type", f(key), expected=self.words("strings"), got=type(v).__name__)
                    ok = False
                else:
                    a[key] = [self.ref(x) for x in v] if isinstance(v, list) else self.ref(v)
        return a if ok else None

    def standing(self, value: Any, base: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add("field.type", base, expected=self.words("mapping"), got=type(value).__name__)
            return None
        written: dict[str, str] = {}
        data = self.keys(value, STANDING_KEYS, base + ".", written)
        out: dict[str, Any] = {}

        def f(key: str) -> str:
            return f"{base}.{written.get(key, key)}"

        if "leader_dies" in data:
            c = _lookup(LEADER_DIES, data["leader_dies"])
            if c is None:
                self.add("field.choice", f("leader_dies"), value=data["leader_dies"], allowed=_choices(LEADER_DIES))
            else:
                out["leader_dies"] = c
        if "squads" in data:
            out["squads"] = self.standing_squads(data["squads"], f("squads"))
        for kind in ("return", "suicide"):
            if kind in data:
                out[kind] = self.standing_limits(data[kind], f(kind))
        return out

    def own(self) -> tuple[set[str], set[str]]:
        """The reader's squads and pieces (board and hand) in the state."""
        s = self.state or {"squads": [], "pieces": [], "players": []}
        squads = {q["id"] for q in s["squads"] if q["owner"] == self.player}
        pieces = {p["id"] for p in s["pieces"] if p["owner"] == self.player}
        for pl in s["players"]:
            if pl["player"] == self.player:
                pieces.update(h["id"] for h in pl["in_hand"])
        return squads, pieces

    def standing_squads(self, squads: Any, base: str) -> dict[str, str]:
        """Per-squad choices: only for a squad of the reader's on the board or formed by this sheet."""
        out: dict[str, str] = {}
        if squads is None:
            return out
        if not isinstance(squads, dict):
            self.add("field.type", base, expected=self.words("mapping"), got=type(squads).__name__)
            return out
        own, _ = self.own()
        for k in sorted(squads, key=str):
            c = _lookup(LEADER_DIES, squads[k])
            ref = self.ref(k)
            if c is None:
                self.add("field.choice", f"{base}.{k}", value=squads[k], allowed=_choices(LEADER_DIES))
            elif ref not in own and ref not in self.new_squads:
                self.add("guangying.sheet.standing_squad", f"{base}.{k}", value=k,
                         allowed=", ".join(sorted(own | self.new_squads)) or "-")
            else:
                out[ref] = c
        return out

    def standing_limits(self, limits: Any, base: str) -> dict[str, int]:
        """R35's standing 回手/自杀 orders: own piece -> the HP at or below which it is carried out."""
        out: dict[str, int] = {}
        if limits is None:
            return out
        if not isinstance(limits, dict):
            self.add("field.type", base, expected=self.words("mapping"), got=type(limits).__name__)
            return out
        _, pieces = self.own()
        for k in sorted(limits, key=str):
            v = limits[k]
            ref = self.ref(k)
            if ref not in pieces:
                self.add("guangying.sheet.standing_piece", f"{base}.{k}", value=k,
                         allowed=", ".join(sorted(pieces)) or "-")
            elif not isinstance(v, int) or isinstance(v, bool) or v < 1:
                self.add("field.range", f"{base}.{k}", value=v, allowed="1-")
            else:
                out[ref] = v
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


def read(state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str) -> Orders:
    """The sheet's structure read and checked, then every action checked on the board as the
    earlier ones left it had they gone as written; GmError listing every problem."""
    r = _Reader(source, lang, state)
    written: dict[str, str] = {}
    data = r.keys(sheet, TOP_KEYS, "", written)
    for req in ("turn", "player"):
        if req not in data:
            r.add("field.required", req)
    if r.problems:
        raise GmError(r.problems)
    due = state.get("next")
    player = _text(data["player"])
    if player != due:
        players = [p["player"] for p in state["players"]]
        code = "guangying.orders.not_due" if player in players else "player.unknown"
        raise GmError(Problem(code, source, written["player"], {"player": player, "due": due or "-",
                                                                 "allowed": ", ".join(players)}))
    r.player = due
    wrong = turn_problem(data["turn"], state["turn"] + 1, lang)
    if wrong is not None:
        raise GmError(Problem(wrong[0], source, written["turn"], wrong[1]))
    actions: list[dict[str, Any]] = []
    raw = data.get("actions")
    if raw is None:
        raw = []
    akey = written.get("actions", "actions")
    if not isinstance(raw, list):
        r.add("field.type", akey, expected=r.words("list"), got=type(raw).__name__)
        raw = []
    for i, item in enumerate(raw):
        a = r.action(i, item, f"{akey}[{i}]")
        if a is not None:
            a["index"] = i
            actions.append(a)
    standing = r.standing(data["standing"], written["standing"]) if data.get("standing") is not None else None
    if r.problems:
        raise GmError(r.problems)
    orders = Orders(player=due, turn=data["turn"], actions=actions, standing=standing)
    from gm_tool.rulesets.guangying.engine import play

    _, refused = play(state, orders, live=False)
    if refused:
        raise GmError([Problem("guangying.action." + ref.code, source, _field(akey, actions[i], ref.field),
                               ref.params) for i, ref in refused])
    return orders


def _field(akey: str, action: dict[str, Any], name: str | None) -> str:
    """An action's field in the words the sheet used: ``行动[2].路径[1]``."""
    base = f"{akey}[{action['index']}]"
    if not name:
        return base
    root, bracket, rest = name.partition("[")
    return f"{base}.{action.get('written', {}).get(root, root)}{bracket}{rest}"

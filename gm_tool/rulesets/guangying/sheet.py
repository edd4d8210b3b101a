"""Order sheets (contract §3): keys and values with the seed's wording as aliases, read into
:class:`Orders`, then checked by a placements-only run of the turn (contract §4)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.errors import GmError, Problem
from gm_tool.rulesets.guangying.data import class_aliases

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
STANDING_KEYS = {"leader_dies": "leader_dies", "队长死亡": "leader_dies", "squads": "squads", "小队": "squads"}
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def id_problem(value: Any, table: dict[str, Any]) -> str | None:
    """The refusal code for a bad new id, or None (contract §3)."""
    if not isinstance(value, str) or not ID_RE.match(value):
        return "id.bad"
    if value == "fortress" or value in class_aliases():
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


class _Reader:
    def __init__(self, source: str, lang: str):
        self.source, self.lang = source, lang
        self.problems: list[Problem] = []

    def add(self, code: str, field_: str | None, **params: Any) -> None:
        self.problems.append(Problem(code, self.source, field_, params))

    def keys(self, data: dict[str, Any], allowed: dict[str, str], path: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in data.items():
            name = allowed.get(key) if isinstance(key, str) else None
            if name is None:
                self.add("field.unknown", f"{path}{key}", allowed=", ".join(sorted(set(allowed.values()))))
            elif name in out:
                self.add("field.duplicate", f"{path}{key}", value=key)
            else:
                out[name] = value
        return out

    def cells(self, value: Any, f: str) -> list[str] | None:
        if isinstance(value, str) and _cell(value) is not None:
            value = [value]  # a one-step path written as a cell
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

    def action(self, i: int, item: Any) -> dict[str, Any] | None:
        base = f"actions[{i}]"
        if not isinstance(item, dict):
            self.add("field.type", base, expected="映射" if self.lang == "zh" else "mapping", got=type(item).__name__)
            return None
        verbs = [k for k in item if isinstance(k, str) and k in VERBS]
        if len(verbs) != 1:
            self.add("guangying.sheet.verb", base, allowed=", ".join(sorted(set(VERBS.values()))))
            return None
        verb = VERBS[verbs[0]]
        rest = {k: v for k, v in item.items() if k != verbs[0]}
        fields = self.keys(rest, {k: v for k, v in FIELDS.items() if v in ALLOWED_FIELDS[verb]}, base + ".")
        a: dict[str, Any] = {"verb": verb, verb: item[verbs[0]], **fields}
        ok = True
        for req in REQUIRED.get(verb, ()):
            if a.get(req) is None:
                self.add("field.required", f"{base}.{req}")
                ok = False
        if verb == "ability":
            name = ABILITIES.get(a["ability"]) if isinstance(a["ability"], str) else None
            if name is None:
                self.add("field.choice", f"{base}.ability", value=a["ability"],
                         allowed=", ".join(sorted(set(ABILITIES.values()))))
                ok = False
            a["ability"] = name
            if "orientation" in a:
                o = ORIENTATIONS.get(a["orientation"]) if isinstance(a["orientation"], str) else None
                if o is None:
                    self.add("field.choice", f"{base}.orientation", value=a["orientation"],
                             allowed="horizontal, vertical, 横向, 纵向")
                    ok = False
                a["orientation"] = o
            if "amount" in a and (not isinstance(a["amount"], int) or isinstance(a["amount"], bool)):
                self.add("field.type", f"{base}.amount", expected="整数" if self.lang == "zh" else "integer",
                         got=type(a["amount"]).__name__)
                ok = False
        if "at" in a:
            c = _cell(a["at"])
            if c is None:
                self.add("cell.bad", f"{base}.at", value=a["at"], cols="A-J", rows=12)
                ok = False
            a["at"] = c
        if "path" in a:
            cells = self.cells(a["path"], f"{base}.path")
            ok = ok and cells is not None
            a["path"] = cells
        for key in ("target", "by", "member", "id", "squad", "move", "attack", "full_attack", "defend",
                    "leader", "suicide", "summon"):
            if key in a and a[key] is not None and not isinstance(a[key], str):
                self.add("field.type", f"{base}.{key}", expected="字符串" if self.lang == "zh" else "string",
                         got=type(a[key]).__name__)
                ok = False
        for key in ("split", "return"):
            if key in a:
                v = a[key]
                if not (isinstance(v, str) or isinstance(v, list) and v and all(isinstance(x, str) for x in v)):
                    self.add("field.type", f"{base}.{key}", expected="字符串或列表" if self.lang == "zh" else
                             "string or list of strings", got=type(v).__name__)
                    ok = False
        return a if ok else None

    def standing(self, value: Any) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.add("field.type", "standing", expected="映射" if self.lang == "zh" else "mapping",
                     got=type(value).__name__)
            return None
        data = self.keys(value, STANDING_KEYS, "standing.")
        out: dict[str, Any] = {}
        if "squads" in data:
            out["squads"] = {}
        if "leader_dies" in data:
            c = LEADER_DIES.get(data["leader_dies"]) if isinstance(data["leader_dies"], str) else None
            if c is None:
                self.add("field.choice", "standing.leader_dies", value=data["leader_dies"],
                         allowed="fight_on, return, 继续战斗, 回手")
            if c:
                out["leader_dies"] = c
        squads = data.get("squads") or {}
        if not isinstance(squads, dict):
            self.add("field.type", "standing.squads", expected="映射" if self.lang == "zh" else "mapping",
                     got=type(squads).__name__)
            squads = {}
        for k in sorted(squads, key=str):
            c = LEADER_DIES.get(squads[k]) if isinstance(squads[k], str) else None
            if c is None or not isinstance(k, str):
                self.add("field.choice", f"standing.squads.{k}", value=squads[k], allowed="fight_on, return, 继续战斗, 回手")
            else:
                out["squads"][k] = c
        return out


def read(state: dict[str, Any], sheet: dict[str, Any], source: str, lang: str) -> Orders:
    """The sheet's structure read and checked, then every action checked on the board as the
    earlier ones left it had they gone as written; GmError listing every problem."""
    r = _Reader(source, lang)
    data = r.keys(sheet, TOP_KEYS, "")
    for req in ("turn", "player"):
        if req not in data:
            r.add("field.required", req)
    if r.problems:
        raise GmError(r.problems)
    due = state.get("next")
    if data["player"] != due:
        players = [p["player"] for p in state["players"]]
        code = "guangying.orders.not_due" if data["player"] in players else "player.unknown"
        raise GmError(Problem(code, source, "player", {"player": data["player"], "due": due or "-",
                                                          "allowed": ", ".join(players)}))
    turn = data["turn"]
    if turn != state["turn"] + 1 or isinstance(turn, bool):
        raise GmError(Problem("orders.turn", source, "turn", {"got": turn, "expected": state["turn"] + 1}))
    actions: list[dict[str, Any]] = []
    raw = data.get("actions")
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        r.add("field.type", "actions", expected="列表" if lang == "zh" else "list", got=type(raw).__name__)
        raw = []
    for i, item in enumerate(raw):
        a = r.action(i, item)
        if a is not None:
            a["index"] = i
            actions.append(a)
    standing = r.standing(data["standing"]) if data.get("standing") is not None else None
    if r.problems:
        raise GmError(r.problems)
    orders = Orders(player=due, turn=turn, actions=actions, standing=standing)
    from gm_tool.rulesets.guangying.engine import play

    _, refused = play(state, orders, live=False)
    if refused:
        raise GmError([Problem("guangying.action." + ref.code, source,
                               f"actions[{actions[i]['index']}]" + (f".{ref.field}" if ref.field else ""),
                               ref.params) for i, ref in refused])
    return orders

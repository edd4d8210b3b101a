"""Order sheets (contract §3): keys and values with the seed's wording as aliases, read into
:class:`Orders`, then checked by a placements-only run of the turn (contract §4).

What a player types is met half-way, as cells are: keys and names in any case, full-width or
traditional characters, with spaces around (:func:`~.data.normal`); ids and squad labels in any
case; a cell written ``(D,3)`` inside a flow mapping (which YAML splits at the comma) joined
back. Problems name the field in the words the sheet used (``行动[2].位置``), so they are found on
their line.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.schema import turn_problem
from gm_tool.errors import GmError, Problem
from gm_tool.rulesets.guangying.actions import ACTIONS, GyKind
from gm_tool.rulesets.guangying.data import normal
from gm_tool.rulesets.guangying.orders import STANDING_KEYS, TOP_KEYS, VERBS, Orders
from gm_tool.rulesets.guangying.reading import (
    LEADER_DIES,
    SheetReader,
    _choices,
    _lookup,
    _mend_mapping,
    _text,
)


class _Reader(SheetReader):
    """A sheet's reader: its actions (each read by the kind its key names) and standing orders."""

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
        kind = ACTIONS.kinds[verb]
        assert isinstance(kind, GyKind)
        rest = {k: v for k, v in item.items() if k != verbs[0]}
        written = {verb: verbs[0]}
        fields = self.keys(rest, kind.spellings(), base + ".", written)
        if any(isinstance(k, str) and "：" in k for k in rest):
            return None  # the colon is named; what it hid is not asked for again
        a: dict[str, Any] = {"verb": verb, verb: item[verbs[0]], **fields}
        a["written"] = written
        return kind.read(a[verb], a, self, base)

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

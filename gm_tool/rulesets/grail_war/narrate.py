"""Events told as sentences, in the post's language, grouped into the sections of a post.

One entry per event type in ``SENTENCES``; an event type without an entry is told generically,
so a new event type never breaks a post and needs no template change. A module that emits new
events registers their sentences with :func:`register`; an entry may also name the section
its event opens (``"section": "fight"``), e.g. a new event that starts a fight.

Sections: the log is read in order; an event whose type opens a section (``SECTIONS``) starts a
new one when the current section is of another kind (a ``fight`` event always starts a new
one); every other event joins the current section. So everything a fight emits after its
``fight`` event (blows, damage, rescues, deaths, the draw after it) is told inside that fight,
blow by blow, whatever its type. Sections are cut on the GM's full log, then each post keeps the
events its reader may know.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.deck import Card
from gm_tool.core.events import visible_to
from gm_tool.core.render import Markup

SENTENCES: dict[str, dict[str, str]] = {
    "step": {"zh": "{character} 从 {start} 移动到 {end}。", "en": "{character} moves from {start} to {end}."},
    "teleport": {"zh": "{character} 从 {start} 瞬移到 {end}。", "en": "{character} teleports from {start} to {end}."},
    "blocked": {"zh": "{character} 无法进入 {cell}（格子已满），停下。", "en": "{character} cannot enter {cell} (full) and stops."},
    "fight": {"zh": "{cell} 爆发战斗：{fighters}。", "en": "A fight breaks out in {cell}: {fighters}."},
    "draw": {"zh": "{character} 摸了 {n} 张牌：{cards}。", "en": "{character} draws {n}: {cards}."},
    "discard": {"zh": "{character} 弃牌至手牌上限 {limit}：{cards}。", "en": "{character} discards down to {limit}: {cards}."},
    "capture": {"zh": "{side} 占领了据点 {stronghold}「{name}」（{cell}，领土 {territory} 格）。",
                "en": "{side} takes stronghold {stronghold} {name} ({cell}, {territory} cells of territory)."},
    "stronghold_card": {"zh": "{character} 从据点 {stronghold} 获得手牌：{cards}。", "en": "{character} gets a card from stronghold {stronghold}: {cards}."},
    "stronghold_equipment": {"zh": "{character} 从据点 {stronghold} 获得装备{card}。", "en": "{character} gets equipment {card} from stronghold {stronghold}."},
    "stronghold_heal": {"zh": "{character} 在据点 {stronghold} 回复 1 点体力（现为 {hp}）。", "en": "{character} heals 1 at stronghold {stronghold} (now {hp})."},
    "victory": {"zh": "游戏结束，胜者：{winner}。", "en": "The game is over. Winner: {winner}."},
}

# event type -> the kind of section it opens
SECTIONS: dict[str, str] = {
    "step": "move", "teleport": "move", "blocked": "move", "fight": "fight",
    "capture": "stronghold", "stronghold_card": "stronghold", "stronghold_equipment": "stronghold",
    "stronghold_heal": "stronghold", "victory": "end",
}
# never told (the turn marker; chance draws are the GM's)
SILENT: set[str] = {"turn", "chance"}

TITLES = {
    "zh": {"limit": "手牌上限", "move": "移动", "fight": "战斗", "fight_at": "{cell} 的战斗", "stronghold": "据点动态",
           "end": "结局", "other": "其他"},
    "en": {"limit": "Hand limit", "move": "Movement", "fight": "Fight", "fight_at": "Fight in {cell}",
           "stronghold": "Stronghold events", "end": "The end", "other": "Other"},
}
SIDE_NAMES = {"zh": {"red": "红方", "blue": "蓝方", "draw": "平局"}, "en": {"red": "Red", "blue": "Blue", "draw": "a draw"}}

_CHAR_KEYS = ("character", "source", "target", "by", "attacker", "defender", "victim", "killer", "user", "saver")
_CHAR_LIST_KEYS = ("fighters", "characters", "targets")
_SIDE_KEYS = ("side", "winner", "owner")
_SKIP = ("seq", "type", "to", "actors", "cells", "told_apart")


def register(entries: dict[str, dict[str, str]]) -> None:
    """Add or replace sentences: ``{type: {"zh": ..., "en": ..., "section": kind (optional),
    "silent": True (optional: never told)}}``. Placeholders are the event's keys (``{character}``
    is the character's name in bold, ``{cards}`` the card labels, ``{n}`` their count)."""
    for type_, entry in entries.items():
        entry = dict(entry)
        section = entry.pop("section", None)
        if section:
            SECTIONS[type_] = str(section)
        if entry.pop("silent", False):
            SILENT.add(type_)
        if entry:
            SENTENCES[type_] = entry


def side_name(side: Any, lang: str) -> str:
    return SIDE_NAMES.get(lang, {}).get(side, str(side))


def _card_label(value: Any) -> str:
    if isinstance(value, dict) and "name" in value:
        return Card(value.get("id", 0), value["name"], value.get("suit"), value.get("rank")).label
    return str(value)


def _cards(value: Any, m: Markup, sep: str = "、") -> str:
    if isinstance(value, list):
        return sep.join(f"【{m.esc(_card_label(c))}】" for c in value) or "—"
    return f"【{m.esc(_card_label(value))}】"


def _is_card(value: Any) -> bool:
    return isinstance(value, dict) and "name" in value and ("suit" in value or "rank" in value)


class Teller:
    """Tells events for one post: display names, language and markup are fixed."""

    def __init__(self, names: dict[str, str], lang: str, m: Markup) -> None:
        self.names, self.lang, self.m = names, lang, m
        self.sep = "、" if lang == "zh" else ", "

    def _name(self, value: Any) -> str:
        return self.m.b(self.names.get(value, value))

    def params(self, event: dict[str, Any]) -> dict[str, Any]:
        m, names = self.m, self.names
        params: dict[str, Any] = {}
        for key, value in event.items():
            if key in _SKIP:
                continue
            if key in _CHAR_KEYS and isinstance(value, str) or isinstance(value, str) and value in names:
                params[key] = self._name(value)
            elif isinstance(value, list) and value and all(isinstance(v, str) and v in names for v in value) \
                    or key in _CHAR_LIST_KEYS and isinstance(value, list):
                params[key] = self.sep.join(self._name(v) for v in value)
            elif key == "cards" or key.endswith("_cards"):
                params[key] = _cards(value, m, self.sep)
                params["n"] = len(value) if isinstance(value, list) else 1
                via = event.get("via") if key == "cards" else None
                if isinstance(via, str) and via:  # played through an equipment (正式外典, 月灵髓液, ...)
                    params[key] = (f"【{m.esc(via)}】" if not value else
                                   f"{params[key]}（{m.esc(via)}）" if self.lang == "zh" else f"{params[key]} ({m.esc(via)})")
            elif key == "card" or key.endswith("_card") or _is_card(value):
                params[key] = _cards(value, m, self.sep) if value is not None else "—"
            elif key in _SIDE_KEYS and isinstance(value, str):
                params[key] = m.esc(side_name(value, self.lang))
            elif isinstance(value, list):
                params[key] = m.esc(self.sep.join(_card_label(v) for v in value))
            elif isinstance(value, dict):
                params[key] = m.esc(self.sep.join(f"{side_name(k, self.lang)} {v}" for k, v in value.items()))
            elif isinstance(value, bool):
                params[key] = ("是" if value else "否") if self.lang == "zh" else ("yes" if value else "no")
            else:
                params[key] = m.esc(value)
        return params

    def sentence(self, event: dict[str, Any]) -> str:
        params = self.params(event)
        entry = SENTENCES.get(event["type"])
        if entry is not None:
            try:
                return entry.get(self.lang, entry.get("en", "")).format(**params)
            except (KeyError, IndexError, ValueError):
                pass
        return self.generic(event["type"], params)

    def generic(self, type_: str, params: dict[str, Any]) -> str:
        """An event nobody wrote a sentence for: its type and its values, all escaped."""
        body = "，".join(f"{self.m.esc(k)} {v}" for k, v in params.items())
        return f"〔{self.m.esc(type_)}〕{body}"

    def title(self, kind: str, head: dict[str, Any] | None) -> str:
        """A section's title, as plain text (the template escapes it)."""
        t = TITLES.get(self.lang, TITLES["en"])
        if kind == "fight" and head is not None and head.get("cell"):
            return t["fight_at"].format(cell=head["cell"])
        return t.get(kind, t["other"])


def sections(events: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Cut the GM's full log into sections: ``[(kind, [events...]), ...]`` (silent events dropped)."""
    out: list[tuple[str, list[dict[str, Any]]]] = []
    for e in events:
        if e["type"] in SILENT:
            continue
        kind = SECTIONS.get(e["type"])
        if kind is None and e["type"] == "discard" and e.get("reason") == "hand_limit":
            kind = "limit"
        if kind is not None and (not out or kind == "fight" or out[-1][0] != kind):
            out.append((kind, [e]))
        elif out:
            out[-1][1].append(e)
        else:
            out.append(("other", [e]))
    return out


def story(events: list[dict[str, Any]], teller: Teller, player: str | None, public: bool = False,
          cut: list[tuple[str, list[dict[str, Any]]]] | None = None) -> list[dict[str, Any]]:
    """The sections a reader may know, told: ``[{"kind", "title", "lines"}]``. ``public`` keeps only
    public events; otherwise the events ``player`` may know (``None``: the GM, everything).
    ``cut`` is ``sections(events)`` when the caller already has it."""
    told = []
    for kind, group in (sections(events) if cut is None else cut):
        seen = [e for e in group if (e["to"] == "all" if public else visible_to(e, player))]
        if not seen:
            continue
        head = group[0] if group[0] in seen and SECTIONS.get(group[0]["type"]) == kind else None
        told.append({"kind": kind, "title": teller.title(kind, head), "lines": [teller.sentence(e) for e in seen]})
    return told


def sentence(event: dict[str, Any], names: dict[str, str], lang: str, m: Markup) -> str:
    """One event as a sentence; ``names`` maps character ids to display names."""
    return Teller(names, lang, m).sentence(event)

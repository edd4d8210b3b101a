"""The grail war's narration: its sentences, sections and titles on the core's Narration, and
a Teller that prints cards in 【】 and sides by name.

Sections (see :mod:`gm_tool.core.narrate`): a ``fight`` event always starts a new section, so
everything a fight emits after it (blows, damage, rescues, deaths, the draw after it) is told
inside that fight, blow by blow, whatever its type; a discard down to the hand limit opens the
``limit`` section.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core import narrate as core
from gm_tool.core.deck import Card
from gm_tool.core.render import Markup

SENTENCES: dict[str, dict[str, str]] = {
    "step": {"zh": "{character} 从 {start} 移动到 {end}。", "en": "{character} moves from {start} to {end}."},
    "teleport": {"zh": "{character} 从 {start} 瞬移到 {end}。", "en": "{character} teleports from {start} to {end}."},
    "blocked": {"zh": "{character} 无法进入 {cell}（格子已满），停下。", "en": "{character} cannot enter {cell} (full) and stops."},
    # a blocked event with reason enemy (two enemies stepping into each other's cells), told apart
    "blocked_enemy": {"zh": "{character} 与迎面而来的敌人互相阻挡，未能进入 {cell}，停下。",
                      "en": "{character} and an enemy coming the other way bar each other: {character} does not enter {cell} and stops."},
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


class _Narration(core.Narration):
    def section_of(self, event: dict[str, Any]) -> str | None:
        kind = self.opens.get(event["type"])
        if kind is None and event["type"] == "discard" and event.get("reason") == "hand_limit":
            return "limit"
        return kind


NARRATION = _Narration(TITLES, silent=SILENT, always_new=("fight",))
NARRATION.register({t: {**entry, **({"section": SECTIONS[t]} if t in SECTIONS else {})} for t, entry in SENTENCES.items()})
NARRATION.register({t: {"section": kind} for t, kind in SECTIONS.items() if t not in SENTENCES})
register = NARRATION.register


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


class Teller(core.Teller):
    """Tells the grail war's events: characters by name, cards in 【】, sides by name."""

    name_keys = _CHAR_KEYS
    name_list_keys = _CHAR_LIST_KEYS

    def __init__(self, names: dict[str, str], lang: str, m: Markup) -> None:
        super().__init__(NARRATION, names, lang, m)

    def value(self, key: str, value: Any, event: dict[str, Any], params: dict[str, Any]) -> str | None:
        m = self.m
        if key == "cards" or key.endswith("_cards"):
            text = _cards(value, m, self.sep)
            params["n"] = len(value) if isinstance(value, list) else 1
            via = event.get("via") if key == "cards" else None
            if isinstance(via, str) and via:  # played through an equipment (正式外典, 月灵髓液, ...)
                text = (f"【{m.esc(via)}】" if not value else
                        f"{text}（{m.esc(via)}）" if self.lang == "zh" else f"{text} ({m.esc(via)})")
            return text
        if key == "card" or key.endswith("_card") or _is_card(value):
            return _cards(value, m, self.sep) if value is not None else "—"
        if key in _SIDE_KEYS and isinstance(value, str):
            return m.esc(side_name(value, self.lang))
        if isinstance(value, list):
            return m.esc(self.sep.join(_card_label(v) for v in value))
        if isinstance(value, dict):
            return m.esc(self.sep.join(f"{side_name(k, self.lang)} {v}" for k, v in value.items()))
        return None

    def sentence(self, event: dict[str, Any]) -> str:
        if event["type"] == "blocked" and event.get("reason") == "enemy":  # not "(full)": ruling O7
            event = {**event, "type": "blocked_enemy"}
        return super().sentence(event)

    def title(self, kind: str, head: dict[str, Any] | None) -> str:
        if kind == "fight" and head is not None and head.get("cell"):
            t = self.narration.titles.get(self.lang) or self.narration.titles["en"]
            return t["fight_at"].format(cell=head["cell"])
        return super().title(kind, head)


def sections(events: list[dict[str, Any]]) -> list[core.Section]:
    return NARRATION.sections(events)


def story(events: list[dict[str, Any]], teller: Teller, player: str | None, public: bool = False,
          cut: list[core.Section] | None = None) -> list[dict[str, Any]]:
    return NARRATION.story(events, teller, player, public, cut)


def sentence(event: dict[str, Any], names: dict[str, str], lang: str, m: Markup) -> str:
    """One event as a sentence; ``names`` maps character ids to display names."""
    return Teller(names, lang, m).sentence(event)

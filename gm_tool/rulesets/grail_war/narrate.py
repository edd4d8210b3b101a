"""Events told as sentences, in the post's language. One entry per event type; an event type
without an entry is told generically, so a new event never breaks a post."""

from __future__ import annotations

from typing import Any

from gm_tool.core.deck import Card
from gm_tool.core.render import Markup

SENTENCES: dict[str, dict[str, str]] = {
    "turn": {"zh": "第 {turn} 回合开始。", "en": "Turn {turn} begins."},
    "step": {"zh": "{character} 从 {start} 移动到 {end}。", "en": "{character} moves from {start} to {end}."},
    "teleport": {"zh": "{character} 从 {start} 瞬移到 {end}。", "en": "{character} teleports from {start} to {end}."},
    "blocked": {"zh": "{character} 无法进入 {cell}（格子已满），停下。", "en": "{character} cannot enter {cell} (full) and stops."},
    "fight": {"zh": "{cell} 爆发战斗：{fighters}。", "en": "A fight breaks out in {cell}: {fighters}."},
    "draw": {"zh": "{character} 摸了 {n} 张牌：{cards}。", "en": "{character} draws {n}: {cards}."},
    "discard": {"zh": "{character} 弃到手牌上限 {limit}：{cards}。", "en": "{character} discards down to {limit}: {cards}."},
    "capture": {"zh": "{side} 占领了据点 {stronghold}「{name}」（{cell}，领土 {territory} 格）。",
                "en": "{side} takes stronghold {stronghold} {name} ({cell}, {territory} cells of territory)."},
    "stronghold_card": {"zh": "{character} 从据点 {stronghold} 获得手牌：{cards}。", "en": "{character} gets a card from stronghold {stronghold}: {cards}."},
    "stronghold_equipment": {"zh": "{character} 从据点 {stronghold} 获得装备【{card}】。", "en": "{character} gets equipment 【{card}】 from stronghold {stronghold}."},
    "stronghold_heal": {"zh": "{character} 在据点 {stronghold} 回复 1 点体力（现为 {hp}）。", "en": "{character} heals 1 at stronghold {stronghold} (now {hp})."},
    "victory": {"zh": "游戏结束，胜者：{winner}。", "en": "The game is over. Winner: {winner}."},
}


def register(entries: dict[str, dict[str, str]]) -> None:
    SENTENCES.update(entries)


def _cards(value: Any, m: Markup) -> str:
    if isinstance(value, list):
        return "、".join(m.esc(Card.from_dict(c).label if isinstance(c, dict) else c) for c in value) or "—"
    return m.esc(value)


def sentence(event: dict[str, Any], names: dict[str, str], lang: str, m: Markup) -> str:
    """One event as a sentence; ``names`` maps character ids to display names."""
    params: dict[str, Any] = {}
    for key, value in event.items():
        if key in ("seq", "type", "to", "actors", "cells"):
            continue
        if key in ("character", "source", "target", "by") and isinstance(value, str):
            params[key] = m.b(names.get(value, value))
        elif key in ("fighters", "characters", "targets") and isinstance(value, list):
            params[key] = "、".join(m.b(names.get(v, v)) for v in value)
        elif key == "cards" or key.endswith("_cards"):
            params[key] = _cards(value, m)
            params["n"] = len(value) if isinstance(value, list) else 1
        else:
            params[key] = m.esc(value) if not isinstance(value, (dict, list)) else m.esc(value)
    entry = SENTENCES.get(event["type"])
    if entry is None:
        return m.esc(event["type"]) + ": " + ", ".join(f"{k}={v}" for k, v in params.items())
    try:
        return entry.get(lang, entry["en"]).format(**params)
    except (KeyError, IndexError):
        return m.esc(event["type"]) + ": " + ", ".join(f"{k}={v}" for k, v in params.items())

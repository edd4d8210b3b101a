"""The grail war's narration: its sentences, sections and titles on the core's Narration, and
a Teller that prints cards in 【】 and sides by name.

Sections (see :mod:`gm_tool.core.narrate`): a ``fight`` event always starts a new section, so
everything a fight emits after it (blows, damage, rescues, deaths, the draw after it) is told
inside that fight, blow by blow, whatever its type; a discard down to the hand limit opens the
``limit`` section.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from gm_tool.core import narrate as core
from gm_tool.core.deck import Card
from gm_tool.core.render import Markup, display_name
from gm_tool.rulesets.grail_war.words import labels, texts

_CHAR_KEYS = ("character", "source", "target", "by", "attacker", "defender", "victim", "killer", "user", "saver")
_CHAR_LIST_KEYS = ("fighters", "characters", "targets")
_SIDE_KEYS = ("side", "winner", "owner")


class _Narration(core.Narration):
    def section_of(self, event: dict[str, Any]) -> str | None:
        kind = self.opens.get(event["type"])
        if kind is None and event["type"] == "discard" and event.get("reason") == "hand_limit":
            return "limit"
        return kind

    def lines(self, kind: str, seen: list[dict[str, Any]], teller: core.Teller) -> list[str]:
        """Movement per character (``A: D5→D6→D7``, then why it stopped) and a death in one
        line (ruling P7); other sections one sentence per event."""
        if kind == "move" and isinstance(teller, Teller):
            return teller.movement(seen, teller.gone)
        out: list[str] = []
        for i, e in enumerate(seen):
            if e["type"] == "death" and i > 0 and any(
                    p["type"] == "killed" and p.get("character") == e.get("character") for p in seen[:i]):
                continue  # told with the fall, in one line
            if e["type"] == "killed" and any(n["type"] == "death" and n.get("character") == e.get("character")
                                             for n in seen[i + 1:]):
                e = {**e, "type": "killed_dead"}
            out.append(teller.sentence(e))
        return out


@functools.cache
def narration() -> _Narration:
    """The sentences, sections and titles of data/messages.yaml (read once): a fight always
    opens a section of its own, so everything it emits is told inside it, blow by blow."""
    words = texts()
    told = _Narration(words.titles, silent=("chance",), always_new=("fight",))
    told.register(words.narration_entries)
    return told


def side_name(side: Any, lang: str) -> str:
    return str(labels(lang)["sides"].get(side, side))


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

    def __init__(self, names: dict[str, str], lang: str, m: Markup, told: core.Narration | None = None) -> None:
        super().__init__(told or narration(), names, lang, m)
        self.gone: set[str] = set()  # living characters the post's reader no longer sees
        self.words = labels(lang)

    def value(self, key: str, value: Any, event: dict[str, Any], params: dict[str, Any]) -> str | None:
        m = self.m
        if key == "cards" or key.endswith("_cards"):
            text = _cards(value, m, self.sep)
            params["n"] = len(value) if isinstance(value, list) else 1
            via = event.get("via") if key == "cards" else None
            if isinstance(via, str) and via:  # played through an equipment (正式外典, 月灵髓液, ...)
                text = f"【{m.esc(via)}】" if not value else self.words["teller"]["via"].format(cards=text, via=m.esc(via))
            return text
        if key == "card" or key.endswith("_card") or _is_card(value):
            return _cards(value, m, self.sep) if value is not None else "—"
        if key in ("new_player", "old_player") and isinstance(value, str):  # players by their forum name
            return m.b(display_name(value))  # (one who no longer plays too)
        if key == "reason" and isinstance(value, str) and value in self.words["reasons"]:
            return m.esc(self.words["reasons"][value].format(card=_card_label(event.get("card") or "")))
        if key == "pattern" and isinstance(value, str):
            return m.esc(pattern_text(value, self.lang))
        if key in ("against", "reserved_for", "higher") and isinstance(value, str):
            return m.esc(self.words["against"].get(value, value))
        if key in _SIDE_KEYS and isinstance(value, str):
            return m.esc(side_name(value, self.lang))
        if isinstance(value, list):
            return m.esc(self.sep.join(_card_label(v) for v in value))
        if isinstance(value, dict):
            return m.esc(self.sep.join(f"{side_name(k, self.lang)} {v}" for k, v in value.items()))
        return None

    def sentence(self, event: dict[str, Any]) -> str:
        return super().sentence(natural(event))

    def movement(self, seen: list[dict[str, Any]], gone: Collection[str] = frozenset()) -> list[str]:
        """The movement section, one line per character in the order each first moved: its path
        (``D5→D6→D7``; a stretch the reader did not see is ``…``), then a teleport or why it
        stopped, and "out of sight" for one in ``gone`` (living, not seen at the end of the turn:
        an ally walking away is still accounted for). Other events keep their own sentences."""
        order: list[str] = []
        walks: dict[str, list[list[str]]] = {}  # per character: runs of cells seen in a row
        tails: dict[str, list[str]] = {}
        other: list[str] = []
        for e in seen:
            who = e.get("character")
            if e["type"] not in ("step", "teleport", "blocked") or not isinstance(who, str):
                other.append(self.sentence(e))
                continue
            if who not in walks:
                order.append(who)
                walks[who], tails[who] = [], []
            runs = walks[who]
            if e["type"] == "step":
                if not runs or runs[-1][-1] != e["start"]:
                    runs.append([e["start"]])
                runs[-1].append(e["end"])
            elif e["type"] == "teleport":
                tails[who].append(self.sentence(e).rstrip("。."))
            else:
                if not runs and e.get("cells"):
                    runs.append([e["cells"][0]])
                tails[who].append(self.stop(e))
        t = self.words["teller"]
        lines = []
        for who in order:
            walk = "…".join("→".join(self.m.esc(c) for c in run) for run in walks[who])
            parts = ([self.name(who) + t["colon"] + walk] if walk else []) + tails[who]
            if who in gone:
                parts.append(t["gone"])
            lines.append(t["comma"].join(parts) + t["stop"])
        return lines + other

    def stop(self, e: dict[str, Any]) -> str:
        """Why a walk stopped, as the tail of its line (the cell it could not enter)."""
        cell = self.m.esc(e.get("cell", "?"))
        t = self.words["teller"]
        return (t["stop_enemy"] if e.get("reason") == "enemy" else t["stop_full"]).format(cell=cell)  # ruling O7

    def title(self, kind: str, head: dict[str, Any] | None) -> str:
        if kind == "fight" and head is not None and head.get("cell"):
            t = self.narration.titles.get(self.lang) or self.narration.titles["en"]
            return t["fight_at"].format(cell=head["cell"])
        return super().title(kind, head)


def pattern_text(pattern: str, lang: str) -> str:
    """A judgement pattern (``red``, ``!hearts``...) in words."""
    words = labels(lang)
    if pattern.startswith("!"):
        return str(words["teller"]["not"].format(pattern=words["patterns"].get(pattern[1:], pattern[1:])))
    return str(words["patterns"].get(pattern, pattern))


def natural(event: dict[str, Any]) -> dict[str, Any]:
    """The event to tell in place of ``event`` where its own sentence would read unnaturally:
    a blocked step against an enemy (ruling O7), a card played as itself, a rescue of oneself, a
    judgement with its outcome (ruling P7)."""
    t = event["type"]
    if t == "blocked" and event.get("reason") == "enemy":
        return {**event, "type": "blocked_enemy"}
    if t == "respond" and not event.get("via") and event.get("cards") and \
            all(isinstance(c, dict) and c.get("name") == event.get("need") for c in event["cards"]):
        return {**event, "type": "respond_plain"}
    if t == "strike" and not event.get("via") and event.get("cards") and event.get("targets"):
        return {**event, "type": "strike_plain"}
    if t == "magic" and event.get("targets"):
        return {**event, "type": "magic_plain"}
    if t == "curse":
        return {**event, "type": "curse_plain"}
    if t == "rescue" and event.get("by") == event.get("character"):
        return {**event, "type": "rescue_self"}
    if t == "judge":
        kind = "judge_empty" if event.get("card") is None else "judge_yes" if event.get("result") else "judge_no"
        pattern = event.get("pattern")
        if kind == "judge_no" and isinstance(pattern, str) and pattern.startswith("!"):  # not "not clubs": clubs
            return {**event, "type": "judge_is", "pattern": pattern[1:]}
        return {**event, "type": kind}
    return event


def sections(events: list[dict[str, Any]]) -> list[core.Section]:
    return narration().sections(events)


def story(events: list[dict[str, Any]], teller: Teller, player: str | None, public: bool = False,
          cut: list[core.Section] | None = None, gone: set[str] | None = None) -> list[dict[str, Any]]:
    """The sections ``player`` may know, told; ``gone``: characters the reader no longer sees."""
    teller.gone = set(gone or ())
    if public:
        cut = _public_cut(cut if cut is not None else sections(events))
    return narration().story(events, teller, player, public, cut)


def _public_cut(cut: list[core.Section]) -> list[core.Section]:
    """The public post groups nothing by fight (ruling P1, issue 23): which fighters share a cell
    is known only to who sees it. A fight's public events leave its section: its deaths are told
    by the post's list of the fallen, anything else public in one section after the others, in
    the order it happened."""
    kept: list[core.Section] = []
    loose: list[dict[str, Any]] = []
    for kind, group in cut:
        if kind == "fight":
            loose.extend(e for e in group if e["type"] != "death")
        else:
            kept.append((kind, group))
    if loose:
        kept.append(("other", loose))
    return kept


def sentence(event: dict[str, Any], names: dict[str, str], lang: str, m: Markup) -> str:
    """One event as a sentence; ``names`` maps character ids to display names."""
    return Teller(names, lang, m).sentence(event)

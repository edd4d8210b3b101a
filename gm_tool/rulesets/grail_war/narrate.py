"""The grail war's narration: its sentences, sections and titles on the core's Narration, and
a Teller that prints cards in 【】 and sides by name.

Sections (see :mod:`gm_tool.core.narrate`): a ``fight`` event always starts a new section, so
everything a fight emits after it (blows, damage, rescues, deaths, the draw after it) is told
inside that fight, blow by blow, whatever its type; a discard down to the hand limit opens the
``limit`` section.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from gm_tool.core import narrate as core
from gm_tool.core.deck import Card
from gm_tool.core.render import Markup, display_name

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
# (type, zh, en): a BERSERKER's destruction; then the sentences told in place of another event's
# when that one would read unnaturally (ruling P7); then why a card was not played or was spent
# where it was (the combat engine's choices, ruling P8)
_PLAIN: tuple[tuple[str, str, str], ...] = (
    ("destroyed", "{character} 摧毁了据点 {stronghold}「{name}」（{cell}）。",
     "{character} destroys stronghold {stronghold} {name} ({cell})."),
    ("respond_plain", "{character} 打出{cards}。", "{character} plays {cards}."),
    ("rescue_self", "{character} 对自己使用{card}，体力回复至 {hp}。", "{character} uses {card} on themself and is back to {hp} HP."),
    ("killed_dead", "{character} 阵亡，手牌与装备离场。", "{character} dies; their cards leave play."),
    ("judge_yes", "{character} 因【{reason}】判定：{card}，{pattern}，判定成立。",
     "{character} judges for 【{reason}】: {card}, {pattern}: it succeeds."),
    ("judge_no", "{character} 因【{reason}】判定：{card}，不是{pattern}，判定不成立，没有效果。",
     "{character} judges for 【{reason}】: {card}, not {pattern}: it fails and has no effect."),
    ("judge_is", "{character} 因【{reason}】判定：{card}，是{pattern}，判定不成立，没有效果。",
     "{character} judges for 【{reason}】: {card}, {pattern}: it fails and has no effect."),
    ("judge_empty", "{character} 因【{reason}】判定，但牌堆已空，判定不成立，没有效果。",
     "{character} judges for 【{reason}】 but the deck is empty: it fails and has no effect."),
    ("held_back", "{character} 保留{cards}以应对优先级更高的{reserved_for}，这次不打出。",
     "{character} keeps {cards} back for {reserved_for}, ranked higher, and does not play it here."),
    ("spent_lower", "{character} 在{against}上打出{cards}：排在前面的{higher}本场不会再发生。",
     "{character} spends {cards} on {against}: {higher}, ranked higher, will not come this fight."),
    ("strike_plain", "{character} 对 {targets} 使用{cards}。", "{character} uses {cards} on {targets}."),
    ("magic_plain", "{character} 对 {targets} 使用{card}。", "{character} plays {card} on {targets}."),
    ("curse_plain", "{character} 使用{card}：本回合下一张【杀】伤害 +1。", "{character} uses {card}: their next 杀 this turn deals +1."),
    ("not_played", "{character} 没有可打出的【{need}】（应对{against}）。", "{character} has no 【{need}】 to play (against {against})."),
    ("not_set", "{character} 未设置应对{against}的【{need}】（出杀/出闪顺序里没有这一项），这次不打出。",
     "{character} has set no 【{need}】 against {against} (no such line in the 出杀/出闪 order) and plays none."),
)
SENTENCES.update({t: {"zh": zh, "en": en} for t, zh, en in _PLAIN})

# event type -> the kind of section it opens
SECTIONS: dict[str, str] = {
    "step": "move", "teleport": "move", "blocked": "move", "fight": "fight",
    "capture": "stronghold", "stronghold_card": "stronghold", "stronghold_equipment": "stronghold",
    "stronghold_heal": "stronghold", "destroyed": "stronghold", "victory": "end",
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
        self.gone: set[str] = set()  # living characters the post's reader no longer sees

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
        if key in ("new_player", "old_player") and isinstance(value, str):  # players by their forum name
            return m.esc(display_name(value))
        if key == "reason" and isinstance(value, str) and value in REASONS:
            return m.esc(REASONS[value][self.lang if self.lang in REASONS[value] else "en"].format(
                card=_card_label(event.get("card") or "")))
        if key == "pattern" and isinstance(value, str):
            return m.esc(pattern_text(value, self.lang))
        if key in ("against", "reserved_for", "higher") and isinstance(value, str):
            return m.esc(AGAINST.get(self.lang, AGAINST["en"]).get(value, value))
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
        zh = self.lang == "zh"
        lines = []
        for who in order:
            walk = "…".join("→".join(self.m.esc(c) for c in run) for run in walks[who])
            parts = ([self.name(who) + ("：" if zh else ": ") + walk] if walk else []) + tails[who]
            if who in gone:
                parts.append("之后离开视野" if zh else "then out of sight")
            lines.append(("，" if zh else ", ").join(parts) + ("。" if zh else "."))
        return lines + other

    def stop(self, e: dict[str, Any]) -> str:
        """Why a walk stopped, as the tail of its line (the cell it could not enter)."""
        cell = self.m.esc(e.get("cell", "?"))
        if e.get("reason") == "enemy":  # ruling O7
            return (f"与迎面而来的敌人互相阻挡，未能进入 {cell}，停下" if self.lang == "zh" else
                    f"barred by an enemy coming the other way from {cell}, stops")
        return f"无法进入 {cell}（格子已满），停下" if self.lang == "zh" else f"cannot enter {cell} (full) and stops"

    def title(self, kind: str, head: dict[str, Any] | None) -> str:
        if kind == "fight" and head is not None and head.get("cell"):
            t = self.narration.titles.get(self.lang) or self.narration.titles["en"]
            return t["fight_at"].format(cell=head["cell"])
        return super().title(kind, head)


_REASON_ROWS: tuple[tuple[str, str, str], ...] = (  # the engine's reason codes, as a player reads them
    ("no_cards", "手牌不够支付代价", "not enough hand cards to pay for it"),
    ("no_target", "没有可选的目标", "no target it could choose"),
    ("hp", "体力不足", "not enough HP"),
    ("card_gone", "需要的【{card}】已不在手中", "the 【{card}】 it needs is no longer in hand"),
    ("not_asked", "它要丢弃手牌，而战术选项没有点名它或它要丢弃的牌", "it costs cards and the sheet names neither it nor its discards"),
    ("not_equipped", "该装备已不在装备区", "that equipment is no longer equipped"),
    ("hand_limit", "手牌上限", "hand limit"),
    ("full", "格子已满", "the cell is full"),
    ("enemy", "与敌人互相阻挡", "an enemy bars the way"),
)
REASONS: dict[str, dict[str, str]] = {code: {"zh": zh, "en": en} for code, zh, en in _REASON_ROWS}
PATTERNS = {"zh": {"red": "红色", "black": "黑色", "hearts": "红桃", "diamonds": "方块", "spades": "黑桃", "clubs": "梅花"},
            "en": {"red": "red", "black": "black", "hearts": "hearts", "diamonds": "diamonds", "spades": "spades",
                   "clubs": "clubs"}}
AGAINST = {  # what a 出杀/出闪 line answers, as the sheet's comments name it
    "zh": {"enemy": "对敌人出杀", "strike": "敌人的【杀】", "skill": "技能", "magic": "魔术牌"},
    "en": {"enemy": "your own 杀 at enemies", "strike": "an enemy's 杀", "skill": "a skill", "magic": "a magic card"},
}


def pattern_text(pattern: str, lang: str) -> str:
    """A judgement pattern (``red``, ``!hearts``...) in words."""
    words = PATTERNS.get(lang, PATTERNS["en"])
    if pattern.startswith("!"):
        inner = words.get(pattern[1:], pattern[1:])
        return f"非{inner}" if lang == "zh" else f"not {inner}"
    return words.get(pattern, pattern)


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
    return NARRATION.sections(events)


def story(events: list[dict[str, Any]], teller: Teller, player: str | None, public: bool = False,
          cut: list[core.Section] | None = None, gone: set[str] | None = None) -> list[dict[str, Any]]:
    """The sections ``player`` may know, told; ``gone``: characters the reader no longer sees."""
    teller.gone = set(gone or ())
    if public:
        cut = _public_cut(cut if cut is not None else sections(events))
    return NARRATION.story(events, teller, player, public, cut)


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

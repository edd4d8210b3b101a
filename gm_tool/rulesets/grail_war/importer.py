"""`gm import`: a player's private message written the way the seed writes its 战术选项 (seed
l.68-119, the options and their headings; l.120-154, the SAMPLE) read into an order sheet, with
what each line was understood as and every word that was not used.

A line is read by what it says, not by its number (the seed restarts its numbering inside the
出杀 and 出闪 lists: ``2.1.对敌人出杀`` / ``2.对魔术牌出杀`` / ``3.不出杀``). The seed's headings
(``2.请排列顺序出杀顺序``, ``4.本回合是否用咒``, ``6.魔术牌大类选择``, ``8.本回合移动，是否发动介职特效``)
open a topic; the lines after a heading answer it (``是``, ``用 对队友优先``, ``武器 防具 手牌``,
``手牌少的优先``) until another topic opens, and a question and its answer may share a line
(``4.是否使用咒：否``). The seed's own explanations (the glossary of an equipment, l.153's
teleport) are told as such. Each character of a line is either used or reported: a line
holding nothing to use is an error naming its line, and the words left over on a line that
was used are listed beside what it was understood as, so nothing is dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from gm_tool.errors import GmError, Problem
from gm_tool.rulesets.grail_war import cards

# one character to one character, so a span of the normal text is the same span of the line
_NORMAL = str.maketrans({**{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)},
                         "、": ",", "。": ".", "“": '"', "”": '"', "‘": "'", "’": "'", "\u3000": " ",
                         "－": "-", "—": "-", "～": "~"})
USED = "\0"
_WORD = re.compile(r"[^\s\0,.:;!?'\"()\[\]【】<>《》{}/\\|~`^=+*&%$#@_-]+")

# the topics of the seed's options (l.69-119) and the sheet key each answers
SKILL, TARGET, STRIKE, DODGE, CURSE, GEM, MAGIC, EQUIPMENT, MOVE, KEEP = (
    "skill", "target", "strike", "dodge", "curse", "gem", "magic", "equipment", "move", "keep")
QUESTIONS = (SKILL, TARGET, CURSE, GEM, MAGIC, EQUIPMENT, MOVE)  # topics answered 是/否 or by a choice

# the seed's headings and explanations, longest first when matched; (text, topic or None, question)
_HEADINGS: tuple[tuple[str, str | None, bool], ...] = (
    # l.69-70: skill and target
    ("本回合是否使用角色技能", SKILL, True), ("是否使用角色技能", SKILL, True), ("使用角色技能", SKILL, True),
    ("格子内可能会出现对方的2个玩家", TARGET, True), ("所以请玩家选择", None, False),
    ("如果出现时某些技能先针对血多的角色还是牌多的角色", TARGET, True), ("若相等则随机", None, False),
    ("技能先针对血多的角色还是牌多的角色", TARGET, True), ("血多的角色还是牌多的角色", TARGET, True),
    ("血多的优先还是牌多的优先", TARGET, True), ("目标优先", TARGET, True),
    # l.71-84: the lists
    ("请排列顺序出杀顺序", STRIKE, False), ("出杀顺序", STRIKE, False), ("不出杀在前面 之后的都视为不出杀", None, False),
    ("不出杀在前面,之后的都视为不出杀", None, False), ("不出杀在前面之后的都视为不出杀", None, False),
    ("可注明出杀的张数", None, False), ("GM自动根据这回合遭遇的出杀事件优先度出定量的杀", None, False),
    ("请排列顺序出闪顺序", DODGE, False), ("出闪顺序", DODGE, False), ("不出闪在前面 之后的都视为不出闪", None, False),
    ("不出闪在前面,之后的都视为不出闪", None, False), ("不出闪在前面之后的都视为不出闪", None, False),
    ("可注明出闪的张数", None, False), ("GM自动根据这回合遭遇的出杀事件优先度出定量的闪", None, False),
    # l.85-86 and the SAMPLE's l.135, l.137
    ("本回合是否用咒", CURSE, True), ("是否使用咒", CURSE, True), ("是否用咒", CURSE, True),
    ("是否将宝石自用,亦或是救队友优先", GEM, True), ("是否将宝石自用", GEM, True), ("亦或是救队友优先", GEM, True),
    ("是否用宝石", GEM, True), ("是否使用宝石", GEM, True), ("对谁", GEM, True),
    # l.87 and l.139
    ("魔术牌大类选择", MAGIC, True), ("是否使用魔术牌", MAGIC, True), ("若当格子内出现对方的2个玩家时", None, False),
    ("请玩家选择", None, False), ("某些魔术牌先针对武器,防具,还是手牌", MAGIC, True),
    ("双方都有的情况下,优先选择手牌多的还是手牌少的", MAGIC, True), ("优先选择手牌多的还是手牌少的", MAGIC, True),
    ("万法破尽只能针对对方对你的第一张魔术牌,不可选择", None, False),
    ("默认设定不能万法尽破自己的阿宁艾鲁贝的一日", None, False), ("按魔术牌大类选择", None, False),
    ("请选择优先度", None, False),
    ("玩家不一定会一定有魔术牌,但是选项选择后一旦抽到魔术牌后将会根据选项使用", None, False),
    ("当然每回合后抽牌弃牌后的结果也会通知玩家,玩家可以在下回合前及时地知道手上有什么牌", None, False),
    # l.108 and l.141-148: the equipment
    ("装备牌选择", EQUIPMENT, False),
    ("某些装备的效果需要玩家做出选择,此选项不是必填选项,玩家根据自己身上的装备情况进行不同的填写", None, False),
    ("此选项不是必填选项", None, False), ("则此栏填写", None, False), ("若是", None, False),
    ("发动或不发动都默认为针对两人", None, False), ("弃掉该角色牌的种类和优先度排序", EQUIPMENT, False),
    # l.118-119, l.151-153: movement, keep
    ("本回合移动,是否发动介职特效移动的具体地点,地图坐标", MOVE, True), ("是否发动介职特效移动的具体地点", MOVE, True),
    ("本回合移动,是否发动介职特效", MOVE, True), ("是否发动介职特效", MOVE, True), ("介职特效", MOVE, True),
    ("本回合移动", MOVE, False), ("移动的具体地点", MOVE, False),
    ('魔术师"CASTER"可进行瞬间转移,目的地只能是自己方的据点,距离最长为5格,中间有敌人也不会遭遇战斗', None, False),
    ("可进行瞬间转移,目的地只能是自己方的据点", None, False), ("距离最长为5格,中间有敌人也不会遭遇战斗", None, False),
    ("本回合弃牌保留的优先度(下回合战术选项之前填写)", KEEP, False), ("本回合弃牌保留的优先度", KEEP, False),
    ("下回合战术选项之前填写", None, False), ("上回合弃牌保留", KEEP, False), ("本回合弃牌保留", KEEP, False),
    ("弃牌保留的优先度", KEEP, False), ("弃牌保留", KEEP, False), ("手牌保留", KEEP, False), ("保留", KEEP, False),
    ("战术选项总SAMPLE", None, False), ("战术选项", None, False), ("SAMPLE", None, False),
)
# a line that is the seed's explanation as a whole (a card's 作用 / 目标 / 效果, l.88-106, l.112, l.144)
_GLOSS = re.compile(r"^\s*(?:【[^】]*】\s*)?(?:作用|效果|目标)\s*[;:,]")
# the seed's short question words: a line holding nothing else asks what its topic is
_ASK = re.compile(r"是否|\?")

YES = ("不使用", "不发动", "不用", "不要", "不", "否", "no", "是", "使用", "发动", "用", "要", "yes")
_EDGE = r"\s\0,.:;!?()【】"
_YES_NO = re.compile(rf"(?<![^{_EDGE}])(?:" + "|".join(sorted(YES, key=len, reverse=True)) + rf")(?![^{_EDGE}])", re.I)
# the seed's option numbers (l.69-119), a last resort for a line no word places: 1.1 skill, 1.2
# target, 4 咒, 5 宝石, 6 magic, 7 equipment, 8 movement, 0 keep (the lists restart their numbers)
BY_NUMBER = {"0": KEEP, "1.1": SKILL, "1.2": TARGET, "1": SKILL, "4": CURSE, "5": GEM, "6": MAGIC, "7": EQUIPMENT,
             "8": MOVE}
STRIKE_WORDS = {"对敌人出杀": "对敌人出杀", "对技能出杀": "对技能出杀", "对魔术牌出杀": "对魔术牌出杀", "不出杀": "不出杀"}
DODGE_WORDS = {"对杀出闪": "对杀出闪", "对技能出闪": "对技能出闪", "对魔术牌出闪": "对魔术牌出闪", "不出闪": "不出闪"}
_ENTRY = re.compile("|".join(sorted((*STRIKE_WORDS, *DODGE_WORDS), key=len, reverse=True)))
# a count of cards: 1-99 in digits, or in Chinese numerals before 张 (三张, 两张, 十二张; not the
# ordinal 第二张), as a player writes it in a message
_N = rf"\d{{1,2}}|(?<!第){cards.NUMERALS}(?=\s*张)"
_COUNT = re.compile(rf"\s*(?:\(\s*({_N})\s*张\s*\)|({_N})\s*张|[x×*]\s*(\d{{1,2}}))")
_COUNT_ALONE = re.compile(rf"^{_COUNT.pattern}\s*$")  # the same count, alone on its line
TARGET_WORDS = {"血多的优先": "血多的优先", "牌多的优先": "牌多的优先", "血多": "血多的优先", "牌多": "牌多的优先"}
_TARGET = re.compile("血多的(?:优先|角色)?|牌多的(?:优先|角色)?|血多|牌多")
GEM_WORDS = (("对队友优先", "对队友优先"), ("救队友优先", "救队友优先"), ("队友优先", "对队友优先"),
             ("自己优先", "自用"), ("自用", "自用"))
_GEM = re.compile("|".join(w for w, _ in GEM_WORDS))
CURSE_WORDS = {"不使用咒": False, "不用咒": False, "使用咒": True, "用咒": True}
_CURSE = re.compile("不使用咒|不用咒|使用咒|用咒")
MAGIC_WORDS = {"不使用魔术牌": False, "使用魔术牌": True}
_MAGIC = re.compile("不使用魔术牌|使用魔术牌")
_HAND_SIZE = re.compile("(?:手牌)?(多|少)的?优先|手牌(多|少)的?")
ZONE_WORDS = {"装备区": "装备区", "装备": "装备区", "武器": "武器", "防具": "防具", "手牌": "手牌"}
_ZONE = re.compile("装备区|装备|武器|防具|手牌")
_CONVERTER = re.compile("正式外典|外典|佩耳修斯之剑|佩耳修斯")
CONVERTERS = {"外典": "正式外典", "正式外典": "正式外典", "佩耳修斯之剑": "佩耳修斯之剑", "佩耳修斯": "佩耳修斯之剑"}
_FILLER = re.compile("将杀转换成闪|将闪转换成杀|转换成闪|转换成杀|转换|发动|优先|的")
SPECIAL_WORDS = (("瞬间转移", "瞬移"), ("瞬间移动", "瞬移"), ("瞬移", "瞬移"), ("传送", "瞬移"), ("攀登", "攀登"),
                 ("攀爬", "攀登"), ("跳跃", "跳跃"), ("渡河", "渡河"), ("破坏", "破坏"))
_SPECIAL = re.compile("|".join(w for w, _ in SPECIAL_WORDS))
_STAY = re.compile("留在原地|原地不动|不移动|原地|不动|待命|停留")
_CELL = re.compile(r"(?<![A-Za-z])\(?\s*([A-Za-z])\s*,?\s*(\d{1,2})(?!\d)\s*\)?")
_FROM = re.compile(r"从\s*据点\s*(\d{1,3})")
_TO_STRONGHOLD = re.compile(r"(?:到|至|去|前往|往)?\s*据点\s*(\d{1,3})")
_MOVE_WORDS = re.compile("到达地图坐标|地图坐标|坐标|目的地|到达|移动到|移动至|移动|前往|去往|到|至|去|往")
_VIA = re.compile(r"(?:途经|经过|经由)\s*\(?\s*([A-Za-z])\s*,?\s*(\d{1,2})(?!\d)\s*\)?")
_DISCARD = re.compile("丢弃|弃掉|弃置|弃")
_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*(?:\s*[.:)]\s*|\s*(?=[^\d\s张.:)x×*]))|-+\s*|[•·]\s*)")
_INFO = re.compile(r"^\s*(角色|武器|防具|装备|手牌|当前体力|体力|位置)\s*:")
# a short heading leading a line and followed by its answer (``4.咒：否``, ``5.宝石：自用``)
_SHORT = re.compile(r"^[\0\s]*(技能|目标|咒|宝石|魔术牌|装备|移动|目的地)\s*:")
SHORT_TOPICS = {"技能": SKILL, "目标": TARGET, "咒": CURSE, "宝石": GEM, "魔术牌": MAGIC, "装备": EQUIPMENT,
                "移动": MOVE, "目的地": MOVE}
# what an order is made of: a line holding any of these and nothing placed is an error, not chat
_ORDERISH = re.compile(r"出杀|出闪|是否|保留|丢弃|技能|移动|据点|坐标|[A-Ta-t]\s*,?\s*\d{1,2}|【")
_EQUIPPED = re.compile(r"装备了\s*【([^】]+)】")


@cache
def _card_pattern() -> re.Pattern[str]:
    """A card as a player writes it in a line: its name (or a spelling of it) in 【】, or bare
    between spaces, punctuation or other cards (``杀 闪``, ``杀闪``; not the 杀 of ``出杀``), with a
    suit and rank after it and a count (``【杀】×2``, ``杀 2张``, ``2张杀``)."""
    names = "|".join(map(re.escape, sorted(cards.aliases(), key=len, reverse=True)))
    suit = "[♠♥♣♦♤♡♧♢]|" + "|".join(cards.SUIT_WORDS)
    rank = r"10|1[1-3]|[2-9AJQKajqk]|1(?![0-9])"
    edge = _EDGE + "\\d张"
    return re.compile(rf"(?:({_N})\s*张\s*)?(?:【\s*({names})\s*(?:({suit})\s*({rank}))?\s*】"
                      rf"|(?<![^{edge}])({names})(?=[{edge}♠♥♣♦♤♡♧♢x×*]|$|{names}|{suit}))"
                      rf"(?:\s*({suit})\s*({rank}))?(?:\s*(?:[x×*]\s*(\d{{1,2}})|\(\s*({_N})\s*张\s*\)|({_N})\s*张))?")


@dataclass
class Imported:
    """The sheet read from a message, and each line with what it was understood as."""

    sheet: dict[str, Any]
    lines: list[tuple[int, str, str]] = field(default_factory=list)  # (line number, text, understood)
    unused: dict[int, list[str]] = field(default_factory=dict)  # line number -> the words not used


def _texts():
    from gm_tool.rulesets.grail_war.words import texts

    return texts()


class Line:
    """One line of the message: its normal form (full-width forms folded, one character for
    one) with the characters already used masked, and what it was understood as."""

    def __init__(self, n: int, raw: str) -> None:
        self.n, self.raw = n, raw
        self.text = raw.translate(_NORMAL)
        self.used = [False] * len(self.text)
        self.said: list[str] = []

    def masked(self) -> str:
        return "".join(USED if u else ch for ch, u in zip(self.text, self.used))

    def use(self, start: int, end: int) -> None:
        for i in range(start, end):
            self.used[i] = True

    def take(self, pattern: re.Pattern[str] | str, start: int = 0) -> re.Match[str] | None:
        """The first match of ``pattern`` among the unused characters (from ``start``), used."""
        rx = re.compile(re.escape(pattern)) if isinstance(pattern, str) else pattern
        m = rx.search(self.masked(), start)
        if m is not None:
            self.use(m.start(), m.end())
        return m

    def rest(self, start: int = 0) -> str:
        return self.masked()[start:]

    def left(self) -> list[str]:
        """The words not used (runs of letters, digits or CJK between punctuation and used text)."""
        masked = self.masked()
        out = []
        for m in _WORD.finditer(masked):
            word = self.raw[m.start():m.end()].strip()
            if word:
                out.append(word)
        return out

    def empty(self) -> bool:
        return not self.left()


class _Reader:
    def __init__(self, state: dict[str, Any], source: str, lang: str, player: str | None) -> None:
        self.state, self.source, self.lang, self.player = state, source, lang, player
        words = _texts().labels(lang)
        self.words, self.said_sep = words["import"], words["said_sep"]
        self.sheet: dict[str, Any] = {}
        self.lines: list[tuple[int, str, str]] = []
        self.unused: dict[int, list[str]] = {}
        self.problems: list[Problem] = []
        self.topic: str | None = None
        self.pending: tuple[str, int] | None = None  # (topic, line) of a question awaiting its answer
        self.character: dict[str, Any] | None = None
        self.equipment: str | None = None  # the equipment section 7 is about
        self.inline: set[str] = set()  # equipment whose zones came from a 出杀 line (section 7 overrides)
        self.last_entry: tuple[str, int] | None = None  # (list key, index) of the last list line

    # output ---------------------------------------------------------------------------------
    def w(self, key: str, **params: Any) -> str:
        text = self.words[key]
        return str(text).format(**params) if params else str(text)

    def join(self, items: Iterable[str]) -> str:
        return self.w("sep").join(items)

    def topic_name(self, topic: str) -> str:
        return str(self.words["topics"][topic])

    def fail(self, code: str, line: int, **params: Any) -> None:
        self.problems.append(Problem(code, self.source, None, params, line=line))

    # the message ----------------------------------------------------------------------------
    def read(self, text: str) -> None:
        for n, raw in enumerate(text.splitlines(), 1):
            if not raw.strip():
                continue
            line = Line(n, raw)
            self.line(line)
            left = line.left()
            self.unused[n] = left
            if not line.said and _ORDERISH.search(line.text):
                self.fail("grail_war.import.line", n, text=raw.strip())
                self.lines.append((n, raw.strip(), self.w("nothing")))
                continue
            if not line.said:  # chat (a greeting, a signature): nothing of an order in it
                line.said.append(self.w("chat"))
            said = self.said_sep.join(line.said)
            if left:
                said += self.w("unused", words=self.join(f"「{x}」" for x in left))
            self.lines.append((n, raw.strip(), said))
        self.unanswered()

    def unanswered(self) -> None:
        if self.pending is not None:
            topic, at = self.pending
            self.fail("grail_war.import.answer", at, question=self.topic_name(topic))
            self.pending = None

    def open(self, topic: str, n: int, question: bool) -> None:
        """A heading: the topic the next lines answer; a question must be answered."""
        if self.pending is not None and self.pending != (topic, n):
            self.unanswered()
        self.topic = topic
        self.pending = (topic, n) if question else None
        if topic != EQUIPMENT:
            self.last_entry = None

    def answered(self) -> None:
        self.pending = None

    def line(self, line: Line) -> None:
        m = _NUMBERING.match(line.text)
        number = None
        if m and m.end() > 0:
            line.use(0, m.end())
            number = re.match(r"\s*(\d+(?:\.\d+)?)", m.group(0))
        if self.info(line):
            return
        if _GLOSS.match(line.masked()):
            line.use(0, len(line.text))
            line.said.append(self.w("explanation"))
            return
        equipped = line.take(_EQUIPPED)
        if equipped is not None:
            self.equipment = cards.canonical(equipped.group(1)) or str(equipped.group(1))
            self.open(EQUIPMENT, line.n, False)
            line.take(re.compile(r"^[^\0]*?(?=\0)"))  # whose equipment: the character's name before it
            line.said.append(self.w("equipment", name=self.equipment))
        short = _SHORT.match(line.masked())
        if short is not None:
            line.use(short.start(1), short.end())
            topic = SHORT_TOPICS[short.group(1)]
            self.open(topic, line.n, topic in QUESTIONS)
            line.said.append(self.w("question" if topic in QUESTIONS else "heading", topic=self.topic_name(topic)))
        self.headings(line)
        if line.empty() and line.said:
            return
        self.entries(line)
        if line.empty():
            return
        before = len(line.said)
        self.topical(line)
        fallback = BY_NUMBER.get(number.group(1)) if number else None
        if len(line.said) == before and fallback is not None and fallback != self.topic:
            self.open(fallback, line.n, False)
            self.answer(line, fallback)

    def info(self, line: Line) -> bool:
        """The SAMPLE's character lines (l.121-124): who writes, and information, not orders."""
        m = _INFO.match(line.masked())
        if m is None:
            return False
        key = m.group(1)
        rest = line.text[m.end():]
        if key == "装备" and _ZONE.sub("", re.sub(r"[\s,]", "", rest)) == "":
            return False  # 装备:装备区,手牌 is a zone line of section 7
        line.use(0, len(line.text))
        if key == "角色":
            words = rest.split()
            name = words[0] if words else ""
            self.character = next((c for c in self.state["characters"] if name in (c["name"], c["id"])), None)
            if self.character is None:
                self.fail("grail_war.import.no_character", line.n, name=name, allowed=self.roster())
            elif self.player is not None and self.character["player"] != self.player:
                self.fail("grail_war.import.player_mismatch", line.n, name=name, owner=self.character["player"],
                          player=self.player)
            line.said.append(self.w("character", name=name))
        else:
            line.said.append(self.w("info"))
        return True

    def roster(self) -> str:
        return self.join(f"{c['name']}（{c['player']}）" for c in self.state["characters"])

    def headings(self, line: Line) -> None:
        """The seed's headings and explanations on the line: each used, the last topic opened."""
        for text, topic, question in _heading_table():
            while line.take(text) is not None:
                if topic is None:
                    if self.w("explanation") not in line.said:
                        line.said.append(self.w("explanation"))
                    continue
                self.open(topic, line.n, question)
                said = self.w("question" if question else "heading", topic=self.topic_name(topic))
                if said not in line.said:
                    line.said.append(said)
        for m in list(re.finditer(r"【([^】]+)】", line.masked())):  # l.143 "【万华杖】": the item explained
            name = cards.canonical(m.group(1))
            if name is not None and cards.is_equipment(name) and (self.topic == EQUIPMENT or "是否" in line.text):
                self.equipment = name
                line.use(m.start(), m.end())
                if self.topic != EQUIPMENT:
                    self.open(EQUIPMENT, line.n, False)
                asked = re.search("是否发动", line.text) is not None
                if asked:
                    self.pending = (EQUIPMENT, line.n)
                    line.take(re.compile(r"\s*的效果"), m.end())
                line.said.append(self.w("equipment_question" if asked else "equipment", name=name))
        if line.take("是否发动") is not None:
            self.pending = (self.topic or EQUIPMENT, line.n)

    # what a line answers ---------------------------------------------------------------------
    def entries(self, line: Line) -> None:
        """出杀 / 出闪 list lines, wherever they are (l.129-134): each with its count, the
        converting equipment it names (发动外典) and an equipment effect (发动万华杖 (手牌 装备 武器))."""
        while True:
            m = line.take(_ENTRY)
            if m is None:
                return
            word = m.group(0)
            key, topic = ("出杀顺序", STRIKE) if word in STRIKE_WORDS else ("出闪顺序", DODGE)
            if self.topic != topic or self.pending is not None:
                self.unanswered()
                self.topic = topic
            entry: dict[str, Any] = {"对": word}
            said = [self.w("entry", list=self.topic_name(topic), k=len(self.sheet.get(key, [])) + 1, against=word)]
            c = _COUNT.match(line.masked(), m.end())
            if c is not None:
                line.use(c.start(), c.end())
                entry["张数"] = cards.number(next(g for g in c.groups() if g))
                said.append(self.w("entry_count", n=entry["张数"]))
            self.via(line, entry, said)
            self.inline_equipment(line, said)
            items = self.sheet.setdefault(key, [])
            items.append(word if word in ("不出杀", "不出闪") and len(entry) == 1 else entry)
            self.last_entry = (key, len(items) - 1)
            line.said.append("".join(said))

    def via(self, line: Line, entry: dict[str, Any], said: list[str]) -> None:
        rest = line.rest()
        m = _CONVERTER.search(rest)
        if m is None or not re.search("发动|转换|用|以", rest):
            return
        line.use(m.start(), m.end())
        entry["转换"] = CONVERTERS[m.group(0)]
        for filler in ("将杀转换成闪", "将闪转换成杀", "转换成闪", "转换成杀", "转换", "发动"):
            line.take(filler)
        said.append(self.w("entry_via", via=entry["转换"]))

    def inline_equipment(self, line: Line, said: list[str]) -> None:
        """l.129 "发动万华杖 (手牌 装备 武器)": the weapon's effect and its zones, where the list puts it."""
        rest = line.rest()
        names = [n for n in sorted(cards.aliases(), key=len, reverse=True) if cards.is_equipment(cards.canonical(n) or "")]
        m = re.search(r"(?:发动\s*)?【?\s*(" + "|".join(map(re.escape, names)) + r")\s*】?", rest)
        if m is None:
            return
        name = cards.canonical(m.group(1)) or m.group(1)
        line.use(m.start(), m.end())
        zones: list[str] = []
        paren = re.compile(r"\s*\(([^)\0]*)\)").match(line.masked(), m.end())
        if paren is not None:
            for z in _ZONE.finditer(paren.group(1)):
                zones.append(ZONE_WORDS[z.group(0)])
                line.use(paren.start(1) + z.start(), paren.start(1) + z.end())
        equip = self.sheet.setdefault("装备", {}).setdefault(name, {})
        equip["发动"] = "是"
        zones = list(dict.fromkeys(zones))
        if zones and "区域" not in equip:
            equip["区域"] = zones
            self.inline.add(name)
        said.append(self.w("inline_equipment", name=name, zones=self.join(zones) or self.w("none")))

    def topical(self, line: Line) -> None:
        """What the rest of the line says, read in the topic it belongs to: its own words first
        (保留, 血多的优先, 不使用咒, 不使用魔术牌, 对队友优先, a class move or a cell), else the topic
        the line is under."""
        rest = line.masked()
        if _CURSE.search(rest):
            return self.answer(line, CURSE)
        if _MAGIC.search(rest):
            return self.answer(line, MAGIC)
        if _TARGET.search(rest) and self.topic != MAGIC:
            return self.answer(line, TARGET)
        if _GEM.search(rest):
            return self.answer(line, GEM)
        if _SPECIAL.search(rest) or _STAY.search(rest) or _FROM.search(rest) or _TO_STRONGHOLD.search(rest) \
                or (_MOVE_WORDS.search(rest) and _CELL.search(rest)) or self.named_stronghold(rest) is not None:
            return self.answer(line, MOVE)
        alone = _COUNT_ALONE.match(rest.replace(USED, " "))
        if alone and self.last_entry is not None and self.topic in (STRIKE, DODGE):
            return self.count(line)
        if self.topic is None:
            return
        self.answer(line, self.topic)

    def answer(self, line: Line, topic: str) -> None:
        if self.pending is not None and self.pending[0] != topic:
            self.unanswered()
        if self.topic != topic:
            self.topic = topic
        getattr(self, f"a_{topic}")(line)

    def yes_no(self, line: Line) -> bool | None:
        m = _YES_NO.search(line.masked())
        if m is None:
            return None
        if m.group(0).lower() in ("yes", "no"):
            line.use(m.start(), m.end())
            return m.group(0).lower() == "yes"
        line.use(m.start(), m.end())
        return not m.group(0).startswith(("不", "否"))

    def card_list(self, line: Line, start: int = 0) -> list[str]:
        """The cards the line names from ``start`` on, each with its suit and rank, a count repeating it."""
        out: list[str] = []
        rx = _card_pattern()
        while True:
            m = rx.search(line.masked(), start)
            if m is None:
                return out
            line.use(m.start(), m.end())
            start = m.end()
            lead, name, suit, rank, bare, suit2, rank2, times, paren, after = m.groups()
            name = name or bare
            canon = cards.canonical(name) or name
            suit, rank = (suit, rank) if suit else (suit2, rank2)
            text = cards.normal_text(f"{canon} {suit}{rank}") if suit else canon
            n = cards.number(lead or times or paren or after or "1")
            out.extend([text] * max(1, n))

    def a_keep(self, line: Line) -> None:
        got = self.card_list(line)
        if got:
            self.sheet.setdefault("保留", []).extend(got)
            line.said.append(self.w("keep", cards=self.join(self.sheet["保留"])))

    def a_skill(self, line: Line) -> None:
        yes = self.yes_no(line)
        entry = self.sheet.setdefault("技能", {})
        if yes is not None:
            entry["使用"] = "是" if yes else "否"
            line.said.append(self.w("skill_yes" if yes else "skill_no"))
            self.answered()
        own = self.own_skills()
        for _, name in own:
            if line.take(name) is not None:
                entry["名称"] = name
                entry.setdefault("使用", "是")
                line.said.append(self.w("skill_name", name=name))
                self.answered()
        d = line.take(_DISCARD)
        if d is not None:
            got = self.card_list(line, d.end())
            if got:
                entry["丢弃"] = entry.get("丢弃", []) + got
                entry.setdefault("使用", "是")
                line.said.append(self.w("skill_discard", cards=self.join(got)))
                self.answered()
        if not entry:
            self.sheet.pop("技能")

    def own_skills(self) -> list[tuple[str, str]]:
        char = self.character or self.first_character()
        if char is None:
            return []
        from gm_tool.rulesets.grail_war.combat import skills as defs

        try:
            return [(s.id, s.name) for s in defs.of(list(char.get("skills") or ()), self.state.get("skills"))]
        except Exception:  # noqa: BLE001  (a minimal state: no skills known)
            return []

    def first_character(self) -> dict[str, Any] | None:
        if self.player is None:
            return None
        mine = [c for c in self.state["characters"] if c["player"] == self.player]
        return next((c for c in mine if c.get("alive", True)), mine[0] if mine else None)

    def a_target(self, line: Line) -> None:
        m = line.take(_TARGET)
        if m is None:
            return
        value = "血多的优先" if m.group(0).startswith("血") else "牌多的优先"
        line.take("优先")
        self.sheet["目标优先"] = value
        line.said.append(self.w("target", value=value))
        self.answered()

    def a_strike(self, line: Line) -> None:
        self.count(line)

    a_dodge = a_strike

    def count(self, line: Line) -> None:
        """A count on a line of its own (``2张``, ``×2``): the last list line's."""
        m = line.take(_COUNT)
        if m is None or self.last_entry is None:
            return
        key, i = self.last_entry
        item = self.sheet[key][i]
        if isinstance(item, str):
            item = self.sheet[key][i] = {"对": item}
        item["张数"] = cards.number(next(g for g in m.groups() if g))
        line.said.append(self.w("count", n=item["张数"], list=self.topic_name(STRIKE if key == "出杀顺序" else DODGE),
                                k=i + 1))

    def a_curse(self, line: Line) -> None:
        m = line.take(_CURSE)
        yes = CURSE_WORDS[m.group(0)] if m is not None else self.yes_no(line)
        if yes is None:
            return
        self.sheet["咒"] = "使用" if yes else "不使用"
        line.said.append(self.w("curse", value=self.sheet["咒"]))
        self.answered()

    def a_gem(self, line: Line) -> None:
        m = line.take(_GEM)
        yes = self.yes_no(line)
        if m is not None:
            value = dict(GEM_WORDS)[m.group(0)]
            if yes is False:
                value = "不用"
        elif yes is None:
            return
        else:
            value = "自用" if yes else "不用"
        self.sheet["宝石"] = value
        line.said.append(self.w("gem", value=value))
        self.answered()

    def a_magic(self, line: Line) -> None:
        m = line.take(_MAGIC)
        yes = MAGIC_WORDS[m.group(0)] if m is not None else self.yes_no(line)
        magic = self.sheet.setdefault("魔术牌", {})
        if yes is not None:
            magic["使用"] = "使用" if yes else "不使用"
            line.said.append(self.w("magic", value=magic["使用"]))
            self.answered()
        h = line.take(_HAND_SIZE)
        if h is not None:
            magic["手牌数"] = "手牌多" if (h.group(1) or h.group(2)) == "多" else "手牌少"
            line.said.append(self.w("magic_hand", value=magic["手牌数"] + "的优先"))
            self.answered()
        zones = []
        while True:
            z = line.take(re.compile("武器|防具|手牌"))
            if z is None:
                break
            zones.append(z.group(0))
        if zones:
            magic["区域优先"] = list(dict.fromkeys(zones))
            line.said.append(self.w("magic_zones", zones=self.join(magic["区域优先"])))
            self.answered()
        if zones or h is not None:
            line.take("优先")
        if not magic:
            self.sheet.pop("魔术牌")

    def a_equipment(self, line: Line) -> None:
        name = self.equipment
        words = [w for w in re.split(r"[\s,;/\0]+", line.masked()) if w]
        if words and all(w in ZONE_WORDS for w in words):  # l.149 "装备区，手牌"
            line.use(0, len(line.text))
            return self.zones(line, [ZONE_WORDS[w] for w in words])
        yes = self.yes_no(line)
        if yes is None:
            return
        if name is None:
            self.fail("grail_war.import.which_equipment", line.n)
            line.said.append(self.w("nothing"))
            return
        self.sheet.setdefault("装备", {}).setdefault(name, {})["发动"] = "是" if yes else "否"
        line.said.append(self.w("equipment_use", name=name, value=self.w("yes" if yes else "no")))
        self.answered()

    def zones(self, line: Line, zones: list[str]) -> None:
        name = self.equipment
        if name is None:
            self.fail("grail_war.import.which_equipment", line.n)
            line.said.append(self.w("nothing"))
            return
        equip = self.sheet.setdefault("装备", {}).setdefault(name, {})
        if name in self.inline:  # section 7's own answer replaces the zones a 出杀 line gave
            self.inline.discard(name)
            equip.pop("区域", None)
        if "区域" in equip:  # the SAMPLE writes a second order: one order serves every target
            line.said.append(self.w("zones_again", zones=self.join(zones), first=self.join(equip["区域"])))
            return
        equip["区域"] = zones
        line.said.append(self.w("equipment_zones", name=name, zones=self.join(zones)))

    def a_move(self, line: Line) -> None:
        move = self.sheet.setdefault("移动", {})
        said_before = len(line.said)
        for word, value in SPECIAL_WORDS:
            if line.take(word) is not None:
                move["特殊"] = value
                line.said.append(self.w("move_special", value=value))
        src = line.take(_FROM)
        if src is not None:
            self.from_stronghold(line, int(src.group(1)))
        for v in list(_VIA.finditer(line.masked())):
            point = f"{v.group(1).upper()}{int(v.group(2))}"
            move.setdefault("途经", []).append(point)
            line.use(v.start(), v.end())
            line.said.append(self.w("move_via", cells=point))
        stay = line.take(_STAY)
        dest = line.take(_TO_STRONGHOLD)
        named = self.named_stronghold(line.masked())
        if named is not None and dest is None:
            line.use(named[1].start(), named[1].end())
        while line.take(_MOVE_WORDS) is not None:
            pass
        cell_m = line.take(_CELL)
        cell: str | None = f"{cell_m.group(1).upper()}{int(cell_m.group(2))}" if cell_m else None
        if named is not None and dest is None:
            cell = cell or named[0]["pos"]
            if cell != named[0]["pos"]:
                self.fail("grail_war.import.stronghold_cell", line.n, id=named[0]["id"], pos=named[0]["pos"], cell=cell)
        if dest is not None:
            s = next((s for s in self.state.get("strongholds") or () if s["id"] == int(dest.group(1))), None)
            if s is None:
                self.fail("grail_war.import.no_stronghold", line.n, id=dest.group(1))
            elif cell is not None and cell != s["pos"]:
                self.fail("grail_war.import.stronghold_cell", line.n, id=s["id"], pos=s["pos"], cell=cell)
            else:
                cell = s["pos"]
        if stay is not None:
            here = self.where()
            if cell is not None and here is not None and cell != here:
                self.fail("grail_war.import.stay_elsewhere", line.n, cell=cell, here=here)
            cell = cell or here
            line.said.append(self.w("move_stay", cell=cell or "—"))
        if cell is not None:
            move["目的地"] = cell
            if stay is None:
                line.said.append(self.w("move_to", cell=cell))
        if self.pending is not None and self.pending[0] == MOVE:
            yes = self.yes_no(line)
            if yes is not None:
                if yes and "特殊" not in move:
                    move["特殊"] = "是"
                line.said.append(self.w("move_class", value=self.w("yes" if yes else "no")))
        if len(line.said) > said_before:
            self.answered()
        if not move:
            self.sheet.pop("移动")

    def named_stronghold(self, text: str) -> tuple[dict[str, Any], re.Match[str]] | None:
        """A stronghold named after a move word (``去柳洞寺``, ``前往新都大桥``), and where."""
        names = sorted((s for s in self.state.get("strongholds") or () if s.get("name")), key=lambda s: -len(s["name"]))
        if not names:
            return None
        rx = re.compile(r"(?:移动到|移动至|前往|去往|到达|去|到|至|往)\s*(?:据点\s*)?(" +
                        "|".join(re.escape(s["name"]) for s in names) + ")")
        m = rx.search(text)
        if m is None:
            return None
        return next(s for s in names if s["name"] == m.group(1)), m

    def from_stronghold(self, line: Line, sid: int) -> None:
        """l.154 "从据点3…": where the character teleports from; told when it stands elsewhere."""
        s = next((s for s in self.state.get("strongholds") or () if s["id"] == sid), None)
        here = self.where()
        if s is None:
            self.fail("grail_war.import.no_stronghold", line.n, id=sid)
        elif here is not None and s["pos"] != here:
            self.fail("grail_war.import.not_there", line.n, id=sid, pos=s["pos"], here=here)
        else:
            line.said.append(self.w("move_from", id=sid, cell=s["pos"]))

    def where(self) -> str | None:
        char = self.character or self.first_character()
        return char.get("pos") if char else None


@cache
def _heading_table() -> tuple[tuple[str, str | None, bool], ...]:
    return tuple(sorted(((t.translate(_NORMAL), topic, q) for t, topic, q in _HEADINGS), key=lambda h: -len(h[0])))


def read_message(state: dict[str, Any], text: str, source: str, lang: str, player: str | None) -> Imported:
    """The sheet a message asks for (keys and values in the seed's words), turn and player set.
    GmError naming every line that cannot be placed, whose ``reading`` is what was understood."""
    if not text.strip():
        raise GmError.one("grail_war.import.empty", file=source)
    reader = _Reader(state, source, lang, player)
    reader.read(text)
    if player is None and reader.character is not None:
        player = reader.character["player"]
    if player is None:
        reader.problems.append(Problem("grail_war.import.who", source, "player", {"allowed": reader.roster()}))
    sheet = {"回合": state["turn"] + 1, "玩家": player, **reader.sheet}
    if reader.character is not None and len([c for c in state["characters"] if c["player"] == player]) > 1:
        sheet = {"回合": sheet["回合"], "玩家": player, "角色": reader.character["id"], **reader.sheet}
    if reader.problems:
        raise GmError(reader.problems, reading=reader.lines)
    return Imported(sheet, reader.lines, reader.unused)

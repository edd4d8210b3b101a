"""`gm import`: a player's private message written the way the seed writes its 战术选项 SAMPLE
(seed l.119-147: numbered lines such as ``0.上回合弃牌保留【闪】【杀】``, ``2.1.对敌人出杀``,
``不使用咒``) read into an order sheet, with what each line was understood as.

The lines are placed by what they say, not by their numbers (the seed restarts its numbering
inside the 出杀 and 出闪 lists: ``2.1.对敌人出杀`` / ``2.对魔术牌出杀`` / ``3.不出杀`` /
``3.1.对杀出闪``). A question line (``4.是否使用咒``) takes its answer from the same line or the
next one. The seed's explanatory lines (the glossary of an equipment, ``则此栏填写``) are
recognised and told as such; a line that cannot be placed is an error naming its line, never
dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gm_tool.errors import GmError, Problem
from gm_tool.i18n import register
from gm_tool.rulesets.grail_war import cards

register({
    "grail.import.line": {"zh": "无法理解这一行：{text!r}（可写：0.保留【闪】… / 1.1是否使用角色技能 / 对敌人出杀 / 对杀出闪 / "
                                "不使用咒 / 用 对队友优先 / 不使用魔术牌 / 本回合移动 C11）",
                          "en": "cannot place this line: {text!r} (write e.g. 0.保留【闪】… / 1.1是否使用角色技能 / 对敌人出杀 / "
                                "对杀出闪 / 不使用咒 / 用 对队友优先 / 不使用魔术牌 / 本回合移动 C11)"},
    "grail.import.answer": {"zh": "问题「{question}」后面没有回答", "en": "the question {question!r} has no answer"},
    "grail.import.who": {"zh": "不知道这是谁的指令：用 --player 指定，或写一行「角色:名字」；本战役的角色：{allowed}",
                         "en": "whose orders are these? give --player, or a line 角色:NAME; characters: {allowed}"},
    "grail.import.empty": {"zh": "文件是空的：请粘贴玩家私信中的战术选项", "en": "the file is empty: paste the player's tactical options"},
})

NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)*)\s*[.．、]?\s*")
BRACKETED = re.compile(r"【([^】]+)】")
CELL = re.compile(r"[（(]?\s*([A-Za-z])\s*[,，]?\s*(\d{1,2})\s*[）)]?")
INFO_KEYS = ("角色", "武器", "防具", "装备", "手牌", "当前")
STRIKE = ("对敌人出杀", "对技能出杀", "对魔术牌出杀", "不出杀")
DODGE = ("对杀出闪", "对技能出闪", "对魔术牌出闪", "不出闪")
# the seed's prompt text inside its sections: recognised, understood as nothing to do
PROMPTS = ("装备牌选择", "则此栏填写", "作用", "效果", "弃掉该角色牌的种类和优先度排序", "战术选项", "SAMPLE", "若是")
QUESTIONS = {  # a question line and the key its answer sets
    "是否使用角色技能": "skill", "是否使用咒": "curse", "是否用宝石": "gem", "是否使用魔术牌": "magic",
    "是否发动": "equipment_use",
}
CONVERTERS = {"外典": "正式外典", "正式外典": "正式外典", "佩耳修斯之剑": "佩耳修斯之剑", "佩耳修斯": "佩耳修斯之剑"}
ZONE_WORDS = {"装备区": "装备区", "装备": "装备区", "手牌": "手牌", "武器": "武器", "防具": "防具"}


@dataclass
class Imported:
    """The sheet read from a message, and each line with what it was understood as."""

    sheet: dict[str, Any]
    lines: list[tuple[int, str, str]] = field(default_factory=list)  # (line number, text, understood)


def _cards(text: str) -> list[str]:
    """The cards a line names, in 【】 or as words, each with the suit and rank written with it
    (``【闪】♦4``, ``闪 方片4``: that very card, ruling G10), in the seed's spelling."""
    return [cards.canonical(n) or n for n in cards.split_text(text.strip()) if n.strip()]


class _Reader:
    def __init__(self, text: str, source: str, lang: str) -> None:
        self.source, self.lang = source, lang
        self.raw = text.splitlines()
        self.sheet: dict[str, Any] = {}
        self.lines: list[tuple[int, str, str]] = []
        self.problems: list[Problem] = []
        self.pending: tuple[str, str, int] | None = None  # (key, question, line) awaiting an answer
        self.character: str | None = None
        self.equipment: str | None = None  # the equipment section 7 is about
        self.inline: set[str] = set()  # equipment whose zones came from a 出杀 line (section 7 overrides)

    def say(self, n: int, text: str, zh: str, en: str) -> None:
        self.lines.append((n, text, zh if self.lang == "zh" else en))

    def fail(self, n: int, text: str) -> None:
        self.problems.append(Problem("grail.import.line", self.source, f"line {n}", {"text": text}, line=n))

    def read(self) -> None:
        for n, line in enumerate(self.raw, 1):
            text = line.strip().replace("：", ":")
            if not text:
                continue
            body = NUMBER.sub("", text, count=1).strip()
            if self.pending is not None and self.answer(n, text, body):
                continue
            self.place(n, text, body)
        if self.pending is not None:
            key, question, n = self.pending
            self.problems.append(Problem("grail.import.answer", self.source, f"line {n}", {"question": question}, line=n))

    # a line by what it says ----------------------------------------------------------------
    def place(self, n: int, text: str, body: str) -> None:
        head = body.split(":", 1)[0].strip()
        if ":" in body and any(head.startswith(k) for k in INFO_KEYS):
            if head.startswith("角色"):
                self.character = body.split(":", 1)[1].split()[0] if body.split(":", 1)[1].split() else None
            self.say(n, text, "角色信息，不影响指令", "about the character; no order")
            return
        if "保留" in body:
            keep = _cards(body.split("保留", 1)[1])
            self.sheet["保留"] = keep
            self.say(n, text, f"保留：{'、'.join(keep)}", f"keep: {', '.join(keep)}")
            return
        for question, key in QUESTIONS.items():
            if question in body:
                if self.pending is not None:  # the question before this one was never answered
                    _, earlier, at = self.pending
                    self.problems.append(Problem("grail.import.answer", self.source, f"line {at}",
                                                 {"question": earlier}, line=at))
                rest = body.split(question, 1)[1].lstrip("?？ ")
                rest = re.sub(r"^[^\s]*对谁[?？]?", "", rest).strip()
                if key == "equipment_use":
                    named = BRACKETED.findall(body)
                    self.equipment = named[0] if named else self.equipment
                self.pending = (key, question, n)
                self.say(n, text, f"问题：{question}", f"question: {question}")
                if rest:
                    self.answer(n, text, rest)
                return
        if "血多的优先" in body or "牌多的优先" in body:
            value = "血多的优先" if "血多的优先" in body else "牌多的优先"
            self.sheet["目标优先"] = value
            self.say(n, text, f"目标优先：{value}", f"target priority: {value}")
            return
        strike = next((s for s in STRIKE if s in body), None)
        if strike is not None:
            self.strike(n, text, body, strike)
            return
        dodge = next((d for d in DODGE if d in body), None)
        if dodge is not None:
            self.dodge(n, text, body, dodge)
            return
        if "移动" in body or "坐标" in body:
            self.move(n, text, body)
            return
        if body in ("不使用咒", "使用咒", "不用咒", "用咒"):
            self.pending = ("curse", "是否使用咒", n)
            self.answer(n, text, body)
            return
        if body.rstrip("。") in ("不使用魔术牌", "使用魔术牌"):
            self.pending = ("magic", "是否使用魔术牌", n)
            self.answer(n, text, body)
            return
        if "装备了" in body:
            named = BRACKETED.findall(body)
            self.equipment = named[0] if named else self.equipment
            self.say(n, text, "说明：装备", "explanation: the equipment")
            return
        if any(p in body for p in PROMPTS) or (BRACKETED.fullmatch(body) is not None):
            self.say(n, text, "说明文字，无需指令", "explanatory text; no order")
            return
        if self.equipment is not None and self.zones(n, text, body):
            return
        self.fail(n, text)

    def answer(self, n: int, text: str, body: str) -> bool:
        """The answer to the question pending, if ``body`` is one; True when it was used."""
        assert self.pending is not None
        key, question, _ = self.pending
        clean = body.rstrip("。.!！")
        words = clean.split()
        if not words:
            return False
        yes = words[0] in ("是", "用", "使用", "发动") or clean in ("使用咒", "用咒", "使用魔术牌") \
            or key == "gem" and words[0] in ("自用", "对队友优先", "救队友优先", "队友优先")
        no = words[0] in ("否", "不", "不用", "不使用", "不发动") or clean in ("不使用咒", "不用咒", "不使用魔术牌")
        if not (yes or no):
            return False
        self.pending = None
        if key == "skill":
            entry: dict[str, Any] = {"使用": "是" if yes else "否"}
            if yes and "丢弃" in clean:
                entry["丢弃"] = _cards(clean.split("丢弃", 1)[1])
            self.sheet["技能"] = entry
            self.say(n, text, "技能：" + ("使用" + (f"，丢弃 {'、'.join(entry['丢弃'])}" if "丢弃" in entry else "") if yes else "不使用"),
                     "skill: " + ("use" + (f", discarding {', '.join(entry['丢弃'])}" if "丢弃" in entry else "") if yes else "no"))
        elif key == "curse":
            self.sheet["咒"] = "使用" if yes else "不使用"
            self.say(n, text, f"咒：{self.sheet['咒']}", f"curse: {'use' if yes else 'no'}")
        elif key == "gem":
            value = "不用" if no else "自用" if "自" in clean else "对队友优先" if "队友" in clean else "对队友优先"
            self.sheet["宝石"] = value
            self.say(n, text, f"宝石：{value}", f"gem: {value}")
        elif key == "magic":
            self.sheet.setdefault("魔术牌", {})["使用"] = "使用" if yes else "不使用"
            self.say(n, text, f"魔术牌：{'使用' if yes else '不使用'}", f"magic cards: {'use' if yes else 'no'}")
        else:  # equipment_use
            name = self.equipment or "?"
            self.sheet.setdefault("装备", {}).setdefault(name, {})["发动"] = "是" if yes else "否"
            self.say(n, text, f"装备【{name}】：{'发动' if yes else '不发动'}", f"equipment {name}: {'use' if yes else 'no'}")
        return True

    # the lists ------------------------------------------------------------------------------
    def strike(self, n: int, text: str, body: str, against: str) -> None:
        entry: dict[str, Any] | str = against if against == "不出杀" else {"对": against}
        self.sheet.setdefault("出杀顺序", []).append(entry)
        said_zh, said_en = f"出杀顺序第 {len(self.sheet['出杀顺序'])} 项：{against}", f"出杀 line {len(self.sheet['出杀顺序'])}: {against}"
        used = re.search(r"发动\s*【?([^\s(（【】]+)】?\s*[(（]([^)）]*)[)）]", body)
        if used:  # 发动万华杖 (手牌 装备 武器): the weapon's effect and its zones, where the list puts it
            name = used.group(1)
            zones = [ZONE_WORDS[w] for w in re.split(r"[\s,，、]+", used.group(2)) if w in ZONE_WORDS]
            equip = self.sheet.setdefault("装备", {}).setdefault(name, {})
            equip["发动"] = "是"
            if zones and "区域" not in equip:
                equip["区域"] = list(dict.fromkeys(zones))
                self.inline.add(name)
            said_zh += f"；发动【{name}】（区域 {'、'.join(dict.fromkeys(zones))}）"
            said_en += f"; use {name} (zones {', '.join(dict.fromkeys(zones))})"
        self.say(n, text, said_zh, said_en)

    def dodge(self, n: int, text: str, body: str, against: str) -> None:
        entry: dict[str, Any] | str = against if against == "不出闪" else {"对": against}
        via = next((CONVERTERS[k] for k in sorted(CONVERTERS, key=len, reverse=True) if k in body and "发动" in body), None)
        if via is not None and isinstance(entry, dict):
            entry["转换"] = via
        self.sheet.setdefault("出闪顺序", []).append(entry)
        k = len(self.sheet["出闪顺序"])
        self.say(n, text, f"出闪顺序第 {k} 项：{against}" + (f"（以【{via}】转换）" if via else ""),
                 f"出闪 line {k}: {against}" + (f" (converted through {via})" if via else ""))

    def zones(self, n: int, text: str, body: str) -> bool:
        words = [w for w in re.split(r"[\s,，、]+", body) if w]
        if not words or not all(w in ZONE_WORDS for w in words):
            return False
        name = self.equipment or "?"
        equip = self.sheet.setdefault("装备", {}).setdefault(name, {})
        zones = [ZONE_WORDS[w] for w in words]
        if name in self.inline:  # section 7's own answer replaces the zones a 出杀 line gave
            self.inline.discard(name)
            equip.pop("区域", None)
        if "区域" in equip:  # the seed's sample writes a second order: one order serves every target
            self.say(n, text, f"又一个区域顺序（{'、'.join(zones)}）：本工具对所有目标用第一个顺序（{'、'.join(equip['区域'])}）",
                     f"another zone order ({', '.join(zones)}): the tool uses the first one for every target")
            return True
        equip["区域"] = zones
        self.say(n, text, f"装备【{self.equipment}】的区域顺序：{'、'.join(zones)}", f"{self.equipment} zones: {', '.join(zones)}")
        return True

    def move(self, n: int, text: str, body: str) -> None:
        found = CELL.search(body.split("移动", 1)[-1])
        if found is None:
            self.say(n, text, "不移动", "no move")
            return
        cell = f"{found.group(1).upper()}{int(found.group(2))}"
        self.sheet["移动"] = {"目的地": cell}
        self.say(n, text, f"移动到 {cell}", f"move to {cell}")


def read_message(state: dict[str, Any], text: str, source: str, lang: str, player: str | None) -> Imported:
    """The sheet a message asks for (keys and values in the seed's words), turn and player set."""
    reader = _Reader(text, source, lang)
    if not text.strip():
        raise GmError.one("grail.import.empty", file=source)
    reader.read()
    if player is None:
        name = reader.character
        matches = [c for c in state["characters"] if name and (c["name"] == name or c["id"] == name)]
        if len(matches) == 1:
            player = matches[0]["player"]
    if player is None:
        reader.problems.append(Problem("grail.import.who", source, "player",
                                       {"allowed": "、".join(f"{c['name']}（{c['player']}）" for c in state["characters"])}))
    if reader.problems:
        raise GmError(reader.problems)
    sheet = {"回合": state["turn"] + 1, "玩家": player, **reader.sheet}
    return Imported(sheet, reader.lines)

"""Player-facing message catalog: Chinese by default, English with ``--lang en``.

Core messages live here; a ruleset adds its own with :func:`register`. A message is a
``str.format`` template per language; a code without a translation falls back to English,
then to the code itself, so a missing entry never crashes a command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

LANGS = ("zh", "en")

_CATALOG: dict[str, dict[str, str]] = {
    # files and YAML
    "file.missing": {"zh": "文件不存在", "en": "file not found"},
    "file.unreadable": {"zh": "无法读取文件：{reason}", "en": "cannot read the file: {reason}"},
    "file.too_large": {"zh": "文件过大（{size} 字节），上限 {limit} 字节",
                       "en": "file too large ({size} bytes); the limit is {limit} bytes"},
    "file.encoding": {"zh": "文件不是 UTF-8 文本", "en": "the file is not UTF-8 text"},
    "file.binary": {"zh": "文件含有二进制内容（NUL 字节），应为 YAML 文本",
                    "en": "the file holds binary data (NUL bytes); a YAML text is expected"},
    "yaml.syntax": {"zh": "YAML 语法错误（第 {line} 行，第 {column} 列）：{problem}",
                    "en": "YAML syntax error (line {line}, column {column}): {problem}"},
    "yaml.too_deep": {"zh": "嵌套过深（超过 {limit} 层）", "en": "nested too deeply (more than {limit} levels)"},
    "yaml.too_big": {"zh": "展开后的内容过大（超过 {limit} 个节点，可能是别名炸弹）",
                     "en": "expands to too many nodes (more than {limit}; an alias bomb?)"},
    "yaml.not_mapping": {"zh": "顶层应为映射（键: 值），实为 {got}",
                         "en": "the top level must be a mapping (key: value), got {got}"},
    "yaml.bad_key": {"zh": "键必须是字符串，实为 {got}", "en": "keys must be strings, got {got}"},
    # schema
    "field.required": {"zh": "缺少必填项", "en": "required field is missing"},
    "field.unknown": {"zh": "未知的键；允许：{allowed}", "en": "unknown key; allowed: {allowed}"},
    "field.type": {"zh": "类型错误：应为{expected}，实为 {got}", "en": "wrong type: expected {expected}, got {got}"},
    "field.choice": {"zh": "值 {value!r} 不在允许范围内；允许：{allowed}",
                     "en": "value {value!r} is not allowed; allowed: {allowed}"},
    "field.range": {"zh": "值 {value} 超出范围；允许：{allowed}", "en": "value {value} is out of range; allowed: {allowed}"},
    "field.duplicate": {"zh": "重复的值 {value!r}", "en": "duplicate value {value!r}"},
    # actions (gm_tool.core.actions): an entry names one kind of action by its key
    "action.not_mapping": {"zh": "应为一个行动（键: 值），行动为：{kinds}", "en": "an action is expected (key: value), one of: {kinds}"},
    "action.none": {"zh": "没有写明行动；可写：{kinds}", "en": "no action named; write one of: {kinds}"},
    "action.several": {"zh": "每条只能写一个行动（已有 {first}）；行动为：{kinds}",
                       "en": "one action per entry ({first} is already there); actions: {kinds}"},
    "cell.bad": {"zh": "无法识别的坐标 {value!r}；格式如 C11、C,11 或 (C,11)，列 {cols}，行 1-{rows}",
                 "en": "unrecognised cell {value!r}; write it as C11, C,11 or (C,11), columns {cols}, rows 1-{rows}"},
    # campaign
    "campaign.exists": {"zh": "目标文件夹已存在且不为空，不会覆盖",
                        "en": "the folder already exists and is not empty; it is never overwritten"},
    "campaign.missing": {"zh": "不是战役文件夹（缺少 campaign.yaml）",
                         "en": "not a campaign folder (campaign.yaml is missing)"},
    "campaign.locked": {"zh": "另一个 gm 命令正在修改此战役，请稍后再试",
                        "en": "another gm command is changing this campaign; try again later"},
    "campaign.corrupt": {"zh": "战役文件损坏：{reason}", "en": "campaign file is damaged: {reason}"},
    "campaign.over": {"zh": "{result}；没有下一回合", "en": "{result}; there is no next turn"},
    "scenario.unknown": {"zh": "未知剧本 {name!r}；内置剧本：{allowed}，或给出剧本文件路径",
                         "en": "unknown scenario {name!r}; bundled: {allowed}, or give a scenario file path"},
    "ruleset.unknown": {"zh": "未知规则集 {name!r}；允许：{allowed}", "en": "unknown ruleset {name!r}; allowed: {allowed}"},
    "player.unknown": {"zh": "未知玩家 {player!r}；本战役玩家：{allowed}",
                       "en": "unknown player {player!r}; players of this campaign: {allowed}"},
    "player.bad_name": {"zh": "玩家名 {player!r} 不可用作文件名；只允许字母、数字、汉字、- 和 _",
                        "en": "player name {player!r} cannot be a file name; only letters, digits, CJK, - and _ are allowed"},
    "orders.turn": {"zh": "回合号 {got} 不对；当前待结算回合为 {expected}",
                    "en": "turn {got} is wrong; the turn being played is {expected}"},
    "orders.player_mismatch": {"zh": "文件中的玩家 {got!r} 与命令中的 {expected!r} 不符",
                               "en": "the sheet's player {got!r} differs from {expected!r}"},
    "orders.duplicate_player": {"zh": "玩家 {player!r} 的指令表出现了不止一份",
                                "en": "more than one sheet for player {player!r}"},
    "turn.unknown": {"zh": "没有第 {turn} 回合；已结算的回合为 0-{last}",
                     "en": "there is no turn {turn}; resolved turns are 0-{last}"},
    "turn.no_posts": {"zh": "第 {turn} 回合没有帖子", "en": "turn {turn} has no posts"},
    "report.missing": {"zh": "第 {turn} 回合没有 {name} 的帖子", "en": "turn {turn} has no post {name}"},
    "lang.unknown": {"zh": "未知语言 {value!r}；允许：zh, en", "en": "unknown language {value!r}; allowed: zh, en"},
    "format.unknown": {"zh": "未知格式 {value!r}；允许：{allowed}", "en": "unknown format {value!r}; allowed: {allowed}"},
    "verify.mismatch": {"zh": "第 {turn} 回合的此文件与重放结果不同：{detail}", "en": "turn {turn} differs from the replay: {detail}"},
    "amend.unknown": {"zh": "未知的 GM 调整 {value!r}；允许：{allowed}", "en": "unknown GM edit {value!r}; allowed: {allowed}"},
    "amend.arity": {"zh": "{action} 需要参数：{usage}（收到 {got} 个）", "en": "{action} takes: {usage} (got {got})"},
    "amend.int": {"zh": "参数 {name} 应为整数（半角或全角数字），实为 {value!r}", "en": "argument {name} must be an integer (ASCII or full-width digits), got {value!r}"},
    "amend.range": {"zh": "参数 {name} 应在 {minimum}-{maximum} 之间，实为 {value}", "en": "argument {name} must be {minimum}-{maximum}, got {value}"},
    "import.unsupported": {"zh": "规则集 {ruleset} 没有可导入的文字指令格式；请用 YAML 指令表（gm template）",
                           "en": "ruleset {ruleset} has no written-message form to import; use a YAML sheet (gm template)"},
    "status.passes": {"zh": "跳过（未交指令视为放弃本回合）", "en": "passes (no sheet is a pass)"},
    "status.defaults": {"zh": "按默认指令行动", "en": "acts on the default orders"},
    "dice.no_file": {"zh": "此规则集不使用论坛骰子文件", "en": "this ruleset takes no forum dice"},
    "dice.face": {"zh": "骰子点数 {value!r} 无效；允许 1-{sides} 的整数", "en": "die face {value!r} is not allowed; allowed: integers 1-{sides}"},
    "dice.count": {"zh": "一次最多 {limit} 个骰子", "en": "at most {limit} dice at once"},
    "dice.none": {"zh": "没有给出骰子点数（只有 --replace 可以不给：清空本回合已存的论坛骰）",
                  "en": "no die faces given (only --replace may give none: it empties this turn's forum rolls)"},
    "dice.notes": {"zh": "notes 的每一项应为 {{from: 序号, note: 文字}}", "en": "each notes entry is {{from: index, note: text}}"},
    "verify.seed": {"zh": "种子与承诺值不符", "en": "the seed does not match the commitment"},
    # posts (gm_tool.core.posts): what every game's post says the same way
    "posts.attach": {"zh": "（请把图片 {file} 作为附件插入此处）", "en": "(attach the picture {file} here)"},
    "posts.commitment": {"zh": "种子承诺", "en": "Seed commitment"},
    "posts.rules": {"zh": "本局规则开关", "en": "Rules switches in force"},
    "posts.rules_name": {"zh": "开关", "en": "Switch"},
    "posts.rules_value": {"zh": "本局取值", "en": "Value"},
    "posts.rules_reading": {"zh": "与原文", "en": "Against the rules"},
    "posts.rules_line": {"zh": "原文出处", "en": "Rule line"},
    "posts.sheet": {"zh": "第 {n} 回合指令表（可直接修改后发送）", "en": "Order sheet for turn {n} (edit it and send it)"},
    "posts.draw": {"zh": "平局", "en": "a draw"},
    "rules.yes": {"zh": "是", "en": "yes"},
    "rules.no": {"zh": "否", "en": "no"},
    "rules.seed": {"zh": "按原文", "en": "as written"},
    "rules.changed": {"zh": "本局改动", "en": "changed for this game"},
    "campaign.finished": {"zh": "游戏已结束，胜者：{winner}", "en": "The game is over; the winner: {winner}"},
    "campaign.finished_draw": {"zh": "游戏已结束：平局", "en": "The game is over: a draw"},
}


def register(entries: dict[str, dict[str, str]]) -> None:
    """Add a ruleset's messages to the one catalog. Codes are prefixed by the ruleset's name
    (``toy.not_due``); a code is defined once: registering it again with another text
    is an error (the last import would silently win)."""
    for code, entry in entries.items():
        known = _CATALOG.get(code)
        if known is not None and known != entry:
            raise ValueError(f"message code {code!r} is defined twice")
        if set(entry) - {"zh", "en"} or not entry.get("zh") or not entry.get("en"):
            raise ValueError(f"message code {code!r} needs exactly a zh and an en text")
        _CATALOG[code] = entry


_LAZY: dict[str, Callable[[], object]] = {}


def register_lazy(prefix: str, load: Callable[[], object]) -> None:
    """``load`` registers the messages whose codes start with ``prefix + "."`` (a ruleset's
    ``data/messages.yaml``); it is called the first time one of them is asked for, so a command
    that prints none of them never reads the file."""
    _LAZY[prefix] = load


def _lookup(code: str) -> dict[str, str] | None:
    entry = _CATALOG.get(code)
    if entry is None and _LAZY:
        load = _LAZY.pop(code.split(".", 1)[0], None)
        if load is not None:
            load()
            entry = _CATALOG.get(code)
    return entry


def codes() -> list[str]:
    """Every message code known so far (those registered lazily included)."""
    for prefix in list(_LAZY):
        _LAZY.pop(prefix)()
    return sorted(_CATALOG)


def message(code: str, lang: str = "zh", **params: Any) -> str:
    entry = _lookup(code)
    if entry is None:
        return code + (" " + repr(params) if params else "")
    template = entry.get(lang) or entry.get("en") or code
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template + " " + repr(params)

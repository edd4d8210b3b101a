"""The terminal side of every command, without typer: the console's messages, printing, the
guard that turns errors into exit codes, and the nightly commands (``resolve``, ``check``,
``submit``) that both the typer app (``gm_tool.cli``) and the fast entry point
(``gm_tool.entry``) call.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gm_tool.errors import USAGE, GmError, Problem
from gm_tool.i18n import LANGS, message, register

TEXT = {
    "created": {"zh": "已创建战役 {dir}（玩家：{players}）\n种子承诺 sha256：{commitment}（请在首帖公布）",
                "en": "Created campaign {dir} (players: {players})\nSeed commitment sha256: {commitment} (publish it in the first post)"},
    "demo": {"zh": "演示战役 {dir}：内置机器人下了 {turns} 个回合。", "en": "Demo campaign {dir}: the built-in bots played {turns} turns."},
    "valid": {"zh": "{file}: 有效（{player}）", "en": "{file}: valid ({player})"},
    "stored": {"zh": "已保存为 {path}", "en": "stored as {path}"},
    "replaced": {"zh": "注意：这份指令表是 {player} 的，取代了已保存的 {player} 的指令表（{path}）",
                 "en": "note: this is {player}'s sheet; it replaced the sheet already stored for {player} ({path})"},
    "named_other": {"zh": "注意：文件名 {file} 像是 {named} 的，但表中 player 是 {player}；已按 {player} 的指令表保存",
                    "en": "note: the file {file} looks like {named}'s, but its player is {player}; stored as {player}'s sheet"},
    "resolved": {"zh": "第 {turn} 回合已结算。状态：{state}", "en": "Turn {turn} resolved. State: {state}"},
    "posts": {"zh": "帖子：", "en": "Posts:"},
    "winner": {"zh": "{result}", "en": "{result}"},
    "status": {"zh": "已结算回合：{turn}；待结算：第 {next} 回合\n应交：{due}\n已交：{received}\n未交：{missing}",
               "en": "Turns resolved: {turn}; next: turn {next}\nDue: {due}\nReceived: {received}\nMissing: {missing}"},
    "passed": {"zh": "未交指令、本回合视为放弃：{players}", "en": "Sent no sheet and passed: {players}"},
    "defaulted": {"zh": "未交指令、按默认指令行动：{players}", "en": "Sent no sheet and acted on the defaults: {players}"},
    "dice_stored": {"zh": "第 {turn} 回合的论坛骰子已保存到 {file}：{dice}", "en": "Forum dice for turn {turn} stored in {file}: {dice}"},
    "invalid_sheet": {"zh": "  {player} 已交的指令表不再有效（请让玩家重新提交）：", "en": "  {player}'s stored sheet no longer validates (ask for a new one):"},
    "finished": {"zh": "已结算回合：{turn}。{result}。", "en": "Turns resolved: {turn}. {result}."},
    "dice_status": {"zh": "本回合论坛骰子：{dice}", "en": "Forum dice for this turn: {dice}"},
    "rolled": {"zh": "已回到第 {turn} 回合之后；被取代的回合移至 {superseded}", "en": "Back to after turn {turn}; superseded turns moved to {superseded}"},
    "verified": {"zh": "校验通过：{turns} 个回合，{files_checked} 个文件与重放一致（含 {amendments} 项 GM 调整）\n种子承诺 sha256：{commitment}（请与首帖公布的值比对）",
                 "en": "Verified: {turns} turns, {files_checked} files match the replay ({amendments} GM edits included)\nSeed commitment sha256: {commitment} (compare it with the one published in the first post)"},
    "verify_uncommitted": {"zh": "注意：第 {turn} 回合的帖子与日志是一次未完成的 gm resolve 留下的（没有状态文件），与重放第 {turn} 回合的结果一致；GM 的下一条命令会清除它们（{count} 个文件）",
                           "en": "note: turn {turn}'s posts and log were left by a gm resolve that did not finish (no state file); they are what replaying turn {turn} gives, and the GM's next command removes them ({count} files)"},
    "verify_pending_rollback": {"zh": "注意：一次退回到第 {to} 回合的 gm rollback 未完成，而这份副本无法写入、不能把它做完；它要移走的 {count} 个文件未校验",
                                "en": "note: a gm rollback to turn {to} was left half done and this copy cannot be written to finish it; the {count} files it sets aside were not checked"},
    "verify_pending_forum": {"zh": "注意：一次 gm forum 未完成，而这份副本无法写入、不能把它做完；每回合的帖子按它之前或之后的论坛设置校验",
                             "en": "note: a gm forum was left half done and this copy cannot be written to finish it; each turn's posts were checked against the forum settings before it or after it"},
    "overridden": {"zh": "注意：本战役用自带模板（templates/：{names}）代替了内置帖子模板；它们在沙箱中渲染，不能运行代码",
                   "en": "note: this campaign replaces the bundled post templates with its own (templates/: {names}); they were rendered in the sandbox and cannot run code"},
    "default": {"zh": "  {player}：{default}", "en": "  {player}: {default}"},
    "pending_edits": {"zh": "待生效的 GM 调整（将出现在第 {next} 回合帖子中）：", "en": "GM edits waiting to open turn {next}:"},
    "edit": {"zh": "  {action} {args}（理由：{reason}）", "en": "  {action} {args} (reason: {reason})"},
    "amended": {"zh": "已记录 GM 调整：{file}\n它会出现在第 {turn} 回合的日志与公开帖中（gm preview 可先看效果）",
                "en": "GM edit recorded: {file}\nIt opens turn {turn}'s log and public post (gm preview shows it now)"},
    "amend_post": {"zh": "  要立即发出的帖子：{path}", "en": "  post to send now: {path}"},
    "stale": {"zh": "注意：以下已提交的指令表在此调整后不再有效，请让玩家重新提交：",
              "en": "Note: these stored sheets no longer validate after this edit; ask the players to send new ones:"},
    "revealed": {"zh": "种子：{seed}\nsha256：{commitment}（与 campaign.yaml 记录的承诺{match}）\n玩家可用 gm verify 目录 --seed {seed} 校验全部回合",
                 "en": "Seed: {seed}\nsha256: {commitment} ({match} the commitment in campaign.yaml)\nPlayers check every turn with: gm verify DIR --seed {seed}"},
    "match": {"zh": "一致", "en": "matches"},
    "nomatch": {"zh": "不一致！", "en": "DOES NOT MATCH"},
    "weak_seed": {"zh": "警告：种子太短（{n} 个字符），玩家可能从承诺值反推出它；建议省略 --seed，让 gm 生成随机种子",
                  "en": "warning: the seed is short ({n} characters); players could guess it from its commitment. Leave out --seed for a random one"},
    "weak_seed_bits": {"zh": "警告：种子太弱（{n} 个字符，至多约 {bits} 比特；16 位数字只有约 53 比特），玩家可能从承诺值反推出它；建议省略 --seed，让 gm 生成 128 比特的随机种子",
                       "en": "warning: the seed is short for a secret ({n} characters, at most about {bits} bits; a 16-digit number is about 53); players could find it from its commitment. Leave out --seed for a random 128-bit one"},
    "written": {"zh": "已写入 {path}", "en": "wrote {path}"},
    "warning": {"zh": "  注意：{text}", "en": "  note: {text}"},
    "none": {"zh": "无", "en": "none"},
    "os_denied": {"zh": "{file}：没有权限（{reason}）。请检查该文件或文件夹的所有者与权限（ls -l），或以其所有者身份运行；战役未被改动",
                  "en": "{file}: permission denied ({reason}). Check the owner and permissions of that file or folder (ls -l), or run as its owner; the campaign is unchanged"},
    "os_full": {"zh": "{file}：磁盘已满（{reason}）。请腾出空间后重新运行此命令；战役保持在命令之前的状态",
                "en": "{file}: the disk is full ({reason}). Free some space and run the command again; the campaign is as it was before the command"},
    "os_full_new": {"zh": "{file}：磁盘已满（{reason}）。请腾出空间后重新运行 gm new；什么都没有创建",
                    "en": "{file}: the disk is full ({reason}). Free some space and run gm new again; nothing was created"},
    "os_device": {"zh": "{file}：跨文件系统（{reason}）：战役文件夹里有指向别的磁盘的链接或挂载点。请把它换成普通文件夹（移动其内容进来）后重试",
                  "en": "{file}: crosses file systems ({reason}): the campaign folder holds a link or mount point to another disk. Replace it with a plain folder (move its contents in) and try again"},
    "os_readonly": {"zh": "{file}：文件系统只读（{reason}）。请把战役复制到可写的位置再运行",
                    "en": "{file}: the file system is read-only ({reason}). Copy the campaign somewhere writable and run the command there"},
    "os_name": {"zh": "{file}：路径过长（{reason}）。请换一个短一些的路径", "en": "{file}: the path is too long ({reason}). Use a shorter one"},
    "os_link": {"zh": "{file}：链接层数过多（{reason}）。请删除循环链接", "en": "{file}: too many levels of links ({reason}). Remove the link loop"},
    "os_other": {"zh": "{file}：文件操作失败（{reason}）；战役保持在命令之前的状态",
                 "en": "{file}: a file operation failed ({reason}); the campaign is as it was before the command"},
    "os_other_new": {"zh": "{file}：文件操作失败（{reason}）；什么都没有创建",
                     "en": "{file}: a file operation failed ({reason}); nothing was created"},
    "internal": {"zh": "内部错误：{error}（请报告此问题；设置 GM_DEBUG=1 可查看详情）",
                 "en": "internal error: {error} (please report it; set GM_DEBUG=1 for details)"},
}



def echo(text: str = "", err: bool = False) -> None:
    print(text, file=sys.stderr if err else sys.stdout, flush=True)


register({f"cli.{key}": entry for key, entry in TEXT.items()})  # the console's lines join the one catalogue


def say(key: str, lang: str, **params: Any) -> None:
    echo(message(f"cli.{key}", lang, **params))


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise GmError.one("lang.unknown", field="--lang", exit_code=USAGE, value=lang)
    return lang


def guarded(call: Callable[[], None], lang: str, passthrough: tuple[type[BaseException], ...] = ()) -> int:
    """Run a command; return its exit code. A GmError becomes its lines on stderr and its code;
    a closed output pipe ends quietly; any other exception (a bug) one clean line and 1, never a
    traceback (``GM_DEBUG=1`` shows it). ``passthrough`` exceptions (the CLI framework's own)
    propagate."""
    try:
        check_lang(lang)
        call()
        return 0
    except GmError as exc:
        echo(exc.render(lang if lang in ("zh", "en") else "zh"), err=True)
        return exc.exit_code
    except passthrough:
        raise
    except KeyboardInterrupt:
        raise
    except BrokenPipeError:  # `gm report ... | head`: the reader left; not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # the machine's, not a bug: name the file and what to do
        if os.environ.get("GM_DEBUG"):
            raise
        echo(os_error(exc, lang if lang in ("zh", "en") else "zh"), err=True)
        return 1
    except Exception as exc:  # a bug: still no traceback for the user
        if os.environ.get("GM_DEBUG"):
            raise
        text = TEXT["internal"].get(lang, TEXT["internal"]["en"]).format(error=f"{type(exc).__name__}: {exc}")
        echo(text, err=True)
        return 1


_OS_ERRORS = {  # errno name -> message key
    "EACCES": "os_denied", "EPERM": "os_denied", "ENOSPC": "os_full", "EDQUOT": "os_full",
    "EXDEV": "os_device", "EROFS": "os_readonly", "EMLINK": "os_full", "ENAMETOOLONG": "os_name", "ELOOP": "os_link",
}


def os_error(exc: OSError, lang: str = "zh") -> str:
    """One line for an error of the operating system: which file, what happened, what to do.
    Commands write atomically, so the campaign is as it was before the command (``gm new``, which
    marks its errors ``nothing_made``, leaves no folder: it says so)."""
    import errno

    key = _OS_ERRORS.get(errno.errorcode.get(exc.errno or 0, ""), "os_other")
    if getattr(exc, "nothing_made", False) and f"{key}_new" in TEXT:
        key = f"{key}_new"
    files = " -> ".join(str(f) for f in (exc.filename, exc.filename2) if f is not None) or "?"
    text = TEXT[key].get(lang, TEXT[key]["en"])
    return text.format(file=files, reason=exc.strerror or str(exc))


# the nightly commands (the typer commands of the same names call these) -----------------------
def resolve(directory: Path, lang: str = "zh") -> None:
    from gm_tool import app as ops

    result = ops.resolve(directory)
    say("resolved", lang, turn=result["turn"], state=result["state"])
    say("posts", lang)
    for path in result["reports"]:
        echo(f"  {path}")
    if result["passed"]:
        say("passed", lang, players=", ".join(result["passed"]))
    elif result["missing"]:
        say("defaulted", lang, players=", ".join(result["missing"]))
    if result["winner"]:
        op = ops.open_campaign(directory)
        say("winner", lang, result=op.result(op.state(), lang))


def check(directory: Path, files: list[Path], lang: str = "zh") -> None:
    from gm_tool import app as ops

    op = ops.open_campaign(directory)
    state = op.state()
    op.refuse_if_over(state, lang)
    problems = []
    seen: dict[str, Path] = {}
    for file in files:  # every file is reported, the valid ones too, whatever the others hold
        try:
            (player, (path, orders)), = ops.check_files(op, [file], lang, state).items()
        except GmError as exc:
            problems.extend(exc.problems)
            continue
        if player in seen:
            problems.append(Problem("orders.duplicate_player", str(file), "player", {"player": player}))
            continue
        seen[player] = path
        say("valid", lang, file=path, player=player)
        for warning in ops.sheet_warnings(orders, path):
            say("warning", lang, text=warning.render(lang))
    if problems:
        raise GmError(problems)


def submit(directory: Path, file: Path, lang: str = "zh") -> None:
    from gm_tool import app as ops

    result = ops.submit_sheet(directory, file, lang)
    say("stored", lang, path=result["path"])
    for warning in result["warnings"]:
        say("warning", lang, text=warning.render(lang))
    if result["replaced"]:
        say("replaced", lang, player=result["player"], path=result["replaced"])
    if result["named"]:
        say("named_other", lang, file=Path(file).name, player=result["player"], named=result["named"])

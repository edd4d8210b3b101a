"""Events told as sentences (message codes ``hunlu.event.<type>``): every roll with its source,
every strike with the pips it was read against, so a player can check the arithmetic."""

from __future__ import annotations

from typing import Any

from gm_tool.i18n import message, register

SOURCES = {"file": {"zh": "论坛骰", "en": "forum roll"}, "queue": {"zh": "强制队列", "en": "forced queue"},
           "seed": {"zh": "种子", "en": "seed"}, "check": {"zh": "检查", "en": "check"}}

EVENTS = {
    "dice_file": ("本回合论坛骰：{dice}", "this turn's forum rolls: {dice}"),
    "dice_unused": ("未用到的论坛骰已丢弃：{dice}", "unused forum rolls dropped: {dice}"),
    "turn_start": ("【第{round}大回合】{unit} 行动（行动点 {ap}，行动力 {move}，气 {qi}）{passed}",
                   "[round {round}] {unit} acts (points {ap}, 行动力 {move}, 气 {qi}){passed}"),
    "roll": ("判定（{why}）：{value} 点 [{source}]", "roll ({why}): {value} [{source}]"),
    "move": ("{unit} 移动 {frm} → {dest}（{cells} 格，剩行动力 {move}）", "{unit} moves {frm} -> {dest} ({cells}, 行动力 left {move})"),
    "attack": ("{unit} 普攻 {target}", "{unit} attacks {target}"),
    "joint_attack": ("{unit} 联合攻击 {target}（消耗1点与1气）", "{unit} joins the attack on {target} (1 point, 1 气)"),
    "strike": ("打击 {unit} → {target}：骰 {face}；{pipline} ⇒ {outcome}", "strike {unit} -> {target}: die {face}; {pipline} => {outcome}"),
    "strike_failed": ("{unit} 的打击失效", "{unit}'s strike fails"),
    "damage": ("{unit} 受到 {amount} 点伤害（{why}），精 {jing}", "{unit} takes {amount} ({why}), 精 {jing}"),
    "heal": ("{unit} 恢复 {amount} 精（{why}），精 {jing}", "{unit} heals {amount} ({why}), 精 {jing}"),
    "shen": ("{unit} 神 → {shen}（{why}）", "{unit} 神 -> {shen} ({why})"),
    "qi": ("{unit} 气 {change:+} → {value}", "{unit} 气 {change:+} -> {value}"),
    "regen": ("{unit} 恢气 → {qi}", "{unit} regains 气 -> {qi}"),
    "status": ("{unit} 获得状态 {name}（{rounds} 回合{pending}）", "{unit} gains {name} ({rounds} rounds{pending})"),
    "status_end": ("{unit} 的 {name} 结束", "{unit}'s {name} ends"),
    "skill": ("{unit} 释放【{name}】（气 {qi}，行动力 {move_cost}{overdraw}）→ {targets}",
              "{unit} casts [{name}] (气 {qi}, 行动力 {move_cost}{overdraw}) -> {targets}"),
    "toggle_off": ("{unit} 取消【{name}】", "{unit} ends [{name}]"),
    "passive": ("{unit} 被动【{name}】触发", "{unit}'s passive [{name}] triggers"),
    "chance": ("{unit} 概率判定 {why}：骰 {face} 对 {pips} 点 ⇒ {ok}", "{unit} chance {why}: die {face} vs {pips} pips => {ok}"),
    "knockback": ("{unit} 被击退 {cells}/{wanted} 格（{direction}）→ {dest}", "{unit} knocked back {cells}/{wanted} ({direction}) -> {dest}"),
    "collision": ("{unit} 碰触障碍", "{unit} hits an obstacle"),
    "dash": ("{unit} 突进 {frm} → {dest}", "{unit} dashes {frm} -> {dest}"),
    "chasm": ("{unit} 落入天堑 {pos}，移出战场", "{unit} falls into the 天堑 at {pos}"),
    "chasm_return": ("{unit} 从天堑回归 {pos}", "{unit} returns from the 天堑 to {pos}"),
    "chasm_stuck": ("{unit} 无处回归，仍在天堑", "{unit} has no free point and stays in the 天堑"),
    "death": ("{unit} 死亡", "{unit} dies"),
    "reserve_chosen": ("{unit} 的替补：{reserve}（下回合初上场）", "{unit}'s reserve: {reserve} (enters next round start)"),
    "enter": ("{unit} 上场接替 {replaces}（{pos}）", "{unit} enters for {replaces} ({pos})"),
    "substitute": ("{unit} 进入替换状态，下回合初由 {reserve} 接替", "{unit} will be replaced by {reserve} next round start"),
    "skip": ("{unit} 的行动 {kind} 跳过：{reason}", "{unit}'s {kind} skipped: {reason}"),
    "turn_skipped": ("{unit} 本回合无法行动（{reason}）", "{unit} cannot act this round ({reason})"),
    "turn_end": ("{unit} 回合结束（剩行动点 {ap}）", "{unit}'s turn ends ({ap} points left)"),
    "round_start": ("—— 第{round}大回合开始{tianqi} ——", "-- round {round} starts{tianqi} --"),
    "round_end": ("—— 第{round}大回合结束 ——", "-- round {round} ends --"),
    "order": ("行动顺序：{order}", "acting order: {order}"),
    "next": ("下一位：{unit}", "next: {unit}"),
    "extra_turn": ("{unit} 立即执行自己的一个回合，下回合无法行动", "{unit} takes a turn at once and skips the next round"),
    "reflect": ("{unit} 反弹 {amount} 点伤害给 {target}", "{unit} reflects {amount} to {target}"),
    "reflect_set": ("{unit} 本回合末将反弹所受伤害", "{unit} will reflect this round's damage at round end"),
    "ward": ("{unit} 无视了一次精神伤害", "{unit} ignores a 精神伤害"),
    "ward_set": ("{unit} 获得精神伤害护持", "{unit} is warded against 精神伤害"),
    "resisted": ("{unit} 元抗触发（骰 {face}）", "{unit}'s 元抗 triggers (die {face})"),
    "victory": ("胜者：{winner}", "winner: {winner}"),
    "round_pending": ("第{round}大回合进行中：战报在大回合结束时发布", "round {round} goes on: its report comes when it ends"),
    "standing": ("{player} 更新了常驻指令：{keys}", "{player} updated standing orders: {keys}"),
    "amend": ("GM 修改：{what}（原因：{reason}）", "GM edit: {what} (reason: {reason})"),
}
register({f"hunlu.event.{k}": {"zh": zh, "en": en} for k, (zh, en) in EVENTS.items()})
SILENT = ("chance_internal",)


def _name(state: dict[str, Any], uid: Any) -> str:
    for u in state["units"]:
        if u["id"] == uid:
            return f"{u['name']}({uid})"
    return str(uid)


def _yes(flag: bool, lang: str) -> str:
    return ("是" if flag else "否") if lang == "zh" else ("yes" if flag else "no")


def tell(e: dict[str, Any], state: dict[str, Any], lang: str) -> str:
    t = e["type"]
    data = {k: v for k, v in e.items() if k not in ("seq", "type", "to")}
    for k in ("unit", "target", "reserve", "replaces", "player"):
        if k in data:
            data[k] = _name(state, data[k]) if k != "player" else data[k]
    if data.get("direction") and lang == "zh":
        data["direction"] = {"up": "上", "down": "下", "left": "左", "right": "右"}.get(data["direction"], data["direction"])
    if t == "roll":
        data["source"] = SOURCES.get(e["source"], {}).get(lang, e["source"])
    if t == "strike":
        p = e["pips"]
        zh = lang == "zh"
        parts = [f"{'暴击' if zh else 'crit'} 1-{p['crit']}" if p["crit"] else "",
                 f"{'命中' if zh else 'hit'} 1-{p['hit']}" if p["hit"] else "",
                 f"{'弱点' if zh else 'weakness'} {7 - p['weakness']}-6" if p["weakness"] else "",
                 f"{'闪避' if zh else 'dodge'} 1-{p['dodge']}" if p["dodge"] else "",
                 f"{'防御' if zh else 'defence'} 1-{p['defence']}" if p["defence"] else "",
                 f"{'元抗' if zh else 'resist'} 1-{p['resist']}" if p["resist"] else ""]
        data["pipline"] = ", ".join(x for x in parts if x) or ("无属性触发区间" if zh else "no attribute pips")
        hits = [n for n, k in (("暴击" if zh else "crit", "crit"), ("弱点" if zh else "weakness", "weakness"),
                               ("闪避" if zh else "dodge", "dodge"), ("命中" if zh else "hit", "hit"),
                               ("防御" if zh else "defence", "defence"), ("元抗" if zh else "resist", "resist")) if e[k]]
        base = f"{'基础' if zh else 'base'} {e['base']}"
        data["outcome"] = (f"{base}; {'+'.join(hits) or ('无' if zh else 'none')}; "
                           + (("伤害无效" if zh else "nullified") if e["nullified"] else
                              f"{'伤害' if zh else 'damage'} {e['damage']}"))
    if t == "chance":
        data["ok"] = _yes(e["ok"], lang)
    if t == "status":
        data["rounds"] = "∞" if e["rounds"] is None else e["rounds"]
        data["pending"] = "" if e["active"] else ("，下回合起生效" if lang == "zh" else ", from next round")
    if t == "skill":
        data["targets"] = ", ".join(_name(state, x) for x in e["targets"]) or "-"
        data["overdraw"] = ("，透支" if lang == "zh" else ", overdraw") if e["overdraw"] else ""
    if t == "skip":
        data["reason"] = message(f"hunlu.skip.{e['reason']}", lang, **_safe(e.get("params") or {}))
    if t == "turn_start":
        data["passed"] = ("（未提交：跳过）" if lang == "zh" else " (no sheet: pass)") if e["passed"] else ""
    if t == "round_start":
        data["tianqi"] = ("（天启回合）" if lang == "zh" else " (天启 round)") if e["tianqi"] else ""
    if t == "order":
        data["order"] = " > ".join(_name(state, x) for x in e["order"])
    if t == "dice_file" or t == "dice_unused":
        data["dice"] = ", ".join(str(d) for d in e["dice"])
    if t == "standing":
        data["keys"] = ", ".join(e["keys"])
    try:
        return message(f"hunlu.event.{t}", lang, **data)
    except (KeyError, ValueError, IndexError):
        return f"{t}: {data}"


class _Default(dict):
    def __missing__(self, key: str) -> str:
        return "?"


def _safe(params: dict[str, Any]) -> dict[str, Any]:
    return _Default(params)


def lines(events: list[dict[str, Any]], state: dict[str, Any], lang: str, m: Any) -> list[str]:
    out = []
    for e in events:
        if e["type"] in ("next", "turn_end"):
            continue
        text = m.esc(tell(e, state, lang))
        out.append(m.b(text) if e["type"] in ("death", "victory", "round_start") else text)
    return out


def title(before: dict[str, Any], after: dict[str, Any], player: str | None, lang: str) -> str:
    n = after["turn"]
    if lang == "zh":
        return f"魂陆 {after['name']} 第{n}步（第{before['round']}大回合）" + ("" if player is None else f" · {player} 私信")
    return f"Hunlu {after['name']} turn {n} (round {before['round']})" + ("" if player is None else f" · private: {player}")


def next_note(state: dict[str, Any], player: str | None, lang: str) -> str:
    nxt = state.get("next")
    if state.get("winner"):
        return ("游戏结束，胜者：" if lang == "zh" else "game over, winner: ") + str(state["winner"])
    if not nxt:
        return "无人可行动，等待 GM 修改" if lang == "zh" else "nobody can act: the GM amends"
    if player is not None and nxt["player"] == player:
        return (f"轮到你的魂将 {_name(state, nxt['unit'])}：用 gm template 取得预填指令表" if lang == "zh"
                else f"your general {_name(state, nxt['unit'])} is next: gm template gives a pre-filled sheet")
    return ("下一位：" if lang == "zh" else "next: ") + f"{_name(state, nxt['unit'])} ({nxt['player']})"

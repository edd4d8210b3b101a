"""Events told as sentences (message codes ``hunlu.event.<type>``): every roll with its source,
every strike with the pips it was read against, so a player can check the arithmetic."""

from __future__ import annotations

from typing import Any

from gm_tool.i18n import message
from gm_tool.rulesets.hunlu import messages  # noqa: F401  (the sentences: hunlu.event.*)

SOURCES = {"file": {"zh": "论坛骰", "en": "forum roll"}, "queue": {"zh": "强制队列", "en": "forced queue"},
           "seed": {"zh": "种子", "en": "seed"}, "check": {"zh": "检查", "en": "check"}}



WHY_ZH = {"initiative": "先后", "attack": "普攻", "joint": "联合攻击", "collision": "碰撞", "chasm": "天堑",
          "reflect": "反弹", "absorb": "化为精", "strike_fail": "打击失效", "resist": "元抗"}


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
    if "why" in data and lang == "zh":
        data["why"] = WHY_ZH.get(data["why"], data["why"])
    if t == "roll":
        data["who"] = f"{data['unit']} " if e.get("unit") else ""
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
    if t == "heart_reveal":
        data["card"] = {"none": "未启用" if lang == "zh" else "none (未启用)"}.get(e["card"], e["card"])
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

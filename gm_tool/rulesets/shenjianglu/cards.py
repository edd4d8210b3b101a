"""The card catalogue: the bundled sample set (data/cards.yaml) plus a scenario's additions.

A card is read once into a plain, canonical dict (English keys and values); the seed's words
are accepted as aliases for keys and values. Anything outside the documented primitives is
refused with its field path (``catalogue.弓手.skills.1.range``). The effects themselves are read
by their handlers (effects.py), the ones the engine plays them with.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from gm_tool.core import safeyaml
from gm_tool.errors import Problem
from gm_tool.rulesets.shenjianglu.effects import ONE_OFF, SIDE_VALUES, SPELL_EFFECTS, STANDING, read_effects
from gm_tool.rulesets.shenjianglu.keys import aliases

DATA = Path(__file__).parent / "data"

QUALITIES = ("white", "green", "blue", "purple", "orange")
TYPES = ("character", "spell", "equipment")
RELATIONS = ("self", "own", "ally", "enemy", "other", "any")
WHENS = ("arrive", "start", "end", "death", "attacked", "damaged", "unit_death")
REACTIONS = ("attacked", "damaged")  # triggers that know who attacked (target: attacker)


CARD_KEYS = aliases({
    "name": ("名称", "名稱", "名字"), "type": ("类型", "類型", "卡牌类型", "卡牌類型"),
    "role": ("人物类型", "人物類型"), "cost": ("法力消耗", "消耗"), "faction": ("阵营", "陣營", "阵营颜色", "陣營顏色"),
    "attack": ("武力",), "stamina": ("体力", "體力"), "move": ("移动力", "移動力"),
    "quality": ("品质", "品質", "卡牌品质", "卡牌品質"), "kind": ("细分类型", "細分類型"),
    "version": ("版本号", "版本號", "版本"), "skills": ("技能",), "effects": ("效果",),
    "target": ("目标", "目標"), "only": ("限定",), "count": ("数量", "數量"), "area": ("范围", "範圍"),
})
SKILL_KEYS = aliases({
    "name": ("名称", "名稱"), "mode": ("生效方式", "方式"), "range": ("射程",), "target": ("目标", "目標"),
    "only": ("限定",), "kind": ("细分类型", "細分類型"), "count": ("数量", "數量"),
    "when": ("时机", "時機", "触发", "觸發"), "adjacent": ("相邻", "相鄰"),
    "enemy_kings": ("敌方王", "敵方王"), "effects": ("效果",), "area": ("范围", "範圍"),
    "from": ("方位", "来自", "來自"), "in_front": ("面前", "正前方"), "of": ("死者",),
})
AREA_KEYS = aliases({"within": ("距离", "距離", "周围", "周圍"), "line": ("直线", "直線"),
                      "target": ("目标", "目標")})

TYPE_VALUES = aliases({"character": ("人物", "人物牌"), "spell": ("法术", "法術", "法术牌", "法術牌"),
                        "equipment": ("装备", "裝備", "装备牌", "裝備牌")})
ROLE_VALUES = aliases({"troop": ("将士", "將士"), "king": ("王",)})
QUALITY_VALUES = aliases({"white": ("白", "白色"), "green": ("绿", "綠", "绿色", "綠色"),
                           "blue": ("蓝", "藍", "蓝色", "藍色"), "purple": ("紫", "紫色"),
                           "orange": ("橙", "橙色")})
MODE_VALUES = aliases({"active": ("主动", "主動"), "auto": ("自动", "自動")})
RELATION_VALUES = aliases({"self": ("自身", "自己"), "own": ("我方",), "ally": ("友方",),
                            "enemy": ("敌方", "敵方"), "other": ("别方", "別方"), "any": ("任意", "任何")})
ONLY_VALUES = aliases({"king": ("王",), "troop": ("将士", "將士")})
WHEN_VALUES = aliases({"arrive": ("上场", "上場", "登场", "登場"), "start": ("开始", "開始", "开始阶段", "開始階段"),
                        "end": ("结束", "結束", "结束阶段", "結束階段"), "death": ("死亡",),
                        "attacked": ("受到攻击", "受到攻擊", "被攻击", "被攻擊"),
                        "damaged": ("受到伤害", "受到傷害", "受伤", "受傷"),
                        "unit_death": ("人物死亡", "他人死亡")})
TRIGGER_RELATION_VALUES = {**RELATION_VALUES, **aliases({"attacker": ("攻击者", "攻擊者")})}
NEUTRAL = "neutral"
FACTION_VALUES = {"中立": NEUTRAL, "neutral": NEUTRAL}


def wrong(value: Any) -> dict[str, str]:
    """The parameters of a ``shenjianglu.type.<kind>`` problem (the kind expected is in its code,
    its words in data/messages.yaml): the type that came instead."""
    from gm_tool.core.schema import type_name

    return {"got": type_name(value)}


class Reader:
    """Reads one card, adding each problem with its field path."""

    def __init__(self, source: str, problems: list[Problem]):
        self.source, self.problems = source, problems

    def bad(self, code: str, field: str, **params: Any) -> None:
        self.problems.append(Problem(code, self.source, field, params))

    def keys(self, data: Any, table: dict[str, str], path: str) -> dict[str, Any] | None:
        if not isinstance(data, dict):
            self.bad("shenjianglu.type.mapping", path, **wrong(data))
            return None
        out: dict[str, Any] = {}
        allowed = ", ".join(sorted(set(table.values())))
        for key, value in data.items():
            canon = table.get(key) if isinstance(key, str) else None
            if canon is None:
                self.bad("field.unknown", f"{path}.{key}", allowed=allowed)
            elif canon in out:
                self.bad("field.duplicate", f"{path}.{key}", value=key)
            else:
                out[canon] = value
        return out

    def choice(self, value: Any, table: dict[str, str], path: str) -> str | None:
        hit = table.get(value.strip()) if isinstance(value, str) else None
        if hit is None:
            self.bad("field.choice", path, value=value, allowed=", ".join(sorted(set(table.values()))))
        return hit

    def integer(self, value: Any, path: str, lo: int = 0, hi: int = 99) -> int | None:
        if type(value) is not int:
            self.bad("shenjianglu.type.integer", path, **wrong(value))
            return None
        if not lo <= value <= hi:
            self.bad("field.range", path, value=value, allowed=f"{lo}-{hi}")
            return None
        return value

    def text(self, value: Any, path: str) -> str | None:
        if not isinstance(value, str) or not value.strip() or len(value) > 40:
            self.bad("shenjianglu.type.text", path, **wrong(value))
            return None
        return value.strip()

    def flag(self, value: Any, path: str) -> bool:
        if type(value) is not bool:
            self.bad("shenjianglu.type.boolean", path, **wrong(value))
            return False
        return value


def _targeting(r: Reader, data: dict[str, Any], path: str, out: dict[str, Any], default: str,
               relations: dict[str, str] = RELATION_VALUES) -> None:
    out["target"] = r.choice(data["target"], relations, f"{path}.target") if "target" in data else default
    if "only" in data:
        out["only"] = r.choice(data["only"], ONLY_VALUES, f"{path}.only")
    if "kind" in data:
        out["kind"] = r.text(data["kind"], f"{path}.kind")
    count = r.integer(data["count"], f"{path}.count", 1, 8) if "count" in data else 1
    out["count"] = count or 1


def _facing_condition(r: Reader, data: dict[str, Any], path: str, out: dict[str, Any]) -> None:
    """``from`` (where the acting unit stands as seen from the target) and ``in_front`` (the
    target stands before the acting unit): facing read by a card (3.10, ruling 28)."""
    if "from" in data:
        out["from"] = r.choice(data["from"], SIDE_VALUES, f"{path}.from")
    if "in_front" in data and r.flag(data["in_front"], f"{path}.in_front"):
        out["in_front"] = True


def _area(r: Reader, value: Any, path: str, shapes: tuple[str, ...]) -> dict[str, Any] | None:
    """``area: {within: N}`` (every unit at most N from the chosen target) or ``{line: N}`` (the N
    cells from the user towards the target), optionally ``target`` (whom it hits)."""
    data = r.keys(value, {a: k for a, k in AREA_KEYS.items() if k in (*shapes, "target")}, path)
    if data is None:
        return None
    given = [k for k in shapes if k in data]
    if len(given) != 1:
        r.bad("shenjianglu.card.one_shape", path, allowed=", ".join(shapes))
        return None
    shape = given[0]
    n = r.integer(data[shape], f"{path}.{shape}", 1, 20)
    out: dict[str, Any] = {shape: n}
    if "target" in data:
        out["target"] = r.choice(data["target"], RELATION_VALUES, f"{path}.target")
    return out if n is not None and out.get("target", "") is not None else None


def _skill(r: Reader, raw: Any, path: str) -> dict[str, Any] | None:
    data = r.keys(raw, SKILL_KEYS, path)
    if data is None:
        return None
    name = r.text(data.get("name"), f"{path}.name")
    mode = r.choice(data.get("mode"), MODE_VALUES, f"{path}.mode")
    skill: dict[str, Any] = {"name": name, "mode": mode}
    if mode == "active":
        for k in ("when", "adjacent", "enemy_kings", "of"):
            if k in data:
                r.bad("shenjianglu.card.not_for_active", f"{path}.{k}")
        if "range" not in data:
            r.bad("field.required", f"{path}.range")
        skill["range"] = r.integer(data.get("range"), f"{path}.range", 0, 30) if "range" in data else 1
        _targeting(r, data, path, skill, "other")
        _facing_condition(r, data, path, skill)
        if "area" in data:
            skill["area"] = _area(r, data["area"], f"{path}.area", ("within", "line"))
        skill["effects"] = read_effects(r, data.get("effects"), f"{path}.effects", ONE_OFF)
    elif mode == "auto":
        if "range" in data:
            r.bad("shenjianglu.card.range_auto", f"{path}.range")
        if "when" in data:
            when = skill["when"] = r.choice(data["when"], WHEN_VALUES, f"{path}.when")
            relations = TRIGGER_RELATION_VALUES if when in REACTIONS else RELATION_VALUES
            _targeting(r, data, path, skill, "self", relations)
            _facing_condition(r, data, path, skill)
            skill["adjacent"] = r.flag(data["adjacent"], f"{path}.adjacent") if "adjacent" in data else False
            skill["enemy_kings"] = r.flag(data["enemy_kings"], f"{path}.enemy_kings") if "enemy_kings" in data else False
            if "area" in data:
                skill["area"] = _area(r, data["area"], f"{path}.area", ("within",))
            if "of" in data:
                if when != "unit_death":
                    r.bad("shenjianglu.card.of_needs_unit_death", f"{path}.of")
                skill["of"] = r.choice(data["of"], RELATION_VALUES, f"{path}.of")
            elif when == "unit_death":
                skill["of"] = "own"
            skill["effects"] = read_effects(r, data.get("effects"), f"{path}.effects", ONE_OFF)
        else:
            for k in ("target", "only", "kind", "count", "adjacent", "enemy_kings", "area", "from", "in_front", "of"):
                if k in data:
                    r.bad("shenjianglu.card.standing_target", f"{path}.{k}")
            skill["effects"] = read_effects(r, data.get("effects"), f"{path}.effects", STANDING)
    return skill


def read_card(name: str, raw: Any, source: str, path: str, problems: list[Problem]) -> dict[str, Any] | None:
    """One card in canonical form, or None (with problems added)."""
    r = Reader(source, problems)
    before = len(problems)
    data = r.keys(raw, CARD_KEYS, path)
    if data is None:
        return None
    ctype = r.choice(data.get("type"), TYPE_VALUES, f"{path}.type")
    card: dict[str, Any] = {"name": name, "type": ctype}
    card["cost"] = r.integer(data.get("cost"), f"{path}.cost", 0, 30)
    faction = data.get("faction")
    card["faction"] = FACTION_VALUES.get(faction, faction) if isinstance(faction, str) else r.text(faction, f"{path}.faction")
    card["quality"] = r.choice(data.get("quality"), QUALITY_VALUES, f"{path}.quality")
    if "version" in data:
        card["version"] = r.integer(data["version"], f"{path}.version", 0, 999)
    allowed = {"name", "type", "cost", "faction", "quality", "version"}
    if ctype == "character":
        allowed |= {"role", "attack", "stamina", "move", "kind", "skills"}
        card["role"] = r.choice(data["role"], ROLE_VALUES, f"{path}.role") if "role" in data else "troop"
        card["attack"] = r.integer(data.get("attack"), f"{path}.attack", 0, 20)
        card["stamina"] = r.integer(data.get("stamina"), f"{path}.stamina", 1, 50)
        card["move"] = r.integer(data.get("move"), f"{path}.move", 0, 20)
        card["kind"] = r.text(data["kind"], f"{path}.kind") if "kind" in data else ""
    elif ctype == "spell":
        allowed |= {"target", "only", "kind", "count", "effects", "area"}
        _targeting(r, data, path, card, "other")
        if card["target"] == "self":
            r.bad("field.choice", f"{path}.target", value="self", allowed="own, ally, enemy, other, any")
        if "area" in data:
            card["area"] = _area(r, data["area"], f"{path}.area", ("within",))
        card["effects"] = read_effects(r, data.get("effects"), f"{path}.effects",
                                   SPELL_EFFECTS)
    elif ctype == "equipment":
        allowed |= {"target", "only", "kind", "effects", "skills"}
        _targeting(r, data, path, card, "own")
        card.pop("count", None)
        card["effects"] = read_effects(r, data.get("effects"), f"{path}.effects", STANDING) if "effects" in data else []
    if ctype in ("character", "equipment"):
        skills = data.get("skills", [])
        if not isinstance(skills, list):
            r.bad("shenjianglu.type.list", f"{path}.skills", **wrong(skills))
            skills = []
        card["skills"] = [s for i, raw_s in enumerate(skills, 1) if (s := _skill(r, raw_s, f"{path}.skills.{i}"))]
        names = [s["name"] for s in card["skills"]]
        for i, n in enumerate(names, 1):
            if n in names[:i - 1]:
                r.bad("field.duplicate", f"{path}.skills.{i}.name", value=n)
    if ctype:
        for key in data:
            if key not in allowed:
                r.bad("shenjianglu.card.key_not_for_type", f"{path}.{key}", type=ctype)
    return card if len(problems) == before else None


@functools.lru_cache(maxsize=1)
def bundled() -> dict[str, dict[str, Any]]:
    raw = safeyaml.load_mapping(DATA / "cards.yaml")
    problems: list[Problem] = []
    out = {}
    for name, body in raw.items():
        card = read_card(name, body, "cards.yaml", name, problems)
        if card:
            out[name] = card
    assert not problems, [p.render("en") for p in problems]
    return out


@functools.lru_cache(maxsize=1)
def bundled_decks() -> dict[str, Any]:
    return safeyaml.load_mapping(DATA / "decks.yaml")


_MERGED: dict[str, dict[str, dict[str, Any]]] = {}


def catalogue(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every card a state knows: the bundled set with the scenario's additions."""
    extra = state.get("catalogue")
    if not extra:
        return bundled()
    key = json.dumps(extra, sort_keys=True, ensure_ascii=False)
    hit = _MERGED.get(key)
    if hit is None:
        hit = {**bundled(), **extra}
        if len(_MERGED) > 64:
            _MERGED.clear()
        _MERGED[key] = hit
    return hit


def rank(quality: str) -> int:
    return QUALITIES.index(quality)


@functools.lru_cache(maxsize=1)
def bundled_boards() -> dict[str, Any]:
    return safeyaml.load_mapping(DATA / "boards.yaml")

"""The roster's skills as data (rulings C20-C21): the roster, the skill definitions and their
checks, and the tie lot's determinism. The skills at play (the skill phase, R9) are rule cases:
tests/grail_war/cases/combat-skills.yaml.

The seed gives skills only by example (l.161-162 a skill "被扣血后可获得对方一张牌"; the sample
sheet l.126-127 discards two cards for 阿尔托利亚's skill); the skills are rulings C20-C21.
"""

from __future__ import annotations

import pytest

from gm_tool.rulesets.grail_war import data
from gm_tool.rulesets.grail_war.combat import skills as defs
from gm_tool.rulesets.grail_war.model import CLASSES

from .combat_kit import A, B, fight

OFF = {"magic": {"use": False}}
# a skill that costs cards is used only when the sheet asks for it (ruling C30)
CMD = {"skill": {"name": "王之号令"}}


def S(cid, *hand, side="red", **kw):
    """A fighter with its roster skills."""
    return (A if side == "red" else B)(cid, *hand, skills=None, **kw)


# the roster ---------------------------------------------------------------------------------
def test_roster_has_the_fourteen_servants_two_per_class():
    """Issue 4: 14 servants, two per class, 阿尔托利亚 CASTER 4 HP (seed l.121 "角色:阿尔托利亚 CASTER 当前4血")."""
    roster = data.load("characters")["characters"]
    ids = {c["id"] for c in roster}
    assert ids == {"artoria", "gawain", "mordred", "emiya", "gilgamesh", "cu_chulainn", "diarmuid", "medusa",
                   "iskandar", "medea", "kojiro", "hassan", "heracles", "lancelot"}
    assert sorted(c["class"] for c in roster) == sorted(list(CLASSES) * 2)
    art = next(c for c in roster if c["id"] == "artoria")
    assert (art["name"], art["class"], art["hp"]) == ("阿尔托利亚", "CASTER", 4)
    for c in roster:
        assert c["skills"] and all(s in defs.registry() for s in c["skills"])


def test_every_bundled_skill_is_valid_and_texted():
    """Ruling C21: every skill is built from the documented primitives and has zh/en text."""
    for sid, sk in defs.registry().items():
        assert sk.text.get("zh") and sk.text.get("en"), sid


@pytest.mark.parametrize("bad, what", [
    ({"trigger": "sometimes", "effects": []}, "trigger"),
    ({"trigger": "active", "target": "everyone", "effects": []}, "target"),
    ({"trigger": "active", "effects": [{"damage": "lots"}]}, "damage"),
    ({"trigger": "active", "effects": [{"judge": {"pattern": "purple"}}]}, "judge.pattern"),
    ({"trigger": "active", "cost": {"discard": 0}, "effects": []}, "cost"),
    ({"trigger": "active", "effects": [{"take_card": {"zones": ["pocket"]}}]}, "take_card.zones"),
])
def test_bad_skill_definitions_are_named(bad, what):
    """Ruling C21: a GM's new skill with an unknown primitive is refused with the field at fault."""
    assert any(p.startswith(what) for p in defs.problems(bad))


# the tie lot ---------------------------------------------------------------------------------
def test_target_tie_broken_by_seeded_chance():
    """l.70 "若相等则随机": the tie is a logged chance draw, the same for the same seed."""
    runs = [fight(S("iskandar", "万法破尽", sheet={**CMD, **OFF}), B("mordred"), B("medea"), seed=s) for s in ("a", "b", "c", "d")]
    hit = [next(d[1] for d in r.damage()) for r in runs]
    assert set(hit) <= {"mordred", "medea"}
    assert all(any(e["type"] == "chance" and e["why"] == "target tie" for e in r.log) for r in runs)
    again = fight(S("iskandar", "万法破尽", sheet={**CMD, **OFF}), B("mordred"), B("medea"), seed="a")
    assert next(d[1] for d in again.damage()) == hit[0]

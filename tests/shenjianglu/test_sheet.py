"""Order sheets (contract §2): what stays Python. The template (it validates as it is and names
what may be done, units by label) and the words of three hints `gm check` gives in Chinese. The
sheets' rule cases (the seed's own keys, cells as C4, c4 or C,4, units by label, problems by code,
field in the sheet's words and line, the warning of a king killed by its own attack) are data:
cases/sheets.yaml."""

from __future__ import annotations

from gm_tool.rulesets.shenjianglu import RULESET as RS
from tests.shenjianglu.helpers import duel

UNITS = [{"id": "a1", "card": "兵", "owner": "alice", "pos": "D4"}, {"id": "b1", "card": "盾", "owner": "bob", "pos": "D2"}]


def run(state, sheet):
    orders = RS.parse_orders(state, sheet, "s.yaml", "zh")
    return RS.resolve(state, {"alice": orders}, "x").state


def test_the_template_validates_and_lists_choices():
    """seed l.125: "法術或者裝備牌可在自己回合裡使用，只要法力值足夠。" — the template names castable cards and units that may act."""
    import yaml

    s = duel(hand1=["雷", "兵"], units=UNITS)
    text = RS.template(s, "alice", "zh")
    assert RS.parse_orders(s, yaml.safe_load(text), "t.yaml", "zh").actions == []
    assert "法术 雷（3）：可选目标 K2, b1" in text  # units by the ids they were given
    assert "a1（兵）在 D4" in text and "移动后可攻击：b1" in text
    assert "空闲出兵点：C7, E7, D6" in text


def test_the_template_names_units_by_label():
    """seed l.141: "人物的初始朝向為玩家座位的正前方" — a summon without an id is named by its label in the
    template (its id alice-1 carries a player's id), and the template still validates. Naming units
    by label in a sheet (2, １, ｋ１) is the rule case cases/sheets.yaml#units-by-label."""
    import yaml

    s = duel(hand1=["兵"], units=[{"id": "b1", "card": "盾", "owner": "bob", "pos": "D5"}])
    s2 = run(s, {"turn": 1, "player": "alice", "actions": [{"summon": "兵", "at": "D6"}]})
    s3 = RS.resolve(s2, {"bob": RS.pass_orders(s2, "bob")}, "x").state
    text = RS.template(s3, "alice", "zh")
    assert "alice-1" not in text.split("turn:")[0] and "2（兵）在 D6" in text
    assert RS.parse_orders(s3, yaml.safe_load(text), "t.yaml", "zh").actions == []

def _refused_file(tmp_path, state, text):
    """Every problem (code, field, line, message) of a sheet read from a file, as `gm check` reads it."""
    import pytest

    from gm_tool.core import safeyaml
    from gm_tool.errors import GmError

    path = tmp_path / "s.yaml"
    path.write_text(text, "utf-8")
    from gm_tool.core.yamlpos import annotate_file

    with pytest.raises(GmError) as exc:
        RS.parse_orders(state, safeyaml.load_mapping(path), str(path), "zh")
    error = annotate_file(exc.value, str(path), path)  # as gm check does
    return [(p.code, p.field, p.line, p.render("zh")) for p in error.problems]


def test_the_full_width_colon_hint_shows_the_line_rewritten(tmp_path):
    """seed l.115: "召喚人物： 消耗法力召喚人物上場" — the hint for `- 召唤：兵` shows the line with a
    half-width colon (the words; its code, field and line: cases/sheets.yaml#full-width-colon-one-line)."""
    s = duel(hand1=["兵"])
    found = _refused_file(tmp_path, s, "回合: 1\n玩家: alice\n行动:\n  - 召唤：兵\n")
    assert "- 召唤: 兵" in found[0][3]

def test_a_cell_hint_shows_only_what_reads_where_it_was_written(tmp_path):
    """seed l.131 (3.9 人物移動): inside `{...}` a comma splits `C,7` in two: the hint there offers only
    C7; outside braces the usual forms (C,11) are offered (the words; the codes, fields and lines:
    cases/sheets.yaml#split-cell-in-braces)."""
    s = duel(units=UNITS)
    found = _refused_file(tmp_path, s, "turn: 1\nplayer: alice\nactions:\n  - {command: a1, to: Z,3}\n")
    assert found and all("C,11" not in text for *_, text in found)
    found = _refused_file(tmp_path, s, "turn: 1\nplayer: alice\nactions:\n  - command: a1\n    to: Z,3\n")
    assert "C,11" in found[0][3]

def test_the_same_key_in_two_languages_is_named_in_both_spellings(tmp_path):
    """seed l.115: 召喚 is `summon`: "the same key twice" names both spellings (the words; the code,
    field and line: cases/sheets.yaml#same-key-in-two-languages)."""
    s = duel(hand1=["兵"])
    found = _refused_file(tmp_path, s, "turn: 1\nplayer: alice\nactions:\n  - summon: 兵\n    召唤: 兵\n    at: D6\n")
    assert "召唤 与 summon 是同一个键" in found[0][3]

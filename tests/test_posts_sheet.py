"""`gm template`: the commented sheet validates as it is, and so do the choices its comments
offer (every listed destination, with the class movement or teleport it names; equipment)."""

from __future__ import annotations

import copy
import re

import yaml

from tests.conftest import write
from tests.regen_golden import SCENARIO


def _campaign(gm, tmp_path, scenario):
    write(tmp_path / "sc.yaml", yaml.safe_dump(scenario, allow_unicode=True))
    d = tmp_path / "c"
    gm("new", d, "--scenario", tmp_path / "sc.yaml", "--seed", "s")
    return d


def test_every_offered_destination_validates(gm, tmp_path):
    sc = copy.deepcopy(SCENARIO)
    sc["characters"][0].update({"class": "RIDER", "pos": "C3"})     # next to the river
    sc["characters"][1].update({"class": "LANCER", "pos": "A2"})    # under the high ground B2
    sc["characters"][2].update({"class": "CASTER", "pos": "F3", "equipment": {"weapon": "万华杖"}})
    d = _campaign(gm, tmp_path, sc)
    checked = 0
    for player, lang in (("alice", "zh"), ("bob", "en"), ("heidi", "zh")):
        sheet = tmp_path / f"{player}.yaml"
        gm("template", d, player, "--lang", lang, "-o", sheet)
        text = sheet.read_text("utf-8")
        gm("check", d, sheet)
        move_key, to_key, special_key = ("移动", "目的地", "特殊") if lang == "zh" else ("move", "to", "special")
        offers = [(None, m.group(1)) for m in re.finditer(r"^# (?:可到达的格子|Reachable cells)：?:? ?(.*)$", text, re.M)]
        offers += [(m.group(1), m.group(2)) for m in re.finditer(r"^# .*[（(](?:特殊|special): (\w+)[）)].*[：:] ?(.*)$", text, re.M)
                   if m.group(1) != "teleport"]
        offers += [("teleport", m.group(1)) for m in re.finditer(r"^# (?:可瞬移到|Teleport destinations).*[：:] ?(.*)$", text, re.M)]
        assert offers
        for special, cells in offers:
            for cell in cells.split():
                move = f"{{{to_key}: {cell}" + (f", {special_key}: {special}}}" if special else "}")
                changed = re.sub(rf"^{move_key}: .*$", f"{move_key}: {move}", text, flags=re.M)
                write(sheet, changed)
                gm("check", d, sheet)
                checked += 1
    sheet_zh = tmp_path / "heidi-zh.yaml"
    gm("template", d, "heidi", "-o", sheet_zh)
    text = sheet_zh.read_text("utf-8")
    assert "万华杖: {使用: 否, 区域: [装备区, 手牌]}" in text  # its default (ruling C14): the template is no sheet
    assert "目标优先: 血多的优先" in text and "  - {对: 对敌人出杀}" in text
    assert "# 武器【万华杖】：当你使用【杀】造成伤害时" in text
    bob = tmp_path / "bob-en.yaml"
    gm("template", d, "bob", "--lang", "en", "-o", bob)
    assert re.search(r"# With class movement \(special: jump\) also: .*B2", bob.read_text("utf-8"))
    alice = tmp_path / "alice-zh.yaml"
    gm("template", d, "alice", "-o", alice)
    assert re.search(r"发动介职特效（特殊: 渡河）还可到达：.*F3", alice.read_text("utf-8"))
    assert checked > 20


def test_a_player_with_two_characters_gets_a_character_line(gm, tmp_path):
    sc = copy.deepcopy(SCENARIO)
    sc["characters"][1]["player"] = "alice"
    d = _campaign(gm, tmp_path, sc)
    sheet = tmp_path / "alice.yaml"
    gm("template", d, "alice", "--lang", "en", "-o", sheet)
    assert "\ncharacter: artoria\n" in sheet.read_text("utf-8")
    gm("check", d, sheet)

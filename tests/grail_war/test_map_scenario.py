"""Bad scenarios are refused with the line at fault (`file:LINE: field: message`), and sheets too."""

from __future__ import annotations

from pathlib import Path

from gm_tool.core.yamlpos import line_of
from tests.conftest import tree, write

GOOD = """\
ruleset: grail_war
name: t
map:
  width: 5
  height: 3
  rows:
    - "....."
    - "....."
    - "....."
  strongholds:
    - {id: 1, name: A, pos: A1, kind: heal, territory: [A1, B1]}
    - {id: 2, name: B, pos: E3, kind: hand, territory: [D3, E3]}
  tunnels: [{mouths: [A3, E1], length: 2}]
characters:
  - {id: a, class: SABER, side: red, player: p, pos: A2}
  - {id: b, class: SABER, side: blue, player: q, pos: E2}
"""


def refused(gm, tmp_path: Path, text: str) -> list[str]:
    f = write(tmp_path / "s.yaml", text)
    r = gm("new", tmp_path / "c", "--scenario", f, "--lang", "en", code=1)
    assert not (tmp_path / "c").exists()
    text = r.output + "\n" + (r.stderr if r.stderr_bytes else "")
    return list(dict.fromkeys(line for line in text.splitlines() if "s.yaml" in line))


def test_good_scenario_is_accepted(gm, tmp_path):
    gm("new", tmp_path / "c", "--scenario", write(tmp_path / "s.yaml", GOOD))


def test_a_map_row_of_the_wrong_length_names_its_line(gm, tmp_path):
    """spec §5 "one character a column": row 2 of the map is one short."""
    lines = refused(gm, tmp_path, GOOD.replace('    - "....."\n    - "....."', '    - "....."\n    - "...."', 1))
    assert len(lines) == 1 and lines[0].startswith(str(tmp_path / "s.yaml") + ":8: map.rows[1]:")


def test_overlapping_territories_name_their_line(gm, tmp_path):
    """seed l.14 "每一个据点都是一片其所管辖领土的中枢点": a cell in two territories is refused."""
    lines = refused(gm, tmp_path, GOOD.replace("territory: [D3, E3]", "territory: [B1, E3]"))
    assert any(":12: map.strongholds[1].territory[0]:" in line and "B1" in line for line in lines)


def test_a_stronghold_off_the_map_names_its_line(gm, tmp_path):
    lines = refused(gm, tmp_path, GOOD.replace("pos: E3, kind: hand", "pos: F3, kind: hand"))
    assert any(":12: map.strongholds[1].pos:" in line and "F3" in line for line in lines)


def test_an_unknown_class_names_its_line(gm, tmp_path):
    lines = refused(gm, tmp_path, GOOD.replace("class: SABER, side: blue", "class: NINJA, side: blue"))
    assert len(lines) == 1 and ":16: characters[1].class:" in lines[0] and "BERSERKER" in lines[0]


def test_a_stronghold_or_tunnel_mouth_in_the_river_is_refused(gm, tmp_path):
    """seed l.10 "原则上河道不允许通过" (ruling M16): nothing could ever stand there."""
    text = GOOD.replace('    - "....."\n', '    - "~~..."\n', 1)
    lines = refused(gm, tmp_path, text.replace("pos: A1, kind: heal, territory: [A1, B1]",
                                               "pos: C1, kind: heal, territory: [C1, D1]").replace("[A3, E1]", "[A1, A1]"))
    assert any(":13: map.tunnels[0].mouths[0]:" in line for line in lines)
    assert any(":13: map.tunnels[0].mouths[1]:" in line for line in lines)


def test_a_bad_sheet_names_its_line(gm, skirmish, tmp_path):
    """spec §2 `gm check`: "one clear line per problem (file, field, what is wrong, what is allowed)";
    with a Chinese key the line is still found."""
    f = write(tmp_path / "a.yaml", "回合: 1\n玩家: alice\n移动:\n  目的地: B2\n")
    before = tree(skirmish)
    r = gm("check", skirmish, f, "--lang", "en", code=1)
    assert f"{f}:4: 移动.目的地:" in r.output + (r.stderr if r.stderr_bytes else "")  # in the sheet's own words
    assert tree(skirmish) == before


def test_yamlpos_paths():
    text = "a:\n  b:\n    - x\n    - {c: 1}\nd: [1, 2]\n"
    assert line_of(text, "a.b[1].c") == 4
    assert line_of(text, "a.b[0]") == 3
    assert line_of(text, "d") == 5
    assert line_of(text, "a.missing") == 1
    assert line_of("not: [valid", "a") is None

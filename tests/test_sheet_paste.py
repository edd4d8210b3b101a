"""A sheet pasted from a forum post with its ``[code]`` ... ``[/code]`` tags (issue 21: "in every
ruleset") is read without them, and its problems keep their lines."""

from __future__ import annotations

import pytest

from gm_tool import app as ops
from gm_tool.core import ruleset as registry
from gm_tool.core.safeyaml import unwrap_code
from gm_tool.demo import scenario_of
from gm_tool.errors import GmError

RULESETS = [r for r in registry.available() if r != "toy"]


def test_unwrap_code_keeps_lines_and_everything_else():
    assert unwrap_code("[code]\nturn: 1\n[/code]\n") == "\nturn: 1\n\n"
    assert unwrap_code("  [CODE=yaml]turn: 1\nplayer: a[/Code]") == "  turn: 1\nplayer: a"
    assert unwrap_code("turn: 1\nnote: '[code] stays'\n") == "turn: 1\nnote: '[code] stays'\n"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_template_pasted_with_code_tags_checks(ruleset, tmp_path):
    folder = tmp_path / "c"
    ops.new_campaign(folder, scenario_of(ruleset, None), "paste-0123456789abcdef")
    op = ops.open_campaign(folder)
    player = op.ruleset.due(op.state())[0]
    sheet = tmp_path / "pasted.yaml"
    sheet.write_text("[code]\n" + ops.template(folder, player, "zh") + "[/code]\n", "utf-8")
    assert list(ops.check_files(op, [sheet], "zh")) == [player]


def test_a_problem_in_a_pasted_sheet_keeps_its_line(tmp_path):
    folder = tmp_path / "c"
    ops.new_campaign(folder, "shenjianglu", "paste-0123456789abcdef")
    op = ops.open_campaign(folder)
    sheet = tmp_path / "pasted.yaml"
    sheet.write_text("[code]\n回合: 1\n玩家: alice\n行动:\n  - {召唤: 不存在, 位置: C7}\n[/code]\n", "utf-8")
    with pytest.raises(GmError) as exc:
        ops.check_files(op, [sheet], "zh")
    assert [(p.field, p.line) for p in exc.value.problems] == [("actions.1.summon", 5)]

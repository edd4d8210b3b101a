"""The action-with-options frame (gm_tool.core.actions), shown with the toy race: one class per
kind of action (reading with aliases, options, apply), one table mapping names to kinds, and the
consistency check a ruleset runs over a few hundred random states (every option the template
offers passes `gm check`, every bot sheet too)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gm_tool import app as ops
from gm_tool.core.actions import ActionKind, ActionTable, Reading, checked, consistency
from gm_tool.errors import GmError
from tests.conftest import write
from tests.toy import RULESET as RACE_RULES
from tests.toy import Race
from tests.toy.actions import Run, TripUp

RACE = Path(__file__).parent / "toy" / "race.yaml"


def race_state(positions: dict[str, int], next_: str = "ann", turn: int = 3) -> dict[str, Any]:
    data, source = ops.load_scenario(str(RACE))
    state = RACE_RULES.setup({**data, "runners": list(positions)}, source, "actions-seed")
    for r in state["runners"]:
        r["pos"] = positions[r["id"]]
    return {**state, "turn": turn, "next": next_}


# one kind of action: a made-up one with a field, to show reading -----------------------------------
@dataclass(frozen=True)
class Throw:
    what: str
    to: str
    kind: ClassVar[str] = "throw"


class Throwing(ActionKind[dict, Throw, list]):
    name = "throw"
    aliases = ("投",)
    fields = {"to": ("向", "target")}

    def read(self, value: Any, entry: dict[str, Any], reading: Reading[dict], path: str) -> Throw | None:
        if "to" not in entry:
            reading.problem(f"{path}.to" if path else "to", "field.required")
            return None
        return Throw(str(value), str(entry["to"]))

    def options(self, state: dict, actor: str) -> list[dict[str, Any]]:
        return [{"throw": "ball", "to": "ann"}]

    def apply(self, game: list, order: Throw) -> None:
        game.append((order.what, order.to))


TABLE: ActionTable[dict, list] = ActionTable(Throwing(), Run())


def read(entry: Any, path: str = "actions.0") -> tuple[Any, list[str]]:
    reading: Reading[dict] = Reading({}, "ann", "s.yaml")
    order = TABLE.read(entry, reading, path)
    return order, [f"{p.code}@{p.field}" for p in reading.problems]


def test_an_entry_is_read_by_the_kind_its_key_names_under_any_alias_width_or_case():
    assert read({"throw": "ball", "to": "ben"}) == (Throw("ball", "ben"), [])
    assert read({"投": "ball", "向": "ben"}) == (Throw("ball", "ben"), [])
    assert read({"ＴＨＲＯＷ": "ball", "Target": "ben"}) == (Throw("ball", "ben"), [])
    assert TABLE.kind("步数") is TABLE.kinds["step"] and TABLE.kind("walk") is None and TABLE.kind(3) is None  # type: ignore[arg-type]
    assert TABLE.words() == {"投": "throw", "向": "to", "target": "to", "步数": "step", "前进": "step"}


def test_every_problem_of_an_entry_is_named_by_its_field():
    assert read("throw ball") == (None, ["action.not_mapping@actions.0"])
    assert read({"walk": 2}) == (None, ["action.none@actions.0"])
    assert read({"walk": 2}, path="") == (None, ["action.none@walk"])
    assert read({"throw": "ball", "step": 2}) == (None, ["action.several@actions.0.step"])
    assert read({"throw": "ball", "to": "ben", "speed": 9}) == (None, ["field.unknown@actions.0.speed"])
    assert read({"throw": "ball", "to": "ben", "向": "cat"}) == (None, ["field.duplicate@actions.0.向"])
    assert read({"throw": "ball"}) == (None, ["field.required@actions.0.to"])  # the kind's own check
    assert read({"step": 7}) == (None, ["toy.field@actions.0.step"])


def test_a_table_refuses_a_word_naming_two_things():
    class Other(Throwing):
        name = "lob"
        aliases = ("投",)

    with pytest.raises(ValueError, match="names two action kinds"):
        ActionTable(Throwing(), Other())

    class Clash(Throwing):
        name = "hurl"
        aliases = ()
        fields = {"step": ()}

    with pytest.raises(ValueError, match="is also an action kind"):
        ActionTable(Run(), Clash())


def test_an_order_is_applied_by_the_kind_it_came_from():
    game: list = []
    order, _ = read({"throw": "ball", "to": "ben"})
    TABLE.apply(game, order)
    assert game == [("ball", "ben")]
    assert [o.kind for o in TABLE.options({}, "ann")] == ["throw", "step", "step", "step", "step"]


# the toy: its options are what its sheets accept ---------------------------------------------------
def test_trip_options_are_the_runners_on_my_cell_or_the_next():
    state = race_state({"ann": 4, "ben": 5, "cat": 4, "dan": 6})
    assert [o.entry for o in RACE_RULES.options(state, "ann") if o.kind == "trip"] == [{"trip": "ben"}, {"trip": "cat"}]
    assert RACE_RULES.options(state, "ben") == []  # not due: nothing to do
    orders = RACE_RULES.parse_orders(state, {"turn": 4, "player": "ann", "绊倒": "cat"}, "s.yaml", "en")
    after = RACE_RULES.resolve(state, {"ann": orders}, "seed").state
    assert [r["pos"] for r in after["runners"]] == [4, 5, 2, 6] and after["next"] == "ben"
    with pytest.raises(GmError) as err:
        RACE_RULES.parse_orders(state, {"turn": 4, "player": "ann", "trip": "dan"}, "s.yaml", "en")
    assert [(p.code, p.field) for p in err.value.problems] == [("toy.trip", "trip")]
    assert "only a runner on your cell or the next one (ben, cat)" in err.value.render("en")


def test_the_template_offers_every_option_and_nothing_else():
    state = race_state({"ann": 2, "ben": 3, "cat": 0})
    text = RACE_RULES.template(state, "ann", "en")
    assert text.splitlines() == ["turn: 4", "player: ann", "step: 1   # 0-3 (0: pass)",
                                 "# trip: ben   # or trip ben instead: it falls back 2 cells"]
    assert [o.entry for o in RACE_RULES.options(state, "ann")] == [{"step": n} for n in range(4)] + [{"trip": "ben"}]


def test_the_toy_passes_the_consistency_check_over_three_hundred_states():
    data, source = ops.load_scenario(str(RACE))
    report = consistency(RACE_RULES, {**data, "runners": ["ann", "ben", "cat"]}, source,
                         options=RACE_RULES.options, sheet_for=RACE_RULES.sheet_for, states=300)
    assert [str(f) for f in report.findings] == []
    assert report.states == 300 and report.by_kind["step"] == 1200 and report.by_kind["trip"] > 50
    assert report.sheets == report.options + 300 * (2 + 2)  # templates in zh and en, two bots


def test_the_consistency_check_finds_an_option_check_refuses_and_a_bad_bot():
    class Everyone(TripUp):  # offers to trip anyone, wherever they are
        def options(self, state, actor):
            return [{"trip": r["id"]} for r in state["runners"] if r["id"] != actor]

    lying = ActionTable(Run(), Everyone())

    class Careless(Race):  # its random bot sometimes runs four cells
        def bot_sheet(self, state, player, kind, chance):
            sheet = super().bot_sheet(state, player, kind, chance)
            return {**sheet, "step": 4} if kind == "random" and state["turn"] % 5 == 4 else sheet

    data, source = ops.load_scenario(str(RACE))
    report = consistency(Careless(), data, source, states=60, langs=("en",),
                         options=lambda s, p: lying.options(s, p) if p in RACE_RULES.due(s) else [],
                         sheet_for=RACE_RULES.sheet_for)
    refused = {(f.what.split(" ")[0], tuple(f.problems)) for f in report.findings}
    assert ("option", ("toy.trip@trip",)) in refused and ("bot", ("toy.field@step",)) in refused
    assert all(f.what.startswith(("option trip", "bot random")) for f in report.findings)


def test_checked_reads_a_sheet_as_gm_check_does():
    state = race_state({"ann": 0, "ben": 0})
    assert checked(RACE_RULES, state, "turn: 4\nplayer: ann\n前进: 2\n", "a.yaml", "en") == []
    assert checked(RACE_RULES, state, "turn: 4\nplayer: ann\nstep: 2\nstep: 3\n", "a.yaml", "en") == \
        ["yaml.duplicate_key@step"]
    assert checked(RACE_RULES, state, "- step: 1\n", "a.yaml", "en") == ["yaml.not_mapping@ (list)"]


def test_sheets_written_in_aliases_go_through_the_cli(tmp_path, gm):
    d = tmp_path / "race"
    gm("new", d, "--scenario", RACE, "--seed", "toy-seed-0123456789abcdef")
    out = gm("check", d, write(tmp_path / "a.yaml", "turn: 1\nplayer: ann\n绊倒: cat\n"), "--lang", "en", code=1).output
    assert "cannot trip 'cat': only a runner on your cell or the next one (ben)" in out
    gm("check", d, write(tmp_path / "t.yaml", "turn: 1\nplayer: ann\n绊倒: ben\n"))
    gm("check", d, write(tmp_path / "b.yaml", "turn: 1\nplayer: ann\n步数: 3\n"))
    gm("submit", d, write(tmp_path / "c.yaml", "turn: 1\nplayer: ann\n步数: 3\n"))
    gm("dice", d, "2")
    gm("resolve", d)
    shown = json.loads(gm("show", d, "--json").output)
    assert [r["pos"] for r in shown["runners"]] == [5, 0]


def test_the_guide_shows_the_toys_own_trip():
    """docs/adding-a-ruleset.md shows the pattern with the toy's trip, "its annotations left
    out": the class and the table it prints are tests/toy/actions.py's, statement for statement
    (annotations and the asserts that only narrow a type aside), so the guide cannot drift."""
    import ast
    import re

    root = Path(__file__).parent.parent
    guide = (root / "docs" / "adding-a-ruleset.md").read_text("utf-8")
    shown = next(b for b in re.findall(r"```python\n(.*?)```", guide, re.S) if "class TripUp" in b)

    def plain(source: str) -> list[str]:
        out = []
        for node in ast.parse(source).body:
            if isinstance(node, ast.ClassDef) and node.name == "TripUp" or \
                    isinstance(node, ast.Assign | ast.AnnAssign) and "ACTIONS" in ast.unparse(node):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.FunctionDef):
                        sub.returns = None
                        sub.body = [s for s in sub.body if not isinstance(s, ast.Assert)]
                    if isinstance(sub, ast.arg):
                        sub.annotation = None
                if isinstance(node, ast.AnnAssign):
                    node = ast.Assign([node.target], node.value, lineno=node.lineno)
                out.append(ast.unparse(node))
        return out

    code = plain((root / "tests" / "toy" / "actions.py").read_text("utf-8"))
    assert len(code) == 2 and plain(shown) == code

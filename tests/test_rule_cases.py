"""Rule cases as data (gm_tool/cases.py, docs/rule-cases.md): every case file under tests/ is
read and each of its cases played as one test; then the runner itself: it fails a case whose
expectation is wrong, naming the path and both values, refuses a malformed file by field and
line, and plays a turn of every ruleset to the state the commands reach."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gm_tool.cases import Missing, find, get, load, path_steps, put, run
from gm_tool.errors import GmError
from tests.conftest import write

TESTS = Path(__file__).parent
RACE = TESTS / "toy" / "race.yaml"


def _collect() -> list[Any]:
    params = []
    for path in find([TESTS]):
        name = str(path.relative_to(TESTS))
        try:
            cases = load(path)
        except GmError as exc:  # a broken file fails as one test, with its problems
            params.append(pytest.param(exc, id=name))
            continue
        params += [pytest.param(case, id=f"{name}#{case.id}") for case in cases]
    return params


@pytest.mark.parametrize("case", _collect())
def test_rule_case(case):
    if isinstance(case, GmError):
        pytest.fail(case.render("en"), pytrace=False)
    result = run(case)
    assert result.passed, f"{case.where} ({case.rule}):\n" + "\n".join(result.failures)


def test_every_case_file_is_found_and_the_toy_has_cases():
    files = [str(p.relative_to(TESTS)) for p in find([TESTS])]
    assert "toy/cases.yaml" in files
    assert len(load(TESTS / "toy" / "cases.yaml")) >= 10


# the runner -------------------------------------------------------------------------------------
def cases_file(tmp_path: Path, body: str) -> Path:
    return write(tmp_path / "cases.yaml", f"ruleset: toy\nbase: {RACE}\ncases:\n{body}")


def test_a_wrong_expectation_fails_naming_the_path_and_both_values(tmp_path):
    path = cases_file(tmp_path, """\
  - id: X1
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: {step: 2}}
        dice: [4]
        expect:
          runners[id=ann].pos: 7
          runners[id=cat].pos: 0
        events: [{type: run, die: 5}]
        no_events: [{type: run}]
""")
    (case,) = load(path)
    assert run(case).failures == [
        "step 1: runners[id=ann].pos is 6, expected 7",
        "step 1: runners[id=cat].pos: no such value (runners has 0 items with id = cat)",
        "step 1: no event matches {'type': 'run', 'die': 5} (types: ['turn', 'run'])",
        "step 1: an event matches {'type': 'run'}, expected none",
    ]


def test_events_in_order_must_come_in_that_order(tmp_path):
    path = cases_file(tmp_path, """\
  - id: O1
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: {step: 2}}
        dice: [4]
        events_in_order: [{type: turn}, {type: run, unit: ann}]
  - id: O2
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: {step: 2}}
        dice: [4]
        events_in_order: [{type: run}, {type: turn}]
""")
    in_order, reversed_ = load(path)
    assert run(in_order).failures == []
    assert run(reversed_).failures == [
        "step 1: no event matches {'type': 'turn'} after those matching [{'type': 'run'}], in order"]


def test_a_sheet_refused_or_accepted_against_the_case_fails_it(tmp_path):
    path = cases_file(tmp_path, """\
  - id: X2
    rule: 'toy rules: "taking turns in order"'
    steps:
      - sheets: {ann: {step: 9}}
        expect: {next: ben}
      - sheets: {ann: {step: 1}}
        refused: {ann: [toy.field@step]}
  - id: X3
    rule: 'toy rules: "taking turns in order"'
    setup_refused: [toy.field@length]
""")
    first, second = load(path)
    assert run(first).failures == ["step 1: ann's sheet refused: toy.field@step"]
    assert run(second).failures == ["setup accepted the scenario, expected it refused with ['toy.field@length']"]


def test_a_sheet_given_as_text_is_checked_as_gm_check_reads_its_file(tmp_path):
    """A sheet written as text is read as `gm check` reads a file: nothing filled in, its problems
    named in its own words (步数, not step) and at their line (code@field:LINE); code@field
    matches any line. A wrong line, a warning not expected and a value still there fail."""
    path = cases_file(tmp_path, """\
  - id: S1
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: "turn: 1\\nplayer: ann\\n# how far\\n步数: 9\\n"}
        refused: {ann: ['toy.field@步数:4']}
      - sheets: {ann: "turn: 1\\nplayer: ann\\n步数: 9\\n"}
        refused: {ann: ['toy.field@步数']}
      - sheets: {ann: "turn: 1\\nplayer: ann\\n步数: 2\\n"}
        dice: [4]
        absent: ['runners[id=cat]']
        expect:
          runners[id=ann].pos: 6
  - id: S2
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: "turn: 1\\nplayer: ann\\n步数: 9\\n"}
        refused: {ann: ['toy.field@步数:4']}
        absent: ['runners[id=ann].pos']
      - sheets: {ann: "turn: 1\\nplayer: ann\\n步数: 2\\n"}
        warned: {ann: [toy.far@step]}
        dice: [4]
""")
    good, bad = load(path)
    assert run(good).failures == []
    assert run(bad).failures == [
        "step 1: ann's sheet: refused with ['toy.field@步数:3'], expected ['toy.field@步数:4']",
        "step 1: runners[id=ann].pos is 0, expected nothing there",
        "step 2: ann's sheet: warned [], expected ['toy.far@step']"]


def test_a_malformed_case_file_is_refused_by_field_and_line(tmp_path):
    path = cases_file(tmp_path, """\
  - id: Y1
    rule: the step rule, not quoted
    steps:
      - sheet: {ann: {step: 1}}
        expect:
          runners[id=ann.pos: 1
  - id: Y1
    rule: 'toy rules: "one die"'
""")
    with pytest.raises(GmError) as err:
        load(path)
    found = [(p.code, p.field, p.line) for p in err.value.problems]
    assert found == [("cases.rule", "cases[0].rule", 5), ("field.unknown", "cases[0].steps[0].sheet", 7),
                     ("cases.path", "cases[0].steps[0].expect", 8), ("cases.id", "cases[1].id", 10)]
    text = err.value.render("en")
    assert "name the rule line the case checks and quote it" in text and "allowed: amend, sheets" in text


def test_a_base_naming_another_ruleset_is_refused(tmp_path):
    path = write(tmp_path / "cases.yaml", "ruleset: grail_war\nbase: " + str(RACE) + "\ncases:\n"
                 "  - {id: 1, rule: 'x \"y z\"'}\n")
    with pytest.raises(GmError) as err:
        load(path)
    assert [(p.code, p.field) for p in err.value.problems] == [("cases.ruleset", "ruleset")]


def test_paths_reach_into_lists_by_index_or_by_key():
    data = {"runners": [{"id": "ann", "pos": 1}, {"id": "ben", "pos": 2}], "n": {"3": "three"}}
    assert path_steps("runners[id=ben].pos") == ["runners", ("id", "ben"), "pos"]
    assert get(data, "runners.1.pos") == 2 and get(data, "runners[id=ann].pos") == 1 and get(data, "n.3") == "three"
    put(data, "runners[id=ben].pos", 9)
    assert data["runners"][1]["pos"] == 9
    with pytest.raises(Missing, match="runners has 2 items"):
        get(data, "runners.5")
    for bad in ("", "a..b", "a[id=x", "[", "a]"):
        with pytest.raises(ValueError):
            path_steps(bad)


def test_each_key_of_a_step_holds_what_it_should(tmp_path):
    path = cases_file(tmp_path, """\
  - id: Z1
    rule: 'toy rules: "one die"'
    setup_refused: toy.field@length
    steps:
      - sheets: [ann]
        dice: [4, six]
        refused: {ann: toy.trip@trip}
        events: {type: run}
""")
    with pytest.raises(GmError) as err:
        load(path)
    assert [(p.code, p.field, p.params.get("expected")) for p in err.value.problems] == [
        ("field.type", "cases[0].setup_refused", "list of code@field"),
        ("field.type", "cases[0].steps[0].sheets", "mapping of player: sheet"),
        ("field.type", "cases[0].steps[0].dice", "list of integers"),
        ("field.type", "cases[0].steps[0].refused", "mapping of player: [code@field]"),
        ("field.type", "cases[0].steps[0].events", "list of mappings")]


def test_the_command_runs_a_file_and_says_what_failed(tmp_path, capsys):
    from gm_tool.cases import main

    assert main(["--module", "tests.toy", str(TESTS / "toy" / "cases.yaml")]) == 0
    out = capsys.readouterr().out
    assert out.count("\nok   ") + out.startswith("ok   ") == len(load(TESTS / "toy" / "cases.yaml")) and "FAIL" not in out
    bad = cases_file(tmp_path, """\
  - id: W1
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: {step: 1}}
        dice: [1]
        expect: {next: ann}
""")
    assert main([str(bad)]) == 1
    assert capsys.readouterr().out.splitlines() == ["FAIL cases.yaml#W1: toy rules: \"moves that far plus one die\"",
                                                    "     step 1: next is 'ben', expected 'ann'"]


# every ruleset ---------------------------------------------------------------------------------
def _scenario_of(name: str) -> str:
    from gm_tool.core import ruleset as registry

    return str(RACE) if name == "toy" else registry.get(name).default_scenario


@pytest.mark.parametrize("name", ["toy", "grail_war", "guangying", "hunlu", "shenjianglu"])
def test_a_case_plays_every_ruleset_as_the_commands_do(name, tmp_path, gm):
    """One turn of each ruleset's default scenario played with the commands (gm new, template,
    submit, resolve) and written as a case whose expectations are what `gm show --json` then
    printed, key by key: the runner plays it to the same state. A key changed fails it."""
    import json

    from gm_tool import app as ops
    from gm_tool.core import ruleset as registry
    from gm_tool.core import safeyaml

    rs, scenario, seed = registry.get(name), _scenario_of(name), "cases-every-ruleset"
    d = tmp_path / "c"
    gm("new", d, "--scenario", scenario, "--seed", seed)
    player = rs.due(rs.setup(*ops.load_scenario(scenario), seed))[0]
    gm("template", d, player, "--lang", "en", "-o", tmp_path / "sheet.yaml")
    gm("submit", d, tmp_path / "sheet.yaml")
    gm("resolve", d)
    shown = json.loads(gm("show", d, "--json").stdout)
    sheet = {k: v for k, v in safeyaml.load_mapping(tmp_path / "sheet.yaml").items() if k not in ("turn", "player")}
    case = {"id": 1, "rule": f'{name}: "one turn from the template"', "steps": [{"sheets": {player: sheet}, "expect": shown}]}
    path = write(tmp_path / "cases.yaml", json.dumps({"base": scenario, "seed": seed, "cases": [case]}, ensure_ascii=False))
    assert shown["turn"] == 1 and len(shown) > 3
    assert run(load(path)[0]).failures == []
    case["steps"][0]["expect"] = {**shown, "turn": 2}
    write(path, json.dumps({"base": scenario, "seed": seed, "cases": [case]}, ensure_ascii=False))
    assert run(load(path)[0]).failures == ["step 1: turn is 1, expected 2"]


def test_a_star_reads_every_item_and_a_hash_counts_them():
    data = {"runners": [{"id": "ann", "hand": [{"name": "杀"}, {"name": "闪"}]}, {"id": "ben", "hand": []}]}
    assert get(data, "runners[id=ann].hand.*.name") == ["杀", "闪"]
    assert get(data, "runners.*.hand.#") == [2, 0]
    assert get(data, "runners[id=ben].hand.*.name") == []
    assert get(data, "runners.#") == 2
    with pytest.raises(Missing):
        get(data, "runners[id=ann].*")
    with pytest.raises(Missing):
        get(data, "runners.*.pos")
    with pytest.raises(Missing):
        put(data, "runners.*.pos", 1)


def test_posts_gm_edits_and_a_refused_turn_are_checked_as_written(tmp_path):
    """posts (in order) and posts_lack, amend_refused, resolve_refused, refused: {} (a step of GM
    edits alone) and a case's own base: each fails the case when the step does otherwise."""
    path = cases_file(tmp_path, """\
  - id: P1
    rule: 'toy rules: "moves that far plus one die"'
    base: race.yaml
    steps:
      - sheets: {ann: {step: 2}}
        dice: [4]
        posts:
          public: [前进 2+4 格, 下一位：ben]
          public@en: [ben]
        posts_lack:
          ann: [前进 9 格]
      - amend: [{action: set_pos, args: [zed, 3], reason: x}]
        amend_refused: [toy.runner@args.0]
        refused: {}
        expect: {turn: 1}
  - id: P2
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: {step: 2}}
        dice: [4]
        posts:
          public: [下一位：ben, 前进 2+4 格]
        posts_lack:
          public: [G1]
  - id: P3
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - amend: [{action: set_pos, args: [zed, 3], reason: x}]
        refused: {}
  - id: P4
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: {step: 1}}
        dice: [4]
        resolve_refused: [toy.dice@dice.0]
""")
    write(tmp_path / "race.yaml", RACE.read_text("utf-8"))
    good, posts, edit, turn = load(path)
    assert run(good).failures == []
    assert run(posts).failures == ["step 1: public's post lacks '前进 2+4 格' (after the texts before it)",
                                   "step 1: public's post holds 'G1'"]
    assert run(edit).failures == ["step 1: GM edits refused: toy.runner@args.0"]
    assert run(turn).failures == ["step 1: the turn resolved, expected it refused with ['toy.dice@dice.0']"]


def test_a_step_may_set_the_state_first(tmp_path):
    path = cases_file(tmp_path, """\
  - id: S1
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - state: {runners.0.pos: 5}
        sheets: {ann: {step: 1}}
        dice: [1]
        expect: {runners.0.pos: 7}
      - state: {runners.9.pos: 1}
""")
    (case,) = load(path)
    assert run(case).failures == ["step 2: state: runners.9.pos: runners has 2 items"]


def test_refusals_event_counts_and_nested_events_are_checked(tmp_path):
    path = cases_file(tmp_path, """\
  - id: R1
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: {step: 9}}
        refusal_says: {ann: [step, 'allowed: 0-3']}
      - sheets: {ann: {step: 9}}
        refusal_says: {ann: [something it does not say]}
      - sheets: {ann: {step: 2}}
        refusal_says: {ann: [step]}
  - id: R2
    rule: 'toy rules: "moves that far plus one die"'
    steps:
      - sheets: {ann: {step: 2}}
        dice: [4]
        events_times: [{times: 1, type: run, unit: ann}, {times: 0, type: chance}, {times: 2, type: run}]
        events: [{type: turn}]
""")
    refusals, counts = load(path)
    failures = run(refusals).failures
    assert failures[0].startswith("step 2: ann's sheet: the refusal does not say 'something it does not say'")
    assert failures[1:] == ["step 3: ann's sheet: the refusal does not say 'step': 'accepted'"]
    assert run(counts).failures == ["step 1: 1 events match {'type': 'run'}, expected 2"]


def test_an_event_value_that_is_a_mapping_or_a_list_matches_partly():
    from gm_tool.cases import matches

    event = {"type": "take", "card": {"id": 7, "name": "闪", "suit": "hearts"}, "cards": [{"id": 1, "name": "杀"}]}
    assert matches(event, {"card": {"name": "闪"}, "cards": [{"name": "杀"}]})
    assert not matches(event, {"card": {"name": "杀"}})
    assert not matches(event, {"cards": [{"name": "杀"}, {"name": "闪"}]})
    assert not matches(event, {"cards": {"name": "杀"}})
    assert not matches({"type": "take", "card": None}, {"card": {"name": "闪"}})

"""What stays Python of the rulings (docs/rulings/shenjianglu.md): the geometry of front, back and
side (a function of cells, no game), and the check that every ruling names a test or a rule case
that exists. The rulings' rule cases are data: cases/rulings.yaml, cases/four-seats.yaml,
cases/switches.yaml, cases/setup.yaml (run by tests/test_rule_cases.py)."""

from __future__ import annotations


def test_front_back_and_side_of_a_unit():
    """seed l.141: "人物的初始朝向為玩家座位的正前方" — front, back and side as cards read them (ruling 28)."""
    from gm_tool.rulesets.shenjianglu.geometry import side_of

    here = (3, 3)
    assert side_of(here, "N", (3, 2)) == "front" and side_of(here, "N", (3, 4)) == "back"
    assert side_of(here, "N", (2, 3)) == "side" and side_of(here, "E", (2, 3)) == "back"
    assert side_of(here, "N", (4, 2)) == "front" and side_of(here, "N", (5, 2)) == "side"  # the diagonal is front


def test_every_ruling_names_a_test_that_exists():
    """seed l.191: "【是否生效優先級】" — every ruling in docs/rulings/shenjianglu.md is checked by a named test
    or rule case (cases/*.yaml)."""
    import re
    from pathlib import Path

    from gm_tool.cases import load

    root = Path(__file__).parent
    doc = (root.parent.parent / "docs" / "rulings" / "shenjianglu.md").read_text("utf-8")
    named = set(re.findall(r"(test_[a-z0-9_]+)`", doc))
    defined = set(re.findall(r"^def (test_[a-z0-9_]+)\(", "\n".join(p.read_text("utf-8") for p in root.glob("test_*.py")), re.M))
    cases = set(re.findall(r"`(cases/[a-z0-9-]+\.yaml#[a-z0-9-]+)`", doc))  # rule cases as data: FILE#ID
    written = {f"cases/{p.name}#{case.id}" for p in (root / "cases").glob("*.yaml") for case in load(p)}
    assert len(re.findall(r"^\*\*\d+\.", doc, re.M)) >= 27
    assert named and named <= defined, named - defined
    assert cases and cases <= written, cases - written

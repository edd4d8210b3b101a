"""One message catalogue: every code the code raises or prints is defined, in zh and en, once."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from gm_tool import i18n
from gm_tool.core import ruleset as registry

PACKAGE = Path(__file__).parent.parent / "gm_tool"
# GmError.one("code", ...) and Problem("code", ...) with a literal code
USED = re.compile(r"""(?:GmError\.one|Problem)\(\s*["']([a-z_][\w.]*)["']\s*[,)]""")


def _load_everything() -> None:
    for module in ("gm_tool.app", "gm_tool.console", "gm_tool.simulate", "gm_tool.core.render", "gm_tool.core.store",
                   "gm_tool.core.safeyaml", "gm_tool.core.schema", "gm_tool.core.yamlpos", "gm_tool.desk.words"):
        importlib.import_module(module)
    for name in registry.available():
        rs = registry.get(name)
        importlib.import_module(type(rs).__module__)
        for path in sorted((PACKAGE / "rulesets" / name).rglob("*.py")) if (PACKAGE / "rulesets" / name).is_dir() else []:
            rel = path.relative_to(PACKAGE.parent).with_suffix("")
            importlib.import_module(".".join(rel.parts).removesuffix(".__init__"))


def test_every_code_raised_in_the_package_is_in_the_catalogue_in_both_languages():
    _load_everything()
    known = set(i18n.codes())
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for code in USED.findall(path.read_text("utf-8")):
            if code not in known:
                missing.append(f"{path.relative_to(PACKAGE)}: {code}")
    assert missing == []
    for code in known:
        assert i18n.message(code, "zh") != code and i18n.message(code, "en") != code


def test_a_code_defined_twice_with_another_text_is_refused():
    i18n.register({"test.once": {"zh": "一", "en": "one"}})
    i18n.register({"test.once": {"zh": "一", "en": "one"}})  # the same text again: harmless
    with pytest.raises(ValueError, match="defined twice"):
        i18n.register({"test.once": {"zh": "二", "en": "two"}})
    with pytest.raises(ValueError, match="zh and an en"):
        i18n.register({"test.half": {"zh": "半"}})


def test_console_lines_are_in_the_catalogue():
    import gm_tool.console  # noqa: F401

    assert i18n.message("cli.none", "zh") == "无" and i18n.message("cli.none", "en") == "none"


# --- the one format of a ruleset's words (gm_tool.core.texts) ---------------------------------

def _message_files() -> list[Path]:
    import gm_tool.rulesets as pkg

    return sorted(Path(pkg.__path__[0]).glob("*/data/messages.yaml"))


# rulesets whose words are still being moved into the one format (issue 19): strict, so the
# marker must go as soon as a file is converted
_NOT_YET: set[str] = set()


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.xfail(strict=True, reason="not converted yet"))
                                  if p.parts[-3] in _NOT_YET else p for p in _message_files()],
                         ids=lambda p: p.parts[-3])
def test_every_ruleset_messages_file_is_in_the_one_format(path):
    from gm_tool.core import safeyaml, texts

    data = safeyaml.load_mapping(path)  # no duplicate key, within the bounds of any YAML we read
    assert texts.problems(data, path.parts[-3]) == []


def test_texts_load_registers_messages_and_builds_narration(tmp_path):
    from gm_tool.core import texts

    (tmp_path / "messages.yaml").write_text(
        "messages:\n  zz.hello: {zh: '你好 {who}', en: 'hello {who}'}\n"
        "narration:\n  move: {zh: '{unit} 移动', en: '{unit} moves', section: moves}\n  chance: {silent: true}\n"
        "titles: {zh: {moves: 移动}, en: {moves: Moves}}\n"
        "labels: {zh: {winner: {draw: 平局}}, en: {winner: {draw: a draw}}}\n", encoding="utf-8")
    t = texts.load(tmp_path, "zz")
    assert i18n.message("zz.hello", "zh", who="甲") == "你好 甲"
    assert t.label("zh", "winner.draw") == "平局" and t.labels("en")["winner"]["draw"] == "a draw"
    assert t.labels("fr") == t.labels("en")
    assert t.narration.section_of({"type": "move"}) == "moves"
    assert "chance" in t.narration.silent and t.narration.titles["zh"]["moves"] == "移动"


def test_texts_problems_name_what_is_wrong():
    from gm_tool.core.texts import problems

    bad = {"messages": {"other.code": {"zh": "甲"}}, "narration": {"x": {"zh": "甲", "colour": 1}},
           "labels": {"zh": {"a": 1, "b": 2}, "en": {"a": 1}}, "words": {}}
    found = problems(bad, "zz")
    assert "unknown section 'words'" in found
    assert any(p.startswith("messages.other.code: a code starts with") for p in found)
    assert any(p.startswith("messages.other.code: needs exactly") for p in found)
    assert any(p.startswith("narration.x:") for p in found)
    assert "labels: zh and en must have the same keys" in found


# Player-facing words are data: no ruleset chooses words with a language branch. The count of
# such branches left per ruleset may only go down (to 0: issue 19); lower it when you remove one.
_LANG_BRANCHES_LEFT = {"grail_war": 0, "guangying": 0, "hunlu": 0, "shenjianglu": 0}
_LANG_BRANCH = re.compile(r"""lang\s*[!=]=\s*["']zh["']|["']zh["']\s*[!=]=\s*lang|\bzh\b\s*=\s*lang\b""")


def test_no_ruleset_chooses_words_with_a_language_branch():
    import gm_tool.rulesets as pkg

    found = {}
    for folder in sorted(Path(pkg.__path__[0]).iterdir()):
        if folder.is_dir() and (folder / "__init__.py").is_file():
            found[folder.name] = sum(len(_LANG_BRANCH.findall(f.read_text("utf-8"))) for f in folder.rglob("*.py"))
    assert found == {name: _LANG_BRANCHES_LEFT.get(name, 0) for name in found}, \
        "a language branch added (move the words to data/messages.yaml), or one removed (lower _LANG_BRANCHES_LEFT)"

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
                   "gm_tool.core.safeyaml", "gm_tool.core.schema", "gm_tool.core.yamlpos"):
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

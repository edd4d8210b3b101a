"""The README and docs/ stand alone: no link leaves the repository, every relative link names a
file that exists, and the README opens with exactly its two commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_stay_inside_the_repository_and_resolve(doc):
    text = doc.read_text("utf-8")
    assert "../shared" not in text and "shared/spec" not in text and "shared/seeds" not in text
    for target in LINK.findall(text):
        if re.match(r"[a-z]+://", target) or target.startswith("#"):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT.resolve()), target
        assert path.exists(), f"{doc.name}: {target}"


def test_readme_opens_with_the_two_commands():
    text = (ROOT / "README.md").read_text("utf-8")
    block = re.search(r"```sh\n(.*?)\n```", text, re.S)
    assert block and text.index(block.group(0)) < text.index("\n\n", text.index("# gm-tool") + 10) + 5
    lines = block.group(1).splitlines()
    assert lines == ["python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/gm demo",
                     "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"]

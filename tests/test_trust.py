"""Trust, second round (issue 16): a published campaign runs no code, and no sheet, seed or
folder can break the tool. One section per defect of the issue; every test here failed on the
code as it was before the fix."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from gm_tool.core.store import Campaign
from tests.conftest import tree, write

BUNDLED_TEMPLATES = Path(__file__).parent.parent / "gm_tool" / "rulesets" / "grail_war" / "templates"


@pytest.fixture
def played(gm, skirmish) -> Path:
    """The skirmish campaign after one resolved turn (every player on default orders)."""
    gm("resolve", skirmish)
    return skirmish


# 1. code from a campaign folder ------------------------------------------------------------
SENTINEL = "gm-trust-pwned"

EXPLOITS = {
    "cycler_globals": '{{ cycler.__init__.__globals__.os.system("touch %s") }}',
    "lipsum_globals": '{{ lipsum.__globals__["os"].popen("touch %s").read() }}',
    "joiner_globals": '{{ joiner.__init__.__globals__.os.system("touch %s") }}',
    "namespace_set": '{% set g = namespace.__init__.__globals__ %}{{ g.os.system("touch %s") }}',
    "subclasses": '{{ "".__class__.__mro__[1].__subclasses__() }}{# %s #}',
    "attr_filter": '{{ (cycler|attr("__init__")|attr("__globals__"))["os"].system("touch %s") }}',
    "escaped_name": '{{ (cycler|attr("\\x5f\\x5finit\\x5f\\x5f")).__globals__.os.system("touch %s") }}',
    "subscript": '{{ cycler["__init__"]["__globals__"]["os"].system("touch %s") }}',
    "format_string": '{{ "{0.__class__.__mro__}".format(m) }}{# %s #}',
    "template_reference": '{{ self._TemplateReference__context.cycler.__init__.__globals__.os.system("touch %s") }}',
    "markup_method": '{{ m.esc.__func__.__globals__ }}{# %s #}',
    "mutation": '{% set x = [] %}{{ x.append("touch %s") }}',
    "big_range": '{{ range(10 ** 12) | list | length }}{# %s #}',
    "big_string": '{{ ("x" * 10 ** 10) | length }}{# %s #}',
    "include_outside": '{% include "../../../../../../etc/passwd" %}{# %s #}',
}


def _hostile(campaign: Path, body: str, tmp_path: Path, name: str = "public.j2") -> Path:
    sentinel = tmp_path / SENTINEL
    (campaign / "templates").mkdir(exist_ok=True)
    write(campaign / "templates" / name, body.replace("%s", str(sentinel)) + "\n")
    return sentinel


@pytest.mark.parametrize("exploit", sorted(EXPLOITS))
def test_a_hostile_campaign_template_runs_no_code_in_verify(gm, played, tmp_path, exploit):
    """A player runs `gm verify DIR --seed SEED` on a folder the GM published: its templates/
    cannot run code; the sandbox's refusal is one clear line naming the template."""
    sentinel = _hostile(played, EXPLOITS[exploit], tmp_path)
    r = gm("verify", played, "--seed", "test-seed", "--lang", "en", code=1)
    assert not sentinel.exists()
    assert "templates/public.j2" in r.output, r.output
    assert "internal error" not in r.output and len(r.output.strip().splitlines()) == 1, r.output


@pytest.mark.parametrize("command", ["preview", "resolve"])
def test_a_hostile_campaign_template_runs_no_code_in_preview_or_resolve(gm, skirmish, tmp_path, command):
    sentinel = _hostile(skirmish, EXPLOITS["cycler_globals"], tmp_path, "private.j2")
    before = tree(skirmish)
    r = gm(command, skirmish, "--lang", "en", code=1)
    assert not sentinel.exists()
    assert "templates/private.j2" in r.output and "sandbox refuses" in r.output, r.output
    assert tree(skirmish) == before


def test_a_template_linked_outside_the_campaign_is_refused(gm, played, tmp_path):
    """A link in templates/ could show any file of the verifying player's (a key, a password)."""
    secret = write(tmp_path / "id_rsa", "PRIVATE KEY\n")
    (played / "templates").mkdir()
    os.symlink(secret, played / "templates" / "public.j2")
    r = gm("verify", played, "--seed", "test-seed", "--lang", "en", code=1)
    assert "templates/public.j2" in r.output and "not a link" in r.output, r.output
    assert "PRIVATE KEY" not in r.output


def test_a_broken_campaign_template_is_a_clear_error(gm, skirmish):
    write((skirmish / "templates").mkdir() or skirmish / "templates" / "public.j2", "{% for x in %}\n")
    r = gm("preview", skirmish, "--lang", "en", code=1)
    assert "templates/public.j2" in r.output and "template syntax error" in r.output, r.output


def test_verify_names_the_overridden_templates(gm, skirmish):
    """An honest override (the bundled post plus a footer) still works, and `gm verify` tells the
    player the posts came from the campaign's own templates."""
    (skirmish / "templates").mkdir()
    text = (BUNDLED_TEMPLATES / "public.j2").read_text("utf-8") + "\n{{ m.b('Forum rules: be kind') }}\n"
    write(skirmish / "templates" / "public.j2", text)
    gm("resolve", skirmish)
    assert "[b]Forum rules: be kind[/b]" in (skirmish / "reports" / "turn-001" / "public.bbcode").read_text("utf-8")
    r = gm("verify", skirmish, "--seed", "test-seed", "--lang", "en")
    assert "templates/: public.j2" in r.output and "sandbox" in r.output, r.output
    r = gm("verify", skirmish, "--seed", "test-seed")
    assert "public.j2" in r.output


# 4. duplicate keys ---------------------------------------------------------------------------
DUPLICATES = {
    "top_level": ("turn: 1\nplayer: alice\nmoves: []\nplayer: bob\n", "player", 2, 4),
    "nested": ("turn: 1\nplayer: alice\noptions:\n  gem: 不用\n  gem: 用\n", "options.gem", 4, 5),
    "flow": ("turn: 1\nplayer: alice\nx: [{a: 1, a: 2}]\n", "x.0.a", 3, 3),
    "quoted": ("turn: 1\n'player': alice\n\"player\": bob\n", "player", 2, 3),
}


@pytest.mark.parametrize("case", sorted(DUPLICATES))
def test_a_sheet_with_a_duplicate_key_is_refused_naming_both_lines(gm, skirmish, tmp_path, case):
    """A file that says `player: alice` and ends `player: bob` passed as bob's, the last key
    winning; now refused, with both lines, by check and by submit, and nothing is stored."""
    text, field, first, second = DUPLICATES[case]
    f = write(tmp_path / "alice.yaml", text)
    before = tree(skirmish)
    for command in ("check", "submit"):
        r = gm(command, skirmish, f, "--lang", "en", code=1)
        assert f"alice.yaml:{second}: {field}: key" in r.output, r.output
        assert f"lines {first} and {second}" in r.output, r.output
    assert tree(skirmish) == before


def test_duplicate_keys_are_refused_in_a_scenario(gm, tmp_path):
    from gm_tool.app import BUNDLED

    text = (BUNDLED / "skirmish.yaml").read_text("utf-8")
    f = write(tmp_path / "s.yaml", text + "ruleset: grail_war\n")
    r = gm("new", tmp_path / "x", "--scenario", f, "--lang", "en", code=1)
    assert "key 'ruleset' is written twice" in r.output and not (tmp_path / "x").exists()


def test_duplicate_keys_are_refused_in_any_campaign_file(gm, played):
    """campaign.yaml, amendments and every other YAML the tool reads go through the same loader."""
    meta = played / "campaign.yaml"
    meta.write_text(meta.read_text("utf-8") + "lang: en\n", "utf-8")
    r = gm("status", played, "--lang", "en", code=1)
    assert "campaign.yaml" in r.output and "written twice" in r.output


def test_merge_keys_are_not_duplicates():
    from gm_tool.core import safeyaml

    assert safeyaml.loads("base: &b {p: 1, q: 2}\nm:\n  <<: *b\n  p: 3\n", "x") == \
        {"base": {"p": 1, "q": 2}, "m": {"p": 3, "q": 2}}


def test_submit_says_when_it_replaces_a_stored_sheet_and_whose(gm, skirmish, tmp_path):
    bob = write(tmp_path / "bob.yaml", "turn: 1\nplayer: bob\n")
    r = gm("submit", skirmish, bob, "--lang", "en")
    assert "replaced" not in r.output
    sneaky = write(tmp_path / "alice.yaml", "turn: 1\nplayer: bob\n# alice's file\n")
    r = gm("submit", skirmish, sneaky, "--lang", "en")
    assert "it replaced the sheet already stored for bob (orders/turn-001/bob.yaml)" in r.output, r.output
    assert "the file alice.yaml looks like alice's, but its player is bob" in r.output, r.output
    assert (skirmish / "orders" / "turn-001" / "bob.yaml").read_text("utf-8").endswith("# alice's file\n")

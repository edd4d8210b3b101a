"""Trust, second round (issue 16): a published campaign runs no code, and no sheet, seed or
folder can break the tool. One section per defect of the issue (in the issue's numbering). Each
defect has tests that fail on the code before the fixes (b94d374); a few more guard what already
worked and must keep working (merge keys, strong seeds, GBK named, inner spaces in a seed)."""

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
    assert "templates/public.j2" in r.output and "link" in r.output, r.output
    assert "PRIVATE KEY" not in r.output
    r = gm("preview", played, "--lang", "en", code=1)  # the loader refuses it too
    assert "templates/public.j2: a campaign template must be a regular file" in r.output, r.output


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


def test_submit_says_when_it_replaces_a_stored_sheet_and_whose(gm, skirmish, tmp_path):
    bob = write(tmp_path / "bob.yaml", "turn: 1\nplayer: bob\n")
    r = gm("submit", skirmish, bob, "--lang", "en")
    assert "replaced" not in r.output
    sneaky = write(tmp_path / "alice.yaml", "turn: 1\nplayer: bob\n# alice's file\n")
    r = gm("submit", skirmish, sneaky, "--lang", "en")
    assert "it replaced the sheet already stored for bob (orders/turn-001/bob.yaml)" in r.output, r.output
    assert "the file alice.yaml looks like alice's, but its player is bob" in r.output, r.output
    assert (skirmish / "orders" / "turn-001" / "bob.yaml").read_text("utf-8").endswith("# alice's file\n")


# 3. the seed, byte-exact ---------------------------------------------------------------------
@pytest.mark.parametrize("seed", [" padded-seed-0123456789abcdef", "padded-seed-0123456789abcdef ", "two\nlines-0123456789abcdef", "\t"])
def test_a_seed_that_would_not_survive_a_copy_is_refused_at_new(gm, tmp_path, seed):
    """A seed with surrounding spaces was committed padded and read stripped: never verifiable."""
    r = gm("new", tmp_path / "c", "--scenario", "skirmish", "--seed", seed, "--lang", "en", code=2)
    assert "unusable seed" in r.output and not (tmp_path / "c").exists()


def test_the_seed_is_kept_byte_exact(gm, tmp_path):
    """Inner spaces are part of the seed: committed, stored and read the same."""
    from gm_tool.core.chance import commitment

    seed = "a  seed with  inner spaces 0123456789abcdef"
    d = tmp_path / "c"
    gm("new", d, "--scenario", "skirmish", "--seed", seed)
    assert Campaign(d).seed() == seed
    assert commitment(seed) in (d / "campaign.yaml").read_text("utf-8")
    gm("resolve", d)
    gm("verify", d)
    gm("verify", d, "--seed", seed)


def test_a_stored_seed_is_not_stripped(gm, played):
    """A seed file is read byte-exact (only the line end gm new wrote is dropped): a stray space
    added to secret/seed is a different seed, caught by the commitment, not silently fixed."""
    seed_file = played / "secret" / "seed"
    assert seed_file.read_text("utf-8") == "test-seed\n"
    seed_file.write_text("test-seed \n", "utf-8")
    for command in ("verify", "resolve", "preview"):
        r = gm(command, played, "--lang", "en", code=1)
        assert "secret/seed: the secret seed does not match the commitment" in r.output, r.output
    gm("verify", played, "--seed", "test-seed")


def test_a_revealed_seed_pasted_with_a_stray_space_still_verifies(gm, played):
    gm("verify", played, "--seed", " test-seed\n")


@pytest.mark.parametrize("seed, warned", [("1234567890123456", True), ("hunter2hunter2", True),
                                          ("3b0e9c41d7a25f68e1c0b94a7d2f5e38", False),
                                          ("Xq7#kP2$mW9!vL4@zR8%tN3^bH6&cJ1*dF5", False)])
def test_a_weak_seed_is_warned_about_with_its_strength(gm, tmp_path, seed, warned):
    """A 16-digit number is about 53 bits: it used to pass without a word (only < 16 characters warned)."""
    r = gm("new", tmp_path / "c", "--scenario", "skirmish", "--seed", seed, "--lang", "en")
    assert ("warning: the seed is short for a secret" in r.output) is warned, r.output
    if warned:
        from gm_tool.app import seed_bits

        assert f"at most about {seed_bits(seed)} bits" in r.output
    if seed.isdigit():
        assert "about 53 bits" in r.output


# 2. two gm new into one folder ---------------------------------------------------------------
def test_two_gm_new_racing_for_one_folder_exactly_one_wins(tmp_path, monkeypatch):
    """The second `gm new` completes while the first is still writing: the first must fail with
    exit 1 and leave the winner's campaign whole (it used to report success as well, with
    another commitment, and leave a campaign whose verify failed for ever)."""
    from gm_tool import app
    from gm_tool.errors import GmError

    target = tmp_path / "c"
    real = app.atomic_write
    raced: list[dict] = []

    def racing(path, data, mode=0o644):
        if not raced:
            raced.append({})
            raced[0] = app.new_campaign(target, "skirmish", "the-winner-0123456789abcdef")
        real(path, data, mode)

    monkeypatch.setattr(app, "atomic_write", racing)
    with pytest.raises(GmError) as exc:
        app.new_campaign(target, "skirmish", "the-loser-0123456789abcdef")
    monkeypatch.undo()
    assert exc.value.exit_code == 1 and exc.value.problems[0].code == "campaign.exists"
    assert Campaign(target).seed() == "the-winner-0123456789abcdef"
    assert raced[0]["commitment"] in (target / "campaign.yaml").read_text("utf-8")
    app.resolve(target)
    app.verify(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c"]  # no stage left behind


def test_concurrent_gm_new_processes_one_wins(tmp_path):
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root), "GM_LANG": "en"}
    for pair in range(4):
        target = tmp_path / f"c{pair}"
        if pair % 2:
            target.mkdir()  # an empty folder made beforehand is allowed too
        procs = [subprocess.Popen([sys.executable, "-m", "gm_tool", "new", str(target), "--scenario", "skirmish",
                                   "--seed", f"racer-{pair}-{k}-0123456789abcdef"], env=env, cwd=root,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) for k in range(2)]
        codes = [p.wait(120) for p in procs]
        outs = [p.stdout.read().decode() + p.stderr.read().decode() for p in procs]
        assert sorted(codes) == [0, 1], outs
        winner = codes.index(0)
        assert Campaign(target).seed() == f"racer-{pair}-{winner}-0123456789abcdef"
        assert "Traceback" not in outs[1 - winner] and "not empty" in outs[1 - winner]
        from gm_tool import app

        app.verify(target)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


# 9. a failed gm new leaves nothing -----------------------------------------------------------
def test_a_failed_gm_new_leaves_nothing_and_a_retry_works(gm, tmp_path, monkeypatch):
    """gm new failing half-way (a full disk) into a folder made beforehand used to leave
    scenario.yaml and secret/seed: a retry was refused while gm status said 'not a campaign'."""
    from gm_tool import app

    target = tmp_path / "c"
    target.mkdir()
    real = app.atomic_write

    def full(path, data, mode=0o644):
        if Path(path).name.startswith("turn-000"):
            raise OSError(28, "No space left on device", str(path))
        real(path, data, mode)

    monkeypatch.setattr(app, "atomic_write", full)
    with pytest.raises(OSError):
        app.new_campaign(target, "skirmish", "full-disk-seed-0123456789abcdef")
    monkeypatch.undo()
    assert list(target.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["c"]
    gm("new", target, "--scenario", "skirmish", "--seed", "retry-seed-0123456789abcdef")
    gm("status", target)


@pytest.mark.parametrize("made", [False, True], ids=["new_folder", "empty_folder_made_before"])
def test_gm_new_killed_at_every_step_leaves_nothing_or_a_whole_campaign(tmp_path, made):
    """Killed anywhere, gm new leaves a whole campaign, or nothing the retry is refused for (in a
    folder made beforehand, what the killed claim left is cleared by the retry)."""
    from gm_tool import app
    from tests.test_crash import _fork_all, _steps

    probe = tmp_path / "probe"
    if made:
        probe.mkdir()
    total = _steps(lambda: app.new_campaign(probe, "skirmish", "kill-seed-0123456789abcdef"))
    assert total >= 5
    targets = {k: tmp_path / f"k{k}" for k in range(1, total + 1)}
    for d in targets.values():
        if made:
            d.mkdir()
    codes = _fork_all({k: (lambda d=d: app.new_campaign(d, "skirmish", "kill-seed-0123456789abcdef"))
                       for k, d in targets.items()})
    assert set(codes.values()) == {-9}
    for d in targets.values():
        if Campaign(d).exists():
            app.verify(d)
        else:
            app.new_campaign(d, "skirmish", "kill-seed-0123456789abcdef")  # the retry is not refused
            app.verify(d)


def test_gm_new_in_the_empty_folder_one_stands_in_keeps_that_folder(gm, tmp_path, monkeypatch):
    """`mkdir game && cd game && gm new .`: the folder is filled in place, not replaced (a shell
    standing in it would be left in a deleted folder; renaming onto "." fails)."""
    d = tmp_path / "game"
    d.mkdir()
    inode = d.stat().st_ino
    monkeypatch.chdir(d)
    gm("new", ".", "--scenario", "skirmish", "--seed", "in-place-seed-0123456789abcdef")
    assert d.stat().st_ino == inode and Campaign(d).exists()
    assert not [p for p in d.iterdir() if p.name.endswith(".stage")]
    gm("resolve", ".")
    gm("verify", ".")


def test_a_folder_left_by_an_old_interrupted_new_is_named_as_such(gm, tmp_path):
    d = tmp_path / "c"
    (d / "secret").mkdir(parents=True)
    write(d / "secret" / "seed", "x\n")
    write(d / "scenario.yaml", "ruleset: grail_war\n")
    for command in (("status", d), ("new", d, "--scenario", "skirmish")):
        r = gm(*command, "--lang", "en", code=1)
        assert "an interrupted gm new left this folder" in r.output and "delete it" in r.output, r.output


# 5. a blocked move leaks a hidden cell -------------------------------------------------------
def _blocked_turn():
    """r (red) at E2 and b (blue) at F2 step into each other's cells (ruling M14: both stop);
    o (red, at B2) sees columns A-D... and E2 (vision 2), but not F2."""
    from tests.grail_war.map_kit import C, setup, sheet, turn

    s = setup(["........", "........", "........"],
              [C("r", "SABER", "red", "E2"), C("b", "SABER", "blue", "F2"), C("o", "SABER", "red", "C2")])
    res = turn(s, sheet(s, "r", to="G2"), sheet(s, "b", to="D2"))
    from gm_tool.rulesets.grail_war import RULESET

    return s, res, _texts(RULESET.posts(s, res.state, res.events, "en"))


def _texts(out) -> dict:
    """``{audience: {fmt: text}}`` from a ruleset's posts (a Posts object, or the older mapping)."""
    return getattr(out, "texts", out)


def _told(text: str) -> str:
    import re

    return re.sub(r"\[code\].*?\[/code\]|```.*?```", "", text, flags=re.S)  # the text map has no cell names


def test_a_blocked_move_is_not_told_to_who_does_not_see_the_refused_cell():
    """seed l.231 "每个角色的移动行是同时的" with R7 (a player sees 2 cells around): o sees r stop
    at E2 but not F2, the cell r was refused; "R cannot enter F2" told o what stood in F2."""
    from gm_tool.rulesets.grail_war.vision import visible_in_state

    s, res, posts = _blocked_turn()
    assert {e["character"]: e["reason"] for e in res.events if e["type"] == "blocked"} == {"r": "enemy", "b": "enemy"}
    seen = {f"{chr(65 + x)}{y + 1}" for x, y in visible_in_state(res.state, "o")}
    assert "E2" in seen and "F2" not in seen
    for fmt, text in posts["o"].items():
        assert "F2" not in _told(text), (fmt, text)
    assert "F2" in _told(posts["r"]["md"])  # r's own player is told where r was stopped


def test_enemies_barring_each_other_do_not_read_as_a_full_cell():
    """seed l.231 (ruling M14, O7): two enemies stepping into each other's cells stop because they
    bar each other, not because the cell is full (it held one character)."""
    s, res, posts = _blocked_turn()
    for player in ("r", "b"):
        text = posts[player]["md"]
        told = text.split("### This turn")[1].split("###")[0]
        assert "enemy" in told and "full" not in told, told
    from gm_tool.rulesets.grail_war import RULESET

    zh = _texts(RULESET.posts(s, res.state, res.events, "zh"))
    told = zh["r"]["md"].split("本回合经过")[1].split("###")[0]
    assert "敌" in told and "已满" not in told, told


# 9. leftovers and messages -------------------------------------------------------------------
@pytest.fixture
def two_turns(tmp_path) -> Path:
    from gm_tool import app

    d = tmp_path / "two"
    app.new_campaign(d, "skirmish", "two-turns-seed-0123456789abcdef")
    app.resolve(d)
    app.resolve(d)
    return d


def test_a_rollback_killed_before_its_journal_leaves_no_empty_superseded_folder(two_turns):
    """A rollback killed at its first write step left an empty superseded/001; the next rollback
    then went to 002 beside it."""
    from gm_tool import app
    from tests.test_crash import _fork_all

    assert _fork_all({1: lambda: app.rollback(two_turns, 1)}) == {1: -9}
    assert [p.name for p in (two_turns / "superseded").iterdir()] == ["001"]
    app.rollback(two_turns, 0)
    assert sorted(p.name for p in (two_turns / "superseded").iterdir()) == ["001"]
    assert (two_turns / "superseded" / "001" / "NOTE.json").is_file()


def test_a_read_after_an_interrupted_rollback_sees_a_whole_turn(two_turns):
    """A rollback killed half-way left turn 1's state gone but its posts and log in place; gm
    verify (a read) finishes the rollback first, so it checks a whole campaign at turn 0."""
    from gm_tool import app
    from gm_tool.core import store
    from tests.test_crash import _fork_all

    # steps: the journal (2), state 2, state 1, then logs and posts: killed once both states moved
    assert _fork_all({4: lambda: app.rollback(two_turns, 0)}) == {4: -9}
    assert store.Campaign(two_turns).latest() == 0
    assert (two_turns / "reports" / "turn-001").exists()  # the kill left the campaign between turns
    result = app.verify(two_turns)
    assert result["turns"] == 0
    assert not (two_turns / "reports" / "turn-001").exists() and not store.Campaign(two_turns).needs_recovery()


@pytest.mark.parametrize("errno_name, words", [("ENOSPC", "the disk is full"), ("EACCES", "permission denied"),
                                               ("EXDEV", "crosses file systems"), ("EROFS", "read-only")])
def test_os_errors_name_the_file_and_what_to_do(gm, played, monkeypatch, errno_name, words):
    """Permission denied, disk full and cross-device errors printed "internal error ... please
    report it"; they name the file and what to do, and the campaign is unchanged."""
    import errno

    from gm_tool.core import store

    real = os.replace

    def failing(src, dst, *a, **kw):
        if "turn-002" in str(dst):
            raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)), str(src), str(dst))
        return real(src, dst, *a, **kw)

    before = {k: v for k, v in tree(played).items() if not k.startswith("superseded")}
    monkeypatch.setattr(store.os, "replace", failing)
    r = gm("resolve", played, "--lang", "en", code=1)
    monkeypatch.undo()
    assert words in r.output and "turn-002" in r.output, r.output
    assert "internal error" not in r.output and "report it" not in r.output
    assert len(r.output.strip().splitlines()) == 1
    gm("resolve", played)  # the folder is usable: the next run sweeps what the failure left
    gm("verify", played)
    assert set(before) <= set(tree(played))


def test_a_huge_integer_is_refused_without_python_advice(gm, skirmish, tmp_path):
    f = write(tmp_path / "big.yaml", "turn: 1\nplayer: alice\nx: " + "9" * 100_000 + "\n")
    r = gm("check", skirmish, f, "--lang", "en", code=1)
    assert "big.yaml:3: unreadable value: a number of more than" in r.output, r.output
    assert "set_int_max_str_digits" not in r.output and "sys." not in r.output


ENCODINGS = {
    "big5": ("turn: 1\nplayer: alice\n# 聖杯戰爭 移動到據點\n".encode("big5"), "Big5"),
    "shift_jis": ("turn: 1\nplayer: alice\n# 聖杯戦争 プレイヤー\n".encode("shift_jis"), "Shift-JIS"),
    "gbk": ("turn: 1\nplayer: alice\n# 圣杯战争 移动到据点\n".encode("gbk"), "GBK/GB18030"),
    "utf16_no_bom": ("turn: 1\nplayer: alice\n".encode("utf-16-le"), "UTF-16 (LE, without a byte-order mark)"),
    "utf16be_no_bom": ("turn: 1\nplayer: alice\n".encode("utf-16-be"), "UTF-16 (BE, without a byte-order mark)"),
}


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_legacy_encodings_are_named_right(gm, skirmish, tmp_path, name):
    """Big5 and Shift-JIS were called GBK, UTF-16 without a BOM "binary"."""
    data, words = ENCODINGS[name]
    f = tmp_path / f"{name}.yaml"
    f.write_bytes(data)
    r = gm("check", skirmish, f, "--lang", "en", code=1)
    assert f"the file is {words} text; save it as UTF-8" in r.output, r.output


@pytest.mark.parametrize("field, value", [("players", "[alice, bob, mallory]"), ("scenario", "grand-final"),
                                          ("ruleset", "grail_war2")])
def test_campaign_yaml_fields_are_covered_by_verify(gm, played, field, value):
    """campaign.yaml's player names and scenario name were read by no command and checked by
    none: a published folder could say anything there. gm verify now checks them."""
    import re

    meta = played / "campaign.yaml"
    text = meta.read_text("utf-8")
    pattern = rf"^{field}:(?:\n- .*)+|^{field}: .*" if field == "players" else rf"^{field}: .*"
    meta.write_text(re.sub(pattern, f"{field}: {value}", text, count=1, flags=re.M), "utf-8")
    r = gm("verify", played, "--seed", "test-seed", "--lang", "en", code=None)
    assert r.exit_code in (1, 2) and "campaign.yaml" in r.output, r.output
    if field != "ruleset":
        assert f"campaign.yaml: {field}: campaign.yaml's {field} does not match scenario.yaml" in r.output, r.output


# 7. links and foreign file systems -----------------------------------------------------------
def test_a_reports_folder_that_is_a_link_is_refused_before_any_write(gm, played, tmp_path):
    """reports/ moved to another disk and linked back made gm rollback fail half-way ("Invalid
    cross-device link") and every later command after it. A link inside the campaign is now
    refused before anything is written; replacing it with a real folder makes all work again."""
    gm("resolve", played)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(played / "reports", elsewhere)
    os.symlink(elsewhere, played / "reports")
    before = tree(played)
    for command in (("rollback", played, "--to", "1"), ("resolve", played)):
        r = gm(*command, "--lang", "en", code=1)
        assert "reports: this is a link inside the campaign folder" in r.output and "nothing was changed" in r.output, r.output
    assert tree(played) == before
    os.unlink(played / "reports")
    shutil.copytree(elsewhere, played / "reports")
    gm("rollback", played, "--to", "1")
    gm("resolve", played)
    gm("verify", played)


def test_a_stray_link_under_reports_is_named(gm, played):
    os.symlink("/etc/passwd", played / "reports" / "turn-001" / "x.md")
    r = gm("resolve", played, "--lang", "en", code=1)
    assert "turn-001/x.md: this is a link" in r.output, r.output
    os.unlink(played / "reports" / "turn-001" / "x.md")
    gm("resolve", played)


def test_a_mount_point_inside_the_campaign_is_refused(played, monkeypatch):
    """A folder on another file system (st_dev differs): renames across it fail half-way."""
    from gm_tool import app
    from gm_tool.core import store
    from gm_tool.errors import GmError

    real = os.stat

    class Fake:
        def __init__(self, st):
            self._st = st

        def __getattr__(self, name):
            return getattr(self._st, name)

        st_dev = -1

    real_scandir = os.scandir

    class Entry:
        def __init__(self, e):
            self._e = e

        def __getattr__(self, name):
            return getattr(self._e, name)

        def stat(self, follow_symlinks=True):
            st = self._e.stat(follow_symlinks=follow_symlinks)
            return Fake(st) if self._e.name == "reports" else st

    monkeypatch.setattr(store.os, "scandir", lambda p: [Entry(e) for e in real_scandir(p)])
    assert store.Campaign(played).foreign() == ("reports", "device")
    with pytest.raises(GmError) as exc:
        app.rollback(played, 0)
    assert exc.value.problems[0].code == "campaign.foreign_device"
    assert real(played / "state" / "turn-001.json")


def test_a_link_inside_templates_or_orders_never_reaches_a_write(gm, played, tmp_path):
    secret = write(tmp_path / "secret.txt", "turn: 2\nplayer: alice\n")
    (played / "orders" / "turn-002").mkdir(parents=True)
    os.symlink(secret, played / "orders" / "turn-002" / "alice.yaml")
    r = gm("resolve", played, "--lang", "en", code=1)
    assert "orders/turn-002/alice.yaml: this is a link" in r.output, r.output


# 8. reads during a rollback ------------------------------------------------------------------
def test_verify_concurrent_with_rollback_sees_a_whole_campaign(two_turns, monkeypatch):
    """gm verify running while gm rollback moved the later turns away reported tampering that was
    not there. A rollback starting while verify replays turn 1 now waits or is refused; verify
    passes either way."""
    import threading

    from gm_tool import app
    from gm_tool.errors import GmError

    started, moved = threading.Event(), threading.Event()
    real = app.compute_turn

    def replaying(op, state, n, seed):
        if n == 1 and not started.is_set():
            started.set()
            moved.wait(30)
        return real(op, state, n, seed)

    monkeypatch.setattr(app, "compute_turn", replaying)
    outcome: dict[str, object] = {}

    def run():
        try:
            outcome["verify"] = app.verify(two_turns)
        except GmError as exc:
            outcome["verify"] = exc

    reader = threading.Thread(target=run)
    reader.start()
    assert started.wait(30)
    try:
        outcome["rollback"] = app.rollback(two_turns, 1)
    except GmError as exc:
        outcome["rollback"] = exc
    finally:
        moved.set()
        reader.join(60)
    assert isinstance(outcome["verify"], dict) and outcome["verify"]["turns"] == 2, outcome
    assert isinstance(outcome["rollback"], GmError) and outcome["rollback"].problems[0].code == "campaign.locked"
    monkeypatch.undo()
    app.rollback(two_turns, 1)  # once the reader is done
    assert app.verify(two_turns)["turns"] == 1


# 6. cost that grows with the square of the input ---------------------------------------------
def test_finding_the_lines_of_many_problems_reads_each_mapping_once():
    """A 60,000-key sheet kept gm check busy for 556 s: each problem's line was found by reading
    the mapping's keys again (yamlpos.node_line per problem)."""
    from gm_tool.core import yamlpos
    from gm_tool.errors import GmError, Problem

    n = 2_000
    text = "turn: 1\nplayer: alice\n" + "".join(f"k{i}: {i}\n" for i in range(n))
    root = yamlpos.compose(text)

    class Counted(list):
        reads = 0

        def __iter__(self):
            Counted.reads += 1
            return super().__iter__()

    root.value = Counted(root.value)
    monkey = yamlpos.compose
    yamlpos.compose = lambda _text: root
    try:
        error = yamlpos.annotate(GmError([Problem("field.unknown", "s.yaml", f"k{i}") for i in range(n)]), "s.yaml", text)
    finally:
        yamlpos.compose = monkey
    assert [p.line for p in error.problems] == list(range(3, n + 3))
    assert Counted.reads <= 2


def test_a_sheet_of_many_problems_prints_the_first_hundred(gm, skirmish, tmp_path):
    f = write(tmp_path / "wide.yaml", "turn: 1\nplayer: alice\n" + "".join(f"k{i}: {i}\n" for i in range(6_000)))
    r = gm("check", skirmish, f, "--lang", "en", code=1)
    lines = r.output.strip().splitlines()
    assert len(lines) == 101 and lines[0].startswith(f"{f}:3: k0: unknown key")
    assert lines[-1] == "... and 5900 more problems not shown (fix the ones above first)"


@pytest.mark.parametrize("width, height, players, words", [
    (702, 9999, 4, "the map has 7019298 cells (702x9999); the limit is 40000"),
    (201, 200, 4, "the map has 40200 cells (201x200); the limit is 40000"),
    (20, 20, 201, "the scenario has 201 characters; the limit is 200"),
    (200, 200, 26, "26 characters on a map of 40000 cells"),
])
def test_a_scenario_too_big_to_resolve_in_seconds_is_refused_at_new(gm, tmp_path, width, height, players, words):
    """A 702x9999 map passed gm new and ended gm resolve in a MemoryError; 10^4 players made gm
    status take 1,092 s. Scenarios are bounded by what a turn resolves in seconds (the figures
    are in bench/bench_growth.py), and the limit is named."""
    import yaml

    chars = [{"id": f"c{i}", "class": "SABER", "side": "red" if i % 2 else "blue", "player": f"p{i}",
              "pos": f"{chr(65 + i % 20)}{i // 20 + 1}"} for i in range(players)]
    spec = {"ruleset": "grail_war", "name": "big", "map": {"width": width, "height": height}, "characters": chars}
    f = write(tmp_path / "big.yaml", yaml.safe_dump(spec))
    r = gm("new", tmp_path / "c", "--scenario", f, "--lang", "en", code=1)
    assert words in r.output, r.output
    assert not (tmp_path / "c").exists()


def test_scenario_rules_are_bounded(gm, tmp_path):
    import yaml

    from gm_tool.app import BUNDLED

    spec = yaml.safe_load((BUNDLED / "skirmish.yaml").read_text("utf-8"))
    spec["rules"] = {"vision": 10 ** 12}
    f = write(tmp_path / "s.yaml", yaml.safe_dump(spec, allow_unicode=True))
    r = gm("new", tmp_path / "c", "--scenario", f, "--lang", "en", code=1)
    assert "rules.vision" in r.output and "0-9999" in r.output, r.output


def test_a_campaign_template_that_never_ends_is_stopped(gm, skirmish, monkeypatch):
    """A loop of loops in a published folder's template would keep `gm verify` busy for ever."""
    from gm_tool.core import render

    monkeypatch.setattr(render, "MAX_RENDER_SECONDS", 0.5)
    render.environment.cache_clear()
    (skirmish / "templates").mkdir()
    write(skirmish / "templates" / "public.j2",
          "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}\n")
    r = gm("preview", skirmish, "--lang", "en", code=1)
    assert "templates/public.j2" in r.output and "ran too long and was stopped" in r.output, r.output
    render.environment.cache_clear()


def test_verify_refuses_a_link_anywhere_in_a_published_folder(gm, played, tmp_path):
    """A sheet in a published folder linked to a file of the verifying player's is not read."""
    mine = write(tmp_path / "my-notes.txt", "turn: 1\nplayer: alice\n# my private notes\n")
    (played / "orders" / "turn-001").mkdir(parents=True, exist_ok=True)
    os.symlink(mine, played / "orders" / "turn-001" / "alice.yaml")
    r = gm("verify", played, "--seed", "test-seed", "--lang", "en", code=1)
    assert "orders/turn-001/alice.yaml: this is a link" in r.output, r.output


def test_every_read_during_a_rollback_sees_the_turn_it_goes_back_to(gm, two_turns):
    """gm status, show and report read no lock: while a rollback moves turns away (or after one
    was killed), they see the turn it goes back to, whole, not a turn whose files are moving."""
    from gm_tool import app
    from gm_tool.core import store
    from tests.test_crash import _fork_all

    # steps: the journal (2), then state 2: killed with turn 1's state still in place
    assert _fork_all({3: lambda: app.rollback(two_turns, 0)}) == {3: -9}
    assert (two_turns / "state" / "turn-001.json").exists()
    assert store.Campaign(two_turns).latest() == 0
    r = gm("status", two_turns, "--json")
    assert '"turn": 0' in r.output
    r = gm("report", two_turns, code=None)  # turn 0's post if there is one, never turn 1's
    opening = two_turns / "reports" / "turn-000" / "public.bbcode"
    assert r.output == opening.read_text("utf-8") if opening.exists() else r.exit_code == 2, r.output
    app.rollback(two_turns, 0) if store.Campaign(two_turns).pending_rollback() is None else app.resolve(two_turns)
    assert store.Campaign(two_turns).latest() == 1 and app.verify(two_turns)["turns"] == 1


@pytest.mark.parametrize("body", ['{{ "{:900000000}".format(1) }}', '{{ "x" | center(900000000) }}',
                                  '{{ "%0900000000d" % 1 }}'])
def test_a_campaign_template_that_fills_the_memory_is_stopped(gm, skirmish, body):
    """A format width, a filter argument or a % width of 900 MB would make the verifying player's
    machine swap; the render may grow by at most MAX_RENDER_MEMORY."""
    (skirmish / "templates").mkdir()
    write(skirmish / "templates" / "public.j2", body + "\n")
    r = gm("preview", skirmish, "--lang", "en", code=1)
    assert "templates/public.j2" in r.output and "builds too much text" in r.output, r.output


def test_gm_new_opening_posts_wait_for_a_racer_looking_at_the_folder(tmp_path):
    """A `gm new` that lost the race for a folder takes the campaign lock for an instant to see
    whether the folder is an abandoned fill; the winner, writing its opening posts just then,
    used to fail with 'campaign locked' although its campaign was made. It now waits it out."""
    import fcntl
    import threading

    from gm_tool import app

    target = tmp_path / "c"
    app.new_campaign(target, "skirmish", "waiting-racer-0123456789abcdef")
    opening = sorted(p.name for p in (target / "reports/turn-000").iterdir())
    assert opening
    import shutil

    shutil.rmtree(target / "reports/turn-000")
    fd = os.open(target / ".lock", os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # the racer looking
    threading.Timer(0.3, os.close, (fd,)).start()
    app.write_opening(target)
    assert sorted(p.name for p in (target / "reports/turn-000").iterdir()) == opening


def test_verify_refuses_a_campaign_made_under_other_rules(tmp_path):
    """A rules correction (the grail war's version 2: the deck's 宝石 ♦Q, rules.decks, C8, C28-C32)
    makes a campaign made before it replay differently. gm new records the version; gm verify
    says which version made the campaign instead of reporting a mismatch at turn 0 that would
    read as tampering. A campaign.yaml without the field was made before versions: version 1."""
    import yaml

    from gm_tool import app
    from gm_tool.errors import GmError
    from gm_tool.rulesets.grail_war import RULESET

    target = tmp_path / "c"
    app.new_campaign(target, "skirmish", "rules-version-0123456789abcdef")
    meta_path = target / "campaign.yaml"
    meta = yaml.safe_load(meta_path.read_text("utf-8"))
    assert meta["rules_version"] == RULESET.rules_version >= 2
    app.verify(target)
    del meta["rules_version"]
    meta_path.write_text(yaml.safe_dump(meta, allow_unicode=True), "utf-8")
    with pytest.raises(GmError) as caught:
        app.verify(target)
    problem = caught.value.problems[0]
    assert (problem.code, problem.field, problem.params["value"], problem.params["known"]) == \
        ("verify.rules_version", "rules_version", 1, RULESET.rules_version)
    assert "版本" in problem.render("zh") and "version 1" in problem.render("en")


def test_a_player_name_ending_in_a_line_break_is_refused(tmp_path, gm):
    """safe_name's pattern ended in "$", which also matches before a final newline: "alice\\n"
    passed as a player id, a file name with a line break in it."""
    from gm_tool.core.store import safe_name

    assert not safe_name("alice\n") and not safe_name("\nalice") and safe_name("alice")


@pytest.mark.parametrize("scenario,chance_events", [("skirmish", 2), ("hunlu_duel", 0), ("shenjianglu", 3)])
def test_setup_events_are_logged_for_turn_0_and_verified(tmp_path, scenario, chance_events):
    """Every shuffle of `gm new` is a GM-only chance event of log/turn-000.jsonl (the grail war's
    deck and equipment pile, shenjianglu's neutrals and decks); hunlu logs its opening's public
    roll-offs there. gm verify recomputes the file: a line edited is named."""
    import json

    from gm_tool import app
    from gm_tool.errors import GmError

    target = tmp_path / "c"
    app.new_campaign(target, scenario, "setup-log-0123456789abcdef")
    log0 = target / "log/turn-000.jsonl"
    events = [json.loads(line) for line in log0.read_text("utf-8").splitlines()]
    assert events
    chance = [e for e in events if e["type"] == "chance"]
    assert len(chance) == chance_events and all(e["to"] == [] for e in chance)
    app.verify(target)
    log0.write_text(log0.read_text("utf-8").replace('"seq": 0', '"seq": 99', 1), "utf-8")
    with pytest.raises(GmError) as caught:
        app.verify(target)
    assert caught.value.problems[0].code == "verify.mismatch" and "turn-000.jsonl" in caught.value.problems[0].file

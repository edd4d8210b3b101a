"""Property-based fuzzing of `gm check` and `gm submit` (issue 6): order sheets come from strangers.

Random YAML documents, mutations of a valid sheet (keys swapped, wrong types, unicode junk, huge
numbers, nested lists, aliases) and mangled bytes. Whatever the input: exit code 0 or 1, never a
traceback or an internal error, and on rejection the campaign is byte-identical.

CI runs a bounded number of examples; for a long run set GM_FUZZ_EXAMPLES (per test), e.g.
``GM_FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gm_tool import app
from tests.conftest import Gm, tree

EXAMPLES = int(os.environ.get("GM_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize="GM_FUZZ_EXAMPLES" not in os.environ,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])

KEYS = ["turn", "回合", "player", "玩家", "character", "keep", "保留", "skill", "技能", "target_priority", "strike_order",
        "出杀顺序", "dodge_order", "出闪顺序", "use_curse", "咒", "gem", "宝石", "magic", "魔术牌", "equipment", "装备",
        "move", "移动", "to", "via", "special", "use", "discard", "against", "count", "zone_priority", "hand_size",
        "zones", "目的地", "途经"]
WORDS = ["alice", "bob", "zed", "none", "enemy", "magic", "skill", "strike", "more_hp", "more_cards", "self_first",
         "ally_first", "never", "teleport", "climb", "jump", "cross", "destroy", "weapon", "armor", "hand", "more",
         "fewer", "杀", "闪", "咒", "宝石", "万法破尽", "王之财宝", "正式外典", "闪 ♥2", "杀 ♠7", "A1", "A3", "B2",
         "C3", "H6", "Z99", "(C,3)", "C,3", "不出杀", "对敌人出杀", "血多的优先", "../x", "/etc/passwd", "", " ",
         "\u202e", "𝔘𝔫𝔦", "\ufeff", "null", "~", "yes", "no", "是", "否", "1e999", "0x10", "-1"]

scalars = (st.none() | st.booleans() | st.integers(-3, 12) | st.integers() | st.floats(allow_nan=True)
           | st.sampled_from(WORDS) | st.text(max_size=12) | st.just(10 ** 40) | st.just(-(10 ** 40)))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5),
                      max_leaves=25)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("fuzz") / "c"
    app.new_campaign(d, "skirmish", "fuzz-seed-0123456789abcdef")
    return d


@pytest.fixture(scope="module")
def valid(campaign) -> dict:
    return yaml.safe_load(app.template(campaign, "alice", "en"))


def _dump(data) -> bytes:
    try:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")
    except (yaml.YAMLError, ValueError, OverflowError):
        return repr(data).encode("utf-8")


def _run(campaign: Path, sheet: bytes, command: str) -> None:
    """Run check or submit on ``sheet``; enforce the invariants."""
    f = campaign.parent / "sheet.yaml"
    f.write_bytes(sheet)
    before = tree(campaign)
    gm = Gm()
    result = gm(command, campaign, f, "--lang", "en", code=None)
    assert result.exit_code in (0, 1), (result.exit_code, result.output, sheet[:300])
    assert "Traceback" not in result.output and "internal error" not in result.output, (result.output, sheet[:300])
    if result.exit_code == 1:
        assert result.output.strip(), sheet[:300]
        assert tree(campaign) == before  # nothing changes on rejection
    elif command == "submit":
        stored = campaign / "orders/turn-001/alice.yaml"
        assert stored.read_bytes() == sheet
        stored.unlink()  # back to the campaign as it was, for the next example
        assert tree(campaign) == before


def _mutate(sheet: dict, path: list, value, op: str) -> dict:
    """Apply one mutation at ``path`` (a list of keys/indices into the sheet)."""
    import copy

    out = copy.deepcopy(sheet)
    node = out
    for step in path[:-1]:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
        else:
            break
    last = path[-1] if path else None
    if isinstance(node, dict):
        keys = list(node)
        key = last if last in node else (keys[len(str(last)) % len(keys)] if keys else None)
        if key is None:
            node[str(value)[:10]] = value
        elif op == "replace":
            node[key] = value
        elif op == "delete":
            del node[key]
        elif op == "rename":
            node[str(value)[:20] or "?"] = node.pop(key)
        elif op == "wrap":
            node[key] = [node[key], [node[key]]]
        elif op == "swap" and len(keys) > 1:
            other = keys[(keys.index(key) + 1) % len(keys)]
            node[key], node[other] = node[other], node[key]
    elif isinstance(node, list) and node:
        i = last % len(node) if isinstance(last, int) else 0
        if op == "delete":
            del node[i]
        else:
            node[i] = value
    return out


paths = st.lists(st.sampled_from(KEYS) | st.integers(0, 4), min_size=1, max_size=3)
ops = st.sampled_from(["replace", "delete", "rename", "wrap", "swap"])


@FUZZ
@given(data=values)
def test_check_random_yaml(campaign, data):
    _run(campaign, _dump(data), "check")


@FUZZ
@given(mutations=st.lists(st.tuples(paths, values, ops), min_size=1, max_size=4))
def test_check_and_submit_mutated_valid_sheet(campaign, valid, mutations):
    sheet = valid
    for path, value, op in mutations:
        sheet = _mutate(sheet, path, value, op)
    text = _dump(sheet)
    _run(campaign, text, "check")
    _run(campaign, text, "submit")


TEXT_OPS = st.sampled_from([
    lambda t, junk: t + b"\nx: &a [1, 2]\ny: *a\n",
    lambda t, junk: t.replace(b"keep:", b"keep: &k") + b"\nz: [*k, *k, *k]\n",
    lambda t, junk: t + b"\n" + b"  " * 30 + junk,
    lambda t, junk: t[: len(t) // 2],
    lambda t, junk: junk + t,
    lambda t, junk: t.replace(b": ", b": " + junk, 1),
    lambda t, junk: t.replace(b"\n", b"\n\t", 2),
    lambda t, junk: t.replace(b"1", b"9" * 5000, 1),
    lambda t, junk: b"\xff\xfe" + t,
    lambda t, junk: t.decode("utf-8").encode("utf-16"),
    lambda t, junk: t.decode("utf-8").encode("gb18030"),
    lambda t, junk: t + b"\n---\n" + t,
    lambda t, junk: b"[" * 100 + t,
    lambda t, junk: t + b"\nmove: {to: " + junk + b"}\n",
    lambda t, junk: t.replace(b"player: alice", b"player: " + junk),
])


@FUZZ
@given(op=TEXT_OPS, junk=st.binary(max_size=40) | st.text(max_size=20).map(lambda s: s.encode("utf-8")))
def test_check_and_submit_mangled_bytes(campaign, valid, op, junk):
    text = op(_dump(valid), junk)
    _run(campaign, text, "check")
    _run(campaign, text, "submit")


def test_the_valid_sheet_is_accepted(campaign, valid):
    """The fuzzers start from a sheet that passes, so mutations reach deep into validation."""
    _run(campaign, _dump(valid), "submit")

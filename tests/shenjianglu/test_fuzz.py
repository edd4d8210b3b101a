"""Hostile sheets against 神将录 (issue 6's fuzz and YAML-bomb cases, with this game's keys): random
YAML, mutations of a valid sheet, mangled bytes, alias bombs. Whatever the input: exit 0 or 1,
never a traceback, and on rejection the campaign is byte-identical.

``GM_FUZZ_EXAMPLES`` sets the examples per test (40 by default)."""

from __future__ import annotations

import copy
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

KEYS = ["turn", "回合", "player", "玩家", "actions", "行动", "行動", "summon", "召唤", "召喚", "at", "位置", "id",
        "command", "指挥", "指揮", "to", "移动", "via", "经过", "attack", "攻击", "攻擊", "skill", "技能", "targets",
        "目标", "目標", "cast", "法术", "法術", "equip", "装备", "裝備", "unit", "人物"]
WORDS = ["alice", "bob", "K1", "K2", "alice-1", "C7", "E7", "D6", "D1", "Z99", "(C,7)", "C,7", "c7", "步卒", "周弓兵",
         "天雷", "护心镜", "射箭", "仁德", "商兵", "../x", "/etc/passwd", "", " ", "\u202e", "\ufeff", "null", "~",
         "yes", "no", "1e999", "0x10", "-1", "北", "back"]
scalars = (st.none() | st.booleans() | st.integers(-3, 12) | st.integers() | st.floats(allow_nan=True)
           | st.sampled_from(WORDS) | st.text(max_size=12) | st.just(10 ** 40))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5),
                      max_leaves=25)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("fuzz") / "c"
    app.new_campaign(d, "shenjianglu", "fuzz-seed-0123456789abcdef")
    return d


@pytest.fixture(scope="module")
def valid(campaign) -> dict:
    """A sheet that passes, with every kind of action alice can play on turn 1."""
    from gm_tool.core.chance import Chance
    from gm_tool.rulesets.shenjianglu import RULESET as RS

    state = app.open_campaign(campaign).state()
    sheet = RS.bot_sheet(state, "alice", "greedy", Chance("x", "y"))
    assert sheet["actions"]
    return sheet


def _dump(data) -> bytes:
    try:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")
    except (yaml.YAMLError, ValueError, OverflowError):
        return repr(data).encode("utf-8")


def _run(campaign: Path, sheet: bytes, command: str) -> None:
    f = campaign.parent / "sheet.yaml"
    f.write_bytes(sheet)
    before = tree(campaign)
    result = Gm()(command, campaign, f, "--lang", "en", code=None)
    assert result.exit_code in (0, 1), (result.exit_code, result.output, sheet[:300])
    assert "Traceback" not in result.output and "internal error" not in result.output, (result.output, sheet[:300])
    if result.exit_code == 1:
        assert result.output.strip()
        assert tree(campaign) == before
    elif command == "submit":
        stored = campaign / "orders/turn-001/alice.yaml"
        assert stored.read_bytes() == sheet
        stored.unlink()
        assert tree(campaign) == before


def _mutate(sheet, path: list, value, op: str):
    out = copy.deepcopy(sheet)
    node = out
    for step in path[:-1]:
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
    last = path[-1]
    if isinstance(node, dict) and node:
        keys = list(node)
        key = last if last in node else keys[len(str(last)) % len(keys)]
        if op == "replace":
            node[key] = value
        elif op == "delete":
            del node[key]
        elif op == "rename":
            node[str(value)[:20] or "?"] = node.pop(key)
        else:
            node[key] = [node[key], [node[key]]]
    elif isinstance(node, list) and node:
        i = last % len(node) if isinstance(last, int) else 0
        if op == "delete":
            del node[i]
        else:
            node[i] = value
    return out


paths = st.lists(st.sampled_from(["actions", "turn", "player"]) | st.integers(0, 4) | st.sampled_from(KEYS),
                 min_size=1, max_size=3)
ops = st.sampled_from(["replace", "delete", "rename", "wrap"])


@FUZZ
@given(data=values)
def test_check_random_yaml(campaign, data):
    """seed l.113: "行動階段" — a sheet from a stranger gets an error or passes, never a crash."""
    _run(campaign, _dump(data), "check")


@FUZZ
@given(mutations=st.lists(st.tuples(paths, values, ops), min_size=1, max_size=4))
def test_check_and_submit_mutated_valid_sheet(campaign, valid, mutations):
    """seed l.113: "行動階段：以下3種行為可自行決定順序" — mutated sheets are checked, never crash."""
    sheet = valid
    for path, value, op in mutations:
        sheet = _mutate(sheet, path, value, op)
    text = _dump(sheet)
    _run(campaign, text, "check")
    _run(campaign, text, "submit")


BOMB = "".join(f"{c}: &{c} [" + ", ".join([f"*{p}" if p else "x"] * 10) + "]\n"
               for p, c in zip(["", "a", "b", "c", "d", "e", "f", "g"], "abcdefgh"))
TEXT_OPS = st.sampled_from([
    lambda t, junk: t + b"\nx: &a [1, 2]\ny: *a\n",
    lambda t, junk: t + b"\n" + b"  " * 30 + junk,
    lambda t, junk: t[: len(t) // 2],
    lambda t, junk: junk + t,
    lambda t, junk: t.replace(b": ", b": " + junk, 1),
    lambda t, junk: t.replace(b"1", b"9" * 5000, 1),
    lambda t, junk: t.decode("utf-8").encode("utf-16"),
    lambda t, junk: t.decode("utf-8").encode("gb18030"),
    lambda t, junk: t + b"\n---\n" + t,
    lambda t, junk: b"[" * 100 + t,
    lambda t, junk: t.replace(b"actions:", b"actions: &z", 1) + b"\nq: [*z, *z, *z]\n",
    lambda t, junk: BOMB.encode() + t,
    lambda t, junk: t.replace(b"player: alice", b"player: " + junk),
])


@FUZZ
@given(op=TEXT_OPS, junk=st.binary(max_size=40) | st.text(max_size=20).map(lambda s: s.encode("utf-8")))
def test_check_and_submit_mangled_bytes(campaign, valid, op, junk):
    """seed l.113: "行動階段" — mangled bytes and alias bombs are refused cleanly."""
    text = op(_dump(valid), junk)
    _run(campaign, text, "check")
    _run(campaign, text, "submit")


def test_the_valid_sheet_is_accepted(campaign, valid):
    """seed l.113: "召喚人物...指揮行動...使用法術或裝備" — the fuzzers start from a sheet that passes."""
    _run(campaign, _dump(valid), "submit")

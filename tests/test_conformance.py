"""The same generic test for every ruleset found (OpenSpiel style): random bot play through the
contract to the end (or a bound), JSON round trip, byte-identical replay of states and posts,
templates that validate, posts in every format, private posts built only from what the reader
may know, and hostile sheets that get a clear error and never a crash.

Each ruleset is played on every bundled scenario of its own (the toy on tests/toy/race.yaml).
A ruleset that cannot be loaded, or has no scenario, fails here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from gm_tool import app as ops
from gm_tool.core import ruleset as registry
from gm_tool.core.chance import Chance
from gm_tool.core.events import visible_to
from gm_tool.core.render import markdown_to_html
from gm_tool.errors import GmError

EXTRA_SCENARIOS = {"toy": [str(Path(__file__).parent / "toy" / "race.yaml")]}
MAX_TURNS = 300   # a random game longer than this is cut (counted, not failed)
POST_TURNS = 4    # posts are rendered (and compared) for the first turns


def scenarios(name: str) -> list[str]:
    bundled = [s for s in ops.bundled_scenarios() if ops.load_scenario(s)[0].get("ruleset") == name]
    return bundled + EXTRA_SCENARIOS.get(name, [])


CASES = [(name, sc) for name in registry.available() for sc in scenarios(name) or [None]]


def _dump(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False, sort_keys=True)


def play(name: str, scenario: str, seed: str, kind: str = "random") -> dict[str, Any]:
    """One bot game: the states, and the posts of the first turns, all as text."""
    rs = registry.get(name)
    data, source = ops.load_scenario(scenario)
    state = rs.setup(data, source, seed)
    states, posts = [_dump(state)], []
    for n in range(1, MAX_TURNS + 1):
        due = rs.due(state)
        if not due:
            break
        chance = Chance(seed, f"bots-{n}")
        orders = {p: rs.parse_orders(state, rs.bot_sheet(state, p, kind, chance), f"{p}.yaml", "zh") for p in due}
        result = rs.resolve(state, orders, seed)
        assert json.loads(_dump(result.state)) == result.state  # plain JSON data
        if n <= POST_TURNS:
            out = rs.posts(state, result.state, result.events, "zh")
            posts.append(_dump(out.texts) + "".join(f"{k}:{len(v)}" for k, v in sorted(out.files.items())))
        state = result.state
        states.append(_dump(state))
    return {"states": states, "posts": posts, "over": not rs.due(state), "final": state}


@pytest.mark.parametrize("name,scenario", CASES)
def test_random_play_replays_byte_identically(name, scenario):
    assert scenario is not None, f"ruleset {name} has no bundled scenario"
    first = play(name, scenario, "conformance")
    second = play(name, scenario, "conformance")
    assert first["states"] == second["states"] and first["posts"] == second["posts"]
    assert len(first["states"]) > 1
    rs = registry.get(name)
    if first["over"]:
        assert rs.outcome(first["final"]).over


@pytest.mark.parametrize("name,scenario", CASES)
def test_greedy_bots_play_and_outcome_agrees_with_due(name, scenario):
    assert scenario is not None
    rs = registry.get(name)
    game = play(name, scenario, "conformance-greedy", kind=rs.bot_kinds[-1])
    state = game["final"]
    if rs.outcome(state).over:  # a finished game waits for nobody
        assert rs.due(state) == []
    else:
        assert rs.due(state) or len(game["states"]) > MAX_TURNS


@pytest.mark.parametrize("name,scenario", CASES)
def test_what_a_view_hides_is_what_the_ruleset_declares(name, scenario):
    """``hides``: a game that hides nothing shows every player the GM's view, always; one that
    hides something shows some player less than the GM at some point of a random game."""
    assert scenario is not None
    rs = registry.get(name)
    game = play(name, scenario, "conformance")
    states = [json.loads(s) for s in game["states"][:40]]
    differs = [(n, p) for n, state in enumerate(states) for p in rs.players(state)
               if _dump(rs.view(state, p)) != _dump(rs.view(state, None))]
    assert _dump(rs.view(states[0], None)) == _dump(states[0])  # the GM sees everything
    if rs.hides is registry.Hides.NOTHING:
        assert differs == [], f"{name} declares hides = NOTHING, but views differ: {differs[:3]}"
    else:
        assert differs, f"{name} declares hides = {rs.hides.name}, but no view hid anything in {len(states)} states"


@pytest.mark.parametrize("name,scenario", CASES)
def test_the_winner_comes_from_outcome_alone(name, scenario):
    """One place says who won: ``outcome()`` (`gm simulate` reads it too); the simulator's
    summary carries the units and scores only."""
    assert scenario is not None
    rs = registry.get(name)
    game = play(name, scenario, "conformance")
    assert "winner" not in rs.summary_for_sim(game["final"])


@pytest.mark.parametrize("name,scenario", CASES)
def test_templates_validate_posts_render_and_private_posts_use_only_known_events(name, scenario):
    assert scenario is not None
    rs = registry.get(name)
    data, source = ops.load_scenario(scenario)
    seed = "conformance-posts"
    state = rs.setup(data, source, seed)
    for n in range(1, POST_TURNS + 1):
        due = rs.due(state)
        if not due:
            break
        for p in due:  # the template of every due player is a valid sheet as it stands
            import yaml

            sheet = yaml.safe_load(rs.template(state, p, "zh"))
            assert isinstance(sheet, dict), (p, sheet)
            rs.parse_orders(state, sheet, f"template-{p}.yaml", "zh")
        chance = Chance(seed, f"bots-{n}")
        orders = {p: rs.parse_orders(state, rs.bot_sheet(state, p, "random", chance), f"{p}.yaml", "zh") for p in due}
        result = rs.resolve(state, orders, seed)
        for lang in ("zh", "en"):
            out = rs.posts(state, result.state, result.events, lang)
            assert set(out.texts) == {"public", *rs.players(result.state)}
            for who, formats in out.texts.items():
                assert set(formats) == {"bbcode", "md"} and all(t.strip() for t in formats.values()), who
                assert "<script" not in markdown_to_html(formats["md"]).lower(), who  # raw HTML never passes
            for f, data_ in out.files.items():
                assert isinstance(data_, bytes) and data_[:8] == b"\x89PNG\r\n\x1a\n", f
        # a private post is written from what its reader may know: the events outside the
        # reader's audience can be dropped without changing a byte of it
        full = rs.posts(state, result.state, result.events, "zh")
        for p in rs.players(result.state):
            seen = [e for e in result.events if visible_to(e, p)]
            assert rs.posts(state, result.state, seen, "zh").texts[p] == full.texts[p], p
        state = result.state


CONSISTENCY_STATES = int(os.environ.get("GM_CONSISTENCY_STATES", "240"))


def _states_for(rs: Any, scenario: str) -> int:
    """About 240 due-player states a scenario (``GM_CONSISTENCY_STATES`` for a longer run): as
    many states for a game of one sheet a turn, fewer for one where every player is due."""
    data, source = ops.load_scenario(scenario)
    return max(20, CONSISTENCY_STATES // max(1, len(rs.due(rs.setup(data, source, "consistency")))))


@pytest.mark.parametrize("name,scenario", CASES)
def test_what_the_template_offers_and_the_bots_write_passes_gm_check(name, scenario):
    """Over a few hundred states of bot games (every bot kind in turn), for every due player:
    the template in zh and en as it stands, every option the ruleset declares (``options``,
    written by ``sheet_for``) and every bot's sheet pass `gm check` (gm_tool.core.actions)."""
    from gm_tool.core.actions import consistency

    assert scenario is not None
    rs = registry.get(name)
    data, source = ops.load_scenario(scenario)
    report = consistency(rs, data, source, options=rs.options, sheet_for=rs.sheet_for, states=_states_for(rs, scenario))
    assert [str(f) for f in report.findings[:5]] == [], f"{len(report.findings)} refused of {report.sheets}"
    assert report.states >= 20 and report.sheets >= 4 * report.states


HOSTILE: list[Any] = [
    {}, {"turn": "x"}, {"turn": 10 ** 30, "player": None}, {"player": ["a"], "turn": 1},
    {"turn": 1, "player": "nobody"}, {"turn": 1, "player": {"a": 1}}, {"turn": True, "player": 1.5},
    {"turn": 1, "actions": "x"}, {"turn": 1, "actions": [None, 1, "x", {"move": None}, {"": ""}] * 3},
    {"turn": 1, "standing": {"x": {"y": [1, 2, {"z": None}]}}}, {"turn": 1, "orders": [[[[]]]]},
    {"turn": -1, "player": "", "step": 10 ** 9}, {"turn": 1, "player": "a" * 10000},
]


@pytest.mark.parametrize("name,scenario", CASES)
def test_hostile_sheets_get_errors_never_crashes(name, scenario):
    assert scenario is not None
    rs = registry.get(name)
    data, source = ops.load_scenario(scenario)
    state = rs.setup(data, source, "hostile")
    players = rs.players(state)
    due = rs.due(state) or players
    sheets = list(HOSTILE)
    for base in HOSTILE:  # the same garbage under a real turn and a real player
        sheets.append({**base, "turn": rs.turn(state) + 1, "player": due[0]})
    for sheet in sheets:
        try:
            orders = rs.parse_orders(state, sheet, "hostile.yaml", "zh")
        except GmError as exc:
            assert exc.problems and all(p.code for p in exc.problems)
            assert exc.render("zh") and exc.render("en")
            continue
        assert getattr(orders, "player", None) in players  # accepted: it must be a real sheet


# fuzzing: every ruleset's parse_orders against random mutations of its own template -----------
import yaml  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FUZZ_EXAMPLES = int(os.environ.get("GM_FUZZ_EXAMPLES", "30"))
_scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8)
            | st.sampled_from(["A1", "Z99", "(C,3)", "上", "left", "all", "none", "-1", "1e999", "\u202e", "是"]))
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=15)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, prefix + (i,))
    return out


def _set(node: Any, path: tuple, value: Any) -> Any:
    import copy

    node = copy.deepcopy(node)
    target = node
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return node


@pytest.mark.parametrize("name,scenario", CASES)
def test_fuzzed_templates_get_errors_never_crashes(name, scenario):
    assert scenario is not None
    rs = registry.get(name)
    data, source = ops.load_scenario(scenario)
    state = rs.setup(data, source, "fuzz")
    players = rs.players(state)
    due = rs.due(state)
    template = yaml.safe_load(rs.template(state, due[0], "zh"))
    paths = _paths(template)

    @settings(max_examples=FUZZ_EXAMPLES, deadline=None, derandomize="GM_FUZZ_EXAMPLES" not in os.environ,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.integers(0, max(0, len(paths) - 1)), _values, st.booleans())
    def check(k: int, value: Any, delete: bool) -> None:
        sheet = template
        if paths:
            path = paths[k]
            if delete:
                import copy

                sheet = copy.deepcopy(template)
                parent = sheet
                for key in path[:-1]:
                    parent = parent[key]
                del parent[path[-1]]
            else:
                sheet = _set(template, path, value)
        try:
            orders = rs.parse_orders(state, sheet, "fuzz.yaml", "zh")
        except GmError as exc:
            assert exc.problems and exc.render("zh") and exc.render("en")
            return
        assert getattr(orders, "player", None) in players

    check()

"""Hidden information in every grail-war post, as a property (issue 19): change what a player may
not know (seed l.262 "除你之外的人都不能看到你的手牌", l.4 every player's own vision: others' hands,
the deck and the equipment pile, the HP of characters out of sight, the cards of events not told
to that player) and everything that player is given (their private post and the public post in
every format and language, their picture and the public one, their view, `gm show` and `gm
template`) stays byte-identical. A planted leak (a view showing another's hand) is caught."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest

from gm_tool.core.chance import Chance
from gm_tool.core.events import visible_to
from gm_tool.rulesets.grail_war import RULESET
from tests.conftest import player_picture
from tests.regen_golden import SCENARIO, play

Turn = tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]
SEEDS = ("hidden-1", "hidden-2")
NAMES = ("杀", "闪", "宝石", "咒", "决斗", "扭曲螺旋", "王之军势")
SUITS = ("spades", "hearts", "clubs", "diamonds")


@cache
def turns(seed: str) -> list[Turn]:
    game = play(SCENARIO, seed, 3, "random")
    states, logs = game["states"], game["logs"]
    return [(states[n - 1], states[n], logs[n - 1]) for n in range(1, len(states))]


def given(turn: Turn) -> dict[str, dict[str, Any]]:
    """Everything each player is given after ``turn``."""
    before, after, events = turn
    out: dict[str, dict[str, Any]] = {p: {} for p in RULESET.players(after)}
    for lang in ("zh", "en"):
        posts = RULESET.posts(before, after, events, lang)
        for p, mine in out.items():
            for fmt, text in posts.texts[p].items():
                mine[f"{lang} private {fmt}"] = text
            for fmt, text in posts.texts["public"].items():
                mine[f"{lang} public {fmt}"] = text
            mine["picture"] = posts.files[player_picture(posts.files, p)]
            mine["public picture"] = posts.files["map-public.png"]
    for p, mine in out.items():
        v = RULESET.view(after, p)
        mine["view"] = json.dumps(v, sort_keys=True, ensure_ascii=False)
        for lang in ("zh", "en"):
            mine[f"{lang} show"] = RULESET.summary(v, p, lang)
            mine[f"{lang} template"] = RULESET.template(after, p, lang)
    return out


def _other_card(card: dict[str, Any], rng: Chance) -> dict[str, Any]:
    names = [n for n in NAMES if n != card.get("name")]
    return {**card, "name": rng.choice(names, why="name"), "suit": rng.choice(list(SUITS), why="suit"),
            "rank": rng.roll(13, why="rank")}


def _recard(value: Any, rng: Chance) -> Any:
    """Every card inside an event's data replaced by another."""
    if isinstance(value, dict):
        if "name" in value and "suit" in value:
            return _other_card(value, rng)
        return {k: _recard(v, rng) for k, v in value.items()}
    if isinstance(value, list):
        return [_recard(v, rng) for v in value]
    return value


def hide_all(turn: Turn, viewer: str, rng: Chance) -> Turn:
    """The same turn with everything ``viewer`` may not know changed."""
    before, after, events = copy.deepcopy(turn)
    seen = {c["id"] for c in RULESET.view(after, viewer)["characters"]}
    for c in after["characters"]:
        if c["player"] == viewer:
            continue
        c["hand"] = [_other_card(x, rng) for x in c["hand"]]
        if c["id"] not in seen and c["alive"]:
            c["hp"] = 1 + (c["hp"] % c["max_hp"])
    after["deck"]["draw_pile"].reverse()
    after["deck"]["discard_pile"] = [_other_card(x, rng) for x in after["deck"]["discard_pile"]]
    after["equipment_pile"].reverse()
    events = [e if visible_to(e, viewer) else {**_recard(e, rng), "seq": e["seq"], "to": e["to"]} for e in events]
    return before, after, events


def assert_same(viewer: str, base: dict[str, Any], other: dict[str, Any]) -> None:
    assert sorted(base) == sorted(other)
    for what in sorted(base):
        assert base[what] == other[what], (viewer, what)


@pytest.mark.parametrize("seed", SEEDS)
def test_nothing_a_player_is_given_changes_with_what_they_may_not_know(seed):
    rng = Chance(seed, "hide")
    changed = 0
    for turn in turns(seed):
        base = given(turn)
        for viewer in RULESET.players(turn[1]):
            other = hide_all(turn, viewer, rng)
            changed += other[1] != turn[1]
            assert_same(viewer, base[viewer], given(other)[viewer])
    assert changed, "nothing hidden was changed: the property checked nothing"


def test_the_property_catches_a_view_showing_another_players_hand(monkeypatch):
    """The check can fail: a view that keeps another player's hand (G3 hides it) is caught."""
    from gm_tool.rulesets.grail_war import view as view_module

    def sees_a_hand(turn: Turn, p: str) -> bool:
        hands = {c["id"]: c["hand"] for c in turn[1]["characters"]}
        return any(c["player"] != p and hands[c["id"]] for c in RULESET.view(turn[1], p)["characters"])

    turn, viewer = next((t, p) for seed in SEEDS for t in turns(seed) for p in RULESET.players(t[1]) if sees_a_hand(t, p))
    rng = Chance("planted", "leak")
    other = hide_all(turn, viewer, rng)
    assert_same(viewer, given(turn)[viewer], given(other)[viewer])
    honest = view_module.view

    def leaky(state: dict[str, Any], player: str | None) -> dict[str, Any]:
        v = honest(state, player)
        hands = {c["id"]: c["hand"] for c in state["characters"]}
        return {**v, "characters": [{**c, "hand": hands[c["id"]]} for c in v["characters"]]}

    monkeypatch.setattr(view_module, "view", leaky)
    monkeypatch.setattr(RULESET, "view", lambda state, player: leaky(state, player))
    with pytest.raises(AssertionError):
        assert_same(viewer, given(turn)[viewer], given(other)[viewer])

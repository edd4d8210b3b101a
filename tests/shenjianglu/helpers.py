"""Small duels for rule cases: the bundled 7x7 `duel` board (alice: seat 1, throne D7, spawns
C7 E7 D6, facing N; bob: seat 2, throne D1, spawns C1 E1 D2, facing S), kings 测王 with 10 体力,
and test cards defined in the scenario's catalogue, so each case reads alone."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gm_tool.errors import GmError
from gm_tool.rulesets.shenjianglu import RULESET as RS

W = {"faction": "neutral", "quality": "white"}
CATALOGUE: dict[str, Any] = {
    "测王": {"type": "character", "role": "king", "cost": 0, "faction": "测", "attack": 2, "stamina": 10, "move": 1,
           "quality": "orange", "kind": "王"},
    "兵": {"type": "character", "cost": 1, "attack": 2, "stamina": 3, "move": 2, "kind": "步兵", **W},
    "盾": {"type": "character", "cost": 1, "attack": 1, "stamina": 6, "move": 1, "kind": "步兵", **W},
    "弓": {"type": "character", "cost": 2, "attack": 1, "stamina": 2, "move": 2, "kind": "弓兵", **W,
          "skills": [{"name": "射", "mode": "active", "range": 3, "target": "other", "effects": [{"damage": 2}]}]},
    "快": {"type": "character", "cost": 2, "attack": 1, "stamina": 2, "move": 3, "kind": "骑兵", **W,
          "skills": [{"name": "疾", "mode": "auto", "effects": [{"haste": True}]}]},
    "刺": {"type": "character", "cost": 2, "attack": 3, "stamina": 2, "move": 2, "kind": "步兵", **W,
          "skills": [{"name": "影", "mode": "auto", "effects": [{"no_counter": True}]}]},
    "零": {"type": "character", "cost": 1, "attack": 0, "stamina": 3, "move": 1, "kind": "步兵", **W},
    "雷": {"type": "spell", "cost": 3, "target": "other", "effects": [{"damage": 2}], **W},
    "疗": {"type": "spell", "cost": 1, "target": "any", "effects": [{"heal": 3}], **W},
    "甲": {"type": "equipment", "cost": 1, "effects": [{"reduce": 1}], **W},
    "衣": {"type": "equipment", "cost": 1, "effects": [{"cap": 2}], **W},
    "矛": {"type": "equipment", "cost": 1, "target": "any", "effects": [{"buff": {"attack": 2}}], **W},
    "大雷": {"type": "spell", "cost": 9, "target": "any", "effects": [{"damage": 20}], "faction": "neutral",
           "quality": "purple"},
    **{f"填{i}": {"type": "character", "cost": 9, "attack": 1, "stamina": 1, "move": 1, **W} for i in range(1, 9)},
}
FILLER = [f"填{i}" for i in range(1, 9) for _ in range(2)]


def deck_for(*cards: list[str], size: int = 15) -> list[str]:
    """A legal deck holding ``cards`` (lists merged), filled with 填 cards up to ``size``."""
    deck = [c for group in cards for c in group]
    for f in FILLER:
        if len(deck) >= size:
            break
        if deck.count(f) < 2:
            deck.append(f)
    return deck


def duel(hand1: list[str] = (), hand2: list[str] = (), units: list[dict[str, Any]] = (),
         order1: list[str] = (), order2: list[str] = (), rules: dict[str, Any] | None = None,
         catalogue: dict[str, Any] | None = None, deck1: list[str] | None = None,
         deck2: list[str] | None = None, board: Any = "duel", seed: str = "t") -> dict[str, Any]:
    """The state after setup (alice to play turn 1). Hands and orders are given exactly; seat 1's
    draw of turn 1 takes ``order1[0]`` (or a filler card)."""
    seats = {}
    for n, (player, hand, order, deck) in enumerate((("alice", hand1, order1, deck1), ("bob", hand2, order2, deck2)), 1):
        seats[n] = {"player": player, "king": "测王", "deck": deck if deck is not None else deck_for(list(hand), list(order)),
                    "hand": list(hand), "order": list(order)}
    scenario = {"ruleset": "shenjianglu", "name": "case", "board": board, "seats": seats,
                "units": [dict(u) for u in units], "catalogue": {**CATALOGUE, **(catalogue or {})}}
    if rules:
        scenario["rules"] = rules
    return RS.setup(scenario, "case.yaml", seed)


def sheet(state: dict[str, Any], *actions: dict[str, Any]) -> dict[str, Any]:
    return {"turn": state["turn"] + 1, "player": state["next"], "actions": list(actions)}


def play(state: dict[str, Any], *actions: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Check and resolve one turn of the player due; returns the new state and the events."""
    before = copy.deepcopy(state)
    orders = RS.parse_orders(state, sheet(state, *actions), "s.yaml", "en")
    res = RS.resolve(state, {state["next"]: orders}, "seed")
    assert state == before  # resolution is pure
    return res.state, res.events


def refused(state: dict[str, Any], *actions: dict[str, Any]) -> list[tuple[str, str]]:
    """The (code, field) of every problem `gm check` finds in the sheet."""
    with pytest.raises(GmError) as exc:
        RS.parse_orders(state, sheet(state, *actions), "s.yaml", "en")
    return [(p.code, p.field) for p in exc.value.problems]


def setup_refused(**kw: Any) -> list[tuple[str, str]]:
    with pytest.raises(GmError) as exc:
        duel(**kw)
    return [(p.code, p.field) for p in exc.value.problems]


def unit(state: dict[str, Any], uid: str) -> dict[str, Any] | None:
    return next((u for u in state["units"] if u["id"] == uid), None)


def seat(state: dict[str, Any], player: str) -> dict[str, Any]:
    return next(s for s in state["seats"] if s["player"] == player)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def pass_turn(state: dict[str, Any]) -> dict[str, Any]:
    return play(state)[0]

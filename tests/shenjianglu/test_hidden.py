"""Hidden information (contract §4): hands and deck order are private. Property: whatever is
hidden from a player may change, and their view, their private post and the public post do not."""

from __future__ import annotations

import copy
import json

import pytest

from gm_tool import app as ops
from gm_tool.core.chance import Chance
from gm_tool.rulesets.shenjianglu import RULESET as RS
from gm_tool.rulesets.shenjianglu.cards import bundled_decks


def positions(scenario: str, seed: str, turns: int):
    data, source = ops.load_scenario(scenario)
    s = RS.setup(data, source, seed)
    for n in range(turns):
        if not RS.due(s):
            return
        p = s["next"]
        kind = "greedy" if n % 3 == 0 else "random"
        sheet = RS.bot_sheet(s, p, kind, Chance(seed, f"b{n}"))
        yield s, p, sheet
        s = RS.resolve(s, {p: RS.parse_orders(s, sheet, "x", "en")}, seed).state


def hide_from(state: dict, viewer: str, rng: Chance) -> dict:
    """A copy where everything hidden from ``viewer`` changed: other players' hands (the active
    player's kept, their sheet must stay legal) and every deck but the viewer's own top card."""
    out = copy.deepcopy(state)
    pool = sorted(set(bundled_decks()["neutrals"]))
    for seat in out["seats"]:
        if seat["player"] != viewer and seat["player"] != state["next"]:
            seat["hand"] = [rng.choice(pool) for _ in seat["hand"]]
        if seat["player"] != viewer:
            rng.shuffle(seat["deck"])
            seat["deck"] = [rng.choice(pool) for _ in seat["deck"]]
        elif len(seat["deck"]) > 2:
            rest = seat["deck"][2:]
            rng.shuffle(rest)
            seat["deck"][2:] = rest
    return out


def outcome(state: dict, player: str, sheet: dict, viewer: str):
    res = RS.resolve(state, {player: RS.parse_orders(state, sheet, "x", "en")}, "seed")
    posts = RS.posts(state, res.state, res.events, "zh")
    picture = next(data for name, data in posts.files.items() if name.startswith(f"map-{viewer}-"))
    return json.dumps(RS.view(res.state, viewer), sort_keys=True, ensure_ascii=False), posts.texts[viewer], \
        posts.texts["public"], picture, res.events


def leaks(scenario: str, seed: str, turns: int) -> tuple[int, list[tuple[str, int]]]:
    """The property over one bot game: for each position and player, resolve the real state and
    one where everything hidden from that player changed; ``(checked, [(viewer, turn)...])`` where
    the player's view, private post, the public post or the player's picture differ."""
    rng = Chance(seed, "mutate")
    checked, found = 0, []
    for state, player, sheet in positions(scenario, seed, turns):
        for viewer in RS.players(state):
            base = outcome(state, player, sheet, viewer)
            if any(e["type"] == "out" for e in base[4]):
                continue  # a player put out shows their hand in the graveyard (3.14)
            other = outcome(hide_from(state, viewer, rng), player, sheet, viewer)
            if base[:4] != other[:4]:
                found.append((viewer, state["turn"]))
            checked += 1
    return checked, found


@pytest.mark.parametrize("scenario,seed", [("shenjianglu", "h1"), ("shenjianglu", "h2"), ("shenjianglu-4", "h3")])
def test_views_and_posts_ignore_what_is_hidden(scenario, seed):
    """seed l.87: "各玩家查看之後放入自己的牌堆，洗牌後再開始遊戲" — hands are seen by their owner only; no one sees a deck's order."""
    checked, found = leaks(scenario, seed, 24)
    assert checked > 20 and found == []


def test_a_planted_leak_is_caught(monkeypatch):
    """seed l.111: "摸牌階段：從牌堆中摸1張牌。" — a post that told every player every card drawn (the
    drawer's alone to know) is caught by the property."""
    from gm_tool.rulesets.shenjianglu import posts

    real = posts.post

    def leaky(rs, turn, reader):
        out = real(rs, turn, reader)
        if reader is not None:
            out.context["drawn"] = [e["card"] for e in turn.events if e["type"] == "drawn"]
        return out

    monkeypatch.setattr(posts, "post", leaky)
    checked, found = leaks("shenjianglu", "h1", 8)
    assert checked and found


def test_a_view_holds_no_deck_and_only_its_own_hand():
    """seed l.95: "每個玩家從自己牌堆中抽取5張牌作為初始手牌。" — the hand is its owner's alone."""
    data, source = ops.load_scenario("shenjianglu-4")
    s = RS.setup(data, source, "v")
    v = RS.view(s, "bob")
    for seat in v["seats"]:
        assert "deck" not in seat
        assert ("hand" in seat) == (seat["player"] == "bob")
        assert seat["hand_count"] == len(next(x for x in s["seats"] if x["player"] == seat["player"])["hand"])
    assert "deck" in RS.view(s, None)["seats"][0]


def test_drawn_cards_are_told_to_their_drawer_only():
    """seed l.111: "摸牌階段：從牌堆中摸1張牌。" — the public post tells that a card was drawn, not which."""
    data, source = ops.load_scenario("shenjianglu")
    s = RS.setup(data, source, "d")
    res = RS.resolve(s, {"alice": RS.pass_orders(s, "alice")}, "d")
    drawn = [e for e in res.events if e["type"] == "drawn"]
    assert drawn and all(e["to"] == ["bob"] for e in drawn)
    posts = RS.posts(s, res.state, res.events, "zh")
    card = drawn[0]["card"]
    assert f"你摸到了 {card}" in posts.texts["bob"]["md"]
    assert "你摸到了" not in posts.texts["alice"]["md"] and "你摸到了" not in posts.texts["public"]["md"]


def test_opening_posts_ignore_what_is_hidden():
    """seed l.87: "將中立陣營牌以背面隨機發給每人4張，各玩家查看之後放入自己的牌堆，洗牌後" — a player's opening
    post shows their hand, the cards of their deck and their neutrals, never the order of their deck
    nor anything of another's; the public opening post shows no hand or deck."""
    from gm_tool.core.posts import opening_posts

    data, source = ops.load_scenario("shenjianglu-4")
    s = RS.setup(data, source, "o")
    rng = Chance("o", "mutate")
    pool = sorted(set(bundled_decks()["neutrals"]))
    for viewer in RS.players(s):
        other = copy.deepcopy(s)
        for seat in other["seats"]:
            if seat["player"] == viewer:
                rng.shuffle(seat["deck"])
            else:
                seat["hand"] = [rng.choice(pool) for _ in seat["hand"]]
                seat["deck"] = [rng.choice(pool) for _ in seat["deck"]]
                seat["neutrals"] = [rng.choice(pool) for _ in seat["neutrals"]]
        a, b = opening_posts(RS, s, "zh"), opening_posts(RS, other, "zh")
        assert a.texts[viewer] == b.texts[viewer] and a.texts["public"] == b.texts["public"]
    mine = seat_of(s, "alice")
    text = opening_posts(RS, s, "zh").texts["alice"]["md"]
    assert all(card in text for card in mine["hand"] + mine["neutrals"])


def seat_of(state: dict, player: str) -> dict:
    return next(x for x in state["seats"] if x["player"] == player)

"""Hidden information, as a property, for the rulesets that hide something, and proof that each
check catches a planted leak (the grail war's own is tests/test_leak.py).

- 神将录 (spec/shenjianglu.md §1, §4): "private — own hand, deck count, cards drawn"; `--player P`
  "omits other players' `hand` key and every `deck`"; "no player learns a deck order".
- 魂陆 (spec/hunlu.md §6, H19): `--player P` is "the same shape, minus others' `standing` and hidden
  cards"; "心战 a hidden card A/B/未启用, shown when the effect ends".
- 光与影 hides nothing (spec/guangying.md §1: "Nothing is hidden: every view equals the GM's"); its
  property is tests/guangying/test_play.py::test_every_view_equals_the_gms.

The property: over several seeds and many bot-played turns, for every player V, change every thing
hidden from V to other legal values; what V is given (view JSON, `gm show --player` text, `gm
template`, their private post and the public post, every format, both languages, and the pictures)
stays byte-identical, and no text V is given names a hidden card (hidden cards are renamed to
names found nowhere else, then searched for).
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from typing import Any

import pytest

from gm_tool import app as ops
from gm_tool.core.chance import Chance
from gm_tool.errors import GmError
from gm_tool.rulesets.hunlu import RULESET as HUNLU
from gm_tool.rulesets.shenjianglu import RULESET as SJL
from gm_tool.rulesets.shenjianglu.cards import bundled

Turn = tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]  # before, after, events
LANGS = ("zh", "en")

# card names found in no label, sentence or card: a text naming one has leaked a hidden card
GHOSTS = [f"{w}{n}" for n in range(1, 4) for w in ("Quorvex", "Jaspilon", "Wendrake", "Oxbalm", "Yllutia", "Kestrix")]


# ---------------------------------------------------------------- the reusable check

def given_to(rs: Any, turn: Turn) -> dict[str, dict[str, Any]]:
    """Everything each player is given after ``turn``: player -> {what: text or bytes}."""
    before, after, events = turn
    out: dict[str, dict[str, Any]] = {p: {} for p in rs.players(after)}
    for lang in LANGS:
        posts = rs.posts(before, after, events, lang)
        for p, mine in out.items():
            for fmt, text in sorted(posts.texts[p].items()):
                mine[f"{lang} private {fmt}"] = text
            for fmt, text in sorted(posts.texts["public"].items()):
                mine[f"{lang} public {fmt}"] = text
            for name in sorted(posts.files):  # the public map and p's own (named with a token on the core's road)
                if name in ("map-public.png", f"map-{p}.png") or re.fullmatch(rf"map-{re.escape(p)}-[0-9a-f]{{12}}\.png", name):
                    mine[name.split("-")[0] + "-" + ("public" if name == "map-public.png" else "own")] = posts.files[name]
    for p, mine in out.items():
        v = rs.view(after, p)
        mine["view"] = json.dumps(v, sort_keys=True, ensure_ascii=False)
        for lang in LANGS:
            mine[f"{lang} show"] = rs.summary(v, p, lang)
            try:
                mine[f"{lang} template"] = rs.template(after, p, lang)
            except GmError as e:  # a template refused is told the same way to both
                mine[f"{lang} template"] = repr([x.code for x in e.problems])
    return out


def first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where two texts (or two JSON values, from ``path``) first differ, for the failure message."""
    if isinstance(a, bytes) or isinstance(b, bytes):
        return "bytes differ"
    if isinstance(a, str) and a.startswith("{") and not path:
        return first_difference(json.loads(a), json.loads(b), "$")
    if path:
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                if a.get(k, "<absent>") != b.get(k, "<absent>"):
                    return first_difference(a.get(k, "<absent>"), b.get(k, "<absent>"), f"{path}.{k}")
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    return first_difference(x, y, f"{path}[{i}]")
        return f"{path}: {a!r} != {b!r}"
    for x, y in zip(str(a).splitlines(), str(b).splitlines()):
        if x != y:
            return f"{x!r} != {y!r}"
    return "one is longer"


def assert_hidden_kept(viewer: str, base: dict[str, Any], other: dict[str, Any], secrets=(),
                       searchable=lambda what, text: text) -> None:
    """``base`` and ``other`` (from ``given_to(...)[viewer]``) come from two turns that differ only
    in what ``viewer`` may not know: each item must be byte-identical, and no text of ``other``
    may name a secret (``searchable`` cuts from a text what may rightly hold the names)."""
    assert sorted(base) == sorted(other), (viewer, sorted(set(base) ^ set(other)))
    for what in sorted(base):
        assert base[what] == other[what], (viewer, what, first_difference(base[what], other[what]))
    for what, text in sorted(other.items()):
        if isinstance(text, str):
            text = searchable(what, text)
            for name in secrets:
                assert name not in text, (viewer, what, name)


# ---------------------------------------------------------------- 神将录

def ghost_catalogue() -> dict[str, dict[str, Any]]:
    """Legal cards under the ghost names (copies of the bundled 步卒), for hands and decks."""
    return {g: {**bundled()["步卒"], "name": g, "faction": "neutral"} for g in GHOSTS}


def sjl_positions(scenario: str, seed: str, turns: int):
    """(state, player due, the bot's sheet) over a bot game; the catalogue knows the ghosts."""
    data, source = ops.load_scenario(scenario)
    s = SJL.setup(data, source, seed)
    s["catalogue"] = {**(s.get("catalogue") or {}), **ghost_catalogue()}
    for n in range(turns):
        if not SJL.due(s):
            return
        p = s["next"]
        sheet = SJL.bot_sheet(s, p, "greedy" if n % 3 == 0 else "random", Chance(seed, f"bot{n}"))
        yield s, p, sheet
        s = SJL.resolve(s, {p: SJL.parse_orders(s, sheet, "x.yaml", "en")}, seed).state


def sjl_turn(state: dict[str, Any], player: str, sheet: dict[str, Any]) -> Turn:
    res = SJL.resolve(state, {player: SJL.parse_orders(state, sheet, "x.yaml", "en")}, "seed")
    return state, res.state, res.events


def played_cards(sheet: dict[str, Any]) -> list[str]:
    return [a.get("summon") or a.get("equip") or a.get("cast") for a in sheet.get("actions") or []
            if any(k in a for k in ("summon", "equip", "cast"))]


def sjl_hide(state: dict[str, Any], viewer: str, sheet: dict[str, Any], base: Turn, rng: Chance) -> dict[str, Any]:
    """A copy where everything hidden from ``viewer`` holds other legal values: every other
    player's hand (the player due keeps the cards their sheet plays) and deck become ghost cards;
    the viewer's own deck is reordered below the cards they draw in ``base``. A seat put out in
    ``base`` keeps its hand (3.14: it goes to the public graveyard)."""
    out = copy.deepcopy(state)
    drawn = sum(1 for e in base[2] if e["type"] == "drawn" and e["player"] == viewer)
    put_out = {e["player"] for e in base[2] if e["type"] == "out"}
    for seat in out["seats"]:
        if seat["player"] == viewer:
            rest = seat["deck"][drawn:]
            rng.shuffle(rest, why="leak test")
            seat["deck"][drawn:] = rest
            continue
        if seat["player"] not in put_out:
            keep = played_cards(sheet) if seat["player"] == state["next"] else []
            seat["hand"] = keep + [rng.choice(GHOSTS) for _ in seat["hand"][len(keep):]]
        seat["deck"] = [rng.choice(GHOSTS) for _ in seat["deck"]]
    return out


def sjl_searchable(what: str, text: str) -> str:
    """The view may hold the ghost cards' catalogue entries (the catalogue is public)."""
    if what != "view":
        return text
    v = json.loads(text)
    v.pop("catalogue", None)
    return json.dumps(v, ensure_ascii=False)


def check_shenjianglu(scenario: str, seed: str, turns: int) -> int:
    """The property over one bot game; returns how many (turn, viewer) pairs it checked."""
    rng = Chance(seed, "leak-test")
    checked = 0
    for state, player, sheet in sjl_positions(scenario, seed, turns):
        base = sjl_turn(state, player, sheet)
        seen = given_to(SJL, base)
        for viewer in SJL.players(state):
            other = sjl_turn(sjl_hide(state, viewer, sheet, base, rng), player, sheet)
            assert_hidden_kept(viewer, seen[viewer], given_to(SJL, other)[viewer], GHOSTS, sjl_searchable)
            checked += 1
    return checked


@pytest.mark.parametrize("scenario,seed,turns", [("shenjianglu", "leak1", 16), ("shenjianglu", "leak5", 16),
                                                 ("shenjianglu-4", "leak3", 16)])
def test_shenjianglu_players_learn_no_hidden_card(scenario, seed, turns):
    """seed l.87: "各玩家查看之後放入自己的牌堆，洗牌後再開始遊戲" — others' hands, every deck order and
    others' draws change; nothing a player is given changes, no text names a card they may not know."""
    assert check_shenjianglu(scenario, seed, turns) >= 2 * turns


def test_shenjianglu_hidden_cards_do_reach_their_owner():
    """seed l.111: "摸牌階段：從牌堆中摸1張牌。" — the ghosts are really dealt: the drawer's own post
    names the ghost card drawn, so the search above looks at text that could hold one."""
    state, player, sheet = next(sjl_positions("shenjianglu", "leak1", 1))
    base = sjl_turn(state, player, sheet)
    drawer = next(e["player"] for e in base[2] if e["type"] == "drawn")
    other = sjl_turn(sjl_hide(state, player, sheet, base, Chance("x", "y")), player, sheet)
    card = next(e["card"] for e in other[2] if e["type"] == "drawn")
    assert drawer != player and card in GHOSTS
    assert card in given_to(SJL, other)[drawer]["zh private md"]


def sjl_leak_case() -> tuple[dict[str, Any], str, dict[str, Any], Turn, dict[str, Any]]:
    state, player, sheet = next(sjl_positions("shenjianglu", "leak1", 1))
    base = sjl_turn(state, player, sheet)
    return state, player, sheet, base, given_to(SJL, base)[player]


def test_shenjianglu_check_catches_a_view_showing_a_hand(monkeypatch):
    """The check can fail: a view that keeps the opponent's hand is caught."""
    from gm_tool.rulesets.shenjianglu import posts as sjl_posts
    from gm_tool.rulesets.shenjianglu import view as sjl_view

    state, player, sheet, base, seen = sjl_leak_case()
    other = sjl_turn(sjl_hide(state, player, sheet, base, Chance("x", "y")), player, sheet)
    assert_hidden_kept(player, seen, given_to(SJL, other)[player], GHOSTS, sjl_searchable)
    honest = sjl_view.view

    def leaky(state: dict[str, Any], viewer: str | None) -> dict[str, Any]:
        out = honest(state, viewer)
        out["seats"] = [{**s, "hand": list(full["hand"])} for s, full in zip(out["seats"], state["seats"])]
        return out

    monkeypatch.setattr(sjl_view, "view", leaky)
    monkeypatch.setattr(sjl_posts, "view_of", leaky)
    leaked = given_to(SJL, other)[player]
    with pytest.raises(AssertionError, match="show|view"):
        assert_hidden_kept(player, given_to(SJL, base)[player], leaked, GHOSTS, sjl_searchable)


def test_shenjianglu_check_catches_a_sentence_naming_a_drawn_card(monkeypatch):
    """The check can fail: one sentence in a private post naming the card an opponent drew."""
    from gm_tool.rulesets.shenjianglu import posts as sjl_posts

    state, player, sheet, base, seen = sjl_leak_case()
    other = sjl_turn(sjl_hide(state, player, sheet, base, Chance("x", "y")), player, sheet)
    assert_hidden_kept(player, seen, given_to(SJL, other)[player], GHOSTS, sjl_searchable)
    honest = sjl_posts.post

    def leaky(rs, turn, reader):  # a private post that also lists the cards others drew
        out = honest(rs, turn, reader)
        if reader is not None:
            out.context["drawn"] = [e["card"] for e in turn.events if e["type"] == "drawn"]
        return out

    monkeypatch.setattr(sjl_posts, "post", leaky)
    with pytest.raises(AssertionError, match="private"):
        assert_hidden_kept(player, given_to(SJL, base)[player], given_to(SJL, other)[player], GHOSTS, sjl_searchable)


# ---------------------------------------------------------------- 魂陆

HEART = {"xin": {"name": "心战诀", "qi": 2, "shape": "single", "range": 3,
                 "effects": [{"buff": {"name": "心战", "rounds": 1,
                                       "heart": {"A": [{"damage": 1}], "B": [{"status": {"name": "沉默", "rounds": 1}}]}}}]}}
MIND = {"mind": {"name": "心战者", "jing": 7, "qi": 10, "qi_regen": 1, "shen": 8, "move": 3, "range": 2,
                 "skills": ["xin"]}}
CARDS = ("A", "B", "none")
TURNS = 30  # general-turns per bot game
HUNLU_SEEDS = ("leak1", "leak2", "leak3")  # the last posts its public reports per round


def hunlu_scenario(posts: str) -> dict[str, Any]:
    """Two 心战 generals a side, a 先手 general, reserves and a 天堑: something for every standing
    key; public posts per step or per round (``rules.posts``)."""
    from tests.hunlu.helpers import scenario

    team = {"a": {"general": "mind", "pos": "C3"}, "d": {"general": "duanmo_zhijian", "pos": "E3"},
            "m": {"general": "mind", "pos": "G3"}, "r": {"role": "reserve"},
            "b": {"player": "bob", "general": "mind", "pos": "C7"}, "e": {"player": "bob", "pos": "E7"},
            "n": {"player": "bob", "general": "mind", "pos": "G7"}, "s": {"player": "bob", "role": "reserve"}}
    return scenario(team, generals=MIND, skills=HEART, obstacles=[{"pos": "E5", "grade": 3}],
                    rules={"field": 3, "reserves": 2, "posts": posts})


@cache
def hunlu_game(seed: str, turns: int) -> tuple[tuple[dict[str, Any], dict[str, dict[str, Any]], Turn], ...]:
    """(state, every player's sheet, the turn they make) over a bot game; the random bot casts 心战
    (cards from the standing orders, else 未启用)."""
    s = HUNLU.setup(hunlu_scenario("round" if seed == HUNLU_SEEDS[-1] else "step"), "leak.yaml", seed)
    out = []
    for n in range(turns):
        if not HUNLU.due(s):
            break
        due = s["next"]["player"]
        sheets = {p: HUNLU.bot_sheet(s, p, "random" if (n + (p == due)) % 3 else "greedy", Chance(seed, f"b{n}{p}"))
                  for p in HUNLU.players(s)}
        turn = hunlu_turn(s, sheets, seed)
        out.append((s, sheets, turn))
        s = turn[1]
    return tuple(out)


@cache
def hunlu_seen(seed: str, index: int) -> dict[str, dict[str, Any]]:
    """``given_to`` after turn ``index`` of ``hunlu_game(seed, TURNS)`` (shared by the tests)."""
    return given_to(HUNLU, hunlu_game(seed, TURNS)[index][2])


def hunlu_turn(state: dict[str, Any], sheets: dict[str, dict[str, Any]], seed: str) -> Turn:
    orders = {p: HUNLU.parse_orders(state, sh, f"{p}.yaml", "en") for p, sh in sheets.items()}
    res = HUNLU.resolve(state, orders, seed)
    return state, res.state, res.events


def own_units(state: dict[str, Any], player: str) -> list[dict[str, Any]]:
    return [u for u in state["units"] if u["player"] == player]


def other_standing(state: dict[str, Any], player: str, rng: Chance) -> dict[str, Any]:
    """Random legal standing orders for ``player``: every key, naming their own generals."""
    own = own_units(state, player)
    enemies = [u["id"] for u in state["units"] if u["side"] != own[0]["side"]]
    cells = [f"{c}{r}" for c in "ABCDEFGHI" for r in range(1, 10)]
    firsts = {u["id"]: [s["id"] for s in state["generals"][u["general"]]["skills"] if s["timing"] == "first"] for u in own}
    reserves = [u["id"] for u in own if u["role"] == "reserve"]
    rng.shuffle(reserves, why="leak test")
    return {"joint_attack": {u["id"]: {"against": rng.choice(["any", enemies[:1 + rng.roll(len(enemies)) - 1]]),
                                       "when": rng.choice(["any", "before_turn", "after_turn"]),
                                       "keep_qi": rng.roll(4) - 1} for u in own if rng.roll(2) == 1},
            "reserve_order": reserves,
            "chasm_return": {u["id"]: [rng.choice(cells) for _ in range(rng.roll(3))] for u in own},
            "first_skills": {k: v for k, v in firsts.items() if v and rng.roll(2) == 1},
            "heart_card": {u["id"]: rng.choice(CARDS) for u in own}}


def flip_hearts(state: dict[str, Any], viewer: str, rng: Chance, keep=frozenset()) -> None:
    """Every face-down 心战 card not laid by ``viewer`` takes a random card (``keep``: (holder,
    source, name) of statuses left alone)."""
    for u in state["units"]:
        for st in u["statuses"]:
            if "heart_card" in st and st.get("heart_owner") != viewer and (u["id"], st["source"], st["name"]) not in keep:
                st["heart_card"] = rng.choice(CARDS)


def hunlu_hide_all(turn: Turn, viewer: str, rng: Chance) -> tuple[Turn, list[str]]:
    """The same turn (same events) with every other player's standing orders and every face-down
    card not the viewer's changed; also the texts those orders would be shown as, to search for."""
    before, after, events = copy.deepcopy(turn)
    secrets = []
    for p in HUNLU.players(after):
        if p != viewer:
            new = other_standing(after, p, rng)
            before["standing"][p] = after["standing"][p] = new
            secrets += [f"{k}: {v}" for k, v in sorted(new.items()) if v]
    seed = rng.roll(1000)
    flip_hearts(before, viewer, Chance(str(seed), "b"))
    flip_hearts(after, viewer, Chance(str(seed), "a"))
    return (before, after, events), secrets


def hunlu_hide_cards(state: dict[str, Any], sheets: dict[str, dict[str, Any]], viewer: str, base: Turn,
                     rng: Chance) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Before the turn: every face-down card not the viewer's (those shown during ``base`` kept),
    every other player's standing 心战 card, and the card the due player (not the viewer) lays
    with a 心战 skill, all changed to other legal values."""
    s = copy.deepcopy(state)
    shown = frozenset((e["unit"], e["source"], e["name"]) for e in base[2] if e["type"] == "heart_reveal")
    flip_hearts(s, viewer, rng, shown)
    for p in HUNLU.players(s):
        if p != viewer:
            s["standing"].setdefault(p, {})["heart_card"] = {u["id"]: rng.choice(CARDS) for u in own_units(s, p)}
    sheets = copy.deepcopy(sheets)
    for p, sh in sheets.items():
        if p != viewer:
            for act in sh.get("actions") or []:
                if act.get("skill") == "xin":
                    act["card"] = rng.choice(CARDS)
    return s, sheets


def face_down(state: dict[str, Any]) -> list[tuple[str, str]]:
    return [(u["id"], st["heart_card"]) for u in state["units"] for st in u["statuses"] if "heart_card" in st]


def reveals(turn: Turn) -> list[dict[str, Any]]:
    return [e for e in turn[2] if e["type"] == "heart_reveal"]


@pytest.mark.parametrize("seed", HUNLU_SEEDS)
def test_hunlu_views_and_posts_hide_standing_orders_and_face_down_cards(seed):
    """seed l.120: "心战：准备三张卡牌（A,B,未启用）选择一张卡牌扣在自己面前" — with the same events, every
    other player's standing orders and every face-down card not one's own change; nothing a player
    is given changes, and no text shows another player's standing order."""
    rng = Chance(seed, "leak-test")
    faces = 0
    first = hunlu_game(seed, TURNS)[0][0]
    begun = HUNLU.begin(hunlu_scenario("round" if seed == HUNLU_SEEDS[-1] else "step"), "leak.yaml", seed)
    assert begun.state == first
    opening = (first, first, begun.events)  # what `gm new` posts (the events of setting up)
    for i, turn in enumerate([opening] + [t for _, _, t in hunlu_game(seed, TURNS)]):
        seen = given_to(HUNLU, turn) if i == 0 else hunlu_seen(seed, i - 1)
        for viewer in HUNLU.players(turn[1]):
            other, secrets = hunlu_hide_all(turn, viewer, rng)
            assert_hidden_kept(viewer, seen[viewer], given_to(HUNLU, other)[viewer], secrets)
            faces += sum(1 for u in turn[1]["units"] for st in u["statuses"] if st.get("heart_owner", viewer) != viewer)
    assert faces, "the bots laid no 心战 card: the property checked nothing face down"


@pytest.mark.parametrize("seed", HUNLU_SEEDS)
def test_hunlu_turns_played_with_other_hidden_cards_tell_the_same(seed):
    """seed l.120: "当技能效果结束时，展示卡牌" — replaying each turn with every face-down card, every
    standing 心战 card and the due player's chosen card changed (those shown in the turn kept), the
    other player is told exactly the same."""
    rng = Chance(seed, "leak-replay")
    checked = laid = changed = 0
    for i, (state, sheets, base) in enumerate(hunlu_game(seed, TURNS)):
        seen = hunlu_seen(seed, i)
        laid += any(a.get("skill") == "xin" for sh in sheets.values() for a in sh.get("actions") or [])
        for viewer in HUNLU.players(state):
            s, sh = hunlu_hide_cards(state, sheets, viewer, base, rng)
            other = hunlu_turn(s, sh, seed)
            if reveals(other) != reveals(base):
                continue  # a card laid and shown within this very turn: shown to all, rightly
            assert_hidden_kept(viewer, seen[viewer], given_to(HUNLU, other)[viewer])
            checked += 1
            changed += face_down(other[1]) != face_down(base[1])
    assert laid and checked >= 40 and changed >= 10, (laid, checked, changed)


def hunlu_leak_case() -> tuple[str, Turn, Turn]:
    """A turn after which bob sees a face-down card alice laid, and the same turn with that card
    another one."""
    for _, _, base in hunlu_game("leak1", TURNS):
        other = copy.deepcopy(base)
        laid = [st for u in other[1]["units"] for st in u["statuses"] if st.get("heart_owner") == "alice"]
        if laid:
            laid[0]["heart_card"] = CARDS[(CARDS.index(laid[0]["heart_card"]) + 1) % len(CARDS)]
            return "bob", base, other
    raise AssertionError("no face-down card of alice's in the game")


def test_hunlu_check_catches_a_face_up_card(monkeypatch):
    """The check can fail: a view that shows the opponent's face-down 心战 card is caught."""
    from gm_tool.rulesets.hunlu import posts as hl_posts

    viewer, base, other = hunlu_leak_case()
    assert_hidden_kept(viewer, given_to(HUNLU, base)[viewer], given_to(HUNLU, other)[viewer])
    honest = hl_posts.view

    def leaky(state: dict[str, Any], player: str | None) -> dict[str, Any]:
        out = honest(state, player)
        for u, full in zip(out["units"], state["units"]):
            for st, card in zip(u["statuses"], full["statuses"]):
                if "heart_card" in card:
                    st["heart_card"] = card["heart_card"]
        return out

    monkeypatch.setattr(hl_posts, "view", leaky)
    with pytest.raises(AssertionError, match="view"):
        assert_hidden_kept(viewer, given_to(HUNLU, base)[viewer], given_to(HUNLU, other)[viewer])


def test_hunlu_check_catches_a_sentence_telling_standing_orders(monkeypatch):
    """The check can fail: one line in a private post telling another player's standing orders."""
    from gm_tool.rulesets.hunlu import posts as hl_posts

    _, _, turn = hunlu_game("leak1", TURNS)[3]
    other, secrets = hunlu_hide_all(turn, "alice", Chance("x", "y"))
    honest = hl_posts.standing_text

    def leaky(shown, player, lang):
        told = honest(shown, player, lang)
        return told + "".join(f"\n{k}: {v}" for k, v in sorted(other[1]["standing"]["bob"].items()))

    monkeypatch.setattr(hl_posts, "standing_text", leaky)
    with pytest.raises(AssertionError, match="heart_card|joint_attack"):
        assert_hidden_kept("alice", given_to(HUNLU, turn)["alice"], given_to(HUNLU, other)["alice"], secrets)

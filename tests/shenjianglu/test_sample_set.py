"""The bundled sample set (contract §3): two factions and neutrals, labelled as the project's own,
every quality and every primitive used; plus allies (4 seats) for the rules that name them."""

from __future__ import annotations

import json
from collections import Counter

from gm_tool import app as ops
from gm_tool.rulesets.shenjianglu import RULESET as RS
from gm_tool.rulesets.shenjianglu.cards import DATA, bundled
from tests.shenjianglu.helpers import play, refused, unit


def test_the_sample_set_is_labelled_and_complete():
    """seed l.5: "神將錄的卡牌分為人物、法術、裝備、順序牌4種。" — the project's own sample cards of each kind."""
    assert "本项目自制样例卡，非官方卡牌" in (DATA / "cards.yaml").read_text("utf-8").splitlines()[0]
    cards = bundled()
    by_faction = Counter(c["faction"] for c in cards.values())
    assert by_faction == {"周": 12, "商": 12, "neutral": 8}
    for faction in ("周", "商"):
        mine = [c for c in cards.values() if c["faction"] == faction]
        assert sum(1 for c in mine if c.get("role") == "king") == 1
        assert sum(1 for c in mine if c["type"] == "spell") >= 2
        assert sum(1 for c in mine if c["type"] == "equipment") >= 2
    assert {c["quality"] for c in cards.values()} == {"white", "green", "blue", "purple", "orange"}


def test_every_primitive_is_used():
    """seed l.27: "【生效方式】 該技能是主動施放還是自動生效。" — the sample set shows every documented primitive."""
    text = json.dumps(list(bundled().values()), ensure_ascii=False)
    for word in ("damage", "heal", "face", "draw", "mana", "buff", "reduce", "cap", "bonus", "immune", "haste",
                 "no_counter", '"self"', '"own"', '"ally"', '"enemy"', '"other"', '"any"', '"only": "king"',
                 '"only": "troop"', '"count": 2', '"adjacent": true', '"enemy_kings": true', '"arrive"', '"start"',
                 '"end"', '"death"', '"active"', '"auto"'):
        assert word in text, word
    assert any(s.get("kind") for c in bundled().values() for s in c.get("skills", ()) if s["mode"] == "active")
    assert any(c["type"] == "equipment" and c["skills"] for c in bundled().values())


def four():
    data, source = ops.load_scenario("shenjianglu-4")
    data = {**data, "units": [{"id": "a1", "card": "民兵", "owner": "alice", "pos": "E5"},
                              {"id": "c1", "card": "民兵", "owner": "carol", "pos": "E4"},
                              {"id": "b1", "card": "民兵", "owner": "bob", "pos": "F5"}]}
    return RS.setup(data, source, "allies")


def test_allies_may_be_attacked_and_counter():
    """seed l.149: "對相鄰敵方或者友方目標發起普通攻擊" and l.177 "對相鄰別方人物（包括友方）進行帶傷害的攻擊，會遭到反擊" """
    s = four()
    assert s["seats"][2]["team"] == s["seats"][0]["team"] == "red"
    s2, ev = play(s, {"command": "a1", "attack": "c1"})
    assert [(e["unit"], e["target"]) for e in ev if e["type"] == "counter"] == [("c1", "a1")]


def test_moving_through_an_ally():
    """seed l.133: "人物移動只可越過本方或友方人物，不能越過敵方人物。" """
    s = four()
    s2, ev = play(s, {"command": "a1", "to": "E3"})
    assert unit(s2, "a1")["pos"] == "E3"
    assert refused(s, {"command": "a1", "to": "G5"}) == [("shenjianglu.orders.no_route", "actions.1.to")]


def test_bot_orders_equal_parsed_bot_sheets():
    """seed l.113: "行動階段" — the bots' fast path gives exactly what their sheet parses to."""
    from gm_tool.core.chance import Chance

    data, source = ops.load_scenario("shenjianglu")
    s = RS.setup(data, source, "bots")
    for n in range(12):
        if not RS.due(s):
            break
        p = s["next"]
        for kind in ("random", "greedy"):
            fast = RS.bot_orders(s, {p: kind}, Chance("b", f"{n}"))[p]
            slow = RS.parse_orders(s, RS.bot_sheet(s, p, kind, Chance("b", f"{n}")), "x", "en")
            assert fast == slow
        s = RS.resolve(s, {p: fast}, "b").state

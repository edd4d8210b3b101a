"""The deck (ruling C1) and the equipment pile (C2), and the fight entry point (C4)."""

from __future__ import annotations

from collections import Counter

from gm_tool.core.chance import Chance
from gm_tool.core.deck import parse_card_text
from gm_tool.core.events import EventLog
from gm_tool.rulesets.grail_war import cards as catalog
from gm_tool.rulesets.grail_war import data
from gm_tool.rulesets.grail_war.combat import resolve_fights

from .combat_kit import A, B, build, parse_sheets


def deck():
    return [parse_card_text(t) for t in data.load("deck")["cards"]]


def test_deck_is_the_sanguosha_108_without_equipment():
    """Ruling C1: 108 Sanguosha cards less its 19 equipment cards = 89, each seed card in the
    slots of its Sanguosha counterpart (宝石≈桃, 扭曲螺旋≈过河拆桥, 万法破尽≈无懈可击 …)."""
    names = Counter(n for n, _, _ in deck())
    assert sum(names.values()) == 89
    assert names == Counter({"杀": 30, "闪": 15, "宝石": 8, "扭曲螺旋": 6, "赤主槛发": 5, "咒": 5, "决斗": 3,
                             "王之军势": 3, "万法破尽": 4, "石化魔眼": 3, "枯竭庭院": 3, "不死徒手": 2,
                             "阿宁艾鲁贝的一日": 1, "王之财宝": 1})


def test_every_basic_and_magic_card_of_the_seed_is_in_the_deck():
    """Seed l.156-202: every basic and magic card exists, with a suit and a rank."""
    names = {n for n, _, _ in deck()}
    kinds = catalog.kind_of()
    assert names == {n for n, k in kinds.items() if k in ("basic", "magic")}
    assert all(s and r for _, s, r in deck())


def test_suit_distribution_is_sanguosha():
    """Ruling C1: suits (hence judgement odds) follow the 108-card deck's non-equipment cards."""
    suits = Counter(s for _, s, _ in deck())
    assert suits == Counter({"hearts": 24, "diamonds": 23, "clubs": 23, "spades": 19})
    assert [r for n, s, r in deck() if n == "杀" and s == "spades"] == [7, 8, 8, 9, 9, 10, 10]


def test_equipment_pile_has_every_equipment_card_once_with_suit():
    """Seed l.203 "装备牌注：装备只能通过据点获得。": one of each, in its own pile (ruling C2)."""
    from gm_tool.app import load_scenario
    from gm_tool.rulesets.grail_war.scenario import build as build_scenario

    scenario, _ = load_scenario("fuyuki")
    game = build_scenario(scenario, "fuyuki.yaml", "seed")
    pile = game.equipment_pile
    assert sorted(c.name for c in pile) == sorted(n for n in catalog.all_names() if catalog.is_equipment(n))
    assert all(c.suit and c.rank for c in pile)
    assert all(not catalog.is_equipment(c.name) for c in game.deck.draw_pile)


def test_resolve_fights_orders_actors_by_seeded_shuffle():
    """Ruling C4: the actor order is a logged seeded shuffle; the same seed gives the same order."""
    def run(seed):
        game, sheets = build(A("gawain", "杀"), A("emiya", "杀"), B("mordred", "闪"), B("medea", "闪"))
        log = EventLog()
        cells = resolve_fights(game, [((0, 0), list(game.characters))], parse_sheets(game, sheets), log,
                               Chance(seed, "t", log))
        return cells, [e for e in log.events if e["type"] == "fight"][0]["fighters"], log.events

    cells, order, events = run("x")
    assert cells == {(0, 0)} and sorted(order) == ["emiya", "gawain", "medea", "mordred"]
    assert any(e["type"] == "chance" and e["why"].startswith("fight.order") for e in events)
    assert run("x")[1] == order
    assert len({tuple(run(s)[1]) for s in "abcdefgh"}) > 1

"""The deck's composition, card by card (issue 14, rulings C1, C2 and C33).

Seed 002 names every card of the game but neither counts them nor gives suits: l.49 "战斗的流程类似
三国杀" and l.236 "游戏牌可以分为基本牌、魔术牌和装备牌三类" send the reader to the Sanguosha deck, so ruling C1
takes the standard 108-card deck (104 + EX 4) and renames each card to its seed counterpart in the
same suit and rank. The table below is that deck, written out suit by suit as printed, with the
seed card each slot becomes; the tests derive the expected draw deck and equipment pile from it and
compare them with data/deck.yaml card for card (name, suit and rank), so a card written twice or
left out (as 宝石 ♥Q was, for 桃 ♦Q) fails.
"""

from __future__ import annotations

from collections import Counter

import pytest

from gm_tool.app import load_scenario
from gm_tool.core.deck import parse_card_text
from gm_tool.errors import GmError
from gm_tool.rulesets.grail_war import cards as catalog
from gm_tool.rulesets.grail_war import data
from gm_tool.rulesets.grail_war.scenario import build as build_scenario
from tests.conftest import write

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}

# The standard Sanguosha deck: per suit, "rank card" in print order; (EX) marks the 4 EX cards.
SANGUOSHA = {
    "spades": "A 决斗, A 闪电, 2 雌雄双股剑, 2 八卦阵, 2 寒冰剑(EX), 3 顺手牵羊, 3 过河拆桥, 4 顺手牵羊, "
              "4 过河拆桥, 5 青龙偃月刀, 5 绝影, 6 乐不思蜀, 6 青釭剑, 7 杀, 7 南蛮入侵, 8 杀, 8 杀, 9 杀, "
              "9 杀, 10 杀, 10 杀, J 顺手牵羊, J 无懈可击, Q 过河拆桥, Q 丈八蛇矛, K 南蛮入侵, K 大宛",
    "hearts": "A 桃园结义, A 万箭齐发, 2 闪, 2 闪, 3 桃, 3 五谷丰登, 4 桃, 4 五谷丰登, 5 麒麟弓, 5 赤兔, "
              "6 桃, 6 乐不思蜀, 7 桃, 7 无中生有, 8 桃, 8 无中生有, 9 桃, 9 无中生有, 10 杀, 10 杀, "
              "J 杀, J 无中生有, Q 桃, Q 过河拆桥, Q 闪电(EX), K 闪, K 爪黄飞电",
    "clubs": "A 决斗, A 诸葛连弩, 2 杀, 2 八卦阵, 2 仁王盾(EX), 3 杀, 3 过河拆桥, 4 杀, 4 过河拆桥, 5 杀, "
             "5 的卢, 6 杀, 6 乐不思蜀, 7 杀, 7 南蛮入侵, 8 杀, 8 杀, 9 杀, 9 杀, 10 杀, 10 杀, J 杀, J 杀, "
             "Q 借刀杀人, Q 无懈可击, K 借刀杀人, K 无懈可击",
    "diamonds": "A 决斗, A 诸葛连弩, 2 闪, 2 闪, 3 闪, 3 顺手牵羊, 4 闪, 4 顺手牵羊, 5 闪, 5 贯石斧, 6 杀, "
                "6 闪, 7 杀, 7 闪, 8 杀, 8 闪, 9 杀, 9 闪, 10 杀, 10 闪, J 闪, J 闪, Q 桃, Q 方天画戟, "
                "Q 无懈可击(EX), K 杀, K 紫骍",
}
EX = {("spades", 2, "寒冰剑"), ("hearts", 12, "闪电"), ("clubs", 2, "仁王盾"), ("diamonds", 12, "无懈可击")}

# Sanguosha card -> seed card, for every slot of that name (ruling C1). Each seed name is quoted
# from the seed line that defines it.
SAME_SLOTS = {
    "杀": "杀",                  # l.156 "基本牌【杀】 出牌阶段，同一格子范围内对除自己以外的一名角色使用"
    "闪": "闪",                  # l.167 "【闪】 当受到【杀】的攻击时，可以使用一张【闪】来抵消【杀】的效果"
    "桃": "宝石",                # l.171 "在出牌阶段，可以使用它来回复1点体力" (as 桃)
    "无中生有": "咒",            # l.173 "【咒】 出牌时机" (酒 is not in the 108: C1)
    "过河拆桥": "扭曲螺旋",      # l.184 "你选择并弃掉该角色的手牌或装备区的一张牌"
    "顺手牵羊": "赤主槛发",      # l.186 "你选择并获得该角色的手牌或装备区的一张牌"
    "决斗": "决斗",              # l.188 "由目标角色先开始，轮流打出一张【杀】"
    "借刀杀人": "不死徒手",      # l.190 "A需对角色B使用一张【杀】，否则你获得A装备区里的武器"
    "桃园结义": "阿宁艾鲁贝的一日",  # l.192 "目标角色回复1点体力"
    "南蛮入侵": "王之军势",      # l.194 "目标角色打出一张【杀】，否则受到【王之军势】对其造成的1点伤害"
    "万箭齐发": "王之财宝",      # l.196 "目标角色打出一张【闪】，否则受到【王之财宝】对其造成的1点伤害"
    "无懈可击": "万法破尽",      # l.198 "在目标魔术牌生效前，抵消其对自己产生的效果"
    "乐不思蜀": "石化魔眼",      # l.200 "对方进行一次判定，若不为红桃" (a judgement card, as 乐不思蜀)
    "闪电": "枯竭庭院",          # l.202 "对方进行一次判定，若不为梅花，跳过摸牌阶段" (as 闪电/兵粮寸断)
}
# slots whose seed card depends on the suit and rank (五谷丰登 is no seed card; C1)
BY_SLOT = {("hearts", 3, "五谷丰登"): "咒", ("hearts", 4, "五谷丰登"): "枯竭庭院"}
# Sanguosha equipment -> seed equipment (l.204-223; ruling C2). 紫骍 ♦K has no seed card.
EQUIPMENT = {
    ("clubs", 1, "诸葛连弩"): "七夜",              # l.204 "武器【七夜】作用：出牌阶段，你可以额外使用一张【杀】"
    ("diamonds", 1, "诸葛连弩"): "物干焯",         # l.210
    ("spades", 6, "青釭剑"): "破魔红蔷薇",         # l.212 "无视目标角色的防具"
    ("spades", 2, "寒冰剑"): "万华杖",             # l.205
    ("spades", 2, "雌雄双股剑"): "干将莫邪",       # l.207
    ("spades", 5, "青龙偃月刀"): "黑键",           # l.209
    ("spades", 12, "丈八蛇矛"): "佩耳修斯之剑",    # l.208 "你可以将两张手牌当一张【杀】使用"
    ("diamonds", 5, "贯石斧"): "穿刺死棘之枪",     # l.211 "穿刺死棘之*" (the seed censors 枪)
    ("diamonds", 12, "方天画戟"): "石中剑",        # l.206
    ("hearts", 5, "麒麟弓"): "斩击皇帝",           # l.213
    ("hearts", 5, "赤兔"): "誓约胜利之剑",         # l.214
    ("spades", 13, "大宛"): "乖离剑",              # l.215
    ("spades", 2, "八卦阵"): "奉纳殿六十四层",     # l.216 "若结果为红色，则视为你使用（或打出）了一张【闪】"
    ("clubs", 2, "八卦阵"): "月灵髓液",            # l.218
    ("clubs", 2, "仁王盾"): "六道境界",            # l.217
    ("clubs", 5, "的卢"): "炽天覆七重圆环",        # l.219
    ("spades", 5, "绝影"): "正式外典",             # l.222
    ("hearts", 13, "爪黄飞电"): "天之服",          # l.223
}
LEFT_OUT = {("diamonds", 13, "紫骍")}


def sanguosha() -> list[tuple[str, int, str]]:
    """The 108 cards as (suit, rank, Sanguosha name)."""
    out = []
    for suit, text in SANGUOSHA.items():
        for item in text.split(", "):
            rank, name = item.split(" ")
            out.append((suit, RANKS[rank], name.removesuffix("(EX)")))
    return out


def expected() -> tuple[Counter, dict[str, tuple[str, int]]]:
    """The draw deck (a multiset of (seed name, suit, rank)) and the equipment pile (seed name ->
    suit, rank) that the table gives."""
    deck: Counter = Counter()
    pile: dict[str, tuple[str, int]] = {}
    for suit, rank, name in sanguosha():
        slot = (suit, rank, name)
        if slot in EQUIPMENT:
            pile[EQUIPMENT[slot]] = (suit, rank)
        elif slot in LEFT_OUT:
            continue
        else:
            deck[(BY_SLOT.get(slot) or SAME_SLOTS[name], suit, rank)] += 1
    return deck, pile


def actual_deck() -> Counter:
    return Counter(parse_card_text(t) for t in data.load("deck")["cards"])


def test_the_table_is_the_standard_108():
    """Seed l.49 "战斗的流程类似三国杀": the table is the Sanguosha deck of 104 + 4 EX cards: 27 a suit,
    every rank twice in each suit, plus the EX ♠2, ♥Q, ♣2, ♦Q (a third card of that rank)."""
    cards = sanguosha()
    assert len(cards) == 108
    for suit in SANGUOSHA:
        ranks = Counter(r for s, r, _ in cards if s == suit)
        ex = {r for s, r, _ in EX if s == suit}
        assert ranks == Counter({r: 3 if r in ex else 2 for r in range(1, 14)}), suit
    assert {(s, r, n) for s, r, n in cards} >= EX
    equipment = [c for c in cards if c in EQUIPMENT or c in LEFT_OUT]
    assert len(equipment) == 19 and len(cards) - len(equipment) == 89


def test_deck_yaml_is_the_table_card_for_card():
    """Seed l.236 "游戏牌可以分为基本牌、魔术牌和装备牌三类" (ruling C1): the draw deck in data/deck.yaml
    is exactly the table's 89 non-equipment cards renamed, each name, suit and rank as many times
    as the table has it (宝石 ♥Q once and 宝石 ♦Q once: Sanguosha's 桃 ♥Q and ♦Q)."""
    want, _ = expected()
    got = actual_deck()
    assert sum(got.values()) == 89
    assert got - want == Counter() and want - got == Counter(), (got - want, want - got)
    assert got[("宝石", "hearts", 12)] == 1 and got[("宝石", "diamonds", 12)] == 1


def test_counts_and_suits_per_seed_card():
    """Seed l.156-202 name the basic and magic cards; their counts and suits per card follow from
    the table: e.g. 宝石 (l.170) 8 = 桃's ♥3 ♥4 ♥6 ♥7 ♥8 ♥9 ♥Q ♦Q; 石化魔眼 (l.200) 3, one of them a
    heart (乐不思蜀 ♥6)."""
    got = actual_deck()
    per_card: dict[str, Counter] = {}
    for (name, suit, _), n in got.items():
        per_card.setdefault(name, Counter())[suit] += n
    assert {k: dict(v) for k, v in per_card.items()} == {
        "杀": {"spades": 7, "clubs": 14, "hearts": 3, "diamonds": 6},
        "闪": {"hearts": 3, "diamonds": 12},
        "宝石": {"hearts": 7, "diamonds": 1},
        "咒": {"hearts": 5},
        "扭曲螺旋": {"spades": 3, "clubs": 2, "hearts": 1},
        "赤主槛发": {"spades": 3, "diamonds": 2},
        "决斗": {"spades": 1, "clubs": 1, "diamonds": 1},
        "不死徒手": {"clubs": 2},
        "阿宁艾鲁贝的一日": {"hearts": 1},
        "王之军势": {"spades": 2, "clubs": 1},
        "王之财宝": {"hearts": 1},
        "万法破尽": {"spades": 1, "clubs": 2, "diamonds": 1},
        "石化魔眼": {"spades": 1, "clubs": 1, "hearts": 1},
        "枯竭庭院": {"spades": 1, "hearts": 2},
    }
    assert Counter(s for (_, s, _), n in got.items() for _ in range(n)) == Counter(
        {"hearts": 24, "diamonds": 23, "clubs": 23, "spades": 19})


def test_every_seed_card_is_in_the_table_and_nothing_else():
    """Seed l.156-223: the table's seed names are exactly the game's cards (cards.yaml): the basic
    and magic cards in the draw deck, the 18 equipment cards (l.204-223) in the equipment pile."""
    want, pile = expected()
    kinds = catalog.kind_of()
    assert {n for n, _, _ in want} == {n for n, k in kinds.items() if k in ("basic", "magic")}
    assert set(pile) == {n for n in catalog.all_names() if catalog.is_equipment(n)} and len(pile) == 18


def test_equipment_pile_suits_are_the_table():
    """Seed l.203 "装备牌注：装备只能通过据点获得。" (ruling C2): each equipment card lies on the suit and
    rank of its Sanguosha slot."""
    _, pile = expected()
    marks = data.load("deck")["equipment"]
    got = {name: parse_card_text(f"{name} {mark}")[1:] for name, mark in marks.items()}
    assert got == pile


# More than one deck (ruling C33) ------------------------------------------------------------------

def crowd(n: int, **rules) -> dict:
    """A plain 8x8 map with ``n`` SABERs, none given a hand (each is dealt ``initial_hand``)."""
    chars = [{"id": f"c{i}", "class": "SABER", "side": "red" if i % 2 else "blue", "player": f"p{i}",
              "pos": f"{'ABCDEFGH'[i % 8]}{1 + i // 8}"} for i in range(n)]
    return {"ruleset": "grail_war", "name": "crowd", "map": {"width": 8, "height": 8}, "characters": chars,
            **({"rules": rules} if rules else {})}


def every_card(game) -> list:
    cards = game.deck.draw_pile + game.deck.discard_pile
    for c in game.characters:
        cards += c.hand
    return cards


def test_fuyuki_deals_84_cards_from_two_decks():
    """Seed l.56 "我们PM玩家摸了6张牌" with the bundled fuyuki's 14 servants: the deal takes 84 cards,
    more than half of one deck's 89, so `decks: auto` (the default) plays two copies: 178 cards,
    every card of deck.yaml twice, ids 1-178 (ruling C33)."""
    scenario, _ = load_scenario("fuyuki")
    game = build_scenario(scenario, "fuyuki.yaml", "seed")
    cards = every_card(game)
    assert game.rules["decks"] == 2 and len(cards) == 178
    assert sorted(c.id for c in cards) == list(range(1, 179))
    assert Counter((c.name, c.suit, c.rank) for c in cards) == Counter(
        {k: 2 * n for k, n in actual_deck().items()})
    assert sum(len(c.hand) for c in game.characters) == 84 and len(game.deck.draw_pile) == 94
    assert len(game.equipment_pile) == 18  # one of each equipment card still (C2)


def test_auto_adds_a_deck_only_past_half():
    """Ruling C33: 7 characters are dealt 42 cards, under half of 89: one deck; 8 are dealt 48, more
    than half: two. The deck of a small game is unchanged (ids 1-89)."""
    seven = build_scenario(crowd(7), "s.yaml", "seed")
    eight = build_scenario(crowd(8), "s.yaml", "seed")
    assert seven.rules["decks"] == 1 and sorted(c.id for c in every_card(seven)) == list(range(1, 90))
    assert eight.rules["decks"] == 2 and len(every_card(eight)) == 178
    assert build_scenario(crowd(8, initial_hand=5), "s.yaml", "seed").rules["decks"] == 1  # 40 cards


def test_the_gm_chooses_the_number_of_decks():
    """Ruling C33: `rules.decks: N` plays N copies whatever the deal; `自动` is `auto`."""
    three = build_scenario(crowd(2, decks=3), "s.yaml", "seed")
    assert three.rules["decks"] == 3 and len(every_card(three)) == 267
    assert Counter(c.name for c in every_card(three))["宝石"] == 24
    assert build_scenario(crowd(14, decks=1), "s.yaml", "seed").rules["decks"] == 1  # 84 of 89: allowed
    assert build_scenario(crowd(8, decks="自动"), "s.yaml", "seed").rules["decks"] == 2


@pytest.mark.parametrize("value", [0, 11, -1, "two", True, 1.5, None])
def test_a_bad_number_of_decks_is_refused_naming_the_field(value):
    """Ruling C33: anything but 1-10 or auto is refused at `rules.decks`, with the allowed values."""
    with pytest.raises(GmError) as e:
        build_scenario(crowd(2, decks=value), "s.yaml", "seed", lang="en")
    text = str(e.value)
    assert "rules.decks" in text and "1-10" in text and "auto" in text


def test_a_deal_bigger_than_the_decks_is_refused():
    """Ruling C33: 15 characters are dealt 90 cards; one deck holds 89: refused at `rules.decks`
    (before, the deal silently came up short)."""
    with pytest.raises(GmError) as e:
        build_scenario(crowd(15, decks=1), "s.yaml", "seed", lang="en")
    assert "rules.decks" in str(e.value) and "90" in str(e.value) and "89" in str(e.value)


def test_gm_new_names_the_line_of_a_bad_decks(gm, tmp_path):
    """Spec §2 ("Errors ... name the file and the field"): `gm new` refuses `decks: 0` with the
    file, line and field."""
    text = ("ruleset: grail_war\nname: t\nmap: {width: 3, height: 1}\nrules:\n  decks: 0\ncharacters:\n"
            "  - {id: a, class: SABER, side: red, player: p, pos: A1}\n"
            "  - {id: b, class: SABER, side: blue, player: q, pos: C1}\n")
    r = gm("new", tmp_path / "c", "--scenario", write(tmp_path / "s.yaml", text), "--lang", "en", code=1)
    out = r.output + (r.stderr if r.stderr_bytes else "")
    assert "s.yaml:5: rules.decks:" in out and "1-10" in out

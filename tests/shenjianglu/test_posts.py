"""Posts players won't dispute (issue 21): what the public and private posts say, in the words a
player reads, checked on the text of the posts the core renders from this ruleset's content."""

from __future__ import annotations

import re

from gm_tool.core.render import Forum, use_forum
from gm_tool.rulesets.shenjianglu import RULESET as RS
from tests.shenjianglu.helpers import duel, play, seat, sheet

NAMES = {"alice": "月下 独酌", "bob": "Red Fan 二号"}


def posts(before, after, events, lang="zh"):
    with use_forum(Forum(names=tuple(NAMES.items()))):
        return RS.posts(before, after, events, lang).texts


def turn(state, *actions):
    after, events = play(state, *actions)
    return after, events, posts(state, after, events)


def test_a_trigger_that_reaches_nobody_is_not_told():
    """seed l.109: "開始階段：某些技能的效果會在這個階段觸發。" — 杨戬's 号令 with no ally beside it says nothing."""
    s = duel(units=[{"id": "y", "card": "杨戬", "owner": "bob", "pos": "D3"}])
    after, events, texts = turn(s)
    assert "trigger" not in [e["type"] for e in events]
    assert "【号令】" not in texts["public"]["md"] and "作用于 \n" not in texts["public"]["md"]


def test_king_stamina_is_written_one_way():
    """seed l.57: "【血條】 記錄王的體力，用順序牌遮擋失去的體力。" — the line and the seat table both give 体力 left
    out of the king's 体力."""
    s = duel(hand1=["雷"], units=[{"id": "K2", "damage": 3}])
    after, events, texts = turn(s, {"cast": "雷", "targets": ["K2"]})
    md = texts["public"]["md"]
    assert "**K2** 受到 2 点伤害（法术攻击），体力 5/10" in md
    assert re.search(r"\| 2 \| Red Fan 二号 \| 绿队 \| 测王 \| 5/10 \|", md)


def test_a_withheld_counter_says_why_in_the_public_post():
    """seed l.181: "一個回合內一個人物最多只反擊第一次受到的攻擊。" — after a ranged first hit, the melee that
    follows is not countered, and the public post says why."""
    s = duel(units=[{"id": "a1", "card": "弓", "owner": "alice", "pos": "D5"}, {"id": "a2", "card": "兵", "owner": "alice", "pos": "C3"},
                    {"id": "b1", "card": "盾", "owner": "bob", "pos": "D3"}])
    after, events, texts = turn(s, {"command": "a1", "skill": "射", "targets": ["b1"]}, {"command": "a2", "to": "C3", "attack": "b1"})
    assert "**3·b1** 没有反击 **2·a2**：本回合已受过攻击，只反击第一次受到的攻击" in texts["public"]["md"]
    assert "does not counter **2·a2**: it was attacked already" in posts(s, after, events, "en")["public"]["md"]


def test_mana_lines_are_this_turns_for_the_player_due_and_none_for_a_player_out():
    """seed l.103: "每個玩家每回合均有固定的9點法力值" — the player whose turn is open is told this turn's
    mana; the other the next turn's; a player who is out nothing about mana."""
    s = duel()
    after, events, texts = turn(s)
    assert "本回合法力：9" in texts["bob"]["md"] and "下个回合的法力" not in texts["bob"]["md"]
    assert "下个回合的法力：9，摸牌 1 张" in texts["alice"]["md"]
    s = duel(hand1=["大雷"], units=[{"id": "K2", "damage": 9}])
    after, events, texts = turn(s, {"cast": "大雷", "targets": ["K2"]})
    assert "法力" not in texts["bob"]["md"].split("### 你的手牌")[1].split("### 各家状况")[0]


def test_graveyards_public_counts_private_contents():
    """seed l.67: "【墓地】 ...我方死亡的人物、用過的法術或裝備放到這裡。" — the public post counts each
    graveyard; each player's post lists their own."""
    s = duel(hand1=["雷"], units=[{"id": "b1", "card": "快", "owner": "bob", "pos": "D3"}])
    after, events, texts = turn(s, {"cast": "雷", "targets": ["b1"]})
    assert seat(after, "bob")["graveyard"] == ["快"]
    assert re.search(r"\| 1 \| 月下 独酌 \| 红队 \| 测王 \| 10/10 \| \d+ \| \d+ \| 1 \|", texts["public"]["md"])
    assert "**你的墓地** 快" in texts["bob"]["md"] and "**你的墓地** 雷" in texts["alice"]["md"]
    assert "**你的墓地**" not in texts["public"]["md"]


def test_facing_is_written_one_way():
    """seed l.141: "人物的初始朝向為玩家座位的正前方" — the table and the story name a facing with the same word."""
    s = duel(units=[{"id": "a1", "card": "妲己", "owner": "alice", "pos": "D5"}, {"id": "b1", "card": "兵", "owner": "bob", "pos": "D3"}])
    after, events, texts = turn(s, {"command": "a1", "skill": "魅惑", "targets": ["b1"]})
    md = texts["public"]["md"]
    assert "**2·b1** 被转向北" in md and re.search(r"\| 2·b1 \| 兵 \| Red Fan 二号 \| D3 \| 北 \|", md)
    assert not re.search(r"\| [NESW] \|", md)


def test_display_names_everywhere_and_no_player_id_outside_the_sheet():
    """seed l.73: "每人摸一張，然後按照棋盤上的號碼入座" — players by their forum names in every post; unit
    labels never carry a player's id (alice-1 is 1)."""
    s = duel(hand1=["兵"])
    after, events, texts = turn(s, {"summon": "兵", "at": "D6"})
    for who, fmts in texts.items():
        for fmt, text in fmts.items():
            body = text.split("指令表（")[0]
            assert not re.search(r"(?<![\w-])(alice|bob)(?![\w])", body), (who, fmt)
    assert "**月下 独酌** 召唤 兵（**1**）于 D6" in texts["public"]["md"]
    assert "[b]月下 独酌[/b]" in texts["public"]["bbcode"]


def test_a_finished_game_names_the_winning_team_in_words():
    """seed l.75: "摸到單數的為紅隊，摸到雙數的為綠隊。" — no raw side code in a Chinese post."""
    s = duel(hand1=["大雷"], units=[{"id": "K2", "damage": 9}])
    after, events, texts = turn(s, {"cast": "大雷", "targets": ["K2"]})
    md = texts["public"]["md"]
    assert "**游戏结束，胜者：红队**" in md and "游戏结束，胜者：红队" in md.split("### 结束阶段")[0]
    assert not re.search(r"(?<![A-Za-z])(red|green|draw)(?![A-Za-z])", md)


def test_the_opening_post_lists_the_switches_in_force():
    """seed l.181: "最多只反擊第一次受到的攻擊" — `gm new`'s public opening post shows the house rules, a
    changed one marked as changed."""
    from gm_tool.core.posts import opening_posts

    s = duel(rules={"counter": "first_counterable"})
    md = opening_posts(RS, s, "zh", secret="x").texts["public"]["md"]
    assert "| 反击（3.13） | 反击第一次可以反击的攻击 | 本局改动 | l.181 |" in md
    assert "| 中立牌（3.3） | 从同一堆中立牌发牌 | 按原文 | l.87 |" in md
    assert sheet(s) and "sha256:" in md

"""魂陆's posts on the core's road to the forum (issue 19): content given to the core
(``post``/``opening_post``), rendered there with the forum's display names, picture address and
dialect; marks given once at setup and kept for the whole game; a picture a phone can read."""

from __future__ import annotations

import io

from gm_tool.core.posts import opening_posts, turn_posts
from gm_tool.core.render import Forum
from tests.hunlu.helpers import RS, play, scenario

TEAM = {"tj": {"pos": "B2"}, "tj2": {"pos": "D2"}, "tw2": {"pos": "F2"},
        "tz": {"player": "bob", "pos": "B8"}, "tz2": {"player": "bob", "pos": "D8"}}
NAMES = (("alice", "月下 独酌"), ("bob", "Red [b]Fan"))


def begun(seed: str = "marks"):
    return RS.begin(scenario(TEAM, dice=[6, 1, 6, 1, 6, 1, 6, 1, 6, 1]), "case.yaml", seed)


def test_two_copies_of_one_general_keep_distinct_marks_for_the_whole_game():
    """Issue 19: "distinct labels for two copies of one general (魂陆 TJ/TJ)"; "a unit keeps its
    label from the turn it appears and a label is never reused". The marks are given at setup,
    kept in the state, and the text board and the picture show the same ones."""
    s = begun().state
    marks = {u["id"]: u["label"] for u in s["units"]}
    # in the picture's pixel font TZ would read as T2 and Z2 as 22: tz and tz2 get their first
    # letter and another
    assert marks == {"tj": "TJ", "tj2": "T2", "tw2": "TW", "tz": "TA", "tz2": "TC"}
    states = [s]
    for _ in range(4):
        s, _ = play(s, [])
        states.append(s)
    for st in states:
        assert {u["id"]: u["label"] for u in st["units"]} == marks
        assert RS.unit_labels(RS.view(st, None), "zh") == {u: f"木人({u})" for u in marks}
    md = RS.posts(states[0], states[1], [], "zh").texts["public"]["md"]
    assert "TJ=木人(tj), T2=木人(tj2), TW=木人(tw2), ta=木人(tz), tc=木人(tz2)" in md
    board = md[md.index("```"):]
    assert " 2 ·  TJ ·  T2 ·  TW" in board and " 8 ·  ta ·  tc" in board


def test_the_picture_is_wide_enough_for_a_phone_and_carries_its_legend():
    """Issue 19: "Every picture has a legend ... readable on a phone: at least ~600 px wide for
    the boards of ... 魂陆 (today 222×216)". A 9×9 board is drawn 600 px wide or more, with the
    legend's rows (each side, the symbols, the round's order) under the board."""
    from PIL import Image

    from gm_tool.rulesets.hunlu.picture import Painter, legend_rows

    s = begun().state
    png = RS.posts(s, s, [], "zh").files["map-public.png"]
    im = Image.open(io.BytesIO(png))
    board_height = Painter(s).size()[1]
    assert im.width >= 600 and im.height > board_height
    rows = legend_rows(s, {u["id"]: u["label"] for u in s["units"]}, s["next"]["unit"])
    assert [w for w, _ in rows[0]] == ["RED", "TJ T2 TW"] and [w for w, _ in rows[1]] == ["BLUE", "TA TC"]
    assert rows[-1][0][0] == "ROUND 1" and any(w.startswith("NOW ") for w, _ in rows[-1])


def test_display_names_picture_address_and_dialect_come_from_the_forum():
    """Issue 19: "Display names apply to every name of a player in every post"; "Every post that
    shows a picture links it through the image URL when one is set"; no raw codes in zh posts
    (a roll's source in words, not 〔seed〕)."""
    s0 = begun().state
    s1, ev = play(s0, [])
    forum = Forum(dialect="phpbb", image_url="https://img.example.org/{turn}/{file}", names=NAMES, turn="turn-001")
    posts = turn_posts(RS, s0, s1, ev, "zh", forum=forum, secret="s")
    public, alice = posts.texts["public"], posts.texts["alice"]
    assert "[img]https://img.example.org/turn-001/map-public.png[/img]" in public["bbcode"]
    assert "![map](https://img.example.org/turn-001/map-public.png)" in public["md"]
    assert "[size=4]" not in public["bbcode"] and "[table]" not in public["bbcode"]  # phpbb has neither
    for text in (public["bbcode"], alice["bbcode"]):
        assert "月下 独酌" in text and "Red [\u200bb]Fan" in text
        body = text.split("指令表")[0]
        assert "alice" not in body and "bob" not in body and "〔" not in body
    due = s1["next"]["player"]
    assert "[b]轮到你的魂将" in posts.texts[due]["bbcode"]
    assert f"[b]下一位：{s1['next']['unit']}" not in public["bbcode"] and "[b]下一位：木人(" in public["bbcode"]


def test_opening_posts_give_the_board_the_order_and_each_player_their_generals():
    """Issue 19: "Turn 0 for every ruleset: gm new writes opening posts (public: the board and
    picture, the seed commitment, seats/sides and order ...; private: what that player holds —
    ... generals and hidden cards for 魂陆 — and the pre-filled sheet if the player is due)"."""
    b = begun()
    posts = opening_posts(RS, b.state, "zh", events=b.events, secret="s",
                          forum=Forum(names=NAMES, image_url="https://img.example.org/{turn}/{file}", turn="turn-000"))
    assert posts is not None
    public = posts.texts["public"]["md"]
    assert public.startswith("## 魂陆 case 开局") and "### 先后与出场" in public and "sha256:" in public
    assert "map-public.png" in public and "第1回合顺序：" in public
    due = b.state["next"]["player"]
    other = next(p for p in RS.players(b.state) if p != due)
    mine = posts.texts[due]["md"]
    assert "第 1 回合指令表" in mine and f"player: {due}" in mine
    assert "指令表" not in posts.texts[other]["md"]
    assert "你的魂将：木人(tj)（主位）、木人(tj2)（主位）、木人(tw2)（主位）" in posts.texts["alice"]["md"]
    assert "你的魂将：木人(tz)（主位）、木人(tz2)（主位）" in posts.texts["bob"]["md"]


def test_the_opening_post_lists_the_rules_in_force():
    """seed l.75: "这一步双方可各自规定，是否无法选择相同魂将" and l.18 (three mains, two reserves):
    the scenario's ``rules:`` are declared once (``switches``) and the public opening post lists
    each with its value, whether it is the seed's reading, and the seed line."""
    b = RS.begin(scenario({"a": {"pos": "B2"}, "b": {"player": "bob", "pos": "B8"}},
                          rules={"unique": True, "posts": "每大回合"}), "case.yaml", "rules")
    assert b.state["rules"] == {"field": 3, "reserves": 2, "unique": True, "default_range": 2, "posts": "round"}
    posts = opening_posts(RS, b.state, "zh", events=b.events)
    assert posts is not None
    public = posts.texts["public"]["md"]
    table = public[public.index("### 本局规则开关"):]
    assert "| 每名玩家的主位魂将数（上场） | 3 | 按原文 | l.18 |" in table
    assert "| 一方不可选择相同魂将 | 是 | 本局改动 | l.75 |" in table
    assert "| 公开战报 | 每个大回合结束时一帖 | 本局改动 | \\- |" in table
    assert "本局规则开关" not in posts.texts["alice"]["md"]


def test_r34_the_picture_and_the_post_show_whose_turn_it_is_and_the_round_order(monkeypatch):
    """seed l.52: "根据行动顺序决定每个回合所有魂将的出手顺序"; l.85: "第一人回合：在此时只有第一魂将可以
    行动" (ruling R34): after a step, the general acting is ringed in the picture, the legend under
    the board gives the round's order as DONE / NOW / NEXT, and the post's order line marks who
    has acted and who is acting."""
    from gm_tool.core import picture as core_picture
    from gm_tool.rulesets.hunlu import picture

    s0 = begun().state
    s1, ev = play(s0, [])
    order, acted, due = s1["order"], s1["acted"], s1["next"]["unit"]
    assert order.index(due) == 1 and acted == [order[0]]  # one general acted, the second is due
    drawn: list[list] = []
    honest = core_picture.GridPainter.draw

    def spy(self, marks, visible=None):
        drawn.append(marks)
        return honest(self, marks, visible)

    monkeypatch.setattr(core_picture.GridPainter, "draw", spy)
    posts = RS.posts(s0, s1, ev, "zh")
    ringed = [mk.label for mk in drawn[0] if mk.own]
    label = {u["id"]: u["label"] for u in s1["units"]}
    assert ringed == [label[due]]
    rows = picture.legend_rows(s1, label, due)
    later = " ".join(label[u] for u in order[2:])
    assert [w for w, _ in rows[-1]] == ["ROUND 1", f"DONE {label[order[0]]}", f"NOW {label[due]}", f"NEXT {later}"]
    md = posts.texts["public"]["md"]
    assert f"第1回合顺序：木人({order[0]})（已行动） > 木人({due})（行动中） > 木人({order[2]})" in md

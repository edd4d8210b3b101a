"""What one player's posts may show (issue 19): nothing on the board is hidden in this game
(spec §1; test_play.py::test_every_view_equals_the_gms), but a player's standing orders (ruling
R35: the HP at which a piece goes to hand or kills itself, the choice when a leader dies) are
their own plan: the other player's post, the public post, the other player's `gm show` text and
template must not change when they change. A planted leak (a post showing every player's
standing orders) is caught. Also: a bot game's Chinese posts under display names carry no raw
player id and no raw code outside the pre-filled sheet."""

import copy
import re

import pytest

from gm_tool import app
from gm_tool.core.chance import Chance
from gm_tool.core.render import Forum, use_forum
from gm_tool.rulesets.guangying import RULESET
from gm_tool.rulesets.guangying import posts as gy_posts


def _turns(seed, n=16):
    data, source = app.load_scenario("standard")
    state = RULESET.setup(data, source, seed)
    out = []
    for k in range(1, n + 1):
        if not RULESET.due(state):
            break
        p = RULESET.due(state)[0]
        sheet = RULESET.bot_sheet(state, p, "greedy", Chance(seed, f"bot-{k}"))
        res = RULESET.resolve(state, {p: RULESET.parse_orders(state, sheet, "bot.yaml", "en")}, seed)
        out.append((state, res.state, res.events))
        state = res.state
    return out


def _perturb(state, owner, k):
    """``owner``'s standing orders changed to other legal values."""
    s = copy.deepcopy(state)
    pl = next(p for p in s["players"] if p["player"] == owner)
    own = sorted(p["id"] for p in s["pieces"] if p["owner"] == owner)
    squads = sorted(q["id"] for q in s["squads"] if q["owner"] == owner)
    pl["standing"] = {"leader_dies": "return" if k % 2 else "fight_on",
                      "squads": {q: "return" for q in squads[:k % 3]},
                      "return": {p: 5 + k for p in own[:2]}, "suicide": {p: 1 + k for p in own[2:3]}}
    return s


def _given(before, after, events, reader, lang):
    """Everything ``reader`` is given for this turn: their post and the public post (every format),
    their `gm show` text and their template."""
    texts = RULESET.posts(before, after, events, lang).texts
    return [texts["public"], texts[reader], RULESET.summary(RULESET.view(after, reader), reader, lang),
            RULESET.template(after, reader, lang)]


def _leaks(turns):
    found = []
    for before, after, events in turns:
        for reader in RULESET.players(after):
            other = next(p for p in RULESET.players(after) if p != reader)
            for lang in ("zh", "en"):
                want = _given(before, after, events, reader, lang)
                for k in range(3):
                    got = _given(_perturb(before, other, k), _perturb(after, other, k), events, reader, lang)
                    if got != want:
                        found.append((after["turn"], reader, lang))
    return found


@pytest.mark.parametrize("seed", ["hide-1", "hide-2"])
def test_standing_orders_reach_no_other_player(seed):
    """seed l.54: "如果队长死亡，其他棋子，可以选择继续战斗或者直接回手。" and l.17 (ruling R35: a standing order is its
    owner's plan, shown in their own post only)"""
    assert _leaks(_turns(seed)) == []


def test_a_planted_leak_is_caught(monkeypatch):
    """seed l.54 (the property above fails on a post that shows every player's standing orders)"""
    real = gy_posts.mine

    def leaky(state, me, lang):
        rows = real(state, me, lang)
        for pl in state["players"]:
            if pl is not me:
                rows.append(["?", str(sorted(pl["standing"].get("return", {}).items()))])
        return rows

    monkeypatch.setattr(gy_posts, "mine", leaky)
    assert _leaks(_turns("hide-1", 6))


def test_chinese_posts_name_players_by_display_name_and_carry_no_raw_code():
    """seed l.22: "要塞破坏：摧毁对方的要塞，则赢得比赛。" (issue 19: display names everywhere; no raw code in a zh post)"""
    forum = Forum(names={"alice": "Alice Chen", "bob": "鲍 勃"})
    turns = _turns("names-1", 30)
    raw = re.compile(r"\b(alice|bob|draw|fortress|None|set_hp|first|fight_on|south|north|red|blue)\b")
    with use_forum(forum):
        for before, after, events in turns:
            for who, out in RULESET.posts(before, after, events, "zh").texts.items():
                for fmt, text in out.items():
                    body = re.sub(r"\[code\].*?\[/code\]|```.*?```", "", text, flags=re.S)  # sheet, text board
                    body = re.sub(r"map-[\w-]+\.png", "", body)  # the core names the pictures
                    assert not raw.findall(body), (after["turn"], who, fmt, raw.findall(body))
                    assert "鲍 勃" in text and "Alice Chen" in text


def test_a_gm_edit_of_standing_orders_is_told_to_their_owner_only(tmp_path):
    """seed l.54: "如果队长死亡，其他棋子，可以选择继续战斗或者直接回手。" (ruling R37: a GM who sets or clears a
    player's standing order tells that player, in their post; the other player's post and the
    public post say nothing of it, while any other edit is told to all)"""
    root = tmp_path / "c"
    app.new_campaign(root, "standard", seed="a-long-enough-test-seed-0123456789")
    sheet = tmp_path / "alice.yaml"
    sheet.write_text("turn: 1\nplayer: alice\nactions:\n  - {召唤: 战士, 位置: C3, 编号: w1}\n", "utf-8")
    app.submit(root, sheet, "zh")
    app.resolve(root)
    app.amend(root, "set-standing", ["bob", "leader_dies", "return"], "bob 请求", "zh")
    app.amend(root, "set-standing", ["alice", "return", "w1", "9"], "alice 请求", "zh")
    app.amend(root, "set-fortress", ["bob", "90"], "录入错误", "zh")
    app.resolve(root)
    posts = {who: (root / "reports" / "turn-002" / f"{who}.md").read_text("utf-8") for who in ("public", "alice", "bob")}
    for who, text in posts.items():
        story = text.split("```")[0]
        assert ("bob 请求" in story) == (who == "bob") and ("alice 请求" in story) == (who == "alice"), who
        assert "录入错误" in story, who
    assert "w1 ≤9" in posts["alice"] and "w1 ≤9" not in posts["bob"] + posts["public"]

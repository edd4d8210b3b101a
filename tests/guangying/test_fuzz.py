"""Random sheets on positions of random games: `gm check` answers with problems or orders, never a
crash; resolving actions unchecked (as `gm resolve` meets actions that became impossible) skips
with reasons, never crashes, and the posts render. GM_FUZZ_EXAMPLES sets the count (default 300)."""

import os
import random
import re

from gm_tool import app
from gm_tool.core.chance import Chance
from gm_tool.errors import GmError
from gm_tool.rulesets.guangying import RULESET as rs
from gm_tool.rulesets.guangying.engine import play
from gm_tool.rulesets.guangying.sheet import Orders, _Reader

N = int(os.environ.get("GM_FUZZ_EXAMPLES", "300"))
VERBS = ["summon", "move", "attack", "full_attack", "defend", "ability", "leader", "split", "return", "suicide"]
ABILITIES = ["唱诗", "治疗", "造岩", "风墙", "变身野兽", "奉献", "射击", "火球", "开启传送阵"]
CELLS = [f"{c}{r}" for c in "ABCDEFGHIJ" for r in range(1, 13)]


# what an unfilled message or sentence prints: a placeholder, a dict repr, a generic event
RAW = re.compile(r"\{[A-Za-z_]+(![rsa])?\}|\{'|〔")


def _told(posts) -> str:
    """Every text of a turn's posts, with nothing left unfilled."""
    texts = "\n".join(t for by_fmt in posts.texts.values() for t in by_fmt.values())
    assert not RAW.search(texts), RAW.search(texts)
    return texts


def _positions():
    data, source = app.load_scenario("standard")
    out = []
    for g in range(3):
        s = rs.setup(data, source, "f")
        for n in range(1, 60):
            if not rs.due(s):
                break
            p = rs.due(s)[0]
            s = rs.resolve(s, rs.bot_orders(s, {p: "random"}, Chance(f"f{g}", str(n))), "f").state
            if rs.due(s):
                out.append(s)
    return out


def _actions(rnd, s):
    ids = [p["id"] for p in s["pieces"]] + [q["id"] for q in s["squads"]] + ["fortress", "nobody"]
    out = []
    for _ in range(rnd.randint(1, 6)):
        v = rnd.choice(VERBS)
        if v == "summon":
            a = {"summon": rnd.choice(["战士", "巡林客", "游荡者", "法师", "诗人", *ids]), "at": rnd.choice(CELLS)}
        elif v in ("move", "split"):
            a = {v: rnd.choice(ids), "path": [rnd.choice(CELLS) for _ in range(rnd.randint(1, 4))]}
        elif v in ("attack", "full_attack"):
            a = {v: rnd.choice(ids), "target": rnd.choice(ids)}
        elif v == "ability":
            a = {"ability": rnd.choice(ABILITIES), "by": rnd.choice(ids), "target": rnd.choice(ids),
                 "at": rnd.choice(CELLS), "amount": rnd.randint(-1, 9), "orientation": rnd.choice(["横向", "纵向"])}
        else:
            a = {v: rnd.choice(ids)}
        out.append(a)
    return out


def test_random_sheets_never_crash():
    """seed l.40: "行动机会：每个小队每回合开始获得2个行动机会" (whatever a sheet asks, a clear answer)"""
    rnd = random.Random(13)
    positions = _positions()
    checked = skipped = 0
    for _ in range(N):
        s = rnd.choice(positions)
        acts = _actions(rnd, s)
        try:
            orders = rs.parse_orders(s, {"turn": s["turn"] + 1, "player": s["next"], "actions": acts}, "f.yaml", "en")
        except GmError as exc:
            for lang in ("zh", "en"):
                assert exc.render(lang) and not RAW.search(exc.render(lang)), exc.render(lang)
        else:
            checked += 1
            res = rs.resolve(s, {s["next"]: orders}, "f")
            _told(rs.posts(s, res.state, res.events, "en"))
        reader = _Reader("f.yaml", "en")
        parsed = []
        for i, a in enumerate(acts):
            got = reader.action(i, a)
            if got is not None:
                parsed.append({**got, "index": i})
        game, _ = play(s, Orders(s["next"], s["turn"] + 1, parsed, None))
        skipped += sum(e["type"] == "action_skipped" for e in game.log.events)
        _told(rs.posts(s, game.s, game.log.events, "zh"))
    assert checked > 0 and skipped > N  # sheets accepted, and actions skipped with their reasons told

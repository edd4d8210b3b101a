"""Forum posts of the grail war: escaping in every format, what the public and private posts
tell (rulings P1-P6), how events are told (sections, generic fallback), template overrides,
map pictures, `gm report` / `gm resolve` / `gm template`."""

from __future__ import annotations

import copy
import html
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from gm_tool.core.render import MARKUPS, environment, markdown_to_html
from gm_tool.rulesets.grail_war import RULESET as _GRAIL
from gm_tool.rulesets.grail_war import narrate, picture
from tests.conftest import grail_posts as posts
from tests.conftest import player_picture as own_picture
from tests.conftest import write
from tests.regen_golden import SCENARIO, play

TEMPLATES = _GRAIL.package_dir / "templates"



EVIL = ["[b]x[/b]", "**y**", "<script>alert(1)</script>", "[url=javascript:alert(1)]z[/url]",
        "[img]javascript:alert(2)[/img]", "_u_ `c` <img src=x onerror=alert(3)>", "1. # - > |a|"]
BBCODE_TAGS = {"b", "color", "size", "table", "tr", "td", "code", "img"}
HTML_TAGS = {"html", "head", "meta", "title", "style", "body", "h2", "h3", "p", "ul", "li", "strong", "table",
             "thead", "tbody", "tr", "th", "td", "pre", "code", "img"}


def evil_scenario() -> dict:
    """Skirmish-like, every character and stronghold named with markup; alice sees everyone."""
    sc = copy.deepcopy(SCENARIO)
    positions = ["C3", "C4", "D3", "E3"]
    for c, name, pos in zip(sc["characters"], EVIL, positions):
        c["name"], c["pos"] = name, pos
    for s, name in zip(sc["map"]["strongholds"], EVIL[4:] + EVIL):
        s["name"] = name
    return sc


@pytest.fixture(scope="module")
def evil_turn():
    game = play(evil_scenario(), "evil", 1)
    before, after = game["states"]
    return before, after, game["logs"][0], posts(before, after, game["logs"][0], "zh")


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data):
        self.text.append(data)


def test_bbcode_names_open_no_tag(evil_turn):
    *_, out = evil_turn
    for who in ("public", "alice", "bob"):
        text = out[who]["bbcode"]
        tags = {t.lower() for t in re.findall(r"\[/?([A-Za-z*]+)", text)}
        assert tags <= BBCODE_TAGS, (who, tags - BBCODE_TAGS)
        assert "[url" not in text and "[b]x" not in text
        shown = text.replace("\u200b", "")
        for name in EVIL[:4]:  # the characters: all in alice's and bob's sight
            if who != "public":
                assert name in shown, (who, name)


def test_markdown_and_html_show_names_as_text(evil_turn):
    *_, out = evil_turn
    for who in ("alice", "bob", "public"):
        page = markdown_to_html(out[who]["md"], title=f"turn-001 {who}")  # as `gm report --format html`
        parser = Tags()
        parser.feed(page)
        assert parser.tags <= HTML_TAGS, parser.tags - HTML_TAGS
        for attr, value in parser.attrs:
            assert "javascript" not in (value or "").lower(), (attr, value)
        assert "<script" not in page and "onerror=" not in page.replace("onerror=alert(3)&gt;", "")
        text = html.unescape("".join(parser.text))
        names = EVIL[:4] if who != "public" else [s["name"] for s in evil_scenario()["map"]["strongholds"]]
        for name in names:
            assert name in text, (who, name)
        # nothing turned into emphasis or a link: the strong tags are the template's own
        assert "<strong>y</strong>" not in page and "<em>u</em>" not in page and "<a " not in page


@pytest.mark.parametrize("name", EVIL)
def test_markup_esc_round_trips(name):
    """Each markup's esc shows the text as it is: BBCode minus the zero-width spaces, Markdown
    through markdown-it."""
    assert MARKUPS["bbcode"].esc(name).replace("\u200b", "") == name
    page = markdown_to_html("x " + MARKUPS["md"].esc(name) + "\n")
    parser = Tags()
    parser.feed(page)
    assert "\nx " + name + "\n" in html.unescape("".join(parser.text))
    assert parser.tags <= HTML_TAGS


def test_unsafe_image_urls_are_refused():
    for m in MARKUPS.values():
        assert "javascript" not in m.img("javascript:alert(1)")
        assert "[/img]" not in m.img("a[/img][url=x]").replace("[/img]", "", 1) or m.name == "md"
        assert ")" not in m.img("a) ![x](y").removesuffix(")")


def test_private_post_has_own_character_hand_and_what_to_send(evil_turn):
    _, after, events, out = evil_turn
    alice = next(c for c in after["characters"] if c["player"] == "alice")
    text = out["alice"]["md"]
    assert f"体力 {alice['hp']}/{alice['max_hp']}" in text and f"位置 {alice['pos']}" in text
    for card in alice["hand"]:
        label = f"{card['name']} "
        assert label in text
    assert "请发送第 2 回合的指令表（见下）" in text
    assert "回合: 2\n玩家: alice\n" in text and "gm template" not in text  # the sheet itself, no tool to run
    name = own_picture(out["files"], "alice")
    assert f"![map]({name})" in text and f"[img]{name}[/img]" in out["alice"]["bbcode"]
    assert "```\n    ABCDEFGH" in text  # the text map


def test_private_post_tells_only_events_its_player_may_know():
    game = play(SCENARIO, "golden-posts", 1)
    before, after = game["states"]
    events = game["logs"][0]
    out = posts(before, after, events, "en")
    for player in ("alice", "bob", "heidi", "ivan"):
        md = out[player]["md"]
        for e in events:
            if e["type"] in ("draw", "discard"):
                cards = [f"{c['name']} " for c in e["cards"]]
                line = narrate.sentence(e, {c["id"]: c["name"] for c in after["characters"]}, "en", MARKUPS["md"])
                assert (line in md) == (e["to"] == "all" or player in e["to"]), (player, e)
                assert cards


def test_public_post_tells_deaths_fights_and_territory_not_places():
    game = play(SCENARIO, "golden-posts", 1)
    before, after = game["states"]
    events = game["logs"][0]
    after = copy.deepcopy(after)
    mordred = next(c for c in after["characters"] if c["id"] == "mordred")
    mordred["alive"] = False
    out = posts(before, after, events, "zh")["public"]
    md, bb = out["md"], out["bbcode"]
    fights = sum(e["type"] == "fight" for e in events)
    assert fights and f"本回合共发生 {fights} 场战斗。" in md
    assert "**本回合阵亡**: \\[url=javascript:alert(1)\\]莫德雷德\\[/url\\]（蓝方 SABER）" in md
    assert "| 红方 | " in md and "[tr][td]蓝方[/td]" in bb
    # ruling P2: no character's position, no fight's place, no private event
    for c in after["characters"]:
        assert f"位置 {c['pos']}" not in md
    assert "爆发战斗" not in md and "移动到" not in md and "摸了" not in md


def test_public_post_lists_the_fallen_of_earlier_turns():
    game = play(SCENARIO, "golden-posts", 1)
    before, after = copy.deepcopy(game["states"])
    for state in (before, after):
        state["characters"][1]["alive"] = False
    md = posts(before, after, game["logs"][0], "zh")["public"]["md"]
    assert "**已阵亡**: \\*\\*高文\\*\\* &lt;i>（红方 SABER）" in md
    assert not any("本回合阵亡" in line and "高文" in line for line in md.splitlines())  # fallen before, not now


def test_sections_group_a_fight_blow_by_blow_and_new_events_need_no_template():
    events = [
        {"seq": 0, "type": "turn", "to": "all", "turn": 1},
        {"seq": 1, "type": "step", "to": ["a"], "character": "x", "start": "A1", "end": "A2"},
        {"seq": 2, "type": "fight", "to": ["a", "b"], "cell": "A2", "fighters": ["x", "y"]},
        {"seq": 3, "type": "novel_blow", "to": ["a", "b"], "source": "x", "target": "y", "card": {"name": "杀", "suit": "spades", "rank": 7}, "damage": 1},
        {"seq": 4, "type": "draw", "to": ["b"], "character": "y", "cards": [{"name": "闪", "suit": "hearts", "rank": 2}]},
        {"seq": 5, "type": "fight", "to": ["c"], "cell": "C3", "fighters": ["z", "w"]},
        {"seq": 6, "type": "capture", "to": "all", "side": "red", "stronghold": 1, "name": "寺", "cell": "A1", "territory": 6},
    ]
    names = {"x": "Xa", "y": "Yb", "z": "Zc", "w": "Wd"}
    kinds = [(k, [e["seq"] for e in g]) for k, g in narrate.sections(events)]
    assert kinds == [("move", [1]), ("fight", [2, 3, 4]), ("fight", [5]), ("stronghold", [6])]
    teller = narrate.Teller(names, "zh", MARKUPS["md"])
    told = narrate.story(events, teller, "b")
    assert [s["title"] for s in told] == ["A2 的战斗", "据点动态"]
    assert told[0]["lines"][1] == "〔novel\\_blow〕source **Xa**，target **Yb**，card 【杀 ♠7】，damage 1"
    assert told[0]["lines"][2] == "**Yb** 摸了 1 张牌：【闪 ♥2】。"
    assert [s["title"] for s in narrate.story(events, teller, None, public=True)] == ["据点动态"]
    own = copy.deepcopy(narrate.narration())  # a ruleset's narration is an instance: extend a copy
    own.register({"novel_blow": {"zh": "{source} 对 {target} 出{card}，造成 {damage} 点伤害。", "en": "x"},
                  "novel_start": {"zh": "开打", "en": "go", "section": "fight"}})
    teller.narration = own
    told = own.story(events, teller, "b")
    assert told[0]["lines"][1] == "**Xa** 对 **Yb** 出【杀 ♠7】，造成 1 点伤害。"
    assert own.sections([events[1], {**events[3], "type": "novel_start"}])[1][0] == "fight"
    assert "novel_blow" not in narrate.narration().sentences
    with pytest.raises(ValueError, match="registered twice"):
        own.register({"novel_blow": {"zh": "再次", "en": "again"}})


def test_a_sentence_with_a_bad_placeholder_falls_back_to_the_generic_one():
    teller = narrate.Teller({}, "zh", MARKUPS["bbcode"])
    teller.narration = copy.deepcopy(narrate.narration())
    teller.narration.register({"odd": {"zh": "{missing} 出现", "en": "{missing}"}})
    assert teller.sentence({"type": "odd", "to": "all", "what": "<b>"}) == "〔odd〕what <b>"
    assert teller.sentence({"type": "odd", "to": "all", "what": "[b]"}) == "〔odd〕what [\u200bb]"


def test_environment_is_built_once_and_campaign_templates_override(tmp_path):
    assert environment(TEMPLATES, None) is environment(TEMPLATES, None)
    write(tmp_path / "public.j2", "{{ m.b('Custom') }} {{ title_turn }} {{ fights }}\n")
    game = play(SCENARIO, "golden-posts", 1)
    out = posts(game["states"][0], game["states"][1], game["logs"][0], "zh", tmp_path)
    assert out["public"]["bbcode"] == "[b]Custom[/b] 第 1 回合 1\n"
    assert out["alice"]["md"].startswith("## 第 1 回合 · 私信 · alice")  # private.j2 not overridden


def test_pictures_fog_what_the_player_does_not_see():
    from PIL import Image

    game = play(SCENARIO, "golden-posts", 1)
    before, after = game["states"]
    out = posts(before, after, game["logs"][0], "zh")
    files = out["files"]
    assert sorted(files) == sorted(["gm-map.png", "map-public.png", *(own_picture(files, p) for p in ("alice", "bob", "heidi", "ivan"))])
    from gm_tool.rulesets.grail_war.view import view

    painter = picture.Painter(after["map"], after["strongholds"], after["sides"])
    fog, clear = painter.fog(), painter.clear()
    for player in ("alice", "ivan"):
        im = Image.open(io.BytesIO(files[own_picture(files, player)])).convert("RGB")
        seen = set(view(after, player)["visible"])
        for y in range(6):
            for x in range(8):
                box = picture.cell_box(x, y)
                cell = "ABCDEFGH"[x] + str(y + 1)
                if cell not in seen:
                    assert im.crop(box).tobytes() == fog.crop(box).tobytes(), (player, cell)
        own = next(c for c in after["characters"] if c["player"] == player)["pos"]
        box = picture.cell_box("ABCDEFGH".index(own[0]), int(own[1:]) - 1)
        assert im.crop(box).tobytes() != clear.crop(box).tobytes()  # a marker is drawn there
    board = (0, 0, *clear.size)  # the legend is under the board
    gm = Image.open(io.BytesIO(files["gm-map.png"])).convert("RGB").crop(board)
    public = Image.open(io.BytesIO(files["map-public.png"])).convert("RGB").crop(board)
    assert public.tobytes() == clear.convert("RGB").tobytes() and gm.tobytes() != clear.convert("RGB").tobytes()


def test_resolve_writes_every_post_and_report_prints_them(gm, tmp_path):
    d = tmp_path / "c"
    write(tmp_path / "sc.yaml", yaml.safe_dump(SCENARIO, allow_unicode=True))
    gm("new", d, "--scenario", tmp_path / "sc.yaml", "--seed", "s")
    gm("resolve", d)
    folder = d / "reports" / "turn-001"
    names = sorted(p.name for p in folder.iterdir())
    for who in ("public", "alice", "bob", "heidi", "ivan"):
        for ext in ("bbcode", "md"):
            assert f"{who}.{ext}" in names
        assert f"{who}.html" not in names  # the HTML preview is rendered on demand
        if who != "public":
            assert own_picture(names, who)
    assert "gm-map.png" in names and "map-public.png" in names
    for who, args in (("public", []), ("alice", ["--player", "alice"])):
        for fmt, ext in (("bbcode", "bbcode"), ("markdown", "md")):
            printed = gm("report", d, *args, "--format", fmt).output
            assert printed == (folder / f"{who}.{ext}").read_text("utf-8")
    page = gm("report", d, "--player", "alice", "--format", "html").output
    assert f'<img src="{own_picture(names, "alice")}" alt="map"' in page


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("scenario", ["skirmish", "fuyuki"])
def test_template_sheets_validate_as_they_are(gm, tmp_path, lang, scenario):
    if not (Path(__file__).parents[1] / "gm_tool" / "scenarios" / f"{scenario}.yaml").exists():
        pytest.skip(f"no {scenario} scenario")
    d = tmp_path / "c"
    gm("new", d, "--scenario", scenario, "--seed", "s")
    state = yaml.safe_load((d / "state" / "turn-000.json").read_text("utf-8"))
    players = sorted({c["player"] for c in state["characters"]})
    key = {"zh": "保留", "en": "keep"}[lang]
    for player in players:
        sheet = tmp_path / f"{player}.yaml"
        gm("template", d, player, "--lang", lang, "-o", sheet)
        text = sheet.read_text("utf-8")
        char = next(c for c in state["characters"] if c["player"] == player)
        assert f"{key}: [" in text and ("移动" if lang == "zh" else "move") in text
        assert char["pos"] in text and char["name"] in text
        for card in char["hand"]:
            assert card["name"] in text
        gm("check", d, sheet)
        data = yaml.safe_load(text)
        assert (data["玩家"] if lang == "zh" else data["player"]) == player


def test_stronghold_table_marks_closed_and_destroyed(tmp_path):
    """Ruling M20/O-series: a stronghold the GM closed (流局) or a BERSERKER destroyed says so in
    the public post's stronghold table."""
    from gm_tool import app as ops
    from tests.conftest import grail_posts as render_posts

    data, source = ops.load_scenario("skirmish")
    from gm_tool.rulesets.grail_war import RULESET

    state = RULESET.setup(data, source, "s" * 16)
    after = copy.deepcopy(state)
    after["turn"] = 1
    after["strongholds"][0]["closed"] = True
    after["strongholds"][1]["destroyed"] = True
    out = render_posts(state, after, [], "zh")["public"]["md"]
    assert "| 1 | 柳洞寺 | A1 | 回复 (已关闭) |" in out
    assert "(已毁)" in out and out.count("已关闭") == 1
    en = render_posts(state, after, [], "en")["public"]["md"]
    assert "(closed)" in en and "(destroyed)" in en

"""The GM's desk (`gm serve`) through its web layer, with Flask's test client: the token and the
protection against cross-site requests (403, nothing changed), escaping of everything users
wrote, no file outside the campaign, intake stored exactly as `gm import`/`gm submit` store,
resolve only once confirmed and only the turn previewed, the sent marks (kept outside what
`gm verify` compares), and a whole turn of every ruleset with no desk code of its own."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from gm_tool import app as ops
from gm_tool.core.store import Campaign
from gm_tool.desk import words
from gm_tool.desk.web import create_app
from tests.conftest import tree, write

TOKEN = "t0ken-for-the-tests"
ROOT = Path(__file__).resolve().parents[1]
XSS = "<img src=x onerror=alert(1)>"
RACE = Path(__file__).parent / "toy" / "race.yaml"


class Client:
    """A browser of the desk: it opened the printed address, so it holds the cookie."""

    def __init__(self, roots: list[Path], lang: str = "zh", hosts: set[str] | None = None) -> None:
        self.app = create_app(roots, lang, TOKEN, hosts=hosts)
        self.http = self.app.test_client()
        first = self.http.get(f"/?token={TOKEN}")
        assert first.status_code == 303

    def get(self, url: str, status: int = 200, **kw):
        answer = self.http.get(url, **kw)
        assert answer.status_code == status, (url, answer.status_code, answer.get_data(as_text=True)[:2000])
        return answer

    def post(self, url: str, status: int | None = 303, csrf: str | None = TOKEN, **data):
        form = {k: v for k, v in data.items() if k != "headers"}
        if csrf is not None:
            form["csrf"] = csrf
        answer = self.http.post(url, data=form, headers=data.get("headers", {}))
        if status is not None:
            assert answer.status_code == status, (url, answer.status_code, answer.get_data(as_text=True)[:2000])
        return answer

    def html(self, url: str, status: int = 200) -> str:
        return self.get(url, status).get_data(as_text=True)

    def follow(self, answer) -> str:
        return self.html(answer.headers["Location"])


def text_of(html: str) -> str:
    """The page as a reader sees it (tags dropped, entities read, runs of white space one space)."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html)))


@pytest.fixture
def war(tmp_path, gm) -> Path:
    root = tmp_path / "war"
    gm("new", root, "--scenario", "skirmish", "--seed", "desk-tests-0123456789abcdef-grail")
    return root


# the token and cross-site requests ---------------------------------------------------------------
def test_every_request_needs_the_token(war):
    app = create_app([war], "zh", TOKEN)
    http = app.test_client()
    for url in ("/", "/c/0/", "/c/0/posts", "/c/0/gm", "/static/desk.js", "/c/0/file/0/map-alice.png",
                "/?token=wrong", "/c/0/?token=" + TOKEN[:-1]):
        answer = http.get(url)
        assert answer.status_code == 403, url
        assert "Forbidden" not in answer.get_data(as_text=True) and "令牌" in answer.get_data(as_text=True)
    http.set_cookie("gm_desk", "wrong")
    assert http.get("/c/0/").status_code == 403
    opened = http.get(f"/c/0/posts?turn=0&token={TOKEN}")  # the token moves into a cookie, out of the address
    assert opened.status_code == 303 and opened.headers["Location"] == "/c/0/posts?turn=0"
    cookie = opened.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert http.get("/c/0/posts?turn=0").status_code == 200


@pytest.mark.parametrize("attack", ["no csrf", "wrong csrf", "cross-site", "same-site", "other origin", "null origin",
                                    "no cookie"])
def test_a_cross_site_or_tokenless_post_changes_nothing(war, attack):
    desk = Client([war])
    sheet = "turn: 1\nplayer: alice\n"
    form: dict = {"player": "alice", "turn": "1", "text": sheet, "action": "store"}
    headers = {"cross-site": {"Sec-Fetch-Site": "cross-site"}, "same-site": {"Sec-Fetch-Site": "same-site"},
               "other origin": {"Origin": "http://evil.example"}, "null origin": {"Origin": "null"}}.get(attack, {})
    csrf = {"no csrf": None, "wrong csrf": "guess"}.get(attack, TOKEN)
    if attack == "no cookie":
        desk.http.delete_cookie("gm_desk")
    before = tree(war)
    for url, data in (("/c/0/intake", form), ("/c/0/resolve", {"turn": "1", "confirm": "yes"}),
                      ("/c/0/sent", {"turn": "0", "who": "public", "fmt": "bbcode", "sent": "1"}),
                      ("/c/0/amend", {"action": "set_hp", "arg": ["阿尔托利亚", "2"], "reason": "x", "turn": "0"}),
                      ("/c/0/dice", {"values": "3"}), ("/c/0/verify", {})):
        answer = desk.post(url, 403, csrf, headers=headers, **data)
        assert "令牌" in answer.get_data(as_text=True)
    assert tree(war) == before
    desk.http.set_cookie("gm_desk", TOKEN)
    desk.post("/c/0/intake", 303, **form)  # the same post from the desk's own page goes through
    assert (war / "orders" / "turn-001" / "alice.yaml").read_text("utf-8") == sheet


def test_on_the_loopback_address_only_requests_naming_it_are_served(war):
    """A page of evil.example whose name points at 127.0.0.1 (DNS rebinding) gets nothing."""
    hosts = {"127.0.0.1:8765", "localhost:8765"}
    app = create_app([war], "zh", TOKEN, hosts=hosts)
    http = app.test_client()
    assert http.get(f"/?token={TOKEN}", headers={"Host": "evil.example:8765"}).status_code == 403
    assert http.get(f"/?token={TOKEN}", headers={"Host": "127.0.0.1:8765"}).status_code == 303


def test_pages_allow_no_inline_script_and_nothing_from_elsewhere(war):
    answer = Client([war]).get("/c/0/")
    csp = answer.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert "http://" not in answer.get_data(as_text=True) and "https://" not in answer.get_data(as_text=True)


# escaping and files --------------------------------------------------------------------------
def test_names_sheets_and_messages_are_shown_as_text(war, gm):
    gm("forum", war, "--name", f"alice={XSS}")
    desk = Client([war])
    board = desk.html("/c/0/")
    assert XSS not in board and "&lt;img src=x onerror=alert(1)&gt;" in board
    pasted = f"1.1是否使用角色技能 否\n{XSS}<script>alert(2)</script>\n"
    checked = desk.post("/c/0/intake", 200, player="bob", turn="1", text=pasted, action="check").get_data(as_text=True)
    assert "<script>alert(2)" not in checked and XSS not in checked
    assert XSS + "<script>alert(2)</script>" in text_of(checked)  # the line is named in the error, as text
    sheet = f"turn: 1\nplayer: bob\n# {XSS}\n"
    desk.post("/c/0/intake", player="bob", turn="1", text=sheet, action="store")
    board = desk.html("/c/0/")
    assert XSS not in board and f"# {XSS}" in text_of(board)
    gm("resolve", war)
    posts = desk.html("/c/0/posts?turn=1")
    assert XSS not in posts and XSS in text_of(posts)


def test_no_request_reaches_a_file_outside_the_campaign(war, tmp_path):
    secret = write(tmp_path / "secret.png", "not yours")
    desk = Client([war])
    for url in ("/c/0/file/0/..%2F..%2Fcampaign.yaml", "/c/0/file/0/../../campaign.yaml", "/c/0/file/0/%2Fetc%2Fpasswd",
                "/c/0/file/0/.lock", "/c/0/file/9/map-public.png", "/c/1/", "/c/-1/", "/static/..%2F__init__.py",
                "/static/web.py"):
        assert desk.http.get(url).status_code == 404, url
    picture = sorted((war / "reports" / "turn-000").glob("*.png"))[0]
    assert desk.get(f"/c/0/file/0/{picture.name}").data == picture.read_bytes()
    (war / "reports" / "turn-000" / "stolen.png").symlink_to(secret)
    assert desk.http.get("/c/0/file/0/stolen.png").status_code == 404
    refused = desk.html("/c/0/posts?turn=0", 400)  # a link in the folder: the campaign refused whole, the link named
    assert 'id="text-public"' not in refused and "战役文件夹里有链接" in text_of(refused)
    (war / "reports" / "turn-000" / "stolen.png").unlink()
    (war / "orders" / "turn-001").mkdir(parents=True)
    (war / "orders" / "turn-001" / "bob.yaml").symlink_to(write(tmp_path / "outside.yaml", "- PRIVATE\n"))
    for url in ("/c/0/", "/c/0/preview", "/c/0/gm"):  # a link anywhere: the campaign is refused, nothing read
        page = desk.html(url, 400)
        assert "PRIVATE" not in page and "战役文件夹里有链接" in text_of(page)
    before = tree(war)
    desk.post("/c/0/intake", 400, player="alice", turn="1", text="turn: 1\nplayer: alice\n", action="store")
    assert tree(war) == before


# intake ------------------------------------------------------------------------------------
def test_a_sheet_is_stored_as_gm_submit_stores_it_and_a_replacement_says_so(war, gm, tmp_path):
    desk = Client([war])
    sheet = ops.template(war, "alice", "zh")
    checked = desk.post("/c/0/intake", 200, player="alice", turn="1", text=sheet, action="check").get_data(as_text=True)
    assert "指令表有效（alice）" in text_of(checked) and not (war / "orders").exists()
    stored = desk.follow(desk.post("/c/0/intake", player="alice", turn="1", text=sheet, action="store"))
    assert "已保存为 orders/turn-001/alice.yaml" in text_of(stored)
    twin = tmp_path / "twin"
    gm("new", twin, "--scenario", "skirmish", "--seed", "desk-tests-0123456789abcdef-grail")
    gm("submit", twin, write(tmp_path / "alice.yaml", sheet))
    assert tree(war) == tree(twin)
    checked = desk.post("/c/0/intake", 200, player="alice", turn="1", text=sheet, action="check").get_data(as_text=True)
    assert "保存后将替换已存的指令表 orders/turn-001/alice.yaml" in text_of(checked)
    again = desk.follow(desk.post("/c/0/intake", player="alice", turn="1", text=sheet, action="store"))
    assert "取代了已保存的 alice 的指令表（orders/turn-001/alice.yaml）" in text_of(again)


def test_a_message_is_imported_and_stored_as_gm_import_then_gm_submit(war, gm, tmp_path):
    message = "1.1是否使用角色技能 否\n2.1.对敌人出杀\n3.不出杀\n不使用咒\n本回合移动 B4\n"
    desk = Client([war])
    checked = text_of(desk.post("/c/0/intake", 200, player="bob", turn="1", text=message, action="check").get_data(as_text=True))
    assert "私信读取无误（bob）" in checked and "移动到 B4" in checked
    desk.post("/c/0/intake", player="bob", turn="1", text=message, action="store")
    twin = tmp_path / "twin"
    gm("new", twin, "--scenario", "skirmish", "--seed", "desk-tests-0123456789abcdef-grail")
    gm("import", twin, write(tmp_path / "bob.txt", message), "--player", "bob", "-o", tmp_path / "bob.yaml")
    gm("submit", twin, tmp_path / "bob.yaml")
    assert tree(war) == tree(twin)


def test_a_problem_is_shown_with_its_line_and_nothing_is_stored(war):
    desk = Client([war])
    bad = "turn: 1\nplayer: bob\nmove: {to: Z9}\n"
    page = text_of(desk.post("/c/0/intake", 200, player="bob", turn="1", text=bad, action="store").get_data(as_text=True))
    assert "第 3 行 move.to: 无法识别的坐标 'Z9'" in page and "没有保存" in page
    assert not (war / "orders").exists()


def test_a_yaml_sheet_is_checked_as_a_sheet_and_the_gm_may_say_how_to_read(war):
    """In the grail war, a text that reads as a YAML mapping is a sheet (the importer would read
    its lines as words it does not use); the GM may ask for either reading."""
    desk = Client([war])
    sheet = "turn: 1\nplayer: bob\nmove: {to: B4}\n"
    page = text_of(desk.post("/c/0/intake", 200, player="bob", turn="1", text=sheet, action="check").get_data(as_text=True))
    assert "指令表有效（bob）" in page
    page = text_of(desk.post("/c/0/intake", 200, player="bob", turn="1", text=sheet, action="check",
                             reading="message").get_data(as_text=True))
    assert "不是指令。未使用：「turn」、「1」" in page and "无法理解这一行：'move: {to: B4}'" in page  # read as a message
    message = "1.1是否使用角色技能 否\n本回合移动 Z9\n"
    page = text_of(desk.post("/c/0/intake", 200, player="bob", turn="1", text=message, action="store").get_data(as_text=True))
    assert "移动.目的地: 无法识别的坐标 'Z9'" in page and "移动到 Z9" in page  # the reading is shown with the problem
    assert not (war / "orders").exists()


def test_another_players_sheet_in_a_box_is_refused(war):
    desk = Client([war])
    page = desk.post("/c/0/intake", 200, player="alice", turn="1", text="turn: 1\nplayer: bob\n", action="store")
    assert "这是 bob 的指令表，却粘贴在 alice 的框里" in text_of(page.get_data(as_text=True))
    assert not (war / "orders").exists()


def test_a_page_of_an_earlier_turn_stores_nothing(war, gm):
    gm("resolve", war)
    desk = Client([war])
    page = desk.post("/c/0/intake", 409, player="alice", turn="1", text="turn: 1\nplayer: alice\n", action="store")
    assert "这个页面是第 1 回合的，现在待结算的是第 2 回合" in text_of(page.get_data(as_text=True))
    assert not (war / "orders").exists()


# preview, resolve, posts ----------------------------------------------------------------------
def test_resolve_needs_the_confirmation_and_the_turn_previewed(war, gm):
    desk = Client([war])
    preview = text_of(desk.html("/c/0/preview"))
    assert "第 1 回合预览" in preview and "未交指令、按默认指令行动：alice, bob, heidi, ivan" in preview
    before = tree(war)
    assert "请先勾选确认框" in text_of(desk.post("/c/0/resolve", 400, turn="1").get_data(as_text=True))
    assert "第 2 回合" in text_of(desk.post("/c/0/resolve", 409, turn="2", confirm="yes").get_data(as_text=True))
    with Campaign(war).lock():  # a terminal is at work: the desk says so and waits for nothing
        locked = desk.post("/c/0/resolve", 409, turn="1", confirm="yes").get_data(as_text=True)
    assert "另一个 gm 命令正在修改此战役" in text_of(locked)
    assert tree(war) == before
    posts = desk.follow(desk.post("/c/0/resolve", turn="1", confirm="yes"))
    assert "第 1 回合已结算。状态：state/turn-001.json" in text_of(posts)
    assert (war / "reports" / "turn-001" / "public.bbcode").is_file() and 'id="text-public"' in posts


def test_the_posts_page_shows_every_post_exactly_and_the_files_to_upload(war, gm):
    """Pictures are found by the names the reports folder lists and the posts name, whatever
    those names are; the one no post names (the GM's map) is listed apart."""
    gm("resolve", war)
    page = Client([war]).html("/c/0/posts?turn=1")
    folder = war / "reports" / "turn-001"
    pictures = sorted(p.name for p in folder.glob("*.png"))
    named = set()
    for who in ("public", "alice", "bob", "heidi", "ivan"):
        text = (folder / f"{who}.bbcode").read_text("utf-8")
        area = re.search(rf'<article class="post[^"]*" id="post-{who}">(.*?)</article>', page, re.S).group(1)
        shown = re.search(r'<textarea[^>]*>\n(.*?)</textarea>', area, re.S)
        assert shown is not None and unescape(shown.group(1)) == text  # the exact text the copy button copies
        imgs = re.findall(r'<img src="/c/0/file/1/([^"]+)"', area)
        assert imgs and all(name in text for name in imgs)  # its own picture(s), named in the post
        named.update(imgs)
    uploads = re.search(r'<div class="uploads">(.*?)</div>', page, re.S).group(1)
    assert sorted(re.findall(r">([^<>]+\.png)<", uploads)) == sorted(named)
    gm_only = [p for p in pictures if p not in named]
    assert gm_only and all(p not in uploads and p in page for p in gm_only)  # the GM's own map, apart


def test_a_sent_mark_is_kept_outside_what_verify_compares(war, gm):
    gm("resolve", war)
    desk = Client([war])
    desk.post("/c/0/sent", turn="1", who="bob", fmt="bbcode", sent="1")
    marks = json.loads((war / "desk" / "sent.json").read_text("utf-8"))
    assert list(marks) == ["turn-001"] and list(marks["turn-001"]) == ["bob"]
    assert Client([war]).html("/c/0/posts?turn=1").count('class="post sent"') == 1  # a second GM sees it
    assert ops.verify(war)["turns"] == 1
    desk.post("/c/0/sent", turn="1", who="bob", fmt="bbcode", sent="0")
    assert json.loads((war / "desk" / "sent.json").read_text("utf-8")) == {}
    desk.post("/c/0/sent", 400, turn="1", who="../campaign", fmt="bbcode", sent="1")


def test_a_post_changed_after_its_mark_says_so(war, gm, tmp_path):
    gm("resolve", war)
    desk = Client([war])
    desk.post("/c/0/sent", turn="1", who="bob", fmt="bbcode", sent="1")
    gm("rollback", war, "--to", "0")
    gm("submit", war, write(tmp_path / "bob.yaml", "turn: 1\nplayer: bob\nmove: {to: B4}\n"))
    gm("resolve", war)
    page = text_of(desk.html("/c/0/posts?turn=1"))
    assert "帖子在标记之后变了" in page


def test_a_sent_file_the_desk_did_not_write_is_left_alone(war, gm):
    gm("resolve", war)
    (war / "desk").mkdir()
    write(war / "desk" / "sent.json", "[1, 2")
    desk = Client([war])
    page = desk.post("/c/0/sent", 400, turn="1", who="bob", fmt="bbcode", sent="1").get_data(as_text=True)
    assert "desk/sent.json" in page and (war / "desk" / "sent.json").read_text("utf-8") == "[1, 2"
    shown = desk.html("/c/0/posts?turn=1")  # the posts are still there to copy, the problem named
    assert 'id="text-bob"' in shown and "desk/sent.json" in text_of(shown)
    assert "已发 ?" in text_of(desk.html("/c/0/"))


def test_a_pasted_text_is_stored_with_the_lines_the_player_wrote(war):
    """A browser sends a text box's lines as CRLF: the sheet is stored as written (LF), as gm submit
    stores the file the player sent."""
    desk = Client([war])
    desk.post("/c/0/intake", player="alice", turn="1", text="turn: 1\r\nplayer: alice\r\n", action="store")
    assert (war / "orders" / "turn-001" / "alice.yaml").read_bytes() == b"turn: 1\nplayer: alice\n"


# GM tools ------------------------------------------------------------------------------------
def test_gm_edits_rollback_and_verify_from_the_forms(war, gm):
    gm("resolve", war)
    desk = Client([war])
    tools = desk.html("/c/0/gm")
    for action in ops.open_campaign(war).ruleset.amend_actions():
        assert f'id="edit-{action.replace("_", "-")}"' in tools
    done = desk.follow(desk.post("/c/0/amend", action="set_hp", arg=["高文", "2"], reason="伤害算错", turn="1"))
    assert "已记录 GM 调整：amendments/after-001/001.yaml" in text_of(done)
    assert "set_hp 高文 2" in text_of(done)
    bad = desk.post("/c/0/amend", 400, action="set_hp", arg=["高文", "两"], reason="x", turn="1").get_data(as_text=True)
    assert "参数 hp 应为整数" in text_of(bad) or "hp" in text_of(bad)
    verified = text_of(desk.post("/c/0/verify", 200).get_data(as_text=True))
    assert "校验通过：1 个回合" in verified and "含 1 项 GM 调整" in verified
    assert "请先勾选确认框" in text_of(desk.post("/c/0/rollback", 400, to="0", **{"from": "1"}).get_data(as_text=True))
    assert (war / "state" / "turn-001.json").is_file()
    rolled = desk.follow(desk.post("/c/0/rollback", to="0", confirm="yes", **{"from": "1"}))
    assert "已回到第 0 回合之后" in text_of(rolled) and not (war / "state" / "turn-001.json").exists()


def test_forum_dice_for_a_ruleset_that_uses_them(tmp_path, gm):
    root = tmp_path / "duel"
    gm("new", root, "--scenario", "hunlu_duel", "--seed", "desk-tests-0123456789abcdef-hunlu")
    desk = Client([root])
    assert 'id="dice"' in desk.html("/c/0/gm")
    done = desk.follow(desk.post("/c/0/dice", values="3, 5 6", note="论坛第 12 楼", turn="1"))
    assert "第 1 回合的论坛骰子已保存" in text_of(done) and "3 5 6" in text_of(done)
    assert "骰子点数 '7' 无效" in text_of(desk.post("/c/0/dice", 400, values="7", turn="1").get_data(as_text=True))
    war = tmp_path / "war"
    gm("new", war, "--scenario", "skirmish", "--seed", "desk-tests-0123456789abcdef-grail")
    assert 'id="dice"' not in Client([war]).html("/c/0/gm")


# every ruleset -------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", ["skirmish", "hunlu_duel", "guangying", "shenjianglu", str(RACE)])
def test_a_whole_turn_of_every_ruleset_with_no_desk_code_of_its_own(scenario, tmp_path, gm):
    root = tmp_path / "c"
    gm("new", root, "--scenario", scenario, "--seed", "desk-tests-0123456789abcdef-every")
    desk = Client([root])
    board = text_of(desk.html("/c/0/"))
    due = ops.status(root)["due"]
    assert "第 1 回合" in board and all(p in board for p in due)
    for player in due:  # each due player's own template, pasted and stored
        sheet = ops.template(root, player, "zh")
        desk.post("/c/0/intake", player=player, turn="1", text=sheet, action="store")
        assert (root / "orders" / "turn-001" / f"{player}.yaml").read_text("utf-8") == sheet
    assert ops.status(root)["missing"] == []
    desk.html("/c/0/preview")
    desk.html("/c/0/gm")
    posts = desk.follow(desk.post("/c/0/resolve", turn="1", confirm="yes"))
    folder = root / "reports" / "turn-001"
    for name in sorted(p.name for p in folder.iterdir() if p.suffix == ".bbcode"):
        assert f'id="text-{name[:-len(".bbcode")]}"' in posts
    desk.post("/c/0/sent", turn="1", who="public", fmt="bbcode", sent="1")
    assert ops.verify(root)["turns"] == 1


def test_english_pages_with_lang_en(war):
    board = text_of(Client([war], "en").html("/c/0/"))
    assert "Turn 1" in board and "Check and store" in board and "第 1 回合" not in board


def test_the_desk_words_are_data_in_the_one_format():
    from gm_tool.core import safeyaml, texts

    data = safeyaml.load_mapping(words.DATA / texts.FILE)  # no duplicate key
    assert texts.problems(data, "desk") == []  # desk.* codes, labels with the same keys in zh and en
    assert words.labels("zh")["nav"]["board"] == "回合" and words.labels("en")["nav"]["board"] == "Turn"
    source = "".join(p.read_text("utf-8") for p in (ROOT / "gm_tool" / "desk").glob("*.py"))
    assert not re.search(r"[\u4e00-\u9fff]", source)  # no Chinese word in the code: all in data/messages.yaml
    assert 'lang == "zh"' not in source


def test_several_campaigns_on_one_desk(war, tmp_path, gm):
    other = tmp_path / "duel"
    gm("new", other, "--scenario", "hunlu_duel", "--seed", "desk-tests-0123456789abcdef-hunlu")
    index = text_of(Client([war, other]).html("/"))
    assert "war" in index and "duel" in index and "grail_war" in index and "hunlu" in index


# the command -------------------------------------------------------------------------------
def _serve(*args: str | Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GM_LANG", None)
    return subprocess.Popen([sys.executable, "-m", "gm_tool", "serve", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _stop(proc: subprocess.Popen) -> tuple[str, str]:
    proc.terminate()
    out, err = proc.communicate(timeout=10)
    return out, err


def test_gm_serve_prints_one_line_with_the_address_and_listens_on_loopback(war):
    import urllib.error
    import urllib.request

    proc = _serve(war, "--port", "0")
    try:
        line = proc.stdout.readline()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{40,}\n", line)
        base = line.split("/?")[0]
        with pytest.raises(urllib.error.HTTPError) as denied:
            urllib.request.urlopen(base + "/c/0/", timeout=10)
        assert denied.value.code == 403
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(line.strip(), timeout=10) as page:
            assert "第 1 回合" in page.read().decode("utf-8")
    finally:
        out, err = _stop(proc)
    assert out == "" and "警告" not in err


def test_gm_serve_warns_off_loopback_and_refuses_a_folder_that_is_no_campaign(war, tmp_path, gm):
    proc = _serve(war, "--port", "0", "--host", "0.0.0.0")
    try:
        line = proc.stdout.readline()
        assert line.startswith("http://0.0.0.0:")
    finally:
        _, err = _stop(proc)
    assert "本机以外的人也能访问" in err
    bad = gm("serve", tmp_path / "nothing", code=1)
    assert "campaign.yaml" in bad.stderr or "不是战役文件夹" in bad.stderr


def test_the_desk_stays_out_of_the_cli_start_up(tmp_path, war):
    """`gm resolve` (the fast path) and a typer command import neither Flask nor waitress."""
    probe = ("import atexit, sys; atexit.register(lambda: sys.stderr.write('\\nWEB=%s' % any(m in sys.modules for m in "
             "('flask', 'waitress', 'werkzeug', 'gm_tool.desk'))));"
             "from gm_tool.entry import main; sys.argv = ['gm'] + sys.argv[1:]; main()")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for args in (["resolve", str(war)], ["status", str(war)]):
        run = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, env=env)
        assert run.returncode == 0, run.stderr
        assert run.stderr.endswith("WEB=False")

"""The GM's desk end to end in a real browser: Debian's headless Chromium, driven by Playwright,
through a whole turn of the grail war (simultaneous, messages imported) and of hunlu (sequential,
YAML sheets, forum dice): paste two messages, see an error inline, fix it, store, preview,
resolve, copy a post (the clipboard holds the post's exact text), mark it sent, reload and see the
mark, apply a GM edit, roll back. A screenshot of each page is saved under the test's temporary
folder.

Skipped on a machine without Chromium or Playwright, never in CI (``CI`` set): there a missing
browser fails the test. `.ci/run` installs Debian's chromium."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gm_tool import app as ops

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")) if p
                 and os.path.exists(p)), None)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]
XSS = "<img src=x onerror=alert(1)>"


def _require_browser() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing = "playwright is not installed (pip install '.[test]')"
    else:
        missing = None if CHROMIUM else "no chromium on this machine (apt-get install chromium)"
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {missing}")
        pytest.skip(missing)


@pytest.fixture(scope="module")
def browser():
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Desk:
    """`gm serve DIR` in its own process, as a GM starts it."""

    def __init__(self, root: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        env.pop("GM_LANG", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "gm_tool", "serve", str(root), "--port", "0", *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.line = self.proc.stdout.readline().strip()
        if not self.line.startswith("http://127.0.0.1:"):
            self.stop()
            raise AssertionError(f"gm serve printed {self.line!r}: {self.proc.stderr.read()}")
        self.base = self.line.split("/?token=")[0]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            stream.close()


@pytest.fixture
def desk_of():
    started: list[Desk] = []

    def start(root: Path, *args: str) -> Desk:
        started.append(Desk(root, *args))
        return started[-1]

    yield start
    for desk in started:
        desk.stop()


class Tab:
    """A browser tab on a desk: its page and whatever alert or script error it met."""

    def __init__(self, browser, desk: Desk, root: Path) -> None:
        self.root, self.desk = root, desk
        self.context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="zh-CN")
        self.context.set_default_timeout(10_000)
        self.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=desk.base)
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.goto(desk.line)


@pytest.fixture
def tab_on(browser, desk_of, gm, tmp_path):
    """``tab_on(scenario, seed, forum names...)``: a new campaign, `gm serve` on it, a tab at its address;
    at the end no alert was shown and no script failed."""
    tabs: list[Tab] = []

    def start(scenario: str, seed: str, *names: str) -> Tab:
        root = tmp_path / scenario
        gm("new", root, "--scenario", scenario, "--seed", seed)
        for name in names:
            gm("forum", root, "--name", name)
        tabs.append(Tab(browser, desk_of(root), root))
        return tabs[-1]

    yield start
    for tab in tabs:
        tab.context.close()
        assert tab.dialogs == [] and tab.errors == []


def shoot(page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    assert (folder / f"{name}.png").stat().st_size > 10_000


def paste(page, player: str, text: str, button: str) -> None:
    box = page.locator(f"#p-{player} details.intake")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    box.locator("textarea").fill(text)
    box.get_by_role("button", name=button, exact=True).click()
    page.wait_for_load_state()


def copy_and_check(page, root: Path, turn: int, who: str) -> None:
    """Copy a post with its button: the clipboard holds the stored post, byte for byte."""
    post = page.locator(f"#post-{who}")
    post.get_by_role("button", name="复制").click()
    post.get_by_role("button", name="已复制").wait_for()
    want = (root / "reports" / f"turn-{turn:03d}" / f"{who}.bbcode").read_text("utf-8")
    assert page.evaluate("navigator.clipboard.readText()") == want


def mark_sent_and_reload(page, root: Path, turn: int, who: str) -> None:
    page.locator(f"#post-{who}").get_by_role("button", name="标记为已发").click()
    page.wait_for_load_state()
    page.reload()
    post = page.locator(f"#post-{who}")
    assert "sent" in post.get_attribute("class")
    assert post.get_by_role("button", name="取消标记").is_visible()
    marks = json.loads((root / "desk" / "sent.json").read_text("utf-8"))
    assert list(marks[f"turn-{turn:03d}"]) == [who]


def gm_edit(page, action: str, args: list[str], reason: str) -> None:
    """A GM edit from its form on the GM tools page."""
    page.get_by_role("link", name="GM 工具").click()
    edit = page.locator(f"#edit-{action}")
    edit.locator("summary").click()
    for i, value in enumerate(args):
        edit.locator("input[name=arg]").nth(i).fill(value)
    edit.locator("input[name=reason]").fill(reason)
    edit.get_by_role("button", name="记录调整").click()
    page.wait_for_load_state()


BOB_BAD = "1.1是否使用角色技能 否\n2.1.对敌人出杀\n胡说八道 <b>x</b>\n3.1.对杀出闪\n本回合移动 Z9\n"
BOB_GOOD = "1.1是否使用角色技能 否\n2.1.对敌人出杀\n3.1.对杀出闪\n不使用咒\n本回合移动 B4\n"
ALICE = "0.保留【闪】【杀】\n1.1是否使用角色技能 否\n2.1.对敌人出杀\n不使用咒\n本回合移动 A4\n"


def test_a_grail_war_turn_on_the_desk(tab_on, tmp_path):
    tab = tab_on("skirmish", "desk-e2e-grail-seed-0123456789abcdef", f"alice={XSS}")
    page, root = tab.page, tab.root
    assert page.url == tab.desk.base + "/c/0/"  # the token went into the cookie, out of the address
    assert page.locator("h1").inner_text() == "第 1 回合"
    assert XSS in page.locator("#p-alice h3").inner_text()  # a display name stays text
    shoot(page, tmp_path, "1-board")

    paste(page, "bob", BOB_BAD, "检查")  # an error, inline, beside the reading of every line
    problems = page.locator("#p-bob .result .problems li")
    assert problems.count() == 1 and "移动.目的地" in problems.first.inner_text() and "'Z9'" in problems.first.inner_text()
    reading = page.locator("#p-bob table.reading")
    assert "本回合移动 Z9" in reading.inner_text() and "胡说八道 <b>x</b>" in reading.inner_text()
    assert not (root / "orders" / "turn-001").exists()
    shoot(page, tmp_path, "2-intake-error")
    paste(page, "bob", BOB_GOOD, "检查")  # fixed: the reading, line by line
    assert "私信读取无误（bob）" in page.locator("#p-bob .result").inner_text()
    imported = ops.import_message(root, _write(tmp_path / "bob.txt", BOB_GOOD), "bob", "zh")
    assert page.locator("#p-bob table.reading tr").count() == 1 + len(imported["lines"])
    paste(page, "bob", BOB_GOOD, "检查并保存")
    assert "已保存为 orders/turn-001/bob.yaml" in page.locator(".notice").inner_text()
    assert page.locator("#p-bob .tag.ok").is_visible()
    paste(page, "alice", ALICE, "检查并保存")
    paste(page, "alice", ALICE, "检查并保存")  # a second time: it says what it replaced
    assert "取代了已保存的 alice 的指令表" in page.locator(".notice").inner_text()
    assert (root / "orders" / "turn-001" / "bob.yaml").read_bytes() == imported["yaml"].encode()  # gm import + submit
    shoot(page, tmp_path, "3-board-stored")

    page.get_by_role("link", name="预览第 1 回合 →").click()
    assert page.locator("h1").inner_text() == "第 1 回合预览"
    assert page.locator("article.post").count() == 5 and not (root / "state" / "turn-001.json").exists()
    shoot(page, tmp_path, "4-preview")
    page.get_by_role("button", name="结算第 1 回合").click()  # unconfirmed: the browser holds it back
    assert not (root / "state" / "turn-001.json").exists()
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="结算第 1 回合").click()
    page.wait_for_load_state()
    assert (root / "state" / "turn-001.json").is_file()
    assert "第 1 回合已结算" in page.locator(".notice").inner_text()
    assert page.locator("article.post").count() == 5
    assert page.locator("#post-bob img").count() >= 1  # the post's picture, served from its folder
    assert page.locator("#post-bob img").first.evaluate("img => img.naturalWidth") > 100
    copy_and_check(page, root, 1, "bob")
    mark_sent_and_reload(page, root, 1, "bob")
    assert page.locator("#sent-count").inner_text() == "已发 1 / 5"
    shoot(page, tmp_path, "5-posts")

    gm_edit(page, "set-hp", ["高文", "2"], "上回合伤害算错")
    assert "已记录 GM 调整：amendments/after-001/001.yaml" in page.locator(".notice").inner_text()
    assert "上回合伤害算错" in page.locator("main").inner_text()
    shoot(page, tmp_path, "6-gm-edit")
    page.get_by_role("button", name="校验全部回合").click()
    page.wait_for_load_state()
    assert "校验通过：1 个回合" in page.locator("#verify-result").inner_text()

    rollback = page.locator("#rollback")
    rollback.get_by_role("button", name="回退").click()  # unconfirmed: nothing happens
    assert (root / "state" / "turn-001.json").is_file()
    rollback.get_by_role("checkbox").check()
    rollback.get_by_role("button", name="回退").click()
    page.wait_for_load_state()
    assert not (root / "state" / "turn-001.json").exists()
    assert page.locator("h1").inner_text() == "第 1 回合"
    assert "已回到第 0 回合之后" in page.locator(".notice").inner_text()
    shoot(page, tmp_path, "7-rolled-back")


HUNLU_BAD = "turn: 1\nplayer: bob\nunit: tw\nactions:\n  - move: [Z99]\n"
HUNLU_GOOD = "turn: 1\nplayer: bob\nunit: tw\nactions:\n  - move: [C6]\n"
HUNLU_STANDING = "turn: 1\nplayer: alice\nstanding:\n  reserve_order: [tj, dm, tw1]\n"


def test_a_hunlu_turn_on_the_desk(tab_on, tmp_path):
    tab = tab_on("hunlu_duel", "desk-e2e-hunlu-seed-0123456789abcdef")  # bob's 天威剑君 (tw) acts first
    page, root = tab.page, tab.root
    assert page.locator("#p-bob .tag").first.inner_text() == "应交"
    paste(page, "bob", HUNLU_BAD, "检查并保存")
    assert "Z99" in page.locator("#p-bob .result .problems").inner_text()
    assert not (root / "orders" / "turn-001" / "bob.yaml").exists()
    shoot(page, tmp_path, "1-intake-error")
    paste(page, "bob", HUNLU_GOOD, "检查并保存")
    assert (root / "orders" / "turn-001" / "bob.yaml").read_bytes() == HUNLU_GOOD.encode()  # the lines as pasted
    page.locator("details.others > summary").click()
    paste(page, "alice", HUNLU_STANDING, "检查并保存")  # standing orders of a player not due
    assert (root / "orders" / "turn-001" / "alice.yaml").read_bytes() == HUNLU_STANDING.encode()

    page.get_by_role("link", name="GM 工具").click()
    page.locator("#dice input[name=values]").fill("3 5")
    page.locator("#dice input[name=note]").fill("论坛第 12 楼")
    page.get_by_role("button", name="保存骰子").click()
    page.wait_for_load_state()
    assert "3 5" in page.locator("#dice").inner_text()
    shoot(page, tmp_path, "2-dice")

    page.get_by_role("link", name="预览与结算").click()
    shoot(page, tmp_path, "3-preview")
    page.get_by_role("checkbox").check()
    page.get_by_role("button", name="结算第 1 回合").click()
    page.wait_for_load_state()
    assert (root / "state" / "turn-001.json").is_file()
    copy_and_check(page, root, 1, "public")
    mark_sent_and_reload(page, root, 1, "public")
    shoot(page, tmp_path, "4-posts")

    gm_edit(page, "set-shen", ["tw", "3"], "补记")
    assert (root / "amendments" / "after-001" / "001.yaml").is_file()
    rollback = page.locator("#rollback")
    rollback.get_by_role("checkbox").check()
    rollback.get_by_role("button", name="回退").click()
    page.wait_for_load_state()
    assert not (root / "state" / "turn-001.json").exists()
    assert (root / "orders" / "turn-001" / "bob.yaml").is_file()  # the sheets of the turn stay
    shoot(page, tmp_path, "5-rolled-back")


def _write(path: Path, text: str) -> Path:
    path.write_text(text, "utf-8")
    return path

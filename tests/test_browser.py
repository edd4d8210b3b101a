"""The HTML preview of a private post in a real browser (headless Chromium; `.ci/run` installs
Debian's chromium when it is absent; skipped locally without it): it renders with no console
message (the page holds no script, so any message is an error), and the screenshot shows the
map picture the page references by a relative path."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from gm_tool.core.render import markdown_to_html
from tests.conftest import grail_posts as posts
from tests.conftest import player_picture
from tests.regen_golden import SCENARIO, play

CHROMIUM = next((p for p in (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")) if p), None)


@pytest.fixture(autouse=True)
def _chromium() -> None:
    """Skipped on a machine without Chromium, never in CI (``CI`` set): there it is a failure."""
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run the browser tests: no chromium (.ci/run installs Debian's package)")
        pytest.skip("no chromium on this machine (CI installs it)")


def browse(page: Path, shot: Path, tmp: Path, attempts: int = 3) -> list[str]:
    """Open ``page`` headless, save a screenshot; return the console lines Chromium logged.

    A loaded machine sometimes makes headless Chromium exit before it writes the screenshot
    (its own start-up, not the page): that is tried again, up to ``attempts`` times."""
    for attempt in range(attempts):
        cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--disable-extensions", f"--user-data-dir={tmp / f'profile-{attempt}'}", "--window-size=1000,2600",
               "--force-device-scale-factor=1", "--enable-logging=stderr", "--v=0",
               f"--screenshot={shot}", page.resolve().as_uri()]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            continue
        if shot.exists():
            return [line for line in run.stderr.splitlines() if ":CONSOLE" in line]
    raise AssertionError(f"chromium wrote no screenshot in {attempts} attempts")


def colours(png: bytes) -> Counter:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        data = im.convert("RGB").tobytes()
    return Counter(zip(data[0::3], data[1::3], data[2::3]))


def shows(shot: bytes, picture: bytes) -> bool:
    """The screenshot holds the picture: each of its five main colours at least as often."""
    have = colours(shot)
    return all(have[c] >= n for c, n in colours(picture).most_common(5))


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    game = play(SCENARIO, "golden-posts", 2)
    out = posts(game["states"][1], game["states"][2], game["logs"][1], "zh")
    folder = tmp_path_factory.mktemp("report")
    for who, formats in out.items():
        if who == "files":
            for name, data in formats.items():
                (folder / name).write_bytes(data)
        else:
            for fmt, text in formats.items():
                (folder / f"{who}.{fmt}").write_text(text, "utf-8")
            # the preview a GM gets from `gm report --format html`
            (folder / f"{who}.html").write_text(markdown_to_html(formats["md"], title=who), "utf-8")
    return folder


def report_files(folder):
    return [p.name for p in folder.iterdir()]


def test_private_preview_renders_without_console_errors_and_shows_the_map(report, tmp_path):
    shot = tmp_path / "shot.png"
    console = browse(report / "alice.html", shot, tmp_path)
    assert console == []
    assert shows(shot.read_bytes(), (report / player_picture(report_files(report), "alice")).read_bytes())


def test_public_preview_shows_the_public_map(report, tmp_path):
    shot = tmp_path / "shot.png"
    assert browse(report / "public.html", shot, tmp_path) == []
    assert shows(shot.read_bytes(), (report / "map-public.png").read_bytes())


def test_the_checks_catch_a_broken_page(report, tmp_path):
    """Without its picture the screenshot lacks the map; a script error is logged."""
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "alice.html").write_text((report / "alice.html").read_text("utf-8"), "utf-8")
    shot = tmp_path / "shot.png"
    browse(broken / "alice.html", shot, tmp_path)
    assert not shows(shot.read_bytes(), (report / player_picture(report_files(report), "alice")).read_bytes())
    (broken / "bad.html").write_text("<!DOCTYPE html><p>x</p><script>nosuchfunction()</script>", "utf-8")
    assert any("nosuchfunction" in line for line in browse(broken / "bad.html", tmp_path / "bad.png", tmp_path))

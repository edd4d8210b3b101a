"""The GM's desk (issue 26): a 14-player turn board renders in <= 200 ms of server time.

A fuyuki campaign (14 players) with turn 1 resolved from bot sheets and all 14 sheets of turn 2
stored (one of them invalid, so the board shows a problem), the posts of turn 1 half marked sent.
Timed in process through the desk's WSGI app (Flask's test client: the whole request, routing,
token check, the app functions and the page, without the network): median of 30 requests after
one warm-up, wall clock and CPU. The posts page (15 posts) and the GM tools are timed for
information. Run: .venv/bin/python bench/bench_desk.py"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm_tool import app  # noqa: E402
from gm_tool.core.chance import Chance  # noqa: E402
from gm_tool.core.store import atomic_write, dump_yaml  # noqa: E402
from gm_tool.desk.web import create_app  # noqa: E402

TARGET_MS = 200.0
RUNS = 30


def campaign(folder: Path) -> Path:
    root = folder / "fuyuki"
    app.new_campaign(root, "fuyuki", seed="bench-desk-0123456789abcdef0123456789")
    for n in (1, 2):
        op = app.open_campaign(root)
        state = op.state()
        chance = Chance("bench-desk", f"bots-{n}")
        for player in op.ruleset.due(state):
            sheet = op.ruleset.bot_sheet(state, player, "greedy", chance)
            path = folder / f"{player}.yaml"
            atomic_write(path, dump_yaml(sheet))
            app.submit_sheet(root, path, "zh")
        if n == 1:
            app.resolve(root)
    first = app.status(root)["received"][0]  # one stored sheet made invalid: the board lists its problem
    target = root / "orders" / "turn-002" / f"{first}.yaml"
    atomic_write(target, target.read_text("utf-8") + "move: {to: Z99}\n")
    return root


def timed(client, url: str) -> tuple[float, float, int]:
    client.get(url)  # warm-up: templates compiled, modules imported
    wall, cpu = [], []
    size = 0
    for _ in range(RUNS):
        t, c = time.perf_counter(), time.process_time()
        answer = client.get(url)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        assert answer.status_code == 200, (url, answer.status_code)
        size = len(answer.data)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000, size


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = campaign(Path(tmp))
        desk = create_app([root], "zh", "bench")
        client = desk.test_client()
        client.get("/?token=bench")
        for who in ("public", "alice", "bob", "carol", "dave", "erin", "frank"):
            client.post("/c/0/sent", data={"csrf": "bench", "turn": "1", "who": who, "fmt": "bbcode", "sent": "1"})
        status = app.status(root)
        print(f"campaign: fuyuki, {len(status['due'])} players due, {len(status['received'])} sheets stored, "
              f"{len(status['invalid'])} invalid")
        ok = True
        for label, url, bar in (("turn board", "/c/0/", TARGET_MS), ("posts of turn 1", "/c/0/posts?turn=1", None),
                                ("GM tools", "/c/0/gm", None)):
            wall, cpu, size = timed(client, url)
            verdict = "" if bar is None else (f" <= {bar:.0f} ms: ok" if wall <= bar else f" > {bar:.0f} ms: MISSED")
            ok = ok and (bar is None or wall <= bar)
            print(f"{label:16} median {wall:6.1f} ms wall, {cpu:6.1f} ms CPU, {size / 1024:6.1f} KB{verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

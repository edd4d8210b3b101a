"""Play the example sheets of orders/guangying/ from its scenario and write the posts they give.

    python -m tests.guangying.make_examples          # rewrite reports/guangying/ and the template

The test ``test_examples.py`` replays them and compares every post with the committed files."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from gm_tool import app

REPO = Path(__file__).resolve().parents[2]
ORDERS = REPO / "orders" / "guangying"
REPORTS = REPO / "reports" / "guangying"
SEED = "example-seed-guangying-0123456789"


def play(root: Path) -> str:
    """Play the examples into the campaign folder ``root``; return the next sheet's template."""
    app.new_campaign(root, str(ORDERS / "scenario.yaml"), SEED, "zh")
    for sheet in sorted(ORDERS.glob("turn-*.yaml")):
        app.submit(root, sheet, "zh")
        app.resolve(root)
    state = app.open_campaign(root).state()
    return app.template(root, state["next"], "zh") if state["next"] else ""


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "c"
        template = play(root)
        if REPORTS.exists():
            shutil.rmtree(REPORTS)
        shutil.copytree(root / "reports", REPORTS)
        for old in ORDERS.glob("template-*.yaml"):
            old.unlink()
        if template:
            (ORDERS / "template-next.yaml").write_text(template, "utf-8")
    print(REPORTS)
    return 0


if __name__ == "__main__":
    sys.exit(main())

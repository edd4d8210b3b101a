"""Campaign operations behind the CLI, game-neutral: each returns plain data or text.

The CLI (``gm_tool.cli``) only parses arguments and prints; everything a command does is here,
so it can be called from tests, benches and other programs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm_tool.core import ruleset as rulesets
from gm_tool.core import safeyaml
from gm_tool.core.chance import commitment, new_seed
from gm_tool.core.events import read_jsonl
from gm_tool.core.store import Campaign, atomic_dir, atomic_write, dump_json, dump_yaml, safe_name, turn_name
from gm_tool.errors import USAGE, GmError, Problem

BUNDLED = Path(__file__).parent / "scenarios"
POST_FORMATS = ("bbcode", "md")
FORMATS = ("bbcode", "markdown", "html")


# scenarios ---------------------------------------------------------------------------------
def bundled_scenarios() -> list[str]:
    return sorted(p.stem for p in BUNDLED.glob("*.yaml"))


def load_scenario(ref: str) -> tuple[dict[str, Any], str]:
    """A bundled scenario by name, or a scenario file by path. Returns (mapping, source name)."""
    path = Path(ref)
    if ref in bundled_scenarios() and not path.exists():
        path = BUNDLED / f"{ref}.yaml"
    elif not path.exists():
        raise GmError.one("scenario.unknown", field="--scenario", exit_code=USAGE, name=ref,
                          allowed=", ".join(bundled_scenarios()))
    data = safeyaml.load_mapping(path, display=str(ref) if path.parent == BUNDLED else str(path))
    return data, (str(ref) if path.parent == BUNDLED else str(path))


def _ruleset_of(scenario: dict[str, Any], source: str) -> rulesets.Ruleset:
    name = scenario.get("ruleset")
    if name is None:
        raise GmError.one("field.required", file=source, field="ruleset")
    try:
        return rulesets.get(name)
    except GmError as exc:
        exc.problems[0].file, exc.exit_code = source, 1
        raise


# opening a campaign ------------------------------------------------------------------------
@dataclass
class Open:
    campaign: Campaign
    meta: dict[str, Any]
    ruleset: rulesets.Ruleset

    @property
    def lang(self) -> str:
        return self.meta.get("lang", "zh")

    def state(self, n: int | None = None) -> dict[str, Any]:
        return self.campaign.load_state(self.campaign.latest() if n is None else n)

    def templates_dir(self) -> Path | None:
        folder = self.campaign.root / "templates"
        return folder if folder.is_dir() else None


def open_campaign(root: Path) -> Open:
    campaign = Campaign(root).require()
    meta = campaign.meta()
    return Open(campaign, meta, _ruleset_of(meta, str(campaign.meta_path)))


def _initial_state(op: Open, seed: str) -> dict[str, Any]:
    scenario_path = op.campaign.root / "scenario.yaml"
    scenario = safeyaml.load_mapping(scenario_path)
    return op.ruleset.setup(scenario, str(scenario_path), seed)


def new_campaign(root: Path, scenario_ref: str, seed: str | None = None, lang: str = "zh") -> dict[str, Any]:
    root = Path(root)
    if root.exists() and (not root.is_dir() or any(root.iterdir())):
        raise GmError.one("campaign.exists", file=str(root))
    scenario, source = load_scenario(scenario_ref)
    ruleset = _ruleset_of(scenario, source)
    seed = seed if seed is not None else new_seed()
    try:
        state = ruleset.setup(scenario, source, seed)  # validates before anything is written
    except GmError as exc:  # point each problem at its line in the scenario file
        from gm_tool.core.yamlpos import annotate_file

        raise annotate_file(exc, source, Path(source) if Path(source).is_file() else BUNDLED / f"{source}.yaml")
    players = ruleset.players(state)
    meta = {"ruleset": ruleset.name, "scenario": scenario.get("name", Path(source).stem),
            "players": players, "lang": lang, "seed_commitment": commitment(seed)}
    created = not root.exists()
    try:
        atomic_write(root / "secret" / "seed", seed + "\n")
        atomic_write(root / "scenario.yaml", dump_yaml(scenario))
        campaign = Campaign(root)
        atomic_write(campaign.state_path(0), dump_json(state))
        atomic_write(campaign.meta_path, dump_yaml(meta))  # last: the folder is a campaign from here
    except BaseException:
        if created:
            import shutil

            shutil.rmtree(root, ignore_errors=True)
        raise
    return {"dir": str(root), "players": players, "commitment": meta["seed_commitment"]}


# orders ------------------------------------------------------------------------------------
def _require_player(op: Open, player: str, source: str | None = None) -> None:
    players = op.ruleset.players(op.state())
    if player not in players:
        raise GmError.one("player.unknown", file=source, field="player", player=player, allowed=", ".join(players))


def check_files(op: Open, files: list[Path], lang: str, state: dict[str, Any] | None = None) -> dict[str, tuple[Path, Any]]:
    """Validate sheets against ``state`` (default: the latest); return {player: (path, orders)}.
    Raise one GmError with every problem."""
    state = op.state() if state is None else state
    problems: list[Problem] = []
    result: dict[str, tuple[Path, Any]] = {}
    for path in files:
        try:
            sheet = safeyaml.load_mapping(path)
            orders = op.ruleset.parse_orders(state, sheet, str(path), lang)
        except GmError as exc:
            from gm_tool.core.yamlpos import annotate_file

            problems.extend(annotate_file(exc, str(path), path).problems)
            continue
        player = orders.player
        if player in result:
            problems.append(Problem("orders.duplicate_player", str(path), "player", {"player": player}))
        result[player] = (path, orders)
    if problems:
        raise GmError(problems)
    return result


def submit(root: Path, file: Path, lang: str) -> Path:
    op = open_campaign(root)
    with op.campaign.lock():
        (player, (path, _)), = check_files(op, [file], lang).items()
        if not safe_name(player):
            raise GmError.one("player.bad_name", file=str(path), field="player", player=player)
        target = op.campaign.orders_dir(op.campaign.latest() + 1) / f"{player}.yaml"
        atomic_write(target, path.read_bytes())
    return target


def status(root: Path) -> dict[str, Any]:
    op = open_campaign(root)
    state = op.state()
    n = op.campaign.latest()
    due = op.ruleset.due(state)
    sent = sorted(p for p in op.campaign.order_files(n + 1) if p in due)
    return {"turn": n, "next": n + 1, "winner": state.get("winner"), "due": due, "received": sent,
            "missing": [p for p in due if p not in sent], "commitment": op.meta.get("seed_commitment")}


def template(root: Path, player: str, lang: str) -> str:
    op = open_campaign(root)
    _require_player(op, player)
    return op.ruleset.template(op.state(), player, lang)


# resolving ---------------------------------------------------------------------------------
def _orders_for(op: Open, state: dict[str, Any], n: int) -> dict[str, Any]:
    files = op.campaign.order_files(n)
    due = op.ruleset.due(state)
    present = [files[p] for p in due if p in files]
    parsed = {p: orders for p, (_, orders) in check_files(op, present, op.lang, state).items()}
    return {p: parsed.get(p, op.ruleset.default_orders(state, p)) for p in due}


def compute_turn(op: Open, state: dict[str, Any], n: int, seed: str) -> dict[str, Any]:
    """Everything turn ``n`` writes, as ``{relative path: bytes or text}``. Pure given the inputs."""
    if state.get("winner") is not None:
        raise GmError.one("campaign.over", file=str(op.campaign.root), winner=state["winner"])
    orders = _orders_for(op, state, n)
    result = op.ruleset.resolve(state, orders, seed)
    posts = op.ruleset.posts(state, result.state, result.events, op.lang, op.templates_dir())
    name = turn_name(n)
    files: dict[str, Any] = {
        f"state/{name}.json": dump_json(result.state),
        f"log/{name}.jsonl": "".join(json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in result.events),
    }
    for who, rendered in posts.items():
        if who == "files":
            for fname, data in rendered.items():
                files[f"reports/{name}/{fname}"] = data
        else:
            for fmt, text in rendered.items():
                files[f"reports/{name}/{who}.{fmt}"] = text
    return files


def resolve(root: Path, preview: bool = False) -> dict[str, Any]:
    op = open_campaign(root)
    with op.campaign.lock():
        n = op.campaign.latest() + 1
        files = compute_turn(op, op.state(), n, op.campaign.seed())
        name = turn_name(n)
        if preview:
            return {"turn": n, "files": files}
        reports = {k.split("/", 2)[2]: v for k, v in files.items() if k.startswith(f"reports/{name}/")}
        atomic_dir(op.campaign.reports_dir(n), reports)
        atomic_write(op.campaign.log_path(n), files[f"log/{name}.jsonl"])
        atomic_write(op.campaign.state_path(n), files[f"state/{name}.json"])  # the commit point
    return {"turn": n, "reports": sorted(str(op.campaign.root / k) for k in files if k.startswith("reports/")),
            "state": str(op.campaign.state_path(n)), "winner": json.loads(files[f"state/{name}.json"]).get("winner")}


# reading -----------------------------------------------------------------------------------
def show(root: Path, player: str | None, turn: int | None = None) -> dict[str, Any]:
    op = open_campaign(root)
    if player is not None:
        _require_player(op, player)
    return op.ruleset.view(op.state(turn), player)


def report(root: Path, turn: int | None, player: str | None, fmt: str) -> str:
    op = open_campaign(root)
    if fmt not in FORMATS:
        raise GmError.one("format.unknown", field="--format", exit_code=USAGE, value=fmt, allowed=", ".join(FORMATS))
    if player is not None:
        _require_player(op, player)
    last = op.campaign.latest()
    n = last if turn is None else turn
    if not 1 <= n <= last:
        raise GmError.one("turn.unknown", field="--turn", exit_code=USAGE, turn=n, last=last)
    who = player or "public"
    ext = "bbcode" if fmt == "bbcode" else "md"
    path = op.campaign.reports_dir(n) / f"{who}.{ext}"
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise GmError.one("report.missing", file=str(path), turn=n, name=who) from None
    if fmt == "html":
        from gm_tool.core.render import markdown_to_html

        return markdown_to_html(text, title=f"{turn_name(n)} {who}")
    return text


# GM operations -----------------------------------------------------------------------------
def rollback(root: Path, to: int) -> dict[str, Any]:
    """Return to the state after turn ``to``; later turns are moved under ``superseded/``."""
    import os

    op = open_campaign(root)
    with op.campaign.lock():
        last = op.campaign.latest()
        if not 0 <= to <= last:
            raise GmError.one("turn.unknown", field="--to", exit_code=USAGE, turn=to, last=last)
        base = op.campaign.root / "superseded"
        k = 1
        while (base / f"{k:03d}").exists():
            k += 1
        aside = base / f"{k:03d}"
        moved = []
        for n in range(last, to, -1):  # newest first, so a crash leaves a consistent prefix
            name = turn_name(n)
            for rel in (f"state/{name}.json", f"log/{name}.jsonl", f"reports/{name}",
                        *([f"orders/{name}"] if n > to + 1 else [])):
                src = op.campaign.root / rel
                if src.exists():
                    dst = aside / rel
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(src, dst)
                    moved.append(rel)
        note = {"rolled_back_from": last, "to": to, "moved": moved}
        atomic_write(aside / "NOTE.json", dump_json(note))
        with open(op.campaign.root / "log" / "rollbacks.jsonl", "a", encoding="utf-8") as fh:
            fh.write(json.dumps({**note, "superseded": str(aside.relative_to(op.campaign.root))}, ensure_ascii=False) + "\n")
    return {"turn": to, "superseded": str(aside), "moved": moved}


def verify(root: Path, seed: str | None = None) -> dict[str, Any]:
    """Replay every turn from the scenario, the seed and the stored sheets; compare byte for byte."""
    op = open_campaign(root)
    seed = op.campaign.seed() if seed is None else seed
    if commitment(seed) != op.meta.get("seed_commitment"):
        raise GmError.one("verify.seed", file=str(op.campaign.meta_path), field="seed_commitment")
    state = _initial_state(op, seed)
    stored0 = op.campaign.state_path(0).read_text("utf-8")
    if dump_json(state) != stored0:
        raise GmError.one("verify.mismatch", turn=0, file="state/turn-000.json", detail=_first_diff(dump_json(state), stored0))
    checked = 0
    for n in range(1, op.campaign.latest() + 1):
        files = compute_turn(op, state, n, seed)
        for rel, data in sorted(files.items()):
            path = op.campaign.root / rel
            want = path.read_bytes() if path.exists() else None
            got = data.encode("utf-8") if isinstance(data, str) else data
            if want != got:
                detail = "missing" if want is None else _first_diff(got.decode("utf-8", "replace"), want.decode("utf-8", "replace"))
                raise GmError.one("verify.mismatch", turn=n, file=rel, detail=detail)
            checked += 1
        state = json.loads(files[f"state/{turn_name(n)}.json"])
    return {"turns": op.campaign.latest(), "files_checked": checked}


def _first_diff(got: str, want: str) -> str:
    for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines()), 1):
        if a != b:
            return f"line {i}: replay {a[:80]!r} / stored {b[:80]!r}"
    return f"lengths differ: replay {len(got)} / stored {len(want)}"


def events(root: Path, turn: int) -> list[dict[str, Any]]:
    op = open_campaign(root)
    return read_jsonl(op.campaign.log_path(turn).read_text("utf-8"))

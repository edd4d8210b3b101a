"""`gm simulate`: many seeded games played in-process by built-in bots, to measure balance.

Game-neutral: a game is ``setup`` then, until nobody is ``due`` or ``max_turns`` turns have been
played, one ``bot_sheet`` per due player checked by ``parse_orders`` and one ``resolve`` — all on
plain state dicts, with no files and no posts. The ruleset's ``summary_for_sim(state)`` says who
won and which units (id, player, side, class, alive) took part, so results can be counted per
side, per class and per character without the simulator knowing the game.

Determinism: game ``i`` uses the seed ``f"{seed}:{i}"`` for setup and resolution and the stream
``bots-N`` of that seed for the bots' choices, so each game is the same whatever process plays it;
results are merged in game order, so the whole report is identical for any number of workers.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable
from typing import Any

from gm_tool.errors import USAGE, GmError
from gm_tool.i18n import register

TIMEOUT = "timeout"
DRAW = "draw"
Z95 = 1.959963984540054

register({
    "simulate.bots": {"zh": "未知的机器人 {value!r}；允许：{allowed}，或按阵营写 阵营=种类（如 red=greedy,blue=random）",
                      "en": "unknown bot {value!r}; allowed: {allowed}, or per side as side=kind (red=greedy,blue=random)"},
    "simulate.rule": {"zh": "规则覆盖 {value!r} 应写作 名称=整数（如 max_rounds=20）",
                      "en": "rule override {value!r} must be name=integer (max_rounds=20)"},
})


# configuration ---------------------------------------------------------------------------------
def parse_bots(spec: str, ruleset: Any, sides: list[str]) -> dict[str, str]:
    """``greedy`` -> every side greedy; ``red=greedy,blue=random`` -> per side (others: random)."""
    kinds = tuple(ruleset.bot_kinds)
    allowed = ", ".join(kinds)
    if "=" not in spec:
        if spec not in kinds:
            raise GmError.one("simulate.bots", field="--bots", exit_code=USAGE, value=spec, allowed=allowed)
        return {side: spec for side in sides}
    out = {side: kinds[0] for side in sides}
    for part in spec.split(","):
        side, _, kind = part.partition("=")
        side, kind = side.strip(), kind.strip()
        if side not in sides or kind not in kinds:
            raise GmError.one("simulate.bots", field="--bots", exit_code=USAGE, value=part,
                              allowed=f"{allowed}; sides: {', '.join(sides)}")
        out[side] = kind
    return out


def parse_rules(items: list[str] | None) -> dict[str, int | None]:
    """``["max_rounds=20"]`` -> ``{"max_rounds": 20}`` (``none`` clears a knob)."""
    out: dict[str, int | None] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise GmError.one("simulate.rule", field="--rule", exit_code=USAGE, value=item)
        if value.lower() in ("none", "null", "off"):
            out[key] = None
            continue
        try:
            out[key] = int(value)
        except ValueError:
            raise GmError.one("simulate.rule", field="--rule", exit_code=USAGE, value=item) from None
    return out


def with_rules(scenario: dict[str, Any], rules: dict[str, int | None]) -> dict[str, Any]:
    if not rules:
        return scenario
    return {**scenario, "rules": {**(scenario.get("rules") or {}), **rules}}


# one game --------------------------------------------------------------------------------------
class Game:
    """Everything a worker needs to play any game of a run (built once per process)."""

    def __init__(self, ruleset_name: str, scenario: dict[str, Any], source: str, seed: str,
                 bots: str, max_turns: int):
        from gm_tool.core import ruleset as registry

        self.ruleset = registry.get(ruleset_name)
        self.scenario, self.source, self.seed = scenario, source, seed
        self.bots, self.max_turns = bots, max_turns

    def sides(self) -> list[str]:
        return list(self.ruleset.summary_for_sim(self.ruleset.setup(self.scenario, self.source, f"{self.seed}:0"))["sides"])

    def play(self, i: int) -> dict[str, Any]:
        from gm_tool.core.chance import Chance

        rs = self.ruleset
        seed = f"{self.seed}:{i}"
        state = rs.setup(self.scenario, self.source, seed)
        start = rs.summary_for_sim(state)
        kinds = parse_bots(self.bots, rs, list(start["sides"]))
        side_of = {u["player"]: u["side"] for u in start["units"]}
        turns = 0
        while turns < self.max_turns:
            due = rs.due(state)
            if not due:
                break
            chance = Chance(seed, f"bots-{turns + 1}")
            # a player whose side no unit names yet (a game starting with an empty board) is
            # matched by name when the sides are the players themselves
            wanted = {player: kinds.get(side_of.get(player, player if player in kinds else ""), "random")
                      for player in due}
            orders = rs.bot_orders(state, wanted, chance)
            state = rs.resolve(state, orders, seed).state
            turns += 1
        end = rs.summary_for_sim(state)
        winner = end.get("winner")
        return {"game": i, "winner": TIMEOUT if winner is None else winner, "turns": turns,
                "score": end.get("score") or {},
                "units": [[u["id"], u["side"], u["class"], bool(u["alive"])] for u in end["units"]]}


_WORKER: Game | None = None


def _init_worker(args: tuple) -> None:
    global _WORKER
    _WORKER = Game(*args)


def _play_chunk(games: range) -> list[dict[str, Any]]:
    assert _WORKER is not None
    return [_WORKER.play(i) for i in games]


def play_all(ruleset_name: str, scenario: dict[str, Any], source: str, *, games: int, seed: str,
             bots: str = "random", max_turns: int = 50, workers: int = 1,
             progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Play games ``0..games-1``; return their results in game order, whatever ``workers`` is."""
    args = (ruleset_name, scenario, source, seed, bots, max_turns)
    game = Game(*args)
    parse_bots(bots, game.ruleset, game.sides())  # bad input fails here, not inside a worker
    workers = max(1, min(workers, games))
    if workers == 1:
        results = []
        for i in range(games):
            results.append(game.play(i))
            if progress:
                progress(1)
        return results
    size = max(1, min(32, games // (workers * 8)))
    chunks = [range(a, min(a + size, games)) for a in range(0, games, size)]
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    results = []
    with ctx.Pool(workers, initializer=_init_worker, initargs=(args,)) as pool:
        for part in pool.imap(_play_chunk, chunks):  # imap keeps the chunks' order
            results.extend(part)
            if progress:
                progress(len(part))
    return results


# statistics ------------------------------------------------------------------------------------
def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(wins: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(wins, n)
    return {"n": n, "wins": wins, "rate": round(wins / n, 4) if n else 0.0, "ci95": [round(lo, 4), round(hi, 4)]}


def summarise(results: list[dict[str, Any]], sides: list[str]) -> dict[str, Any]:
    """Win rates per side, per class and per character, with Wilson 95% intervals.

    A unit "wins" a game its side won. Draws and timeouts (games still running at ``max_turns``)
    count as games not won by anyone."""
    n = len(results)
    outcome = {key: 0 for key in (*sides, DRAW, TIMEOUT)}
    for r in results:
        outcome[r["winner"]] = outcome.get(r["winner"], 0) + 1
    side_rows = []
    for side in sides:
        scores = [r["score"].get(side, 0) for r in results]
        side_rows.append({"side": side, **_rate(outcome.get(side, 0), n),
                          "mean_score": round(sum(scores) / n, 2) if n else 0.0})
    groups: dict[str, dict[tuple, list[int]]] = {"class": {}, "character": {}}
    for r in results:
        for uid, side, cls, alive in r["units"]:
            won = int(r["winner"] == side)
            for kind, key in (("class", (cls,)), ("character", (uid, side, cls))):
                acc = groups[kind].setdefault(key, [0, 0, 0])
                acc[0] += 1
                acc[1] += won
                acc[2] += int(alive)
    classes = [{"class": k[0], **_rate(v[1], v[0]), "survived": round(v[2] / v[0], 4)}
               for k, v in sorted(groups["class"].items())]
    characters = [{"id": k[0], "side": k[1], "class": k[2], **_rate(v[1], v[0]), "survived": round(v[2] / v[0], 4)}
                  for k, v in groups["character"].items()]
    turns = [r["turns"] for r in results]
    return {
        "games": n, "outcomes": outcome, "mean_turns": round(sum(turns) / n, 2) if n else 0.0,
        "sides": side_rows, "classes": classes, "characters": characters,
        "per_game": [{"game": r["game"], "winner": r["winner"], "turns": r["turns"]} for r in results],
    }


def run(scenario_ref: str, *, games: int, seed: str = "sim", bots: str = "random", max_turns: int = 50,
        workers: int = 1, rules: dict[str, int | None] | None = None,
        progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Load a scenario (bundled name or file), play ``games`` games, return the report (plain data,
    identical for any ``workers``)."""
    from gm_tool.app import _ruleset_of, load_scenario

    scenario, source = load_scenario(scenario_ref)
    scenario = with_rules(scenario, rules or {})
    ruleset = _ruleset_of(scenario, source)
    results = play_all(ruleset.name, scenario, source, games=games, seed=seed, bots=bots,
                       max_turns=max_turns, workers=workers, progress=progress)
    game = Game(ruleset.name, scenario, source, seed, bots, max_turns)
    start = ruleset.summary_for_sim(ruleset.setup(scenario, source, f"{seed}:0"))
    return {"scenario": scenario.get("name", scenario_ref), "ruleset": ruleset.name, "seed": seed,
            "bots": bots, "max_turns": max_turns, "rules": rules or {},
            "labels": {k: start[k] for k in LABEL_KEYS if k in start}, **summarise(results, game.sides())}


# text ------------------------------------------------------------------------------------------
# what a ruleset may name in summary_for_sim ({"zh": ..., "en": ...} each): its units' classes,
# its units and its score
LABEL_KEYS = ("class_label", "unit_label", "score_label")
_LABELS = {
    "zh": {"title": "模拟：{scenario}，{games} 局（种子 {seed!r}，机器人 {bots}，最多 {max_turns} 回合）",
           "outcomes": "结果", "draw": "平局", "timeout": "超时未分胜负", "mean_turns": "平均回合数",
           "side": "阵营", "class": "类别", "character": "单位", "n": "局数", "wins": "胜", "rate": "胜率",
           "ci": "95% 置信区间", "survived": "存活率", "score": "平均得分",
           "note": "胜率区间为 Wilson 95%；平局与超时计为未胜。"},
    "en": {"title": "Simulation: {scenario}, {games} games (seed {seed!r}, bots {bots}, at most {max_turns} turns)",
           "outcomes": "Outcomes", "draw": "draw", "timeout": "timeout (no winner)", "mean_turns": "Mean turns",
           "side": "Side", "class": "Class", "character": "Unit", "n": "Games", "wins": "Wins", "rate": "Win rate",
           "ci": "95% CI", "survived": "Survived", "score": "Mean score",
           "note": "Intervals are Wilson 95%; draws and timeouts count as not won."},
}


def _width(text: str) -> int:
    return sum(2 if "\u2e80" <= ch <= "\uffff" else 1 for ch in text)


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(_width(str(x)) for x in col) for col in zip(headers, *rows)]

    def line(cells: list[str]) -> str:
        return "  ".join(str(c) + " " * (w - _width(str(c))) for c, w in zip(cells, widths)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def render(report: dict[str, Any], lang: str = "zh") -> str:
    t = dict(_LABELS.get(lang, _LABELS["en"]))
    labels = report.get("labels") or {}
    for key, label in (("class", "class_label"), ("character", "unit_label"), ("score", "score_label")):
        if isinstance(labels.get(label), dict) and labels[label].get(lang):
            t[key] = labels[label][lang] if key != "score" else f"{'平均' if lang == 'zh' else 'Mean '}{labels[label][lang]}"
    out = [t["title"].format(**report), ""]
    oc = report["outcomes"]
    out.append(f"{t['outcomes']}: " + ", ".join(
        f"{t.get(k, k) if k in (DRAW, TIMEOUT) else k} {v}" for k, v in oc.items())
        + f"; {t['mean_turns']}: {report['mean_turns']}")
    out.append("")
    ci = lambda r: f"[{_pct(r['ci95'][0])}, {_pct(r['ci95'][1])}]"  # noqa: E731
    out.append(_table([t["side"], t["n"], t["wins"], t["rate"], t["ci"], t["score"]],
                      [[r["side"], r["n"], r["wins"], _pct(r["rate"]), ci(r), f"{r['mean_score']:.1f}"]
                       for r in report["sides"]]))
    out.append("")
    out.append(_table([t["class"], t["n"], t["wins"], t["rate"], t["ci"], t["survived"]],
                      [[r["class"], r["n"], r["wins"], _pct(r["rate"]), ci(r), _pct(r["survived"])]
                       for r in report["classes"]]))
    out.append("")
    out.append(_table([t["character"], t["side"], t["class"], t["wins"], t["rate"], t["ci"], t["survived"]],
                      [[r["id"], r["side"], r["class"], r["wins"], _pct(r["rate"]), ci(r), _pct(r["survived"])]
                       for r in report["characters"]]))
    out.append("")
    out.append(t["note"])
    return "\n".join(out) + "\n"

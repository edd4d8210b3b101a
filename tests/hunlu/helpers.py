"""Small builders for 魂陆 rule cases: a board with the generals a case needs, forced dice, and
one general-turn played from a sheet."""

from __future__ import annotations

from typing import Any

from gm_tool.core import ruleset as registry

RS = registry.get("hunlu")

# a plain general with no skills and no attributes: a case adds what it checks
PLAIN = {"name": "木人", "element": None, "jing": 7, "qi": 10, "qi_regen": 1, "shen": 8, "move": 3, "range": 2,
         "skills": []}


def scenario(team: dict[str, dict[str, Any]], *, generals: dict[str, Any] | None = None, obstacles=(),
             width: int = 9, height: int = 9, dice=(), skills: dict[str, Any] | None = None,
             rules: dict[str, Any] | None = None, spawns=None) -> dict[str, Any]:
    """``team``: unit id -> entry with ``player`` (alice red / bob blue) and team-entry keys."""
    players: dict[str, Any] = {}
    for uid, e in team.items():
        e = dict(e)
        player = e.pop("player", "alice")
        side = {"alice": "red", "bob": "blue"}.get(player, "green")
        e.setdefault("general", "plain")
        players.setdefault(player, {"side": side, "team": {}})["team"][uid] = e
    gens = {"plain": PLAIN}
    gens.update(generals or {})
    sc: dict[str, Any] = {"ruleset": "hunlu", "name": "case",
                          "map": {"width": width, "height": height, "obstacles": list(obstacles),
                                  "spawns": spawns or []},
                          "rules": rules or {"field": 3, "reserves": 2}, "players": players,
                          "generals": gens, "dice": list(dice)}
    if skills:
        sc["skills"] = skills
    return sc


def new(team: dict[str, dict[str, Any]], seed: str = "case", **kw: Any) -> dict[str, Any]:
    return RS.setup(scenario(team, **kw), "case.yaml", seed)


def unit(state: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in state["units"] if u["id"] == uid)


def sheet(state: dict[str, Any], actions: list[Any] | None = None, player: str | None = None,
          standing: dict[str, Any] | None = None) -> dict[str, Any]:
    player = player or state["next"]["player"]
    out: dict[str, Any] = {"turn": state["turn"] + 1, "player": player}
    if actions is not None:
        out["actions"] = actions
    if standing is not None:
        out["standing"] = standing
    return out


def play(state: dict[str, Any], actions: list[Any] | None = None, dice: list[int] | None = None,
         standing: dict[str, dict[str, Any]] | None = None, seed: str = "case") -> tuple[dict[str, Any], list[dict]]:
    """Resolve the general due with ``actions`` (a sheet's list); ``standing``: player -> orders."""
    orders = {}
    due = state["next"]["player"]
    for p in state["players"]:
        st = (standing or {}).get(p)
        if p == due or st is not None:
            orders[p] = RS.parse_orders(state, sheet(state, actions if p == due else None, p, st), f"{p}.yaml", "en")
    res = RS.resolve(state, orders, seed, dice)
    return res.state, res.events


def check(state: dict[str, Any], actions: list[Any], player: str | None = None) -> list[str]:
    """The problems ``gm check`` reports for a sheet (codes with fields), [] when legal."""
    from gm_tool.errors import GmError

    try:
        RS.parse_orders(state, sheet(state, actions, player), "s.yaml", "en")
    except GmError as e:
        return [f"{p.code}@{p.field}" for p in e.problems]
    return []


def events(evs: list[dict], type_: str) -> list[dict]:
    return [e for e in evs if e["type"] == type_]


def pass_until(state: dict[str, Any], uid: str, limit: int = 30) -> dict[str, Any]:
    """Pass turns until ``uid`` is due."""
    for _ in range(limit):
        if state["next"] and state["next"]["unit"] == uid:
            return state
        state, _ = play(state, [])
    raise AssertionError(f"{uid} never became due")

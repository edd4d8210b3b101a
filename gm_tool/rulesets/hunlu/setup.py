"""A scenario mapping -> the initial state (turn 0, round 1 started), checked field by field."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gm_tool.core import safeyaml
from gm_tool.core.chance import Chance
from gm_tool.core.events import EventLog
from gm_tool.core.grid import cell_name, parse_cell
from gm_tool.core.schema import Validator, id_problem
from gm_tool.rulesets.hunlu import catalogue
from gm_tool.rulesets.hunlu.catalogue import DATA
from gm_tool.rulesets.hunlu.effects import STATUS_NAMES, check_buff, num_ok
from gm_tool.rulesets.hunlu.engine import Dice, Game, check_dice, refresh
from gm_tool.rulesets.hunlu.rules import ATTRS, ELEMENTS
from gm_tool.rulesets.hunlu.switches import BY_NAME, DEFAULTS

TOP = ("ruleset", "name", "description", "map", "rules", "players", "generals", "skills", "dice")
TEAM = ("general", "role", "pos", "spawn", "jing", "qi", "shen", "statuses", "items", "name", "element",
        "qi_regen", "move", "range", "skills") + ATTRS
RULE_DEFAULTS = DEFAULTS  # declared once in switches.py (the opening post lists them)
MAX_PLAYERS = 16


@lru_cache(maxsize=1)
def bundled_maps() -> dict[str, Any]:
    return safeyaml.load_mapping(DATA / "maps.yaml", display="hunlu/data/maps.yaml")


def build(scenario: dict[str, Any], source: str, seed: str, log: EventLog | None = None) -> dict[str, Any]:
    """Turn 0 from a scenario; the opening's events (initiative roll-offs, spawns, round 1) go to
    ``log`` when one is given (`gm new` writes them to ``log/turn-000.jsonl``)."""
    v = Validator(source)
    sc = v.unknown_keys(scenario, {k: k for k in TOP})
    # map
    m = sc.get("map", "hunzhan")
    if isinstance(m, str):
        if m not in bundled_maps():
            v.add("field.choice", "map", value=m, allowed=", ".join(bundled_maps()))
            v.raise_if_any()
        m = bundled_maps()[m]
    if not v.typed(m, dict, "map"):
        v.raise_if_any()
    m = v.unknown_keys(m, {k: k for k in ("name", "width", "height", "obstacles", "spawns")}, "map.")
    width = v.integer(m, "width", "map.width", 3, 26, 13) or 13
    height = v.integer(m, "height", "map.height", 3, 99, 13) or 13
    if "width" not in m or "height" not in m:
        v.add("field.required", "map.width" if "width" not in m else "map.height")
    obstacles: list[dict[str, Any]] = []
    seen: set = set()
    raw_obstacles = m.get("obstacles") or []
    if not isinstance(raw_obstacles, list):
        v.add("field.type", "map.obstacles", expected="list", got=type(raw_obstacles).__name__)
        raw_obstacles = []
    for i, o in enumerate(raw_obstacles):
        p = f"map.obstacles.{i}"
        if not isinstance(o, dict) or "pos" not in o:
            v.add("field.required", f"{p}.pos")
            continue
        grade = v.integer(o, "grade", f"{p}.grade", 2, 4, 2)
        cells = o["pos"] if isinstance(o["pos"], list) else [o["pos"]]
        for j, c in enumerate(cells):
            cell = v.cell(c, f"{p}.pos" + (f".{j}" if isinstance(o["pos"], list) else ""), width, height)
            if cell is not None and cell not in seen:
                seen.add(cell)
                obstacles.append({"pos": cell_name(cell), "grade": grade})
    spawns = []
    raw_spawns = m.get("spawns") or []
    if not isinstance(raw_spawns, list):
        v.add("field.type", "map.spawns", expected="list", got=type(raw_spawns).__name__)
        raw_spawns = []
    for i, c in enumerate(raw_spawns):
        cell = v.cell(c, f"map.spawns.{i}", width, height)
        if cell is not None:
            spawns.append(cell_name(cell))
    # rules
    rules: dict[str, Any] = dict(RULE_DEFAULTS)
    if sc.get("rules") is not None and v.typed(sc["rules"], dict, "rules"):
        r = v.unknown_keys(sc["rules"], {k: k for k in RULE_DEFAULTS}, "rules.")
        for key in ("field", "reserves", "default_range"):
            sw = BY_NAME[key]
            rules[key] = v.integer(r, key, f"rules.{key}", sw.minimum, sw.maximum, sw.default)
        rules["posts"] = v.choice(r, "posts", {"step": "step", "round": "round", "每步": "step", "每大回合": "round"},
                                  "rules.posts", BY_NAME["posts"].default)
        if "unique" in r and v.typed(r["unique"], bool, "rules.unique"):
            rules["unique"] = r["unique"]
    # catalogue
    shared: dict[str, Any] = {}
    if sc.get("skills") is not None and v.typed(sc["skills"], dict, "skills"):
        for sid, s in sc["skills"].items():
            sk = catalogue.check_skill(v, s, f"skills.{sid}", sid=sid)
            if sk:
                shared[sid] = sk
    gens: dict[str, Any] = {}
    raw = dict(catalogue.bundled())
    if sc.get("generals") is not None and v.typed(sc["generals"], dict, "generals"):
        raw.update(sc["generals"])
    # players
    players = sc.get("players")
    units: list[dict[str, Any]] = []
    sides: list[str] = []
    prefs: dict[str, list[str]] = {}
    if not isinstance(players, dict) or not players:
        v.add("field.required", "players")
        v.raise_if_any()
    assert isinstance(players, dict)
    if len(players) > MAX_PLAYERS:
        v.add("hunlu.scenario.players", "players", count=len(players), limit=MAX_PLAYERS)
        v.raise_if_any()
    for pname, pdata in players.items():
        pp = f"players.{pname}"
        if not isinstance(pdata, dict):
            v.typed(pdata, dict, pp)
            continue
        pdata = v.unknown_keys(pdata, {"side": "side", "team": "team"}, pp + ".")
        side = pdata.get("side")
        if not isinstance(side, str) or not side:
            v.add("field.required", f"{pp}.side")
            continue
        if side not in sides:
            sides.append(side)
        team = pdata.get("team")
        if not isinstance(team, dict) or not team:
            v.add("field.required", f"{pp}.team")
            continue
        mains = reserves = 0
        for uid, e in team.items():
            up = f"{pp}.team.{uid}"
            if not isinstance(e, dict):
                v.typed(e, dict, up)
                continue
            e = v.unknown_keys(e, {k: k for k in TEAM}, up + ".")
            gid = e.get("general")
            if not isinstance(gid, str) or gid not in raw:
                v.add("field.choice", f"{up}.general", value=gid, allowed=", ".join(sorted(raw)))
                continue
            if gid not in gens:
                g = catalogue.check_general(v, gid, raw[gid], f"generals.{gid}", shared)
                if g is None:
                    continue
                gens[gid] = g
            g = gens[gid]
            role = v.choice(e, "role", {"main": "main", "reserve": "reserve", "主位": "main", "副位": "reserve"},
                            f"{up}.role", "main")
            mains += role == "main"
            reserves += role == "reserve"
            if any(u["id"] == uid for u in units):
                v.add("field.duplicate", up, value=uid)
                continue
            # Κ2 (Greek) beside K2, k2 beside K2, bob-1 for alice's unit: refused as look-alikes
            if (bad := id_problem(str(uid), str(pname), map(str, players), [str(u["id"]) for u in units])) is not None:
                v.add(bad[0], up, **bad[1])
                continue
            u = make_unit(v, uid, pname, side, role, g, e, up, rules, shared, width, height)
            units.append(u)
            prefs[uid] = [cell_name(c) for c in (u.pop("_spawn") or [])]
        if not 1 <= mains <= rules["field"]:
            v.add("hunlu.scenario.mains", f"{pp}.team", count=mains, limit=rules["field"])
        if reserves > rules["reserves"]:
            v.add("hunlu.scenario.reserves", f"{pp}.team", count=reserves, limit=rules["reserves"])
        if rules["unique"]:
            gl = [u["general"] for u in units if u["player"] == pname]
            for gid in gl:
                if gl.count(gid) > 1:
                    v.add("hunlu.scenario.unique", f"{pp}.team", general=gid)
                    break
    if len(sides) != 2:
        v.add("hunlu.scenario.sides", "players", count=len(sides))
    dice = check_dice(v, sc.get("dice") or [], "dice")
    taken = {c["pos"] for c in obstacles}
    for u in units:
        if u["pos"] is not None:
            if u["pos"] in taken:
                v.add("hunlu.scenario.occupied", f"players.{u['player']}.team.{u['id']}.pos", pos=u["pos"])
            taken.add(u["pos"])
    v.raise_if_any()
    for u, label in zip(units, assign_labels([u["id"] for u in units]).values()):
        u["label"] = label  # the unit's mark for the whole game (pictures, legends)
    state = {"ruleset": "hunlu", "name": sc.get("name", "hunlu"), "round": 1, "turn": 0, "winner": None,
             "order": [], "next": None, "units": units, "obstacles": obstacles, "dice": dice,
             "standing": {p: {} for p in players}, "players": list(players), "sides": sides,
             "map": {"name": m.get("name", ""), "width": width, "height": height, "spawns": spawns},
             "rules": rules, "generals": gens,
             "items_def": {sid: s for sid, s in shared.items()}, "acted": [], "extra": []}
    log = log if log is not None else EventLog()
    game = Game(state, Dice(state, None, Chance(seed, "setup")), log)
    game.sort_order(initial=True)
    for uid in state["order"]:  # H17: spawns picked in initiative order, never twice
        u = game.units[uid]
        if u["pos"] is None:
            free = [s for s in prefs[uid] + spawns if parse_cell(s) not in game.terrain and game.unit_at(parse_cell(s)) is None]
            if not free:
                raise_no_spawn(source, u)
            u["pos"] = free[0]
            game.emit("spawn", unit=uid, pos=u["pos"])
    for u in units:  # static passives hold from the start; 神 0 is 寂灭 from the start
        game.passives(u, lambda t: t == "static")
        game.silence_at_zero(u)
    game.start_round()
    game.advance()
    refresh(game)
    return state


def raise_no_spawn(source: str, u: dict[str, Any]) -> None:
    from gm_tool.errors import GmError

    raise GmError.one("hunlu.scenario.no_spawn", file=source, field=f"players.{u['player']}.team.{u['id']}", unit=u["id"])


def make_unit(v: Validator, uid: str, player: str, side: str, role: str, g: dict[str, Any], e: dict[str, Any],
              up: str, rules: dict[str, Any], shared: dict[str, Any], width: int, height: int) -> dict[str, Any]:
    g = dict(g)  # only top-level values are overridden; skills are read, never changed
    for k in ("name", "element", "qi_regen", "move", "range") + ATTRS:
        if k in e:
            g[k] = e[k]
    for k, lo, hi, whole in (("qi_regen", 0, 99, False), ("move", 0, 99, True), ("range", 0, 26, True)):
        if k in e and not (e[k] is None and k == "range") and not num_ok(e[k], lo, hi, whole):
            v.add("field.range", f"{up}.{k}", value=e[k], allowed=f"{lo}-{hi}")
            g[k] = g.get(k) if k != "move" else 0
    if not isinstance(g.get("move"), int):
        g["move"] = 0
    if g["element"] is not None and g["element"] not in ELEMENTS:
        v.add("field.choice", f"{up}.element", value=g["element"], allowed=", ".join(ELEMENTS))
    for a in ATTRS:
        if not catalogue.pct_ok(g[a]):
            v.add("hunlu.catalogue.pct", f"{up}.{a}", value=g[a])
            g[a] = 0
    vals = {}
    # starting values from 0 to the maximum (contract section 5); 精 above 0 (a general at 精 0 is
    # dead, l.20), 神 a whole number (0: 寂灭 from the start, l.22-23)
    for k, top, low in (("jing", g["jing"], 0.5), ("qi", g["qi"], 0), ("shen", g["shen"], 0)):
        x = e.get(k, top)
        if top is None:  # the catalogue entry was refused already
            vals[k] = 1
            continue
        whole = k == "shen"
        if not num_ok(x, low, top, whole):
            v.add("field.range", f"{up}.{k}", value=x, allowed=f"{low:g}-{top}" + ("" if whole else " (0.5 步长)"))
            x = top
        vals[k] = int(x) if x == int(x) else x
    skills = None
    if "skills" in e:  # the unit's own skill list, in the catalogue's format (contract section 5)
        own = catalogue.check_general(v, g["id"], {"name": g["name"], "jing": g["jing"], "move": g["move"],
                                                   "skills": e["skills"]}, up, shared)
        skills = own["skills"] if own is not None else []
    pos = None
    if e.get("pos") is not None:
        c = v.cell(e["pos"], f"{up}.pos", width, height)
        pos = cell_name(c) if c else None
        if role != "main":
            v.add("hunlu.scenario.reserve_pos", f"{up}.pos")
            pos = None
    spawn = []
    sp = e.get("spawn") or []
    for j, c in enumerate(sp if isinstance(sp, list) else [sp]):
        cell = v.cell(c, f"{up}.spawn.{j}", width, height)
        if cell:
            spawn.append(cell)
    statuses = []
    raw_statuses = e.get("statuses")
    if raw_statuses is not None and not v.typed(raw_statuses, list, f"{up}.statuses"):  # `statuses: true` crashed
        raw_statuses = []
    for j, st in enumerate(raw_statuses or []):
        if not isinstance(st, dict) or not isinstance(st.get("name"), str):
            v.add("field.required", f"{up}.statuses.{j}.name")
            continue
        s = {"name": st["name"], "rounds": st.get("rounds"), "active": True, "source": uid}
        extra = {k: st[k] for k in st if k not in ("name", "rounds")}
        if not check_buff(v, {"rounds": st.get("rounds"), **extra}, f"{up}.statuses.{j}"):
            continue
        if "heart" in extra:  # a face-down card needs a caster who chose it: only a skill gives one
            v.add("hunlu.scenario.heart_status", f"{up}.statuses.{j}.heart")
            continue
        s.update({k: x for k, x in extra.items() if k in ("stats", "off", "absorb", "immune", "round_end",
                                                           "skill_mods")})
        if "stats" not in s and st["name"] not in STATUS_NAMES:
            v.add("field.choice", f"{up}.statuses.{j}.name", value=st["name"], allowed=", ".join(STATUS_NAMES))
        statuses.append(s)
    items = []
    raw_items = e.get("items") or []
    if not isinstance(raw_items, list):
        v.add("field.type", f"{up}.items", expected="list", got=type(raw_items).__name__)
        raw_items = []
    for j, it in enumerate(raw_items):
        if not isinstance(it, str) or it not in shared:
            v.add("hunlu.catalogue.skill_unknown", f"{up}.items.{j}", skill=it, allowed=", ".join(sorted(shared)) or "-")
        else:
            items.append(it)
    rng = g["range"] if g["range"] is not None else rules["default_range"]
    return {"id": uid, "name": g["name"], "general": g["id"], "player": player, "side": side, "role": role,
            "alive": True, "pos": pos if role == "main" else None, "jing": vals["jing"], "max_jing": g["jing"],
            "qi": vals["qi"], "max_qi": g["qi"], "shen": vals["shen"], "max_shen": g["shen"],
            "qi_regen": g["qi_regen"], "base_move": g["move"], "move": g["move"], "ap": 2, "base_range": rng,
            "range": rng, "element": g["element"], "attrs": {a: g[a] for a in ATTRS}, "statuses": statuses,
            "items": items, "legs": 0, "once": [], "toggles": [], "wards": [],
            "round": {"damaged": False, "dealt": False, "shen_lost": False, "received": {}},
            "replaced_by": None, "leaving": None, "chasm": None, "_spawn": spawn,
            **({"skills": skills} if skills is not None else {})}


# letters the picture's pixel font draws almost as a digit (Z as 2, O as 0...): two marks that
# read alike through this table are not both given
LOOKS_ALIKE = str.maketrans("ZOISBQ", "201580")


def reads_as_digits(mark: str) -> bool:
    """A mark with a letter that the pixel font draws as a digit, all digits to the eye (Z2 as 22)."""
    return mark.translate(LOOKS_ALIKE).isdigit() and not mark.isdigit()


def assign_labels(ids: list[str]) -> dict[str, str]:
    """Two-character marks for the units, in scenario order, never two alike nor two that read
    alike in the picture (TZ and T2), nor one that reads as digits (Z2): each made of the id's own letters and digits in their
    order (tj -> TJ, tj2 -> T2 when TJ is taken, tw2 -> W2 when TW and T2 are), else the id's
    first and a letter (tz -> TA when T2 is taken), else the first free pair. Given once at setup and kept in the
    state."""
    out: dict[str, str] = {}
    seen: set[str] = set()
    alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    for uid in ids:
        chars = [c for c in uid.upper() if c in alnum] or ["U"]
        own = [chars[i] + chars[j] for i in range(len(chars)) for j in range(i + 1, len(chars))]
        tries = own + [chars[0] + c for c in "ACDEFGHJKLMNPRTUVWXY123456789"] + \
            [a + b for a in alnum for b in alnum]  # 1,296 marks: more than a scenario's units
        label = next(t for t in tries if t.translate(LOOKS_ALIKE) not in seen and not reads_as_digits(t))
        seen.add(label.translate(LOOKS_ALIKE))
        out[uid] = label
    return out

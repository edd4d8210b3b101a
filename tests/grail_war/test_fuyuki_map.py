"""The bundled Fuyuki map and the default scenario, checked as data (rulings M1-M9).

Standalone: reads the two YAML files with ``yaml.safe_load`` and imports nothing from gm_tool,
so it checks the data whatever state the engine is in. Seed: shared/seeds/002_04c4f176dbe8aff0.txt.
"""

from __future__ import annotations

from collections import Counter, deque
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
MAP_FILE = ROOT / "gm_tool" / "rulesets" / "grail_war" / "data" / "maps" / "fuyuki.yaml"
SCENARIO_FILE = ROOT / "gm_tool" / "scenarios" / "fuyuki.yaml"

SIZES = [9, 14, 11, 10, 12, 9, 11, 10, 1, 10, 10, 11, 11, 11, 12, 10, 14, 18, 18, 12, 8]
HEIGHT = {".": 0, "~": 0, "^": 1, "#": 2}
KINDS = {"hand", "equipment", "heal", "vision", "teleport"}
CLIMBERS = {"LANCER", "RIDER", "CASTER"}
COLUMNS = "ABCDEFGHIJKLMNOPQRST"


# ---------------------------------------------------------------- helpers

def cell(name: str) -> tuple[int, int]:
    """'C11' -> (2, 10): column from 0, row from 0."""
    return COLUMNS.index(name[0]), int(name[1:]) - 1


def name(c: tuple[int, int]) -> str:
    return f"{COLUMNS[c[0]]}{c[1] + 1}"


@pytest.fixture(scope="module")
def m() -> dict:
    return yaml.safe_load(MAP_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def sc() -> dict:
    return yaml.safe_load(SCENARIO_FILE.read_text(encoding="utf-8"))


def terrain(m: dict, c: tuple[int, int]) -> str:
    return m["rows"][c[1]][c[0]]


def all_cells(m: dict):
    return [(x, y) for y in range(m["height"]) for x in range(m["width"])]


def near(c: tuple[int, int], m: dict):
    x, y = c
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        if 0 <= x + dx < m["width"] and 0 <= y + dy < m["height"]:
            yield (x + dx, y + dy)


def river_run(m: dict, y: int) -> list[int]:
    return [x for x, ch in enumerate(m["rows"][y]) if ch == "~"]


def bridge_row(m: dict) -> int:
    rows = [y for y in range(m["height"]) if not river_run(m, y)]
    assert len(rows) == 1, rows
    return rows[0]


def bridge_cells(m: dict) -> set[tuple[int, int]]:
    """The ground cells of the bridge row that lie in the river's bed (the river's columns in the
    rows just above and below)."""
    y = bridge_row(m)
    cols = set(river_run(m, y - 1)) | set(river_run(m, y + 1))
    return {(x, y) for x in cols}


def half(m: dict, c: tuple[int, int]) -> str:
    """'west' (深山町) or 'east' (新都) of the river in that row; 'bridge' on the bridge."""
    x, y = c
    if c in bridge_cells(m):
        return "bridge"
    run = river_run(m, y) or sorted(x for x, yy in bridge_cells(m))
    return "west" if x < run[0] else "east"


def rot(c: tuple[int, int], m: dict) -> tuple[int, int]:
    """The 180-degree turn that maps one half onto the other."""
    return m["width"] - 1 - c[0], m["height"] - 1 - c[1]


def flood(m: dict, start: tuple[int, int], ok) -> set[tuple[int, int]]:
    seen, queue = {start}, deque([start])
    while queue:
        cur = queue.popleft()
        for nxt in near(cur, m):
            if nxt not in seen and ok(cur, nxt):
                seen.add(nxt)
                queue.append(nxt)
    return seen


def walk_rule(m: dict, cls: str):
    """R3 on foot: no river (the RIDER/CASTER crossing is a skill, not a walk); ground is entered
    from higher to lower only unless the class climbs."""
    def ok(a, b):
        if terrain(m, b) == "~":
            return False
        return HEIGHT[terrain(m, b)] <= HEIGHT[terrain(m, a)] or cls in CLIMBERS
    return ok


def steps(m: dict, start, goal, cls: str = "SABER") -> int | None:
    ok = walk_rule(m, cls)
    dist, queue = {start: 0}, deque([start])
    while queue:
        cur = queue.popleft()
        if cur == goal:
            return dist[cur]
        for nxt in near(cur, m):
            if nxt not in dist and ok(cur, nxt):
                dist[nxt] = dist[cur] + 1
                queue.append(nxt)
    return None


def by_id(m: dict) -> dict[int, dict]:
    return {s["id"]: s for s in m["strongholds"]}


# ---------------------------------------------------------------- the map

def test_dimensions_rows_and_alphabet(m):
    """seed l.2: 地图由20X14的格子组成，其中据点分布在这280个格子内 (M1)."""
    assert set(m) == {"width", "height", "rows", "strongholds", "tunnels"}
    assert (m["width"], m["height"]) == (20, 14)
    assert len(m["rows"]) == 14
    for row in m["rows"]:
        assert isinstance(row, str) and len(row) == 20
        assert set(row) <= set(".~^#")


def test_territory_table_exact(m):
    """seed l.16-38: 现在附上每个据点所辖的领土数量 ... 1 9 ... 9 1 ... 21 8 (R2, M1)."""
    s = by_id(m)
    assert sorted(s) == list(range(1, 22))
    assert [len(s[i]["territory"]) for i in range(1, 22)] == SIZES
    assert sum(SIZES) == 232
    owned = [t for x in m["strongholds"] for t in x["territory"]]
    assert len(owned) == len(set(owned)) == 232
    assert 280 - len(set(owned)) == 48


def test_territories_disjoint_contiguous_and_centred(m):
    """seed l.14: 每一个据点都是一片其所管辖领土的中枢点 (M1)."""
    seen: dict[str, int] = {}
    for s in m["strongholds"]:
        cells = {cell(t) for t in s["territory"]}
        assert len(cells) == len(s["territory"]), f"duplicate cell in {s['id']}"
        for t in s["territory"]:
            assert t not in seen, f"{t} in {seen.get(t)} and {s['id']}"
            seen[t] = s["id"]
        assert s["pos"] in s["territory"], s["id"]
        assert flood(m, cell(s["pos"]), lambda a, b, cells=cells: b in cells) == cells, f"{s['id']} not contiguous"
        assert "owner" not in s, "the map starts neutral (M8)"


def test_no_territory_in_the_river_and_no_stronghold_off_ground(m):
    """seed l.10: 原则上河道不允许通过 (M2): the river holds no territory and no stronghold."""
    for s in m["strongholds"]:
        assert terrain(m, cell(s["pos"])) in ".#", s["id"]
        for t in s["territory"]:
            assert terrain(m, cell(t)) != "~", (s["id"], t)


def test_kinds(m):
    """seed l.42-47: 8.1功能类型1 ... 8.5功能类型5 ... 8.6据点9新都大桥 (M6)."""
    for s in m["strongholds"]:
        assert s["kind"] in KINDS | {"bridge"}
        assert (s["kind"] == "bridge") == (s["id"] == 9)


def test_bridge_is_stronghold_9(m):
    """seed l.26/l.47: 9 1 0.43% ... 8.6据点9新都大桥 (M3): one cell, standing on the bridge."""
    s9 = by_id(m)[9]
    assert s9["name"] == "新都大桥" and s9["kind"] == "bridge"
    assert s9["territory"] == [s9["pos"]]
    c = cell(s9["pos"])
    assert terrain(m, c) == "."
    assert c in bridge_cells(m)
    assert len(bridge_cells(m)) == 2
    assert all(terrain(m, b) == "." for b in bridge_cells(m))
    # river above and below the bridge
    assert terrain(m, (c[0], c[1] - 1)) == "~" and terrain(m, (c[0], c[1] + 1)) == "~"


def test_river_two_wide_and_crosses_the_map(m):
    """seed l.10: 河道的宽都为2 (M2): every row but the bridge row has exactly one run of 2
    river cells; consecutive runs overlap so the river is one orthogonally connected band from the
    top edge to the bottom edge."""
    by = bridge_row(m)
    runs = {}
    for y in range(m["height"]):
        run = river_run(m, y)
        if y == by:
            continue
        assert len(run) == 2 and run[1] == run[0] + 1, (y + 1, run)
        runs[y] = run
    ys = sorted(runs)
    assert ys[0] == 0 and ys[-1] == m["height"] - 1
    for y in ys:
        nxt = y + 1 if y + 1 != by else y + 2
        if nxt in runs:
            assert set(runs[y]) & set(runs[nxt]), (y + 1, nxt + 1)
    # the bridge spans the bed: same columns as the river just above and below it
    assert river_run(m, by - 1) == river_run(m, by + 1)


def test_river_separates_the_halves(m):
    """seed l.10: 原则上河道不允许通过，只有RIDER和CASTER使用技能才能通过 (M2, M3): without the
    bridge, the non-river cells fall into exactly two parts, west (深山町) and east (新都); the
    bridge joins them."""
    bridge = bridge_cells(m)
    dry = lambda a, b: terrain(m, b) != "~" and b not in bridge  # noqa: E731
    west = flood(m, (0, 0), dry)
    east = flood(m, (m["width"] - 1, m["height"] - 1), dry)
    land = {c for c in all_cells(m) if terrain(m, c) != "~" and c not in bridge}
    assert not west & east
    assert west | east == land
    assert all(half(m, c) == "west" for c in west)
    assert all(half(m, c) == "east" for c in east)
    with_bridge = flood(m, (0, 0), lambda a, b: terrain(m, b) != "~")
    assert (m["width"] - 1, m["height"] - 1) in with_bridge


def test_stronghold_6_above_stronghold_1(m):
    """seed l.8: 即玩家可以从6号据点方向移动到1号据点方向，而不能逆向，除非特殊介职 (M4)."""
    s = by_id(m)
    six, one = cell(s[6]["pos"]), cell(s[1]["pos"])
    assert HEIGHT[terrain(m, six)] > HEIGHT[terrain(m, one)]
    assert steps(m, six, one, "SABER") is not None
    assert steps(m, one, six, "SABER") is None
    assert steps(m, one, six, "LANCER") is not None


def test_cliffs_and_high_ground_on_both_halves(m):
    """seed l.7: 地形高差，黑色的即为悬崖，一般介职只能从内到外即由高到低移动 (M4)."""
    for side in ("west", "east"):
        kinds = Counter(terrain(m, c) for c in all_cells(m) if terrain(m, c) != "~" and half(m, c) == side)
        assert kinds["#"] >= 3 and kinds["^"] >= 5, (side, kinds)


def test_walkers_reach_their_half(m, sc):
    """seed l.7: 如果要从低到高只有LANCER、RIDER和CASTER使用技能才能通过 (M4): from every start a
    walker reaches the bridge and every stronghold of its half except the cliff-top one; a climber
    reaches all of them."""
    for ch in sc["characters"]:
        start = cell(ch["pos"])
        side = half(m, start)
        for s in m["strongholds"]:
            if half(m, cell(s["pos"])) not in (side, "bridge"):
                continue
            cliff = terrain(m, cell(s["pos"])) == "#"
            assert (steps(m, start, cell(s["pos"]), "SABER") is None) == cliff, (ch["id"], s["id"])
            assert steps(m, start, cell(s["pos"]), "LANCER") is not None


def test_undersea_tunnel(m):
    """seed l.12: 海底隧道为双通道，双口均为双向出入口 (M5): one tunnel, a ground mouth on each half."""
    assert len(m["tunnels"]) == 1
    t = m["tunnels"][0]
    assert set(t) == {"mouths", "length"}
    a, b = (cell(x) for x in t["mouths"])
    assert terrain(m, a) == "." and terrain(m, b) == "."
    assert {half(m, a), half(m, b)} == {"west", "east"}
    assert isinstance(t["length"], int) and 1 <= t["length"] <= 5
    assert rot(a, m) == b


def test_kind_balance_between_halves(m):
    """seed l.4: 某些据点具有特殊的功能，抢夺后可以增强己方阵营的战斗力 (M6, M7): each half has
    two strongholds of each kind."""
    per = {side: Counter(s["kind"] for s in m["strongholds"] if half(m, cell(s["pos"])) == side)
           for side in ("west", "east")}
    assert per["west"] == per["east"] == Counter({k: 2 for k in KINDS})


def test_territory_balance_between_halves(m):
    """seed l.14: 当你占据此据点时相应地也就获得了这片领土 (M7): the halves' territory differs by at
    most 4 cells (it is 116 to 115, with 新都大桥's one cell between)."""
    tot = Counter()
    for s in m["strongholds"]:
        tot[half(m, cell(s["pos"]))] += len(s["territory"])
        assert {half(m, cell(t)) for t in s["territory"]} == {half(m, cell(s["pos"]))}, s["id"]
    assert abs(tot["west"] - tot["east"]) <= 4, tot
    assert tot["bridge"] == 1


def test_halves_mirror_each_other(m):
    """seed l.3: 本游戏共设置了21个据点 (M7): the east half is the west half turned 180 degrees:
    the same terrain cell for cell (the bridge row aside), and each west stronghold has an east twin
    of the same kind on the turned cell, with a territory within one cell of its own."""
    bridge = bridge_cells(m)
    for c in all_cells(m):
        if c in bridge or rot(c, m) in bridge or c[1] == bridge_row(m) and terrain(m, c) == "~":
            continue
        assert terrain(m, c) == terrain(m, rot(c, m)), name(c)
    at = {cell(s["pos"]): s for s in m["strongholds"]}
    for s in m["strongholds"]:
        if s["kind"] == "bridge":
            continue
        twin = at.get(rot(cell(s["pos"]), m))
        assert twin is not None, s["id"]
        assert twin["kind"] == s["kind"]
        assert abs(len(twin["territory"]) - len(s["territory"])) <= 1
        mine = {rot(cell(t), m) for t in s["territory"]}
        theirs = {cell(t) for t in twin["territory"]}
        assert len(mine ^ theirs) <= 1, (s["id"], twin["id"])


def test_seed_teleport_example_fits(m):
    """seed l.154: 从据点3到据点4，到达地图坐标（C,11） (M9): stronghold 4 is at C11 and
    stronghold 3 is within a CASTER's 5-cell teleport of it (R4)."""
    s = by_id(m)
    assert s[4]["pos"] == "C11"
    (x3, y3), (x4, y4) = cell(s[3]["pos"]), cell(s[4]["pos"])
    assert abs(x3 - x4) + abs(y3 - y4) <= 5
    assert half(m, (x3, y3)) == half(m, (x4, y4))


def test_names_are_fuyuki_places(m):
    """seed l.47: 8.6据点9新都大桥 (M6): 21 distinct names, Miyama places west, Shinto places east."""
    names = [s["name"] for s in m["strongholds"]]
    assert len(set(names)) == 21
    west = {"柳洞寺", "圆藏山", "远坂邸", "间桐邸", "卫宫邸", "穗群原学园", "爱因兹贝伦城", "商店街",
            "深山町十字路口", "冬木港"}
    for s in m["strongholds"]:
        if s["name"] in west:
            assert half(m, cell(s["pos"])) == "west", s["name"]
        elif s["id"] != 9:
            assert half(m, cell(s["pos"])) == "east", s["name"]


# ---------------------------------------------------------------- the scenario

ROSTER = {
    "artoria": ("阿尔托利亚", "CASTER", "red", "alice"),
    "gawain": ("高文", "SABER", "red", "bob"),
    "emiya": ("卫宫", "ARCHER", "red", "carol"),
    "cu_chulainn": ("库丘林", "LANCER", "red", "dave"),
    "medusa": ("美杜莎", "RIDER", "red", "erin"),
    "kojiro": ("佐佐木小次郎", "ASSASSIN", "red", "frank"),
    "heracles": ("赫拉克勒斯", "BERSERKER", "red", "grace"),
    "medea": ("美狄亚", "CASTER", "blue", "heidi"),
    "mordred": ("莫德雷德", "SABER", "blue", "ivan"),
    "gilgamesh": ("吉尔伽美什", "ARCHER", "blue", "judy"),
    "diarmuid": ("迪尔姆德", "LANCER", "blue", "mallory"),
    "iskandar": ("伊斯坎达尔", "RIDER", "blue", "niaj"),
    "hassan": ("哈桑", "ASSASSIN", "blue", "olivia"),
    "lancelot": ("兰斯洛特", "BERSERKER", "blue", "peggy"),
}


def test_scenario_header(sc):
    """seed l.2: 地图由20X14的格子组成 (M8): the default scenario plays the bundled map."""
    assert sc["ruleset"] == "grail_war" and sc["name"] == "fuyuki"
    assert sc["sides"] == ["red", "blue"] and sc["map"] == "fuyuki"
    assert sc["rules"] == {"vision": 2, "initial_hand": 6, "combat_draw": 2}


def test_scenario_roster(sc):
    """seed l.3: 每个格子都只可容纳最多四名战斗成员，每方最多两名 (M8): 14 servants, one of each class
    a side, class defaults for hp and move."""
    chars = sc["characters"]
    assert len(chars) == 14
    assert {c["id"]: (c["name"], c["class"], c["side"], c["player"]) for c in chars} == ROSTER
    for c in chars:
        assert set(c) == {"id", "name", "class", "side", "player", "pos"}
    assert Counter(c["class"] for c in chars) == Counter({k: 2 for k in
                                                          ("SABER", "ARCHER", "LANCER", "RIDER", "CASTER", "ASSASSIN", "BERSERKER")})
    assert Counter((c["class"], c["side"]) for c in chars).most_common(1)[0][1] == 1


def test_scenario_starts_fair(m, sc):
    """seed l.3: 每个格子都只可容纳最多四名战斗成员，每方最多两名 (M8): one servant a cell, on ground,
    red on the west half and blue on the east, each blue start the 180-degree turn of the red start
    of its class, no enemy within 5 cells, and no start on a stronghold."""
    chars = sc["characters"]
    pos = {c["id"]: cell(c["pos"]) for c in chars}
    assert len(set(pos.values())) == 14
    held = {cell(s["pos"]) for s in m["strongholds"]}
    for c in chars:
        p = pos[c["id"]]
        assert terrain(m, p) == ".", c["id"]
        assert p not in held, c["id"]
        assert half(m, p) == {"red": "west", "blue": "east"}[c["side"]], c["id"]
    red = {c["class"]: pos[c["id"]] for c in chars if c["side"] == "red"}
    blue = {c["class"]: pos[c["id"]] for c in chars if c["side"] == "blue"}
    for cls in red:
        assert rot(red[cls], m) == blue[cls], cls
    for a in red.values():
        for b in blue.values():
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 5


def test_scenario_bridge_race_is_close(m, sc):
    """seed l.47: 8.6据点9新都大桥：占据此据点可额外获得以此为中心7X7的战场视野 (M3, M8): the one
    thing the turn cannot copy is 新都大桥's cell; twin servants reach it on foot within one step of
    each other."""
    bridge = cell(by_id(m)[9]["pos"])
    by_cls: dict[str, dict[str, int]] = {}
    for c in sc["characters"]:
        d = steps(m, cell(c["pos"]), bridge, c["class"])
        assert d is not None, c["id"]
        by_cls.setdefault(c["class"], {})[c["side"]] = d
    for cls, d in by_cls.items():
        assert abs(d["red"] - d["blue"]) <= 1, (cls, d)

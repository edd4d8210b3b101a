"""Every command of spec §2 through the CLI, success and error paths (issue 2)."""

from __future__ import annotations

import json

from tests.conftest import tree, write


def sheet(player: str, turn: int = 1, **extra: str) -> str:
    lines = [f"turn: {turn}", f"player: {player}"] + [f"{k}: {v}" for k, v in extra.items()]
    return "\n".join(lines) + "\n"


# new ---------------------------------------------------------------------------------------
def test_new_writes_campaign_files(tmp_path, gm):
    d = tmp_path / "c"
    out = gm("new", d, "--scenario", "skirmish", "--seed", "abc").output
    assert "alice" in out and "sha256" in out
    for rel in ("campaign.yaml", "scenario.yaml", "secret/seed", "state/turn-000.json"):
        assert (d / rel).is_file(), rel
    state = json.loads((d / "state/turn-000.json").read_text("utf-8"))
    assert state["turn"] == 0 and state["winner"] is None
    assert [c["id"] for c in state["characters"]] == ["artoria", "gawain", "medea", "mordred"]
    assert all(len(c["hand"]) == 6 for c in state["characters"])


def test_new_refuses_existing_folder(tmp_path, gm, skirmish):
    before = tree(skirmish)
    r = gm("new", skirmish, "--scenario", "skirmish", code=1)
    assert "不会覆盖" in r.output
    assert tree(skirmish) == before


def test_new_unknown_scenario_is_usage_error(tmp_path, gm):
    r = gm("new", tmp_path / "x", "--scenario", "nowhere", code=2)
    assert "nowhere" in r.output and "skirmish" in r.output
    assert not (tmp_path / "x").exists()


def test_new_bad_scenario_names_field_in_english(tmp_path, gm):
    bad = write(tmp_path / "bad.yaml", "ruleset: grail_war\nmap: {width: 3, height: 1, rows: ['..']}\n"
                "characters: [{id: a, class: WIZARD, side: red, pos: A1}]\n")
    r = gm("new", tmp_path / "x", "--scenario", bad, "--lang", "en", code=1)
    assert "map.rows[0]" in r.output and "characters[0].class" in r.output and "WIZARD" in r.output
    assert not (tmp_path / "x").exists()


def test_new_yaml_syntax_error(tmp_path, gm):
    bad = write(tmp_path / "bad.yaml", "ruleset: [grail_war\n")
    r = gm("new", tmp_path / "x", "--scenario", bad, code=1)
    assert "bad.yaml" in r.output and "YAML" in r.output


# status / template / check / submit ----------------------------------------------------------
def test_status_lists_missing_then_received(gm, skirmish, tmp_path):
    assert "alice, bob, heidi, ivan" in gm("status", skirmish).output
    gm("submit", skirmish, write(tmp_path / "a.yaml", sheet("alice")))
    s = json.loads(gm("status", skirmish, "--json").output)
    assert s["received"] == ["alice"] and s["missing"] == ["bob", "heidi", "ivan"] and s["next"] == 1


def test_template_validates_as_is_in_both_languages(gm, skirmish, tmp_path):
    for lang in ("zh", "en"):
        out = tmp_path / f"t-{lang}.yaml"
        gm("template", skirmish, "alice", "-o", out, "--lang", lang)
        text = out.read_text("utf-8")
        assert ("玩家: alice" if lang == "zh" else "player: alice") in text
        assert "A3" in text  # position and legal destinations are shown
        gm("check", skirmish, out)


def test_template_never_overwrites(gm, skirmish, tmp_path):
    out = write(tmp_path / "mine.yaml", "precious")
    gm("template", skirmish, "alice", "-o", out, code=1)
    assert out.read_text() == "precious"


def test_template_unknown_player(gm, skirmish):
    r = gm("template", skirmish, "zed", code=1)
    assert "zed" in r.output and "alice" in r.output


def test_check_reports_every_problem_with_file_and_field(gm, skirmish, tmp_path):
    f = write(tmp_path / "a.yaml", "turn: 7\nplayer: alice\ngem: sometimes\nfoo: 1\nmove: {to: Z99}\n")
    r = gm("check", skirmish, f, "--lang", "en", code=1)
    lines = r.output.strip().splitlines()
    assert any("a.yaml:1: turn:" in l and "turn 7" in l for l in lines)
    assert any("a.yaml:3: gem:" in l and "self_first" in l for l in lines)
    assert any("a.yaml:4: foo:" in l and "unknown key" in l for l in lines)
    assert any("a.yaml:5: move.to:" in l and "Z99" in l for l in lines)


def test_check_accepts_chinese_aliases(gm, skirmish, tmp_path):
    f = write(tmp_path / "a.yaml", "回合: 1\n玩家: alice\n目标优先: 血多的优先\n宝石: 救队友优先\n"
              "出杀顺序: [对敌人出杀, 不出杀, 对魔术牌出杀]\n移动: {目的地: '(B,3)'}\n")
    gm("check", skirmish, f)


def test_check_missing_file_and_unknown_player(gm, skirmish, tmp_path):
    r = gm("check", skirmish, tmp_path / "nope.yaml", code=1)
    assert "nope.yaml" in r.output
    f = write(tmp_path / "z.yaml", sheet("zed"))
    assert "zed" in gm("check", skirmish, f, code=1).output


def test_submit_stores_and_rejection_changes_nothing(gm, skirmish, tmp_path):
    gm("submit", skirmish, write(tmp_path / "a.yaml", sheet("alice", move="{to: B2, special: climb}")))
    stored = skirmish / "orders/turn-001/alice.yaml"
    assert "B2" in stored.read_text("utf-8")
    before = tree(skirmish)
    gm("submit", skirmish, write(tmp_path / "b.yaml", sheet("alice", turn=2)), code=1)
    assert tree(skirmish) == before


def test_not_a_campaign(gm, tmp_path):
    r = gm("status", tmp_path, code=1)
    assert "campaign.yaml" in r.output


# resolve / show / report ---------------------------------------------------------------------
def test_resolve_moves_and_writes_everything(gm, skirmish, tmp_path):
    gm("submit", skirmish, write(tmp_path / "a.yaml", sheet("alice", move="{to: A1}")))
    out = gm("resolve", skirmish).output
    assert "turn-001" in out
    state = json.loads((skirmish / "state/turn-001.json").read_text("utf-8"))
    pos = {c["id"]: c["pos"] for c in state["characters"]}
    assert pos == {"artoria": "A1", "gawain": "B3", "medea": "H3", "mordred": "G3"}
    log = [json.loads(l) for l in (skirmish / "log/turn-001.jsonl").read_text("utf-8").splitlines()]
    assert [(e["start"], e["end"]) for e in log if e["type"] == "step"] == [("A3", "A2"), ("A2", "A1")]
    for who in ("public", "alice", "bob", "heidi", "ivan"):
        for ext in ("bbcode", "md"):
            assert (skirmish / f"reports/turn-001/{who}.{ext}").is_file()


def test_show_json_has_spec_shape(gm, skirmish):
    v = json.loads(gm("show", skirmish, "--json").output)
    assert {"ruleset", "turn", "winner", "characters", "strongholds", "territory"} <= set(v)
    c = v["characters"][0]
    assert {"id", "name", "player", "side", "class", "hp", "max_hp", "pos", "alive", "hand", "equipment"} <= set(c)
    assert set(c["hand"][0]) >= {"name", "suit", "rank"}
    assert c["equipment"] == {"weapon": None, "armor": None}
    s = v["strongholds"][0]
    assert {"id", "name", "pos", "kind", "owner", "destroyed", "territory"} <= set(s)
    assert v["territory"] == {"red": 0, "blue": 0}


def test_show_player_hides_others_hands_and_far_characters(gm, skirmish):
    v = json.loads(gm("show", skirmish, "--player", "alice", "--json").output)
    ids = {c["id"]: c for c in v["characters"]}
    assert set(ids) == {"artoria", "gawain"}  # medea/mordred at H3/G3 are beyond 2 cells
    assert ids["gawain"]["hand"] is None and ids["artoria"]["hand"]
    assert "deck" not in v and "equipment_pile" not in v
    gm("show", skirmish, "--player", "zed", code=1)
    assert "阿尔托利亚" in gm("show", skirmish).output


def test_report_formats_and_errors(gm, skirmish):
    gm("resolve", skirmish)
    assert "[b]" in gm("report", skirmish).output
    assert gm("report", skirmish, "--format", "markdown", "--player", "alice").output.startswith("## ")
    html = gm("report", skirmish, "--format", "html").output
    assert html.startswith("<!DOCTYPE html>") and "<table>" in html
    gm("report", skirmish, "--format", "pdf", code=2)
    gm("report", skirmish, "--turn", "9", code=2)
    gm("report", skirmish, "--lang", "fr", code=2)


# rollback / verify -----------------------------------------------------------------------------
def test_rollback_keeps_superseded_and_re_resolves(gm, skirmish, tmp_path):
    gm("resolve", skirmish)
    first = (skirmish / "state/turn-001.json").read_bytes()
    gm("resolve", skirmish)
    gm("rollback", skirmish, "--to", "1")
    assert not (skirmish / "state/turn-002.json").exists()
    assert (skirmish / "superseded/001/state/turn-002.json").is_file()
    assert (skirmish / "state/turn-001.json").read_bytes() == first
    gm("submit", skirmish, write(tmp_path / "b.yaml", sheet("bob", turn=2, move="{to: C1}")))
    gm("resolve", skirmish)
    gm("verify", skirmish)
    gm("rollback", skirmish, "--to", "5", code=2)


def test_verify_detects_tampering(gm, skirmish):
    gm("resolve", skirmish)
    assert "1" in gm("verify", skirmish).output
    p = skirmish / "state/turn-001.json"
    p.write_text(p.read_text("utf-8").replace('"hp": 4', '"hp": 3', 1), "utf-8")
    r = gm("verify", skirmish, code=1)
    assert "turn-001.json" in r.output
    gm("verify", skirmish, "--seed", "wrong", code=1)


def test_determinism_byte_identical(gm, tmp_path):
    """Same scenario + seed + orders -> byte-identical states, logs and posts."""
    outs = []
    for k in range(2):
        d = tmp_path / f"c{k}"
        gm("new", d, "--scenario", "skirmish", "--seed", "same")
        gm("submit", d, write(tmp_path / f"a{k}.yaml", sheet("alice", move="{to: C3}")))
        gm("submit", d, write(tmp_path / f"m{k}.yaml", sheet("ivan", move="{to: F3}")))
        gm("resolve", d)
        gm("resolve", d)
        outs.append({k2: v for k2, v in tree(d).items() if not k2.startswith("orders")})
    assert outs[0] == outs[1]
    assert len(outs[0]) > 10


def test_demo_plays_turns_and_never_overwrites(gm, tmp_path):
    d = tmp_path / "demo"
    out = gm("demo", d, "--scenario", "skirmish", "--turns", "2").output
    assert "turn-002/public.bbcode" in out
    assert (d / "state/turn-002.json").is_file()
    assert sorted(p.name for p in (d / "orders/turn-001").iterdir()) == ["alice.yaml", "bob.yaml", "heidi.yaml", "ivan.yaml"]
    gm("verify", d)
    gm("demo", d, "--scenario", "skirmish", code=1)


def test_a_folder_named_like_a_bundled_scenario_does_not_shadow_it(gm, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "skirmish").mkdir()
    gm("new", tmp_path / "c", "--scenario", "skirmish", "--seed", "x" * 16)
    assert (tmp_path / "c/state/turn-000.json").is_file()


def test_submit_after_the_game_is_over_is_refused(gm, tmp_path):
    import json as _json

    d = tmp_path / "c"
    gm("new", d, "--scenario", "skirmish", "--seed", "y" * 16)
    p = d / "state/turn-000.json"
    state = _json.loads(p.read_text("utf-8"))
    state["winner"] = "red"
    p.write_text(_json.dumps(state, ensure_ascii=False), "utf-8")
    sheet = write(tmp_path / "a.yaml", "turn: 1\nplayer: alice\n")
    r = gm("submit", d, sheet, code=1)
    assert "红方" in r.output and not (d / "orders/turn-001/alice.yaml").exists()  # the winner in words

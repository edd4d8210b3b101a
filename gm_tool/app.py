"""Campaign operations behind the CLI, game-neutral: each returns plain data or text.

The CLI (``gm_tool.cli``) only parses arguments and prints; everything a command does is here,
so it can be called from tests, benches and other programs.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gm_tool.core import ruleset as rulesets
from gm_tool.core import safeyaml
from gm_tool.core.chance import GENERATOR, commitment, new_seed
from gm_tool.core.events import jsonl, read_jsonl
from gm_tool.core.render import MAX_DISPLAY_NAME, Forum, check_forum
from gm_tool.core.store import (
    RERENDER,
    Campaign,
    abandoned_fill,
    atomic_dir,
    atomic_write,
    dump_json,
    dump_yaml,
    is_debris,
    remove,
    safe_name,
    turn_name,
    yaml_text,
)
from gm_tool.errors import USAGE, GmError, Problem
from gm_tool.i18n import message, register

register({
    "player.clash": {"zh": "玩家名 {player!r} 与另一玩家只差大小写，在某些系统上会成为同一个文件；请改名",
                     "en": "player {player!r} differs from another only by case; on some systems they would share files"},
    "amend.reason": {"zh": "请用 --reason 写明调整理由（会出现在公开帖中）",
                     "en": "give the reason with --reason (it is shown in the public post)"},
    "amend.bad_file": {"zh": "调整记录应含 action、args、reason", "en": "an amendment holds action, args and reason"},
    "amend.nothing_to_undo": {"zh": "没有可撤销的 GM 调整：上一回合结算后尚无调整（已结算的回合请用 gm rollback）",
                              "en": "no GM edit to undo: none was made since the last turn (for a resolved turn use gm rollback)"},
    "reveal.not_over": {"zh": "游戏尚未结束（第 {turn} 回合）；公布种子会让玩家预知后面的骰子与牌序。确需公布请加 --force",
                        "en": "the game is not over (turn {turn}); revealing the seed lets players foresee every later draw. Add --force to reveal anyway"},
    "verify.extra": {"zh": "重放不会产生这个文件（被添加或伪造？）", "en": "a file the replay does not produce (added or forged?)"},
    "verify.extra_dir": {"zh": "重放不会产生这个文件夹（被添加？）", "en": "a folder the replay does not produce (added?)"},
    "verify.input_changed": {"zh": "第 {turn} 回合结算后此文件被改动过（{record} 记录了结算时读到的内容）",
                             "en": "changed since turn {turn} was resolved ({record} records what the turn read)"},
    "verify.input_added": {"zh": "第 {turn} 回合结算时没有这个文件，它是之后加上的（见 {record}）",
                           "en": "added after turn {turn} was resolved; the turn did not read it (see {record})"},
    "verify.input_removed": {"zh": "第 {turn} 回合结算时读过这个文件，现在不见了（见 {record}）",
                             "en": "read when turn {turn} was resolved and missing now (see {record})"},
    "verify.record": {"zh": "第 {turn} 回合的输入记录与它列出的文件不符，而回合本身与重放一致：记录被改动过",
                      "en": "turn {turn}'s record of its inputs does not match the files it lists, while the turn replays the same: the record was changed"},
    "verify.record_missing": {"zh": "第 {turn} 回合的输入记录不见了（此前的回合都有记录，gm resolve 每回合都会写）",
                              "en": "turn {turn}'s record of its inputs is missing (the turns before it have theirs; gm resolve writes one every turn)"},
    "verify.input_or_record": {"zh": "与 {record} 记录的内容不同，而第 {turn} 回合按它现在的样子重放结果相同：这个文件或那份记录在结算后被改动过",
                               "en": "not what {record} records, yet turn {turn} replays the same from it as it is now: this file or that record was changed since the turn was resolved"},
    "verify.settings": {"zh": "每个回合的帖子都与重放不同（共 {count} 个文件、{turns} 个回合），而状态与日志完全一致：帖子的写法变了，"
                                "多半是 campaign.yaml 的 lang（现为 {now!r}）或 forum 设置在帖子写好后被手工改过。请改回原值，"
                                "或用 gm forum 按现在的设置重写全部帖子。第一处：{file}：{detail}",
                          "en": "every turn's posts differ from the replay ({count} files over {turns} turns) while the states and logs match "
                                "exactly: the way posts are written changed, most likely campaign.yaml's lang (now {now!r}) or forum "
                                "settings, edited by hand after the posts were written. Put it back, or run gm forum to write every post "
                                "again with the settings as they are. First: {file}: {detail}"},
    "verify.after_end": {"zh": "游戏在第 {end} 回合已结束，重放不会有第 {turn} 回合（被复制或伪造的回合？）",
                         "en": "the game ended at turn {end}; the replay has no turn {turn} (a copied or forged turn?)"},
    "verify.uncommitted": {"zh": "第 {turn} 回合没有状态文件（未提交），而这个文件与重放第 {turn} 回合的结果不同：{detail}",
                           "en": "turn {turn} has no state file (never committed) and this file is not what replaying it gives: {detail}"},
    "verify.uncommitted_stale": {"zh": "第 {turn} 回合没有状态文件（未提交），而按现在的文件它根本无法结算：这不是一次中断的 gm resolve 留下的",
                                 "en": "turn {turn} has no state file (never committed) and cannot be resolved from the files as they are: no interrupted gm resolve left this"},

    "seed.bad": {"zh": "种子不可用：不能为空、不能首尾有空格、不能含换行或控制字符，且不超过 {limit} 个字符（承诺按字节计算，多一个空格就永远无法校验）",
                 "en": "unusable seed: it must not be empty, start or end with a space, hold a line break or control character, or exceed {limit} characters (the commitment is over its exact bytes; one stray space and it can never be verified)"},
    "campaign.link": {"zh": "战役文件夹是一个链接；请直接给出真实路径", "en": "the campaign folder is a link; give its real path"},
    "verify.meta": {"zh": "campaign.yaml 的 {name} 与 scenario.yaml 不符：记录为 {stored!r}，应为 {want!r}",
                    "en": "campaign.yaml's {name} does not match scenario.yaml: recorded {stored!r}, replay gives {want!r}"},
    "submit.changed": {"zh": "文件在校验期间被改动；请再提交一次", "en": "the file changed while it was being checked; submit it again"},
    "verify.generator": {"zh": "此战役的随机数生成器为 {value!r}，本版本只能重放 {known!r}；请用创建此战役时的 gm 版本校验",
                         "en": "this campaign's generator is {value!r}; this version replays only {known!r}: verify it with the gm version that created it"},
    "verify.rules_version": {"zh": "此战役按 {ruleset} 规则版本 {value!r} 创建，本版本的规则为第 {known} 版（其后有规则修正，重放结果会不同）；请用创建此战役时的 gm 版本校验",
                             "en": "this campaign was made under {ruleset} rules version {value!r}; this version plays version {known} (rules were corrected since, so a replay would differ): verify it with the gm version that created it"},
    "resolve.stale": {"zh": "要结算的是第 {want} 回合，但现在待结算的是第 {turn} 回合（期间有人结算或回退过）；什么都没有改动，请重新查看",
                      "en": "this was to resolve turn {want}, but the turn due is now {turn} (someone resolved or rolled back meanwhile); nothing was changed: look again"},
    "dice.notes_full": {"zh": "本回合骰子文件的备注已满（上限 {limit} 个字符）；新的骰子请不带 --note 保存",
                        "en": "the notes of this turn's dice file are full ({limit} characters); store more dice without --note"},
    "rollback.none": {"zh": "已在第 {turn} 回合，无需回退", "en": "already at turn {turn}; nothing to roll back"},
})

BUNDLED = Path(__file__).parent / "scenarios"
FORMATS = ("bbcode", "markdown", "html")


# scenarios ---------------------------------------------------------------------------------
def bundled_scenarios() -> list[str]:
    return sorted(p.stem for p in BUNDLED.glob("*.yaml"))


def load_scenario(ref: str) -> tuple[dict[str, Any], str]:
    """A bundled scenario by name, or a scenario file by path. Returns (mapping, source name)."""
    path = Path(ref)
    if ref in bundled_scenarios() and not path.is_file():  # a folder named like a bundled scenario does not shadow it
        path = BUNDLED / f"{ref}.yaml"
    elif not path.exists():
        raise GmError.one("scenario.unknown", field="--scenario", exit_code=USAGE, name=ref,
                          allowed=", ".join(bundled_scenarios()))
    data = safeyaml.load_mapping(path, display=str(ref) if path.parent == BUNDLED else str(path))
    return data, (str(ref) if path.parent == BUNDLED else str(path))


def _ruleset_of(scenario: dict[str, Any], source: str) -> rulesets.RulesetBase:
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
    ruleset: rulesets.RulesetBase

    @property
    def lang(self) -> str:
        return self.meta.get("lang", "zh")

    def state(self, n: int | None = None) -> dict[str, Any]:
        """The state after turn ``n`` (default: the latest) with the GM's amendments made after it:
        what the next turn starts from, and what every command shows and checks against."""
        n = self.campaign.latest() if n is None else n
        return amended(self, self.campaign.load_state(n), n)[0]

    def winner(self, state: dict[str, Any]) -> str | None:
        """The winner's name, "draw", or None while the game goes on (the ruleset's outcome)."""
        return self.ruleset.outcome(state).label

    def result(self, state: dict[str, Any], lang: str | None = None) -> str | None:
        """A finished game's result as a sentence in ``lang`` (the winner by display name or side
        name, or a draw); None while the game goes on."""
        from gm_tool.core.render import use_forum

        outcome = self.ruleset.outcome(state)
        if not outcome.over:
            return None
        lang = lang or self.lang
        if outcome.draw or outcome.winner is None:
            return message("campaign.finished_draw", lang)
        with use_forum(forum_of(self, self.campaign.latest())):
            return message("campaign.finished", lang, winner=self.ruleset.winner_words(outcome, lang))

    def refuse_if_over(self, state: dict[str, Any], lang: str | None = None) -> None:
        """GmError saying the game is over and who won, when it is (no next turn is offered)."""
        result = self.result(state, lang)
        if result is not None:
            raise GmError.one("campaign.over", file=str(self.campaign.root), result=result)

    def templates_dir(self) -> Path | None:
        folder = self.campaign.root / "templates"
        return folder if folder.is_dir() else None


def open_campaign(root: Path) -> Open:
    campaign = Campaign(root).require()
    meta = campaign.meta()
    return Open(campaign, meta, _ruleset_of(meta, str(campaign.meta_path)))


def _initial_state(op: Open, seed: str) -> tuple[dict[str, Any], str | None]:
    """The campaign's turn 0 from scenario.yaml and the seed, with the text of
    ``log/turn-000.jsonl`` (None when setting up drew no chance)."""
    scenario_path = op.campaign.root / "scenario.yaml"
    scenario = safeyaml.load_mapping(scenario_path)
    begun = op.ruleset.begin(scenario, str(scenario_path), seed)
    return begun.state, _log_text(begun.events)


def _log_text(events: list[dict[str, Any]]) -> str | None:
    return jsonl(events) if events else None


def new_campaign(root: Path, scenario_ref: str, seed: str | None = None, lang: str = "zh") -> dict[str, Any]:
    """Create a campaign folder. It is built whole in a staging folder beside ``root`` and renamed
    into place, so the folder is a complete campaign or nothing: two ``gm new`` racing for one
    folder cannot both succeed (the rename of the loser fails and it leaves nothing), and a
    failed or killed ``gm new`` leaves no half campaign behind. ``root`` may be an empty folder.
    The seed is kept byte-exact in Unicode normal form NFC; one with surrounding spaces or control
    characters is refused (it would be committed one way and read another). Returns the folder, the players, the
    commitment and ``seed_bits`` (an upper bound of a given seed's strength, None if random)."""
    root = Path(root)
    _refuse_existing(root)
    if seed is not None:
        import unicodedata

        _check_seed(seed)
        seed = unicodedata.normalize("NFC", seed)  # é typed composed or not is one seed (gm verify agrees)
    scenario, source = load_scenario(scenario_ref)
    given = seed
    seed = seed if seed is not None else new_seed()
    try:
        ruleset, begun, players, meta = check_scenario(scenario, source, seed, lang)  # before anything is written
    except GmError as exc:  # point each problem at its line in the scenario file
        from gm_tool.core.yamlpos import annotate_file

        annotate_file(exc, source, Path(source) if Path(source).is_file() else BUNDLED / f"{source}.yaml")  # in place
        raise
    state, setup_log = begun.state, _log_text(begun.events)
    scenario_text = yaml_text(scenario, str(root / "scenario.yaml"))  # refused before anything is written
    from gm_tool.core.store import publish_dir

    def build(stage: Path) -> None:
        try:
            fill(stage)
        except OSError as exc:  # a full disk names the file where it was to be, not its staging copy
            if isinstance(exc.filename, str) and exc.filename.startswith(str(stage) + os.sep):
                exc.filename = str(root) + exc.filename[len(str(stage)):]
            exc.nothing_made = True  # type: ignore[attr-defined]  # the message says so, not "as it was"
            raise

    def fill(stage: Path) -> None:
        os.close(os.open(stage / ".lock", os.O_WRONLY | os.O_CREAT, 0o644))  # readers lock from the start
        (stage / "secret").mkdir(mode=0o700)
        atomic_write(stage / "secret" / "seed", seed + "\n", mode=0o600)
        atomic_write(stage / "scenario.yaml", scenario_text)
        campaign = Campaign(stage)
        atomic_write(campaign.state_path(0), dump_json(state))
        if setup_log is not None:  # the shuffles of setting up, for the GM and `gm verify`
            atomic_write(campaign.log_path(0), setup_log)
        atomic_write(stage / "log" / f"{turn_name(0)}.inputs.json", _inputs_text(stage, [stage / "scenario.yaml"]))
        # the opening posts are part of the folder that appears: a gm new killed after it appears
        # has written them, one killed before leaves nothing (or an abandoned fill the next clears)
        files = opening_files(Open(campaign, meta, ruleset), state, seed, begun.events)
        if files:
            atomic_dir(campaign.reports_dir(0), files)
            opening.extend(sorted(str(root / "reports" / turn_name(0) / name) for name in files))
        atomic_write(campaign.meta_path, yaml_text(meta, str(root / "campaign.yaml")))

    opening: list[str] = []
    if not publish_dir(root, build):  # another gm new got there first
        raise GmError.one("campaign.exists", file=str(root))
    return {"dir": str(root), "players": players, "commitment": meta["seed_commitment"], "opening": opening,
            "seed_bits": None if given is None else seed_bits(given)}


def check_scenario(scenario: dict[str, Any], source: str, seed: str,
                   lang: str = "zh") -> tuple[rulesets.RulesetBase, rulesets.Resolution, list[str], dict[str, Any]]:
    """Everything `gm new` checks in a scenario before it writes anything: its ruleset, its
    setup (the initial state and the events of setting it up), the players' names as file names,
    and what campaign.yaml records; GmError naming ``source`` and the field, never anything
    else (tests/test_fuzz_scenarios.py holds it to that)."""
    ruleset = _ruleset_of(scenario, source)
    begun = ruleset.begin(scenario, source, seed)
    players = ruleset.players(begun.state)
    _check_player_names(players, source)
    return ruleset, begun, players, _meta(ruleset, scenario, source, players, lang, commitment(seed))


def opening_files(op: Open, state: dict[str, Any], seed: str, events: list[dict[str, Any]] | None = None) -> dict[str, str | bytes]:
    """The opening posts (turn 0) for the initial ``state`` (``events``: those of setting it up),
    as ``{file name: text or bytes}`` for ``reports/turn-000/`` (empty when the ruleset has none)."""
    from gm_tool.core.posts import opening_posts

    posts = opening_posts(op.ruleset, state, op.lang, events=events, templates_dir=op.templates_dir(), secret=seed,
                          forum=forum_of(op, 0))
    if posts is None:
        return {}
    files: dict[str, str | bytes] = {f"{who}.{fmt}": text for who, rendered in posts.texts.items()
                                     for fmt, text in rendered.items()}
    files.update(posts.files)
    return files


def _setup_events(op: Open) -> list[dict[str, Any]]:
    """The events of `gm new` (log/turn-000.jsonl; none when setting up drew nothing)."""
    path = op.campaign.log_path(0)
    return read_jsonl(path.read_text("utf-8")) if path.is_file() else []


def forum_of(op: Open, n: int) -> Forum:
    """campaign.yaml's ``forum:`` settings (BBCode dialect, picture address, display names) for
    the posts of turn ``n``; GmError naming the field at fault."""
    return check_forum(op.meta.get("forum"), str(op.campaign.meta_path), turn_name(n))


def set_forum(root: Path, dialect: str | None = None, image_url: str | None = None,
              names: dict[str, str] | None = None) -> dict[str, Any]:
    """Change campaign.yaml's ``forum:`` settings (``image_url=""`` removes the address) and
    render every stored post again with them, so the folder and `gm verify` agree: the posts
    are derived from the turns, which do not change. Display names are for the campaign's
    players (those of the current state, a replacement included)."""
    op = open_campaign(root)
    _check_texts([("--image-url", image_url or "", MAX_URL)] +
                 [(f"--name.{player}", shown, MAX_DISPLAY_NAME) for player, shown in (names or {}).items()])
    from gm_tool.core.render import run_budget

    with _locked(op), run_budget():
        forum = dict(op.meta.get("forum") or {})
        if dialect is not None:
            forum["dialect"] = dialect
        if image_url == "":
            forum.pop("image_url", None)
        elif image_url is not None:
            forum["image_url"] = image_url
        if names:
            players = op.ruleset.players(op.state())
            for player in names:
                if player not in players:
                    raise GmError.one("player.unknown", file=str(op.campaign.meta_path), field=f"forum.names.{player}",
                                      player=player, allowed=", ".join(players))
            forum["names"] = {**(forum.get("names") or {}), **names}
        check_forum(forum, str(op.campaign.meta_path))
        meta = {**op.meta, "forum": forum}
        seed = op.campaign.seed()
        # all or nothing: the journal first, then campaign.yaml (the commit point), then every
        # turn's posts; a command killed on the way is finished by the next one (_recover)
        journal = op.campaign.root / RERENDER
        atomic_write(journal, dump_json({"forum": forum, "before": op.meta.get("forum") or {}}))
        atomic_write(op.campaign.meta_path, yaml_text(meta, str(op.campaign.meta_path)))
        last = _render_again(Open(op.campaign, meta, op.ruleset), seed)
        remove(journal)
    return {"forum": forum, "turns": last}


def _render_again(op: Open, seed: str) -> int:
    """Render every stored post again with campaign.yaml's settings (each turn's folder replaced
    whole); the last turn."""
    if op.campaign.reports_dir(0).is_dir():
        files0 = opening_files(op, op.campaign.load_state(0), seed, _setup_events(op))
        if files0:
            atomic_dir(op.campaign.reports_dir(0), files0)
    last = op.campaign.latest()
    for n in range(1, last + 1):
        files = compute_turn(op, op.campaign.load_state(n - 1), n, seed)
        prefix = f"reports/{turn_name(n)}/"
        atomic_dir(op.campaign.reports_dir(n), {k[len(prefix):]: v for k, v in files.items() if k.startswith(prefix)})
    return last


MAX_URL = 500  # a picture address
MAX_NOTE = 500  # one `gm dice --note`
MAX_NOTES = 5000  # all the notes of one turn's dice file
MAX_REASON = 500  # a `gm amend --reason`, shown in the public post


def _check_texts(texts: list[tuple[str, str, int]]) -> None:
    """Refuse, before anything is written, a GM-supplied text (option, text, limit) that is too
    long or holds a control character: what gm writes must read back."""
    from gm_tool.core.schema import text_problem

    for field, text, limit in texts:
        problem = text_problem(text, limit, one_line=field != "--note")
        if problem is not None:
            raise GmError.one(problem[0], field=field, exit_code=USAGE, **problem[1])


def write_opening(root: Path) -> list[str]:
    """Write the opening posts under ``reports/turn-000/`` (a step after the campaign is
    published; a campaign is whole without them, and ``gm verify`` checks them when present)."""
    op = open_campaign(root)
    with _locked(op, wait=10.0):  # a racing gm new may be holding the lock to see the folder is taken
        files = opening_files(op, op.campaign.load_state(0), op.campaign.seed(), _setup_events(op))
        if files:
            atomic_dir(op.campaign.reports_dir(0), files)
    return sorted(str(op.campaign.reports_dir(0) / name) for name in files)


def _meta(ruleset: rulesets.RulesetBase, scenario: dict[str, Any], source: str, players: list[str], lang: str,
          seed_commitment: str | None) -> dict[str, Any]:
    """campaign.yaml: what `gm new` records, and what `gm verify` recomputes from scenario.yaml."""
    return {"ruleset": ruleset.name, "rules_version": ruleset.rules_version,
            "scenario": scenario.get("name", Path(source).stem),
            "players": players, "lang": lang, "seed_commitment": seed_commitment, "chance": GENERATOR}


def _refuse_existing(root: Path) -> None:
    if root.is_symlink():
        raise GmError.one("campaign.link", file=str(root))
    if root.exists() and (not root.is_dir() or any(root.iterdir())) and not abandoned_fill(root):
        leftovers = Campaign(root).unfinished()  # False while another gm new is filling it
        raise GmError.one("campaign.unfinished" if leftovers else "campaign.exists", file=str(root))


MAX_SEED = 1024
WEAK_SEED_BITS = 100


def _check_seed(seed: str) -> None:
    """A seed is committed as its exact UTF-8 bytes, so refuse what would not survive a copy:
    surrounding spaces, control characters (line breaks), nothing at all, or an endless one."""
    import unicodedata

    bad = (not seed or seed != seed.strip() or len(seed) > MAX_SEED
           or any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in seed))
    if bad:
        raise GmError.one("seed.bad", field="--seed", exit_code=USAGE, limit=MAX_SEED)


def seed_bits(seed: str) -> int:
    """At most how many bits of guessing a seed is worth: its length times the bits of the
    smallest alphabet it is written in (a 16-digit number: 16 x 3.3 = 53 bits). A hand-picked
    seed is weaker still; below :data:`WEAK_SEED_BITS` `gm new` warns."""
    import math

    if seed.isascii() and seed.isdigit():
        size = 10
    elif all(ch in "0123456789abcdef" for ch in seed.lower()):
        size = 16
    else:
        size = sum(n for test, n in ((str.isdigit, 10), (str.islower, 26), (str.isupper, 26),
                                     (lambda ch: ch.isascii() and not ch.isalnum(), 33),
                                     (lambda ch: not ch.isascii(), 3000))  # CJK: a few thousand in use
                   if any(test(ch) for ch in seed))
    return int(len(seed) * math.log2(max(size, 2)))


def _check_player_names(players: list[str], source: str) -> None:
    """Every player name becomes a file name: refuse ``../x``, ``/etc``, ``a/b``, empty, reserved
    names, and two names one case-insensitive file system would merge."""
    seen: dict[str, str] = {}
    for player in players:
        if not safe_name(player):
            raise GmError.one("player.bad_name", file=source, field="characters", player=player)
        if player.casefold() in seen:
            raise GmError.one("player.clash", file=source, field="characters", player=player)
        seen[player.casefold()] = player


@contextlib.contextmanager
def _locked(op: Open, wait: float = 0.0) -> Iterator[None]:
    """Hold the campaign lock, after finishing whatever an interrupted command left undone: a
    rollback is completed (its NOTE.json is its journal), uncommitted turn outputs are dropped."""
    with op.campaign.lock(wait):
        _recover(op)
        yield


def _recover(op: Open, seed: str | None = None) -> None:
    """Finish what a killed command left: a rollback (its journal says how far it got), the posts
    of a `gm forum` (rendered again from campaign.yaml), the outputs of a turn never committed
    (dropped). ``seed``: the one to render with (`gm verify --seed` on a copy without secret/)."""
    root = op.campaign.root
    base = root / "superseded"
    if base.is_dir():
        for aside in sorted(base.iterdir()):
            note_path = aside / "NOTE.json"
            if not note_path.exists() and aside.is_dir() and all(is_debris(p.name) for p in aside.iterdir()):
                import shutil  # a rollback killed before its journal was written: it did nothing

                shutil.rmtree(aside)
                continue
            if note_path.is_file():
                note = json.loads(note_path.read_text("utf-8"))
                if note.get("status") == "pending":
                    _finish_rollback(op, aside, note)
    if (root / RERENDER).exists():  # gm forum: campaign.yaml is the old settings or the new, whole
        from gm_tool.core.render import run_budget

        current = Open(op.campaign, op.campaign.meta(), op.ruleset)
        with run_budget():  # the command's own budget, or one of its own for a command without
            _render_again(current, seed if seed is not None else op.campaign.seed())
        remove(root / RERENDER)
    last = op.campaign.latest()
    for folder, pattern in (("log", "turn-*.json*"), ("reports", "turn-*")):
        if (root / folder).is_dir():
            for path in sorted((root / folder).glob(pattern)):
                stem = path.name.split(".")[0]
                if stem[5:].isdigit() and int(stem[5:]) > last:  # written before a commit that never came
                    if path.is_dir():
                        import shutil

                        shutil.rmtree(path)
                    else:
                        path.unlink()


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
            if any(p.field for p in exc.problems):  # the sheet was read: a regular file within bounds
                from gm_tool.core.yamlpos import annotate_file

                exc = annotate_file(exc, str(path), path, op.ruleset.sheet_aliases)
            problems.extend(exc.problems)
            continue
        player = orders.player
        if player in result:
            problems.append(Problem("orders.duplicate_player", str(path), "player", {"player": player}))
        result[player] = (path, orders)
    if problems:
        raise GmError(problems)
    return result


def _read_bytes(path: Path) -> bytes | None:
    """A sheet's bytes, bounded (a FIFO or /dev/zero reads as None: check_files names those)."""
    try:
        if not path.is_file():
            return None
        with open(path, "rb") as fh:
            return fh.read(safeyaml.MAX_BYTES + 1)
    except OSError:
        return None


def submit(root: Path, file: Path, lang: str) -> Path:
    return submit_sheet(root, file, lang)["path"]


def submit_sheet(root: Path, file: Path, lang: str) -> dict[str, Any]:
    """Check a sheet and store it as the sheet of the player it names. Returns ``path``,
    ``player``, ``replaced`` (the stored sheet it replaced, or None), ``named`` (the player
    the file's name suggests when that is another player: alice.yaml holding bob's orders) and
    ``warnings`` (what the ruleset found legal but pointless in the sheet)."""
    op = open_campaign(root)
    with _locked(op):
        op.refuse_if_over(op.state(), lang)
        before = _read_bytes(Path(file))
        (player, (path, orders)), = check_files(op, [file], lang).items()
        if not safe_name(player):
            raise GmError.one("player.bad_name", file=str(path), field="player", player=player)
        raw = _read_bytes(path)
        if raw is None or raw != before:  # rewritten while it was checked: store nothing unchecked
            raise GmError.one("submit.changed", file=str(path))
        target = op.campaign.orders_dir(op.campaign.latest() + 1) / f"{player}.yaml"
        replaced = str(target.relative_to(op.campaign.root)) if target.is_file() else None
        stem = Path(file).stem
        named = stem if stem != player and stem in op.ruleset.players(op.state()) else None
        atomic_write(target, raw)
    return {"path": target, "player": player, "replaced": replaced, "named": named,
            "warnings": sheet_warnings(orders, path)}


def sheet_warnings(orders: Any, path: Path) -> list[Problem]:
    """What a valid sheet asks for that will not happen as written (a ruleset's ``warnings`` on
    its orders), each named at its line."""
    found = list(getattr(orders, "warnings", None) or ())
    if not found:
        return []
    from gm_tool.core.yamlpos import annotate_file

    return annotate_file(GmError(found), str(path), path).problems


def status(root: Path, lang: str = "zh") -> dict[str, Any]:
    """Whose sheets are in for the next turn, who is missing and what each missing player will do
    (in a sequential game a missing sheet is usually a pass: ``passes`` names them), the forum
    dice stored for the turn, and the GM edits waiting to open the next turn."""
    op = open_campaign(root)
    n = op.campaign.latest()
    state = op.state(n)
    due = op.ruleset.due(state)
    sent = sorted(p for p in op.campaign.order_files(n + 1) if p in due)
    missing = [p for p in due if p not in sent]
    out = {"turn": n, "next": None if op.winner(state) is not None else n + 1, "winner": op.winner(state),
           "result": op.result(state, lang), "turn_kind": op.ruleset.turn_kind,
           "due": due, "received": sent, "missing": missing,
           "passes": missing if op.ruleset.missing_sheet is rulesets.MissingSheet.PASS else [],
           "defaults": {p: op.ruleset.default_summary(state, p, lang) for p in missing},
           "amendments": [{k: a.get(k) for k in ("action", "args", "reason")} for _, a in _amendments(op, n)],
           "commitment": op.meta.get("seed_commitment")}
    files = op.campaign.order_files(n + 1)
    invalid: dict[str, list[str]] = {}
    for player in sent:  # a stored sheet a GM edit (or anything since) made invalid: every problem
        try:
            check_files(op, [files[player]], lang, state)
        except GmError as exc:
            invalid[player] = [p.render(lang) for p in exc.problems]
    out["invalid"] = invalid
    if op.ruleset.uses_dice_file:
        out["dice"] = _dice_for(op, n + 1)
    return out


def template(root: Path, player: str, lang: str) -> str:
    op = open_campaign(root)
    _require_player(op, player)
    state = op.state()
    op.refuse_if_over(state, lang)
    return op.ruleset.template(state, player, lang)


def import_message(root: Path, file: Path, player: str | None, lang: str) -> dict[str, Any]:
    """`gm import`: a player's message in the rule document's own form (read as text, bounded)
    turned into a YAML sheet, checked like `gm check`. Returns ``yaml`` (the sheet, commented
    with what each line was understood as), ``lines`` and ``player``; GmError naming each line
    that cannot be placed and each problem of the sheet."""
    op = open_campaign(root)
    if player is not None:
        _require_player(op, player)
    text = safeyaml.read_text(file)
    state = op.state()
    sheet, lines = op.ruleset.import_message(state, text, str(file), lang, player)
    try:
        orders = op.ruleset.parse_orders(state, sheet, str(file), lang)
    except GmError as exc:
        for p in exc.problems:
            p.file = f"{file} → {p.file}" if p.file and p.file != str(file) else str(file)
        exc.reading = lines
        raise
    head = "".join(f"# {n}: {line}\n#   → {said}\n" for n, line, said in lines)
    return {"yaml": head + dump_yaml(sheet), "lines": lines, "player": orders.player}


# resolving ---------------------------------------------------------------------------------
def _orders_for(op: Open, state: dict[str, Any], n: int) -> tuple[dict[str, Any], list[str], list[Path]]:
    """The due players' orders for turn ``n`` (a missing sheet is a pass or the default orders,
    as the ruleset declares), the players who sent nothing, and the sheets read."""
    files = op.campaign.order_files(n)
    due = op.ruleset.due(state)
    # a ruleset with standing orders also reads the sheets of players who are not due
    others = [p for p in op.ruleset.players(state) if p not in due and p in files] if op.ruleset.standing_sheets else []
    present = [files[p] for p in due + others if p in files]
    parsed = {p: orders for p, (_, orders) in check_files(op, present, op.lang, state).items()}
    orders, missing = op.ruleset.turn_orders(state, parsed)
    return orders, missing, present


DICE_FILE = "_dice.yaml"


class ForumRolls(list):
    """A turn's forum rolls (faces 1-6, in order) with the note each `gm dice` call gave, keyed
    by the index of the first roll it stored (``{0: "楼层 12", 2: "楼层 15"}``)."""

    def __init__(self, dice: list[int] | None = None, notes: dict[int, str] | None = None) -> None:
        super().__init__(dice or [])
        self.notes: dict[int, str] = dict(notes or {})


MAX_DICE = 1000


def _dice_for(op: Open, n: int) -> ForumRolls | None:
    """The forum rolls stored for turn ``n`` by `gm dice` (None: no file), each call's note kept
    with the rolls it gave."""
    path = op.campaign.orders_dir(n) / DICE_FILE
    if not path.is_file():
        return None
    data = safeyaml.load_mapping(path)
    dice = data.get("dice")
    if not isinstance(dice, list):
        raise GmError.one("field.type", file=str(path), field="dice", expected="list", got=type(dice).__name__)
    if len(dice) > MAX_DICE:
        raise GmError.one("dice.count", file=str(path), field="dice", limit=MAX_DICE)
    for i, d in enumerate(dice):
        if type(d) is not int or not 1 <= d <= 6:
            raise GmError.one("dice.face", file=str(path), field=f"dice.{i}", value=d, sides=6)
    # `note` (the contract's key) is the notes joined; `notes` says where each call's rolls start
    # when there is more than one note or it does not start at the first roll
    notes: dict[int, str] = {0: data["note"]} if isinstance(data.get("note"), str) and data["note"] else {}
    if data.get("notes"):
        notes = {}
    for i, entry in enumerate(data.get("notes") or []):
        if not isinstance(entry, dict) or type(entry.get("from")) is not int or not isinstance(entry.get("note"), str):
            raise GmError.one("dice.notes", file=str(path), field=f"notes.{i}")
        notes[entry["from"]] = entry["note"]
    return ForumRolls(dice, notes)


def dice_faces(values: list[str]) -> list[int]:
    """Faces as a GM pastes them from the forum: full-width digits (３) and separators (３，５、６)
    read as plain ones; anything but 1-6 is refused, naming the value."""
    import re
    import unicodedata

    texts = [t for v in values for t in re.split(r"[\s,;、，；]+", unicodedata.normalize("NFKC", str(v))) if t]
    dice: list[int] = []
    for i, text in enumerate(texts):
        if not (text.isascii() and text.isdigit() and 1 <= int(text) <= 6):
            raise GmError.one("dice.face", field=f"dice.{i}", value=text, sides=6)  # bad input: exit 1
        dice.append(int(text))
    return dice


def store_dice(root: Path, values: list[str], note: str = "", replace: bool = False) -> dict[str, Any]:
    """`gm dice`: add forum rolls (faces 1-6) to the dice file of the turn due. Each call appends
    to what is stored, its note kept beside the rolls it gave; ``replace`` drops what was stored
    first (a mistyped roll withdrawn; no values: the file is emptied). Replayed by `gm verify`."""
    op = open_campaign(root)
    if not op.ruleset.uses_dice_file:
        raise GmError.one("dice.no_file", field="dice", exit_code=USAGE)
    _check_texts([("--note", note.strip(), MAX_NOTE)])
    dice = dice_faces(values)
    if not dice and not replace:
        raise GmError.one("dice.none", field="dice", exit_code=USAGE)
    with _locked(op):
        n = op.campaign.latest() + 1
        op.refuse_if_over(op.state())
        stored = ForumRolls() if replace else _dice_for(op, n) or ForumRolls()
        path = op.campaign.orders_dir(n) / DICE_FILE
        record: dict[str, Any] = {"dice": list(stored) + dice}
        notes: list[dict[str, Any]] = [{"from": i, "note": text} for i, text in sorted(stored.notes.items())]
        if note.strip() and dice:
            notes.append({"from": len(stored), "note": note.strip()})
        if notes:
            record["note"] = "\n".join(str(x["note"]) for x in notes)
        if len(notes) > 1 or notes and notes[0]["from"] != 0:
            record["notes"] = notes
        if len(record["dice"]) > MAX_DICE:
            raise GmError.one("dice.count", file=str(path), field="dice", limit=MAX_DICE)
        if len(record.get("note", "")) > MAX_NOTES:
            raise GmError.one("dice.notes_full", file=str(path), field="note", limit=MAX_NOTES)
        atomic_write(path, yaml_text(record, str(path)))
    return {"file": str(path), "turn": n, "dice": record["dice"]}


UNDO = "undo"  # `gm amend DIR undo`: cancels the latest edit still waiting for the next turn


def _amendments(op: Open, n: int) -> list[tuple[Path, dict[str, Any]]]:
    """The GM's edits after turn ``n`` that are in force, in order: each ``undo`` record cancels
    the latest edit before it that is still in force (the files are kept: the record shows both)."""
    out: list[tuple[Path, dict[str, Any]]] = []
    for path in op.campaign.amendment_files(n):
        data = safeyaml.load_mapping(path)
        if "action" not in data or not isinstance(data.get("reason", ""), str):
            raise GmError.one("amend.bad_file", file=str(path))
        if data["action"] == UNDO:
            if out:
                out.pop()
            continue
        out.append((path, data))
    return out


def amended(op: Open, state: dict[str, Any], n: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``state`` (the stored state after turn ``n``) with the GM's amendments after turn ``n``
    applied in order, and their events. Pure given the files; a stored state is never rewritten."""
    events: list[dict[str, Any]] = []
    for path, action in _amendments(op, n):
        source = str(path.relative_to(op.campaign.root))
        state, evs = op.ruleset.amend(state, rulesets.check_amend(op.ruleset, action, source), source)
        events.extend(evs)
    return state, events


def compute_turn(op: Open, state: dict[str, Any], n: int, seed: str) -> dict[str, Any]:
    """Everything turn ``n`` writes, as ``{relative path: bytes or text}``, from the stored state
    after turn ``n - 1``, the GM's amendments after it, the stored sheets (and forum dice) and
    the seed. Pure given the inputs. The amendments' events open the turn's log and posts."""
    return _compute(op, state, n, seed)[0]


def _compute(op: Open, state: dict[str, Any], n: int, seed: str) -> tuple[dict[str, Any], list[str]]:
    read = op.campaign.amendment_files(n - 1)
    state, amend_events = amended(op, state, n - 1)
    op.refuse_if_over(state)
    orders, missing, sheets = _orders_for(op, state, n)
    read += sheets
    if op.ruleset.uses_dice_file:
        dice = _dice_for(op, n)
        read += [op.campaign.orders_dir(n) / DICE_FILE] if dice is not None else []
        result = op.ruleset.resolve(state, orders, seed, dice=dice)
    else:
        result = op.ruleset.resolve(state, orders, seed)
    events = result.events
    if amend_events:
        events = [{**e, "seq": i} for i, e in enumerate(amend_events + result.events)]
    from gm_tool.core.posts import turn_posts

    posts = turn_posts(op.ruleset, state, result.state, events, op.lang, templates_dir=op.templates_dir(), secret=seed,
                       forum=forum_of(op, n))
    name = turn_name(n)
    files: dict[str, Any] = {
        f"state/{name}.json": dump_json(result.state),
        f"log/{name}.jsonl": jsonl(events),
        # what the turn read: `gm verify` names a sheet, dice file or edit changed since
        f"log/{name}.inputs.json": _inputs_text(op.campaign.root, read),
    }
    for who, rendered in posts.texts.items():
        for fmt, text in rendered.items():
            files[f"reports/{name}/{who}.{fmt}"] = text
    for fname, data in posts.files.items():
        files[f"reports/{name}/{fname}"] = data
    return files, missing


def resolve(root: Path, preview: bool = False, expect: int | None = None) -> dict[str, Any]:
    """Resolve the next turn. Its reports folder is staged and renamed into place, then its log
    is written, then its state file: the commit point. A crash before it leaves the campaign at
    the previous turn (the partial outputs are dropped by the next command); after it, at this one.
    ``preview``: compute everything, write nothing (no lock needed: nothing changes).
    ``expect``: resolve only if the turn due is that one (checked under the lock: a page showing
    turn 3 never resolves turn 4 because a terminal resolved turn 3 meanwhile)."""
    op = open_campaign(root)
    from gm_tool.core.render import run_budget

    with run_budget():
        return _resolve(op, preview, expect)


def _resolve(op: Open, preview: bool, expect: int | None) -> dict[str, Any]:
    if preview:
        n = op.campaign.latest() + 1
        files, missing = _compute(op, op.campaign.load_state(n - 1), n, op.campaign.seed())
        return {"turn": n, "files": files, "missing": missing,
                "passed": missing if op.ruleset.missing_sheet is rulesets.MissingSheet.PASS else []}
    with _locked(op):
        n = op.campaign.latest() + 1
        if expect is not None and expect != n:
            raise GmError.one("resolve.stale", field="turn", want=expect, turn=n)
        files, missing = _compute(op, op.campaign.load_state(n - 1), n, op.campaign.seed())
        name = turn_name(n)
        reports = {k.split("/", 2)[2]: v for k, v in files.items() if k.startswith(f"reports/{name}/")}
        atomic_dir(op.campaign.reports_dir(n), reports)
        atomic_write(op.campaign.root / f"log/{name}.inputs.json", files[f"log/{name}.inputs.json"])
        atomic_write(op.campaign.log_path(n), files[f"log/{name}.jsonl"])
        atomic_write(op.campaign.state_path(n), files[f"state/{name}.json"])  # the commit point
    return {"turn": n, "reports": sorted(str(op.campaign.root / k) for k in files if k.startswith("reports/")),
            "state": str(op.campaign.state_path(n)), "winner": op.winner(json.loads(files[f"state/{name}.json"])),
            "result": op.result(json.loads(files[f"state/{name}.json"])),
            "missing": missing, "passed": missing if op.ruleset.missing_sheet is rulesets.MissingSheet.PASS else []}


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
    if not 0 <= n <= last:
        raise GmError.one("turn.unknown", field="--turn", exit_code=USAGE, turn=n, last=last)
    if not op.campaign.reports_dir(n).is_dir():  # a turn without posts (an opening the ruleset has none of)
        raise GmError.one("turn.no_posts", field="--turn", exit_code=USAGE, turn=n)
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
    """Return to the state after turn ``to``. Nothing is deleted: the later turns' states, logs and
    reports, the sheets and GM edits made for turns after ``to + 1`` are moved under
    ``superseded/NNN/``, with ``NOTE.json`` there and a line in ``log/rollbacks.jsonl``. The sheets
    and edits for turn ``to + 1`` stay: correct them and resolve again.

    Crash-safe: NOTE.json is written first as the journal ("pending"); state files go first,
    newest first (so the campaign is always at some turn between ``to`` and the last); any later
    command finishes a pending rollback before it does anything else."""
    op = open_campaign(root)
    with _locked(op):
        last = op.campaign.latest()
        if not 0 <= to <= last:
            raise GmError.one("turn.unknown", field="--to", exit_code=USAGE, turn=to, last=last)
        if to == last:
            raise GmError.one("rollback.none", field="--to", exit_code=USAGE, turn=to)
        base = op.campaign.root / "superseded"
        k = 1
        while (base / f"{k:03d}").exists():
            k += 1
        aside = base / f"{k:03d}"
        note = {"rolled_back_from": last, "to": to, "status": "pending"}
        atomic_write(aside / "NOTE.json", dump_json(note))
        note = _finish_rollback(op, aside, note)
    return {"turn": to, "superseded": str(aside), "moved": note["moved"]}


def _rollback_items(last: int, to: int) -> list[str]:
    items = [f"state/{turn_name(n)}.json" for n in range(last, to, -1)]
    for n in range(last + 1, to, -1):
        name = turn_name(n)
        items += [f"log/{name}.jsonl", f"log/{name}.inputs.json", f"reports/{name}"]
        if n > to + 1:
            items += [f"orders/{name}", f"amendments/after-{n - 1:03d}"]
    return items


def _finish_rollback(op: Open, aside: Path, note: dict[str, Any]) -> dict[str, Any]:
    from gm_tool.core.store import append_line, move

    root = op.campaign.root
    for rel in _rollback_items(note["rolled_back_from"], note["to"]):
        if (root / rel).exists():
            move(root / rel, aside / rel)
    moved = sorted(str(p.relative_to(aside)) for p in aside.glob("*/*") if p.name != "NOTE.json")
    done = {"rolled_back_from": note["rolled_back_from"], "to": note["to"], "status": "done", "moved": moved}
    rel_aside = str(aside.relative_to(root))
    journal = root / "log" / "rollbacks.jsonl"
    if not journal.exists() or all(e.get("superseded") != rel_aside for e in read_jsonl(journal.read_text("utf-8"))):
        append_line(journal, json.dumps({**done, "superseded": rel_aside}, ensure_ascii=False, sort_keys=True))
    atomic_write(aside / "NOTE.json", dump_json(done))
    return done


def amend(root: Path, action: str, args: list[Any], reason: str, lang: str = "zh") -> dict[str, Any]:
    """Record a GM edit made after the latest turn, as ``amendments/after-NNN/KKK.yaml``. It is
    checked by applying it (after the earlier edits) to the current state; nothing is written if
    it fails. The edit opens the next turn's log and posts and `gm verify` replays it. Returns the
    file, the edit's events, and the stored sheets of the next turn that no longer validate."""
    op = open_campaign(root)
    if not isinstance(reason, str) or not reason.strip():
        raise GmError.one("amend.reason", field="--reason", exit_code=USAGE)
    _check_texts([("--reason", reason.strip(), MAX_REASON)])
    with _locked(op):
        n = op.campaign.latest()
        state = op.state(n)
        op.refuse_if_over(state, lang)
        record = {"action": str(action).replace("-", "_"), "args": list(args), "reason": reason.strip()}
        existing = op.campaign.amendment_files(n)
        k = int(existing[-1].stem) + 1 if existing else 1
        target = op.campaign.amendments_dir(n) / f"{k:03d}.yaml"
        if record["action"] == UNDO:  # the state as the edits in force but the latest leave it
            pending = _amendments(op, n)
            if not pending or args:
                raise GmError.one("amend.nothing_to_undo" if not pending else "amend.arity", file="gm amend",
                                  field="args", action=UNDO, usage="", got=len(args))
            events: list[dict[str, Any]] = []
            new_state = op.campaign.load_state(n)
            for path, earlier in pending[:-1]:
                source = str(path.relative_to(op.campaign.root))
                new_state, _ = op.ruleset.amend(new_state, rulesets.check_amend(op.ruleset, earlier, source), source)
        else:
            checked = rulesets.check_amend(op.ruleset, record, "gm amend")
            new_state, events = op.ruleset.amend(state, checked, "gm amend")
        stale = []
        files = op.campaign.order_files(n + 1)
        for player in sorted(files):
            try:
                check_files(op, [files[player]], lang, new_state)
            except GmError as exc:
                stale.append(exc.render(lang))
        atomic_write(target, yaml_text(record, str(target)))
        written = []
        from gm_tool.core.render import use_forum

        posts = None
        if record["action"] != UNDO:  # an undo sends no posts (the undone edit had none to take back)
            with use_forum(forum_of(op, n + 1)):
                posts = op.ruleset.amend_posts(new_state, checked, events, op.lang, op.templates_dir(), op.campaign.seed())
        for who, rendered in (posts.texts.items() if posts else ()):
            for fmt, text in rendered.items():
                path = target.with_name(f"{target.stem}-posts") / f"{who}.{fmt}"
                atomic_write(path, text)
                written.append(str(path))
        for fname, data in (posts.files.items() if posts else ()):
            atomic_write(target.with_name(f"{target.stem}-posts") / fname, data)
    return {"file": str(target), "turn": n + 1, "events": events, "stale": stale, "posts": written}


def reveal(root: Path, force: bool = False) -> dict[str, Any]:
    """The secret seed and its commitment, for players to run `gm verify --seed`. Refused while
    the game goes on (the seed tells every later draw), unless ``force``."""
    op = open_campaign(root)
    state = op.campaign.load_state(op.campaign.latest())
    if op.winner(state) is None and not force:
        raise GmError.one("reveal.not_over", file=str(op.campaign.root), field="--force", turn=op.ruleset.turn(state))
    seed = op.campaign.seed()
    return {"seed": seed, "commitment": commitment(seed), "recorded": op.meta.get("seed_commitment"),
            "matches": commitment(seed) == op.meta.get("seed_commitment"), "over": op.winner(state) is not None}


def verify(root: Path, seed: str | None = None) -> dict[str, Any]:
    """Replay the whole campaign from ``scenario.yaml``, the seed, the stored sheets and the GM's
    edits, and prove the folder: every file under ``state/``, ``log/`` and ``reports/`` must be
    what the replay produces, byte for byte, turn 0 included; a file or folder the replay does not
    produce, a turn after the game ended and a sheet, dice file or edit changed since its turn was
    resolved (``log/turn-NNN.inputs.json`` records what each turn read) are each named, all of
    them, not only the first. A player without ``secret/`` passes the revealed seed, checked
    against the commitment (in any Unicode normal form). The campaign's own templates share one
    time and memory budget for the whole run (``render.run_budget``).

    It reads under the campaign's shared lock: a turn being resolved or rolled back meanwhile is
    waited for, never seen half-way (and a rollback or ``gm forum`` a killed command left is
    finished first; on a read-only copy, where it cannot be, the turns that rollback sets aside
    are left out and named in ``pending``)."""
    op = open_campaign(root)
    from gm_tool.core.render import run_budget

    given = seed
    with run_budget(), op.campaign.reading(recover=lambda: _recover(op, _verify_seed(op, given))):
        return _verify(op, seed)


def _verify_seed(op: Open, seed: str | None) -> str:
    """The seed to replay with: the stored one, or the one given, as the commitment says it was
    committed (a pasted seed may carry a stray space or another Unicode normal form)."""
    import unicodedata

    if seed is None:
        seed = op.campaign.seed()
    recorded = op.meta.get("seed_commitment")
    for candidate in (seed, seed.strip(), unicodedata.normalize("NFC", seed.strip()),
                      unicodedata.normalize("NFD", seed.strip())):
        if commitment(candidate) == recorded:
            return candidate
    raise GmError.one("verify.seed", file=str(op.campaign.meta_path), field="seed_commitment")


class _Proof:
    """What `gm verify` has found so far: the files the replay accounts for, how many it
    compared, and every problem, each naming its own file."""

    def __init__(self, root: Path):
        self.root = root
        self.expected: set[str] = set()
        self.checked = 0
        self.problems: list[Problem] = []
        self.recording = False  # a turn kept its record of inputs: every later turn has one too

    def add(self, code: str, file: str, **params: Any) -> None:
        self.problems.append(Problem(code, file, None, params))

    def turn(self, n: int, files: dict[str, str | bytes | None], record: str, read: str) -> bool:
        """Check the replayed ``files`` of turn ``n`` (None: there must be no such file) and its
        record of the inputs it read. An input changed since the turn was resolved is named
        (the outputs it changed are its consequence, not named again); else each output that
        differs is named with its first differing line. True if an input changed: the turn's
        true outcome is then unknown."""
        differences = []
        for rel, data in sorted(files.items()):
            self.expected.add(rel)
            self.checked += data is not None
            problem = _difference(self.root, n, rel, data)
            if problem is not None:
                differences.append(problem)
        changed = self.inputs(n, record, read, same=not differences)
        if not changed:
            self.problems += differences
        return changed

    def inputs(self, n: int, record: str, read: str, same: bool = False) -> bool:
        """Compare ``record`` (what turn ``n`` read when it was resolved: file -> SHA-256) with
        what the replay read (``read``, the same form); every input added, changed or removed
        since is named (``same``: the turn replays the same from a changed file, so the record
        may be what was changed). False when nothing changed, or the turn was resolved before records
        were kept (it has none; once a turn has one, a later turn without is named)."""
        self.expected.add(record)
        path = self.root / record
        if not path.is_file():
            if self.recording:
                self.add("verify.record_missing", record, turn=n)
            return False
        self.recording = True
        stored = _read_record(path)
        if not isinstance(stored, dict):
            self.add("verify.record", record, turn=n)
            return False
        now = json.loads(read)
        if stored == now:
            return False
        for name in sorted(set(stored) | set(now)):
            if stored.get(name) != now.get(name):
                code = ("verify.input_added" if name not in stored else "verify.input_removed" if name not in now
                        else "verify.input_or_record" if same else "verify.input_changed")
                self.add(code, name, turn=n, record=record)
        return True


def _verify(op: Open, seed: str | None) -> dict[str, Any]:
    op.campaign.refuse_foreign()  # a link in a stranger's folder could make verify read any file of yours
    seed = _verify_seed(op, seed)
    if op.meta.get("chance") != GENERATOR:  # the luck of this campaign was drawn another way
        raise GmError.one("verify.generator", file=str(op.campaign.meta_path), field="chance",
                          value=op.meta.get("chance"), known=GENERATOR)
    made = op.meta.get("rules_version", 1)  # campaigns made before versions were recorded: 1
    if made != op.ruleset.rules_version:  # the rules changed since: a replay would differ
        raise GmError.one("verify.rules_version", file=str(op.campaign.meta_path), field="rules_version",
                          value=made, known=op.ruleset.rules_version, ruleset=op.ruleset.name)
    root = op.campaign.root
    proof = _Proof(root)
    variants = _forum_variants(op)  # a gm forum a read-only copy could not finish: posts of either settings
    state = _prove_opening(op, proof, seed, variants)
    pending = _pending_items(op)  # a rollback a read-only copy could not finish: its turns are set aside
    last = op.campaign.latest()
    edits = 0
    ended = None
    for n in range(1, last + 1):
        edits += len(op.campaign.amendment_files(n - 1))
        if ended is not None or op.winner(state) is not None:  # over: a later turn is not the replay's
            ended = n - 1 if ended is None else ended
            for rel in _turn_files(root, n):
                proof.expected.add(rel)
                proof.add("verify.after_end", rel, turn=n, end=ended)
            continue
        record = f"log/{turn_name(n)}.inputs.json"
        try:
            files = compute_turn(op, state, n, seed)
        except GmError as exc:  # an input changed so the turn no longer replays (a sheet, an edit)
            proof.expected |= set(_turn_files(root, n))
            # what the turn read as recorded, and what the problems name (an edit added since)
            read_now = list(dict.fromkeys(_recorded_inputs(root, record) + _named_inputs(root, exc)))
            if not proof.inputs(n, record, _inputs_text(root, read_now)):
                proof.problems += exc.problems  # each names its file: a sheet, an edit, a template
            stored = _stored_state(op, n)
            if stored is None:
                break
            state = stored
            continue
        files = _posts_as_stored(root, n, files, [lambda v=v, s=state, t=n: compute_turn(v, s, t, seed) for v in variants])
        read = files.pop(record)
        replayed = json.loads(files[f"state/{turn_name(n)}.json"])
        # go on from the truth, whatever a stored state says; but when an input changed, the
        # turn's true outcome is unknown: go on from the state the next turn was played from
        state = (_stored_state(op, n) or replayed) if proof.turn(n, files, record, read) else replayed
    edits += len(op.campaign.amendment_files(last))
    if op.winner(state) is None:
        try:
            amended(op, state, last)  # the edits waiting for the next turn must apply too
        except GmError as exc:
            proof.problems += exc.problems
    notes = []
    if pending:
        proof.expected |= pending
        notes.append({"kind": "pending_rollback", "to": op.campaign.pending_rollback(), "files": sorted(pending)})
    else:
        notes += _uncommitted(op, proof, state, last + 1, seed)
    if variants:
        notes.append({"kind": "pending_forum", "files": [RERENDER]})
    _extras(proof)
    _settings_edited(op, proof)
    if proof.problems:
        raise GmError(proof.problems)
    from gm_tool.core.render import overridden_templates

    return {"turns": last, "files_checked": proof.checked, "amendments": edits, "commitment": commitment(seed),
            "templates": overridden_templates(op.templates_dir()), "notes": notes}


def _forum_variants(op: Open) -> list[Open]:
    """The campaign as the other settings of a `gm forum` left half done render it, when a copy
    that cannot be written keeps its journal (:data:`RERENDER`, finished first anywhere else)."""
    journal = _read_record(op.campaign.root / RERENDER)
    if not isinstance(journal, dict):
        return []
    out = []
    for forum in (journal.get("forum"), journal.get("before")):
        if isinstance(forum, dict) and forum != (op.meta.get("forum") or {}):
            with contextlib.suppress(GmError):  # settings no gm forum could have written: not a variant
                check_forum(forum, RERENDER)
                out.append(Open(op.campaign, {**op.meta, "forum": forum}, op.ruleset))
    return out


def _posts_as_stored(root: Path, n: int, files: dict[str, Any], variants: list[Any]) -> dict[str, Any]:
    """``files`` of turn ``n``, its posts taken from the first of ``variants`` (each a callable
    giving the turn's files under other forum settings) that the stored folder is exactly, when
    it is not the files' own: a `gm forum` replaces each turn's folder whole, old or new."""
    prefix = f"reports/{turn_name(n)}/"
    posts = {rel: data for rel, data in files.items() if rel.startswith(prefix)}
    if not posts or all(_difference(root, n, rel, data) is None for rel, data in posts.items()):
        return files
    for variant in variants:
        other = {rel: data for rel, data in variant().items() if rel.startswith(prefix)}
        if all(_difference(root, n, rel, data) is None for rel, data in other.items()):
            return {**{rel: data for rel, data in files.items() if not rel.startswith(prefix)}, **other}
    return files


def _prove_opening(op: Open, proof: _Proof, seed: str, variants: list[Open]) -> dict[str, Any]:
    """Prove turn 0 (its state and the shuffles of gm new as drawn from the committed seed, the
    opening posts) and give the state turn 1 is replayed from. A scenario.yaml that no longer
    sets a game up is named (as changed since gm new when the record says so, else by its own
    problems) and the turns go on from the stored turn 0, so what else changed is listed too."""
    root = op.campaign.root
    zero = turn_name(0)
    record, read = f"log/{zero}.inputs.json", _inputs_text(root, [root / "scenario.yaml"])
    try:
        state, setup_log = _initial_state(op, seed)
    except GmError as exc:
        proof.expected |= set(_turn_files(root, 0))
        if not proof.inputs(0, record, read):
            proof.problems += exc.problems
        stored = _stored_state(op, 0)
        if stored is None:
            raise GmError(proof.problems) from None
        return stored
    setup_events = read_jsonl(setup_log) if setup_log else []
    proof.problems += _meta_problems(op, state)
    # no log when setting up drew nothing; opening posts when gm new wrote them (older versions did not)
    opening: dict[str, str | bytes | None] = {f"state/{zero}.json": dump_json(state), f"log/{zero}.jsonl": setup_log}
    # gm new writes its opening posts with the folder since it records inputs: they must be there
    if op.campaign.reports_dir(0).is_dir() or (root / record).is_file():
        opening.update({f"reports/{zero}/{name}": data for name, data in opening_files(op, state, seed, setup_events).items()})
    opening = _posts_as_stored(root, 0, opening, [lambda v=v: {f"reports/{zero}/{name}": data for name, data in
                                                               opening_files(v, state, seed, setup_events).items()}
                                                  for v in variants])
    if proof.turn(0, opening, record, read):
        state = _stored_state(op, 0) or state  # scenario.yaml changed: go on from what turn 1 was played from
    return state


def _named_inputs(root: Path, exc: GmError) -> list[Path]:
    """The inputs a record lists (sheets, dice files, GM edits) that ``exc``'s problems name."""
    base, out = root.resolve(), []
    for problem in exc.problems:
        path = (root / problem.file).resolve() if problem.file else None  # an absolute file stays itself
        if path is not None and path.is_relative_to(base) and path.relative_to(base).parts[0] in ("orders", "amendments"):
            out.append(root / path.relative_to(base))
    return out


def _inputs_text(root: Path, paths: list[Path]) -> str:
    """The record of what a turn read (``log/turn-NNN.inputs.json``): each input file's path in
    the campaign and the SHA-256 of its bytes (a file that is gone is left out)."""
    import hashlib

    out = {}
    for path in paths:
        try:
            out[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            continue
    return dump_json(dict(sorted(out.items())))


def _recorded_inputs(root: Path, record: str) -> list[Path]:
    """The files a turn's record of inputs lists (none when it has no readable record)."""
    names = _read_record(root / record)
    return [root / name for name in names if isinstance(name, str) and safe_relative(name)] \
        if isinstance(names, dict) else []


def _read_record(path: Path) -> Any:
    """A record of inputs as JSON (None if it cannot be read, or is larger than any record is)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(safeyaml.MAX_BYTES + 1)
        return json.loads(raw) if len(raw) <= safeyaml.MAX_BYTES else None
    except (OSError, ValueError):
        return None


def safe_relative(name: str) -> bool:
    """A path inside the campaign as a record writes it: relative, no ``..``."""
    parts = Path(name).parts
    return bool(parts) and not Path(name).is_absolute() and ".." not in parts


def _stored_state(op: Open, n: int) -> dict[str, Any] | None:
    """The stored state after turn ``n`` (None when it cannot be read)."""
    try:
        return op.campaign.load_state(n)
    except GmError:
        return None


def _turn_files(root: Path, n: int) -> list[str]:
    """The stored outputs of turn ``n``: its state, its logs and its posts (those that exist)."""
    name = turn_name(n)
    found = [f"state/{name}.json", f"log/{name}.jsonl", f"log/{name}.inputs.json"]
    out = [rel for rel in found if (root / rel).is_file()]
    reports = root / "reports" / name
    if reports.is_dir():
        out += sorted(str(p.relative_to(root)) for p in reports.rglob("*") if p.is_file() and not is_debris(p.name))
    return out


def _pending_items(op: Open) -> set[str]:
    """The files a rollback left pending (on a copy it could not finish) still has to set aside."""
    to = op.campaign.pending_rollback()
    if to is None:
        return set()
    root = op.campaign.root
    names = [p.name for folder in ("state", "log", "reports") if (root / folder).is_dir() for p in (root / folder).iterdir()]
    turns = {int(name[5:8]) for name in names if name.startswith("turn-") and name[5:8].isdigit()}
    return {rel for n in sorted(turns) if n > to for rel in _turn_files(root, n)}


def _uncommitted(op: Open, proof: _Proof, state: dict[str, Any], n: int, seed: str) -> list[dict[str, Any]]:
    """The posts and log of turn ``n`` that a `gm resolve` killed before its commit point left
    (no state file): accepted, with a note, only when each is exactly what replaying turn ``n``
    from the stored sheets gives; anything else is named (a turn whose state was removed while
    forged posts stayed is no interrupted resolve)."""
    root = op.campaign.root
    present = [rel for rel in _turn_files(root, n) if not rel.startswith("state/")]
    if not present:
        return []
    proof.expected |= set(present)
    try:
        files = compute_turn(op, state, n, seed)
    except GmError:  # the game was over, a sheet no longer validates: no resolve wrote these
        for rel in present:
            proof.add("verify.uncommitted_stale", rel, turn=n)
        return []
    bad = [problem for rel in present if (problem := _difference(root, n, rel, files.get(rel))) is not None]
    for problem in bad:
        proof.add("verify.uncommitted", problem.file or "", turn=n, detail=problem.params["detail"])
    return [] if bad else [{"kind": "uncommitted", "turn": n, "files": present}]


def _settings_edited(op: Open, proof: _Proof) -> None:
    """When every problem is a post that differs and every turn with posts has one, the states
    and logs replay exactly while no post does: what changed is how posts are written
    (campaign.yaml's ``lang`` or ``forum`` edited by hand), not a post. That is one problem,
    naming campaign.yaml, in place of one per post."""
    posts = [p for p in proof.problems if p.code == "verify.mismatch" and (p.file or "").startswith("reports/")]
    if len(posts) < 2 or len(posts) != len(proof.problems):
        return
    turns = {(p.file or "").split("/")[1] for p in posts}
    with_posts = {rel.split("/")[1] for rel in proof.expected if rel.startswith("reports/")}
    if turns != with_posts:
        return
    first = min(posts, key=lambda p: p.file or "")
    proof.problems = [Problem("verify.settings", op.campaign.meta_path.name, None,
                              {"count": len(posts), "turns": len(turns), "file": first.file,
                               "detail": first.params.get("detail", ""), "now": op.lang})]


def _extras(proof: _Proof) -> None:
    """Name every file and folder under state/, log/ and reports/ the replay does not account for
    (debris of an interrupted write, which no command reads, and the rollback journal aside)."""
    root = proof.root
    allowed = proof.expected | {"log/rollbacks.jsonl"}
    folders = {str(Path(rel).parent) for rel in allowed} | {"state", "log", "reports"}
    folders |= {str(parent) for rel in allowed for parent in Path(rel).parents}
    for top in ("state", "log", "reports"):
        base = root / top
        if not base.is_dir():
            if base.exists():
                proof.add("verify.extra", top)
            continue
        for path in sorted(base.rglob("*")):
            rel = str(path.relative_to(root))
            if any(is_debris(part) for part in path.relative_to(root).parts):
                continue
            if path.is_dir():
                if rel not in folders:
                    proof.add("verify.extra_dir", rel)
            elif rel not in allowed and str(path.parent.relative_to(root)) in folders:
                proof.add("verify.extra", rel)


def _difference(root: Path, turn: int, rel: str, data: str | bytes | None) -> Problem | None:
    """How the stored ``rel`` differs from the replayed ``data`` (None: there must be none). A
    turn's posts folder a killed swap left moved aside (``.NAME.old``, NAME missing: a copy that
    cannot be written, where it is not put back) is read where it is."""
    path = root / rel
    parts = rel.split("/")
    if parts[0] == "reports" and len(parts) > 2 and not (root / "reports" / parts[1]).exists():
        path = root / "reports" / f".{parts[1]}.old" / "/".join(parts[2:])
    got = data.encode("utf-8") if isinstance(data, str) else data
    want = None
    if path.is_file():  # a forged file may be huge: read what shows the first difference, no more
        with open(path, "rb") as fh:
            want = fh.read((len(got) if got is not None else 0) + (1 << 16))
    if want == got:
        return None
    detail = ("missing" if want is None else "unexpected" if got is None
              else _first_diff(got.decode("utf-8", "replace"), want.decode("utf-8", "replace")))
    return Problem("verify.mismatch", rel, None, {"turn": turn, "detail": detail})


def _meta_problems(op: Open, state: dict[str, Any]) -> list[Problem]:
    """campaign.yaml's other fields (ruleset, scenario name, players) are what `gm new` recorded
    from scenario.yaml: a player reading them is told the truth, or verify fails."""
    path = op.campaign.root / "scenario.yaml"
    scenario = safeyaml.load_mapping(path)
    want = _meta(op.ruleset, scenario, str(path), op.ruleset.players(state), op.lang, op.meta.get("seed_commitment"))
    if scenario.get("name") is None:
        want["scenario"] = op.meta.get("scenario")  # gm new recorded the scenario file's own name
    return [Problem("verify.meta", str(op.campaign.meta_path), field,
                    {"name": field, "stored": op.meta.get(field), "want": want[field]})
            for field in ("ruleset", "scenario", "players") if op.meta.get(field) != want[field]]


def _first_diff(got: str, want: str) -> str:
    """The first line where the replay and the stored file differ, both quoted."""
    a_lines, b_lines = got.splitlines(), want.splitlines()
    for i in range(max(len(a_lines), len(b_lines))):
        a = a_lines[i] if i < len(a_lines) else None
        b = b_lines[i] if i < len(b_lines) else None
        if a != b:
            show = lambda t: "(end of file)" if t is None else repr(t[:80])  # noqa: E731
            return f"line {i + 1}: replay {show(a)} / stored {show(b)}"
    return f"lengths differ: replay {len(got)} / stored {len(want)} characters"


def events(root: Path, turn: int) -> list[dict[str, Any]]:
    op = open_campaign(root)
    return read_jsonl(op.campaign.log_path(turn).read_text("utf-8"))

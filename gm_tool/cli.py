"""The `gm` command line. Commands only parse arguments and print; the work is in gm_tool.app.

Exit codes: 0 success, 1 invalid input (orders, scenario, campaign files), 2 usage error.
A user never sees a traceback: every error is one line naming the file and the field.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from gm_tool import console
from gm_tool.console import TEXT as _TEXT
from gm_tool.console import say
from gm_tool.errors import USAGE, GmError

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="gm: resolve play-by-post war game turns from YAML order sheets and write forum posts.")

Dir = Annotated[Path, typer.Argument(help="The campaign folder.", show_default=False)]
Lang = Annotated[str, typer.Option("--lang", envvar="GM_LANG", help="Language of messages and sheets: zh or en.")]

from gm_tool.i18n import register as _register  # noqa: E402

_register({
    "cli.forum_set": {"zh": "论坛设置已更新：{settings}；已按新设置重写第 0-{turns} 回合的帖子",
                      "en": "forum settings updated: {settings}; the posts of turns 0-{turns} were rendered again"},
    "cli.forum_name": {"zh": "--name 应写作 玩家=显示名，而不是 {value!r}", "en": "--name takes PLAYER=display name, not {value!r}"},
})

def command(fn):
    """Run a command through console.guarded: GmError (and any bug) become a clean message and
    an exit code; typer's own exits pass through."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        code = console.guarded(lambda: fn(*args, **kwargs), kwargs.get("lang", "zh"),
                               passthrough=(typer.Exit, typer.Abort))
        if code:
            raise typer.Exit(code)

    return wrapper


@app.command()
@command
def new(directory: Dir,
        scenario: Annotated[str, typer.Option("--scenario", help="A bundled scenario name or a scenario file.")],
        seed: Annotated[Optional[str], typer.Option("--seed", help="The secret seed (default: a random one).")] = None,
        lang: Lang = "zh") -> None:
    """Create a campaign folder from a scenario (never overwrites an existing folder)."""
    from gm_tool import app as ops

    result = ops.new_campaign(directory, scenario, seed, lang)
    say("created", lang, dir=result["dir"], players=", ".join(result["players"]), commitment=result["commitment"])
    if result.get("seed_bits") is not None and result["seed_bits"] < ops.WEAK_SEED_BITS:
        typer.echo(_TEXT["weak_seed_bits"][lang].format(n=len(seed or ""), bits=result["seed_bits"]), err=True)


@app.command()
@command
def status(directory: Dir, as_json: Annotated[bool, typer.Option("--json")] = False, lang: Lang = "zh") -> None:
    """Turn number, whose orders are in, who is missing."""
    from gm_tool import app as ops

    s = ops.status(directory, lang)
    if as_json:
        typer.echo(json.dumps(s, ensure_ascii=False, indent=1))
        return
    none = _TEXT["none"][lang]
    if s["result"] is not None:  # a finished game: who won, and no next turn
        say("finished", lang, turn=s["turn"], result=s["result"])
        return
    say("status", lang, turn=s["turn"], next=s["next"], due=", ".join(s["due"]) or none,
        received=", ".join(s["received"]) or none, missing=", ".join(s["missing"]) or none)
    for player, default in s["defaults"].items():
        if default:
            say("default", lang, player=player, default=default)
    for player, lines in s["invalid"].items():
        say("invalid_sheet", lang, player=player)
        for line in lines:
            typer.echo(f"    {line}")
    if "dice" in s:
        say("dice_status", lang, dice=" ".join(map(str, s["dice"] or [])) or none)
    if s["amendments"]:
        say("pending_edits", lang, next=s["next"])
        for a in s["amendments"]:
            say("edit", lang, action=a["action"], args=" ".join(map(str, a["args"] or [])), reason=a["reason"])


@app.command()
@command
def template(directory: Dir, player: Annotated[str, typer.Argument(help="The player.")],
             output: Annotated[Optional[Path], typer.Option("-o", "--output", help="Write to this file (never overwritten).")] = None,
             lang: Lang = "zh") -> None:
    """A pre-filled, commented order sheet for a player's next turn."""
    from gm_tool import app as ops

    text = ops.template(directory, player, lang)
    if output is None:
        typer.echo(text, nl=False)
        return
    if output.exists():
        raise GmError.one("campaign.exists", file=str(output), exit_code=1)
    from gm_tool.core.store import atomic_write

    atomic_write(output, text)
    say("written", lang, path=output)


@app.command("import")
@command
def import_(directory: Dir, message: Annotated[Path, typer.Argument(help="A player's message in the rule document's own form (text).")],
            player: Annotated[Optional[str], typer.Option("--player", help="Whose message it is (default: read from the message).")] = None,
            output: Annotated[Optional[Path], typer.Option("-o", "--output", help="Write the sheet here (never overwritten).")] = None,
            lang: Lang = "zh") -> None:
    """Read a player's message written as the rule document's sample (numbered lines) into an
    order sheet; print what each line was understood as. The sheet is checked like gm check."""
    from gm_tool import app as ops

    try:
        result = ops.import_message(directory, message, player, lang)
    except GmError as exc:  # a failed reading still says what it made of each line
        for n, line, said in exc.reading:
            typer.echo(f"{n:>3}  {line}\n     → {said}", err=True)
        raise
    if output is None:
        typer.echo(result["yaml"], nl=False)
        return
    if output.exists():
        raise GmError.one("campaign.exists", file=str(output), exit_code=1)
    from gm_tool.core.store import atomic_write

    atomic_write(output, result["yaml"])
    for n, line, said in result["lines"]:
        typer.echo(f"{n:>3}  {line}\n     → {said}")
    say("written", lang, path=output)


@app.command()
@command
def check(directory: Dir, files: Annotated[list[Path], typer.Argument(help="Order sheets.")], lang: Lang = "zh") -> None:
    """Validate order sheets against the current state (exit 1 with one line per problem)."""
    console.check(directory, files, lang)


@app.command()
@command
def submit(directory: Dir, file: Annotated[Path, typer.Argument(help="An order sheet.")], lang: Lang = "zh") -> None:
    """Check a sheet, then store it as orders/turn-NNN/PLAYER.yaml."""
    console.submit(directory, file, lang)


@app.command()
@command
def resolve(directory: Dir, lang: Lang = "zh") -> None:
    """Resolve the current turn from the stored sheets; write state, log and posts."""
    console.resolve(directory, lang)


@app.command()
@command
def preview(directory: Dir, player: Annotated[Optional[str], typer.Option("--player")] = None,
            fmt: Annotated[str, typer.Option("--format", help="markdown | bbcode")] = "markdown",
            lang: Lang = "zh") -> None:
    """Resolve the current turn without saving anything, and print the post (public, or --player's)."""
    from gm_tool import app as ops

    ext = {"markdown": "md", "md": "md", "bbcode": "bbcode"}.get(fmt)
    if ext is None:
        raise GmError.one("format.unknown", field="--format", exit_code=USAGE, value=fmt, allowed="markdown, bbcode")
    result = ops.resolve(directory, preview=True)
    key = f"reports/turn-{result['turn']:03d}/{player or 'public'}.{ext}"
    if key not in result["files"]:
        op = ops.open_campaign(directory)
        raise GmError.one("player.unknown", field="--player", exit_code=USAGE, player=player,
                          allowed=", ".join(op.ruleset.players(op.state())))
    typer.echo(result["files"][key], nl=False)


@app.command()
@command
def show(directory: Dir, player: Annotated[Optional[str], typer.Option("--player", help="Only what this player may see.")] = None,
         as_json: Annotated[bool, typer.Option("--json")] = False,
         turn: Annotated[Optional[int], typer.Option("--turn")] = None, lang: Lang = "zh") -> None:
    """The GM's full view, or one player's view."""
    from gm_tool import app as ops

    v = ops.show(directory, player, turn)
    if as_json:
        typer.echo(json.dumps(v, ensure_ascii=False, indent=1))
        return
    op = ops.open_campaign(directory)
    result = op.result(v, lang)
    if result is not None:
        typer.echo(result)
    typer.echo(op.ruleset.summary(v, player, lang))


@app.command()
@command
def report(directory: Dir, turn: Annotated[Optional[int], typer.Option("--turn")] = None,
           player: Annotated[Optional[str], typer.Option("--player")] = None,
           fmt: Annotated[str, typer.Option("--format", help="bbcode | markdown | html")] = "bbcode",
           lang: Lang = "zh") -> None:
    """Print a rendered post (public, or a player's private post)."""
    from gm_tool import app as ops

    typer.echo(ops.report(directory, turn, player, fmt), nl=False)


@app.command()
@command
def rollback(directory: Dir, to: Annotated[int, typer.Option("--to", help="Return to the state after this turn.")],
             lang: Lang = "zh") -> None:
    """Return the campaign to the state after turn N (superseded turns are kept aside)."""
    from gm_tool import app as ops

    result = ops.rollback(directory, to)
    say("rolled", lang, turn=result["turn"], superseded=result["superseded"])


@app.command()
@command
def verify(directory: Dir, seed: Annotated[Optional[str], typer.Option("--seed", help="Check a revealed seed.")] = None,
           lang: Lang = "zh") -> None:
    """Replay every turn from the seed and stored orders; compare with the stored files."""
    from gm_tool import app as ops

    result = ops.verify(directory, seed)
    say("verified", lang, **result)
    for note in result["notes"]:  # what the proof left out, and why
        say(f"verify_{note['kind']}", lang, **{k: v for k, v in note.items() if k != "files"}, count=len(note["files"]))
    if result.get("templates"):  # the posts were written with the campaign's own templates
        say("overridden", lang, names=", ".join(result["templates"]))


def _amend_help() -> str:
    """Every ruleset's GM edits, for `gm amend --help`."""
    from gm_tool.core import ruleset as rulesets

    lines = []
    for name in rulesets.available():
        try:
            actions = rulesets.get(name).amend_actions()
        except Exception:  # a ruleset that cannot load is reported when a campaign uses it
            continue
        lines.append(f"{name}: " + " | ".join(f"{a.replace('_', '-')} {spec.usage()}" for a, spec in actions.items()))
    return "; ".join(lines) + "; every ruleset: undo (cancels the latest edit not yet resolved)"


@app.command()
@command
def forum(directory: Dir,
          dialect: Annotated[Optional[str], typer.Option("--dialect", help="BBCode dialect: discuz | phpbb | nga.")] = None,
          image_url: Annotated[Optional[str], typer.Option("--image-url", help="Where you upload the pictures, e.g. https://host/path/{turn}/{file} ('' removes it).")] = None,
          name: Annotated[Optional[list[str]], typer.Option("--name", help="PLAYER=display name (repeatable).")] = None,
          lang: Lang = "zh") -> None:
    """Forum settings (BBCode dialect, picture address, players' display names); every stored
    post is rendered again with them."""
    from gm_tool import app as ops
    from gm_tool.i18n import message

    names: dict[str, str] = {}
    for i, item in enumerate(name or []):
        player, sep, shown = item.partition("=")
        if not sep or not player.strip():
            raise GmError.one("cli.forum_name", field=f"--name.{i}", exit_code=USAGE, value=item)
        names[player.strip()] = shown.strip()
    result = ops.set_forum(directory, dialect, image_url, names)
    typer.echo(message("cli.forum_set", lang, turns=result["turns"],
                       settings=json.dumps(result["forum"], ensure_ascii=False, sort_keys=True)))


@app.command()
@command
def amend(directory: Dir,
          action: Annotated[str, typer.Argument(help="The edit, as the campaign's ruleset names it.", show_default=False)],
          args: Annotated[Optional[list[str]], typer.Argument(help="The action's arguments.")] = None,
          reason: Annotated[str, typer.Option("--reason", help="Why (shown in the public post).")] = "",
          lang: Lang = "zh") -> None:
    """A GM edit after the latest turn (logged with its reason, shown in the next posts, replayed by verify)."""
    from gm_tool import app as ops

    result = ops.amend(directory, action, args or [], reason, lang)
    say("amended", lang, file=result["file"], turn=result["turn"])
    for path in result["posts"]:
        say("amend_post", lang, path=path)
    if result["stale"]:
        say("stale", lang)
        for line in result["stale"]:
            typer.echo(f"  {line}")


amend.__doc__ = f"{amend.__doc__}\n\nEdits by ruleset: {_amend_help()}"


@app.command()
@command
def dice(directory: Dir,
         values: Annotated[Optional[list[str]], typer.Argument(
             help="The d6 faces rolled on the forum, in order (1-6; full-width ３ and 3,5 lists read too).")] = None,
         note: Annotated[str, typer.Option("--note", help="Where they come from (e.g. the forum post).")] = "",
         replace: Annotated[bool, typer.Option("--replace", help="Drop the rolls stored for this turn first "
                                                                 "(a mistyped roll; no values: empty the file).")] = False,
         lang: Lang = "zh") -> None:
    """Store forum dice for the turn due (rulesets that take them): used before the seeded dice."""
    from gm_tool import app as ops

    result = ops.store_dice(directory, values or [], note, replace)
    say("dice_stored", lang, turn=result["turn"], file=result["file"], dice=" ".join(map(str, result["dice"])))


@app.command()
@command
def serve(directories: Annotated[list[Path], typer.Argument(help="The campaign folders.", show_default=False)],
          port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port (0: any free one).")] = 8765,
          host: Annotated[Optional[str], typer.Option("--host", help="Listen on this address instead of 127.0.0.1 (warns: reachable from other machines).")] = None,
          lang: Lang = "zh") -> None:
    """The GM's desk: a local web page for the whole turn (board, intake, preview, resolve,
    posts to copy and mark sent, GM edits, rollback, dice, verify). Prints its address with a
    token; stop it with Ctrl-C."""
    from gm_tool.desk import serve as run

    run(directories, host, port, lang)


@app.command()
@command
def reveal(directory: Dir, force: Annotated[bool, typer.Option("--force", help="Reveal before the game is over.")] = False,
           lang: Lang = "zh") -> None:
    """Print the secret seed (after the game) so players can check the commitment and replay."""
    from gm_tool import app as ops

    r = ops.reveal(directory, force)
    say("revealed", lang, seed=r["seed"], commitment=r["commitment"], match=_TEXT["match" if r["matches"] else "nomatch"][lang])


@app.command()
@command
def demo(directory: Annotated[Optional[Path], typer.Argument(help="Where to create it (default: ./demo, or demo-2...).")] = None,
         ruleset: Annotated[Optional[str], typer.Option("--ruleset", help="Play this ruleset's bundled scenario (default: the README's demo).")] = None,
         scenario: Annotated[Optional[str], typer.Option("--scenario", help="A bundled scenario or a scenario file.")] = None,
         turns: Annotated[Optional[int], typer.Option("--turns", min=1, max=1000, help="Turns to play (default: to the end, or as many as the ruleset's demo shows).")] = None,
         lang: Lang = "zh") -> None:
    """Create a demo campaign, let the built-in bots play it, print the posts' paths."""
    from gm_tool import demo as demo_mod

    target = directory if directory is not None else demo_mod.free_dir(Path("demo"))
    if target.exists() and any(target.iterdir()):
        raise GmError.one("campaign.exists", file=str(target))
    result = demo_mod.run(target, demo_mod.scenario_of(ruleset, scenario), turns, "greedy", lang)
    say("demo", lang, dir=result["dir"], turns=len(result["reports"]) and result["turns"])
    say("posts", lang)
    for path in result["reports"]:
        typer.echo(f"  {path}")
    if result["winner"] is not None:
        say("winner", lang, result=result["result"])


Workers = Annotated[Optional[int], typer.Option("--workers", "-j", min=0, show_default=False,
                                                 help="Dask worker processes on this machine (default: one per core); 0 plays in this process.")]
Scheduler = Annotated[Optional[str], typer.Option("--scheduler", help="Run on an existing Dask cluster: tcp://HOST:PORT.")]
Batch = Annotated[Optional[int], typer.Option("--batch", min=1, help="Games per task (default: chosen from the run's size).")]


@app.command()
@command
def simulate(scenario: Annotated[str, typer.Argument(help="A bundled scenario name or a scenario file.")],
             games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many games.")] = 100,
             workers: Workers = None, scheduler: Scheduler = None, batch: Batch = None,
             bots: Annotated[str, typer.Option("--bots", help="random | greedy, or per side or player: red=greedy,blue=random.")] = "random",
             seed: Annotated[str, typer.Option("--seed", help="Game i uses the seed SEED:i.")] = "sim",
             max_turns: Annotated[int, typer.Option("--max-turns", min=1, help="Unfinished games then count as timeouts.")] = 50,
             rule: Annotated[Optional[list[str]], typer.Option("--rule", help="Override a scenario rule: NAME=INT (repeatable).")] = None,
             as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
             lang: Lang = "zh") -> None:
    """Play many seeded games with built-in bots (on Dask); print win rates per side, class and character."""
    from gm_tool import simulate as sim
    from gm_tool import sweep as sw

    rules = sim.parse_rules(rule)
    bar = sw.Progress(lang, games, 1, enabled=not as_json and sys.stderr.isatty())
    report = sim.run(scenario, games=games, seed=seed, bots=bots, max_turns=max_turns,
                     workers=sim.default_workers() if workers is None else workers, scheduler=scheduler,
                     batch=batch, rules=rules, progress=bar.games)
    bar.close()
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        typer.echo(sim.render(report, lang), nl=False)


@app.command()
@command
def sweep(file: Annotated[Path, typer.Argument(help="The sweep file (YAML: scenario, games, bots, seed, vary).", show_default=False)],
          out: Annotated[Path, typer.Option("--out", help="Where results.csv, summary.md and chart.png go (a killed sweep resumes from it).")],
          workers: Workers = None, scheduler: Scheduler = None, batch: Batch = None, lang: Lang = "zh") -> None:
    """Play a grid of scenario variants with built-in bots (on Dask); write results.csv, summary.md and chart.png."""
    from gm_tool import simulate as sim
    from gm_tool import sweep as sw

    result = sw.run(file, out, workers=sim.default_workers() if workers is None else workers, scheduler=scheduler,
                    batch=batch, lang=lang, progress=sys.stderr.isatty())
    typer.echo(result["text"], nl=False)

"""The campaign folder on disk: paths, atomic writes and the campaign lock.

Layout (see the README): ``campaign.yaml``, ``scenario.yaml`` (a copy, so the campaign stands
alone), ``secret/seed`` (GM only), ``state/turn-NNN.json``, ``orders/turn-NNN/PLAYER.yaml``,
``log/turn-NNN.jsonl``, ``reports/turn-NNN/``, ``superseded/`` (what a rollback set aside).

Every file is written atomically (temp file, fsync, rename). A turn is committed by its state
file, written last: reports and log of a turn without a state file are leftovers of a crash
and are replaced when the turn is resolved again. Temporary files and staging folders are
dot-names ending in ``.tmp``, ``.stage`` or ``.old``; no reader ever takes them for data and
:meth:`Campaign.lock` sweeps them away.

Fault injection (for the crash tests): with ``GM_FAULT_AT=k`` in the environment, the process
kills itself with SIGKILL at the k-th write step (a step is a point between two durable
operations: after a temp file is written, after a rename, ...). :func:`steps` counts them.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import json
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml

from gm_tool.errors import GmError
from gm_tool.i18n import register

register({
    "campaign.unfinished": {"zh": "这个文件夹是一次中断的 gm new 留下的（有种子或剧本副本，却没有 campaign.yaml），不是完整的战役；删除它后重新 gm new",
                            "en": "an interrupted gm new left this folder (a seed or scenario copy but no campaign.yaml); it is not a campaign: delete it and run gm new again"},
    "campaign.foreign_link": {"zh": "战役文件夹里有链接；gm 只在战役内写真实的文件和文件夹（链接可能指向战役之外或另一块磁盘）。请把它换成它指向的内容（例如 rm 链接 && cp -a 目标 链接）后再运行；什么都没有改动",
                              "en": "this is a link inside the campaign folder; gm writes only real files and folders there (a link may point outside the campaign or to another disk). Replace it with what it points to (e.g. rm LINK && cp -a TARGET LINK) and run the command again; nothing was changed"},
    "campaign.foreign_device": {"zh": "这是另一个文件系统的挂载点，文件无法原子地跨文件系统移动。请把它换成战役所在磁盘上的普通文件夹后再运行；什么都没有改动",
                                "en": "this is the mount point of another file system; files cannot be moved atomically across it. Make it a plain folder on the campaign's disk and run the command again; nothing was changed"},
    "seed.mismatch": {"zh": "秘密种子与 campaign.yaml 中的承诺不符（文件被改动过？）；请恢复原来的种子，否则结算出的回合无人能校验",
                      "en": "the secret seed does not match the commitment in campaign.yaml (was the file edited?); restore the original seed, or no turn resolved from it could ever be verified"},
    "store.too_large": {"zh": "要写入的内容有 {size} 字节，超过 gm 能读回的上限 {limit} 字节；什么都没有写入",
                        "en": "what gm would write here is {size} bytes, more than the {limit} it reads back; nothing was written"},
    "seed.missing": {"zh": "这里没有秘密种子（secret/seed）；玩家校验时请用 gm verify --seed 给出 GM 公布的种子",
                     "en": "no secret seed here (secret/seed); players verify with gm verify --seed and the seed the GM revealed"},
})

_TURN_RE = re.compile(r"^turn-(\d{3,})\.json$")
_AMEND_RE = re.compile(r"^\d{3,}\.yaml$")
_AMEND_RE = re.compile(r"^\d{3,}\.yaml$")
_RESERVED = {"con", "prn", "aux", "nul", "public", "gm", "all", "files", "secret"} | {f"com{i}" for i in range(10)} | {f"lpt{i}" for i in range(10)}


_READ_ONLY = {errno.EROFS, errno.EACCES, errno.EPERM}  # what writing a read-only copy fails with


def turn_name(n: int) -> str:
    return f"turn-{n:03d}"


DEBRIS_SUFFIXES = (".tmp", ".stage", ".old")
# the journal of a command that renders every stored post again (`gm forum`): while it exists the
# posts may follow either the old settings or campaign.yaml's; any later command renders them
# all again from campaign.yaml and removes it
RERENDER = ".rerender-pending.json"
_steps = 0


def safe_name(name: object) -> bool:
    """True if ``name`` may be used as a file name inside the campaign (a player or id): letters,
    digits, CJK, ``-`` and ``_`` only (no ``/``, ``..``, dots or spaces), 1-64 characters, in
    Unicode normal form (so no file system can turn it into another name), not reserved.

    >>> [safe_name(n) for n in ("alice", "阿尔托利亚", "../x", "/etc", "a/b", "", "public", "CON", "alice\\n")]
    [True, True, False, False, False, False, False, False, False]
    """
    return (isinstance(name, str) and bool(_safe_name_re().fullmatch(name)) and name.lower() not in _RESERVED
            and unicodedata.normalize("NFKC", name) == name)


@functools.cache
def _safe_name_re() -> re.Pattern[str]:
    """Compiled on first use (~1 ms at import for a pattern most commands never match)."""
    return re.compile(r"[A-Za-z0-9_\-\u3400-\u9fff\uf900-\ufaff]{1,64}")  # fullmatch: "$" would let "a\n" by


def is_debris(name: str) -> bool:
    """A temporary file or staging folder left by an interrupted write."""
    return name.startswith(".") and name.endswith(DEBRIS_SUFFIXES)


def steps() -> int:
    """How many write steps this process has taken (see the module docstring)."""
    return _steps


def _step() -> None:
    global _steps
    _steps += 1
    at = os.environ.get("GM_FAULT_AT")
    if at and at.isdigit() and int(at) == _steps:
        import signal  # only the crash tests come here

        os.kill(os.getpid(), signal.SIGKILL)


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: str | bytes, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new, never a mix."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        _step()
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise _named(exc, path) from None
    _fsync_dir(path.parent)
    _step()


def _named(exc: BaseException, path: Path) -> BaseException:
    """``exc``, naming ``path`` when it is an OSError that names no file: a write or fsync that
    fails for a full disk says "No space left on device" and nothing else."""
    if isinstance(exc, OSError) and exc.filename is None and exc.errno is not None:
        named = OSError(exc.errno, exc.strerror or str(exc), str(path))
        named.__cause__ = exc
        return named
    return exc


def remove(path: Path) -> None:
    """Remove a file durably (a write step: the crash tests kill here too)."""
    path.unlink()
    _fsync_dir(path.parent)
    _step()


def append_line(path: Path, line: str) -> None:
    """Add one line to a text file, atomically (the whole file is rewritten)."""
    old = path.read_text("utf-8") if path.exists() else ""
    if old and not old.endswith("\n"):
        old += "\n"
    atomic_write(path, old + line.rstrip("\n") + "\n")


def move(src: Path, dst: Path) -> None:
    """Move a file or folder within the campaign, durably (a rename; the target must not exist)."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    os.replace(src, dst)
    _fsync_dir(dst.parent)
    _fsync_dir(src.parent)
    _step()


def _syncfs(path: Path) -> bool:
    """Flush the filesystem holding ``path`` to disk with one syncfs(2) (Linux), instead of one
    fsync per file (each costs a journal commit: ~5 ms on common disks). False if unavailable."""
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
        fd = os.open(path, os.O_RDONLY)
        try:
            return syncfs(fd) == 0
        finally:
            os.close(fd)
    except (OSError, AttributeError):
        return False


def atomic_dir(path: Path, files: dict[str, str | bytes]) -> None:
    """Create directory ``path`` holding ``files`` all at once (staged, then renamed into place).
    An existing directory at ``path`` is replaced only after the new one is complete."""
    path.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".stage", dir=path.parent))
    old = None
    target = stage
    try:
        os.chmod(stage, 0o755)
        written = []
        for name, data in files.items():
            target = stage / name
            target.parent.mkdir(parents=True, exist_ok=True)
            raw = data.encode("utf-8") if isinstance(data, str) else data
            with open(target, "wb") as fh:
                fh.write(raw)
            written.append(target)
            _step()
        if not _syncfs(stage):  # one flush for the whole set where the OS allows it
            for target in written:
                fd = os.open(target, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
        _fsync_dir(stage)
        _step()
        if path.exists():
            old = path.with_name(f".{path.name}.old")
            if old.exists():
                _rmtree(old)
            os.replace(path, old)
            _step()
        os.replace(stage, path)
    except Exception as exc:  # a full disk, a denied write: the stage goes at once, the old folder stays
        _rmtree(stage)
        if old is not None and not path.exists():
            os.replace(old, path)
        raise _named(exc, path / target.relative_to(stage) if target != stage else path) from None
    _fsync_dir(path.parent)
    _step()
    if old is not None:
        _rmtree(old)
        _step()


def publish_dir(path: Path, build) -> bool:
    """Create the folder ``path`` whole: ``build(stage)`` fills a staging folder, and the result
    appears at once. False (and nothing left behind) if ``path`` exists and is not empty by then:
    of two processes creating one folder, exactly one wins. A failure in ``build`` leaves nothing.

    A new ``path`` is the staging folder renamed into place. An empty folder made beforehand
    (perhaps some shell's working folder: it is kept, not replaced) is claimed by creating its
    ``.lock`` exclusively and filled from a stage inside it, ``campaign.yaml`` last; what a killed
    claim left there (see :func:`abandoned_fill`) is cleared first."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_dir() and not path.is_symlink():
        return _fill_in_place(path, build)
    _sweep_stages(path)
    stage = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".stage", dir=path.parent))
    holder = os.open(stage, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # alive: no other process sweeps this stage
        os.chmod(stage, 0o777 & ~_umask())
        build(stage)
        _fsync_dir(stage)
        _step()
        try:
            os.rename(stage, path)
        except OSError as exc:
            if exc.errno in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOTDIR, errno.EISDIR):
                return False
            raise
        _fsync_dir(path.parent)
        _step()
        return True
    finally:
        os.close(holder)
        if stage.exists():
            _rmtree(stage)


# what a `gm new` filling a folder in place puts there (besides debris and its stage)
_FILLED = {".lock", "secret", "scenario.yaml", "state", "log", "reports", "campaign.yaml"}


def abandoned_fill(path: Path) -> bool:
    """True if ``path`` holds only what a killed in-place `gm new` left: its ``.lock`` (held by
    no live process), no ``campaign.yaml``, and nothing but the files it writes, debris and its
    stage. Such a folder is cleared and filled again by the next `gm new`."""
    lock = Path(path) / ".lock"
    try:
        if lock.is_symlink() or not lock.is_file() or not abandoned_names(path):
            return False
        fd = os.open(lock, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False  # a gm new is filling it right now
    finally:
        os.close(fd)


def _clear_abandoned(path: Path) -> None:
    """Empty a folder a killed in-place `gm new` left, holding its old lock (and only while
    ``.lock`` is still that file: a racer may have cleared and claimed it meanwhile)."""
    lock = path / ".lock"
    try:
        fd = os.open(lock, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return
        if os.stat(lock, follow_symlinks=False).st_ino != os.fstat(fd).st_ino or not abandoned_names(path):
            return
        for name in sorted(os.listdir(path)):
            target = path / name
            if name != ".lock":
                _rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
        lock.unlink()
    except FileNotFoundError:
        return
    finally:
        os.close(fd)


def abandoned_names(path: Path) -> bool:
    names = set(os.listdir(path))
    return "campaign.yaml" not in names and all(n in _FILLED or is_debris(n) for n in names)


def _fill_in_place(path: Path, build) -> bool:
    lock = path / ".lock"
    if abandoned_fill(path):
        _clear_abandoned(path)
    # the claim: a lock file made and locked under a temporary name, then linked as .lock (link
    # fails if .lock exists), so .lock is never seen unlocked while its gm new is alive
    fd, tmp = tempfile.mkstemp(prefix=".lock.", suffix=".tmp", dir=path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.fchmod(fd, 0o644)
        os.link(tmp, lock)
    except OSError as exc:
        os.close(fd)
        if exc.errno in (errno.EEXIST, errno.ELOOP):
            return False  # another gm new claimed it first
        raise
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    moved: list[Path] = []
    stage: Path | None = None
    try:
        # one listing: with two, a racer's temporary lock file seen by the first and gone (its
        # claim failed) by the second looked like "something else", and both racers gave up
        if any(n != ".lock" and not is_debris(n) for n in os.listdir(path)):
            # something else arrived meanwhile: not ours to fill
            os.unlink(lock)
            return False
        _step()
        stage = Path(tempfile.mkdtemp(prefix=".new.", suffix=".stage", dir=path))
        os.chmod(stage, 0o777 & ~_umask())
        build(stage)
        names = sorted(n for n in os.listdir(stage) if n != ".lock")
        names.sort(key=lambda n: n == "campaign.yaml")  # the folder is a campaign from its last rename
        for name in names:
            os.rename(stage / name, path / name)
            moved.append(path / name)
            _fsync_dir(path)
            _step()
        _rmtree(stage)  # holds at most the build's own .lock
        return True
    except BaseException:
        for target in reversed(moved):
            _rmtree(target) if target.is_dir() else target.unlink()
        if stage is not None and stage.exists():
            _rmtree(stage)
        with contextlib.suppress(FileNotFoundError):
            lock.unlink()
        raise
    finally:
        os.close(fd)


def _sweep_stages(path: Path) -> None:
    """Remove the staging folders of ``path`` left by a killed `gm new`: a minute old and no live
    process holding their lock (a stage is locked right after it is made)."""
    import time

    for stage in path.parent.glob(f".{glob_escape(path.name)}.*.stage"):
        try:
            if stage.is_symlink() or not stage.is_dir() or time.time() - stage.stat().st_mtime < 60:
                continue
        except OSError:
            continue
        try:
            fd = os.open(stage, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue
        finally:
            os.close(fd)
        _rmtree(stage)


def glob_escape(name: str) -> str:
    import glob

    return glob.escape(name)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _flock_wait(fd: int, kind: int, timeout: float, root: Path) -> None:
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise GmError.one("campaign.locked", file=str(root)) from None
            time.sleep(0.02)


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def dump_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def dump_yaml(data: Any) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120)


def yaml_text(data: Any, file: str) -> str:
    """``data`` as the YAML text of a campaign file, refused (naming ``file``) when it is larger
    than what the tool reads back (``safeyaml.MAX_BYTES``): nothing gm writes may wedge a later
    command. (A 1 MB scenario in flow style doubles when written out in block style.)"""
    from gm_tool.core import safeyaml

    text = dump_yaml(data)
    size = len(text.encode("utf-8"))
    if size > safeyaml.MAX_BYTES:
        raise GmError.one("store.too_large", file=file, size=size, limit=safeyaml.MAX_BYTES)
    return text


class Campaign:
    """A campaign folder. Reading needs no lock; every change happens under :meth:`lock`."""

    def __init__(self, root: Path):
        self.root = Path(root)

    # paths -------------------------------------------------------------------------------
    @property
    def meta_path(self) -> Path:
        return self.root / "campaign.yaml"

    def state_path(self, n: int) -> Path:
        return self.root / "state" / f"{turn_name(n)}.json"

    def orders_dir(self, n: int) -> Path:
        return self.root / "orders" / turn_name(n)

    def log_path(self, n: int) -> Path:
        return self.root / "log" / f"{turn_name(n)}.jsonl"

    def reports_dir(self, n: int) -> Path:
        return self.root / "reports" / turn_name(n)

    # reading -----------------------------------------------------------------------------
    def exists(self) -> bool:
        return self.meta_path.is_file()

    def require(self) -> "Campaign":
        if not self.exists():
            raise GmError.one("campaign.unfinished" if self.unfinished() else "campaign.missing", file=str(self.root))
        return self

    def meta(self) -> dict[str, Any]:
        from gm_tool.core import safeyaml

        return safeyaml.load_mapping(self.meta_path)

    @property
    def seed_path(self) -> Path:
        return self.root / "secret" / "seed"

    def seed(self) -> str:
        """The seed, byte-exact: only the line end `gm new` wrote after it is dropped (a seed read
        stripped would not be the one committed)."""
        path = self.seed_path
        try:
            text = path.read_bytes()[:1 << 16].decode("utf-8")
        except OSError:
            raise GmError.one("seed.missing", file=str(path)) from None
        except UnicodeDecodeError:
            raise GmError.one("file.encoding", file=str(path)) from None
        text = text[:-1] if text.endswith("\n") else text
        seed = text[:-1] if text.endswith("\r") else text
        from gm_tool.core.chance import commitment

        recorded = self.meta().get("seed_commitment")
        if recorded is not None and commitment(seed) != recorded:  # never resolve a turn no one can verify
            raise GmError.one("seed.mismatch", file=str(path))
        return seed

    def unfinished(self) -> bool:
        """A folder an interrupted `gm new` of an older version left: a seed or scenario copy
        but no campaign.yaml. (Campaigns are now published whole: see :func:`publish_dir`.)"""
        if self.exists() or not any(p.exists() for p in (self.seed_path, self.root / "scenario.yaml", self.state_path(0))):
            return False
        lock = self.root / ".lock"  # with a lock, a gm new filled it in place: killed, or still at work
        return abandoned_fill(self.root) if lock.exists() or lock.is_symlink() else True

    def amendments_dir(self, n: int) -> Path:
        """GM edits made after turn ``n`` (applied before turn n+1 is resolved)."""
        return self.root / "amendments" / f"after-{n:03d}"

    def amendment_files(self, n: int) -> list[Path]:
        folder = self.amendments_dir(n)
        if not folder.is_dir():
            return []
        return sorted((p for p in folder.iterdir() if _AMEND_RE.match(p.name)), key=lambda p: int(p.stem))

    def turns(self) -> list[int]:
        folder = self.root / "state"
        if not folder.is_dir():
            return []
        return sorted(int(m.group(1)) for p in folder.iterdir() if (m := _TURN_RE.match(p.name)))

    def latest(self) -> int:
        """The last turn. While a rollback is under way (or was killed: its journal is pending),
        the turn it goes back to: a reader sees that whole turn, never the turns being moved."""
        turns = self.turns()
        if not turns:
            raise GmError.one("campaign.corrupt", file=str(self.root / "state"), reason="no state file")
        target = self.pending_rollback()
        if target is not None and any(t <= target for t in turns):
            return max(t for t in turns if t <= target)
        return turns[-1]

    def pending_rollback(self) -> int | None:
        """The turn a rollback under way goes back to (its journal, the newest superseded/NNN/
        NOTE.json, says "pending"), or None."""
        base = self.root / "superseded"
        try:
            newest = max((p for p in base.iterdir() if p.name.isdigit()), key=lambda p: int(p.name), default=None)
        except OSError:
            return None
        if newest is None:
            return None
        try:
            note = json.loads((newest / "NOTE.json").read_text("utf-8"))
        except (OSError, ValueError):
            return None
        to = note.get("to") if isinstance(note, dict) and note.get("status") == "pending" else None
        return to if isinstance(to, int) and not isinstance(to, bool) else None

    def load_state(self, n: int) -> dict[str, Any]:
        path = self.state_path(n)
        try:
            return json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            raise GmError.one("turn.unknown", file=str(self.root), turn=n, last=self.latest()) from None
        except (OSError, ValueError) as exc:
            raise GmError.one("campaign.corrupt", file=str(path), reason=str(exc)) from None

    def order_files(self, n: int) -> dict[str, Path]:
        folder = self.orders_dir(n)
        if not folder.is_dir():
            return {}
        return {p.stem: p for p in sorted(folder.glob("*.yaml")) if safe_name(p.stem) and p.is_file()}

    # writing -----------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self, wait: float = 0.0) -> Iterator[None]:
        """Exclusive lock on the campaign; a second writer fails at once with a clear message
        (or after ``wait`` seconds: `gm new` writing its opening posts waits out the moment
        another `gm new` racing for the folder holds the lock to look at it). Before anything is
        written, a link or another file system's mount point inside the folder is refused (see
        :meth:`foreign`), so no command fails half-way across it."""
        self.root.mkdir(parents=True, exist_ok=True)
        fd = self._open_lock(os.O_RDWR | os.O_CREAT)
        try:
            _flock_wait(fd, fcntl.LOCK_EX, wait, self.root)
            self.refuse_foreign()
            self.sweep()
            yield
        finally:
            os.close(fd)

    def _open_lock(self, flags: int) -> int:
        path = self.root / ".lock"
        try:
            return os.open(path, flags | os.O_NOFOLLOW, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # .lock is a link
                raise GmError.one("campaign.foreign_link", file=str(path)) from None
            raise

    @contextlib.contextmanager
    def reading(self, recover: Callable[[], None] | None = None, timeout: float = 120.0) -> Iterator[None]:
        """Shared lock for a command that reads many files (``gm verify``): it sees one whole turn,
        waiting (up to ``timeout`` seconds) while a writer works, and no writer starts meanwhile.
        If a killed command left work undone (a rollback half done), ``recover`` finishes it first
        under the exclusive lock, where the folder is writable. A folder no command ever wrote to
        (no ``.lock``: a published copy) is read as it is."""
        try:
            fd = self._open_lock(os.O_RDONLY)
        except FileNotFoundError:
            yield
            return
        try:
            _flock_wait(fd, fcntl.LOCK_SH, timeout, self.root)
            if recover is not None and self.needs_recovery():
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:  # another reader: wait for the whole lock
                    fcntl.flock(fd, fcntl.LOCK_UN)
                    _flock_wait(fd, fcntl.LOCK_EX, timeout, self.root)
                if self.needs_recovery():
                    try:
                        self.refuse_foreign()
                        self.sweep()
                        recover()
                    except OSError as exc:  # a read-only copy (EROFS, EACCES, EPERM): read it as it is
                        if exc.errno not in _READ_ONLY:
                            raise
                fcntl.flock(fd, fcntl.LOCK_SH)
            yield
        finally:
            os.close(fd)

    def needs_recovery(self) -> bool:
        """True if a killed rollback left its journal pending, or an empty ``superseded/NNN``, or a
        killed `gm forum` its :data:`RERENDER` journal."""
        if (self.root / RERENDER).exists() or self.half_swapped():  # a gm forum killed half-way
            return True
        base = self.root / "superseded"
        if not base.is_dir():
            return False
        for aside in base.iterdir():
            note = aside / "NOTE.json"
            if not note.is_file():
                return True
            with contextlib.suppress(OSError, ValueError):
                if json.loads(note.read_text("utf-8")).get("status") == "pending":
                    return True
        return False

    def foreign(self) -> tuple[str, str] | None:
        """The first link (``"link"``) or mount point of another file system (``"device"``) inside
        the campaign folder, as (relative path, kind); None if there is none. Commands write by
        renaming, which a link can turn outside the campaign and which fails across devices."""
        device = os.stat(self.root).st_dev
        stack = [self.root]
        while stack:
            folder = stack.pop()
            try:
                entries = sorted(os.scandir(folder), key=lambda e: e.name)
            except FileNotFoundError:
                continue
            for entry in entries:
                if entry.is_symlink():
                    return str(Path(entry.path).relative_to(self.root)), "link"
                if entry.is_dir(follow_symlinks=False):
                    if entry.stat(follow_symlinks=False).st_dev != device:
                        return str(Path(entry.path).relative_to(self.root)), "device"
                    stack.append(Path(entry.path))
        return None

    def refuse_foreign(self) -> None:
        found = self.foreign()
        if found is not None:
            rel, kind = found
            raise GmError.one(f"campaign.foreign_{kind}", file=str(self.root / rel))

    def half_swapped(self) -> list[Path]:
        """Folders :func:`atomic_dir` moved aside (``.NAME.old``) whose successor a kill kept from
        taking their place: NAME is missing, and the old folder is its only copy."""
        out = []
        for folder in (self.root / "reports",):
            with contextlib.suppress(OSError):
                for entry in os.scandir(folder):
                    name = entry.name
                    if name.startswith(".") and name.endswith(".old") and entry.is_dir(follow_symlinks=False) \
                            and not (folder / name[1:-len(".old")]).exists():
                        out.append(folder / name)
        return sorted(out)

    def sweep(self) -> list[str]:
        """Remove temporary files and staging folders left by interrupted writes (call it locked:
        the lock dies with its process, so no live writer owns them)."""
        removed = []
        for old in self.half_swapped():  # killed between moving a folder aside and its successor in
            os.replace(old, old.with_name(old.name[1:-len(".old")]))
            _fsync_dir(old.parent)
        # committed report folders and what a rollback moved aside are whole (renamed into
        # place), so debris lies only in the folders written to directly
        whole = {self.root / "reports"}
        for folder, dirs, files in os.walk(self.root):
            for name in [*dirs, *files]:
                if is_debris(name):
                    path = Path(folder) / name
                    if path.is_dir() and not path.is_symlink():
                        _rmtree(path)
                    else:
                        with contextlib.suppress(FileNotFoundError):
                            path.unlink()
                    removed.append(str(path.relative_to(self.root)))
            here = Path(folder)
            dirs[:] = sorted(d for d in dirs if not is_debris(d) and here not in whole
                             and here.parent != self.root / "superseded")
        return sorted(removed)

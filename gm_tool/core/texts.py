"""A ruleset's player-facing words, kept as data: one file per ruleset, in one format.

``gm_tool/rulesets/<name>/data/messages.yaml`` holds four sections, each optional:

- ``messages``: ``{code: {zh: ..., en: ...}}``, the error and status messages, registered in the
  one message catalogue (:mod:`gm_tool.i18n`); every code starts with ``<name>.``;
- ``narration``: ``{event type: {zh: ..., en: ..., section: kind, silent: true}}``, the sentence
  an event is told with (``section``: the kind of post section the event opens; ``silent``:
  never told), read into a :class:`~gm_tool.core.narrate.Narration`;
- ``titles``: ``{zh: {kind: title}, en: {...}}``, the titles of those sections;
- ``labels``: ``{zh: {...}, en: {...}}``, every other word of posts, summaries and templates
  (nested maps allowed), with the same keys in both languages.

Placeholders are ``str.format`` fields (``{player}``). :func:`load` reads the file once per
process with the safe loader; :func:`problems` lists what is wrong with one (a test runs it
over every ruleset). Code never chooses words with ``lang == "zh"``: it asks for ``labels(lang)``.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm_tool.i18n import LANGS
from gm_tool.i18n import register as _register

SECTIONS = ("messages", "narration", "titles", "labels")
FILE = "messages.yaml"


@dataclass
class Texts:
    """The words of one ruleset (see the module docstring for the sections)."""

    name: str
    messages: dict[str, dict[str, str]] = field(default_factory=dict)
    narration_entries: dict[str, dict[str, Any]] = field(default_factory=dict)
    titles: dict[str, dict[str, str]] = field(default_factory=dict)
    labels_by_lang: dict[str, dict[str, Any]] = field(default_factory=dict)

    def labels(self, lang: str) -> dict[str, Any]:
        """The labels in ``lang`` (English for a language the file does not have)."""
        return self.labels_by_lang.get(lang) or self.labels_by_lang.get("en") or {}

    def label(self, lang: str, path: str, **params: Any) -> str:
        """One label by its dotted path (``"winner.draw"``), formatted with ``params``."""
        value: Any = self.labels(lang)
        for part in path.split("."):
            value = value[part]
        return str(value).format(**params) if params else str(value)

    @functools.cached_property
    def narration(self):
        """The ruleset's :class:`~gm_tool.core.narrate.Narration`: these sentences and titles."""
        from gm_tool.core.narrate import Narration

        told = Narration(self.titles, silent=("chance",))
        told.register(self.narration_entries)
        return told


def read(path: Path) -> dict[str, Any]:
    """The raw mapping of a messages file (bundled data: read with the C safe loader). Parsing a
    ruleset's words costs ~20 ms a process (every `gm resolve` renders posts), so the parsed
    mapping is kept in the user's private cache folder, keyed by the file's sha256: an edited
    file is parsed again."""
    raw = Path(path).read_bytes()
    key = hashlib.sha256(raw).hexdigest()
    data = _cached(key)
    if data is None:
        import yaml

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        data = yaml.load(raw.decode("utf-8"), Loader=loader)  # noqa: S506 (a safe loader)
        if isinstance(data, dict):
            _store(key, data)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: the top level must be a mapping of {', '.join(SECTIONS)}")
    return data


def _cache_dir() -> Path | None:
    """A folder of this user's alone (mode 0700, owned by the user) in the temp folder, or None
    when none can be had safely (``GM_NO_TEXTS_CACHE`` set: never)."""
    if os.environ.get("GM_NO_TEXTS_CACHE"):
        return None
    folder = Path(tempfile.gettempdir()) / f"gm-tool-texts-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        st = folder.lstat()
        if folder.is_symlink() or st.st_uid != os.getuid() or st.st_mode & 0o077:
            return None
    except OSError:
        return None
    return folder


def _cached(key: str) -> dict[str, Any] | None:
    """The mapping kept for the file of digest ``key``: the file holds the digest of the
    marshalled data, a line break, then the data (a torn or foreign file is a miss)."""
    folder = _cache_dir()
    if folder is None:
        return None
    try:
        digest, _, blob = (folder / f"{key}.marshal").read_bytes().partition(b"\n")
        if hashlib.sha256(blob).hexdigest().encode() != digest:
            return None
        data = marshal.loads(blob)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return data if isinstance(data, dict) else None


def _store(key: str, data: dict[str, Any]) -> None:
    folder = _cache_dir()
    if folder is None:
        return
    try:
        blob = marshal.dumps(data)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(hashlib.sha256(blob).hexdigest().encode() + b"\n" + blob)
        os.replace(tmp, folder / f"{key}.marshal")
    except (OSError, ValueError):
        return


@functools.cache
def load(data_dir: Path, name: str) -> Texts:
    """The words of ruleset ``name`` from ``data_dir/messages.yaml``, its messages registered
    in the catalogue. Read once per process; a malformed file is a ValueError (a bug of ours)."""
    data = read(Path(data_dir) / FILE)
    found = problems(data, name)
    if found:
        raise ValueError(f"{Path(data_dir) / FILE}: " + "; ".join(found[:5]))
    texts = Texts(name, data.get("messages") or {}, data.get("narration") or {}, data.get("titles") or {},
                  data.get("labels") or {})
    _register(texts.messages)
    return texts


def _shape(value: Any) -> Any:
    """The keys of a nested label map (what both languages must share)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    return None


def problems(data: dict[str, Any], name: str) -> list[str]:
    """What is wrong with a messages mapping: unknown sections, a message or sentence without
    both languages, a code without the ruleset's prefix, labels whose keys differ by language."""
    out = [f"unknown section {key!r}" for key in data if key not in SECTIONS]
    for code, entry in (data.get("messages") or {}).items():
        if not str(code).startswith(name + "."):
            out.append(f"messages.{code}: a code starts with {name + '.'!r}")
        if not isinstance(entry, dict) or set(entry) != set(LANGS) or not all(isinstance(v, str) and v for v in entry.values()):
            out.append(f"messages.{code}: needs exactly a zh and an en text")
    for type_, entry in (data.get("narration") or {}).items():
        if not isinstance(entry, dict) or set(entry) - {*LANGS, "section", "silent"}:
            out.append(f"narration.{type_}: keys are zh, en, section, silent")
        elif any(k in entry for k in LANGS) and not all(isinstance(entry.get(k), str) for k in LANGS):
            out.append(f"narration.{type_}: a sentence needs both zh and en")
    for section in ("titles", "labels"):
        block = data.get(section) or {}
        if block and set(block) != set(LANGS):
            out.append(f"{section}: one map per language ({', '.join(LANGS)})")
            continue
        shapes = {lang: _shape(block[lang]) for lang in block}
        if len({repr(s) for s in shapes.values()}) > 1:
            out.append(f"{section}: zh and en must have the same keys")
    return out

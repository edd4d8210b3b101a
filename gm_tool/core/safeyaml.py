"""YAML from strangers: safe loading with bounds on size, depth and alias expansion.

Every failure is a :class:`GmError` naming the file; nothing here can run code (safe loader,
no Python tags), and the work is bounded whatever the input:

- files larger than ``MAX_BYTES`` are refused before they are read whole;
- NUL bytes, UTF-16/32 and non-UTF-8 text (GBK is recognised and named) are refused;
- the event stream is walked first, without building anything: a key written twice in one
  mapping (also under another spelling of the same value: ``1`` and ``0x1``), a merge key ``<<``, more than ``MAX_DEPTH`` levels of nesting, more than ``MAX_NODES`` nodes once aliases are expanded (billion laughs), a
  recursive alias or a second document stops the walk at once. Only then is the document
  composed and constructed, so the (recursive, C) composer never sees deep input.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from gm_tool.errors import GmError, Problem
from gm_tool.i18n import register

_Loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:  # the C loader is ~10x faster; same safety
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

MAX_BYTES = 1 << 20
MAX_DEPTH = 40
MAX_NODES = 200_000

register({
    "yaml.syntax_tab": {"zh": "YAML 语法错误（第 {line} 行）：这一行有 Tab；请用空格缩进（每层两个空格），不要用 Tab",
                        "en": "YAML syntax error (line {line}): this line holds a tab; indent with spaces (two per level), never tabs"},
    "yaml.syntax_colon": {"zh": "YAML 语法错误（第 {line} 行）：这一行用了全角冒号「：」；请改用半角冒号加一个空格，如「回合: 1」",
                          "en": "YAML syntax error (line {line}): this line uses a full-width colon '：'; write a half-width colon and a space, e.g. 'turn: 1'"},
    "yaml.colon": {"zh": "读不出任何「键: 值」：文件用了全角冒号「：」；请改用半角冒号加一个空格，如「回合: 1」",
                   "en": "no 'key: value' could be read: the file uses full-width colons '：'; write a half-width colon and a space, e.g. 'turn: 1'"},
    "yaml.empty": {"zh": "文件是空的（或只有注释）；指令表至少要写 回合 与 玩家（gm template 可生成一份预填的指令表）",
                   "en": "the file is empty (or only comments); a sheet needs at least turn and player (gm template makes a pre-filled one)"},
    "file.encoding_named": {"zh": "文件是 {encoding} 编码，应为 UTF-8；请以 UTF-8 另存后再试",
                            "en": "the file is {encoding} text; save it as UTF-8 and try again"},
    "yaml.recursive": {"zh": "别名 *{anchor} 引用了它自身（递归结构）", "en": "alias *{anchor} refers to itself (a recursive structure)"},
    "yaml.multiple_documents": {"zh": "文件含有多个 YAML 文档（---）；只允许一个",
                                "en": "the file holds more than one YAML document (---); one is allowed"},
    "yaml.duplicate_key": {"zh": "键 {key!r} 写了两次（第 {first} 行和第 {second} 行）；每个键只能出现一次，请删去其中一处",
                           "en": "key {key!r} is written twice (lines {first} and {second}); a key may appear once, remove one of them"},
    "yaml.same_key": {"zh": "键 {key!r} 与第 {first} 行的 {other!r} 是同一个键（YAML 都读作 {value!r}）；每个键只能出现一次，请删去其中一处",
                      "en": "key {key!r} is the same key as {other!r} on line {first} (YAML reads both as {value!r}); a key may appear once, remove one of them"},
    "yaml.merge_key": {"zh": "不允许 YAML 合并键 <<（第 {line} 行）：它从别处复制键，可能悄悄替换或被替换这里写的键；请把键直接写出来",
                       "en": "YAML merge keys (<<, line {line}) are not allowed: they copy keys from elsewhere and can silently replace the keys written here; write the keys out"},
    "yaml.number_too_long": {"zh": "无法读取的值：数字超过 {limit} 位，不可能是有效的值",
                              "en": "unreadable value: a number of more than {limit} digits cannot be a valid value"},
    "yaml.bad_value": {"zh": "无法读取的值：{problem}", "en": "unreadable value: {problem}"},
})

_BOMS = ((b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe\x00\x00", "UTF-32"),
         (b"\xfe\xff", "UTF-16"), (b"\xff\xfe", "UTF-16"))


def _scan(text: str, source: str, max_depth: int, max_nodes: int) -> None:
    """Walk the event stream within bounds: depth and node count as a consumer would see them
    (aliases expanded), refusing recursive aliases, extra documents and a key written twice in
    one mapping (YAML would keep the last silently: a sheet ending ``player: bob`` after
    ``player: alice`` would pass as bob's). Builds nothing."""
    loader = _Loader(text)
    anchors: dict[str | None, tuple[int, int]] = {}  # anchor -> (expanded nodes, height)
    # open collections: [anchor, nodes, height, keys seen (mappings) or None, children, path part]
    frames: list[list[Any]] = []
    open_anchors: set[str] = set()
    total = 0
    documents = 0

    def add(nodes: int, height: int) -> None:
        nonlocal total
        total += nodes
        if total > max_nodes:
            raise GmError.one("yaml.too_big", file=source, limit=max_nodes)
        if len(frames) + height > max_depth:
            raise GmError.one("yaml.too_deep", file=source, limit=max_depth)
        if frames:
            frames[-1][1] += nodes
            frames[-1][2] = max(frames[-1][2], height + 1)

    def child(event: Any) -> None:
        """Place a node in its parent: a sequence item, a mapping key or a mapping value."""
        if not frames:
            return
        parent = frames[-1]
        position = parent[4]
        parent[4] += 1
        keys = parent[3]
        if keys is None:
            parent[5] = position
        elif position % 2 == 0:  # a key
            parent[5] = None
            if isinstance(event, yaml.ScalarEvent):
                line = event.start_mark.line + 1 if event.start_mark is not None else 0  # always set by the parser
                path = ".".join([*(str(f[5]) for f in frames[:-1]), event.value])
                key = _key_value(loader, event)
                if key is _MERGE:
                    raise GmError(Problem("yaml.merge_key", source, path or "<<", {"line": line}, line=line))
                if key in keys:
                    first, spelled = keys[key]
                    if spelled == event.value:
                        raise GmError(Problem("yaml.duplicate_key", source, path,
                                              {"key": event.value, "first": first, "second": line}, line=line))
                    raise GmError(Problem("yaml.same_key", source, path, {"key": event.value, "other": spelled,
                                                                          "first": first, "value": key}, line=line))
                keys[key] = (line, event.value)
                parent[5] = event.value

    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise GmError.one("yaml.multiple_documents", file=source)
            elif isinstance(event, yaml.AliasEvent):
                if event.anchor in open_anchors:
                    raise GmError.one("yaml.recursive", file=source, anchor=event.anchor)
                child(event)
                add(*anchors.get(event.anchor, (1, 1)))  # an undefined alias fails when composed
            elif isinstance(event, yaml.ScalarEvent):
                child(event)
                add(1, 1)
                if event.anchor is not None:
                    anchors[event.anchor] = (1, 1)
            elif isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                child(event)
                add(1, 1)  # counts the collection node; checks the depth it opens at
                mapping = isinstance(event, yaml.MappingStartEvent)
                frames.append([event.anchor, 1, 1, {} if mapping else None, 0, None])
                if len(frames) > max_depth:
                    raise GmError.one("yaml.too_deep", file=source, limit=max_depth)
                if event.anchor is not None:
                    open_anchors.add(event.anchor)
            elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                anchor, nodes, height = frames.pop()[:3]
                if frames:  # the node itself was already counted in its parent when it opened
                    frames[-1][1] += nodes - 1
                    frames[-1][2] = max(frames[-1][2], height + 1)
                if anchor is not None:
                    open_anchors.discard(anchor)
                    anchors[anchor] = (nodes, height)
    finally:
        loader.dispose()


_MERGE = object()
_STR = "tag:yaml.org,2002:str"


def _key_value(loader: Any, event: Any) -> Any:
    """The value a mapping key stands for once constructed, so two spellings of one key (``1`` and
    ``0x1``, ``true`` and ``yes``, ``1`` and ``1.0``) are found equal the way the mapping built from
    them would merge them; :data:`_MERGE` for a merge key ``<<``. A key that cannot be constructed
    (it fails later, with its own message) stands for its text."""
    if event.implicit[0]:  # plain: the tag is what the text looks like
        tag = loader.resolve(yaml.ScalarNode, event.value, (True, False))
    else:
        tag = event.tag if event.tag not in (None, "!") else _STR
    if tag == _STR:
        return event.value
    if tag == "tag:yaml.org,2002:merge":
        return _MERGE
    try:
        value = loader.construct_object(yaml.ScalarNode(tag, event.value))
        hash(value)
        return value
    except Exception:  # noqa: BLE001 (an unknown tag, an unreadable number: reported when composed)
        return ("unconstructed", tag, event.value)


def loads(text: str, source: str, *, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES) -> Any:
    if "\x00" in text:
        raise GmError.one("file.binary", file=source)
    try:
        _scan(text, source, max_depth, max_nodes)
        loader = _Loader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        if "nesting depth" in str(exc.problem):  # PyYAML >= 6.0.4 bounds flow nesting in its scanner
            raise GmError.one("yaml.too_deep", file=source, limit=max_depth) from None
        mark = exc.problem_mark
        line: Any = (mark.line + 1) if mark else "?"
        hint = _hint(text, mark.line if mark else None)
        if hint == "colon" and mark and "：" not in text.splitlines()[mark.line:mark.line + 1] and mark.line > 0:
            line = mark.line  # YAML notices the missing ':' on the line after the one at fault
        raise GmError.one(f"yaml.syntax_{hint}" if hint else "yaml.syntax", file=source, line=line,
                          column=(mark.column + 1) if mark else "?", problem=exc.problem or str(exc)) from None
    except yaml.YAMLError as exc:  # e.g. a ReaderError: a control character
        where = getattr(exc, "position", None)
        raise GmError.one("yaml.syntax", file=source, line="?", column="?" if where is None else f"? (character {where})",
                          problem=str(exc).splitlines()[0][:200]) from None
    except RecursionError:
        raise GmError.one("yaml.too_deep", file=source, limit=max_depth) from None
    except (ValueError, OverflowError, TypeError) as exc:  # e.g. a 5000-digit integer, 2001-13-45
        if "int_max_str_digits" in str(exc) or "integer string conversion" in str(exc):
            import sys

            limit = sys.get_int_max_str_digits()
            long = re.search(rf"\d{{{limit + 1},}}", text)
            problem = GmError.one("yaml.number_too_long", file=source, limit=limit)
            problem.problems[0].line = text.count("\n", 0, long.start()) + 1 if long else None
            raise problem from None  # not Python's advice to raise the interpreter's limit
        raise GmError.one("yaml.bad_value", file=source, problem=str(exc)[:200]) from None


def decode(raw: bytes, source: str) -> str:
    """Bytes to text: UTF-8 (with or without BOM) only, with a helpful word for anything else:
    UTF-16/32 with or without a byte-order mark, GBK, Big5 and Shift-JIS are named."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            raise GmError.one("file.encoding_named", file=source, encoding=name)
    wide = _wide_unicode(raw)
    if wide:
        raise GmError.one("file.encoding_named", file=source, encoding=wide)
    if b"\x00" in raw:
        raise GmError.one("file.binary", file=source)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    else:
        if _TWO_BYTE.search(text) and _mixed_scripts(text) and _legacy_encoding(raw[:8192]):
            # valid UTF-8 by chance, but read so it is Cyrillic, Hebrew and Greek letters mixed
            # in one word: GBK (or Big5) bytes that happen to pair up as UTF-8
            raise GmError.one("file.encoding_named", file=source, encoding=_legacy_encoding(raw[:8192]))
        return text
    legacy = _legacy_encoding(raw[:8192])
    if legacy and not _mostly_control(raw):
        raise GmError.one("file.encoding_named", file=source, encoding=legacy)
    raise GmError.one("file.encoding", file=source)


def _wide_unicode(raw: bytes) -> str | None:
    """UTF-16 or UTF-32 without a byte-order mark: any text with an ASCII character in it (a YAML
    sheet has its colons, spaces and line ends) leaves NUL bytes, and the right reading of the
    first 4 KB is plausible text: it decodes, and holds no control, unassigned or private
    character. (The wrong byte order of ASCII reads as CJK but turns every line end into U+0A00,
    unassigned; the wrong order of CJK breaks into lone surrogates.) Chinese-heavy sheets are
    named too, not only mostly-ASCII ones."""
    sample = raw[:4096]
    if len(sample) < 4 or sample.count(b"\x00") < max(2, len(sample) // 200):
        # not UTF-16/32 of anything with line ends (a stray NUL in UTF-8 is "binary"); the
        # common path, a sheet with no NUL at all, skips the rest
        return None
    for width, name in ((4, "UTF-32"), (2, "UTF-16")):
        for order in ("LE", "BE"):
            text = _decode_cut(sample, f"utf-{width * 8}-{order.lower()}", width)
            if text is not None and _plausible(text):
                return f"{name} ({order}, without a byte-order mark)"
    return None


def _decode_cut(sample: bytes, codec: str, width: int) -> str | None:
    """``sample`` decoded, allowing the 4 KB cut to have split its last character (or pair)."""
    usable = len(sample) - len(sample) % width
    for cut in (0, width):
        try:
            return sample[:usable - cut].decode(codec)
        except UnicodeDecodeError:
            continue
    return None


def _plausible(text: str) -> bool:
    """Text a person could have written: line breaks and tabs aside, no control character, nothing
    unassigned, private or half of a surrogate pair; and some line end or colon (a YAML text)."""
    import unicodedata

    if "\n" not in text and ":" not in text and "\uff1a" not in text:
        return False
    return not any(unicodedata.category(ch) in ("Cc", "Cn", "Co", "Cs") and ch not in "\t\n\r" for ch in text)


_TWO_BYTE = re.compile("[\u0080-\u07ff]")
# the scripts of U+0080-U+07FF, where a two-byte legacy character read as UTF-8 lands
_BLOCKS = ((0x0250, "latin"), (0x0300, "ipa"), (0x0370, "combining"), (0x0400, "greek"), (0x0530, "cyrillic"),
           (0x0590, "armenian"), (0x0600, "hebrew"), (0x0700, "arabic"), (0x0750, "syriac"), (0x0780, "arabic"),
           (0x0800, "thaana"))


def _block(ch: str) -> str | None:
    cp = ord(ch)
    if not 0x80 <= cp < 0x800:
        return None
    return next(name for end, name in _BLOCKS if cp < end)


def _mixed_scripts(text: str) -> bool:
    """True if the letters of U+0080-U+07FF in ``text`` are no writing at all: two scripts in one
    word, or a combining mark starting a word. A Russian, Greek or French word is one script;
    GBK read as UTF-8 hops between six (一些伟位 reads һЩΰλ)."""
    for word in text.split():
        blocks = [b for b in map(_block, word) if b is not None]
        if not blocks:
            continue
        if blocks[0] == "combining" and _block(word[0]) == "combining":
            return True
        if len({b for b in blocks if b != "combining"}) > 1:
            return True
    return False


# the byte ranges of each legacy encoding's common characters (symbols, kana, first-level hanzi or
# kanji): text in that encoding decodes mostly into them, text in another mostly does not
_LEGACY = (
    ("GBK/GB18030", "gbk", lambda b: 0xA1 <= b[0] <= 0xA3 or (0xB0 <= b[0] <= 0xD7 and b[1] >= 0xA1)),
    ("Big5", "cp950", lambda b: 0xA1 <= b[0] <= 0xA3 or 0xA4 <= b[0] <= 0xC6),
    ("Shift-JIS", "cp932", lambda b: 0x81 <= b[0] <= 0x84 or 0x88 <= b[0] <= 0x9F),
)


def _legacy_encoding(sample: bytes) -> str | None:
    """The legacy CJK encoding ``sample`` reads best in, or None. Each candidate must decode the
    sample (a cut last character aside); the one whose characters are mostly its common ones wins
    (ties go to GBK, the likeliest for a Chinese forum)."""
    best, best_score = None, 0.5
    for name, codec, common in _LEGACY:
        text = None
        for cut in range(4):
            try:
                text = sample[:len(sample) - cut].decode(codec)
                break
            except UnicodeDecodeError:
                continue
        if text is None:
            continue
        wide = [ch.encode(codec) for ch in text if not ch.isascii()]
        if not wide:
            continue
        score = sum(1 for b in wide if len(b) == 2 and common(b)) / len(wide)
        if score > best_score:
            best, best_score = name, score
    return best


def _mostly_control(raw: bytes) -> bool:
    sample = raw[:4096]
    return sum(1 for b in sample if b < 0x20 and b not in (9, 10, 13)) > len(sample) // 20


def load_file(path: Path, *, max_bytes: int = MAX_BYTES, display: str | None = None) -> Any:
    return loads(read_text(path, max_bytes=max_bytes, display=display), display or str(path))


def read_text(path: Path, *, max_bytes: int = MAX_BYTES, display: str | None = None) -> str:
    """A regular file's text, bounded and decoded (UTF-8, with a clear error for other encodings)."""
    source = display or str(path)
    path = Path(path)
    try:
        if not path.is_file():
            if not path.exists():
                raise GmError.one("file.missing", file=source)
            raise GmError.one("file.unreadable", file=source, reason="not a regular file")
        size = path.stat().st_size
        if size > max_bytes:
            raise GmError.one("file.too_large", file=source, size=size, limit=max_bytes)
        with open(path, "rb") as fh:
            raw = fh.read(max_bytes + 1)
        if len(raw) > max_bytes:  # grew after the check
            raise GmError.one("file.too_large", file=source, size=len(raw), limit=max_bytes)
    except FileNotFoundError:
        raise GmError.one("file.missing", file=source) from None
    except OSError as exc:
        raise GmError.one("file.unreadable", file=source, reason=exc.strerror or str(exc)) from None
    return decode(raw, source)


def _hint(text: str, line: int | None) -> str | None:
    """What to type instead, for the slips a forum user makes: a full-width colon, a tab."""
    lines = text.splitlines()
    at = lines[line] if line is not None and 0 <= line < len(lines) else ""
    before = lines[line - 1] if line is not None and 0 < line <= len(lines) else ""
    if "\t" in at or (line is None and "\t" in text):
        return "tab"
    if "：" in at or "：" in before or (not at and "：" in text):
        return "colon"
    return None


_CODE_OPEN = re.compile(r"\A(\s*)\[code(?:=[^\]\n]*)?\]", re.IGNORECASE)
_CODE_CLOSE = re.compile(r"\[/code\](\s*)\Z", re.IGNORECASE)


def unwrap_code(text: str) -> str:
    """A text pasted from a forum post with its ``[code]`` ... ``[/code]`` tags (``[code=yaml]``
    too, any case) read without them; the lines stay where they were, so problems name the right
    line. Anything else is left as it is."""
    if "[" not in text:
        return text
    return _CODE_CLOSE.sub(r"\1", _CODE_OPEN.sub(r"\1", text, count=1), count=1)


def load_mapping(path: Path, display: str | None = None) -> dict[str, Any]:
    source = display or str(path)
    text = unwrap_code(read_text(path, display=display))
    data = loads(text, source)
    if data is None:  # an empty file, or only comments
        raise GmError.one("yaml.empty", file=source)
    if not isinstance(data, dict) and "：" in text:
        raise GmError.one("yaml.colon", file=source)
    if not isinstance(data, dict):
        raise GmError.one("yaml.not_mapping", file=source, got=type(data).__name__)
    for key in data:
        if not isinstance(key, str):
            raise GmError.one("yaml.bad_key", file=source, got=repr(key)[:80])
    return data

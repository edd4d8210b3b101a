"""The chance generator ``sha256-ctr-1`` as docs/fair-dice.md publishes it: the test vector, the
page's independent re-implementation (read from the page itself, so the page cannot drift from
the code) agreeing with :class:`Chance`, and `gm verify` refusing a campaign that names another
generator."""

from __future__ import annotations

import contextlib
import hashlib
import io
import re
from pathlib import Path

import pytest

from gm_tool.core.chance import GENERATOR, Chance, commitment

DOC = Path(__file__).parent.parent / "docs" / "fair-dice.md"
VECTOR_ROLLS = [2, 1, 3, 5, 2, 5, 3, 3, 1, 2]


def doc_text() -> str:
    return DOC.read_text("utf-8")


def reimplementation() -> type:
    """The ``Sha256Ctr1`` class of the page's only ``python`` block, run with nothing but
    ``hashlib`` importable (its example line prints the test vector)."""
    blocks = re.findall(r"```python\n(.*?)\n```", doc_text(), re.S)
    assert len(blocks) == 1, "docs/fair-dice.md holds one python block: the re-implementation"
    source = blocks[0]
    assert re.findall(r"^\s*(?:import|from)\s+(\S+)", source, re.M) == ["hashlib"]
    assert "gm_tool" not in source
    out = io.StringIO()
    namespace: dict = {}
    with contextlib.redirect_stdout(out):
        exec(compile(source, str(DOC), "exec"), namespace)  # noqa: S102 - our own page
    assert out.getvalue() == f"{VECTOR_ROLLS}\n"
    return namespace["Sha256Ctr1"]


# the test vector ----------------------------------------------------------------------------
def test_vector_ten_d6_rolls():
    c = Chance("gm-tool", "turn-1")
    assert [c.roll(6) for _ in range(10)] == VECTOR_ROLLS


def test_vector_key_block_and_words_by_hand():
    key = hashlib.sha256(b"gm-tool\x00turn-1").digest()
    block0 = hashlib.sha256(key + bytes(8)).digest()
    words = [int.from_bytes(block0[i:i + 8], "big") for i in range(0, 32, 8)]
    assert key.hex() == "9952b33485f3f1e443b038e24766e7daeda90698165fa18484c088ed6bfc16ee"
    assert block0.hex() == "2d72c3207418833d1ba96ede065e49b26694941f67e8cefa0a21b616e437f08c"
    assert words == [3274894423205905213, 1993246209956792754, 7391695751030034170, 730064824045138060]
    # the module draws these very words (below(2**64) keeps every word), then block 1's
    block1 = hashlib.sha256(key + (1).to_bytes(8, "big")).digest()
    c = Chance("gm-tool", "turn-1")
    assert [c.below(1 << 64) for _ in range(5)] == words + [int.from_bytes(block1[:8], "big")]
    # and roll(6) is word % 6 + 1 (no word here is rejected)
    assert [w % 6 + 1 for w in words] == VECTOR_ROLLS[:4]


def test_vector_choice_and_shuffle():
    assert Chance("gm-tool", "turn-1").choice(list("ABCDEFG")) == "A"
    items = list(range(10))
    Chance("gm-tool", "turn-1").shuffle(items)
    assert items == [5, 6, 4, 8, 7, 1, 9, 2, 0, 3]


def test_the_page_publishes_the_vector_the_code_draws():
    text = doc_text()
    assert "`2 1 3 5 2 5 3 3 1 2`" in text
    assert "`[5, 6, 4, 8, 7, 1, 9, 2, 0, 3]`" in text
    assert f"chance: {GENERATOR}" in text
    # and the module's docstring, which points to the page, quotes the same rolls
    import gm_tool.core.chance as module

    assert "2 1 3 5 2 5 3 3 1 2" in (module.__doc__ or "")


def test_commitment_is_sha256_of_the_seed_bytes():
    assert commitment("gm-tool") == hashlib.sha256(b"gm-tool").hexdigest()
    assert commitment("圣杯") == hashlib.sha256("圣杯".encode()).hexdigest()


# the independent re-implementation ------------------------------------------------------------
SEEDS = ["gm-tool", "test-seed", "0f3a9c", "圣杯战争", ""]
STREAMS = ["setup", "turn-1", "turn-12", "bots-3"]
# sizes whose rejection bound matters: 2**63 + 1 rejects almost half of all words
SIZES = [1, 2, 3, 6, 7, 10, 13, 52, 100, 1000, (1 << 32) + 1, (1 << 63) + 1, (1 << 64) - 1, 1 << 64]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("stream", STREAMS)
def test_reimplementation_agrees_with_chance(seed, stream):
    ref = reimplementation()(seed, stream)
    ours = Chance(seed, stream)
    for i in range(400):
        op = i % 4
        if op == 0:
            sides = SIZES[i // 4 % len(SIZES)]
            assert ours.roll(sides) == ref.roll(sides), (i, sides)
        elif op == 1:
            options = [f"x{k}" for k in range(1 + i % 37)]
            assert ours.choice(options) == ref.choice(options), i
        elif op == 2:
            a, b = list(range(i % 53)), list(range(i % 53))
            ours.shuffle(a)
            ref.shuffle(b)
            assert a == b, i
        else:
            assert ours.roll(6) == ref.roll(6), i


def test_rejection_really_happens_and_agrees():
    """With n = 2**63 + 1 every word at or above n is thrown away (about half of them): the
    module's answers are the stream's words below n, in order, each taken mod n."""
    n = (1 << 63) + 1
    words = reimplementation()("gm-tool", "turn-1")
    raw = [words.word() for _ in range(400)]
    kept = [w % n for w in raw if w < n]
    assert 100 < len(raw) - len(kept) < 300  # rejection happens, often
    ours = Chance("gm-tool", "turn-1")
    assert [ours.below(n) for _ in range(len(kept))] == kept
    ref = reimplementation()("gm-tool", "turn-1")
    assert [ref.below(n) for _ in range(len(kept))] == kept


def test_streams_and_seeds_are_independent():
    def rolls(seed: str, stream: str) -> list[int]:
        c = Chance(seed, stream)
        return [c.roll(1000) for _ in range(8)]

    assert rolls("gm-tool", "turn-1") != rolls("gm-tool", "turn-2")
    assert rolls("gm-tool", "turn-1") != rolls("gm-tool2", "turn-1")
    # the zero byte separates seed and stream: ("ab", "c") is not ("a", "bc")
    assert rolls("ab", "c") != rolls("a", "bc")
    assert rolls("gm-tool", "turn-1") == rolls("gm-tool", "turn-1")


# gm verify and the chance key of campaign.yaml -------------------------------------------------
def _set_chance(campaign: Path, value: str | None) -> None:
    meta = campaign / "campaign.yaml"
    lines = [line for line in meta.read_text("utf-8").splitlines() if not line.startswith("chance:")]
    if value is not None:
        lines.append(f"chance: {value}")
    meta.write_text("\n".join(lines) + "\n", "utf-8")


@pytest.fixture
def played(skirmish, gm) -> Path:
    gm("resolve", skirmish)
    return skirmish


def test_new_records_the_generator(skirmish):
    assert f"\nchance: {GENERATOR}\n" in "\n" + (skirmish / "campaign.yaml").read_text("utf-8")


def test_verify_replays_a_campaign_with_the_generator(played, gm):
    seed = (played / "secret" / "seed").read_text("utf-8").strip()
    out = gm("verify", played, "--seed", seed, "--lang", "en").output
    assert "Verified: 1 turns" in out
    assert "Verified: 1 turns" in gm("verify", played, "--lang", "en").output


def test_verify_refuses_another_generator(played, gm):
    _set_chance(played, "sha256-ctr-2")
    out = gm("verify", played, "--lang", "en", code=1).output
    assert "campaign.yaml" in out and "chance" in out
    assert "'sha256-ctr-2'" in out and f"'{GENERATOR}'" in out
    assert "Traceback" not in out
    zh = gm("verify", played, code=1).output
    assert "随机数生成器" in zh and "sha256-ctr-2" in zh


def test_verify_refuses_a_campaign_without_a_generator(played, gm):
    _set_chance(played, None)
    out = gm("verify", played, "--lang", "en", code=1).output
    assert "chance" in out and "None" in out and GENERATOR in out


def test_verify_with_the_right_generator_back_passes_again(played, gm):
    _set_chance(played, "mt19937")
    gm("verify", played, code=1)
    _set_chance(played, GENERATOR)
    gm("verify", played)

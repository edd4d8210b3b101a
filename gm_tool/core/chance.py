"""Seeded chance: dice, choices and shuffles that are replayable and recorded.

One secret seed per campaign. Each turn draws from its own stream, derived from the seed and
the stream name (``turn-3``), so a turn can be replayed alone and a rollback re-resolves with
the same luck. Every roll, choice and shuffle is emitted to the event log with its result
(GM-only audience: the ruleset narrates what players may see).

The generator is ``sha256-ctr-1``, defined here in full so that anyone can re-implement it and
no Python version can change it (``random``'s algorithms are not promised across versions):

- key = SHA-256 of ``seed + "\\x00" + stream`` (UTF-8);
- block k (k = 0, 1, 2...) = SHA-256 of ``key + k`` (k as 8 bytes, big-endian); each block gives
  four 64-bit words, big-endian, in order;
- a number below n takes the next word w and returns ``w % n`` when
  ``w < 2**64 - 2**64 % n``, else it takes the next word (rejection: every value equally likely);
- ``roll(sides)`` is ``below(sides) + 1``; ``choice(items)`` is ``items[below(len(items))]``;
  ``shuffle(items)`` is Fisher-Yates from the end: for i from len-1 down to 1, swap item i with
  item ``below(i + 1)``.

Test vector (docs/fair-dice.md): seed ``gm-tool``, stream ``turn-1``, ten ``roll(6)``:
``2 1 3 5 2 5 3 3 1 2``.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from gm_tool.core.events import EventLog

T = TypeVar("T")

GENERATOR = "sha256-ctr-1"  # recorded in campaign.yaml (key ``chance``)
_SPAN = 1 << 64
_WORDS = struct.Struct(">4Q")
_LIMITS: dict[int, int] = {}  # n -> the rejection bound 2**64 - 2**64 % n


def new_seed() -> str:
    import secrets  # only `gm new` makes a seed

    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The public sha256 commitment of a seed, published before play."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Chance:
    def __init__(self, seed: str, stream: str, log: EventLog | None = None):
        self._key = hashlib.sha256(f"{seed}\x00{stream}".encode()).digest()
        self._block = 0
        self._words: list[int] = []
        self.log = log

    def _word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._block += 1
            self._words = list(_WORDS.unpack(digest))[::-1]  # reversed: pop() takes them in order
        return self._words.pop()

    def below(self, n: int) -> int:
        """A number in ``0 .. n-1``, every one equally likely."""
        limit = _LIMITS.get(n) if type(n) is int else None
        if limit is None:
            if type(n) is not int or n <= 0:
                raise ValueError(f"below() needs a positive integer, got {n!r}")
            limit = _LIMITS[n] = _SPAN - _SPAN % n
        while True:
            w = self._word()
            if w < limit:
                return w % n

    def roll(self, sides: int = 6, why: str = "") -> int:
        result = self.below(sides) + 1
        if self.log is not None:
            self.log.emit("chance", to=[], op="roll", why=why, result=result)
        return result

    def choice(self, options: Sequence[T], why: str = "", label: Callable[[T], Any] = str) -> T:
        if not options:
            raise IndexError("choice from an empty sequence")
        pick = options[self.below(len(options))]
        if self.log is not None:
            self.log.emit("chance", to=[], op="choice", why=why, result=label(pick))
        return pick

    def shuffle(self, items: list[T], why: str = "", label: Callable[[T], Any] = str) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        if self.log is not None:
            self.log.emit("chance", to=[], op="shuffle", why=why, result=[label(i) for i in items])

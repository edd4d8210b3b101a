"""Seeded chance: dice, choices and shuffles that are replayable and recorded.

One secret seed per campaign. Each turn draws from its own stream, derived from the seed and
the stream name (``turn-3``), so a turn can be replayed alone and a rollback re-resolves with
the same luck. Every roll, choice and shuffle is emitted to the event log with its result
(GM-only audience: the ruleset narrates what players may see).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence
from typing import Any, TypeVar

from gm_tool.core.events import EventLog

T = TypeVar("T")


def new_seed() -> str:
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The public sha256 commitment of a seed, published before play."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Chance:
    def __init__(self, seed: str, stream: str, log: EventLog | None = None):
        digest = hashlib.sha256(f"{seed}\x00{stream}".encode("utf-8")).digest()
        self._rng = random.Random(int.from_bytes(digest, "big"))
        self.log = log

    def _record(self, op: str, why: str, result: Any) -> None:
        if self.log is not None:
            self.log.emit("chance", to=[], op=op, why=why, result=result)

    # ``randint(1, n)`` and ``choice`` draw exactly ``_randbelow(n)`` (CPython's random.py), so
    # calling it directly gives the same numbers from the same seed, without two layers of checks
    # (bots and fights draw hundreds of times a turn)
    def roll(self, sides: int = 6, why: str = "") -> int:
        if type(sides) is int and sides > 0:
            result = self._rng._randbelow(sides) + 1
        else:
            result = self._rng.randint(1, sides)  # raises as before
        if self.log is not None:
            self.log.emit("chance", to=[], op="roll", why=why, result=result)
        return result

    def choice(self, options: Sequence[T], why: str = "", label=str) -> T:
        n = len(options)
        pick = options[self._rng._randbelow(n) if n else self._rng.randrange(n)]
        if self.log is not None:
            self.log.emit("chance", to=[], op="choice", why=why, result=label(pick))
        return pick

    def shuffle(self, items: list[T], why: str = "", label=str) -> None:
        self._rng.shuffle(items)
        if self.log is not None:
            self.log.emit("chance", to=[], op="shuffle", why=why, result=[label(i) for i in items])

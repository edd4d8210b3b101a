"""An action that cannot be done, named by its reason (message ``hunlu.skip.<code>``)."""

from __future__ import annotations

from typing import Any


class Skip(Exception):
    """An action that cannot be done: ``code`` names the reason (message hunlu.<code>)."""

    def __init__(self, code: str, field: str = "", **params: Any):
        super().__init__(code)
        self.code, self.field, self.params = code, field, params

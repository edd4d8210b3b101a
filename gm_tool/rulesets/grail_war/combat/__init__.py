"""Fights (R8-R13): the grail war's card combat, played from the players' 战术选项.

``resolve_fights(game, fights, orders, log, chance)`` is the entry point called by resolve.py;
the engine is in :mod:`.engine`, skills as data in :mod:`.skills`, narration in :mod:`.text`.
"""

from gm_tool.rulesets.grail_war.combat import text  # noqa: F401  (registers the sentences)
from gm_tool.rulesets.grail_war.combat.engine import Fight, resolve_fights

__all__ = ["Fight", "resolve_fights"]

"""Fights (R8-R13): the grail war's card combat, played from the players' 战术选项.

``resolve_fights(game, fights, orders, log, chance)`` is the entry point called by resolve.py.
:mod:`.engine` holds the fight and its three phases' order; :mod:`.abilities` (skills, with
definitions as data in :mod:`.skills`), :mod:`.magic` (a table of magic cards) and
:mod:`.basic` (杀 and 闪) are the phases; :mod:`.equipment` hooks weapons and armour on the
stages of a 杀 and of damage (:mod:`.damage`); :mod:`.respond` reads the 出杀/出闪 lists;
:mod:`.cardmoves` moves cards. How each event is told is data (data/messages.yaml, narration).
"""

from gm_tool.rulesets.grail_war.combat.engine import Fight, resolve_fights

__all__ = ["Fight", "resolve_fights"]

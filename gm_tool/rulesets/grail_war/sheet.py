"""`gm template`: a commented order sheet for one player's next turn that validates as it is.

Keys and values are the seed's Chinese wording (accepted as aliases) in a zh sheet and the
English codes in an en one, as data/messages.yaml's labels (sheet) say. Values are the defaults a
missing sheet gets.
"""

from __future__ import annotations

from typing import Any

from gm_tool.core.grid import cell_name
from gm_tool.rulesets.grail_war.hands import choose_kept
from gm_tool.rulesets.grail_war.model import Game
from gm_tool.rulesets.grail_war.orders import ACTIONS, SKILL_KIND, default
from gm_tool.rulesets.grail_war.words import equipment_text, labels, skill_texts


def _v(words: dict[str, Any], kind: str, value: Any) -> str:
    """A value as the sheet's language writes it (the seed's wording in zh, the codes in en)."""
    key = ("true" if value else "false") if isinstance(value, bool) else value
    return str(words["values"].get(kind, {}).get(key, key))


def _offered(game: Game, player: str, kind: str) -> list[Any]:
    """The values of one section the options offer (orders.ACTIONS), in their order."""
    return [option[kind] for option in ACTIONS.kinds[kind].options(game, player)]


def template(state: dict[str, Any], player: str, lang: str, game: Game | None = None) -> str:
    """The sheet; ``game`` is ``state`` already converted (the posts convert a turn's state once
    for every player's sheet; a sheet reads no pile)."""
    game = Game.from_state(state) if game is None else game
    words = labels(lang)
    sheet_words = words["sheet"]
    t = sheet_words["text"]
    dead = [c for c in game.of_player(player) if not c.alive]
    names = words["import"]["sep"].join(words["character_ref"].format(name=c.name, id=c.id) for c in dead)
    if dead and len(dead) == len(game.of_player(player)):  # ruling G9: nothing to order
        return t["all_dead"].format(player=player, names=names) + "\n"
    o = default(game, player)
    char = game.character(o.character)
    k = sheet_words["keys"].__getitem__
    v = lambda kind, value: _v(sheet_words, kind, value)  # noqa: E731
    hand = " ".join(c.label for c in char.hand) or t["none"]
    eq = {slot: (card.name if card else t["none"]) for slot, card in char.equipment.items()}
    moves = _offered(game, player, "move")  # where the move may end: walking, by class movement, by teleport
    walk = [m["to"] for m in moves if "special" not in m]
    special = next((m["special"] for m in moves if m.get("special") not in (None, "teleport", "destroy")), None)
    extra = [m["to"] for m in moves if special is not None and m.get("special") == special]
    tele = [m["to"] for m in moves if m.get("special") == "teleport"]
    kept, dropped = choose_kept(char, None)  # what no keep list keeps (ruling C23)
    # the optional effects of what is worn, as a missing sheet uses them (ruling C14)
    skill_use = next(iter(SKILL_KIND.options(game, player)))["skill"]["use"]  # the first is what a missing sheet does
    choices: dict[str, bool] = {}
    for offer in _offered(game, player, "equipment"):  # each worn card's default use comes first
        for name, choice in offer.items():
            choices.setdefault(name, choice["use"])
    several = len(game.of_player(player)) > 1
    below = game.board.height + 1
    in_tunnel = any(int(cell.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) >= below for cell in walk + extra)
    lines = [
        t["head"].format(name=char.name, cls=char.cls, turn=o.turn, player=player),
        t["status"].format(hp=char.hp, max_hp=char.max_hp, pos=cell_name(char.pos), move=char.move, limit=char.hand_limit()),
        t["hand"].format(hand=hand),
        t["equipment"].format(**eq),
        *[t["equipment_text"].format(slot=t[slot], name=card.name, text=equipment_text(card.name, lang))
          for slot, card in char.equipment.items() if card is not None],
        *[t["skill_text"].format(**sk) for sk in skill_texts(list(char.skills), state.get("skills"), lang)],
        f"{k('turn')}: {o.turn}",
        f"{k('player')}: {player}",
        *([t["dead"].format(names=names)] if dead else []),
        *([t["character"], f"{k('character')}: {char.id}"] if several else []),
        t["keep"],
        *([t["keep_default"].format(kept=" ".join(c.label for c in kept), dropped=" ".join(c.label for c in dropped))]
          if dropped else []),
        f"{k('keep')}: []",
        t["skill"],
        f"{k('skill')}: {{{k('use')}: {v('bool', skill_use)}, {k('discard')}: []}}",
        t["target"],
        f"{k('target_priority')}: {v('target_priority', o.target_priority)}",
        t["strike"],
        f"{k('strike_order')}:",
        *[f"  - {{{k('against')}: {v('strike', e.against)}}}" for e in o.strike_order],
        f"  - {v('strike', 'none')}",
        t["dodge"],
        f"{k('dodge_order')}:",
        *[f"  - {{{k('against')}: {v('dodge', e.against)}}}" for e in o.dodge_order],
        f"  - {v('dodge', 'none')}",
        t["curse"],
        f"{k('use_curse')}: {v('bool', False)}",
        t["gem"],
        f"{k('gem')}: {v('gem', o.gem)}",
        t["magic"],
        f"{k('magic')}: {{{k('use')}: {v('bool', True)}, {k('zone_priority')}: [{', '.join(v('zone', z) for z in o.zone_priority)}], "
        f"{k('hand_size')}: {v('hand_size', o.hand_size)}}}",
        *([t["equipment_opts"], f"{k('equipment')}:",
           *[f"  {name}: {{{k('use')}: {v('bool', choices[name])}, {k('zones')}: [{v('zone', 'equipment')}, {v('zone', 'hand')}]}}"
             for name in choices]]
          if choices else []),
        t["move"],
        t["dest"].format(cells=" ".join(walk) or t["none"]),
        *([t["special_dest"].format(special=k("special"), value=v("special", special), cells=" ".join(extra))]
          if extra else []),
        *([t["tele"].format(special=k("special"), cells=" ".join(tele))] if tele else []),
        *([t["tunnel"].format(row=below)] if in_tunnel else []),
        f"{k('move')}: {{{k('to')}: {cell_name(char.pos)}}}",
    ]
    return "\n".join(lines) + "\n"

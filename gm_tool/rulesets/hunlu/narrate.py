"""Events told as sentences (``narration`` of ``data/messages.yaml``) by a teller that formats
魂陆's own values from its labels: every roll with its source (and the GM's note for a forum
roll), every strike with the pips it was read against and what cancelled what, so a player can
check the arithmetic. The core gives the teller the names: a unit as "name(id)" (its
``unit_labels``), a player by display name."""

from __future__ import annotations

from typing import Any

from gm_tool.core.narrate import Narration, Teller
from gm_tool.core.render import Markup
from gm_tool.i18n import message
from gm_tool.rulesets.hunlu.messages import TEXTS

Event = dict[str, Any]


def unit_names(state: dict[str, Any]) -> dict[str, str]:
    """How posts name units: "name(id)" (the id is what a sheet writes)."""
    return {u["id"]: f"{u['name']}({u['id']})" for u in state["units"]}


def marks(state: dict[str, Any]) -> dict[str, str]:
    """Each unit's mark: the label given at setup and kept in the state (two characters, never
    shared; a state from before labels were kept falls back to the id's first two)."""
    return {u["id"]: u.get("label") or u["id"][:2].upper() for u in state["units"]}


def side_name(side: str, lang: str) -> str:
    """A side in words: 红方/蓝方 for the usual colours, else the scenario's own name."""
    return str(TEXTS.labels(lang)["sides"].get(side, side))


def winner_words(winner: Any, lang: str) -> str:
    return message("posts.draw", lang) if winner == "draw" else side_name(str(winner), lang)


class HunluTeller(Teller):
    """Formats 魂陆's values (sources, reasons, directions, cards, strikes, GM edits) from the
    labels of the post's language."""

    def __init__(self, narration: Narration, names: dict[str, str], lang: str, m: Markup) -> None:
        super().__init__(narration, names, lang, m)
        self.L = TEXTS.labels(lang)

    def name(self, value: Any) -> str:
        return self.m.esc(self.names.get(value, value))

    def title(self, kind: str, head: Event | None) -> str:
        """A section's title, with the round or the general of the event that opens it."""
        titles = TEXTS.titles.get(self.lang) or TEXTS.titles["en"]
        text = titles.get(kind, titles["other"])
        if head is None:
            return text
        uid = str(head.get("unit") or "")
        return text.format(round=head.get("round", ""), unit=self.names.get(uid, uid),
                           tianqi=self.L["tianqi"] if head.get("tianqi") else "",
                           extra=self.L["extra_title"] if head.get("extra") else "")

    def label(self, path: str, **params: Any) -> str:
        return TEXTS.label(self.lang, path, **params)

    def value(self, key: str, value: Any, event: Event, params: dict[str, Any]) -> str | None:
        t, L, esc = event["type"], self.L, self.m.esc
        if key == "rounds" and t == "status":
            return esc(L["forever"] if value is None else self.label("rounds", rounds=value))
        if value is None:
            return ""
        if key == "why":
            return esc(L["why"].get(value, value))
        if key == "direction":
            return esc(L["directions"].get(value, value))
        if key == "card":
            return esc(L["cards"].get(value, value))
        if key == "ok":
            return esc(L["ok"]["yes" if value else "no"])
        if key == "active":
            params["pending"] = "" if value else esc(L["pending"])
            return ""
        if key in ("overdraw", "passed", "tianqi"):
            return esc(L[key]) if value else ""
        if key == "first":
            return esc(L["first"]) if value else ""
        if key == "extra":
            return esc(L["extra"]["yes" if value else "no"])
        if key == "kind":
            return esc(L["kinds"].get(value, value))
        if key == "keys":
            return esc(self.sep.join(L["standing_keys"].get(k, k) for k in value))
        if key == "change":
            return f"{value:+g}"  # a signed number: no markup in any dialect
        if key == "winner":
            return esc(winner_words(value, self.lang))
        if key == "action" and t == "skip":
            return str(value + 1)
        if key == "reason" and t in ("skip", "first_failed"):
            return esc(message(f"hunlu.skip.{value}", self.lang, **_Default(self._params(event))))
        if key == "reason" and t == "turn_skipped":
            return esc(L["cant_act"].get(value, value))
        if key == "reason" and t == "amend":
            return esc(value or L["no_reason"])
        if key == "notes":
            return esc(self.label("dice_notes", notes=self.sep.join(value))) if value else ""
        return None

    def _params(self, event: Event) -> dict[str, Any]:
        """A skip's parameters with units named (its message is a refusal's)."""
        return {k: self.names.get(v, v) if isinstance(v, str) else v for k, v in (event.get("params") or {}).items()}

    def params(self, event: Event) -> dict[str, Any]:
        params = super().params(event)
        t, esc = event["type"], self.m.esc
        if "cells" in event:  # the core keeps `cells` for pictures; here it is a number of points
            params["cells"] = esc(event["cells"])
        if t == "roll":
            params["who"] = f"{self.name(event['unit'])} " if event.get("unit") else ""
            source = self.L["sources"].get(event["source"], event["source"])
            params["source"] = esc(self.label("source_note", source=source, note=event["note"])
                                   if event.get("note") else source)
        elif t == "order":
            params["order"] = self.L["order_sep"].join(self.name(x) for x in event["order"])
        elif t == "chance":
            n = event["pips"]
            params["range"] = esc(f"1-{n}" if n else "-")
        elif t == "strike":
            params.update(self.strike(event))
        elif t == "amend":
            params["edit"] = self.edit(event)
        elif t == "skill":
            params["targets"] = self.sep.join(self.name(x) for x in event["targets"]) or "-"
        return params

    def strike(self, e: Event) -> dict[str, str]:
        """The pips a strike was read against, and its outcome with what the die showed but did
        not count (a crit cancelled by 折弓破戟, a dodge by 命中) said on the same line."""
        S, A, esc = self.L["strike"], self.L["attrs"], self.m.esc
        p = e["pips"]
        parts = [S["high" if a == "weakness" else "low"].format(attr=A[a], n=7 - p[a] if a == "weakness" else p[a])
                 for a in ("crit", "hit", "weakness", "dodge", "defence", "resist") if p[a]]
        pipline = S["sep"].join(parts) or S["no_pips"]
        if e["joint"]:
            pipline += S["sep"] + S["joint"]
        cancel = {a: by for a, by in e.get("cancel") or []}
        shown = [A[a] for a in ("crit", "weakness", "dodge", "hit", "defence", "resist")
                 if e[a] and a not in cancel]
        shown += [S["cancelled"].format(attr=A[a], by=self.L["cancellers"].get(by, by)) for a, by in cancel.items()]
        if e["crit"] and e["weakness"]:
            shown.append(S["double_once"])
        outcome = S["sep"].join([S["base"].format(base=e["base"]), "+".join(shown) if shown else S["none"],
                                 S["nullified"] if e["nullified"] else S["damage"].format(damage=e["damage"])])
        return {"pipline": esc(pipline), "outcome": esc(outcome)}

    def edit(self, e: Event) -> str:
        """A GM edit in words: the edit, the general, the new value."""
        value = e.get("value")
        uid = str(e.get("unit") or "")
        if e["action"] == "set_order":
            value = self.L["order_sep"].join(self.names.get(x, x) for x in value or [])
        elif e["action"] == "add_status" and isinstance(value, list):
            rounds = self.L["forever"] if value[1] is None else self.label("rounds", rounds=value[1])
            value = self.label("status_item", name=value[0], rounds=rounds, pending="")
        unit = self.names.get(uid, uid)
        return self.m.esc(self.label(f"amend.{e['action']}", unit=unit, value=value))


class _Default(dict):
    def __missing__(self, key: str) -> str:
        return "?"

"""The scenario's ``rules:`` knobs of 魂陆, declared once (``gm_tool.core.rules``): the defaults are
the seed's own reading; the scenario reader checks them (with their Chinese spellings) and the
core lists them in the public opening post, worded from ``labels.rules`` of messages.yaml."""

from __future__ import annotations

from gm_tool.core.rules import Switch, defaults

SWITCHES = (
    # l.18: "上场的便是A，B，C三位魂将，D，E作为副位" (three mains, two reserves a player)
    Switch("field", 3, minimum=1, maximum=9, seed="l.18"),
    Switch("reserves", 2, minimum=0, maximum=9, seed="l.18"),
    # l.75: "这一步双方可各自规定，是否无法选择相同魂将" (the players' own choice; the seed allows copies)
    Switch("unique", False, choices=(False, True), seed="l.75"),
    # l.26: "技能没有标明射程的，以普攻射程为准"; a general without a range gets this one
    Switch("default_range", 2, minimum=0, maximum=26, seed="l.25-26"),
    # how often the public thread gets a post (the seed says nothing): each step, or each big
    # round once it ends
    Switch("posts", "step", choices=("step", "round")),
)
DEFAULTS = defaults(SWITCHES)
BY_NAME = {s.name: s for s in SWITCHES}

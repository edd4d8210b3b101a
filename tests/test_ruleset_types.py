"""Every ruleset declares its own types (issue 25): ``class X(RulesetBase[State, Orders])``, and
``parse_orders`` and the orders for a missing sheet are annotated with that orders type, not
``Any``; mypy then checks each method against it. Here the declaration is read back at run time
(a name imported only for type checkers, under ``if TYPE_CHECKING:``, is imported by the test)
and held against what the methods really return: the template and a bot's sheet of the
ruleset's default scenario parsed, and a missing sheet's orders, are instances of the declared
class, for the player they were written for."""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from gm_tool import app as ops
from gm_tool.core import ruleset as registry
from gm_tool.core import safeyaml
from gm_tool.core.chance import Chance
from gm_tool.core.ruleset import RulesetBase

SCENARIOS = {"toy": str(Path(__file__).parent / "toy" / "race.yaml")}
# rulesets whose declaration is on its way with their engineer's work; each is checked here as
# soon as it declares RulesetBase[S, O] (then its entry is deleted). None today.
OPEN: dict[str, str] = {}


def type_checking_names(source: str) -> dict[str, Any]:
    """The names a module's text imports for type checkers only (``if TYPE_CHECKING:`` at its
    top level), imported now."""
    out: dict[str, Any] = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)):
            continue
        for stmt in node.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.level == 0 and stmt.module:
                module = importlib.import_module(stmt.module)
                out.update({a.asname or a.name: getattr(module, a.name) for a in stmt.names})
    return out


def namespace(module_name: str) -> dict[str, Any]:
    """A module's names, with those it imports for type checkers only."""
    module = sys.modules[module_name]
    return {**vars(module), **type_checking_names(inspect.getsource(module))}


def declared(cls: type, ns: dict[str, Any] | None = None) -> tuple[Any, Any] | None:
    """``(S, O)`` of the ``RulesetBase[S, O]`` a ruleset's class derives from, names resolved in
    its module (or ``ns``); None for a bare ``RulesetBase``."""
    for base in inspect.getmro(cls):
        for orig in getattr(base, "__orig_bases__", ()):
            if typing.get_origin(orig) is RulesetBase:
                names = ns if ns is not None else namespace(base.__module__)
                state, orders = (eval(a.__forward_arg__, names) if isinstance(a, typing.ForwardRef) else a
                                 for a in typing.get_args(orig))
                return state, orders
    return None


def returns(cls: type, method: str, ns: dict[str, Any] | None = None) -> Any:
    """The return type a method of ``cls`` is annotated with, names resolved in its module."""
    function = getattr(cls, method)
    return typing.get_type_hints(function, globalns=ns if ns is not None else namespace(function.__module__))["return"]


def _names() -> list[str]:
    return registry.available()


@pytest.mark.parametrize("name", _names())
def test_the_ruleset_declares_its_state_and_orders_types(name):
    rs = registry.get(name)
    cls = type(rs)
    types = declared(cls)
    if types is None and name in OPEN:
        pytest.skip(OPEN[name])
    assert types is not None, f"{name}: declare the types, class {cls.__name__}(RulesetBase[State, Orders])"
    state_type, orders_type = types
    assert isinstance(orders_type, type) and orders_type is not Any, f"{name}: orders declared as {orders_type!r}"
    assert issubclass(typing.get_origin(state_type) or state_type, Mapping), f"{name}: state declared as {state_type!r}"
    missing = "pass_orders" if rs.missing_sheet is registry.MissingSheet.PASS else "default_orders"
    for method in ("parse_orders", missing):
        assert returns(cls, method) is orders_type, f"{name}.{method} returns {returns(cls, method)!r}, not {orders_type!r}"

    # what the methods really return is the declared class, for the player it was written for
    data, source = ops.load_scenario(SCENARIOS.get(name) or rs.default_scenario)
    state = rs.setup(data, source, "types")
    assert isinstance(state, typing.get_origin(state_type) or state_type)
    player = rs.due(state)[0]
    sheet = safeyaml.loads(rs.template(state, player, "en"), f"{player}.yaml")
    bots = rs.bot_orders(state, {player: rs.bot_kinds[0]}, Chance("types", "bots-1"))
    for what, orders in (("the template", rs.parse_orders(state, sheet, f"{player}.yaml", "en")),
                         ("a missing sheet", rs.missing_orders(state, player)), ("a bot's sheet", bots[player])):
        assert isinstance(orders, orders_type), f"{name}: {what} gives {type(orders)!r}, not {orders_type!r}"
        assert orders.player == player


def test_the_reader_resolves_names_imported_for_type_checkers_only():
    """A made-up ruleset naming its orders type as a string imported under ``if TYPE_CHECKING:``
    (the core's Outcome, for the sake of it): both the declaration and ``parse_orders``'s
    annotation resolve to that class; a bare ``RulesetBase`` declares nothing."""
    from gm_tool.core.ruleset import Outcome

    source = ("from __future__ import annotations\nfrom typing import TYPE_CHECKING, Any\n"
              "from gm_tool.core.ruleset import RulesetBase\n"
              "if TYPE_CHECKING:\n    from gm_tool.core.ruleset import Outcome\n"
              "class Made(RulesetBase[dict[str, Any], 'Outcome']):\n"
              "    def parse_orders(self, state, sheet, source, lang) -> Outcome: ...\n"
              "class Bare(RulesetBase):\n    pass\n")
    names: dict[str, Any] = {"__name__": "made_up"}
    exec(compile(source, "made_up.py", "exec"), names)
    assert "Outcome" not in names  # only a type checker imports it
    ns = {**names, **type_checking_names(source)}
    assert declared(names["Made"], ns) == (dict[str, Any], Outcome)
    assert returns(names["Made"], "parse_orders", ns) is Outcome
    assert declared(names["Bare"], ns) is None
    assert declared(type(registry.get("toy")))[1].__name__ == "RaceOrders"  # real classes, no strings

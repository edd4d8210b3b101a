"""Rulesets: one package per game, each exposing ``RULESET`` (see gm_tool.core.ruleset)."""

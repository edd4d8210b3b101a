"""gm_tool: adjudicator for play-by-post tabletop war games."""

__version__ = "0.1.0"

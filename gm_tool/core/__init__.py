"""The game-neutral core: geometry, chance, decks, events, storage, rendering, the ruleset protocol.

Nothing in this package knows the rules or the words of any one game.
"""

"""Scripted baselines, one module per game: ``BASELINES`` maps each name to a factory, weakest
first (the last is the game's best baseline, the anchor of its leaderboards)."""

"""Guandan (掼蛋, 관단): an exact rules engine, AI players and a web game."""

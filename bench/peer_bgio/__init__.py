"""Firebreak against boardgame.io on the same trivial game (tic-tac-toe): moves/s, round trip and server CPU.

The Node half (game.mjs, server.mjs, driver.mjs, with boardgame.io pinned in package-lock.json) lives in this
folder; the launcher (launcher.py, `python -m bench.peer_bgio`) starts both servers and runs the rounds.
"""

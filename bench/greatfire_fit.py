"""Fit the weights of Great Fire's outlook (domain/greatfire/bots/outlook.py): bench/outlook_fit.py with Great
Fire's defaults (4 seats of greedy, seeds from 320000).

Run: python -m bench.greatfire_fit [--seats 4] [--games 2000] [--seed 320000] [--sample 0.25] [--procs 2]
"""

from __future__ import annotations

from bench import outlook_fit

if __name__ == "__main__":
    raise SystemExit(outlook_fit.main(title="greatfire"))

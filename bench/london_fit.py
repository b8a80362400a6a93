"""Fit the weights of London's outlook (domain/london/bots/outlook.py): bench/outlook_fit.py with London's
defaults (2 seats of greedy, seeds from 300000).

Run: python -m bench.london_fit [--seats 2] [--games 2000] [--seed 300000] [--sample 0.25] [--procs 2]
"""

from __future__ import annotations

from bench import outlook_fit

if __name__ == "__main__":
    raise SystemExit(outlook_fit.main(title="london"))

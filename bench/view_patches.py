"""Bytes a subscriber is sent per step: MatchEvent.viewChanges (the JSON Patch from the view before the step) against
the whole view (match.view), by title, over random matches seen by every seat and a spectator.

Each step of each match is viewed by each viewer; the patch is api.view_diff.diff of the viewer's views before and
after it, both sized as compact JSON. Also the time to diff against the time to compute the view (the engine's
view(), which a subscriber's step costs anyway), measured on the same step one after the other.

Run: python -m bench.view_patches [--matches 5] [--seats 3]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from firebreak.api.view_diff import diff
from firebreak.domain import titles
from firebreak.domain.bots import random_bot


@dataclass
class Figures:
    """Per (step, viewer) sizes in bytes and times in seconds."""

    view_bytes: list[int] = field(default_factory=list)
    patch_bytes: list[int] = field(default_factory=list)
    view_seconds: list[float] = field(default_factory=list)
    diff_seconds: list[float] = field(default_factory=list)


def size(doc: Any) -> int:
    """A JSON document's compact size in bytes."""
    return len(json.dumps(doc, separators=(",", ":")).encode())


def play(title_id: str, seats: int, seed: int, out: Figures) -> None:
    """One random match; every viewer's view and patch at every step into out."""
    match = titles.get(title_id).new_match(seats=seats, seed=seed)
    rng = random.Random(seed)
    viewers: list[int | None] = [None, *range(seats)]
    before = {viewer: match.view(viewer) for viewer in viewers}
    while not match.is_over():
        if match.system_due():
            match.run_system_step()
        else:
            seat = match.to_act()[0]
            match.apply(seat, random_bot(match, seat, rng))
        for viewer in viewers:
            started = time.perf_counter()
            view = match.view(viewer)
            viewed = time.perf_counter()
            patch = diff(before[viewer], view)
            out.diff_seconds.append(time.perf_counter() - viewed)
            out.view_seconds.append(viewed - started)
            out.view_bytes.append(size(view))
            out.patch_bytes.append(size(patch))
            before[viewer] = view


def main() -> None:
    """Print a line per title."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=5, help="random matches per title (seeds 0..n-1)")
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args()
    print(f"{args.matches} random matches per title, {args.seats} seats, every seat and a spectator, every step")
    print("title       steps*viewers  view B  patch B  patch p95 B  patch/view  diff us  view us  diff/view")
    for title in titles.all_titles():
        figures = Figures()
        for seed in range(args.matches):
            play(title.id, args.seats, seed, figures)
        view, patch = statistics.mean(figures.view_bytes), statistics.mean(figures.patch_bytes)
        p95 = statistics.quantiles(figures.patch_bytes, n=20)[-1]
        diff_us, view_us = statistics.mean(figures.diff_seconds) * 1e6, statistics.mean(figures.view_seconds) * 1e6
        print(f"{title.id:<11} {len(figures.view_bytes):>13} {view:>7.0f} {patch:>8.0f} {p95:>12.0f} "
              f"{patch / view:>11.3f} {diff_us:>8.0f} {view_us:>8.0f} {diff_us / view_us:>10.2f}")


if __name__ == "__main__":
    main()

"""Play a whole match between bots in the terminal and print the final scores, for any title.

    firebreak-play --title <id> --seats 4 --seed 1 --bot greedy --option hiddenColours=true
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from firebreak.domain import titles
from firebreak.domain.bots import bound, levels
from firebreak.domain.contract import Match, Title


def play(title: Title, match: Match, bot: str, seed: int) -> int:
    """Drive a match to its end with one bot level in every seat; return the number of decisions."""
    rng = random.Random(seed)
    choose = bound(title, bot)
    decisions = 0
    while not match.is_over():
        if match.system_due():
            match.run_system_step()
            continue
        seat = match.to_act()[0]
        match.apply(seat, choose(match, seat, rng))
        decisions += 1
    return decisions


def render(title: Title, match: Match) -> str:
    """Return the final scores as a table: one row a seat, one column a score part (the title's columns)."""
    result = match.result()
    if result is None:
        return "The match is not over."
    columns = title.score_columns()
    width = [max(len(c.label), 5) for c in columns]
    lines = ["seat  total  " + "  ".join(c.label.rjust(w) for c, w in zip(columns, width, strict=True))]
    for row in result.scores:
        parts = "  ".join(str(row.parts.get(c.key, 0)).rjust(w) for c, w in zip(columns, width, strict=True))
        lines.append(f"{row.seat:>4}  {row.total:>5}  {parts}")
    lines.append(f"Winner(s): seat {', '.join(map(str, result.winners))} ({result.reason})")
    return "\n".join(lines)


def _option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"an option is name=value (a JSON value), not {text!r}")
    try:
        return name, json.loads(raw)
    except json.JSONDecodeError:
        return name, raw  # a bare word: a string choice


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--title", required=True, choices=[t.id for t in titles.all_titles()])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default="random", help="a bot level of the title (random and the title's own)")
    parser.add_argument("--option", type=_option, action="append", default=[], metavar="NAME=VALUE",
                        help="a title option (see the title's option specs); repeatable")
    args = parser.parse_args(argv)
    title = titles.get(args.title)
    if args.bot not in levels(title):
        parser.error(f"{title.id} has no bot level {args.bot!r}: {', '.join(levels(title))}")
    match = title.new_match(seats=args.seats, seed=args.seed, options=dict(args.option))
    decisions = play(title, match, args.bot, args.seed)
    print(f"{title.name}: {args.seats} seats, seed {args.seed}, {decisions} decisions\n")
    print(render(title, match))
    return 0


if __name__ == "__main__":
    sys.exit(main())

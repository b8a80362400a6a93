"""Play a whole match between bots in the terminal and print the end state and the score breakdown."""

from __future__ import annotations

import argparse
import random
import sys

from domain import titles
from domain.bots import BOTS
from domain.contract import Match


def play(match: Match, bot: str, seed: int) -> int:
    """Drive a match to its end with one bot level in every seat; return the number of decisions."""
    rng = random.Random(seed)
    choose = BOTS[bot]
    decisions = 0
    while not match.is_over():
        if match.system_due():
            match.run_system_step()
            continue
        seat = match.to_act()[0]
        match.apply(seat, choose(match, seat, rng))
        decisions += 1
    return decisions


def render(match: Match) -> str:
    """Return the board's end state and the score breakdown as text."""
    v = match.view(None)
    lines = ["District                   houses                        fire bands  notes"]
    for district_id, d in v["districts"].items():
        houses = " ".join(f"{c}:{n}" for c, n in d["houses"].items()) or "-"
        notes = []
        if d["demolished"]:
            notes.append("demolished")
        if d["burning"]:
            notes.append("burning")
        elif d["fire"]:
            notes.append("contained")
        notes.extend(f"pawn of seat {p['seat']}" for p in d["pawns"])
        lines.append(f"{district_id:<26} {houses:<29} {d['fire']:>4} {d['bands']:>5}  {', '.join(notes)}")
    lines.append(f"\nSupply: {v['supply']} cones. Houses lost by colour: {v['scoreTrack']}")
    lines.append("\nSeat colour    total houses putOut objectives tokens hero")
    result = v["result"]
    for row, player in zip(result["scores"], v["players"], strict=True):
        colour = "+".join(player["colours"])
        lines.append(f"{row['seat']:>4} {colour:<9} {row['total']:>5} {row['houses']:>6} {row['putOut']:>6} "
                     f"{row['objectives']:>10} {row['tokens']:>6} {row['hero']:>4}")
    lines.append(f"Winner(s): seat {', '.join(map(str, result['winners']))}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--title", default="greatfire")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", choices=sorted(BOTS), default="random")
    parser.add_argument("--hidden-colours", action="store_true")
    parser.add_argument("--more-destruction", action="store_true")
    args = parser.parse_args(argv)
    title = titles.get(args.title)
    options = {"hiddenColours": args.hidden_colours, "moreDestruction": args.more_destruction}
    match = title.new_match(seats=args.seats, seed=args.seed, options=options)
    decisions = play(match, args.bot, args.seed)
    print(f"{title.name}: {args.seats} seats, seed {args.seed}, {decisions} decisions\n")
    print(render(match))
    return 0


if __name__ == "__main__":
    sys.exit(main())

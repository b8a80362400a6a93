"""Cache misses per act from the dumps of a counted run under callgrind's cache simulation.

`python -m bench.api_load --floor --instructions ... --dumps DIR` keeps one dump per counted round and target (and
short ones of the idle counts beside them); run with `FIREBREAK_CALLGRIND_ARGS="--cache-sim=yes
--LL=2097152,16,64 --compress-strings=no"` callgrind simulates a last-level cache of the size given (here 2 MiB, the
size of one core's L2 on this machine, whose 300 MiB L3 the default simulation would take as the last level) and
writes every name in full. This reads each round's dump (its trigger names the target and the round) and prints
per act: instructions, first-level misses (instructions and data), last-level misses (instruction reads, data
reads, data writes), and the share of the last-level misses each shared object ran into (the interpreter, orjson,
libc, uvloop...): what the simulated cache says a target's act touches that is no longer near the core. The figures
per act are the dump's summary (what bench/act_count.py counts); the shares come from its cost lines, whose sum
(the dump's totals) callgrind makes a few percent larger when it is asked for a dump from outside.

Run: python -m bench.cache_misses DIR [--top 6]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

EVENTS = ("Ir", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw")
TRIGGER = re.compile(r"^desc: Trigger: dump (\S+) (\d+)$", re.MULTILINE)


@dataclass
class Dump:
    """One counted round's dump: its target, round, the events of its summary line and the last-level misses of its
    cost lines by shared object."""

    target: str
    round: int
    totals: dict[str, int]
    by_object: Counter[str] = field(default_factory=Counter)

    @property
    def last_level(self) -> int:
        """Every last-level miss: instruction reads, data reads and data writes."""
        return self.totals["ILmr"] + self.totals["DLmr"] + self.totals["DLmw"]


def read(path: Path) -> Dump | None:
    """A dump's figures; None for a dump that is not a counted round's (no trigger naming one) or that was
    written without the cache simulation."""
    text = path.read_text(errors="replace")
    trigger = TRIGGER.search(text)
    events = next((line.split()[1:] for line in text.splitlines() if line.startswith("events:")), [])
    if trigger is None or not set(EVENTS) <= set(events):
        return None
    place = {name: events.index(name) for name in EVENTS}
    summary = next(line.split()[1:] for line in text.splitlines() if line.startswith("summary:"))
    totals = {name: int(summary[place[name]]) for name in EVENTS}
    by_object: Counter[str] = Counter()
    shared, after_call = "?", False
    for line in text.splitlines():
        if line.startswith("ob="):
            shared = line[3:].strip().rsplit("/", 1)[-1]
        elif line.startswith("calls="):
            after_call = True  # the next cost line is the call's inclusive cost, counted where it was spent
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            if after_call:
                after_call = False
                continue
            costs = line.split()[1:]  # the position first, then the events in order (trailing zeros left out)
            by_object[shared] += sum(int(costs[place[name]]) for name in ("ILmr", "DLmr", "DLmw")
                                     if place[name] < len(costs))
    return Dump(trigger.group(1), int(trigger.group(2)), totals, by_object)


def acts_of(folder: Path) -> dict[tuple[str, int], int]:
    """The acts each round counted, from the report the bench writes beside the dumps (report.txt), if any."""
    report = folder / "report.txt"
    if not report.exists():
        return {}
    found = re.findall(r"^\s+(\d+)\s+(\S+)\s+(\d+)\s+[\d,]+\s", report.read_text(), re.MULTILINE)
    return {(target, int(number)): int(acts) for number, target, acts in found}


def render(dumps: list[Dump], acts: dict[tuple[str, int], int], top: int) -> str:
    """A block per round and target: the figures per act, then the misses by shared object."""
    lines = []
    for dump in sorted(dumps, key=lambda d: (d.round, d.target)):
        n = acts.get((dump.target, dump.round))
        if n is None:
            lines.append(f"round {dump.round} {dump.target}: the acts counted are unknown (no report.txt); totals "
                         f"{dump.totals}")
            continue
        t = dump.totals
        lines.append(f"round {dump.round} {dump.target}: {n} acts; per act {t['Ir'] / n:,.0f} instructions, first "
                     f"level misses {(t['I1mr'] + t['D1mr'] + t['D1mw']) / n:,.0f}, last level misses "
                     f"{dump.last_level / n:,.0f} (instruction reads {t['ILmr'] / n:,.0f}, data reads "
                     f"{t['DLmr'] / n:,.0f}, data writes {t['DLmw'] / n:,.0f}; "
                     f"{dump.last_level / max(1, t['Ir']) * 1000:.2f} per 1000 instructions)")
        split = sum(dump.by_object.values())  # the cost lines' sum (the dump's "totals"), a little over its summary
        for shared, misses in dump.by_object.most_common(top):
            lines.append(f"    {misses / max(1, split):>6.1%} of the last level misses in {shared}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="the --dumps folder of a counted run")
    parser.add_argument("--top", type=int, default=6, help="shared objects listed per dump")
    args = parser.parse_args()
    dumps = [dump for path in sorted(args.folder.glob("*.cg.out*")) if (dump := read(path)) is not None]
    if not dumps:
        raise SystemExit(f"no counted round's dump with the cache simulation in {args.folder}")
    print(render(dumps, acts_of(args.folder), args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

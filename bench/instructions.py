"""Count the instructions a block of code runs, with valgrind's callgrind: a count that the shared machine's load,
its other cores and its clock do not move, so that a change of a few percent in a hot path shows in one run
instead of in the spread of many timed ones (compare two trees by running the same bench from each).

A bench that wants counts runs itself under callgrind with collection off (`under_callgrind`), and turns it on
only inside the blocks it measures (`Counter.counting`): the instructions the interpreter runs there, the C
libraries' included (orjson, hiredis, the kernel's work excluded), are added to a total per label. Callgrind runs
a program some 50 times slower, so a bench counts a few hundred acts, not thousands.

Needs valgrind and its headers (Debian: the valgrind package) and a C compiler, for the few lines that reach
callgrind's client requests (compiled once into a temporary folder and loaded with ctypes).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

SHIM = r"""
#include <valgrind/callgrind.h>
int fb_running(void) { return RUNNING_ON_VALGRIND; }
void fb_toggle(void) { CALLGRIND_TOGGLE_COLLECT; }
void fb_zero(void) { CALLGRIND_ZERO_STATS; }
void fb_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
"""
ENV = "FIREBREAK_CALLGRIND_OUT"  # set in the child: the folder callgrind writes its dumps to


class InstructionsError(RuntimeError):
    """valgrind, its headers or a C compiler is missing, or callgrind's output could not be read."""


def _shim() -> ctypes.CDLL:
    folder = Path(tempfile.mkdtemp(prefix="firebreak-callgrind-"))
    atexit.register(shutil.rmtree, folder, True)  # the library stays loaded until the process ends
    source, library = folder / "shim.c", folder / "shim.so"
    source.write_text(SHIM)
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise InstructionsError("no C compiler (cc or gcc) to build the callgrind shim")
    built = subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", str(library), str(source)],
                           capture_output=True, text=True)
    if built.returncode:
        raise InstructionsError(f"building the callgrind shim failed (is valgrind's header installed?):\n"
                                f"{built.stderr}")
    return ctypes.CDLL(str(library))


class Counter:
    """Adds up the instructions of the blocks counted under each label (one callgrind dump per label and round)."""

    def __init__(self) -> None:
        self.lib = _shim()
        if not self.lib.fb_running():
            raise InstructionsError("not running under valgrind: start the bench through under_callgrind()")
        self.depth = 0

    @contextlib.contextmanager
    def counting(self) -> Iterator[None]:
        """Collect the instructions the block runs (nested blocks count once)."""
        self.depth += 1
        if self.depth == 1:
            self.lib.fb_toggle()
        try:
            yield
        finally:
            self.depth -= 1
            if self.depth == 0:
                self.lib.fb_toggle()

    def dump(self, label: str) -> None:
        """Write what was collected since the last dump under this label, and start again from zero."""
        self.lib.fb_dump(label.encode())
        self.lib.fb_zero()


def active() -> bool:
    """Whether this process is the callgrind child of under_callgrind()."""
    return ENV in os.environ


def under_callgrind(argv: list[str]) -> dict[str, int]:
    """Run `python -m <argv>` under callgrind with collection off at start; return the instructions dumped under each
    label (summed over a label's dumps). The child's own output goes to this process's."""
    with tempfile.TemporaryDirectory(prefix="firebreak-callgrind-out-") as out:
        command = [*callgrind_command(Path(out) / "cg.out"), "--collect-atstart=no", sys.executable, "-m", *argv]
        env = {**os.environ, ENV: out, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
        finished = subprocess.run(command, env=env, stderr=subprocess.PIPE, text=True)
        if finished.returncode:
            raise InstructionsError(f"the bench under callgrind failed ({finished.returncode}):\n"
                                    f"{finished.stderr[-3000:]}")
        return read_dumps(Path(out))


def read_dumps(folder: Path) -> dict[str, int]:
    """The instructions of every dump in callgrind's output folder, summed by the dump's label."""
    totals: dict[str, int] = {}
    for path in sorted(folder.glob("cg.out*")):
        text = path.read_text(errors="replace")
        label = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.MULTILINE)
        count = _total(text)
        if label is None or count is None:
            continue  # the final dump at exit, of nothing collected
        totals[label.group(1)] = totals.get(label.group(1), 0) + count
    if not totals:
        raise InstructionsError(f"callgrind wrote no labelled dump in {folder}")
    return totals


def _total(dump: str) -> int | None:
    """The instructions a callgrind dump counted (the first event of its summary line), None when it has none."""
    count = re.search(r"^(?:summary|totals): (\d+)", dump, re.MULTILINE)
    return None if count is None else int(count.group(1))


# ---------------------------------------------------------------------------------------------------------
# A whole served process, counted from outside


def callgrind_command(out_file: Path) -> list[str]:
    """The command prefix that runs a program under callgrind counting everything it runs from its start (uvicorn,
    the event loop, the collector, tasks that outlive a request), its dumps written to out_file.1, .2, ...: Served
    counts a window of it from outside."""
    valgrind = shutil.which("valgrind")
    if valgrind is None or shutil.which("callgrind_control") is None:
        raise InstructionsError("valgrind is not installed (Debian: apt-get install valgrind)")
    extra = os.environ.get("FIREBREAK_CALLGRIND_ARGS", "").split()  # e.g. --cache-sim=yes: simulated cache misses too
    return [valgrind, "--tool=callgrind", f"--callgrind-out-file={out_file}", *extra]


class Served:
    """The instructions a process started under callgrind_command runs between zero() and dump(), all of it: asked
    from outside with callgrind_control (valgrind's gdb server reaches the process even while it waits in a system
    call), so the served program runs unchanged."""

    def __init__(self, pid: int, out_file: Path) -> None:
        self.pid = pid
        self.out_file = out_file
        self.dumps = 0

    def _control(self, *command: str) -> None:
        done = subprocess.run(["callgrind_control", *command, str(self.pid)], capture_output=True, text=True,
                              timeout=120)
        if done.returncode or "OK" not in done.stdout:
            raise InstructionsError(f"callgrind_control {' '.join(command)} {self.pid} failed "
                                    f"({done.returncode}): {done.stdout[-500:]} {done.stderr[-500:]}")

    def zero(self) -> None:
        """Start counting again from zero."""
        self._control("-z")

    def dump(self, label: str) -> int:
        """The instructions run since the last zero() or dump() (counting starts again from zero)."""
        self._control("-d", label)
        self.dumps += 1
        path = Path(f"{self.out_file}.{self.dumps}")
        if not path.exists():
            raise InstructionsError(f"callgrind wrote no dump {path} for {label!r}")
        count = _total(path.read_text(errors="replace"))
        if count is None:
            raise InstructionsError(f"no instruction total in {path}")
        return count

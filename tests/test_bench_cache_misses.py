"""bench/cache_misses.py: the figures per act of a counted run's dumps under callgrind's cache simulation."""

from __future__ import annotations

from pathlib import Path

from bench import cache_misses

# A dump as callgrind writes it with --compress-strings=no: the python binary's own code calls into orjson, whose
# cost line after `calls=` is the call's inclusive cost (counted where it was spent, in orjson's block).
DUMP = """# callgrind format
version: 1
desc: Trigger: dump rest-minimal 2
positions: line
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
summary: 5000 1000 500 40 30 20 7 60 33

ob=/usr/lib/libpython3.11.so.1.0
fl=ceval.c
fn=_PyEval_EvalFrameDefault
10 3000 600 300 30 20 10 5 40 30
cob=/venv/orjson/orjson.cpython-311-x86_64-linux-gnu.so
cfn=dumps
calls=2 0
10 2000 400 200 10 10 10 2 20 3

ob=/venv/orjson/orjson.cpython-311-x86_64-linux-gnu.so
fl=???
fn=dumps
0 2000 400 200 10 10 10 2 20
"""

REPORT = """    2  rest-minimal      10        1,500,000    1,490,000      200,000     12.0
"""


def test_a_rounds_misses_are_given_per_act_and_by_the_object_that_ran_into_them(tmp_path: Path) -> None:
    (tmp_path / "api.cg.out.3").write_text(DUMP)
    (tmp_path / "api.cg.out.2").write_text(DUMP.replace("desc: Trigger: dump rest-minimal 2\n", ""))  # an idle count
    (tmp_path / "report.txt").write_text(REPORT)
    dumps = [d for p in sorted(tmp_path.glob("*.cg.out*")) if (d := cache_misses.read(p)) is not None]
    assert len(dumps) == 1 and (dumps[0].target, dumps[0].round) == ("rest-minimal", 2)
    assert dumps[0].last_level == 100
    assert dumps[0].by_object == {"libpython3.11.so.1.0": 75, "orjson.cpython-311-x86_64-linux-gnu.so": 22}
    report = cache_misses.render(dumps, cache_misses.acts_of(tmp_path), top=6)
    assert report.splitlines()[0] == ("round 2 rest-minimal: 10 acts; per act 500 instructions, first level misses 9, "
                                      "last level misses 10 (instruction reads 1, data reads 6, data writes 3; 20.00 "
                                      "per 1000 instructions)")
    assert " 77.3% of the last level misses in libpython3.11.so.1.0" in report
    assert " 22.7% of the last level misses in orjson" in report


def test_a_dump_without_the_cache_simulation_is_left_out(tmp_path: Path) -> None:
    plain = tmp_path / "floor.cg.out.2"
    plain.write_text("desc: Trigger: dump floor 1\nevents: Ir\nsummary: 100\nfn=x\n0 100\n")
    assert cache_misses.read(plain) is None

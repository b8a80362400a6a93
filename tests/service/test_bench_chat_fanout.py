"""bench/chat_fanout.py starts the service as users do (firebreak api, a worker, a redis-server), follows one
match's spectators' channel with many chat subscriptions and sends messages: it runs, every subscriber receives
every message (the bench stops otherwise), and it prints the time to the last receiver and the API's CPU per
message for one subscriber and for the crowd. Nothing here is timed."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.service.conftest import ROOT


def test_the_bench_delivers_every_message_to_every_subscriber_and_reports() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.chat_fanout", "--subscribers", "20", "--messages", "3",
                           "--rounds", "2"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(re.findall(r"^\s+(1|20) subscribers: time to the last receiver p50", done.stdout, re.M)) == 2
    assert "API CPU per message, 20 subscribers against 1" in done.stdout

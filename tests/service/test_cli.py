"""The firebreak command as real processes (issue 27): `firebreak serve` answers /readyz and stops on SIGTERM;
`firebreak api` serves, and on a taken port stops at once naming it; a bad setting stops api, worker and serve
with status 2 and one message naming every bad variable (never a secret); `--help` lists every setting of the
models; `firebreak schema --check` and `firebreak play` run."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from firebreak.api.settings import API_SETTINGS
from firebreak.matches.embedded import bound_socket, free_port, port_taken
from firebreak.settings_reference import ALL_SETTINGS, names
from firebreak.workers.settings import WORKER_SETTINGS
from tests.service import support as h
from tests.service.conftest import ROOT, service_env
from tests.service.test_metrics_processes import readyz, scrape

FIREBREAK = Path(sys.executable).with_name("firebreak")  # the console script pyproject.toml's [project.scripts] makes
SECRET = "not-long-enough-secret"


def firebreak(*args: str) -> list[str]:
    """The command line of the installed firebreak command."""
    assert FIREBREAK.exists(), "install the project (bash scripts/bootstrap.sh) to get the firebreak command"
    return [str(FIREBREAK), *args]


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run firebreak to its end (a minute at most)."""
    return subprocess.run(firebreak(*args), cwd=ROOT, env=env, timeout=60, capture_output=True, text=True)


def ready(base: str) -> bool:
    """Whether /readyz answers 200."""
    try:
        return httpx.get(f"{base}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@contextlib.contextmanager
def running(args: list[str], env: dict[str, str], log: Path, base: str) -> Iterator[subprocess.Popen[bytes]]:
    """firebreak with these arguments until /readyz answers; killed at the end if it still runs."""
    with log.open("wb") as out:
        process = subprocess.Popen(firebreak(*args), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        h.wait_for(lambda: ready(base) or process.poll() is not None, f"firebreak {args[0]} to answer", pause=0.2)
        assert process.poll() is None, log.read_text()
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_firebreak_serve_answers_readyz_and_stops_on_sigterm(tmp_path: Path) -> None:
    env = {k: v for k, v in service_env("").items() if k not in ("REDIS_URL", "FIREBREAK_DATA_DIR")}
    env["FIREBREAK_QUEUE"] = "firebreak-cli"
    port, redis_port = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    with running(["serve", "--port", str(port), "--redis-port", str(redis_port), "--data", str(tmp_path / "redis"),
                  "--workers", "1"], env, tmp_path / "serve.log", base) as process:
        created = httpx.post(f"{base}/v1/matches", json={"title": "greatfire", "seats": 2}, timeout=10)
        assert created.status_code == 201, created.text
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    assert not ready(base) and not port_taken(redis_port), "everything stopped"
    assert (tmp_path / "archive.sqlite3").exists(), "the archive sits next to the Redis data"


def test_firebreak_api_serves_and_stops_on_sigterm(redis_url: str, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with running(["api", "--port", str(port)], service_env(redis_url), tmp_path / "api.log", base) as process:
        assert httpx.get(f"{base}/v1/titles", timeout=10).status_code == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    assert not port_taken(port)


def test_firebreak_api_with_two_processes_answers_metrics_for_both(redis_url: str, tmp_path: Path) -> None:
    """--workers 2 without PROMETHEUS_MULTIPROC_DIR: the command gives its processes one metrics folder."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in service_env(redis_url).items() if k != "PROMETHEUS_MULTIPROC_DIR"}
    with running(["api", "--port", str(port), "--workers", "2"], env, tmp_path / "api.log", base) as process:
        # the port is bound before the processes start, so a poll that timed out while they started may still be
        # answered (and counted) later: count from a settled figure
        settled = h.wait_for(lambda: (a := readyz(scrape(base))) == readyz(scrape(base)) and (a,), "a settled count")
        sent = sum(httpx.get(f"{base}/readyz", timeout=10).status_code == 200 for _ in range(10))
        counted = {readyz(scrape(base)) for _ in range(8)}  # fresh connections, spread over the two processes
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    assert counted == {settled[0] + sent}, (counted, settled, sent)
    assert (tmp_path / "api.log").read_text().count("Started server process") == 2


def test_firebreak_api_on_a_taken_port_stops_at_once_naming_it(redis_url: str) -> None:
    port = free_port()
    with bound_socket("127.0.0.1", port) as holder:
        holder.listen()
        done = run("api", "--port", str(port), env=service_env(redis_url))
    assert done.returncode == 1, done
    assert f"firebreak api: the API's port {port} on 127.0.0.1 is taken" in done.stderr, done.stderr


@pytest.mark.parametrize("command", [["api", "--port", "0"], ["worker", "--burst"], ["serve", "--port", "0"]])
def test_a_bad_setting_stops_the_start_naming_every_bad_variable(redis_url: str, command: list[str],
                                                                 tmp_path: Path) -> None:
    env = {**service_env(redis_url), "FIREBREAK_STALL_SECONDS": "-3", "FIREBREAK_WEBHOOK_ATTEMPTS": "many",
           "FIREBREAK_SEEK_BAND": "-1", "FIREBREAK_WEBHOOK_URL": "https://hooks.example",
           "FIREBREAK_WEBHOOK_SECRET": SECRET}
    extra: list[str] = []
    if command[0] == "serve":  # it would embed a Redis in the data folder
        env.pop("REDIS_URL")
        extra = ["--data", str(tmp_path / "redis")]
    done = run(*command, *extra, env=env)
    assert done.returncode == 2, done
    for line in ("FIREBREAK_STALL_SECONDS must be a positive number, not '-3'",
                 "FIREBREAK_WEBHOOK_ATTEMPTS must be a positive whole number, not 'many'",
                 "FIREBREAK_SEEK_BAND must be a number >= 0, not '-1'",
                 "FIREBREAK_WEBHOOK_SECRET must be whsec_ followed by base64"):
        assert line in done.stderr, done.stderr
    assert SECRET not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "redis").exists(), "nothing was started"


@pytest.mark.parametrize(("command", "models"), [([], ALL_SETTINGS), (["serve"], ALL_SETTINGS),
                                                 (["api"], API_SETTINGS), (["worker"], WORKER_SETTINGS)])
def test_help_lists_every_setting_the_command_reads(command: list[str], models: tuple[type, ...]) -> None:
    done = run(*command, "--help")
    assert done.returncode == 0, done
    listed = names(models)
    assert listed and [name for name in listed if f"    {name} (" not in done.stdout] == []
    if not command:
        assert set(listed) == set(names())
        for sub in ("serve", "api", "worker", "schema", "play"):
            assert f"    {sub} " in done.stdout


def test_firebreak_schema_check_passes_on_the_checkout() -> None:
    done = run("schema", "--check")
    assert done.returncode == 0, done.stderr


def test_firebreak_play_and_firebreak_play_play_the_same_match_in_the_terminal() -> None:
    done = run("play", "--title", "greatfire", "--seats", "3", "--seed", "4")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "it prints the match"
    alone = subprocess.run([str(FIREBREAK.with_name("firebreak-play")), "--title", "greatfire", "--seats", "3",
                            "--seed", "4"], cwd=ROOT, timeout=60, capture_output=True, text=True)
    assert alone.returncode == 0 and alone.stdout == done.stdout, alone.stderr

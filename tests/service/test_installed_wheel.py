"""The release as a user gets it (issue 27): the wheel is built from a clean copy of the source, installed into a
fresh virtual environment outside the checkout, and the service started from that install (the `firebreak api` and
`firebreak worker` commands the wheel installs), with its working directory outside the checkout too, plays a match
of each title over HTTP to its end and serves its web client, GraphiQL, the titles' data and their JSON Schemas.

To build and install without the network, firebreak is installed with --no-deps and the new environment finds its
third-party dependencies through a .pth file naming this interpreter's site-packages. A .pth line only adds a
folder to sys.path (the .pth files inside it, such as the editable install's hook, are not run), and it comes after
the environment's own site-packages, so firebreak itself can only come from the wheel; the test checks that too.
"""

from __future__ import annotations

import contextlib
import email
import json
import random
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import httpx
import pytest

import firebreak
from firebreak.api.explorer import URLS, VENDOR
from firebreak.domain import titles
from firebreak.matches.embedded import free_port
from tests.service import support as h
from tests.service.conftest import Client, service_env

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
QUEUE = "firebreak-wheel"


def _build_context(folder: str, names: list[str]) -> set[str]:
    """What the image's build (Dockerfile, first stage) does not see: the names .dockerignore matches (a pattern
    names a path from the root; **/ matches at any depth). The wheel here is built from the same files."""
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    here = Path(folder).relative_to(ROOT)
    return {name for name in names for pattern in patterns
            if fnmatch((here / name).as_posix(), pattern)
            or (pattern.startswith("**/") and fnmatch(name, pattern.removeprefix("**/")))}


def _files(folder: Path) -> list[Path]:
    """Every file under a folder of the checkout, relative to it (caches left out)."""
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def _build_wheel(tmp: Path) -> Path:
    """The wheel pip builds from a copy of the image's build context (building in the checkout could pick up stale
    build/ files, and the copy shows that the context holds all the wheel needs)."""
    source = tmp / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=_build_context)
    assert not (source / ".venv").exists() and not (source / "tests").exists()
    dist = tmp / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", str(source), "-w", str(dist)],
                   check=True, cwd=tmp, capture_output=True)
    wheel, = dist.glob("firebreak-*.whl")
    return wheel


def _check_wheel(wheel: Path) -> None:
    """The wheel holds one import package and every file the service reads, with true metadata."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        meta = email.message_from_bytes(archive.read(f"firebreak-{firebreak.__version__}.dist-info/METADATA"))
    assert {name.split("/")[0] for name in names} == {"firebreak", f"firebreak-{firebreak.__version__}.dist-info"}
    wanted = {f"firebreak/web/{path}" for path in _files(ROOT / "web")}
    wanted |= {f"firebreak/domain/{path.relative_to(ROOT / 'domain')}" for path in ROOT.glob("domain/*/data/*.json")}
    wanted |= {"firebreak/api/rest/docs.html", "firebreak/web/vendor/graphiql/graphiql.min.js",
               "firebreak/domain/london/data/cards.json", "firebreak/py.typed"}
    assert sorted(wanted - names) == []
    assert meta["Version"] == firebreak.__version__
    assert meta["License-Expression"] == "MIT"
    assert all(title.name in meta["Summary"] for title in titles.all_titles()), meta["Summary"]


def _venv(tmp: Path, wheel: Path) -> Path:
    """A fresh virtual environment with the wheel installed (no dependencies: those come through a .pth file);
    its python."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "--quiet", str(wheel)], check=True, cwd=tmp)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    deps = sysconfig.get_paths()["purelib"]
    (Path(purelib) / "firebreak-test-dependencies.pth").write_text(deps + "\n", encoding="utf-8")
    return python


def _env(redis_url: str, data: Path) -> dict[str, str]:
    """The service's settings: the test Redis on a queue of its own, no path into the checkout."""
    env = {**service_env(redis_url), "FIREBREAK_QUEUE": QUEUE, "FIREBREAK_DATA_DIR": str(data)}
    for name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV"):
        env.pop(name, None)
    return env


WHERE = """
import json, sys
import firebreak, firebreak.api.app, firebreak.workers.main
from firebreak.domain import titles
for title in titles.all_titles():
    title.board()
print(json.dumps({"firebreak": firebreak.__file__,
                  "modules": [m.__file__ for m in list(sys.modules.values()) if getattr(m, "__file__", None)]}))
"""


def _check_imports(python: Path, env: dict[str, str], cwd: Path) -> None:
    """firebreak comes from the new environment, and nothing the service loads comes from the checkout."""
    found = json.loads(subprocess.run([str(python), "-c", WHERE], check=True, capture_output=True, text=True,
                                      env=env, cwd=cwd).stdout)
    assert Path(found["firebreak"]).is_relative_to(python.parent.parent), found["firebreak"]
    deps = Path(sysconfig.get_paths()["purelib"]).resolve()  # the third-party packages (in the checkout's .venv)
    from_checkout = [path for path in found["modules"]
                     if Path(path).resolve().is_relative_to(ROOT) and not Path(path).resolve().is_relative_to(deps)]
    assert from_checkout == []
    assert any(Path(path).resolve().is_relative_to(deps) for path in found["modules"])  # the .pth was read


@contextlib.contextmanager
def _installed_service(python: Path, env: dict[str, str], run: Path) -> Iterator[str]:
    """The installed API and one worker, started from the run folder with the `firebreak` command the wheel
    installs (firebreak api, firebreak worker); the API's base URL."""
    port = free_port()
    command = str(python.parent / "firebreak")
    commands = {"api": [command, "api", "--host", "127.0.0.1", "--port", str(port)],
                "worker": [command, "worker"]}
    procs: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for name, command in commands.items():
            with (run / f"{name}.log").open("wb") as log:  # the child keeps its own descriptor
                procs[name] = subprocess.Popen(command, cwd=run, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"

        def up() -> bool:
            for name, proc in procs.items():
                assert proc.poll() is None, (run / f"{name}.log").read_text(errors="replace")[-3000:]
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(f"{base}/readyz", timeout=1).status_code == 200
            return False

        h.wait_for(up, "the installed API to be ready", deadline=60, pause=0.1)
        yield base
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _logs(run: Path) -> str:
    return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in sorted(run.glob("*.log")))


def _play_great_fire_over_graphql(base: str) -> None:
    """A person and two random bots over GraphQL, to the end (the person's reads checked for others' secrets)."""
    c = Client(base)
    try:
        s = h.new_match(c, 3, 27, humans=1, bots=["random", "random"])
        played = h.play_to_end(c, s, random.Random(27), deadline=240)
        assert played.final["result"]["endReason"] == "FINISHED" and played.final["result"]["winners"]
        assert sum(played.accepted.values()) > 0
    finally:
        c.http.close()


def _play_london_over_rest(base: str) -> None:
    """A person and a random bot over REST, to the end."""
    with httpx.Client(base_url=base, timeout=30) as http:
        created = http.post("/v1/matches", json={"title": "london", "seats": 2, "seed": 1666})
        assert created.status_code == 201, created.text
        match_id, host = created.json()["matchId"], created.json()["hostToken"]
        joined = http.post(f"/v1/matches/{match_id}/seats", json={"name": "ann"})
        assert joined.status_code == 201, joined.text
        seat, token = joined.json()["seat"], joined.json()["token"]
        bot = http.post(f"/v1/matches/{match_id}/bots", json={"level": "random"},
                        headers={"authorization": f"Bearer {host}"})
        assert bot.status_code == 201 and bot.json()["started"], bot.text
        rng = random.Random(1666)
        mine = {"authorization": f"Bearer {token}"}
        acted = 0
        end = time.monotonic() + 240
        while True:
            read = http.get(f"/v1/matches/{match_id}", headers=mine)
            assert read.status_code == 200, read.text
            m: dict[str, Any] = read.json()
            if m["status"] == "OVER":
                break
            assert time.monotonic() < end, f"London not over after {acted} actions: version {m['version']}"
            if seat in m["toAct"] and m["legalActions"]:
                answer = http.post(f"/v1/matches/{match_id}/actions", headers=mine,
                                   json={"action": rng.choice(m["legalActions"]), "expectedVersion": m["version"]})
                if answer.status_code == 429:  # faster than a person (100 acts a second): wait as told, read again
                    time.sleep(float(answer.json()["retryAfter"]))
                    continue
                assert answer.status_code == 200, answer.text
                acted += 1
            else:
                time.sleep(0.02)
        assert acted > 0
        assert m["result"]["endReason"] == "FINISHED" and m["result"]["winners"], m["result"]


def _check_files_served(base: str) -> None:
    """The web page, every file of the client (the titles' modules and the vendored GraphiQL among them), the
    GraphiQL page pointing at those copies, and the REST docs page."""
    with httpx.Client(base_url=base, timeout=30) as http:
        page = http.get("/")
        assert page.status_code == 200 and page.content == (ROOT / "web" / "index.html").read_bytes()
        for path in _files(ROOT / "web"):
            served = http.get(f"/static/{path}")
            assert served.status_code == 200, f"/static/{path}: {served.status_code}"
            assert served.content == (ROOT / "web" / path).read_bytes(), f"/static/{path} differs"
        module = http.get("/static/titles/london/index.js")
        assert module.headers["content-type"].startswith(("text/javascript", "application/javascript"))
        graphiql = http.get("/graphql", headers={"accept": "text/html"})
        assert graphiql.status_code == 200 and "https://unpkg.com" not in graphiql.text
        for name in URLS.values():
            assert f"{VENDOR}{name}" in graphiql.text
        assert http.get("/v1/docs").status_code == 200


def _check_titles_served(base: str) -> None:
    """Each title's data and JSON Schemas as the installed service answers them: London's catalogue is its data
    files' cards and boroughs, and the schemas are the files docs/schemas publishes."""
    with httpx.Client(base_url=base, timeout=30) as http:
        for title in titles.all_titles():
            answer = http.get(f"/v1/titles/{title.id}")
            assert answer.status_code == 200, answer.text
            detail = answer.json()
            published = {path.name.removesuffix(".schema.json"): json.loads(path.read_text(encoding="utf-8"))
                         for path in (ROOT / "docs" / "schemas" / title.id).glob("*.schema.json")}
            assert {part: detail["schemas"][part] for part in published} == published
            assert detail["board"] == json.loads(json.dumps(title.board()))
        board = http.get("/v1/titles/london").json()["board"]
    data = ROOT / "domain" / "london" / "data"
    cards = json.loads((data / "cards.json").read_text(encoding="utf-8"))["cards"]
    boroughs = json.loads((data / "boroughs.json").read_text(encoding="utf-8"))["boroughs"]
    assert {card["name"] for card in board["cards"].values()} == {card["name"] for card in cards}
    assert {b["name"] for b in board["boroughs"].values()} == {b["name"] for b in boroughs}


def test_the_wheel_installed_outside_the_checkout_serves_and_plays_every_title(redis_url: str,
                                                                                tmp_path: Path) -> None:
    assert not tmp_path.resolve().is_relative_to(ROOT)
    wheel = _build_wheel(tmp_path)
    _check_wheel(wheel)
    python = _venv(tmp_path, wheel)
    run = tmp_path / "run"
    run.mkdir()
    env = _env(redis_url, tmp_path / "data")
    _check_imports(python, env, run)
    played = subprocess.run([str(python.parent / "firebreak-play"), "--help"], capture_output=True, text=True,
                            env=env, cwd=run)
    assert played.returncode == 0 and "usage" in played.stdout, played.stderr
    with _installed_service(python, env, run) as base:
        try:
            _check_files_served(base)
            _check_titles_served(base)
            _play_great_fire_over_graphql(base)
            _play_london_over_rest(base)
        except AssertionError as failure:
            raise AssertionError(f"{failure}\n{_logs(run)}") from failure

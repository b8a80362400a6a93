"""The container check (scripts/container-check.sh runs it as root): builds the Dockerfile's image with podman and
runs docker-compose.yml's services from it, read from the file itself, then plays a match of each title through the
API over HTTP (scripts/container_play.py), runs every health check, and checks the user the services run as and the
archive volume the API and the workers share. docs/deployment-containers.md says what this stands in for.

    python scripts/container_check.py           the check (removes its containers, volumes and namespace after)
    python scripts/container_check.py --clean   remove all it made, the cached stand-in bases and images included

No container registry is reachable here, so the images the files name come from Debian's packages instead:
python:3.11-slim (the Dockerfile's BASE) from a debootstrap of the release whose Python is the same minor version,
redis:7 from that base with Debian's redis-server. The services share one network namespace of their own, so each
finds the others at 127.0.0.1 (their compose names resolve there) and nothing here reaches an address off this
machine; the image's pip reaches the package index the way this machine's pip is configured to.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parent.parent
PROJECT = "firebreak-check"                 # the prefix of every container, volume and image it makes
LABEL = "firebreak.container-check"         # on its containers and volumes, so a later run finds what one left
WORK = Path("/var/tmp/firebreak-container-check")
NETNS = PROJECT
IMAGE = f"localhost/{PROJECT}/firebreak:latest"
RELEASE = "bookworm"                        # Debian 12: Python 3.11, as python:3.11-slim
INCLUDE = "python3,python3-venv,python3-pip,ca-certificates"
APP_USER, APP_UID = "firebreak", "10001"    # the Dockerfile's useradd
# Added to every service built from the Dockerfile: a finished match leaves Redis after 20 s instead of 7 days, so
# the check can read it back from the archive.
CHECK_ENV = {"FIREBREAK_FINISHED_TTL": "20"}
SERVICE_KEYS = {"image", "build", "command", "environment", "volumes", "tmpfs", "ports", "depends_on", "healthcheck",
                "restart", "stop_grace_period", "deploy"}
HEALTH_KEYS = {"test", "interval", "timeout", "retries", "start_period"}
STARTED = time.monotonic()


class Failed(Exception):
    """A check that did not hold, or a step that could not be done."""


def say(message: str) -> None:
    """One line of the check's report, with the seconds since it started."""
    print(f"[{time.monotonic() - STARTED:6.1f}s] {message}", flush=True)


def run(argv: list[str], *, check: bool = True, timeout: float = 600, quiet: bool = False,
        stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """Run a command (podman's with the check's containers.conf); its output, or Failed when it exits non-zero."""
    env = {**os.environ, "CONTAINERS_CONF": str(WORK / "containers.conf")}
    done = subprocess.run(argv, input=None if stdin is None else stdin.decode(), capture_output=True, text=True,
                          env=env, timeout=timeout, check=False)
    if check and done.returncode != 0:
        raise Failed(f"{shlex.join(argv)} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    if not quiet and done.returncode == 0:
        noise = [line for line in done.stderr.splitlines() if "systemd" not in line]  # podman: no systemd here
        if noise and argv[:2] != ["podman", "build"]:
            print("\n".join(noise[-20:]), file=sys.stderr)
    return done


def podman(*args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """One podman command."""
    return run(["podman", *args], check=check, timeout=timeout)


# ----- podman's settings, the stand-in bases and the image --------------------------------------------------------


def write_containers_conf() -> None:
    """runc with cgroupfs (no systemd here), no default ulimits (this sandbox refuses raising them), events to a
    file."""
    WORK.mkdir(parents=True, exist_ok=True)
    (WORK / "containers.conf").write_text(
        '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n'
        'events_logger = "file"\n', encoding="utf-8")


def debian_mirror() -> str:
    """The Debian mirror this machine's apt sources name for the release."""
    found: list[str] = []
    for path in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]:
        if not path.is_file() or path.suffix not in ("", ".list", ".sources"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for stanza in re.split(r"\n\s*\n", text):  # deb822: URIs and Suites of one stanza
            uris = re.findall(r"^URIs:\s*(.+)$", stanza, re.M)
            suites = re.findall(r"^Suites:\s*(.+)$", stanza, re.M)
            if uris and suites and RELEASE in suites[0].split():
                found += uris[0].split()
        found += [m[0] for m in re.findall(rf"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+({RELEASE})\s", text, re.M)]
    mirror = next((uri for uri in found if "security" not in uri), None)
    if mirror is None:
        raise Failed(f"no Debian mirror for {RELEASE} in /etc/apt/sources.list*: debootstrap needs one")
    return mirror


def python_minor() -> str:
    """The Python minor version the Dockerfile's default base carries (ARG BASE=python:3.11-slim -> 3.11)."""
    found = re.search(r"^ARG BASE=python:(\d+\.\d+)", (ROOT / "Dockerfile").read_text(encoding="utf-8"), re.M)
    if found is None:
        raise Failed("the Dockerfile has no ARG BASE=python:X.Y... line to take the Python version from")
    return found.group(1)


def image_exists(name: str) -> bool:
    """Whether podman has this image."""
    return podman("image", "exists", name, check=False).returncode == 0


def stand_in_bases() -> tuple[str, str]:
    """The stand-ins for python:3.11-slim and redis:7 (made once, then cached under a tag naming their recipe)."""
    mirror = debian_mirror()
    recipe = hashlib.sha256(f"{RELEASE} {INCLUDE} {mirror} {python_minor()} v1".encode()).hexdigest()[:12]
    base, redis = f"localhost/{PROJECT}/python:{RELEASE}-{recipe}", f"localhost/{PROJECT}/redis:{RELEASE}-{recipe}"
    if not image_exists(base):
        make_python_base(base, mirror)
    if not image_exists(redis):
        say(f"making {redis}: the base with Debian's redis-server")
        context = WORK / "redis"
        context.mkdir(parents=True, exist_ok=True)
        (context / "Containerfile").write_text(
            "ARG BASE\nFROM ${BASE}\n"
            "RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends redis-server >/dev/null \\\n"
            "    && rm -rf /var/lib/apt/lists/* && install -d -o redis -g redis /data\n"
            "WORKDIR /data\nUSER redis\nCMD [\"redis-server\"]\n", encoding="utf-8")
        podman("build", "--format", "docker", "--layers=false", "--network", "host", "--build-arg", f"BASE={base}",
               "-t", redis, str(context))
    return base, redis


def make_python_base(tag: str, mirror: str) -> None:
    """Debian's minimal system with its Python, pip and CA certificates, laid out as python:3.11-slim is where the
    Dockerfile looks (python and pip on /usr/local/bin, pip free to install into the system's Python)."""
    rootfs = WORK / "rootfs"
    shutil.rmtree(rootfs, ignore_errors=True)
    say(f"debootstrap {RELEASE} from {mirror} (minbase with {INCLUDE}): a minute or two")
    run(["debootstrap", "--variant=minbase", f"--include={INCLUDE}", RELEASE, str(rootfs), mirror], timeout=900)
    try:
        version = run(["chroot", str(rootfs), "python3", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
        if version.stdout.strip() != python_minor():
            raise Failed(f"{RELEASE}'s python3 is {version.stdout.strip()}, the Dockerfile's base has "
                         f"{python_minor()}")
        for name, target in (("python", "/usr/bin/python3"), ("pip", "/usr/bin/pip3")):
            (rootfs / "usr/local/bin" / name).symlink_to(target)
        # python:3.11-slim's pip installs into its Python as is; Debian's refuses (PEP 668) while this marker is there
        for marker in (rootfs / "usr/lib").glob("python3*/EXTERNALLY-MANAGED"):
            marker.unlink()
        tar = subprocess.Popen(["tar", "-C", str(rootfs), "-c", "."], stdout=subprocess.PIPE)
        imported = subprocess.run(
            ["podman", "import", "--change", "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
             "--change", "ENV LANG=C.UTF-8", "--change", 'CMD ["python3"]', "-", tag],
            stdin=tar.stdout, capture_output=True, text=True, timeout=600, check=False,
            env={**os.environ, "CONTAINERS_CONF": str(WORK / "containers.conf")})
        if tar.stdout is not None:
            tar.stdout.close()
        if tar.wait() != 0 or imported.returncode != 0:
            raise Failed(f"podman import {tag}: {imported.stderr[-2000:]}")
        say(f"imported {tag} (Python {version.stdout.strip()})")
    finally:
        shutil.rmtree(rootfs, ignore_errors=True)


PATH_KEYS = {"cert", "client-cert", "constraint", "find-links", "index-url", "extra-index-url"}


def pip_settings() -> tuple[str, list[str]]:
    """This machine's pip configuration (its files and PIP_* variables, as `pip config list` reads them) as one
    pip.conf, and the `-v` mounts of the local files and folders it names (certificates, constraints, wheel folders,
    file:// indexes), so the image's pip install reaches the package index the way this machine's does."""
    listed = run([sys.executable, "-m", "pip", "config", "list"]).stdout.splitlines()
    sections: dict[str, dict[str, str]] = {}
    for line in sorted(listed, key=lambda entry: entry.startswith(":env:")):  # the variables win, as in pip
        found = re.match(r"^([^.]*)\.([^=]+)='?(.*?)'?$", line)
        if found is None:
            continue
        section, key, value = found.groups()
        sections.setdefault("global" if section == ":env:" else section, {})[key] = value
    mounts: set[str] = set()
    for values in sections.values():
        for key, value in values.items():
            if key not in PATH_KEYS:
                continue
            for word in value.split():
                path = urlsplit(word).path.rstrip("/") if word.startswith("file:") else word
                if key.endswith("index-url") and path.endswith("/simple"):
                    path = path.removesuffix("/simple")  # a local index's pages link to files beside simple/
                if path.startswith("/") and os.path.exists(path):
                    mounts.add(os.path.realpath(path) if os.path.isfile(path) else path)
                    if os.path.realpath(path) != path:
                        mounts.add(path)
    text = "".join(f"[{section}]\n" + "".join(f"{k} = {v}\n" for k, v in values.items()) + "\n"
                   for section, values in sections.items())
    return text, [arg for path in sorted(mounts) for arg in ("-v", f"{path}:{path}:ro")]


def build_image(base: str) -> None:
    """podman build of the Dockerfile from the checkout (its .dockerignore applies), from the stand-in base."""
    conf, mounts = pip_settings()
    (WORK / "pip.conf").write_text(conf, encoding="utf-8")
    old = podman("image", "inspect", "--format", "{{.Id}}", IMAGE, check=False).stdout.strip()
    say(f"podman build -t {IMAGE} --build-arg BASE={base} (pip as this machine's: {len(mounts) // 2} mounts)")
    built = podman("build", "--format", "docker", "--layers=false", "--network", "host", "--build-arg",
                   f"BASE={base}", "-v", f"{WORK / 'pip.conf'}:/etc/pip.conf:ro", *mounts, "-t", IMAGE,
                   "-f", str(ROOT / "Dockerfile"), str(ROOT), timeout=900)
    (WORK / "build.log").write_text(built.stdout + built.stderr, encoding="utf-8")
    new = podman("image", "inspect", "--format", "{{.Id}}", IMAGE).stdout.strip()
    if old and old != new:
        podman("rmi", old, check=False)
    say(f"built {IMAGE} ({WORK / 'build.log'})")


# ----- docker-compose.yml, read into podman commands --------------------------------------------------------------


@dataclass
class Container:
    """One container of a compose service (a service with deploy.replicas N has N)."""

    name: str
    service: str
    image: str
    run_args: list[str]
    command: list[str]
    health: list[str] | None = None  # the compose file's test, as written
    depends: dict[str, str] = field(default_factory=dict)
    stop_timeout: int = 10
    from_dockerfile: bool = False


def interpolate(value: Any) -> Any:
    """Compose's ${NAME} and ${NAME:-default} from this process's environment, in every string of a value."""
    if isinstance(value, str):
        return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}",
                      lambda m: os.environ.get(m.group(1)) or (m.group(2) or ""), value)
    if isinstance(value, list):
        return [interpolate(v) for v in value]
    if isinstance(value, dict):
        return {k: interpolate(v) for k, v in value.items()}
    return value


def seconds(value: str | int) -> int:
    """A compose duration (30s, 1m30s, 10) in whole seconds."""
    if isinstance(value, int):
        return value
    parts = re.findall(r"(\d+)(h|m|s)", value)
    if not parts or "".join(n + u for n, u in parts) != value:
        raise Failed(f"duration {value!r}: this check reads only h/m/s durations")
    return sum(int(n) * {"h": 3600, "m": 60, "s": 1}[u] for n, u in parts)


def containers(compose: dict[str, Any], stand_ins: dict[str, str]) -> list[Container]:
    """The podman run arguments of every service of a compose file, in the order depends_on allows. Anything the
    file says that this translation does not know fails the check instead of being left out."""
    services: dict[str, Any] = interpolate(compose["services"])
    volumes = set(compose.get("volumes") or {})
    out: list[Container] = []
    for name, service in services.items():
        unknown = set(service) - SERVICE_KEYS
        if unknown:
            raise Failed(f"service {name}: {sorted(unknown)} not read by scripts/container_check.py: teach it")
        if "build" in service:
            if service["build"] != ".":
                raise Failed(f"service {name}: build {service['build']!r}: only the checkout's Dockerfile is built")
            image = IMAGE
        elif service.get("image") in stand_ins:
            image = stand_ins[service["image"]]
        else:
            raise Failed(f"service {name}: image {service.get('image')!r} has no stand-in here")
        args = ["--restart", service.get("restart", "no")]
        environment = service.get("environment") or {}
        if isinstance(environment, list):
            environment = dict(item.split("=", 1) for item in environment)
        if "build" in service:
            environment = {**environment, **CHECK_ENV}
        args += [a for key, value in environment.items() for a in ("-e", f"{key}={value}")]
        for volume in service.get("volumes") or []:
            source, _, target = volume.partition(":")
            if source not in volumes:
                raise Failed(f"service {name}: volume {volume!r}: only named volumes are read")
            args += ["-v", f"{PROJECT}_{source}:{target}"]
        args += [a for path in service.get("tmpfs") or [] for a in ("--tmpfs", path)]
        health = service.get("healthcheck")
        if health is not None:
            if set(health) - HEALTH_KEYS or health["test"][0] not in ("CMD", "CMD-SHELL"):
                raise Failed(f"service {name}: healthcheck {health}: not read by this check")
            test = health["test"]
            # podman 4.3 takes --health-cmd as one shell line (a JSON list is not parsed): CMD's list, quoted
            args += ["--health-cmd", shlex.join(test[1:]) if test[0] == "CMD" else test[1]]
            args += [a for key, flag in (("interval", "--health-interval"), ("timeout", "--health-timeout"),
                                         ("start_period", "--health-start-period")) if key in health
                     for a in (flag, f"{seconds(health[key])}s")]
            args += ["--health-retries", str(health["retries"])] if "retries" in health else []
        deploy = service.get("deploy") or {}
        if set(deploy) - {"replicas"}:
            raise Failed(f"service {name}: deploy {deploy}: only replicas is read")
        depends = service.get("depends_on") or {}
        if isinstance(depends, list):
            depends = {d: {"condition": "service_started"} for d in depends}
        replicas = int(deploy.get("replicas", 1))
        for n in range(1, replicas + 1):
            out.append(Container(
                f"{PROJECT}-{name}-{n}", name, image, args, [str(a) for a in service.get("command") or []],
                health["test"] if health else None, {d: c["condition"] for d, c in depends.items()},
                seconds(service.get("stop_grace_period", 10)), "build" in service))
    ordered: list[Container] = []
    while len(ordered) < len(out):
        ready = [c for c in out if c not in ordered and all(any(o.service == d for o in ordered) for d in c.depends)]
        if not ready:
            raise Failed("depends_on has a cycle")
        ordered += ready
    return ordered


# ----- running them -------------------------------------------------------------------------------------------------


def clean(images: bool = False) -> None:
    """Remove the containers, volumes and network namespace any run of the check left (and the images: --clean)."""
    listed = podman("ps", "-a", "--filter", f"label={LABEL}", "--format", "{{.Names}}", check=False).stdout.split()
    if listed:
        podman("rm", "-f", "-t", "0", *listed, check=False)
    volumes = podman("volume", "ls", "--filter", f"label={LABEL}", "--format", "{{.Name}}", check=False).stdout.split()
    if volumes:
        podman("volume", "rm", "-f", *volumes, check=False)
    if Path(f"/run/netns/{NETNS}").exists():
        run(["ip", "netns", "delete", NETNS], check=False)
    if images:
        mine = [line.split()[0] for line in podman("images", "--format", "{{.Repository}}:{{.Tag}} {{.Id}}",
                                                   check=False).stdout.splitlines()
                if line.startswith(f"localhost/{PROJECT}/")]
        if mine:
            podman("rmi", "-f", *mine, check=False)
        shutil.rmtree(WORK, ignore_errors=True)


def start(all_containers: list[Container], compose: dict[str, Any]) -> None:
    """The network namespace, the named volumes, then each container once what it depends on is started (or
    healthy, for condition: service_healthy)."""
    run(["ip", "netns", "add", NETNS])
    run(["ip", "netns", "exec", NETNS, "ip", "link", "set", "lo", "up"])
    for volume in compose.get("volumes") or {}:
        podman("volume", "create", "--label", f"{LABEL}=1", f"{PROJECT}_{volume}")
    hosts = [a for service in compose["services"] for a in ("--add-host", f"{service}:127.0.0.1")]
    for c in all_containers:
        for service, condition in c.depends.items():
            if condition == "service_healthy":
                for other in all_containers:
                    if other.service == service:
                        wait_healthy(other)
        podman("run", "-d", "--name", c.name, "--label", f"{LABEL}=1", "--network", f"ns:/run/netns/{NETNS}",
               *hosts, "--stop-timeout", str(c.stop_timeout), *c.run_args, c.image, *c.command)
        say(f"started {c.name}: {shlex.join(c.command) or '(the image CMD)'}")


def wait_healthy(c: Container, deadline: float = 120) -> None:
    """Until `podman healthcheck run` (the container's own check) passes. Without systemd podman runs no check on
    its own timer, so the check asks for each run."""
    end = time.monotonic() + deadline
    while True:
        done = podman("healthcheck", "run", c.name, check=False)
        if done.returncode == 0:
            return
        restarts = podman("inspect", "--format", "{{.RestartCount}}", c.name, check=False).stdout.strip()
        if restarts.isdigit() and int(restarts) >= 3:
            raise Failed(f"{c.name} keeps exiting ({restarts} restarts):\n{logs(c)}")
        if time.monotonic() > end:
            state = podman("inspect", "--format", "{{json .State.Health}}", c.name, check=False).stdout
            raise Failed(f"{c.name} not healthy after {deadline:.0f} s: {state[-1500:]}\n{logs(c)}")
        time.sleep(1)


def logs(c: Container) -> str:
    """The last lines a container wrote."""
    done = podman("logs", "--tail", "40", c.name, check=False)
    return f"--- {c.name}\n{done.stdout}{done.stderr}"


def exec_in(c: Container, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command run in a container (as the image's user)."""
    return podman("exec", c.name, *argv, check=False, timeout=60)


def check_health(all_containers: list[Container]) -> None:
    """Each service's compose health check passes (podman healthcheck run), the image's own HEALTHCHECK passes in
    the API's container, and the workers' check fails where no worker runs (it is not a check that always
    passes)."""
    for c in all_containers:
        if c.health is not None:
            wait_healthy(c)
            say(f"healthy: {c.name} ({shlex.join(c.health[1:]) if c.health[0] == 'CMD' else c.health[1]})")
    image_check = json.loads(podman("image", "inspect", "--format", "{{json .Config.Healthcheck}}", IMAGE).stdout)
    if not image_check or image_check["Test"][0] != "CMD":
        raise Failed(f"the image's HEALTHCHECK is not a CMD list: {image_check}")
    api = next(c for c in all_containers if c.from_dockerfile and "api" in c.command)
    done = exec_in(api, *image_check["Test"][1:])
    if done.returncode != 0:
        raise Failed(f"the image's HEALTHCHECK failed in {api.name}: {done.stderr[-1500:]}")
    say(f"the image's HEALTHCHECK passes in {api.name} ({shlex.join(image_check['Test'][1:])[:60]}...)")
    worker_check = next(c.health for c in all_containers if c.health and "worker" in c.command)
    done = exec_in(api, *worker_check[1:])
    if done.returncode == 0 or "no live worker of host" not in done.stderr:
        raise Failed(f"the workers' health check in the API's container (no worker): {done.returncode} "
                     f"{done.stderr[-500:]}")
    say(f"the workers' health check fails in {api.name}, where no worker runs: {done.stderr.strip()}")


def check_users(all_containers: list[Container]) -> None:
    """Every process of every container built from the Dockerfile runs as firebreak (uid 10001), and the API's
    container runs as many server processes as its --workers says."""
    for c in all_containers:
        if not c.from_dockerfile:
            continue
        uid = exec_in(c, "id", "-u").stdout.strip()
        top = podman("top", c.name, "user", "args").stdout.splitlines()[1:]
        users = {line.split()[0] for line in top}
        if uid != APP_UID or users != {APP_USER}:
            raise Failed(f"{c.name} runs as uid {uid!r}, processes as {users}")
        servers = ""
        if "--workers" in c.command and "api" in c.command:
            wanted = int(c.command[c.command.index("--workers") + 1])
            found = [line for line in top if "multiprocessing.spawn" in line or "multiprocessing-fork" in line]
            if len(found) != wanted:
                raise Failed(f"{c.name}: {len(found)} server processes, --workers {wanted}:\n" + "\n".join(top))
            servers = f" ({wanted} API server processes, as its --workers says)"
        say(f"{c.name}: uid {uid}, its {len(top)} processes all {APP_USER}{servers}")


def check_archive_volume(all_containers: list[Container]) -> None:
    """Every container that mounts the archive sees the same files there, the folder and the SQLite file owned by
    firebreak (the volume took the image folder's owner when podman first filled it)."""
    seen = {c.name: exec_in(c, "sh", "-c", "stat -c '%u %n' /var/lib/firebreak /var/lib/firebreak/*").stdout
            for c in all_containers if c.from_dockerfile}
    listing = next(iter(seen.values()))
    if len(set(seen.values())) != 1 or f"{APP_UID} /var/lib/firebreak\n" not in listing:
        raise Failed(f"the archive folder differs between containers or is not firebreak's: {seen}")
    if not re.search(rf"^{APP_UID} /var/lib/firebreak/\S+\.(db|sqlite\d?)$", listing, re.M):
        raise Failed(f"no SQLite file of firebreak's in the archive volume: {listing}")
    files = [line.split("/")[-1] for line in listing.splitlines()[1:]]
    say(f"the archive volume: the same folder in {len(seen)} containers, owned by uid {APP_UID}, with "
        f"{', '.join(files)}")


def check_metrics_folder(all_containers: list[Container]) -> None:
    """The API's processes, not root, wrote their /metrics counters into the compose file's tmpfs folder."""
    for c in all_containers:
        folder = next((v for k, v in zip(c.run_args, c.run_args[1:], strict=False)
                       if k == "-e" and v.startswith("PROMETHEUS_MULTIPROC_DIR=")), None)
        if folder is None:
            continue
        path = folder.split("=", 1)[1]
        listing = exec_in(c, "sh", "-c", f"stat -c '%a %U' {shlex.quote(path)}; ls -n {shlex.quote(path)}").stdout
        if not re.search(rf"^-\S+\s+\d+\s+{APP_UID}\s", listing, re.M):
            raise Failed(f"{c.name}: no metrics file of uid {APP_UID} in {path}: {listing}")
        say(f"{c.name}: {path} ({listing.splitlines()[0]}) holds {len(listing.splitlines()) - 2} metrics files "
            f"of uid {APP_UID}")


def play(all_containers: list[Container]) -> None:
    """scripts/container_play.py, run by this interpreter inside the services' network namespace."""
    api = next(c for c in all_containers if c.from_dockerfile and "api" in c.command)
    port = api.command[api.command.index("--port") + 1] if "--port" in api.command else "8000"
    redis = next(c for c in all_containers if not c.from_dockerfile)
    argv = ["ip", "netns", "exec", NETNS, sys.executable, str(ROOT / "scripts" / "container_play.py"),
            "--api", f"http://127.0.0.1:{port}", "--redis", "redis://127.0.0.1:6379/0"]
    say(f"playing through {api.name} on 127.0.0.1:{port} of namespace {NETNS} ({redis.name} at 6379)")
    done = subprocess.run(argv, timeout=900, check=False)
    if done.returncode != 0:
        raise Failed("the matches through the API failed:\n" + "\n".join(logs(c) for c in all_containers))


def stop(all_containers: list[Container]) -> None:
    """podman stop, dependents first, each within its stop_grace_period: every service exits 0 on SIGTERM."""
    codes = {}
    for c in reversed(all_containers):
        podman("stop", c.name, timeout=c.stop_timeout + 30)
        codes[c.name] = podman("inspect", "--format", "{{.State.ExitCode}}", c.name).stdout.strip()
    if set(codes.values()) != {"0"}:
        raise Failed(f"exit codes after podman stop: {codes}")
    say(f"stopped: every container exited 0 ({len(codes)})")


@contextlib.contextmanager
def locked() -> Iterator[None]:
    """One run of the check at a time on this machine (they share names); waits up to 20 minutes."""
    WORK.mkdir(parents=True, exist_ok=True)
    with (WORK.parent / "firebreak-container-check.lock").open("w") as lock:
        end = time.monotonic() + 1200
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > end:
                    raise Failed("another run of the check held the lock for 20 minutes") from None
                time.sleep(2)
        yield


def check() -> None:
    """The whole check; cleans up what it started, whatever happens."""
    write_containers_conf()
    clean()
    base, redis = stand_in_bases()
    build_image(base)
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    all_containers = containers(compose, {"redis:7": redis})
    published = {n: s["ports"] for n, s in compose["services"].items() if s.get("ports")}
    say(f"docker-compose.yml: {len(all_containers)} containers; ports {published} not published (the check "
        f"reaches the services in their namespace)")
    try:
        start(all_containers, compose)
        check_health(all_containers)
        check_users(all_containers)
        play(all_containers)
        check_archive_volume(all_containers)
        check_metrics_folder(all_containers)
        stop(all_containers)
    finally:
        clean()


def main(argv: list[str] | None = None) -> int:
    """Run the check (or --clean); 0 when it passed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove all the check made, cached images included")
    args = parser.parse_args(argv)

    def stopped(signum: int, _: object) -> None:
        raise Failed(f"stopped by signal {signum}")  # (the cleanup in check() still runs)

    signal.signal(signal.SIGTERM, stopped)
    try:
        with locked():
            if args.clean:
                write_containers_conf()
                clean(images=True)
                say("removed the check's containers, volumes, namespace, images and work folder")
                return 0
            check()
    except (Failed, subprocess.TimeoutExpired) as failure:
        say(f"FAILED: {failure}")
        return 1
    say("container check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The container files, checked without a Docker daemon (issue 27; docs/deployment-containers.md says what was and
was not run): both compose files are valid against the Compose Specification's JSON Schema (vendored in tests/data),
every command and health check of a Firebreak service is a real entry point of the package, every variable they set
is a setting the service reads, and the Dockerfile builds the wheel in one stage and installs only it in another
that runs as a non-root user with a health check."""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from fnmatch import fnmatch
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
import yaml
from starlette.routing import Route

from firebreak import cli, settings_reference
from firebreak.matches.embedded import free_port

ROOT = Path(__file__).resolve().parent.parent
COMPOSE_FILES = ("docker-compose.yml", "docker-compose.cluster.yml")
# tests/data/README.md: where the schema comes from (compose-spec/compose-spec, schema/compose-spec.json)
COMPOSE_SCHEMA = ROOT / "tests" / "data" / "compose-spec.json"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
INTERPOLATION = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)")


def _compose(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))
    return loaded


def _package_folders() -> list[Path]:
    """The folders the wheel installs (firebreak/ and each one pyproject.toml maps under it)."""
    return [ROOT / "firebreak", *(ROOT / folder for folder in PYPROJECT["tool"]["setuptools"]["package-dir"].values())]


@cache
def known_settings() -> frozenset[str]:
    """Every environment variable the service reads: the names the settings models declare (the same list
    `firebreak --help` and docs/reference/settings.md give; tests/test_settings.py shows the code reads no other)."""
    return frozenset(settings_reference.names())


def _console_scripts() -> dict[str, str]:
    """Console script -> distribution, for Firebreak's own scripts and those of its installed dependencies."""
    wanted = {re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-")
              for requirement in PYPROJECT["project"]["dependencies"]}
    scripts = {name: "firebreak" for name in PYPROJECT["project"].get("scripts", {})}
    for entry in importlib.metadata.entry_points(group="console_scripts"):
        if entry.dist is not None and entry.dist.name.lower().replace("_", "-") in wanted:
            scripts[entry.name] = entry.dist.name
    return scripts


@cache
def _app_paths() -> frozenset[str]:
    """The paths of the API's plain routes (health, metrics, ...)."""
    from firebreak.api.app import create_app
    from firebreak.matches.config import Settings

    app = create_app(Settings.from_env({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}))
    return frozenset(route.path for route in app.routes if isinstance(route, Route))


def entry_point_problems(command: list[str], port: int | None = None) -> list[str]:
    """Why a command run in the image is not one of the package's entry points (empty: it is). Known forms:
    `python -m firebreak.<module>`, `uvicorn <module>:<factory> --factory ...`, a console script of Firebreak,
    and `python -c` code that fetches the API's own routes on the port it serves."""
    if not command:
        return ["an empty command"]
    program, *args = command
    if program == "python" and args[:1] == ["-m"] and len(args) >= 2:
        module = args[1]
        if not module.startswith("firebreak."):
            return [f"python -m {module}: not a module of the firebreak package"]
        spec = importlib.util.find_spec(module)
        if spec is None or spec.submodule_search_locations is not None:
            return [f"python -m {module}: no such module (or a package without __main__)"]
        return []
    if program == "python" and args[:1] == ["-c"] and len(args) == 2:
        urls = re.findall(r"https?://[^'\"\s]+", args[1])
        if not urls:
            return [f"python -c {args[1]!r}: only the API's own routes are checked, and it fetches none"]
        problems = []
        for url in urls:
            parts = urlsplit(url)
            if parts.hostname not in ("127.0.0.1", "localhost") or (port is not None and parts.port != port):
                problems.append(f"{url}: not this container's API (port {port})")
            if parts.path not in _app_paths():
                problems.append(f"{url}: {parts.path} is not a route of the API")
        return problems
    scripts = _console_scripts()
    if program not in scripts:
        return [f"{program}: not a console script of firebreak or of its dependencies"]
    if program == "uvicorn":
        targets = [a for a in args if not a.startswith("-") and ":" in a]
        if len(targets) != 1 or "--factory" not in args:
            return [f"uvicorn {shlex.join(args)}: expected one module:factory target and --factory"]
        module, _, attribute = targets[0].partition(":")
        if not module.startswith("firebreak.") or not callable(getattr(importlib.import_module(module), attribute,
                                                                          None)):
            return [f"uvicorn {targets[0]}: not a factory of the firebreak package"]
    if program == "firebreak":
        try:
            cli.parser().parse_args(args)  # the same parser `firebreak` runs: a wrong subcommand or flag exits
        except SystemExit:
            return [f"firebreak {shlex.join(args)}: not a command line the firebreak command accepts"]
    return []


def _option(command: list[str], name: str) -> int | None:
    """The integer value of an option such as --port in a command, if given."""
    return int(command[command.index(name) + 1]) if name in command else None


def _firebreak_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run the image of this repository's Dockerfile."""
    return {name: service for name, service in compose["services"].items() if "build" in service}


def _environment(service: dict[str, Any]) -> dict[str, str | None]:
    """A service's environment, from the mapping or the list form."""
    env = service.get("environment", {})
    if isinstance(env, list):
        return {item.partition("=")[0]: item.partition("=")[2] or None for item in env}
    return {str(k): None if v is None else str(v) for k, v in env.items()}


def compose_problems(compose: dict[str, Any], image: Dockerfile) -> list[str]:
    """What is wrong with the Firebreak services of a compose file (empty: nothing)."""
    problems = []
    services = _firebreak_services(compose)
    if not services:
        problems.append("no service builds the Dockerfile")
    for name, service in services.items():
        command = service.get("command", image.cmd)
        problems += [f"{name}: {p}" for p in entry_point_problems(command)]
        port = _option(command, "--port")
        test = service.get("healthcheck", {}).get("test")
        if test is None:
            if command != image.cmd:
                problems.append(f"{name}: runs {command[:3]} but keeps the image's health check (of the API)")
        elif test[:1] != ["CMD"]:
            problems.append(f"{name}: a health check not in exec form (CMD, ...): {test}")
        else:
            problems += [f"{name} health check: {p}" for p in entry_point_problems(test[1:], port)]
        unknown = sorted(set(_environment(service)) - known_settings())
        if unknown:
            problems.append(f"{name}: sets variables the service does not read: {unknown}")
        env = {**image.env, **{k: v for k, v in _environment(service).items() if v is not None}}
        mounts = [str(v).split(":")[1] for v in service.get("volumes", []) if isinstance(v, str) and ":" in v]
        if "FIREBREAK_DATABASE_URL" not in env and env.get("FIREBREAK_DATA_DIR") not in mounts:
            problems.append(f"{name}: its archive (FIREBREAK_DATA_DIR {env.get('FIREBREAK_DATA_DIR')}) is on no "
                            "volume, so each container would keep its own")
    interpolated = set(INTERPOLATION.findall(json.dumps(compose)))
    if unknown_vars := sorted(interpolated - known_settings()):
        problems.append(f"interpolates variables Firebreak does not know: {unknown_vars}")
    return problems


# ----- the Dockerfile, read instruction by instruction -------------------------------------------------------

@dataclass
class Stage:
    """One stage of a Dockerfile: its base, its name and its instructions (keyword, arguments)."""

    base: str
    name: str | None
    instructions: list[tuple[str, str]] = field(default_factory=list)

    def arguments(self, keyword: str) -> list[str]:
        return [args for kw, args in self.instructions if kw == keyword]


@dataclass
class Dockerfile:
    stages: list[Stage]

    @property
    def final(self) -> Stage:
        return self.stages[-1]

    @property
    def cmd(self) -> list[str]:
        cmds = self.final.arguments("CMD")
        return list(json.loads(cmds[-1])) if cmds else []

    @property
    def env(self) -> dict[str, str]:
        """The final stage's ENV (key=value form)."""
        out = {}
        for args in self.final.arguments("ENV"):
            for word in shlex.split(args):
                key, _, value = word.partition("=")
                out[key] = value
        return out


def parse_dockerfile(text: str) -> Dockerfile:
    """The stages of a Dockerfile (comments dropped, continued lines joined)."""
    logical: list[str] = []
    pending = ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.lstrip().startswith("#"):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        logical.append(pending + line.strip())
        pending = ""
    stages: list[Stage] = []
    for instruction in logical:
        keyword, _, args = instruction.partition(" ")
        keyword, args = keyword.upper(), " ".join(args.split())
        if keyword == "FROM":
            words = args.split()
            stages.append(Stage(words[0], words[2] if len(words) == 3 and words[1].upper() == "AS" else None))
        elif stages:
            stages[-1].instructions.append((keyword, args))
    return Dockerfile(stages)


def dockerfile_problems(image: Dockerfile) -> list[str]:
    """What keeps a Dockerfile from being the release image (empty: nothing): a build stage that builds the wheel,
    a final stage that installs only that wheel, runs as a non-root user, has a health check and starts an entry
    point of the package."""
    problems = []
    if len(image.stages) < 2:
        return ["one stage: the wheel should be built in a stage of its own"]
    builders = [s for s in image.stages[:-1] if any(re.search(r"\bpip wheel\b", r) for r in s.arguments("RUN"))]
    if not builders:
        problems.append("no stage before the last builds a wheel (pip wheel)")
    final = image.final
    copies = final.arguments("COPY")
    if any(not c.startswith("--from=") for c in copies):
        problems.append(f"the final stage copies from the build context (the source would sit beside the install): "
                        f"{[c for c in copies if not c.startswith('--from=')]}")
    if not any(c.startswith(f"--from={b.name}") for c in copies for b in builders if b.name):
        problems.append("the final stage copies nothing from the stage that builds the wheel")
    if not any(re.search(r"\bpip install\b[^&]*\.whl", r) for r in final.arguments("RUN")):
        problems.append("the final stage does not pip install the wheel")
    users = [i for i, (kw, _) in enumerate(final.instructions) if kw == "USER"]
    runs = [i for i, (kw, _) in enumerate(final.instructions) if kw == "RUN"]
    if not users:
        problems.append("the final stage runs as root (no USER)")
    else:
        user = final.instructions[users[-1]][1].split(":")[0]
        if user in ("root", "0"):
            problems.append(f"the final stage's USER is {user}")
        if runs and runs[-1] > users[-1]:
            problems.append("a RUN comes after the last USER")
    checks = final.arguments("HEALTHCHECK")
    if not checks or checks[-1].upper() == "NONE":
        problems.append("the final stage has no HEALTHCHECK")
    else:
        test = json.loads(checks[-1][checks[-1].index("CMD") + 3:].strip())
        problems += [f"HEALTHCHECK: {p}" for p in entry_point_problems(test, _option(image.cmd, "--port"))]
    if not image.cmd:
        problems.append("the final stage has no CMD")
    else:
        problems += [f"CMD: {p}" for p in entry_point_problems(image.cmd)]
    return problems


def dockerignore_problems(patterns: list[str]) -> list[str]:
    """The files the wheel is built from that .dockerignore would keep out of the build context."""
    linked = [path.resolve() for path in (ROOT / "firebreak").iterdir() if path.is_symlink()]  # api/, web/, ...
    needed = ["pyproject.toml", "README.md", "LICENSE", "firebreak/__init__.py",
              *(str(folder.relative_to(ROOT)) for folder in [*_package_folders(), *linked]), "web/index.html",
              *(str(p.relative_to(ROOT)) for p in ROOT.glob("domain/*/data/*.json"))]
    return [path for path in needed for pattern in patterns
            if fnmatch(path, pattern) or fnmatch(path.split("/")[0], pattern)]


def _dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@pytest.fixture(scope="module")
def image() -> Dockerfile:
    return parse_dockerfile((ROOT / "Dockerfile").read_text(encoding="utf-8"))


# ----- the tests -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_the_compose_file_is_valid_against_the_compose_specification(name: str) -> None:
    schema = json.loads(COMPOSE_SCHEMA.read_text(encoding="utf-8"))
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in jsonschema.Draft7Validator(schema).iter_errors(_compose(name))]
    assert errors == []


def test_the_compose_schema_refuses_what_compose_would_refuse() -> None:
    schema = json.loads(COMPOSE_SCHEMA.read_text(encoding="utf-8"))
    compose = _compose("docker-compose.yml")
    compose["services"]["api"]["comand"] = compose["services"]["api"].pop("command")
    compose["services"]["worker"]["depends_on"]["redis"]["condition"] = "service_up"
    assert len(list(jsonschema.Draft7Validator(schema).iter_errors(compose))) == 2


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_firebreak_service_runs_an_entry_point_with_known_settings(name: str, image: Dockerfile) -> None:
    assert compose_problems(_compose(name), image) == []


def test_the_compose_checks_would_catch_a_bad_command_setting_or_health_check(image: Dockerfile) -> None:
    compose = _compose("docker-compose.yml")
    api, worker = compose["services"]["api"], compose["services"]["worker"]
    api["environment"]["FIREBREAK_REDIS_PASSWORD"] = "x"
    api["command"] = ["uvicorn", "firebreak.api.app:build_app", "--factory", "--port", "8000"]
    api["healthcheck"]["test"] = ["CMD", "python", "-c", "import urllib.request; "
                                  "urllib.request.urlopen('http://127.0.0.1:8000/health')"]
    worker["command"] = ["python", "-m", "firebreak.workers.mian"]
    del worker["healthcheck"]
    worker["volumes"] = []
    compose["services"]["redis"]["command"].append("${FIREBREAK_APPENDSYNC}")
    assert [p.split(":")[0] for p in compose_problems(compose, image)] == [
        "api", "api health check", "api", "worker", "worker", "worker",
        "interpolates variables Firebreak does not know"]


def test_known_settings_are_every_layers() -> None:
    """The settings of every layer are known (a typo in a compose file is then an unknown name)."""
    assert {"REDIS_URL", "QUEUE_REDIS_URL", "PROMETHEUS_MULTIPROC_DIR", "FIREBREAK_QUEUE", "FIREBREAK_DATA_DIR",
            "FIREBREAK_SEARCH_SECONDS", "FIREBREAK_CORS_ORIGINS", "FIREBREAK_WEBHOOK_URL",
            "FIREBREAK_APPENDFSYNC"} <= known_settings()
    assert "FIREBREAK_REDIS_PASSWORD" not in known_settings()


def test_the_dockerfile_builds_the_wheel_and_runs_it_unprivileged_with_a_health_check(image: Dockerfile) -> None:
    assert dockerfile_problems(image) == []
    assert set(image.env) <= known_settings() | {"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"}
    assert "EXPOSE" in {kw for kw, _ in image.final.instructions}
    assert dockerignore_problems(_dockerignore()) == []


def test_the_dockerfile_checks_would_catch_the_old_single_stage_image() -> None:
    """The image before issue 27: one stage, the source copied to /app, root, no health check."""
    old = parse_dockerfile("FROM python:3.11-slim\nWORKDIR /app\nCOPY pyproject.toml README.md ./\n"
                           "COPY api ./api\nRUN pip install --no-cache-dir .\n"
                           'CMD ["uvicorn", "firebreak.api.app:create_app", "--factory"]\n')
    assert dockerfile_problems(old) == ["one stage: the wheel should be built in a stage of its own"]
    two = parse_dockerfile("FROM python:3.11-slim AS build\nRUN pip wheel --wheel-dir /dist .\n"
                           "FROM python:3.11-slim\nCOPY . /app\nRUN pip install /app\n"
                           'CMD ["python", "-m", "firebreak.api"]\n')
    assert dockerfile_problems(two) == [
        "the final stage copies from the build context (the source would sit beside the install): ['. /app']",
        "the final stage copies nothing from the stage that builds the wheel",
        "the final stage does not pip install the wheel",
        "the final stage runs as root (no USER)",
        "the final stage has no HEALTHCHECK",
        "CMD: python -m firebreak.api: no such module (or a package without __main__)"]
    assert dockerignore_problems(["web", "*.toml"]) == ["pyproject.toml", "web", "web/index.html"]


def test_a_firebreak_command_line_is_checked_by_the_commands_own_parser() -> None:
    assert entry_point_problems(["firebreak", "api", "--host", "0.0.0.0", "--port", "8000", "--workers", "2"]) == []
    assert entry_point_problems(["firebreak", "worker"]) == []
    assert entry_point_problems(["firebreak", "api", "--prot", "8000"]) != []
    assert entry_point_problems(["firebreak", "wokrer"]) != []

"""The lock files (requirements/, written by scripts/lock.sh) against pyproject.toml (issue 47): every dependency of
the service is pinned in service.txt and every dependency of the extras too in dev.txt, at a version its range
allows, each pin with its hashes; the packages we depend on closely are bounded below their next major; and the
environment the suite runs in is the locked one (bootstrap.sh installs it), so what passes here is what is locked."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s\\;]+)")
CLOSE = ("redis", "rq", "strawberry-graphql", "starlette", "pydantic", "uvicorn")  # bounded at the next major


def pins(lock: Path) -> dict[str, tuple[Version, int]]:
    """A lock file's pins: name -> (version, how many hashes)."""
    found: dict[str, tuple[Version, int]] = {}
    name = ""
    for line in lock.read_text().splitlines():
        if match := PIN.match(line):
            name = canonicalize_name(match[1])
            found[name] = (Version(match[2]), 0)
        elif "--hash=sha256:" in line and name:
            version, hashes = found[name]
            found[name] = (version, hashes + 1)
    return found


def project() -> dict[str, list[Requirement]]:
    """pyproject.toml's requirements: the service's and each extra's."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = {name: [Requirement(text) for text in texts] for name, texts in data["optional-dependencies"].items()}
    return {"service": [Requirement(text) for text in data["dependencies"]], **extras}


@pytest.mark.parametrize(("lock", "groups"), [("service.txt", ("service",)), ("dev.txt", ("service", "dev", "rl"))])
def test_every_requirement_is_pinned_with_hashes_at_a_version_it_allows(lock: str, groups: tuple[str, ...]) -> None:
    locked = pins(ROOT / "requirements" / lock)
    wanted = project()
    for group in groups:
        for requirement in wanted[group]:
            name = canonicalize_name(requirement.name)
            assert name in locked, f"{requirement} ({group}) is not in requirements/{lock}: run scripts/lock.sh"
            version, hashes = locked[name]
            assert requirement.specifier.contains(version, prereleases=True), f"{name}=={version} against {requirement}"
            assert hashes > 0, f"{name} has no hash in requirements/{lock}"
    assert all(hashes > 0 for _, hashes in locked.values())


def test_the_service_lock_is_the_dev_locks_service_part() -> None:
    """The same versions in both (service.txt, for any 3.11, may hold a backport that 3.11.5's dev.txt does not)."""
    service, dev = pins(ROOT / "requirements" / "service.txt"), pins(ROOT / "requirements" / "dev.txt")
    shared = service.keys() & dev.keys()
    assert len(shared) >= len(service) - 2
    assert {name: dev[name][0] for name in shared} == {name: service[name][0] for name in shared}


def test_what_we_depend_on_closely_is_bounded_below_its_next_major() -> None:
    locked = pins(ROOT / "requirements" / "service.txt")
    for requirement in project()["service"]:
        if requirement.name in CLOSE:
            uppers = [Version(spec.version) for spec in requirement.specifier if spec.operator == "<"]
            assert uppers, f"{requirement}: no upper bound"
            assert uppers[0] == Version(str(locked[canonicalize_name(requirement.name)][0].major + 1)), requirement


def test_the_suite_runs_on_the_locked_versions() -> None:
    for name, (version, _) in pins(ROOT / "requirements" / "dev.txt").items():
        installed = Version(metadata.version(name))
        assert installed == version, f"{name}: installed {installed}, locked {version}"

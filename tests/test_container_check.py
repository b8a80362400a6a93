"""How scripts/container_check.py reads docker-compose.yml into podman commands (no podman needed): every service
and replica, in depends_on order, with the file's commands, variables, volumes and health checks; and anything the
file says that the translation does not know fails the check instead of being dropped, so the check cannot drift
from the file (tests/service/test_container_check.py runs the whole check)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from scripts import container_check as cc

ROOT = Path(__file__).resolve().parent.parent
REDIS = "localhost/stand-in/redis:7"


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    return loaded


def _option(args: list[str], flag: str) -> list[str]:
    return [args[i + 1] for i, arg in enumerate(args) if arg == flag]


def test_the_compose_file_becomes_one_container_a_replica_in_depends_on_order() -> None:
    compose = _compose()
    made = cc.containers(compose, {"redis:7": REDIS})
    replicas = {name: service.get("deploy", {}).get("replicas", 1) for name, service in compose["services"].items()}
    assert [c.service for c in made].count("worker") == replicas["worker"] == 2
    assert len(made) == sum(replicas.values())
    assert made[0].service == "redis" and made[0].image == REDIS and not made[0].from_dockerfile
    for c in made:
        service = compose["services"][c.service]
        assert c.command == [str(a) for a in cc.interpolate(service.get("command", []))]
        started = [o.service for o in made[:made.index(c)]]
        assert all(d in started for d in service.get("depends_on", {}))
        if "build" in service:
            assert c.image == cc.IMAGE and c.from_dockerfile
            environment = dict(e.split("=", 1) for e in _option(c.run_args, "-e"))
            assert environment == {**service["environment"], **cc.CHECK_ENV}
            assert _option(c.run_args, "-v") == [f"{cc.PROJECT}_archive:/var/lib/firebreak"]
        # podman 4.3 takes the health check as one shell line: it splits back into the file's CMD list
        assert shlex.split(_option(c.run_args, "--health-cmd")[0]) == service["healthcheck"]["test"][1:]
        assert c.health == service["healthcheck"]["test"]
    worker = next(c for c in made if c.service == "worker")
    assert worker.stop_timeout == 30 and _option(worker.run_args, "--restart") == ["unless-stopped"]
    api = next(c for c in made if c.service == "api")
    assert _option(api.run_args, "--tmpfs") == ["/run/firebreak-metrics"]
    assert _option(made[0].run_args, "-v") == [f"{cc.PROJECT}_redis-data:/data"]


def test_the_interpolated_setting_takes_its_default_or_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIREBREAK_APPENDFSYNC", raising=False)
    assert cc.containers(_compose(), {"redis:7": REDIS})[0].command[-1] == "always"
    monkeypatch.setenv("FIREBREAK_APPENDFSYNC", "everysec")
    assert cc.containers(_compose(), {"redis:7": REDIS})[0].command[-1] == "everysec"


@pytest.mark.parametrize(("change", "refusal"), [
    (lambda s: s["worker"].update(network_mode="host"), r"service worker: \['network_mode'\] not read"),
    (lambda s: s["api"].update(volumes=["./var:/var/lib/firebreak"]), r"only named volumes"),
    (lambda s: s["redis"].update(image="redis:8"), r"image 'redis:8' has no stand-in"),
    (lambda s: s["worker"]["deploy"].update(resources={"limits": {"cpus": "1"}}), r"only replicas is read"),
    (lambda s: s["api"]["healthcheck"].update(disable=True), r"healthcheck .* not read"),
    (lambda s: s["api"].update(build={"context": ".", "dockerfile": "Other"}), r"only the checkout's Dockerfile"),
    (lambda s: s["redis"].update(depends_on={"worker": {"condition": "service_started"}}), r"cycle"),
])
def test_what_the_translation_does_not_know_fails_the_check(change: Any, refusal: str) -> None:
    compose = _compose()
    change(compose["services"])
    with pytest.raises(cc.Failed, match=refusal):
        cc.containers(compose, {"redis:7": REDIS})


def test_compose_durations_are_read_in_seconds() -> None:
    assert [cc.seconds(v) for v in ("30s", "1m30s", "2h", 10)] == [30, 90, 7200, 10]
    with pytest.raises(cc.Failed):
        cc.seconds("1.5s")

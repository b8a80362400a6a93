"""The indexed router (api/routing.py) hands every request to the route Starlette's linear scan would: the same
route and path params for every path the app serves, for its near misses (a trailing slash, an empty or extra
segment, an unknown path) and for every method; and over real HTTP it answers 200, 404, 405 and the slash
redirect as before."""

from __future__ import annotations

import itertools

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.routing import BaseRoute, Match, Route

from firebreak.api.app import create_app
from firebreak.api.routing import IndexedRouter, PathIndex
from firebreak.matches.config import Settings
from firebreak.matches.embedded import free_port

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


@pytest.fixture(scope="module")
def router() -> IndexedRouter:
    app = create_app(Settings.from_env({"REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}))
    assert isinstance(app.router, IndexedRouter)
    return app.router


def scanned(routes: list[BaseRoute], scope: dict) -> tuple[BaseRoute, dict] | None:
    """Starlette's Router.app choice over every route: the first full match, else the first partial one."""
    tried = [(route, *route.matches(scope)) for route in routes]
    for wanted in (Match.FULL, Match.PARTIAL):
        found = next(((route, child) for route, match, child in tried if match is wanted), None)
        if found is not None:
            return found
    return None


def scope_of(method: str, path: str) -> dict:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": [], "query_string": b""}


def sample_paths(routes: list[BaseRoute]) -> list[str]:
    """Every route's path with its params filled, and near misses of each."""
    out = ["/", "", "/v1", "/v1/", "/nothing", "/static/app.js", "/static/", "/graphql/", "//v1/matches"]
    for route in routes:
        path = getattr(route, "path", "/")
        filled = path
        for name in ("id", "seat", "tokenId", "matchId", "title", "endpointId", "deliveryId"):
            filled = filled.replace("{" + name + "}", "join" if name == "id" else "x1")
        out += [filled, filled + "/", filled + "/extra", filled.replace("/x1", "/"), filled.upper(),
                filled.replace("join", "m-1")]
    return out


def test_every_sample_path_and_method_chooses_the_route_the_linear_scan_chooses(router: IndexedRouter) -> None:
    checked = 0
    for path, method in itertools.product(sample_paths(router.routes), METHODS):
        scope = scope_of(method, path)
        assert router.chosen(scope) == scanned(router.routes, scope), (method, path)
        checked += 1
    assert checked > 500


SEGMENTS = st.sampled_from(["v1", "matches", "join", "me", "seats", "actions", "events", "titles", "seeks",
                            "admin", "webhooks", "rotate", "m1", "0", "", "static", "graphql", "x%2F"])


@settings(max_examples=400, deadline=None)
@given(st.lists(SEGMENTS, max_size=6), st.sampled_from(METHODS))
def test_any_path_of_known_segments_chooses_as_the_scan(router: IndexedRouter, segments: list[str],
                                                         method: str) -> None:
    scope = scope_of(method, "/" + "/".join(segments))
    assert router.chosen(scope) == scanned(router.routes, scope)


def test_the_index_narrows_the_act_to_its_own_route(router: IndexedRouter) -> None:
    candidates = router.index.candidates("/v1/matches/m1/actions")
    assert [getattr(r, "path", None) for r in candidates] == ["/v1/matches/{id}/actions", "/static"]  # and the Mount
    assert len(router.routes) > 30


def test_routes_the_trie_cannot_describe_are_always_tried_in_their_order() -> None:
    async def endpoint(_: object) -> None:  # pragma: no cover - never served here
        return None

    routes: list[BaseRoute] = [Route("/a/{n:int}", endpoint), Route("/a/{x}", endpoint), Route("/a/b", endpoint),
                               Route("/a/pre{x}", endpoint), Route("/a/", endpoint)]
    index = PathIndex(routes)
    assert index.candidates("/a/7") == [routes[0], routes[1], routes[3]]
    assert index.candidates("/a/b") == routes[:4]
    assert index.candidates("/a/") == [routes[0], routes[3], routes[4]]
    for path in ("/a/7", "/a/b", "/a/pre1", "/a/", "/a/x", "/b"):
        scope = scope_of("GET", path)
        assert IndexedRouter(routes).chosen(scope) == scanned(routes, scope)


def test_over_http_the_answers_are_starlettes(server: str) -> None:
    """A real server: a served path, a wrong method (405 problem with Allow), an unknown /v1 path (404 problem),
    a path outside /v1 (Starlette's plain 404), and the trailing-slash redirect."""
    with httpx.Client(base_url=server) as client:
        titles = client.get("/v1/titles")
        assert titles.status_code == 200
        wrong = client.delete("/v1/titles")
        assert wrong.status_code == 405
        assert wrong.json()["code"] == "METHOD_NOT_ALLOWED" and "GET" in wrong.headers["allow"]
        unknown = client.get("/v1/matches/m1/nothing")
        assert unknown.status_code == 404 and unknown.json()["code"] == "NOT_FOUND"
        outside = client.get("/nothing")
        assert outside.status_code == 404 and outside.text == "Not Found"
        slash = client.get("/v1/titles/")
        assert slash.status_code == 307 and slash.headers["location"].endswith("/v1/titles")

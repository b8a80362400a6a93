"""The app's router: Starlette's, with its routes indexed by their paths' segments.

Starlette's router tries every route's regular expression in order until one matches; the act's route was the
32nd tried. This router first walks a trie of the routes' path segments (a literal segment, or a `{param}` that
takes any non-empty segment; WebSocket routes too, which never match HTTP) to the routes whose shape fits the
request's path, then tries only those, in their declared order, exactly as Starlette would: the first full match
wins, else the first partial one (405). A route whose path the trie cannot describe (a Mount, a converter other
than str, a param inside a segment) is always tried. When nothing matches, Starlette's own code answers (its
trailing-slash redirect and 404), so the index only ever narrows the candidates, never the outcome.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Match, Route, Router, WebSocketRoute
from starlette.types import Receive, Scope, Send

_PARAM = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(:str)?\}")
_ANY = None  # the trie's key for a param segment (a request's segments are text)


class _Node:
    __slots__ = ("children", "routes")

    def __init__(self) -> None:
        self.children: dict[str | None, _Node] = {}
        self.routes: list[tuple[int, BaseRoute]] = []


def shape(route: BaseRoute) -> list[str | None] | None:
    """A route's path as trie keys (a literal segment, or _ANY for a param), or None when it has no such shape."""
    if not isinstance(route, Route | WebSocketRoute):
        return None
    keys: list[str | None] = []
    for segment in route.path.split("/")[1:]:
        if "{" in segment or "}" in segment:
            if not _PARAM.fullmatch(segment):
                return None
            keys.append(_ANY)
        else:
            keys.append(segment)
    return keys


class PathIndex:
    """The routes (in their order) a path may match: those the trie reaches, and those it cannot describe."""

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        self.root = _Node()
        self.always: list[tuple[int, BaseRoute]] = []
        for order, route in enumerate(routes):
            keys = shape(route)
            if keys is None:
                self.always.append((order, route))
                continue
            node = self.root
            for key in keys:
                node = node.children.setdefault(key, _Node())
            node.routes.append((order, route))

    def candidates(self, path: str) -> list[BaseRoute]:
        """The routes that may match the path, in declared order (a superset of those that do)."""
        nodes = [self.root]
        for segment in path.split("/")[1:]:
            following = []
            for node in nodes:
                literal = node.children.get(segment)
                if literal is not None:
                    following.append(literal)
                if segment:
                    param = node.children.get(_ANY)
                    if param is not None:
                        following.append(param)
            nodes = following
            if not nodes:
                break
        found = [entry for node in nodes for entry in node.routes]
        if self.always:
            found.extend(self.always)
        if len(found) > 1:
            found.sort(key=lambda entry: entry[0])
        return [route for _, route in found]


class IndexedRouter(Router):
    """Starlette's Router, trying only the routes the index gives for an HTTP request's path."""

    def __init__(self, routes: Sequence[BaseRoute], lifespan: Any = None) -> None:
        super().__init__(routes, lifespan=lifespan)
        self.index = PathIndex(self.routes)

    def chosen(self, scope: Scope) -> tuple[BaseRoute, Scope] | None:
        """The route Starlette's scan would hand an HTTP request to (its first full match, else its first partial
        one) and the scope it adds, or None when no route matches."""
        partial: tuple[BaseRoute, Scope] | None = None
        for route in self.index.candidates(get_route_path(scope)):
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                return route, child_scope
            if match is Match.PARTIAL and partial is None:
                partial = route, child_scope
        return partial

    async def app(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve the request with the chosen route; anything else (no route, WebSocket, lifespan) as Starlette."""
        if scope["type"] == "http":
            found = self.chosen(scope)
            if found is not None:
                route, child_scope = found
                scope.setdefault("router", self)
                scope["route"] = route
                scope.update(child_scope)
                await route.handle(scope, receive, send)
                return
        await super().app(scope, receive, send)

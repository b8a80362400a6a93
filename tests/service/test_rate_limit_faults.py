"""A fault inside the rate limits (not an outage) is masked like a resolver's: "Internal error.", no internals."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from firebreak.api.context import Context
from firebreak.api.schema import schema
from firebreak.matches.config import Settings

SECRET = "limiter internals: redis://user:secret@10.0.0.1"


class BrokenLimits:
    """Rate limits whose check fails with a bug's exception."""

    def blocked_for(self, client: str) -> float:
        return 0.0

    async def mutations(self, client: str, token: str | None, count: int) -> Any:
        raise RuntimeError(SECRET)


def test_a_rate_limit_fault_is_masked_and_nothing_runs() -> None:
    counted: list[str] = []
    services = SimpleNamespace(settings=Settings(), limits=BrokenLimits(),
                               metrics=SimpleNamespace(rate_limited=counted.append))
    request = Request({"type": "http", "method": "POST", "path": "/graphql", "headers": [], "query_string": b"",
                       "client": ("127.0.0.1", 5000)})
    context = Context(services=services, request=request, response=Response())  # type: ignore[arg-type]
    mutation = 'mutation { joinMatch(input: {matchId: "m", name: "x"}) { __typename } }'
    result = asyncio.run(schema.execute(mutation, context_value=context))
    assert result.data is None
    assert [e.message for e in result.errors or []] == ["Internal error."]
    assert SECRET not in repr(result.errors) and counted == []

"""The REST docs page (/v1/docs) in headless Chromium: it renders every operation, problem code and schema of the
OpenAPI document, and asks nothing of the network but the service's own origin (so it works offline)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firebreak.api.rest.problems import rest_codes
from firebreak.api.rest.routes import document


def test_the_docs_page_renders_the_whole_document_from_its_own_origin(browser: Any, server: str,
                                                                      screenshots: Path) -> None:
    context = browser.new_context(base_url=server)
    requested: list[str] = []
    errors: list[str] = []

    def only_ours(route: Any) -> None:
        requested.append(route.request.url)
        if route.request.url.startswith(server):
            route.continue_()
        else:
            route.abort()

    try:
        context.route("**/*", only_ours)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.goto("/v1/docs#op-act")
        page.wait_for_selector("#op-act[open]")
        doc = document()
        operation_ids = [op["operationId"] for item in doc["paths"].values() for op in item.values()]
        shown = page.eval_on_selector_all("details.op", "nodes => nodes.map(n => n.id.slice(3))")
        assert sorted(shown) == sorted(operation_ids)
        schemas = page.eval_on_selector_all("div.schema[id^=schema-]", "nodes => nodes.map(n => n.id.slice(7))")
        assert sorted(schemas) == sorted(doc["components"]["schemas"])
        codes = page.eval_on_selector_all("tr[id^=problem-]", "nodes => nodes.map(n => n.id.slice(8))")
        assert sorted(codes) == sorted(rest_codes())
        act = page.inner_text("#op-act")
        for text in ("/v1/matches/{id}/actions", "Idempotency-Key", "expectedVersion", "409", "STALE_VERSION",
                     '"expectedVersion": 12'):
            assert text in act, text
        page.screenshot(path=str(screenshots / "rest-docs.png"), full_page=False)
        assert errors == []
        assert requested and all(url.startswith(server) for url in requested), requested
        assert {url.removeprefix(server).split("#")[0] for url in requested} == {"/v1/docs", "/v1/openapi.json"}
    finally:
        context.close()

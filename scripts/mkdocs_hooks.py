"""MkDocs hooks (mkdocs.yml): put the REST surface's OpenAPI document, exactly as this version of the service
serves it at /v1/openapi.json, and the service's own offline rendering of it (/v1/docs), into the site at build
time, so the site can never show a document the code does not serve."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

# Where the two files land in the site; docs/reference/rest.md links them.
FOLDER = "reference/openapi"


def served(path: str) -> bytes:
    """GET one route of the app in-process (no Redis needed: these routes only render the route table)."""
    from firebreak.api.app import create_app

    async def get() -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://docs") as client:
            return await client.get(path)

    answer = asyncio.run(get())
    answer.raise_for_status()
    return answer.content


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:
    """Add the OpenAPI document and its rendering (which fetches ./openapi.json) as generated files."""
    files.append(File.generated(config, f"{FOLDER}/openapi.json", content=served("/v1/openapi.json")))
    files.append(File.generated(config, f"{FOLDER}/index.html", content=served("/v1/docs")))
    return files

"""Titles a deployment adds without changing the service: FIREBREAK_TITLES names Title objects to register.

    FIREBREAK_TITLES="mygames.chess:TITLE,mygames.go:TITLE"

Each entry is "module:attribute" naming an object that implements domain.contract.Title; the API and every worker
register them at start (all processes of a deployment must have the same setting). Tests use it to run a
reference title through the whole service.
"""

from __future__ import annotations

import importlib

from firebreak.domain import titles


class PluginError(ValueError):
    """Raised when FIREBREAK_TITLES names something that cannot be loaded as a title."""


def register_titles(spec: str) -> list[str]:
    """Import and register every title the spec names (those already registered are left as they are); return
    their ids."""
    ids = []
    for entry in (part.strip() for part in spec.split(",")):
        if not entry:
            continue
        module_name, _, attribute = entry.partition(":")
        if not module_name or not attribute:
            raise PluginError(f"FIREBREAK_TITLES: {entry!r} is not module:attribute")
        try:
            title = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError) as exc:
            raise PluginError(f"FIREBREAK_TITLES: cannot load {entry!r}: {exc}") from None
        for needed in ("id", "name", "new_match", "match_from_dict", "option_specs", "bots", "schemas"):
            if not hasattr(title, needed):
                raise PluginError(f"FIREBREAK_TITLES: {entry!r} is not a title (it has no {needed})")
        if title.id not in {known.id for known in titles.all_titles()}:
            titles.register(title)
        ids.append(title.id)
    return ids

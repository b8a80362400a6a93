"""A finished match as one self-contained JSON document (GET /v1/matches/{id}/export, Match.export), and its replay.

The document holds what replays the match through the title's engine alone: title, options, seed, the seats and
every step's entry in order (a seat's action, a bot's, a non-player step, the service's own steps), with the result
the service gave. Public facts only: seat token hashes and the host's are never in it, and the events the service
stored inside the log ("pre", a service step's events) keep only what a spectator may see (the engine recomputes
the rest from the seed). Only an over match is exported: its seed, once known, tells every hidden card.

`replay(document)` plays the log through the engine and returns the result the same way the service computes it
(resigned seats rank last, an abandoned or cancelled match has no winner), so a reader can check a document. End
reasons are spelled as on every other surface (FINISHED, RESIGNED, ABANDONED, CANCELLED); a document exported before
(finished...) is read too.
"""

from __future__ import annotations

from typing import Any

from firebreak.archive.records import NotArchivable, match_row, result_json
from firebreak.domain import titles
from firebreak.domain.errors import DomainError
from firebreak.domain.events import visible_to
from firebreak.matches import history, packing
from firebreak.matches.lifecycle import EndReason, MatchStatus, SeatControl, SeatKind, SeatRecord
from firebreak.matches.reading import Reading
from firebreak.matches.store import Loaded, MatchStore

FORMAT = "firebreak.match-export"
VERSION = 1  # the document's version: a reader refuses a version it does not know


class BadExport(ValueError):
    """The document is not an export this service reads."""


def public_log(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log's entries with the events they carry cut to what a spectator may see."""
    out = []
    for entry in entries:
        kept = dict(entry)
        for name in ("pre", "events"):
            if name in kept:
                kept[name] = visible_to(list(kept[name]), None)
        out.append(kept)
    return out


def reason_of(text: str) -> EndReason:
    """An end reason as a document spells it: FINISHED, as every surface does (or finished, as the archive stores
    it and documents exported before spelled it)."""
    return EndReason[text] if text in EndReason.__members__ else EndReason(text)


def spelled(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """A result (archive.records.result_json's form) with its end reason spelled as every surface spells it."""
    return None if result is None else {**result, "endReason": reason_of(result["endReason"]).name}


def document(row: dict[str, Any]) -> dict[str, Any]:
    """The export of an archive row (archive.records.match_row's columns); the end reasons spelled FINISHED,
    RESIGNED... as the match's own endReason (the archive stores them in lower case)."""
    return {"format": FORMAT, "version": VERSION, "id": row["match_id"], "title": row["title"],
            "seatCount": row["seat_count"], "options": row["options"], "seed": int(row["seed"]),
            "seats": row["seats"], "createdAt": row["created_at"], "startedAt": row["started_at"],
            "endedAt": row["ended_at"], "endReason": reason_of(row["end_reason"]).name,
            "finalVersion": row["final_version"], "log": public_log(row["log"]), "result": spelled(row["result"])}


async def export(store: MatchStore, loaded: Loaded) -> dict[str, Any]:
    """The export of an over match, from Redis or (once Redis let it go) the archive; raise NotArchivable for a
    match that is not over (or whose log cannot be read whole)."""
    if loaded.status is not MatchStatus.OVER:
        raise NotArchivable(f"match {loaded.id} is not over")
    found = await store.history(loaded.id)
    entries = [] if found is None else found[2]
    if len(entries) != loaded.version:
        raise NotArchivable(f"match {loaded.id}: its log holds {len(entries)} steps, its version is {loaded.version}")
    return document(match_row(loaded, entries))


def replay(doc: dict[str, Any]) -> dict[str, Any] | None:
    """Play an export's log through its title's engine from its seed; return the result as the service computes it
    (the document's `result` form; None: no result). Raise BadExport for a document this service cannot read."""
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise BadExport(f"not a {FORMAT} document of version {VERSION}")
    try:
        title = titles.get(doc["title"])
        seats, seed, options = int(doc["seatCount"]), int(doc["seed"]), dict(doc["options"])
        reason = reason_of(doc["endReason"])
        match = title.new_match(seats=seats, seed=seed, options=options)
        for entry in doc["log"]:
            history.step_events(match, entry)
        records = {int(s["seat"]): _record(s) for s in doc["seats"] if s["kind"] != "open"}
    except (DomainError, KeyError, TypeError, ValueError) as exc:  # an unknown title, an illegal action...
        raise BadExport(f"the document cannot be replayed: {exc}") from exc
    meta = {"title": title.id, "seats": str(seats), "options": packing.dumps(options), "seed": str(seed),
            "status": MatchStatus.OVER.value, "reason": reason.value}
    loaded = Loaded(id=str(doc.get("id", "")), meta=meta, seats=records, version=match.version,
                    stored=match.to_dict(), engine=match)
    return spelled(result_json(Reading.of(loaded, None).result()))


def _record(seat: dict[str, Any]) -> SeatRecord:
    """A seat record for the result's rules (who resigned); no token."""
    control = seat.get("control")
    return SeatRecord(str(seat.get("name", "")), SeatKind.BOT if seat["kind"] == "bot" else SeatKind.HUMAN,
                      seat.get("level"), player=seat.get("player"),
                      control=None if control is None else SeatControl(control))

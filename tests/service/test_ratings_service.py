"""Ratings through the running service: real API and worker processes, Redis, and the archive database (a SQLite
file; PostgreSQL for the kill -9). A rated match played out moves its players' and bots' ratings once; both surfaces
show them (leaderboard, me, my matches); a worker killed inside the rating transaction loses and doubles nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import psycopg
from redis import Redis

from firebreak.matches import keys
from tests import postgres
from tests.service import support as h
from tests.service.conftest import Client
from tests.service.players_support import codes, guest, rest

CREATE = """mutation($input: CreateMatchInput!) { createMatch(input: $input) { __typename
  ... on MatchCreated { matchId hostToken } ... on Problem { code message } } }"""
JOIN = """mutation($id: ID!) { joinMatch(input: {matchId: $id}) { __typename
  ... on SeatJoined { seat token } ... on Problem { code message } } }"""
MINE = """{ me { ratings { title value provisional games rank mu sigma }
  matches(status: OVER) { edges { node { id rated ratingChange { before after delta place provisional } } } } } }"""
BOARD = """query($t: String!, $first: Int!, $after: String) { leaderboard(title: $t, first: $first, after: $after) {
  edges { cursor node { rank player botLevel name handle rating provisional games } }
  pageInfo { endCursor hasNextPage } } }"""


def _created(c: Client, token: str | None, **input_: Any) -> dict[str, Any]:
    answer: dict[str, Any] = c.gql(CREATE, {"input": {"title": "greatfire", "seats": 3, **input_}}, token)
    created: dict[str, Any] = answer["createMatch"]
    return created


def _resigned_match(c: Client, base: str, access: str, rated: bool) -> str:
    """A 3-seat match of the player and two bots, which the player resigns at once (the match ends RESIGNED)."""
    created = _created(c, access, rated=rated)
    assert created["__typename"] == "MatchCreated", created
    match_id = created["matchId"]
    joined = c.gql(JOIN, {"id": match_id}, access)["joinMatch"]
    assert joined["__typename"] == "SeatJoined", joined
    for level in ("random", "greedy"):
        assert rest(base, "POST", f"/v1/matches/{match_id}/bots", created["hostToken"],
                    {"level": level}).status_code == 201
    assert rest(base, "POST", f"/v1/matches/{match_id}/resign", access).status_code == 200
    return match_id


def _me(base: str, access: str) -> dict[str, Any]:
    reply = rest(base, "GET", "/v1/me", access)
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def test_a_rated_match_moves_ratings_once_and_both_surfaces_show_them(redis_url: str, tmp_path: Path) -> None:
    with h.private_service(redis_url, tmp_path, "firebreak-ratings", workers=2, api=True,
                           FIREBREAK_DATA_DIR=str(tmp_path / "data")) as service, service.client() as c:
        base = service.base
        assert base is not None
        ann = guest(c, "ann")
        refused = _created(c, ann.access, rated=True, seed=7)
        assert (refused["__typename"], refused["code"]) == ("InvalidInput", "BAD_OPTIONS")
        created = _created(c, ann.access, rated=True)
        anonymous = c.gql(JOIN, {"id": created["matchId"]})["joinMatch"]
        assert (anonymous["__typename"], anonymous["code"]) == ("RatedNeedsPlayer", "RATED_NEEDS_PLAYER")
        by_rest = rest(base, "POST", f"/v1/matches/{created['matchId']}/seats", None, {"name": "x"})
        assert (by_rest.status_code, by_rest.json()["code"]) == (403, "RATED_NEEDS_PLAYER")

        unrated = _resigned_match(c, base, ann.access, rated=False)
        rated = _resigned_match(c, base, ann.access, rated=True)
        h.wait_for(lambda: _me(base, ann.access)["ratings"], "the rated match to be rated")
        (mine,) = _me(base, ann.access)["ratings"]
        assert (mine["title"], mine["games"], mine["provisional"], mine["rank"]) == ("greatfire", 1, True, 3)
        assert mine["value"] < 1500

        rows = {row["id"]: row for row in rest(base, "GET", "/v1/me/matches?status=OVER", ann.access).json()["items"]}
        assert rows[unrated]["rated"] is False and rows[unrated]["ratingChange"] is None
        change = rows[rated]["ratingChange"]
        assert rows[rated]["rated"] is True
        assert (change["before"], change["after"], change["place"], change["provisional"]) == (
            1500, mine["value"], 3, True)
        assert change["delta"] == change["after"] - change["before"] < 0

        exported = rest(base, "GET", f"/v1/matches/{rated}/export").json()["ratingChanges"]
        assert len(exported) == 3 and {e["key"] for e in exported} == {ann.player, "bot:random", "bot:greedy"}
        (own,) = [e for e in exported if e["key"] == ann.player]
        assert {k: v for k, v in own.items() if k not in ("seat", "key")} == change
        (seat,) = [s for s in rest(base, "GET", f"/v1/matches/{rated}/export").json()["seats"] if s.get("player")]
        assert seat["handle"] == _me(base, ann.access)["handle"]
        assert rest(base, "GET", f"/v1/matches/{unrated}/export").json()["ratingChanges"] == []

        data = c.gql(MINE, token=ann.access)["me"]
        assert data["ratings"][0]["value"] == mine["value"]
        nodes = {edge["node"]["id"]: edge["node"] for edge in data["matches"]["edges"]}
        assert nodes[rated]["ratingChange"] == change and nodes[unrated]["ratingChange"] is None

        first = c.gql(BOARD, {"t": "greatfire", "first": 2})["leaderboard"]
        assert first["pageInfo"]["hasNextPage"] is True
        second = c.gql(BOARD, {"t": "greatfire", "first": 2, "after": first["pageInfo"]["endCursor"]})["leaderboard"]
        entries = [edge["node"] for edge in first["edges"] + second["edges"]]
        assert [e["rank"] for e in entries] == [1, 2, 3] and not second["pageInfo"]["hasNextPage"]
        assert {e["botLevel"] for e in entries[:2]} == {"random", "greedy"}
        assert {e["name"] for e in entries[:2]} == {"random bot", "greedy bot"}
        assert (entries[2]["player"], entries[2]["name"], entries[2]["rating"]) == (ann.player, "ann", mine["value"])
        handle = _me(base, ann.access)["handle"]
        assert [e["handle"] for e in entries] == [None, None, handle]  # beside the name; a bot level has none
        assert entries[0]["rating"] > 1500 and all(e["games"] == 1 and e["provisional"] for e in entries)

        board = rest(base, "GET", "/v1/titles/greatfire/leaderboard?first=5").json()
        assert [(e["rank"], e["player"], e["botLevel"], e["rating"]) for e in board["items"]] == [
            (e["rank"], e["player"], e["botLevel"], e["rating"]) for e in entries]
        assert [e["handle"] for e in board["items"]] == [None, None, handle]
        assert rest(base, "GET", "/v1/titles/nope/leaderboard").status_code == 404
        bad = rest(base, "GET", "/v1/titles/greatfire/leaderboard?after=zz")
        assert (bad.status_code, bad.json()["code"]) == (422, "BAD_CURSOR")
        assert codes(c.post(BOARD, {"t": "nope", "first": 2}).json()) == ["TITLE_NOT_FOUND"]

        h.wait_for(lambda: not _outbox_left(service), "the finished-match outbox to drain")
        assert _me(base, ann.access)["ratings"][0]["games"] == 1  # applied once, however many jobs ran


def _outbox_left(service: h.Private) -> int:
    """How many finished-match outbox entries are left on the service's queue."""
    with Redis.from_url(service.settings.redis_url) as r:
        return int(r.zcard(keys.finished_pending(service.settings.queue)))


def _waiting_on_a_lock(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                           "AND query LIKE 'INSERT INTO ratings%'").fetchone()
        return row is not None and row[0] > 0


def test_a_worker_killed_inside_the_rating_transaction_loses_and_doubles_nothing(
        redis_url: str, tmp_path: Path, postgres_url: str) -> None:
    postgres_url = postgres.fresh_database(postgres_url, "ratings_kill")  # the session's server, a database of its own
    with h.private_service(redis_url, tmp_path, "firebreak-ratings-kill", workers=1, api=True,
                           FIREBREAK_DATABASE_URL=postgres_url, FIREBREAK_STALL_SECONDS="2",
                           FIREBREAK_TICK_SECONDS="0.2") as service, service.client() as c:
        base = service.base
        assert base is not None
        ann = guest(c, "ann")
        last_key = max(ann.player, "bot:random", "bot:greedy")
        with psycopg.connect(postgres_url) as blocker:  # holds the last key's row: the worker stops inside its update
            _resigned_match(c, base, ann.access, rated=False)  # the tables exist once a worker has started
            h.wait_for(lambda: _table_exists(postgres_url), "the ratings table")
            blocker.execute("INSERT INTO ratings (title, key, mu, sigma, games, updated) "
                            "VALUES ('greatfire', %s, 25, 1, 0, 0)", (last_key,))
            match_id = _resigned_match(c, base, ann.access, rated=True)
            h.wait_for(lambda: _waiting_on_a_lock(postgres_url), "the worker to wait inside its transaction")
            service.kill_workers()
            blocker.rollback()
        service.start_worker()
        h.wait_for(lambda: _me(base, ann.access)["ratings"], "the match to be rated after the kill", deadline=60)
        with psycopg.connect(postgres_url) as conn:
            rows = conn.execute("SELECT seat, key, games_after, mu_before FROM rating_changes WHERE match_id = %s "
                                "ORDER BY seat", (match_id,)).fetchall()
            games = dict(conn.execute("SELECT key, games FROM ratings WHERE title = 'greatfire'").fetchall())
        assert len(rows) == 3 and {row[2] for row in rows} == {1} and {row[3] for row in rows} == {25.0}
        assert games == {ann.player: 1, "bot:random": 1, "bot:greedy": 1}


def _table_exists(url: str) -> bool:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT to_regclass('public.ratings')").fetchone()
        return row is not None and row[0] is not None

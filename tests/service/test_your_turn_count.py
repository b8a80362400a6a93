"""The badge (issue 50): me { yourTurnCount } and GET /v1/me's yourTurnCount count the player's live matches that
wait on the player to act, read from the my-matches index, as real matches between two signed-in players move."""

from __future__ import annotations

from typing import Any

from tests.service.conftest import Client
from tests.service.players_support import Signed, guest, rest
from tests.service.support import Setup, act, create, state, wait_for
from tests.service.test_my_matches import seat_player

COUNT = "query { me { id yourTurnCount matches(first: 100) { edges { node { id yourTurn } } } } }"


def counted(c: Client, server: str, who: Signed) -> int:
    """The player's badge, the same over GraphQL and REST, and the number of matches my matches marks as theirs."""
    me = c.gql(COUNT, None, who.access)["me"]
    over_rest = rest(server, "GET", "/v1/me", who.access)
    assert over_rest.status_code == 200, over_rest.text
    assert over_rest.json()["yourTurnCount"] == me["yourTurnCount"]
    assert me["yourTurnCount"] == sum(edge["node"]["yourTurn"] for edge in me["matches"]["edges"])
    count: int = me["yourTurnCount"]
    return count


def waiting_on(c: Client, matches: list[Setup], seat: int) -> int:
    """How many of the matches have this seat among those to act (read from each match itself)."""
    return sum(seat in state(c, s.match_id, None)["toAct"] for s in matches)


def two_players(c: Client, ann: Signed, bob: Signed, seed: int) -> Setup:
    """A started 2-seat match: ann in seat 0, bob in seat 1."""
    s = create(c, 2, seed)
    seat_player(c, s, ann, 0)
    seat_player(c, s, bob, 1)
    return s


def test_the_badge_counts_the_matches_that_wait_on_the_player(client: Client, server: str) -> None:
    c = client
    ann, bob = guest(c, "ann"), guest(c, "bob")
    assert counted(c, server, ann) == 0
    matches = [two_players(c, ann, bob, seed) for seed in (0, 1, 2)]
    waiting = create(c, 2, 3)  # a waiting match (bob has not joined) waits on nobody
    seat_player(c, waiting, ann, 0)

    def agree() -> tuple[int, int] | None:
        want = (waiting_on(c, matches, 0), waiting_on(c, matches, 1))
        return want if (counted(c, server, ann), counted(c, server, bob)) == want else None

    before = wait_for(agree, "the badges to match the matches")
    assert sum(before) >= len(matches)  # every started match waits on someone
    # ann acts wherever she is to act until the turn passes: her badge falls to 0, and bob's follows the matches
    moved = 0
    for s in matches:
        for _ in range(50):
            m: dict[str, Any] = state(c, s.match_id, s.humans[0])
            if not m["legalActions"] or m["status"] != "ACTIVE":
                break
            done = act(c, s.match_id, s.humans[0], m["legalActions"][0], m["version"])
            assert done["__typename"] == "ActionAccepted", done
            moved += 1
    assert moved >= before[0] > 0
    after = wait_for(agree, "the badges to follow the moves")
    assert after[0] == 0 and after[1] == waiting_on(c, matches, 1)


def test_the_badge_needs_a_player(client: Client, server: str) -> None:
    answer = client.http.post("/graphql", json={"query": "{ me { yourTurnCount } }"})
    assert answer.json()["data"]["me"] is None
    assert rest(server, "GET", "/v1/me").json()["code"] == "UNAUTHENTICATED"

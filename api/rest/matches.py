"""REST matches: the lobby listing, creating a match, and reading one as the caller may see it."""

from __future__ import annotations

from firebreak.api import invite_links
from firebreak.api.bounds import MAX_PAGE
from firebreak.api.rest import requests as R
from firebreak.api.rest.convert import match_json
from firebreak.api.rest.problems import for_code, problem
from firebreak.api.rest.requests import choice
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Param, Reply
from firebreak.domain import titles
from firebreak.matches import listing
from firebreak.matches.lifecycle import MatchStatus
from firebreak.matches.lobby import LobbyError
from firebreak.matches.reading import Reading
from firebreak.matches.refusals import Refusal
from firebreak.matches.rematch import Rematches
from firebreak.matches.rematch_offers import Offers
from firebreak.matches.store import Loaded


def location(match_id: str) -> str:
    """The path of a match."""
    return f"/v1/matches/{match_id}"


async def load(call: Call) -> Loaded:
    """The match of the path, or MATCH_NOT_FOUND."""
    loaded = await call.services.store.load(call.params["id"])
    if loaded is None:
        raise problem(Refusal.MATCH_NOT_FOUND, f"no match {call.params['id']!r}")
    return loaded


async def read(call: Call) -> Loaded:
    """The match of the path to read it (from the archive once Redis has let a finished one go), or
    MATCH_NOT_FOUND."""
    loaded = await call.services.store.read(call.params["id"])
    if loaded is None:
        raise problem(Refusal.MATCH_NOT_FOUND, f"no match {call.params['id']!r}")
    return loaded


async def list_matches(call: Call) -> Reply:
    """A page of the lobby, each match read as the caller where the caller sits in it (a seat's token or the
    player's seat)."""
    status = MatchStatus[call.params["status"]]
    first = max(1, min(call.params["first"], MAX_PAGE))
    caller = await call.context.caller()
    filters = listing.Filters(call.params["title"], call.params["seatCount"], call.params["freeSeats"])
    page, more, cursor = await listing.page(call.services.lobby, status, first, call.params["after"], filters)
    items = [match_json(Reading.of(loaded, loaded.seat_of(caller))) for loaded in page]
    return Reply({"items": items, "endCursor": cursor, "hasNextPage": more})


async def create_match(call: Call) -> Reply:
    """Create a waiting match; 201 with its host token (shown once) and a Location."""
    body = call.form(R.CreateMatch)
    clock = body.clock
    principal = await call.context.principal()
    try:
        created = await call.services.lobby.create(
            body.title, body.seats, body.options, body.seed,
            None if clock is None else (clock.initialSeconds, clock.incrementSeconds),
            None if clock is None else clock.perMoveSeconds,
            bool(body.private), None if principal is None else principal.player.id, rated=bool(body.rated))
    except LobbyError as exc:
        raise for_code(exc.code, str(exc)) from None
    loaded = await call.services.store.load(created.match_id)
    assert loaded is not None
    return Reply({"matchId": created.match_id, "hostToken": created.host_token, "inviteCode": created.invite_code,
                  "inviteUrl": invite_links.for_request(call.services.settings.invite_url, created.invite_code,
                                                        call.request),
                  "match": match_json(Reading.of(loaded, None))}, 201, {"Location": location(created.match_id)})


async def get_match(call: Call) -> Reply:
    """A match as the caller may see it: a seat token reads as that seat, no token (or the host's) as a
    spectator; any other token is refused."""
    loaded = await read(call)
    body = match_json(Reading.of(loaded, await call.context.seat_in(loaded)))
    found = offer = None
    if loaded.status is MatchStatus.OVER:
        found = await Rematches(call.services.lobby).rematch_of(loaded.id)
        offer = await Offers(call.services.lobby).read(loaded.id)
    return Reply({**body, "rematch": None if found is None else {"id": found},
                  "rematchOffer": None if offer is None else offer.to_json()})


STATUS = Param("status", "query", choice(s.name for s in MatchStatus), "The matches of this status.",
               default=MatchStatus.WAITING.name)
FIRST = Param("first", "query", int, f"How many matches (clamped to 1-{MAX_PAGE}).", default=20)
AFTER = Param("after", "query", str, "The endCursor of the previous page.")
TITLE = Param("title", "query", str, "Only matches of this title id.")
SEAT_COUNT = Param("seatCount", "query", int, "Only matches of this many seats.")
FREE_SEATS = Param("freeSeats", "query", int,
                   "Only matches with at least this many open seats (waiting ones).")
_FIRST_TITLE = titles.all_titles()[0]
CREATE_EXAMPLE = {"title": _FIRST_TITLE.id, "seats": _FIRST_TITLE.min_seats}

# What a client (or a stateful fuzzer) does next with a new match: read it, take a seat, seat a bot or call it off
# with the host token, read a seat, its events.
NEW_ID = ("id", "$response.body#/matchId")
HOST = ("header.Authorization", "Bearer {$response.body#/hostToken}")
CREATED_LINKS = (("getMatch", "getMatch", (NEW_ID,)), ("joinMatch", "joinMatch", (NEW_ID,)),
                 ("addBot", "addBot", (NEW_ID, HOST)), ("cancelMatch", "cancelMatch", (NEW_ID, HOST)),
                 ("getFirstSeat", "getSeat", (NEW_ID, ("seat", "0"))), ("listEvents", "listEvents", (NEW_ID,)))

OPERATIONS = [
    Operation("GET", "/v1/matches", "listMatches", "matches", "List matches (the lobby)",
              "Matches of a status, newest first, paged like GraphQL's matches. Each is read as the bearer token's "
              "holder where the token is one of its seats' (else as a spectator): a listing never refuses a token. "
              "Private matches are never listed. Filtered by title, seatCount or freeSeats, a page examines at most "
              "500 matches after the cursor, so it may come back short (even empty) with hasNextPage true: go on "
              "from its endCursor.",
              list_matches, response="MatchPage", params=(STATUS, FIRST, AFTER, TITLE, SEAT_COUNT, FREE_SEATS),
              auth=Auth.OPTIONAL),
    Operation("POST", "/v1/matches", "createMatch", "matches", "Create a match",
              "Create a waiting match; it starts by itself when every seat is taken. The hostToken in the answer "
              "(shown once) lets its holder add bots and invite players; with private: true the match is not "
              "listed and the answer's inviteCode (shown once) lets whoever is given it join (POST "
              "/v1/matches/join); with rated: true, once played out it moves its players' and bots' ratings "
              "(README: How ratings work).", create_match, success=201, response="MatchCreated",
              body=R.CreateMatch, example=CREATE_EXAMPLE, write=True, auth=Auth.OPTIONAL,
              codes=(Refusal.BAD_OPTIONS, Refusal.UNKNOWN_TITLE), headers=("Location",), links=CREATED_LINKS),
    Operation("GET", "/v1/matches/{id}", "getMatch", "matches", "Read a match (your view, legal actions)",
              "The match as the caller may see it: with a seat token, that seat's view and legalActions (submit "
              "one to POST /v1/matches/{id}/actions with version as expectedVersion); without a token (or with the "
              "host token), a spectator's view.", get_match, response="Match", params=(PATH_ID,),
              auth=Auth.OPTIONAL, codes=(Refusal.MATCH_NOT_FOUND,)),
]

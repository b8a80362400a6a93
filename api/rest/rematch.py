"""REST rematch offers: offer to play an over match again, accept or decline the standing offer (GraphQL's
offerRematch, acceptRematch, declineRematch; POST /v1/matches/{id}/rematch is offerRematch's older name)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from firebreak.api.rest import callers
from firebreak.api.rest.convert import match_json
from firebreak.api.rest.matches import location
from firebreak.api.rest.problems import for_code, problem
from firebreak.api.rest.table import PATH_ID, Auth, Call, Operation, Reply
from firebreak.matches.callers import Caller
from firebreak.matches.lobby import LobbyError
from firebreak.matches.reading import Reading
from firebreak.matches.refusals import Refusal
from firebreak.matches.rematch_offers import Answered, Offers
from firebreak.social.guards import GuardedOffers

Step = Callable[[Offers, str, Caller], Awaitable[Answered]]


async def _answer(call: Call, step: Step) -> Reply:
    """Run an offer step for the caller: 200 with the rematch's id, the caller's seat, the match once made (and
    its Location) and the offer."""
    context = call.context
    context.check_not_blocked()
    caller = await callers.playing_caller(call)
    try:
        answered = await step(GuardedOffers(call.services.lobby), call.params["id"], caller)
    except LobbyError as exc:
        if exc.code == Refusal.UNAUTHORIZED:
            await context.token_refused(caller)
        raise for_code(exc.code, str(exc)) from None
    rematched = answered.rematched
    body = {"matchId": rematched.match_id, "seat": rematched.seat, "match": None,
            "offer": answered.offer.to_json()}
    if not answered.created:
        return Reply(body)
    loaded = await call.services.store.load(rematched.match_id)
    if loaded is None:
        raise problem(Refusal.MATCH_NOT_FOUND, "the rematch has expired")
    body["match"] = match_json(Reading.of(loaded, loaded.seat_of(caller)))
    return Reply(body, headers={"Location": location(rematched.match_id)})


async def offer(call: Call) -> Reply:
    """Offer a rematch of an over match, or accept the standing offer."""
    return await _answer(call, Offers.offer)


async def accept(call: Call) -> Reply:
    """Accept the standing rematch offer."""
    return await _answer(call, Offers.accept)


async def decline(call: Call) -> Reply:
    """Decline the standing rematch offer."""
    return await _answer(call, Offers.decline)


SAME = ("Asked by any seat holder of the over match (its seat token or player credential); every caller, however "
        "many and wherever, gets the same rematch id, and GET /v1/matches/{id} of the old one shows the offer as "
        "rematchOffer and, once made, the match as rematch.")
OFFER = ("Offer a new match of the same title, options, clock, seat count and ratedness with the same occupants "
         "(bots of the same levels, the same players, and each person's seat token of the old match working in the "
         "new one), the seat order rotated by one (old seat i sits at (i + 1) mod seatCount); or, when an offer "
         "stands, accept it. The other persons are told (rematchOffered) and answer; bot seats accept at once; the "
         "match is made, and starts, once every person accepted (match is then set, with a Location header); the "
         "offer expires after FIREBREAK_REMATCH_OFFER_SECONDS. ")
CODES = (Refusal.MATCH_NOT_FOUND, Refusal.MATCH_NOT_OVER, Refusal.FORBIDDEN_SCOPE, Refusal.NOT_ACCEPTED)
ANSWER_CODES = (*CODES, Refusal.NO_REMATCH_OFFER)

OPERATIONS = [
    Operation("POST", "/v1/matches/{id}/rematch-offer", "offerRematch", "matches", "Offer to play an over match "
              "again", OFFER + SAME, offer, response="Rematched", params=(PATH_ID,), auth=Auth.REQUIRED, write=True,
              codes=CODES, headers=("Location",)),
    Operation("POST", "/v1/matches/{id}/rematch-offer/accept", "acceptRematch", "matches", "Accept a rematch offer",
              "Accept the standing rematch offer (NO_REMATCH_OFFER: none stands); the last acceptance makes the "
              "rematch, which starts at once (match is then set, with a Location header). " + SAME, accept,
              response="Rematched", params=(PATH_ID,), auth=Auth.REQUIRED, write=True, codes=ANSWER_CODES,
              headers=("Location",)),
    Operation("POST", "/v1/matches/{id}/rematch-offer/decline", "declineRematch", "matches",
              "Decline a rematch offer", "Decline the standing rematch offer (NO_REMATCH_OFFER: none stands): it ends "
              "for everyone (rematchDeclined), and anyone may offer again. " + SAME, decline, response="Rematched",
              params=(PATH_ID,), auth=Auth.REQUIRED, write=True, codes=ANSWER_CODES),
    Operation("POST", "/v1/matches/{id}/rematch", "rematch", "matches", "Offer to play an over match again (older "
              "name)", "The same as POST /v1/matches/{id}/rematch-offer, kept for older clients: " + OFFER + SAME,
              offer, response="Rematched", params=(PATH_ID,), auth=Auth.REQUIRED, write=True, codes=CODES,
              headers=("Location",)),
]

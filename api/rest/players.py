"""REST players: sign in as a guest, refresh and end sessions, the signed-in player, personal access tokens and
linking the operator's identity (GraphQL's signInAsGuest, refreshSession, signOut, me, createAccessToken,
revokeAccessToken, linkIdentity)."""

from __future__ import annotations

from typing import Any

from firebreak.api import language, leaderboards
from firebreak.api.ratelimit import rate_limited
from firebreak.api.rest import callers
from firebreak.api.rest import requests as R
from firebreak.api.rest.problems import player_refusal, problem
from firebreak.api.rest.ratings import rating_json
from firebreak.api.rest.table import Auth, Call, Operation, Param, Reply
from firebreak.matches import mypage
from firebreak.matches.refusals import Refusal
from firebreak.players.errors import HandleChangesLimited, PlayerError, Reason
from firebreak.players.errors import Unauthenticated as Refused
from firebreak.players.records import Player, Scope, Session, TokenInfo


def player_json(player: Player) -> dict[str, Any]:
    """A player as others may see it."""
    return {"id": player.id, "name": player.name, "handle": player.handle, "kind": player.kind.name}


def session_json(session: Session) -> dict[str, Any]:
    """A signed-in session (its secrets are shown in this answer only)."""
    return {"accessToken": session.access_token, "accessTokenExpiresIn": session.access_expires_in,
            "refreshToken": session.refresh_token, "refreshTokenExpiresIn": session.refresh_expires_in,
            "player": player_json(session.player)}


def token_json(info: TokenInfo) -> dict[str, Any]:
    """A personal access token as listed (never its secret)."""
    return {"id": info.id, "name": info.name, "scopes": [scope.name for scope in sorted(info.scopes)],
            "created": info.created, "expires": info.expires}


async def _refused(call: Call, error: PlayerError) -> None:
    """Count a refused credential given in the body as a failed authentication (RATE_LIMITED past the limit)."""
    if isinstance(error, Refused) and error.reason is not Reason.MISSING:
        await call.context.auth_failed()


async def sign_in_as_guest(call: Call) -> Reply:
    """Sign a device's guest in (made on its first sign-in): a new session. Rate limited per client."""
    await call.context.charge_registration()
    try:
        guest = call.form(R.SignInAsGuest)
        session = await call.services.players.sessions.sign_in_as_guest(guest.name, guest.deviceId)
    except PlayerError as exc:
        raise player_refusal(exc) from None
    return Reply(session_json(session))


async def refresh_session(call: Call) -> Reply:
    """Swap a refresh token for a new session; an already used one signs its whole session out."""
    call.context.check_not_blocked(credential=True)
    try:
        session = await call.services.players.sessions.refresh(call.form(R.RefreshSession).refreshToken)
    except PlayerError as exc:
        await _refused(call, exc)
        raise player_refusal(exc) from None
    return Reply(session_json(session))


async def sign_out(call: Call) -> Reply:
    """End the credential's session, or (everywhere=true) every session and access token of the player."""
    principal = await callers.principal(call, session=True)
    everywhere = bool(call.params["everywhere"])
    sessions = call.services.players.sessions
    try:
        await sessions.sign_out_principal(principal, everywhere)
    except PlayerError as exc:
        raise player_refusal(exc) from None
    await call.services.signed_out(principal, everywhere)
    return Reply({"everywhere": everywhere})


async def get_me(call: Call) -> Reply:
    """The signed-in player and its personal access tokens."""
    principal = await callers.principal(call)
    listing = await call.services.players.access.listing(principal.player.id)
    rated = await leaderboards.ratings_of(call.services, principal.player.id)
    waiting = await mypage.turn_count(call.services.store, principal.player.id)
    return Reply({**player_json(principal.player), "accessTokens": [token_json(t) for t in listing],
                  "ratings": [rating_json(rating) for rating in rated], "yourTurnCount": waiting,
                  "locale": principal.player.locale or None, "language": language.chosen()})


async def list_languages(_: Call) -> Reply:
    """The languages the service speaks."""
    return Reply({"items": [{"code": code, "name": language.endonym(code)} for code in language.languages()]})


async def update_profile(call: Call) -> Reply:
    """Change the signed-in player's handle and/or display name (a handle at most so often a day)."""
    principal = await callers.principal(call, session=True)
    body = call.form(R.UpdateProfile)
    locale = None if body.locale is None else language.saved_locale(body.locale)
    if body.locale is not None and locale is None:
        raise problem(Refusal.UNSUPPORTED_LOCALE, f"the service speaks {', '.join(language.languages())}")
    try:
        player = await call.services.players.directory.update_profile(principal.player.id, body.handle, body.name,
                                                                      locale)
    except HandleChangesLimited as exc:
        raise rate_limited(exc.retry_after) from None
    except PlayerError as exc:
        raise player_refusal(exc) from None
    return Reply({"player": player_json(player), "locale": player.locale or None})


async def delete_account(call: Call) -> Reply:
    """Delete the signed-in player's account (players/deletion.py); 202: the workers finish the rest."""
    principal = await callers.principal(call, session=True)
    try:
        at = await call.services.delete_account(principal)
    except PlayerError as exc:
        raise player_refusal(exc) from None
    return Reply({"deletedAt": at}, 202)


async def list_tokens(call: Call) -> Reply:
    """The player's live personal access tokens, oldest first."""
    principal = await callers.principal(call)
    listing = await call.services.players.access.listing(principal.player.id)
    return Reply({"items": [token_json(t) for t in listing]})


async def create_token(call: Call) -> Reply:
    """Make a personal access token (shown once); 201."""
    principal = await callers.principal(call, session=True)
    body = call.form(R.CreateAccessToken)
    try:
        token, listing = await call.services.players.access.create(
            principal, body.name, [Scope[name] for name in body.scopes], body.expiresInSeconds)
    except PlayerError as exc:
        raise player_refusal(exc) from None
    return Reply({"token": token, "accessToken": token_json(listing)}, 201)


async def revoke_token(call: Call) -> Reply:
    """Revoke one of the player's personal access tokens."""
    principal = await callers.principal(call, session=True)
    try:
        await call.services.players.access.revoke(principal.player.id, call.params["tokenId"])
    except PlayerError as exc:
        raise player_refusal(exc) from None
    return Reply({"id": call.params["tokenId"]})


async def link_identity(call: Call) -> Reply:
    """Link the operator's identity (its JWT in the body) to the signed-in player, who keeps its id and matches."""
    principal = await callers.principal(call, session=True)
    try:
        linked = await call.services.players.link_external(principal.player, call.form(R.LinkIdentity).token)
    except PlayerError as exc:
        await _refused(call, exc)
        raise player_refusal(exc) from None
    return Reply({"player": player_json(linked)})


EVERYWHERE = Param("everywhere", "query", bool, "true: also every other session and access token of the player.",
                   default=False)
TOKEN_ID = Param("tokenId", "path", str, "The token's id.", required=True)
# What a signed-in guest does next with the session's access token (a stateful fuzzer follows these too)
SIGNED_IN = ("header.Authorization", "Bearer {$response.body#/accessToken}")
SESSION_LINKS = tuple((op, op, (SIGNED_IN,)) for op in ("getMe", "listAccessTokens", "createAccessToken",
                                                       "listInvitations", "listMySeeks", "placeSeek", "listMyMatches",
                                                       "signOut"))
MANAGING = (Refusal.FORBIDDEN_SCOPE,)  # account operations need a session (or the operator's JWT), not a token
OPERATIONS = [
    Operation("POST", "/v1/auth/guest", "signInAsGuest", "players", "Sign in as a guest",
              "Sign a device's guest in (the player is made on the device's first sign-in, named so): a session, "
              "whose accessToken is the player's bearer credential for a few minutes and whose refreshToken swaps "
              "for the next session. Rate limited per client (429 RATE_LIMITED).", sign_in_as_guest,
              response="Session", body=R.SignInAsGuest, links=SESSION_LINKS,
              example={"name": "ann", "deviceId": "a-random-id-kept-on-the-device"}, write=True, auth=Auth.SIGN_IN,
              codes=(Refusal.BAD_NAME, Refusal.BAD_DEVICE_ID)),
    Operation("POST", "/v1/auth/refresh", "refreshSession", "players", "Refresh a session",
              "Swap a refresh token for a new session (new access and refresh tokens; the old refresh token stops "
              "working). Presenting one already used signs its whole session out (401, reason reused).",
              refresh_session, response="Session", body=R.RefreshSession, example={"refreshToken": "fbr_..."},
              write=True, auth=Auth.SIGN_IN, codes=(Refusal.UNAUTHENTICATED,)),
    Operation("POST", "/v1/auth/sign-out", "signOut", "players", "Sign out",
              "End the bearer credential's session (its refresh and access tokens stop working); everywhere=true "
              "ends every session of the player. Needs a session, not a personal access token (revoke that).",
              sign_out, response="SignedOut", params=(EVERYWHERE,), auth=Auth.PLAYER, write=True, codes=MANAGING),
    Operation("GET", "/v1/me", "getMe", "players", "The signed-in player",
              "The player of the bearer credential (a session's access token, a personal access token or the "
              "operator's JWT), its personal access tokens, its ratings and yourTurnCount (the badge: how many of "
              "its live matches wait on it to act).", get_me, response="Me", auth=Auth.PLAYER),
    Operation("GET", "/v1/languages", "listLanguages", "players", "The languages the service speaks",
              "Each language labels, problem titles and details are written in (code and name in itself): what "
              "Accept-Language negotiates among and what PATCH /v1/me's locale takes.", list_languages,
              response="LanguageList"),
    Operation("PATCH", "/v1/me", "updateProfile", "players", "Change the handle, display name or locale",
              "Change the signed-in player's handle (unique across the service, compared case-folded after NFKC: "
              "the old one is freed at once), display name and/or saved locale (the language answers are written "
              "in when a request's Accept-Language names none the service speaks; \"\" "
              "forgets it); a member left out stays as it is, and a refused one changes nothing. A handle can be "
              "changed FIREBREAK_HANDLE_CHANGES_PER_DAY times in any 24 hours "
              "(429 RATE_LIMITED with Retry-After past that).", update_profile, response="ProfileUpdated",
              body=R.UpdateProfile, example={"handle": "ann", "name": "Ann"}, auth=Auth.PLAYER, write=True,
              codes=(*MANAGING, Refusal.BAD_HANDLE, Refusal.HANDLE_TAKEN, Refusal.BAD_NAME,
                     Refusal.UNSUPPORTED_LOCALE)),
    Operation("DELETE", "/v1/me", "deleteAccount", "players", "Delete my account",
              "Delete the signed-in player's account, for good. Needs a session begun (or an operator's JWT issued) "
              "at most FIREBREAK_DELETION_REAUTH_SECONDS ago (403 REAUTHENTICATE otherwise: sign in again, then ask), "
              "never a personal access token. At once: every session, refresh token and personal access token stops "
              "working, and the handle, the device and the operator's identity are freed (the same device signs in "
              "as a new guest). Then, within moments: live seats resign, waiting seats are left, seeks cancelled, "
              "invitations dropped, pushes, events and ratings removed; finished matches keep the seat, shown as a "
              "deleted player (docs/guides/players.md).", delete_account, success=202, response="AccountDeleted",
              auth=Auth.PLAYER, write=True, codes=(*MANAGING, Refusal.REAUTHENTICATE)),
    Operation("GET", "/v1/me/tokens", "listAccessTokens", "players", "List personal access tokens",
              "The player's live personal access tokens (never their secrets).", list_tokens,
              response="AccessTokenList", auth=Auth.PLAYER),
    Operation("POST", "/v1/me/tokens", "createAccessToken", "players", "Make a personal access token",
              "A long-lived, revocable credential for a bot or script, with scopes PLAY and/or BOT (a seat joined "
              "with a BOT token is flagged as played by a program). The token is shown only this once.",
              create_token, success=201, response="AccessTokenCreated", body=R.CreateAccessToken,
              example={"name": "my bot", "scopes": ["BOT"]}, auth=Auth.PLAYER, write=True,
              codes=(*MANAGING, Refusal.BAD_NAME, Refusal.BAD_SCOPES, Refusal.TOO_MANY_TOKENS)),
    Operation("DELETE", "/v1/me/tokens/{tokenId}", "revokeAccessToken", "players", "Revoke a personal access token",
              "The token stops working at once.", revoke_token, response="AccessTokenRevoked", params=(TOKEN_ID,),
              auth=Auth.PLAYER, write=True, codes=(*MANAGING, Refusal.TOKEN_NOT_FOUND)),
    Operation("POST", "/v1/me/link", "linkIdentity", "players", "Link the operator's identity",
              "Link the account a JWT of the operator's identity provider vouches for to the signed-in player (a "
              "guest, usually): the player keeps its id and its matches, and that provider's JWTs sign it in from "
              "then on.", link_identity, response="IdentityLinked", body=R.LinkIdentity,
              example={"token": "<the operator's JWT>"}, auth=Auth.PLAYER, write=True,
              codes=(*MANAGING, Refusal.IDENTITY_TAKEN, Refusal.ALREADY_LINKED)),
]

"""Helpers for the players tests over HTTP: the GraphQL documents, a guest's sign-in on either surface, and a REST
call that returns status, headers and body."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import httpx

from tests.service.conftest import Client

GUEST = """mutation($input: SignInAsGuestInput!) { signInAsGuest(input: $input) { __typename
  ... on Session { accessToken accessTokenExpiresIn refreshToken refreshTokenExpiresIn player { id name kind } }
  ... on Problem { code message } } }"""
REFRESH = """mutation($t: String!) { refreshSession(input: {refreshToken: $t}) { __typename
  ... on Session { accessToken refreshToken player { id } } ... on Unauthenticated { code reason }
  ... on Problem { code message } } }"""
SIGN_OUT = """mutation($e: Boolean!) { signOut(input: {everywhere: $e}) { __typename
  ... on SignedOut { everywhere } ... on Unauthenticated { code reason } ... on Problem { code message } } }"""
ME = "{ me { id name kind accessTokens { id name scopes expires } } }"
CREATE_TOKEN = """mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { __typename
  ... on AccessTokenCreated { token accessToken { id name scopes expires } } ... on Problem { code message } } }"""
REVOKE_TOKEN = """mutation($id: ID!) { revokeAccessToken(input: {id: $id}) { __typename
  ... on AccessTokenRevoked { id } ... on Problem { code message } } }"""
LINK = """mutation($t: String!) { linkIdentity(input: {token: $t}) { __typename
  ... on IdentityLinked { player { id name kind } } ... on Unauthenticated { code reason }
  ... on Problem { code message } } }"""
JOIN = """mutation($input: JoinMatchInput!) { joinMatch(input: $input) { __typename
  ... on SeatJoined { matchId seat token started player } ... on Unauthenticated { code reason }
  ... on Problem { code message } } }"""


def device() -> str:
    """A fresh device id."""
    return secrets.token_urlsafe(24)


@dataclass
class Signed:
    """A guest's session as an answer gave it."""

    player: str
    name: str
    access: str
    refresh: str


def guest(c: Client, name: str = "ann", device_id: str | None = None) -> Signed:
    """Sign a guest in over GraphQL (a fresh device unless given)."""
    answer = c.gql(GUEST, {"input": {"name": name, "deviceId": device_id or device()}})["signInAsGuest"]
    assert answer["__typename"] == "Session", answer
    return Signed(answer["player"]["id"], answer["player"]["name"], answer["accessToken"], answer["refreshToken"])


def rest(base: str, method: str, path: str, token: str | None = None, body: Any = None,
         headers: dict[str, str] | None = None) -> httpx.Response:
    """One REST call (token: the bearer credential)."""
    sent = dict(headers or {})
    if token:
        sent["authorization"] = f"Bearer {token}"
    return httpx.request(method, f"{base}{path}", json=body, headers=sent, timeout=30)


def codes(body: dict[str, Any]) -> list[str]:
    """The codes of a GraphQL answer's errors."""
    return [e.get("extensions", {}).get("code") for e in body.get("errors", [])]

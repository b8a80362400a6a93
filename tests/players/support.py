"""Helpers for the players layer's tests: run a body over a real Redis, forge JWTs, serve a JWKS over HTTP."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import secrets
import threading
import traceback
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from redis.asyncio import Redis

from firebreak.players.authenticate import Authenticator
from firebreak.players.config import PlayerSettings
from firebreak.players.errors import Unauthenticated

T = TypeVar("T")
SECRET = "a test session secret that is long enough for HS256"
ISSUER = "https://id.example.test/"
AUDIENCE = "an-app"


def run(redis_url: str, body: Callable[[Authenticator], Awaitable[T]],
        settings: PlayerSettings | None = None) -> T:
    """Run body over an Authenticator on a fresh client of the test Redis (in its own event loop)."""
    async def go() -> T:
        redis = Redis.from_url(redis_url, decode_responses=True, max_connections=100)
        try:
            return await body(Authenticator.build(redis, settings or PlayerSettings()))
        finally:
            await redis.aclose()

    return asyncio.run(go())


def device() -> str:
    """A fresh device id."""
    return secrets.token_urlsafe(24)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hand_signed(header: dict[str, Any], claims: dict[str, Any], key: bytes | None) -> str:
    """A JWT built by hand: HMAC-SHA256 with any bytes as the key (a public key's PEM too), or unsigned (None)."""
    signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(claims).encode())}"
    signature = b"" if key is None else hmac.new(key, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{_b64(signature)}"


async def refused(call: Awaitable[Any], secret: str) -> Unauthenticated:
    """Await a call that must raise Unauthenticated; check that neither the error nor its traceback quotes any part
    of the credential; return the error."""
    try:
        await call
    except Unauthenticated as exc:
        text = "".join(traceback.format_exception(exc)) + repr(exc.args)
        for part in _parts(secret):
            assert part not in text, f"the error quotes part of the credential: {part!r}"
        return exc
    raise AssertionError("the credential was accepted")


def _parts(secret: str) -> set[str]:
    """Every 8-character window of the credential's pieces (split at its dots)."""
    return {piece[i:i + 8] for piece in secret.split(".") for i in range(max(1, len(piece) - 7)) if len(piece) >= 8}


class Jwks:
    """A JWKS endpoint served over HTTP on 127.0.0.1 from RSA keys made here; counts the requests it answers."""

    def __init__(self) -> None:
        self.private: dict[str, rsa.RSAPrivateKey] = {}
        self.served: list[str] = []  # the kids the endpoint lists now
        self.requests = 0
        jwks = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                jwks.requests += 1
                keys = [jwks.public_jwk(kid) for kid in jwks.served]
                body = json.dumps({"keys": keys}).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/.well-known/jwks.json"

    def new_key(self, kid: str) -> None:
        """Make an RSA key with that kid (not served until listed in `served`)."""
        self.private[kid] = rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def public_jwk(self, kid: str) -> dict[str, Any]:
        """The public JWK of a key."""
        jwk: dict[str, Any] = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.private[kid].public_key()))
        return {**jwk, "kid": kid, "alg": "RS256", "use": "sig"}

    def sign(self, claims: dict[str, Any], kid: str, header_kid: str | None = None) -> str:
        """A token signed RS256 with that key (its header naming header_kid, if given)."""
        return jwt.encode(claims, self.private[kid], algorithm="RS256", headers={"kid": header_kid or kid})

    @classmethod
    @contextmanager
    def one_key(cls) -> Iterator[Jwks]:
        """An endpoint serving one key, "k1", for the block."""
        endpoint = cls()
        endpoint.new_key("k1")
        endpoint.served = ["k1"]
        with endpoint.serving():
            yield endpoint

    @contextmanager
    def serving(self) -> Iterator[Jwks]:
        """Serve the endpoint in a thread for the block."""
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.server.shutdown()
            self.server.server_close()
            thread.join()

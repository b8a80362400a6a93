"""A real local Web Push service (RFC 8030) for the tests: it verifies each push's VAPID JWT (RFC 8292: ES256
signature against the service's served public key, aud the endpoint's origin, exp within 24 hours) and decrypts its
payload (RFC 8291 aes128gcm) with the browser side's private key and auth secret, as a browser would; it answers
201, or what a path was told (404, 410, 429 with Retry-After, 500), and can hold an answer until released."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tests.service.http_peer import QuietHandler, http_peer


def b64(raw: bytes) -> str:
    """Base64url without padding."""
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    """Base64url, padded or not."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One browser's side of a subscription: its P-256 key pair and 16-byte auth secret."""

    name: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        """The public key as PushSubscription.toJSON() gives it."""
        return b64(self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                      serialization.PublicFormat.UncompressedPoint))


@dataclass(frozen=True)
class Got:
    """One push as the service got it: its path, headers, decrypted payload (None: not decryptable) and what was
    wrong with its VAPID authorization ("" when valid)."""

    path: str
    headers: dict[str, str]
    payload: dict[str, Any] | None
    vapid_error: str


@dataclass
class PushService:
    """The service's base URL, the browsers subscribed at it, the VAPID key it trusts, what it got and answers."""

    base: str = ""
    vapid_key: str = ""   # the application server key it was given (the served public key)
    browsers: dict[str, Browser] = field(default_factory=dict)
    answers: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # path name -> (status, retry-after)
    got: list[Got] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    held: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    hold: set[str] = field(default_factory=set)  # names whose first push is held until release is set

    def browser(self, name: str) -> Browser:
        """A new browser subscribed under a name."""
        self.browsers[name] = Browser(name)
        return self.browsers[name]

    def b64auth(self, browser: Browser) -> str:
        """A browser's auth secret as PushSubscription.toJSON() gives it."""
        return b64(browser.auth)

    def endpoint(self, name: str) -> str:
        """The push endpoint of a name."""
        return f"{self.base}/push/{name}"

    def at(self, name: str) -> list[Got]:
        """What one endpoint got, in order."""
        with self.lock:
            return [g for g in self.got if g.path == f"/push/{name}"]

    def verify(self, authorization: str, now: float) -> str:
        """What is wrong with a VAPID Authorization header ("" when nothing)."""
        scheme, _, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            return "not vapid"
        parts = dict(p.strip().split("=", 1) for p in params.split(","))
        if parts.get("k") != self.vapid_key:
            return "k is not the served public key"
        head, body, signature = parts["t"].split(".")
        header = json.loads(unb64(head))
        if header.get("alg") != "ES256":
            return "alg is not ES256"
        raw = unb64(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(self.vapid_key))
        try:
            public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                          f"{head}.{body}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "bad signature"
        claims = json.loads(unb64(body))
        if claims.get("aud") != self.base:
            return f"aud {claims.get('aud')!r} is not the endpoint's origin"
        if not now < claims.get("exp", 0) <= now + 24 * 3600:
            return "exp not within 24 hours"
        if not str(claims.get("sub", "")).startswith(("mailto:", "https://")):
            return "no sub"
        return ""


def _handler(service: PushService) -> type[BaseHTTPRequestHandler]:
    class Handler(QuietHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", 0)))
            headers = {k.lower(): v for k, v in self.headers.items()}
            name = self.path.removeprefix("/push/")
            browser = service.browsers.get(name)
            payload = None
            if browser is not None and headers.get("content-encoding") == "aes128gcm":
                with contextlib.suppress(Exception):
                    payload = json.loads(http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth,
                                                          version="aes128gcm"))
            error = service.verify(headers.get("authorization", ""), time.time())
            with service.lock:
                first = not any(g.path == self.path for g in service.got)
                service.got.append(Got(self.path, headers, payload, error))
                planned = service.answers.get(name) or []
                status, retry_after = planned.pop(0) if planned else (201, "")
            if name in service.hold and first:
                service.held.set()
                service.release.wait(120)
            if error or payload is None:
                status = 400
            with contextlib.suppress(OSError):
                self.send_response(status)
                if retry_after:
                    self.send_header("retry-after", retry_after)
                self.send_header("content-length", "0")
                self.end_headers()

    return Handler


@contextlib.contextmanager
def push_service(vapid_key: str) -> Iterator[PushService]:
    """A push service on a free local port trusting one VAPID public key, stopped after the block."""
    state = PushService(vapid_key=vapid_key)
    with http_peer(_handler(state), state.release.set) as base:
        state.base = base
        yield state

"""A real local FCM HTTP v1 peer for the tests: an OAuth 2.0 token endpoint that takes the JWT-bearer grant only
with an assertion RS256-signed by the service account's key (iss the account, aud Google's token endpoint as
google-auth always names it, the FCM scope, exp within an hour), and a messages:send endpoint that takes only the
tokens it issued and checks the v1 message shape; it answers 200, or what a device token was told (404
UNREGISTERED, 429 with Retry-After, 500)."""

from __future__ import annotations

import base64
import contextlib
import json
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tests.service.http_peer import QuietHandler, http_peer

PROJECT = "firebreak-test"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token"


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class FcmService:
    """The peer's base URL, the service account it trusts, what it issued and got, and its planned answers."""

    base: str = ""
    key: rsa.RSAPrivateKey = field(default_factory=lambda: rsa.generate_private_key(public_exponent=65537,
                                                                                      key_size=2048))
    issued: set[str] = field(default_factory=set)
    grants: list[str] = field(default_factory=list)   # "" for a good grant, else what was wrong
    messages: list[dict[str, Any]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # what was wrong with a send
    answers: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # device token -> (status, retry-after)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def email(self) -> str:
        """The service account's address."""
        return f"push@{PROJECT}.iam.gserviceaccount.com"

    def service_account(self) -> dict[str, Any]:
        """The service account JSON, as Firebase's console hands it out, pointing at this peer's token endpoint."""
        pem = self.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()).decode()
        return {"type": "service_account", "project_id": PROJECT, "private_key_id": "k1", "private_key": pem,
                "client_email": self.email, "client_id": "1", "token_uri": f"{self.base}/token"}

    def endpoint(self) -> str:
        """The messages:send URL template (FIREBREAK_PUSH_FCM_ENDPOINT)."""
        return f"{self.base}/v1/projects/{{project}}/messages:send"

    def check_assertion(self, assertion: str) -> str:
        """What is wrong with a JWT-bearer assertion ("" when nothing)."""
        head, body, signature = assertion.split(".")
        if json.loads(_unb64(head)).get("alg") != "RS256":
            return "alg is not RS256"
        try:
            self.key.public_key().verify(_unb64(signature), f"{head}.{body}".encode(), padding.PKCS1v15(),
                                         hashes.SHA256())
        except InvalidSignature:
            return "bad signature"
        claims = json.loads(_unb64(body))
        now = time.time()
        # google-auth posts to the file's token_uri an assertion whose aud is always Google's token endpoint
        if claims.get("iss") != self.email or claims.get("aud") != GOOGLE_TOKEN_URI:
            return "wrong iss or aud"
        if SCOPE not in str(claims.get("scope", "")).split():
            return "no FCM scope"
        if not now - 60 < claims.get("exp", 0) <= now + 3700:
            return "exp not within the hour"
        return ""

    def check_message(self, path: str, message: Any) -> str:
        """What is wrong with a v1 send ("" when nothing)."""
        if path != f"/v1/projects/{PROJECT}/messages:send":
            return f"wrong path {path}"
        m = message.get("message") if isinstance(message, dict) else None
        if not isinstance(m, dict) or not isinstance(m.get("token"), str):
            return "no message.token"
        if not all(isinstance(v, str) for v in m.get("data", {}).values()):
            return "data values must be strings"
        android = m.get("android", {})
        if not android.get("collapse_key") or not str(android.get("ttl", "")).endswith("s"):
            return "no android collapse_key or ttl"
        if not m.get("apns", {}).get("headers", {}).get("apns-collapse-id"):
            return "no apns-collapse-id"
        return ""


def _handler(peer: FcmService) -> type[BaseHTTPRequestHandler]:
    class Handler(QuietHandler):
        def _answer(self, status: int, body: Any, retry_after: str = "") -> None:
            data = json.dumps(body).encode()
            with contextlib.suppress(OSError):
                self.send_response(status)
                self.send_header("content-type", "application/json")
                if retry_after:
                    self.send_header("retry-after", retry_after)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers.get("content-length", 0)))
            if self.path == "/token":
                form = {k: v[0] for k, v in parse_qs(raw.decode()).items()}
                wrong = ("not the JWT-bearer grant"
                         if form.get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer"
                         else peer.check_assertion(form.get("assertion", "")))
                with peer.lock:
                    peer.grants.append(wrong)
                if wrong:
                    self._answer(400, {"error": "invalid_grant", "error_description": wrong})
                    return
                token = "ya29." + secrets.token_urlsafe(24)
                with peer.lock:
                    peer.issued.add(token)
                self._answer(200, {"access_token": token, "expires_in": 3600, "token_type": "Bearer"})
                return
            bearer = self.headers.get("authorization", "").removeprefix("Bearer ")
            message = json.loads(raw or b"null")
            wrong = "" if bearer in peer.issued else "not an issued access token"
            wrong = wrong or peer.check_message(self.path, message)
            with peer.lock:
                if wrong:
                    peer.refused.append(wrong)
                else:
                    peer.messages.append(message["message"])
                planned = peer.answers.get(message["message"]["token"]) if not wrong else None
                status, retry_after = planned.pop(0) if planned else (200, "")
            if wrong:
                self._answer(401 if "access token" in wrong else 400, {"error": {"message": wrong}})
            elif status == 404:
                self._answer(404, {"error": {"code": 404, "status": "NOT_FOUND", "details": [
                    {"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}})
            elif status != 200:
                self._answer(status, {"error": {"code": status}}, retry_after)
            else:
                self._answer(200, {"name": f"projects/{PROJECT}/messages/{secrets.token_hex(6)}"})

    return Handler


@contextlib.contextmanager
def fcm_service() -> Iterator[FcmService]:
    """The peer on a free local port, stopped after the block."""
    state = FcmService()
    with http_peer(_handler(state)) as base:
        state.base = base
        yield state

"""Standard Webhooks signing: whsec_ secrets, and the webhook-id / webhook-timestamp / webhook-signature headers
of one attempt, signed with every secret the endpoint holds (two while rotating) by the standardwebhooks package."""

from __future__ import annotations

import base64
import binascii
import secrets as random
from collections.abc import Sequence
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

PREFIX = "whsec_"
SECRET_BYTES = 32  # a new secret's key length
USER_AGENT = "Firebreak-Webhooks/1"


def new_secret() -> str:
    """A fresh whsec_ secret (32 random bytes, base64)."""
    return PREFIX + base64.b64encode(random.token_bytes(SECRET_BYTES)).decode()


def check_secret(secret: str) -> bool:
    """Whether a secret is whsec_ followed by base64 of 24 to 64 bytes."""
    if not secret.startswith(PREFIX):
        return False
    try:
        key = base64.b64decode(secret[len(PREFIX):], validate=True)
    except (binascii.Error, ValueError):
        return False
    return 24 <= len(key) <= 64


def headers(message_id: str, at: float, body: str, secrets: Sequence[str]) -> dict[str, str]:
    """The headers of one attempt: webhook-id (the same on every attempt), webhook-timestamp (this attempt's, whole
    seconds) and webhook-signature (one v1 signature per secret, space-separated)."""
    moment = datetime.fromtimestamp(int(at), tz=UTC)
    signatures = " ".join(Webhook(secret).sign(message_id, moment, body) for secret in secrets)
    return {"webhook-id": message_id, "webhook-timestamp": str(int(at)), "webhook-signature": signatures,
            "content-type": "application/json", "user-agent": USER_AGENT}

"""The VAPID key pair (RFC 8292): from the settings, else generated once into the data folder and kept there (every
process of a deployment sharing that folder signs with one key). The private key is never logged nor answered."""

from __future__ import annotations

import base64
import contextlib
import os
import time
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02

from firebreak.push.settings import PushSettings

KEY_FILE = "push-vapid.pem"
LIFETIME = 12 * 3600  # a VAPID JWT's exp: 12 hours from signing (RFC 8292 allows at most 24)


def b64url(raw: bytes) -> str:
    """Base64url without padding."""
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


class Keys:
    """The service's VAPID key pair: signs a push service's JWT and tells its public key."""

    def __init__(self, vapid: Any, subject: str) -> None:
        self._vapid = vapid
        self.subject = subject

    @property
    def public_key(self) -> str:
        """The public key as browsers' PushManager.subscribe takes it (applicationServerKey): base64url of the
        uncompressed P-256 point."""
        point = self._vapid.public_key.public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        return b64url(point)

    def authorization(self, endpoint: str, now: float | None = None) -> str:
        """The Authorization header of a push to an endpoint: vapid t=<ES256 JWT, aud the endpoint's origin>,
        k=<public key>."""
        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": self.subject,
                  "exp": int((time.time() if now is None else now) + LIFETIME)}
        return cast(str, self._vapid.sign(claims)["Authorization"])

    def __repr__(self) -> str:
        """The public key only."""
        return f"Keys(public_key={self.public_key!r})"


def load(settings: PushSettings, data_dir: str | Path) -> Keys:
    """The key pair of the settings, or the data folder's (generated there on the first run)."""
    if settings.vapid_private_key:
        return Keys(_parse(settings.vapid_private_key), settings.vapid_subject)
    path = Path(data_dir) / KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = Vapid02()
        fresh.generate_keys()
        temporary = path.with_name(f".{KEY_FILE}.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(fresh.private_pem())
        with contextlib.suppress(FileExistsError):  # another process wrote it first: theirs is kept
            os.link(temporary, path)
        temporary.unlink()
    return Keys(Vapid02.from_pem(path.read_bytes()), settings.vapid_subject)


def _parse(key: str) -> Any:
    """A private key from PEM or base64url of its raw 32 bytes (ValueError, without the key, for anything else)."""
    try:
        if "BEGIN" in key:
            return Vapid02.from_pem(key.encode())
        return Vapid02.from_raw(key.strip().encode())
    except Exception:
        raise ValueError("FIREBREAK_PUSH_VAPID_PRIVATE_KEY is not a P-256 private key (PEM, or base64url of 32 "
                         "bytes)") from None

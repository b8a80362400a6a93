"""FCM HTTP v1 for native apps: the OAuth 2.0 access token (google-auth's JWT-bearer grant to the token URI of the
service account file, RS256-signed with its private key), and one message per push to the configured endpoint
(https://fcm.googleapis.com/v1/projects/{project}/messages:send by default), with a collapse key per match and the
TTL and priority of its kind."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from google.auth.transport.requests import Request
from google.oauth2 import service_account

SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
EARLY = 300.0  # seconds before its expiry an access token is renewed


def service_account_info(setting: str) -> dict[str, Any]:
    """The service account JSON the setting holds or names (a file path); ValueError (never its content) if it is
    neither."""
    try:
        text = setting if setting.lstrip().startswith("{") else Path(setting).read_text(encoding="utf-8")
        info = json.loads(text)
    except (OSError, ValueError):
        raise ValueError("FIREBREAK_PUSH_FCM_SERVICE_ACCOUNT is neither a service account JSON nor a readable file "
                         "holding one") from None
    if not isinstance(info, dict) or not {"client_email", "private_key", "token_uri", "project_id"} <= set(info):
        raise ValueError("FIREBREAK_PUSH_FCM_SERVICE_ACCOUNT lacks client_email, private_key, token_uri or "
                         "project_id")
    return info


class Fcm:
    """Sends FCM HTTP v1 messages with the service account's OAuth 2.0 access token."""

    def __init__(self, info: dict[str, Any], endpoint: str) -> None:
        self.project = str(info["project_id"])
        self.url = endpoint.replace("{project}", self.project)
        self._credentials = service_account.Credentials.from_service_account_info(  # type: ignore[no-untyped-call]
            info, scopes=[SCOPE])
        self._token = ""
        self._expires = 0.0
        self._lock = asyncio.Lock()

    async def token(self, renew: bool = False) -> str:
        """A valid access token (fetched again when near its expiry, or when renew)."""
        async with self._lock:
            if renew or not self._token or time.time() > self._expires - EARLY:
                await asyncio.to_thread(self._credentials.refresh, Request())
                self._token = str(self._credentials.token)
                expiry = self._credentials.expiry
                self._expires = expiry.timestamp() if expiry is not None else time.time() + 3600
            return self._token

    def __repr__(self) -> str:
        """The project only."""
        return f"Fcm(project={self.project!r})"


def message(token: str, payload: str, topic: str, ttl: int, urgency: str) -> dict[str, Any]:
    """The v1 message of one push: the event's facts as string data, what the phone shows (a notification: its
    title and body, so that a closed app's push is seen on Android and iOS alike), a collapse key per match
    (Android) and apns-collapse-id (iOS), the TTL, and high priority for an urgent kind."""
    facts = json.loads(payload)
    shown = facts.pop("notification", None)
    data = {k: v if isinstance(v, str) else json.dumps(v) for k, v in facts.items()}
    high = urgency == "high"
    return {"message": {
        "token": token, "data": data, **({"notification": shown} if shown else {}),
        "android": {"collapse_key": topic, "ttl": f"{ttl}s", "priority": "HIGH" if high else "NORMAL"},
        "apns": {"headers": {"apns-collapse-id": topic, "apns-priority": "10" if high else "5",
                             "apns-expiration": str(int(time.time()) + ttl)}}}}


def gone(status: int, body: bytes) -> bool:
    """Whether an FCM answer says the device token is no longer valid (404 UNREGISTERED, or 400 naming the token)."""
    if status == 404:
        return True
    if status != 400:
        return False
    try:
        error = json.loads(body)["error"]
    except (ValueError, KeyError, TypeError):
        return False
    codes = {d.get("errorCode") for d in error.get("details", []) if isinstance(d, dict)}
    return "UNREGISTERED" in codes or "registration token" in str(error.get("message", ""))

"""The pushes' settings, read once from the environment (FIREBREAK_PUSH_*; a pydantic-settings model like
matches/config.py)."""

from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import field_validator, model_validator
from pydantic_settings import NoDecode

from firebreak.matches.envsettings import EnvSettings, env
from firebreak.notifications.webhooks.destinations import Allowed
from firebreak.push.fcm import service_account_info

ALLOWED_SETTING = "FIREBREAK_PUSH_ALLOWED_HOSTS"


class PushSettings(EnvSettings):
    """What a deployment may tune about pushes; every field has a working default."""

    section: ClassVar[str] = "Push"

    vapid_private_key: str = env(
        "FIREBREAK_PUSH_VAPID_PRIVATE_KEY", "",
        "The VAPID private key (RFC 8292) pushes are signed with: a P-256 key as PEM or as base64url of its 32 raw "
        "bytes; empty: one generated on the first run into FIREBREAK_DATA_DIR/push-vapid.pem and kept there.",
        secret=True)
    fcm_service_account: str = env(
        "FIREBREAK_PUSH_FCM_SERVICE_ACCOUNT", "",
        "The Firebase service account JSON (its content, or the path of a file holding it) FCM HTTP v1 pushes to "
        "native apps are sent with (its token_uri gives the OAuth 2.0 access tokens); empty: no FCM.", secret=True)
    fcm_endpoint: str = env("FIREBREAK_PUSH_FCM_ENDPOINT",
                            "https://fcm.googleapis.com/v1/projects/{project}/messages:send",
                            "The FCM HTTP v1 send URL; {project} stands for the service account's project_id.")
    vapid_subject: str = env("FIREBREAK_PUSH_VAPID_SUBJECT", "mailto:operator@firebreak.invalid",
                             "The VAPID sub claim: a mailto: or https: contact for the push services.")
    attempts: int = env("FIREBREAK_PUSH_ATTEMPTS", 6, "Attempts of one push before it is given up.", gt=0)
    retry_seconds: float = env("FIREBREAK_PUSH_RETRY_SECONDS", 10.0,
                               "The wait after the first failed attempt; it doubles after each failure (or the "
                               "push service's Retry-After, if longer).", gt=0)
    retry_cap_seconds: float = env("FIREBREAK_PUSH_RETRY_CAP_SECONDS", 600.0,
                                   "The longest wait between attempts, with +-20 % jitter.", gt=0)
    timeout_seconds: float = env("FIREBREAK_PUSH_TIMEOUT_SECONDS", 10.0,
                                 "One attempt's whole budget in seconds (connect, send, answer).", gt=0)
    lease_seconds: float = env("FIREBREAK_PUSH_LEASE_SECONDS", 30.0,
                               "How long an attempt holds its push (a killed sender's comes due after it); more "
                               "than FIREBREAK_PUSH_TIMEOUT_SECONDS.", gt=0)
    concurrency: int = env("FIREBREAK_PUSH_CONCURRENCY", 32, "Pushes in flight, per worker process.", gt=0)
    tick_seconds: float = env("FIREBREAK_PUSH_TICK_SECONDS", 0.2, "How often a sender looks for due pushes.", gt=0)
    per_player: int = env("FIREBREAK_PUSH_SUBSCRIPTIONS_PER_PLAYER", 10,
                          "Push registrations a player may hold (a new one beyond this replaces the oldest).", gt=0)
    allowed_hosts: Annotated[tuple[str, ...], NoDecode] = env(
        ALLOWED_SETTING, (),
        "Hosts (names), addresses and networks (10.0.0.0/8) pushes may reach although they are not public "
        "(loopback, private, link-local...), comma-separated, for a private deployment or a test; empty: only "
        "public addresses.")

    @field_validator("vapid_subject", mode="after")
    @classmethod
    def _subject(cls, value: str) -> str:
        if not value.startswith(("mailto:", "https://")):
            raise ValueError("FIREBREAK_PUSH_VAPID_SUBJECT must be a mailto: or https:// contact")
        return value

    @field_validator("fcm_endpoint", mode="after")
    @classmethod
    def _fcm_endpoint(cls, value: str) -> str:
        if not value.startswith(("https://", "http://")):
            raise ValueError("FIREBREAK_PUSH_FCM_ENDPOINT must be an http(s) URL")
        return value

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        return tuple(part.strip() for part in value.split(",") if part.strip()) if isinstance(value, str) else value

    @field_validator("allowed_hosts", mode="after")
    @classmethod
    def _hosts(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        Allowed.of(value, ALLOWED_SETTING)  # raises ValueError naming the entry
        return value

    @model_validator(mode="after")
    def _consistent(self) -> PushSettings:
        if self.fcm_service_account:
            service_account_info(self.fcm_service_account)  # ValueError naming the variable, never its content
        if self.lease_seconds <= self.timeout_seconds:
            raise ValueError("FIREBREAK_PUSH_LEASE_SECONDS must exceed FIREBREAK_PUSH_TIMEOUT_SECONDS (an attempt "
                             "must end before its lease does)")
        return self

    @property
    def allowed(self) -> Allowed:
        """The hosts and networks pushes may reach although they are not public."""
        return Allowed.of(self.allowed_hosts, ALLOWED_SETTING)

    def __repr__(self) -> str:
        """The settings without the private key (a log line or a traceback never shows it)."""
        return (f"PushSettings(vapid_private_key=<{'set' if self.vapid_private_key else 'unset'}>, "
                f"fcm_service_account=<{'set' if self.fcm_service_account else 'unset'}>, "
                f"attempts={self.attempts}, timeout_seconds={self.timeout_seconds})")

"""Every settings model an API process reads, checked together at its start (create_app, `firebreak api`) so that
one error names every bad variable."""

from __future__ import annotations

from firebreak.api.admin import AdminSettings
from firebreak.api.metrics import MetricsSettings
from firebreak.archive.database import DatabaseSettings
from firebreak.matches.config import Settings
from firebreak.matches.envsettings import EnvSettings
from firebreak.matchmaking.config import SeekSettings
from firebreak.notifications.webhooks.settings import WebhookSettings
from firebreak.players.config import PlayerSettings
from firebreak.push.settings import PushSettings

API_SETTINGS: tuple[type[EnvSettings], ...] = (Settings, PlayerSettings, WebhookSettings, SeekSettings, AdminSettings,
                                               DatabaseSettings, MetricsSettings, PushSettings)

"""Every settings model a worker reads, checked together at its start (workers/main.py, `firebreak worker`) so
that one error names every bad variable."""

from __future__ import annotations

from firebreak.archive.database import DatabaseSettings
from firebreak.matches.config import Settings
from firebreak.matches.envsettings import EnvSettings
from firebreak.matchmaking.config import SeekSettings
from firebreak.notifications.webhooks.settings import WebhookSettings
from firebreak.push.settings import PushSettings
from firebreak.workers.budget import BudgetSettings

WORKER_SETTINGS: tuple[type[EnvSettings], ...] = (Settings, WebhookSettings, BudgetSettings, SeekSettings,
                                                  DatabaseSettings, PushSettings)

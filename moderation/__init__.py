"""Moderation for the operator (issue 49, section 3): reports, mutes, bans and the audit log of admin actions."""

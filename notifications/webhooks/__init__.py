"""The operator's webhooks: endpoints (settings and admin API), signed deliveries per Standard Webhooks, sent at
least once by every worker's sender thread with leases, retries and backoff, and forwarded from the players'
feeds."""

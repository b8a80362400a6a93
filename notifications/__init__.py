"""What reaches a player outside a match: their own event stream's surfaces and the operator's webhooks."""

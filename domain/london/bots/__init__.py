"""London's own bots."""

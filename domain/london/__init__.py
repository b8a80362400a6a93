"""London (2nd edition) by Martin Wallace as a Firebreak title: rules, data and bots."""

"""The Great Fire: London 1666 as a Firebreak title: rules, data and bots."""

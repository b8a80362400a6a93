"""The rules of The Great Fire: London 1666, one module per part of the rulebook (R1-R22)."""

"""The rules of London (2nd edition), one module per part of the rulebook."""

"""The archive: finished matches kept in a relational database (SQLite in the data folder by default, PostgreSQL by
FIREBREAK_DATABASE_URL) after Redis lets them go, with what rating changes they made."""

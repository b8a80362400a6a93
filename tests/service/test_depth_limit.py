"""The query depth limit exempts introspection (README, "Error codes"), so schema readers work."""

from __future__ import annotations

from tests.service.conftest import Client

# Ten levels: the nested ofType chain that GraphiQL and code generators ask for.
DEEP_INTROSPECTION = ("{ __schema { types { name fields { name type { name ofType { name ofType { name ofType {"
                      " name ofType { name ofType { name } } } } } } } } } }")


def test_introspection_deeper_than_the_depth_limit_is_answered(client: Client) -> None:
    """Introspection fields do not count towards the 8-level depth limit."""
    data = client.gql(DEEP_INTROSPECTION)
    assert any(t["name"] == "Match" for t in data["__schema"]["types"])

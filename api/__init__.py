"""The GraphQL API (strawberry on Starlette) and its REST neighbours."""

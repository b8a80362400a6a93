"""The REST surface beside GraphQL (/v1/...): one module per resource over the same lobby and apply pipeline, a
route table that the routes and the OpenAPI 3.1 document are both built from, and RFC 9457 problem answers."""

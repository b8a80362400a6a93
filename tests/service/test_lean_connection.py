"""matches.connections.LeanConnection, the asyncio clients' connection: commands over a real Redis, a write that
cannot finish (a peer that stops reading) is a TimeoutError within the socket timeout that drops the connection, as
redis-py's own connection does, over real sockets; and every command packs to the bytes redis-py's packs. And
matches.connections.LeanPool, their pool: redis-py's checks kept (a connection left with an unread reply is
reconnected before reuse, the pool's bound holds)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from redis.asyncio.connection import Connection
from redis.exceptions import DataError, MaxConnectionsError
from redis.exceptions import TimeoutError as RedisTimeoutError

from firebreak.matches import connections
from firebreak.matches.refusals import Refusal


def test_the_clients_use_it_and_it_runs_commands(redis_url: str) -> None:
    async def body() -> None:
        client = connections.async_client(redis_url, socket_timeout=5.0, decode_responses=True)
        try:
            assert client.connection_pool.connection_class is connections.LeanConnection
            assert type(client.connection_pool) is connections.LeanPool
            await client.set("lean:{x}", "1")
            script = connections.Script(client, "return redis.call('INCR', KEYS[1])")
            assert [await script(["lean:{x}"]) for _ in range(3)] == [2, 3, 4]
            pipe = client.pipeline(transaction=True)
            pipe.incr("lean:{x}").get("lean:{x}")
            assert await pipe.execute() == [5, "5"]
        finally:
            await client.delete("lean:{x}")
            await client.aclose()

    asyncio.run(body())


def test_the_pool_reconnects_a_connection_returned_with_an_unread_reply(redis_url: str) -> None:
    async def body() -> None:
        client = connections.async_client(redis_url, socket_timeout=5.0, decode_responses=True)
        pool = client.connection_pool
        try:
            await client.set("lean:{dirty}", "mine")
            dirty = await pool.get_connection()
            await dirty.send_command("ECHO", "stale")  # its reply is never read
            await asyncio.sleep(0.05)
            await pool.release(dirty)
            assert await client.get("lean:{dirty}") == "mine"  # not "stale": the pool did not hand it on as it was
            assert await client.echo("fresh") == "fresh"
        finally:
            await client.delete("lean:{dirty}")
            await client.aclose()

    asyncio.run(body())


def test_the_pool_keeps_its_bound(redis_url: str) -> None:
    async def body() -> None:
        client = connections.async_client(redis_url, socket_timeout=5.0, max_connections=2)
        pool = client.connection_pool
        try:
            held = [await pool.get_connection(), await pool.get_connection()]
            with pytest.raises(MaxConnectionsError):
                await pool.get_connection()
            await pool.release(held.pop())
            again = await pool.get_connection()  # a returned connection is handed out again
            assert again is not held[0]
            for connection in (*held, again):
                await pool.release(connection)
            assert await client.ping()
        finally:
            await client.aclose()

    asyncio.run(body())


def test_every_client_speaks_the_chosen_protocol(redis_url: str) -> None:
    """RESP2, chosen on purpose (connections.PROTOCOL; redis-py 8 would speak RESP3 unasked): the server says which
    protocol each of our clients' connections speaks."""
    async def asyncio_side() -> str:
        client = connections.async_client(redis_url, socket_timeout=5.0, decode_responses=True)
        try:
            return str((await client.client_info())["resp"])
        finally:
            await client.aclose()

    assert connections.PROTOCOL == 2
    assert asyncio.run(asyncio_side()) == "2"
    blocking = connections.sync_client(redis_url, decode_responses=True)
    try:
        assert str(blocking.client_info()["resp"]) == "2"
    finally:
        blocking.close()


async def _command(reader: asyncio.StreamReader, unread: bytes) -> list[bytes]:
    """One command a client sent (a RESP array of bulk strings), as its arguments; only its name if it is `unread`
    (the rest left unread)."""
    head = await reader.readuntil(b"\r\n")
    assert head.startswith(b"*"), head
    arguments: list[bytes] = []
    for _ in range(int(head[1:-2])):
        size = int((await reader.readuntil(b"\r\n"))[1:-2])
        arguments.append((await reader.readexactly(size + 2))[:-2])
        if arguments[0].upper() == unread:
            break
    return arguments


def _handshake_answer(arguments: list[bytes]) -> bytes:
    """What a Redis 7 answers to a command of the connection's handshake: HELLO's server facts (a RESP3 map when
    asked for protocol 3, else a flat array), OK to the rest (CLIENT SETINFO, SELECT...)."""
    if arguments[0].upper() != b"HELLO":
        return b"+OK\r\n"
    facts = [(b"server", b"redis"), (b"version", b"7.0.15"), (b"proto", int(arguments[1]) if len(arguments) > 1 else 2),
             (b"id", 1), (b"mode", b"standalone"), (b"role", b"master"), (b"modules", [])]

    def value(item: bytes | int | list[bytes]) -> bytes:
        if isinstance(item, int):
            return b":%d\r\n" % item
        if isinstance(item, list):
            return b"*0\r\n"
        return b"$%d\r\n%s\r\n" % (len(item), item)

    body = b"".join(value(k) + value(v) for k, v in facts)
    return (b"%%%d\r\n" % len(facts) if facts[2][1] == 3 else b"*%d\r\n" % (2 * len(facts))) + body


def test_a_write_the_peer_never_reads_times_out_and_drops_the_connection() -> None:
    async def body() -> None:
        held: list[asyncio.StreamWriter] = []
        handshakes: list[list[bytes]] = []

        async def never_read(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            """Answer the connection's handshake as a Redis would, then read nothing of the SET that follows."""
            held.append(writer)
            while (arguments := await _command(reader, unread=b"SET"))[0].upper() != b"SET":
                handshakes.append(arguments)
                writer.write(_handshake_answer(arguments))
            await asyncio.sleep(60)

        server = await asyncio.start_server(never_read, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        client = connections.async_client(f"redis://127.0.0.1:{port}/0", retries=0, socket_timeout=0.5,
                                          health_check_interval=0)
        try:
            started = time.monotonic()
            with pytest.raises(RedisTimeoutError, match="writing"):
                await client.set("big", b"x" * (64 * 1024 * 1024))  # far beyond what the socket buffers hold
            assert time.monotonic() - started < 10
            assert all(not c.is_connected for c in client.connection_pool._available_connections)
            hellos = [arguments for arguments in handshakes if arguments[0].upper() == b"HELLO"]
            assert hellos == ([] if connections.PROTOCOL == 2 else [[b"HELLO", b"3"]])  # RESP2 needs no HELLO
        finally:
            await client.aclose()
            for writer in held:
                writer.close()
            server.close()
            await server.wait_closed()

    asyncio.run(body())


def test_a_connection_the_peer_closed_is_unavailable() -> None:
    async def body() -> None:
        async def close_at_once(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.close()

        server = await asyncio.start_server(close_at_once, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        client = connections.async_client(f"redis://127.0.0.1:{port}/0", retries=0, socket_timeout=2.0,
                                          health_check_interval=0)
        try:
            with pytest.raises(connections.UNAVAILABLE):
                await client.set("k", b"x" * (8 * 1024 * 1024))
        finally:
            await client.aclose()
            server.close()
            await server.wait_closed()

    asyncio.run(body())


ARGUMENTS = st.one_of(st.binary(max_size=9000), st.text(max_size=3000), st.integers(), st.floats(allow_nan=False),
                      st.binary(max_size=200).map(memoryview), st.sampled_from([Refusal.BAD_SEAT, ""]))


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(["EVALSHA", "SET", "CONFIG GET", b"CLIENT SETINFO", b"HSET"]),
       args=st.lists(ARGUMENTS, max_size=30))
def test_a_command_packs_to_the_bytes_redis_py_packs(name: str | bytes, args: list[Any]) -> None:
    for encoding, errors in (("utf-8", "strict"), ("latin-1", "replace")):
        lean = connections.LeanConnection(encoding=encoding, encoding_errors=errors)
        plain = Connection(encoding=encoding, encoding_errors=errors)
        assert b"".join(lean.pack_command(name, *args)) == b"".join(bytes(c) for c in plain.pack_command(name, *args))


def test_a_bool_is_refused_as_redis_py_refuses_it() -> None:
    with pytest.raises(DataError):
        connections.LeanConnection().pack_command("SET", "k", True)

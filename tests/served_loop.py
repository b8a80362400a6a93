"""A tiny TCP server for tests/test_bench_instructions.py: answers each connection after `n` loop iterations, n
read from the request (it prints its port first)."""

import socket


def main() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    print(server.getsockname()[1], flush=True)
    while True:
        conn, _ = server.accept()
        with conn:
            n = int(conn.recv(32))
            total = 0
            for k in range(n):
                total += k
            conn.sendall(str(total).encode())


if __name__ == "__main__":
    main()

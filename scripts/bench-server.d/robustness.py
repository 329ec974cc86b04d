#!/usr/bin/env python3
"""The server's robustness figures (issue #15, "The server"), against a running `cairn serve`:
  - 1,000 idle keep-alive connections held (each asked /healthz once), then the time of one more /healthz;
  - 50 clients each asking for 10,000 features (distinct URLs) and never reading: the answers' statuses, the
    server's RSS before and after, and its `cairn_unsent_answer_bytes`.
Usage: robustness.py PORT PID. Prints one line per figure. Measures; asserts nothing (the tests check behaviour)."""
import resource
import socket
import sys
import time

port, pid = int(sys.argv[1]), int(sys.argv[2])


def rss_mib():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    return -1


def get(path):
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode())
        chunks = []
        while True:
            chunk = connection.recv(1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks).decode(errors="replace")


def metric(name):
    for line in get("/metrics").splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4096), hard), hard))

held = []
for _ in range(1000):
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n")
    connection.recv(4096)
    held.append(connection)
started = time.monotonic()
answer = get("/healthz")
print(f"1,000 idle keep-alive connections held: /healthz answered {answer.split(chr(13))[0]!r} "
      f"in {(time.monotonic() - started) * 1000:.1f} ms")
for connection in held:
    connection.close()

before = rss_mib()
slow = []
for client in range(50):
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.connect(("127.0.0.1", port))
    connection.sendall(f"GET /features?bbox=-180,-90,180,90&limit=10000&client={client} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
    slow.append(connection)
statuses = {}
for connection in slow:
    status = connection.recv(12).decode(errors="replace")[9:12]
    statuses[status] = statuses.get(status, 0) + 1
time.sleep(1)
print(f"50 clients asking for 10,000 features and not reading: statuses {statuses}, RSS {before} -> {rss_mib()} MiB, "
      f"unsent answers held {metric('cairn_unsent_answer_bytes') / 2**20:.1f} MiB")
for connection in slow:
    connection.close()

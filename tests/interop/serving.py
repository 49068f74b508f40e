"""What the fake brokers and their drivers share: announcing the port, the accept
loop (a thread per connection, until stopped or timed out), and stopping a child
process by its PID. Standard library only."""

import os
import signal
import socket
import struct
import subprocess
import threading
import time

from kafka_codec import recv_exact

# Kafka's socket.request.max.bytes default: a larger length prefix closes the connection.
MAX_FRAME = 100 * 1024 * 1024


def write_port_file(path, port):
    """Writes the port atomically, so a waiting driver never reads half of it."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.replace(tmp, path)


def serve(port, port_file, handle, duration, note):
    """Listens on 127.0.0.1:`port` (0: any free port), announces the port in
    `port_file` (if given), and runs `handle(sock, peer)` for each connection in its
    own thread, until SIGTERM/SIGINT or `duration` seconds (0: no limit)."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", port))
    srv.listen(16)
    port = srv.getsockname()[1]
    if port_file:
        write_port_file(port_file, port)
    note("listening on 127.0.0.1:%d" % port)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    srv.settimeout(0.2)
    deadline = time.time() + duration if duration > 0 else None
    while not stop.is_set():
        if deadline and time.time() > deadline:
            break
        try:
            sock, peer = srv.accept()
        except socket.timeout:
            continue
        except OSError:
            break
        sock.settimeout(None)
        threading.Thread(target=handle, args=(sock, peer), daemon=True).start()
    srv.close()
    note("stopped")


def recv_frame(sock, note, conn, min_len=0):
    """The next frame on `sock` as (prefix, payload), or None at the end of the stream
    or after a length outside min_len..MAX_FRAME or a frame cut short (both noted)."""
    prefix = recv_exact(sock, 4)
    if prefix is None:
        return None
    (n,) = struct.unpack(">i", prefix)
    if n < min_len or n > MAX_FRAME:
        note("conn %d: bad length %d, closing" % (conn, n))
        return None
    payload = recv_exact(sock, n)
    if payload is None:
        note("conn %d: short frame (wanted %d)" % (conn, n))
        return None
    return prefix, payload


def stop_pid(proc, grace=5.0):
    """Stops a child process: SIGTERM, then SIGKILL after `grace` seconds."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()

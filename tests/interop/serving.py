"""What the fake brokers and their drivers share: announcing the port, the accept
loop (a thread per connection, until stopped or timed out), and stopping a child
process by its PID. Standard library only."""

import os
import signal
import socket
import subprocess
import threading
import time


def write_port_file(path, port):
    """Writes the port atomically, so a waiting driver never reads half of it."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.replace(tmp, path)


def serve(srv, handle, duration, note):
    """Accepts connections on `srv` and runs `handle(sock, peer)` for each in its own
    thread, until SIGTERM/SIGINT or `duration` seconds (0: no limit)."""
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

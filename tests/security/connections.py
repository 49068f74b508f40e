"""Where some processes' TCP connections lead: the remote ports of their
sockets, sampled from /proc every 50 ms while they run (standard library
only; Linux).

A client told a broker's own address (a Metadata or a NodeEndpoints the proxy
did not rewrite) connects there and holds the connection for as long as it
produces or fetches; sampling sees it. A connection opened and closed within
one interval could be missed, which is why the checks also count the
proxy's rewrites."""

import os
import threading
import time


def _socket_inodes(pid):
    inodes = set()
    try:
        fds = os.listdir("/proc/%d/fd" % pid)
    except OSError:
        return inodes
    for fd in fds:
        try:
            link = os.readlink("/proc/%d/fd/%s" % (pid, fd))
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    return inodes


def _remote_ports(inodes):
    """The remote ports of the TCP sockets (IPv4 and IPv6: Java's are
    dual-stack) with these inodes."""
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    if len(fields) > 9 and fields[9] in inodes:
                        port = int(fields[2].rsplit(":", 1)[1], 16)
                        if port:
                            ports.add(port)
        except (OSError, StopIteration, ValueError):
            continue
    return ports


class Connections:
    """Samples the remote ports of `watch`ed PIDs until `stop`; `ports` holds
    every one seen."""

    def __init__(self, interval=0.05):
        self.interval = interval
        self.pids = set()
        self.ports = set()
        self._lock = threading.Lock()
        self._running = True
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def watch(self, pid):
        with self._lock:
            self.pids.add(pid)

    def _run(self):
        while self._running:
            with self._lock:
                pids = list(self.pids)
            inodes = set()
            for pid in pids:
                inodes |= _socket_inodes(pid)
            if inodes:
                found = _remote_ports(inodes)
                with self._lock:
                    self.ports |= found
            time.sleep(self.interval)

    def stop(self):
        self._running = False
        self._thread.join(5)
        return set(self.ports)

"""Connections that go around our proxy: a client reaching a broker's own
listener instead of the proxy's.

    watch = bypass.Watch(broker_ports, allowed_pids)
    watch.start(); ...; watch.stop()
    watch.offenders    # {(pid, command line): set of broker ports}, empty if none

While it runs, a thread reads /proc/net/tcp and /proc/net/tcp6 every
`interval` s. A connection (established or being opened) to one of
`broker_ports` whose client end is a socket of a process not in
`allowed_pids` (our proxy; the brokers themselves, which replicate over the
same listeners) went around the proxy: the process that owns that socket is
recorded. A connection closed between the two reads (the table, then the
owners' descriptors) cannot be attributed and is not counted; a client holds
its broker connections for as long as it runs, far longer than a sample.

Linux only, standard library only.
"""

import os
import threading

STATES = {"01", "02"}  # ESTABLISHED, SYN_SENT


def connections_to(ports):
    """{socket inode: broker port} of the client ends of connections to `ports`."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                lines = f.read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] not in STATES:
                continue
            port = int(fields[2].rsplit(":", 1)[1], 16)
            if port in ports and fields[9] != "0":
                found[fields[9]] = port
    return found


def socket_inodes(pid):
    """The inodes of `pid`'s sockets (empty once it is gone)."""
    inodes = set()
    fd_dir = "/proc/%d/fd" % pid
    try:
        names = os.listdir(fd_dir)
    except OSError:
        return inodes
    for name in names:
        try:
            target = os.readlink(os.path.join(fd_dir, name))
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def owners(inodes):
    """{inode: pid} for those of `inodes` some process still holds."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        for inode in socket_inodes(int(entry)) & inodes:
            found[inode] = int(entry)
        if len(found) == len(inodes):
            break
    return found


def command_line(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return " ".join(f.read().decode(errors="replace").split())[:200]
    except OSError:
        return "(gone)"


class Watch:
    def __init__(self, broker_ports, allowed_pids, interval=0.25):
        self.ports = set(broker_ports)
        self.allowed = set(allowed_pids)
        self.interval = interval
        self.offenders = {}
        self.samples = 0
        self._known = set()  # inodes of allowed processes seen so far
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bypass-watch", daemon=True)

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        self._stop.set()
        self._thread.join(10)
        return self.offenders

    def _run(self):
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)

    def sample(self):
        conns = connections_to(self.ports)
        unknown = set(conns) - self._known
        if unknown:
            for pid in self.allowed:
                self._known |= socket_inodes(pid)
            unknown -= self._known
        if unknown:
            for inode, pid in owners(unknown).items():
                if pid not in self.allowed:
                    key = (pid, command_line(pid))
                    self.offenders.setdefault(key, set()).add(conns[inode])
        self.samples += 1

    def problems(self):
        """One line per process that went around the proxy."""
        return ["%s (PID %d) connected to the broker directly (port%s %s), not through the "
                "proxy" % (cmd, pid, "s" if len(ports) > 1 else "",
                           ",".join(str(p) for p in sorted(ports)))
                for (pid, cmd), ports in sorted(self.offenders.items())]

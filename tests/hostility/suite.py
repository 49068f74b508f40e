"""The hostility suite: every probe of attacks.py, limits.py and auth.py against a fresh
server, then a table of what each did to it. Exit 1 if any probe found a problem.

    tests/hostility/run [--no-build] [--only NAME ...] [--logs DIR]

Bounded: each probe is bounded in count and in time, talks only to 127.0.0.1,
and stops every process it starts by its PID; a server passing the memory
ceiling is killed on the spot (servers.CEILING_MIB)."""

import argparse
import os
import resource
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import attacks  # noqa: E402
import auth  # noqa: E402
import limits  # noqa: E402
import servers  # noqa: E402

PROBES = attacks.PROBES + limits.PROBES + auth.PROBES


class Context:
    """Starts servers for one probe, each logging to its own file."""

    def __init__(self, logs, probe):
        self.logs, self.probe, self.started = logs, probe, 0

    def _log(self, name):
        self.started += 1
        return os.path.join(self.logs, "%s-%s-%d.log" % (self.probe, name, self.started))

    def broker(self, *extra, address_space_mib=None):
        return servers.Server.broker(self._log("broker"), *extra,
                                     address_space_mib=address_space_mib)

    def proxied(self, *extra, broker_flags=()):
        """(proxy, broker): our proxy, started with `extra`, in front of a broker of
        ours started with `broker_flags`."""
        broker = self.broker(*broker_flags)
        try:
            return servers.Server.proxy(broker.address, self._log("proxy"), *extra), broker
        except Exception:
            broker.stop()
            raise


    def start(self, proxied, flags=()):
        """(front, started): the server a probe attacks, our broker or our proxy
        in front of one, and every server started (for servers.stop_all); the
        broker behind a proxy gets the same flags, so each holds the same limit."""
        if proxied:
            proxy, broker = self.proxied(*flags, broker_flags=flags)
            return proxy, (proxy, broker)
        broker = self.broker(*flags)
        return broker, (broker,)


def raise_open_files():
    """Raises the soft RLIMIT_NOFILE to the hard limit: limits.py holds over 10,000
    sockets at once, and the servers, which inherit it, size their connection
    limits by it. Done once, first, so that every probe meets the same servers."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def table(outcomes):
    head = ("probe", "target", "peak MiB", "limit", "closed / answers", "bystander", "result")
    rows = [head] + [(o.probe, o.target, "%.0f" % o.peak_mib, "%d" % o.limit_mib, o.closed,
                      o.answered, "ok" if not o.problems else "FAIL") for o in outcomes]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-build", action="store_true",
                    help="use the binaries in target/interop-bin as they are")
    ap.add_argument("--only", nargs="*", help="probe function names to run")
    ap.add_argument("--logs", help="server logs here (default: a temporary directory)")
    args = ap.parse_args()
    if not args.no_build:
        servers.install()
    logs = args.logs or tempfile.mkdtemp(prefix="hostility-")
    os.makedirs(logs, exist_ok=True)
    raise_open_files()
    probes = [p for p in PROBES if not args.only or p.__name__ in args.only]
    outcomes = []
    for probe in probes:
        started = time.monotonic()
        try:
            outcome = probe(Context(logs, probe.__name__))
        except Exception as error:  # a probe that cannot run is a failure, not a crash
            outcome = attacks.Outcome(probe.__name__, "-", 0)
            outcome.problems.append("probe failed: %r" % error)
        outcomes.append(outcome)
        print("%-28s %5.1f s  %s" % (probe.__name__, time.monotonic() - started,
                                     "; ".join(outcome.problems) or "ok"), flush=True)
    print()
    print(table(outcomes))
    print("server logs in %s" % logs)
    failed = [o for o in outcomes if o.problems]
    print("%d probes, %d failed" % (len(outcomes), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The interop matrix: six real clients against six broker setups.

    tests/interop/run [--setups kafka-wire,tansu,noida-db,kafka,kafka-proxied,kafka3-proxied]
                      [--clients a,b,...]
                      [--codecs none,gzip,...] [--count 1000] [--direct]
                      [--jobs 3] [--timeout 60] [--json FILE] [--markdown FILE]
                      [--ports LO-HI] [--pidfile-prefix PREFIX] [--keep]
                      [--no-build] [--no-install]

For each setup (README.md here: our broker; our proxy in front of tansu; our
proxy in front of noida-db; Apache Kafka 4.4.0 directly; our proxy in front
of one Kafka node; our proxy in front of three), on fresh processes and free
127.0.0.1 ports:
create every topic m-<producer>-<codec> (3 partitions), run every producer
(client x codec) a few at a time, then let every consumer client read all
the other clients' topics whose produce succeeded: once by assignment, then
twice in group g-<consumer> (half, then the rest). Every message must arrive
exactly once, unaltered, in order within its partition.

Prints a table per setup (rows: producer, columns: consumer), the failures,
the proxy's per-API counts, and timings. Exits 1 on any failing cell, any
client run failure not covered by a documented broker limit (LIMITS in run_matrix.py),
any proxy mismatch or decode failure, or any process that does not stop
cleanly. --direct skips the proxy (clients talk to tansu / noida-db / Kafka
directly), for when the proxy is not there yet.

Python 3 standard library only; the clients run in the venv and node
modules that ../produce_capture_all.py installs.
"""

import argparse
import concurrent.futures as cf
import datetime
import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ in the repository
HERE = os.path.dirname(os.path.abspath(__file__))
INTEROP = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(INTEROP))
sys.path[:0] = [HERE, INTEROP]

import client_runs  # noqa: E402
import kafka_peer  # noqa: E402
import probes  # noqa: E402
import procs  # noqa: E402
import report  # noqa: E402
import setups  # noqa: E402
import verify  # noqa: E402

# ------------------------------------------------------- broker limits --
# Documented limits of a broker setup: a cell or client run they match is
# shown as `limit` and does not fail the run (a matching cell that passes is
# reported as an unexpected pass). Patterns are fnmatch patterns.
#   setup:  kafka-wire | tansu | noida-db | kafka | kafka-proxied | kafka3-proxied
#   role:   producer | consumer | *      (which client of the cell `client` names)
#   client: kafka-python | confluent-kafka | aiokafka | kafkajs | kcat | java
#   mode:   produce | assign | group     (a producer limit with mode "produce"
#                                         covers the produce run and its cells)
#   codec:  none | gzip | snappy | lz4 | zstd
#   evidence: what was observed (exact error), for the report
LIMITS = [
]

# Clients a setup's broker cannot serve at all, so not run there (each run
# would only wait out its timeout): setup -> {client: evidence}. Reported
# among the notes.
NOT_RUN = {
    "tansu": {
        "java": "tansu 0.6.0 closes the connection on an ApiVersions v5 request that "
                "carries a ClusterId (KIP-1242), which Kafka's Java client 4.4 sends on "
                "every connection after the bootstrap one: it never reaches a partition "
                "leader (also with --direct; acked 0 and read 0 at the timeout)",
    },
}

# Where broker_features.py runs: our broker, and Kafka directly as the
# reference the checks are held to (what Kafka does is right).
FEATURE_SETUPS = ("kafka-wire", "kafka")

PRINT_LOCK = threading.Lock()


def say(msg=""):
    with PRINT_LOCK:
        print(msg, flush=True)


def find_limit(setup, role, client, mode, codec):
    for lim in LIMITS:
        if (fnmatch.fnmatch(setup, lim["setup"])
                and fnmatch.fnmatch(role, lim.get("role", "*"))
                and fnmatch.fnmatch(client, lim.get("client", "*"))
                and (fnmatch.fnmatch(mode, lim.get("mode", "*")) or lim.get("mode") == "produce")
                and fnmatch.fnmatch(codec, lim.get("codec", "*"))):
            return lim
    return None


def cell_limit(setup, producer, codec, consumer, mode):
    return (find_limit(setup, "producer", producer, mode, codec)
            or find_limit(setup, "consumer", consumer, mode, codec))


def limit_text(lim):
    return "%s %s %s %s/%s: %s" % (lim["setup"], lim.get("role", "*"), lim.get("client", "*"),
                                   lim.get("mode", "*"), lim.get("codec", "*"), lim["evidence"])


# ----------------------------------------------------------------- setup --

def install(args, clients):
    """Clients (venv, node modules, kcat) and brokers; returns (Env, notes)."""
    notes = []
    import produce_capture_all as pca  # reuse its pinned installs
    have_node = False
    try:
        have_node = pca.ensure_installed(not args.no_install)
    except (SystemExit, subprocess.CalledProcessError) as e:
        raise RuntimeError("installing the clients failed: %s" % e)
    node = shutil.which("node") if have_node else None
    if "kcat" in clients and not shutil.which("kcat"):
        if not args.no_install and os.geteuid() == 0 and shutil.which("apt-get"):
            say("kcat missing: apt-get update && apt-get install -y kcat")
            subprocess.run("apt-get update -q && apt-get install -y -q kcat", shell=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        if not shutil.which("kcat"):
            notes.append("kcat is not installed")
    kinds = [setups.THIRD_PARTY[s] for s in args.setups if s in setups.THIRD_PARTY]
    if kinds:
        r = subprocess.run([sys.executable, os.path.join(INTEROP, "broker.py"), "install"]
                           + kinds, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            raise RuntimeError("broker.py install failed:\n" + r.stdout)
    if any(s in setups.KAFKA for s in args.setups):
        if args.no_install:
            if not kafka_peer.installed():
                raise RuntimeError("Kafka %s is not installed (--no-install): run "
                                   "`python3 tests/interop/kafka_peer.py install`"
                                   % kafka_peer.VERSION)
        else:
            kafka_peer.install()
        kafka_peer.certificates_tool()  # built now, not inside a setup's start time
    env = client_runs.Env(pca.VPY, pca.NODE_MODULES, node)
    return env, notes


def build(args):
    """Installs the broker and proxy binaries (kwire-broker, kwire-proxy) with
    `cargo install --path`, as a user would, into target/interop-bin; returns
    ({name: path or None}, note)."""
    paths = {n: procs.ours(n) for n in ("broker", "proxy")}
    note = None
    if not args.no_build:
        for name in paths:
            cmd = procs.cargo_install(name)
            say("$ " + " ".join(cmd))
            r = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            if r.returncode != 0:
                tail = "\n".join(r.stdout.strip().splitlines()[-15:])
                if not args.direct:
                    raise RuntimeError("cargo install of kwire-%s failed:\n%s" % (name, tail))
                note = ("cargo install of kwire-%s failed (--direct: going on without it):\n%s"
                        % (name, tail))
                return {n: None for n in paths}, note
    found = {n: (p if os.access(p, os.X_OK) else None) for n, p in paths.items()}
    return found, note


# ------------------------------------------------------------- one setup --

def run_pool(jobs, tasks, registry):
    """Runs callables on `jobs` threads; returns their results in order.
    Waits in short steps so that signals reach the main thread."""
    pool = cf.ThreadPoolExecutor(max_workers=jobs)
    try:
        futures = [pool.submit(t) for t in tasks]
        pending = set(futures)
        while pending:
            _, pending = cf.wait(pending, timeout=0.5)
        return [f.result() for f in futures]
    except BaseException:
        registry.stop_all()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def create_topics(ctx, logdir, bootstrap, topics, replication_factor=1):
    """Runs create_topics.py; returns ({topic: error} for those not ready, seconds)."""
    out, err = os.path.join(logdir, "create-topics.out"), os.path.join(logdir,
                                                                       "create-topics.err")
    rc, secs = procs.run(ctx.registry, [ctx.env.python, "-B",
                                        os.path.join(HERE, "create_topics.py"),
                                        "--bootstrap", bootstrap, "--partitions", "3",
                                        "--replication-factor", str(replication_factor),
                                        "--timeout", "60"] + topics,
                         out, err, 75, env=ctx.env.env)
    errors = {}
    if rc != 0:
        try:
            errors = json.loads(open(out).read().strip().splitlines()[-1])["errors"]
        except (OSError, ValueError, IndexError, KeyError):
            errors = {t: "create_topics.py exit %s: %s" % (rc, procs.tail(err, 3))
                      for t in topics}
    return errors, secs


def broker_features(ctx, logdir, bootstrap):
    """Runs broker_features.py (against our broker, and against Kafka as the
    reference); returns its problems."""
    out, err = (os.path.join(logdir, "broker-features." + ext) for ext in ("out", "err"))
    rc, _ = procs.run(ctx.registry, [ctx.env.python, "-B",
                                     os.path.join(HERE, "broker_features.py"), bootstrap],
                      out, err, 60, env=ctx.env.env)
    found = [line[len("problem: "):] for line in open(out).read().splitlines()
             if line.startswith("problem: ")]
    if rc != 0 and not found:
        found = ["broker_features.py exit %s: %s" % (rc, procs.tail(err, 3))]
    return found


def run_setup(ctx, name):
    """Starts the setup, runs producers and consumers, stops it; returns the
    setup's result dict (cells not yet verified)."""
    args = ctx.args
    res = {"name": name, "status": "ran", "error": None, "description": "",
           "producers": [c for c in ctx.clients if c not in ctx.missing
                         and c not in NOT_RUN.get(name, {})],
           "consumers": [c for c in ctx.clients if c not in ctx.missing
                         and c not in NOT_RUN.get(name, {})],
           "produce": {}, "consume": {}, "cells": [], "timings": {}, "problems": [],
           "proxy_report": None, "proxy_table": ""}
    logdir = os.path.join(ctx.workdir, name)
    setup = setups.Setup(name, ctx.registry, ctx.ports, ctx.workdir, ctx.binaries,
                         direct=args.direct, pidfile_prefix=args.pidfile_prefix)
    say("\n== %s" % name)
    t0 = time.time()
    try:
        try:
            bootstrap = setup.start()
        except RuntimeError as e:
            res["status"], res["error"] = "error", "setup did not start: %s" % e
            say("   %s" % res["error"])
            return res
        res["description"] = setup.description
        res["timings"]["start"] = time.time() - t0
        say("   %s (%.1f s)" % (setup.description, res["timings"]["start"]))

        res["kafka"] = setup.kafka.info if setup.kafka else None
        t = time.time()
        # Our broker and Kafka get every probe (Kafka is the reference they
        # are written to); through our proxy, see probes.py.
        checks = (probes.BROKER_CHECKS if not setups.proxied(name, args.direct)
                  else probes.KAFKA_PROXY_CHECKS if name in setups.KAFKA
                  else probes.PROXY_CHECKS)
        res["probe_problems"] = [] if args.direct and name in setups.THIRD_PARTY else \
            probes.run(bootstrap, checks)
        if name in FEATURE_SETUPS:
            res["probe_problems"] += broker_features(ctx, logdir, bootstrap)
        res["timings"]["probes"] = time.time() - t
        say("   probes: %s (%.1f s)" % ("; ".join(res["probe_problems"]) or "passed",
                                       res["timings"]["probes"]))

        plan = [(p, c) for p in res["producers"] for c in ctx.codecs
                if c in client_runs.CLIENTS[p][2]]
        topics = [client_runs.topic(p, c) for p, c in plan]
        errors, secs = create_topics(ctx, logdir, bootstrap, topics,
                                     setups.replication_factor(name))
        res["timings"]["topics"] = secs
        say("   created %d topics in %.1f s%s" % (len(topics) - len(errors), secs,
                                                  "; errors: %s" % errors if errors else ""))
        if topics and len(errors) == len(topics):
            res["status"] = "error"
            res["error"] = "no topic could be created: %s" % next(iter(errors.values()))
            return res

        t = time.time()

        def produce(p, c):
            tp = client_runs.topic(p, c)
            if tp in errors:
                return {"ok": False, "error": "topic not created: %s" % errors[tp],
                        "seconds": 0.0, "label": "produce %s %s" % (p, c)}
            r = client_runs.produce(ctx.registry, ctx.env, logdir, p, c, bootstrap, args.count,
                                    args.timeout)
            say("   %-34s %s (%.1f s)" % (r.label, "acked %s" % r.acked if not r.error
                                          else "FAILED: " + r.error, r.seconds))
            return {"ok": not r.error, "error": r.error, "acked": r.acked, "seconds": r.seconds,
                    "label": r.label, "stderr": r.stderr_tail() if r.error else "",
                    "log": r.stderr}
        outs = run_pool(args.jobs, [lambda p=p, c=c: produce(p, c) for p, c in plan],
                        ctx.registry)
        res["produce"] = {"%s/%s" % pc: o for pc, o in zip(plan, outs)}
        res["timings"]["produce"] = time.time() - t

        t = time.time()
        ok_topics = [(p, c) for p, c in plan if res["produce"]["%s/%s" % (p, c)]["ok"]]

        def consume(q, mode):
            """One consumer's assign run, or its two group runs (half, rest)."""
            mine = [client_runs.topic(p, c) for p, c in ok_topics if p != q]
            if not mine:
                return []
            total = args.count * len(mine)
            if mode == "assign":
                runs = [client_runs.consume(ctx.registry, ctx.env, logdir, q, "assign", mine,
                                            total, bootstrap, args.timeout)]
            else:
                half, g = total // 2, "g-%s" % q
                first = client_runs.consume(ctx.registry, ctx.env, logdir, q, "group", mine,
                                            half, bootstrap, args.timeout, group=g, phase=1)
                runs = [first]
                if len(first.lines) >= half and not first.timed_out:
                    runs.append(client_runs.consume(ctx.registry, ctx.env, logdir, q, "group",
                                                    mine, total - half, bootstrap, args.timeout,
                                                    group=g, phase=2))
                else:
                    first.error = (first.error or "short") + "; group run 2 not started"
            for r in runs:
                say("   %-34s %s (%.1f s)" % (r.label, "%d messages" % len(r.lines)
                                              if not r.error else "FAILED: " + r.error,
                                              r.seconds))
            return runs
        jobs = [(q, m) for q in res["consumers"] for m in ("group", "assign")]
        outs = run_pool(args.jobs, [lambda q=q, m=m: consume(q, m) for q, m in jobs],
                        ctx.registry)
        for (q, m), runs in zip(jobs, outs):
            res["consume"].setdefault(q, []).extend(runs)
        res["timings"]["consume"] = time.time() - t
        res["plan"] = plan
    finally:
        t = time.time()
        with procs.signals_deferred():
            setup.stop()
        res["timings"]["stop"] = time.time() - t
        res["problems"] = setup.problems
        res["checks"] = setup.checks
        res["proxy_report"] = setup.proxy_report
        res["proxy_table"] = setup.proxy_table
        if setup.kafka_rss_end:
            res["kafka_rss_end"] = setup.kafka_rss_end
        res["timings"]["total"] = time.time() - t0
    return res


# ---------------------------------------------------------------- verify --

def evaluate(ctx, res):
    """Fills res["cells"]; returns the setup's failures and notes. Failed
    client runs come first; a cell from which nothing was read because its
    consumer run failed is counted in that run's line, not listed again."""
    name = res["name"]
    run_failures, cell_failures = [], []
    notes = ["%s: %s not run: %s" % (name, c, why)
             for c, why in NOT_RUN.get(name, {}).items() if c in ctx.clients]
    if res["status"] != "ran":
        return ["%s: %s" % (name, res["error"])], notes
    t = time.time()
    for key, o in res["produce"].items():
        if o["ok"]:
            continue
        p, c = key.split("/")
        lim = find_limit(name, "producer", p, "produce", c)
        if lim:
            notes.append("%s: %s failed as documented: %s" % (name, o["label"], o["error"]))
        else:
            run_failures.append("%s: %s: %s%s" % (name, o["label"], o["error"],
                                                  _indent(o.get("stderr"))))
    applied, unexpected = set(), {}
    for q in res["consumers"]:
        runs = res["consume"].get(q) or []
        by_mode = {"assign": [r for r in runs if r.label.endswith("assign")],
                   "group": [r for r in runs if " group" in r.label]}
        for mode in ("assign", "group"):
            mine, unread = [], []
            for p, c in res.get("plan", []):
                if p == q:
                    continue
                cell = evaluate_cell(ctx, res, p, c, q, mode, by_mode[mode])
                mine.append(cell)
                if cell["limit"]:
                    if cell["status"] == "limit":
                        applied.add(cell["limit"])
                    else:
                        unexpected.setdefault(cell["limit"], []).append(
                            "%s/%s -> %s (%s)" % (p, c, q, mode))
                if cell["status"] != "fail":
                    continue
                if cell["problems"] == [verify.NOTHING] and any(r.error for r in by_mode[mode]):
                    unread.append("%s/%s" % (p, c))
                    continue
                cell_failures.append("%s: %s/%s -> %s (%s): %s%s" % (
                    name, p, c, q, mode, "; ".join(cell["problems"]),
                    "".join("\n      " + d for d in cell["details"])))
            res["cells"] += mine
            bad = [r for r in by_mode[mode] if r.error]
            covered = bad and (find_limit(name, "consumer", q, mode, "*") or (
                any(x["status"] == "limit" for x in mine)
                and not any(x["status"] == "fail" for x in mine)))
            for n, r in enumerate(bad):
                if covered:
                    notes.append("%s: %s failed, covered by a documented limit: %s"
                                 % (name, r.label, r.error))
                    continue
                what = ""
                if unread and n == 0:
                    what = "; nothing read from %d of its %d topics" % (len(unread), len(mine))
                run_failures.append("%s: %s: %s%s (log %s)%s" % (
                    name, r.label, r.error, what, r.stderr, _indent(r.stderr_tail())))
    res["limits_applied"] = sorted(applied)
    for lim, cells in unexpected.items():
        notes.append("%s: %d cell(s) pass although a documented limit covers them (%s%s): %s"
                     % (name, len(cells), ", ".join(cells[:4]),
                        ", ..." if len(cells) > 4 else "", lim))
    failures = run_failures + cell_failures
    failures += ["%s: probe %s" % (name, p) for p in res.get("probe_problems", [])]
    for prob in res["problems"]:
        failures.append("%s: %s" % (name, prob))
    if setups.proxied(name, ctx.args.direct) and res["proxy_report"] is None and \
            not any("proxy report" in p for p in res["problems"]):
        failures.append("%s: no proxy report" % name)
    res["timings"]["verify"] = time.time() - t
    return failures, notes


def evaluate_cell(ctx, res, p, c, q, mode, runs):
    """One cell: what consumer q read of m-p-c in `mode` (its run or runs)."""
    name = res["name"]
    tp = client_runs.topic(p, c)
    prod = res["produce"]["%s/%s" % (p, c)]
    if not prod["ok"]:
        problems, details = ["produce failed: %s" % prod["error"]], []
    else:
        msgs, phases = [], []
        for r in runs:
            own = [m for m in r.lines if m.get("topic") == tp]
            msgs += own
            phases += [2 if r.label.endswith("run 2") else 1] * len(own)
        problems, details = verify.check_cell(p, c, ctx.args.count, msgs,
                                              phases if mode == "group" else None)
        if problems:
            details += ["%s: %s" % (r.label, r.error) for r in runs if r.error]
    lim = cell_limit(name, p, c, q, mode)
    return {"producer": p, "codec": c, "consumer": q, "mode": mode,
            "status": "pass" if not problems else "limit" if lim else "fail",
            "problems": problems, "details": details,
            "limit": limit_text(lim) if lim else None}


def _indent(text):
    return "".join("\n      | " + line for line in (text or "").splitlines())


# ------------------------------------------------------------------ main --

class Context:
    pass


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 2)[2])

    def names(allowed):
        def parse(s):
            out = [x for x in s.split(",") if x]
            bad = [x for x in out if x not in allowed]
            if bad or not out:
                raise argparse.ArgumentTypeError("choose from %s" % ",".join(allowed))
            return out
        return parse

    def port_range(s):
        lo, _, hi = s.partition("-")
        return int(lo), int(hi or lo)
    ap.add_argument("--setups", type=names(setups.ALL), default=setups.ALL,
                    help="comma-separated, default all: " + ",".join(setups.ALL))
    ap.add_argument("--clients", type=names(list(client_runs.CLIENTS)),
                    default=list(client_runs.CLIENTS),
                    help="comma-separated, default all: " + ",".join(client_runs.CLIENTS))
    ap.add_argument("--codecs", type=names(client_runs.CODECS), default=client_runs.CODECS,
                    help="comma-separated, default all its contract lists")
    ap.add_argument("--count", type=int, default=1000, help="messages per topic (1000)")
    ap.add_argument("--direct", action="store_true",
                    help="clients talk to tansu/noida-db directly, without our proxy")
    ap.add_argument("--jobs", type=int, default=3, help="client processes at once (3)")
    ap.add_argument("--timeout", type=float, default=60,
                    help="each client's --timeout in s (60); killed %d s later"
                    % client_runs.KILL_MARGIN)
    ap.add_argument("--json", metavar="FILE", help="write the results as JSON")
    ap.add_argument("--markdown", metavar="FILE", help="write the tables as Markdown")
    ap.add_argument("--ports", type=port_range, metavar="LO-HI",
                    help="take the 127.0.0.1 ports from LO-HI (default: any free port)")
    ap.add_argument("--pidfile-prefix", metavar="PREFIX",
                    help="broker.py pidfiles are PREFIX{tansu,noida}.pid (default: temp dir)")
    ap.add_argument("--keep", action="store_true", help="keep the logs even on success")
    ap.add_argument("--no-build", action="store_true", help="use the binaries installed in target/interop-bin as they are")
    ap.add_argument("--no-install", action="store_true", help="install nothing")
    args = ap.parse_args()
    if not 1 <= args.count <= 9999:
        ap.error("--count must be 1..9999 (keys have 4 digits)")
    return args


def on_signal(signum, _frame):
    raise procs.Aborted("signal %d" % signum)


def main():
    args = parse_args()
    # Also when started with SIGINT ignored (a background job of a script).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    ctx = Context()
    ctx.args, ctx.clients, ctx.codecs = args, args.clients, args.codecs
    ctx.registry = procs.Registry()
    ctx.ports = procs.Ports(*(args.ports or (None, None)))
    ctx.workdir = tempfile.mkdtemp(prefix="kafka-wire-interop-")
    started = datetime.datetime.now(datetime.timezone.utc)
    result = {"started": started.strftime("%Y-%m-%d %H:%M UTC"), "count": args.count,
              "direct": args.direct, "clients": args.clients, "codecs": args.codecs,
              "spec_source": verify.SOURCE, "limits": LIMITS, "setups": [], "failures": [],
              "notes": [], "timings": {}, "ok": False, "logs": ctx.workdir}
    t_all = time.time()
    say("interop matrix: setups %s, clients %s, codecs %s, %d messages each%s; logs in %s"
        % (",".join(args.setups), ",".join(args.clients), ",".join(args.codecs), args.count,
           " (--direct: no proxy)" if args.direct else "", ctx.workdir))
    interrupted = None
    try:
        t = time.time()
        ctx.env, notes = install(args, args.clients)
        result["notes"] += notes
        ctx.missing = client_runs.missing_clients(args.clients, ctx.env)
        if "kcat" in args.clients and not shutil.which("kcat"):
            ctx.missing.setdefault("kcat", "kcat is not installed")
        for c, why in ctx.missing.items():
            result["failures"].append("client %s cannot run: %s" % (c, why))
        result["timings"]["install"] = time.time() - t
        say("install: %.1f s" % result["timings"]["install"])
        t = time.time()
        ctx.binaries, note = build(args)
        if note:
            result["notes"].append(note)
            say(note)
        result["timings"]["build"] = time.time() - t
        say("build: %.1f s (broker: %s, proxy: %s)" % (
            result["timings"]["build"], ctx.binaries["broker"] or "missing",
            ctx.binaries["proxy"] or "missing"))
        for name in args.setups:
            if name == "kafka-wire" and not ctx.binaries["broker"] and args.direct:
                result["setups"].append({"name": name, "status": "skipped",
                                         "error": "no kwire-broker binary", "cells": []})
                result["notes"].append("kafka-wire skipped: no kwire-broker binary")
                continue
            res = run_setup(ctx, name)
            result["setups"].append(res)
            fails, notes = evaluate(ctx, res)
            result["failures"] += fails
            result["notes"] += notes
            result["timings"][name] = res["timings"]["total"]
    except (KeyboardInterrupt, procs.Aborted) as e:
        interrupted = e
        result["failures"].append("interrupted (%s)" % (str(e) or "Ctrl-C"))
    except RuntimeError as e:
        result["failures"].append(str(e))
    except Exception:  # a bug here: still stop everything and report
        result["failures"].append("driver error:\n" + traceback.format_exc())
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        left = ctx.registry.stop_all()
        if left:
            say("stopped %d leftover process(es): %s" % (len(left), left))
    result["timings"]["total"] = time.time() - t_all
    result["ok"] = not result["failures"]
    print_summary(result)
    write_outputs(args, result)
    if result["ok"] and not args.keep:
        shutil.rmtree(ctx.workdir, ignore_errors=True)
    else:
        say("logs kept in %s" % ctx.workdir)
    if interrupted:
        return 130
    return 0 if result["ok"] else 1


def print_summary(result):
    say()
    for s in result["setups"]:
        say("== %s: %s" % (s["name"], s.get("description") or s.get("error") or ""))
        if s["status"] != "ran":
            say("   %s: %s" % (s["status"], s.get("error")))
            continue
        say(report.text_table(report.matrix_rows(s)))
        for lim in s.get("limits_applied") or []:
            say("limit: " + lim)
        if s.get("proxy_report"):
            say("\nproxy, per API (from its report):")
            say(report.text_table(report.proxy_rows(s["proxy_report"])))
        for check in s.get("checks") or []:
            say("checked: " + check)
        if s.get("kafka"):
            say("Kafka: ready in %.1f s (format %.1f s); RSS per node %s MiB when ready, %s "
                "at the end" % (s["kafka"]["startup_seconds"], s["kafka"]["format_seconds"],
                                s["kafka"]["rss_mib"], s.get("kafka_rss_end")))
        say("timings: " + report.timings_text(s["timings"]))
        say()
    if result["notes"]:
        say("notes:")
        for n in result["notes"]:
            say("- " + n)
    if result["failures"]:
        say("failures (%d):" % len(result["failures"]))
        for f in result["failures"]:
            say("- " + f)
    say("timings: " + report.timings_text(result["timings"]))
    say("RESULT: %s" % ("PASS" if result["ok"] else "FAIL"))


def write_outputs(args, result):
    def plain(s):
        """A setup result without Run objects, for JSON."""
        out = {k: v for k, v in s.items() if k not in ("consume", "plan")}
        out["consume"] = {q: [{"label": r.label, "rc": r.rc, "seconds": round(r.seconds, 2),
                               "messages": len(r.lines), "expect": r.expect, "error": r.error}
                              for r in runs] for q, runs in (s.get("consume") or {}).items()}
        return out
    data = dict(result, setups=[plain(s) for s in result["setups"]])
    if args.json:
        report.write_json(args.json, data)
        say("wrote %s" % args.json)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(report.markdown(result))
        say("wrote %s" % args.markdown)


if __name__ == "__main__":
    sys.exit(main())

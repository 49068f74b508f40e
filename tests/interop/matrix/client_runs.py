"""Running the matrix clients (clients/*, per the contract in README.md).

Client(name) knows how to start one client program; produce() and consume()
run one command with a timeout (the client's --timeout, plus a margin after
which the driver kills it) and return a Run: exit status, time, the parsed
JSON lines, and a short description of anything wrong with the run itself.

Standard library only.
"""

import json
import os
import subprocess
import sys

import procs

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT_DIR = os.path.join(HERE, "clients")
CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]

# name -> (program in clients/, runtime "python" (producers venv) or "node", codecs)
CLIENTS = {
    "kafka-python": ("kafka_python_client.py", "python", CODECS),
    "confluent-kafka": ("confluent_kafka_client.py", "python", CODECS),
    "aiokafka": ("aiokafka_client.py", "python", CODECS),
    "kafkajs": ("kafkajs_client.js", "node", CODECS),
    "kcat": ("kcat_client.py", "python", CODECS),
    "java": ("java_client.py", "python", CODECS),
}
KILL_MARGIN = 10.0  # seconds past --timeout before the driver kills a client


def topic(producer, codec):
    return "m-%s-%s" % (producer, codec)


class Env:
    """Where the runtimes are: the producers venv's python, node + NODE_PATH."""

    def __init__(self, python, node_modules, node="node"):
        self.python = python
        self.node = node
        self.env = dict(os.environ, NODE_PATH=node_modules, PYTHONDONTWRITEBYTECODE="1",
                        PYTHONWARNINGS="ignore")


class Run:
    """One client command and its outcome."""

    def __init__(self, label, argv, stdout, stderr):
        self.label, self.argv, self.stdout, self.stderr = label, argv, stdout, stderr
        self.rc = None
        self.seconds = 0.0
        self.timed_out = False
        self.lines = []        # parsed JSON objects, in order
        self.bad_lines = 0     # stdout lines that are not JSON objects
        self.error = None      # None = the run itself went as the contract says

    def stderr_tail(self, lines=6):
        return procs.tail(self.stderr, lines)


def program(name):
    return os.path.join(CLIENT_DIR, CLIENTS[name][0])


def missing_clients(names, env):
    """{client: why it cannot run} for clients whose program or runtime is missing."""
    out = {}
    for n in names:
        prog, runtime, _ = CLIENTS[n]
        if not os.path.exists(program(n)):
            out[n] = "clients/%s does not exist" % prog
        elif runtime == "node" and not env.node:
            out[n] = "node (or kafkajs in node-producers) is not installed"
        elif n == "java":
            # Compiled (and its classpath resolved) here, once, rather than
            # inside the first run's timeout; cached after that.
            r = subprocess.run([sys.executable, program(n), "build"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                out[n] = "the Java client did not build: %s" % r.stdout.strip()[-500:]
    return out


def _argv(name, env, args):
    runtime = CLIENTS[name][1]
    return ([env.python, "-B"] if runtime == "python" else [env.node]) + [program(name)] + args


def _execute(registry, env, run, timeout):
    rc, secs = procs.run(registry, run.argv, run.stdout, run.stderr, timeout + KILL_MARGIN,
                         env=env.env, cwd=CLIENT_DIR)
    run.rc, run.seconds, run.timed_out = rc, secs, rc is None
    with open(run.stdout, "rb") as f:
        for line in f.read().decode("utf-8", errors="replace").splitlines():
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except ValueError:
                obj = None
            if isinstance(obj, dict):
                run.lines.append(obj)
            else:
                run.bad_lines += 1
    return run


def produce(registry, env, logdir, name, codec, bootstrap, count, timeout):
    t = topic(name, codec)
    label = "produce %s %s" % (name, codec)
    run = Run(label, _argv(name, env, [
        "produce", "--bootstrap", bootstrap, "--producer", name, "--topic", t,
        "--codec", codec, "--count", str(count), "--timeout", str(timeout)]),
        os.path.join(logdir, "produce-%s-%s.out" % (name, codec)),
        os.path.join(logdir, "produce-%s-%s.err" % (name, codec)))
    _execute(registry, env, run, timeout)
    acked = None
    for obj in run.lines:
        if "acked" in obj:
            acked = obj["acked"]
    run.acked = acked
    if run.timed_out:
        run.error = "killed after %.0f s (timeout)" % run.seconds
    elif run.rc != 0 or acked != count:
        run.error = "exit %s, acked %s/%d" % (run.rc, acked, count)
    return run


def consume(registry, env, logdir, name, mode, topics, expect, bootstrap, timeout,
            group=None, phase=None):
    tag = "%s-%s%s" % (name, mode, phase or "")
    label = "consume %s %s%s" % (name, mode, " run %d" % phase if phase else "")
    args = ["consume", "--bootstrap", bootstrap, "--topics", ",".join(topics),
            "--mode", mode, "--expect", str(expect), "--timeout", str(timeout)]
    if group:
        args += ["--group", group]
    run = Run(label, _argv(name, env, args), os.path.join(logdir, "consume-%s.out" % tag),
              os.path.join(logdir, "consume-%s.err" % tag))
    run.expect = expect
    _execute(registry, env, run, timeout)
    n = len(run.lines)
    if run.timed_out:
        run.error = "killed after %.0f s (timeout), %d/%d messages" % (run.seconds, n, expect)
    elif run.rc != 0 or n != expect:
        run.error = "exit %s, %d/%d messages" % (run.rc, n, expect)
    if run.bad_lines:
        run.error = (run.error + "; " if run.error else "") + \
            "%d stdout line(s) not JSON" % run.bad_lines
    return run

"""Checks what a consumer read against the message spec (README.md here).

expected(P, C, i) comes from spec.py's message() when spec.py is there (and
agrees with the README), else from the README's rule. check_cell() takes the
messages one consumer delivered for one topic, in delivery order (for group
mode: the first run's, then the second run's), and lists the problems:
missing, duplicated or altered messages, and indices or offsets that go
backwards within a partition.

Standard library only.
"""

import re
import sys

FILLER = "abcdefghij"
NOTHING = "nothing read"  # the problem when no message of the topic arrived
KEY = re.compile(r"^(?P<p>.+)-(?P<c>[a-z0-9]+)-(?P<i>\d{4,})$")
VALUE = re.compile(r"^value-(?P<i>\d{4,})-")


def readme_message(producer, codec, i):
    """Message i of P/C as text, computed per README.md."""
    return ("%s-%s-%04d" % (producer, codec, i),
            "value-%04d-" % i + FILLER[i % 10] * (i % 200),
            [["producer", producer], ["codec", codec]])


def _text(x):
    return x.decode("utf-8", errors="replace") if isinstance(x, (bytes, bytearray)) else x


def normalize(m):
    """spec.py's message (tuple or dict; bytes or str) -> (key, value, [[k, v]...])."""
    if isinstance(m, dict):
        k, v, h = m.get("key"), m.get("value"), m.get("headers")
    else:
        k, v, h = m
    return _text(k), _text(v), [[_text(a), _text(b)] for a, b in (h or [])]


def _load_spec():
    """spec.message if importable and equal to the README rule, else None."""
    try:
        import spec  # noqa: the sibling spec.py (the driver puts its dir on sys.path)
        fn = spec.message
        for p, c, i in (("x", "none", 0), ("kafka-python", "zstd", 7), ("kcat", "lz4", 999)):
            if normalize(fn(p, c, i)) != readme_message(p, c, i):
                print("verify: spec.message(%r, %r, %d) differs from README.md; using spec.py"
                      % (p, c, i), file=sys.stderr)
                break
        return lambda p, c, i: normalize(fn(p, c, i))
    except Exception as e:  # missing or unusable: the README rule
        print("verify: spec.py not usable (%s); using README.md's rule" % e, file=sys.stderr)
        return None


_SPEC = _load_spec()
SOURCE = "spec.py" if _SPEC else "README.md"


def expected(producer, codec, i):
    return (_SPEC or readme_message)(producer, codec, i)


def index_of(msg):
    """The message's index, from its key (or value if the key is damaged)."""
    for field, rx in (("key", KEY), ("value", VALUE)):
        v = msg.get(field)
        if isinstance(v, str):
            m = rx.match(v)
            if m:
                return int(m.group("i"))
    return None


def _short(v, n=40):
    s = repr(v)
    return s if len(s) <= n else s[:n - 3] + "..."


def _sample(nums, n=5):
    nums = sorted(nums)
    return ", ".join(str(x) for x in nums[:n]) + (", ..." if len(nums) > n else "")


def check_cell(producer, codec, count, msgs, phase_of=None):
    """Problems (list of short strings; empty = pass) for one cell.

    msgs: dicts as the client printed them, all of topic m-P-C, in delivery
    order. phase_of: optional list, the group run (1 or 2) of each message.
    """
    problems = []
    seen = {}
    altered = []
    unknown = []
    order = []
    last = {}  # partition -> (index, offset)
    for n, m in enumerate(msgs):
        i = index_of(m)
        if i is None or not 0 <= i < count:
            unknown.append("unidentifiable message key=%s value=%s"
                           % (_short(m.get("key")), _short(m.get("value"))))
            continue
        seen.setdefault(i, []).append(phase_of[n] if phase_of else None)
        want_k, want_v, want_h = expected(producer, codec, i)
        got_h = [list(h) if isinstance(h, (list, tuple)) else h for h in (m.get("headers") or [])]
        for field, got, want in (("key", m.get("key"), want_k), ("value", m.get("value"), want_v),
                                 ("headers", got_h, want_h)):
            if got != want:
                altered.append("i=%d %s %s, want %s" % (i, field, _short(got), _short(want)))
        p, off = m.get("partition"), m.get("offset")
        if p in last:
            pi, po = last[p]
            if i <= pi:
                order.append("partition %s: index %d after %d" % (p, i, pi))
            elif isinstance(off, int) and isinstance(po, int) and off <= po:
                order.append("partition %s: offset %d after %d" % (p, off, po))
        last[p] = (i, off)
    missing = [i for i in range(count) if i not in seen]
    dups = {i: ph for i, ph in seen.items() if len(ph) > 1}
    if len(missing) == count and not msgs:
        problems.append(NOTHING)
    elif missing:
        problems.append("%d missing (%s)" % (len(missing), _sample(missing)))
    if dups:
        across = sum(1 for ph in dups.values() if len(set(ph)) > 1)
        problems.append("%d duplicated (%s)%s" % (
            len(dups), _sample(dups),
            "; %d of them in both group runs" % across if phase_of and across else ""))
    if unknown:
        problems.append("%d unidentifiable" % len(unknown))
    if altered:
        problems.append("%d altered field(s)" % len(altered))
    if order:
        problems.append("%d out of order" % len(order))
    details = unknown[:2] + altered[:3] + order[:3]
    return problems, details

"""Creates the matrix's topics before any client runs (kafka-python admin).

    producers-venv/bin/python create_topics.py --bootstrap HOST:PORT
        --partitions 3 [--replication-factor 1] [--timeout 60] T1 T2 ...

Sends one CreateTopics request for all topics, then
waits until the metadata shows every topic with that many partitions, each
with a leader. Prints one JSON line {"created": [...], "errors": {...}} and
exits 0 only if every topic is ready. Run by run_matrix.py with the
producers venv's python (kafka-python 3.0.12).
"""

import argparse
import json
import sys
import time

sys.dont_write_bytecode = True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--partitions", type=int, default=3)
    ap.add_argument("--replication-factor", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("topics", nargs="+")
    args = ap.parse_args()
    deadline = time.time() + args.timeout

    from kafka.admin import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=args.bootstrap, client_id="matrix-admin",
                             request_timeout_ms=int(args.timeout * 1000))
    errors = {}
    try:
        res = admin.create_topics({t: {"num_partitions": args.partitions,
                                       "replication_factor": args.replication_factor}
                                   for t in args.topics},
                                  timeout_ms=int(args.timeout * 1000), raise_errors=False)
        for t in res.get("topics", []):
            if t.get("error_code"):
                errors[t["name"]] = "CreateTopics error %s %s" % (
                    t["error_code"], t.get("error_message") or "")
        ready = set()
        while True:
            for t in admin.describe_topics([t for t in args.topics if t not in ready]):
                parts = t.get("partitions") or []
                if (not t.get("error_code") and len(parts) == args.partitions
                        and all(p.get("leader_id", p.get("leader", -1)) >= 0 for p in parts)):
                    ready.add(t.get("name") or t.get("topic"))
            if len(ready) == len(args.topics) or time.time() > deadline:
                break
            time.sleep(0.2)
        for t in args.topics:
            if t not in ready:
                errors.setdefault(t, "not ready in metadata within %ss" % args.timeout)
            else:
                errors.pop(t, None)  # e.g. TOPIC_ALREADY_EXISTS, but it is there
    finally:
        admin.close()
    print(json.dumps({"created": sorted(t for t in args.topics if t not in errors),
                      "errors": errors}))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Instructions per call of each side's operation, counted by callgrind.

Timings on a shared machine move by tens of percent; instruction counts do not. For
each operation this runs the bench binary under callgrind with collection switched
on only inside that side's operation function (`side_by_side::kw_decode`, ...), then
divides the instructions spent inside it by the number of calls.

    python3 tests/benches/instructions.py metadata metadata_response_v12 decode encode size

The first argument is the bench, the second its criterion group, the rest the
operations. Needs valgrind. The decoded value is dropped outside the operation, so
decode counts do not include freeing it.
"""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SIDES = {"kw": "kafka-wire", "kp": "kafka-protocol"}


def bench_binary(bench: str) -> str:
    """Builds the bench and returns its executable's path."""
    out = subprocess.run(
        ["cargo", "bench", "-p", "kwire-tests", "--bench", bench, "--no-run",
         "--message-format=json"],
        check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable") \
                and message["target"]["name"] == bench:
            return message["executable"]
    sys.exit(f"no executable built for bench {bench!r}")


def per_call(profile: Path, function: str) -> tuple[int, int]:
    """(calls, inclusive instructions) of the function whose name contains `function`,
    summed over its call sites in a callgrind profile."""
    lines = profile.read_text().splitlines()
    names = {}
    for line in lines:
        found = re.match(r"c?fn=\((\d+)\) (.+)", line)
        if found:
            names[found.group(1)] = found.group(2)
    wanted = {id for id, name in names.items() if function in name}
    calls = instructions = 0
    for i, line in enumerate(lines):
        site = re.match(r"cfn=\((\d+)\)", line)
        if site and site.group(1) in wanted:
            count = re.match(r"calls=(\d+)", lines[i + 1])
            if count:
                calls += int(count.group(1))
                instructions += int(lines[i + 2].split()[1])
    return calls, instructions


def main() -> None:
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    bench, group, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
    binary = bench_binary(bench)
    print(f"{group}: instructions per call")
    with tempfile.TemporaryDirectory() as tmp:
        for op in ops:
            counts = {}
            for side, name in SIDES.items():
                function = f"side_by_side::{side}_{op}"
                profile = Path(tmp) / f"{side}_{op}.callgrind"
                subprocess.run(
                    ["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}",
                     f"--toggle-collect=*{function}*", binary, "--bench",
                     "--profile-time", "2", f"{group}/{op}/{name}"],
                    check=True, capture_output=True,
                )
                calls, instructions = per_call(profile, function)
                if calls == 0:
                    sys.exit(f"callgrind saw no call of {function}")
                counts[side] = instructions // calls
            ratio = counts["kp"] / counts["kw"]
            print(f"{op:8} kafka-wire {counts['kw']:>10,} | kafka-protocol "
                  f"{counts['kp']:>10,} | kafka-protocol / kafka-wire {ratio:.2f}x")


if __name__ == "__main__":
    main()

"""The matrix's report: text tables for the console, Markdown, JSON.

A setup's table has one row per producer and one column per consumer; a cell
combines the producer's codecs and both consume modes: `pass`, `limit` (every
problem is covered by a documented broker limit), `FAIL(reason)` (first
problems), or `-` (a client does not read its own topics).

Standard library only.
"""

import json

PROXY_COLUMNS = ["api_key", "name", "requests", "responses", "request_bytes",
                 "response_bytes", "mismatches", "decode_failures", "rewrites"]


def cell_text(cells, width=60):
    """One table cell from the per-(codec, mode) cells of a producer/consumer
    pair: FAIL(first problem: where it happened; +N other problems)."""
    if not cells:
        return "-"
    fails = [c for c in cells if c["status"] == "fail"]
    if fails:
        by_problem = {}
        for c in fails:
            by_problem.setdefault(c["problems"][0], []).append(c)
        problem, where = next(iter(by_problem.items()))
        text = "%s: %s" % (_where(where, cells), problem)
        if len(by_problem) > 1:
            text += "; +%d other" % (len(by_problem) - 1)
        if len(text) > width:
            text = text[:width - 3] + "..."
        return "FAIL(%s)" % text
    if any(c["status"] == "limit" for c in cells):
        return "limit"
    return "pass"


def _where(some, cells):
    """"gzip/assign", "none,gzip/group", "all/assign+group" or "7 cells"."""
    codecs = sorted({c["codec"] for c in some}, key=[c["codec"] for c in cells].index)
    modes = sorted({c["mode"] for c in some})
    if len(some) != len(codecs) * len(modes):
        return "%d cells" % len(some)
    every = len(codecs) == len({c["codec"] for c in cells})
    return "%s/%s" % ("all" if every and len(codecs) > 1 else ",".join(codecs), "+".join(modes))


def matrix_rows(setup):
    """[[header...], [producer, cell...], ...] for one setup's result dict."""
    consumers = setup["consumers"]
    rows = [["producer \\ consumer"] + consumers]
    by_pair = {}
    for c in setup["cells"]:
        by_pair.setdefault((c["producer"], c["consumer"]), []).append(c)
    for p in setup["producers"]:
        rows.append([p] + [cell_text(by_pair.get((p, q), [])) for q in consumers])
    return rows


def proxy_rows(report):
    """Rows of the proxy's per-API counts (from its JSON report), with a total."""
    rows = [PROXY_COLUMNS[:]]
    totals = {k: 0 for k in PROXY_COLUMNS[2:]}
    for api in sorted(report.get("apis", []), key=lambda a: a.get("api_key", 0)):
        rows.append([str(api.get(k, "")) for k in PROXY_COLUMNS])
        for k in totals:
            if isinstance(api.get(k), int):
                totals[k] += api[k]
    rows.append(["", "total"] + [str(totals[k]) for k in PROXY_COLUMNS[2:]])
    return rows


def timings_text(timings):
    """"a 1.0 s, b 2.0 s, total 3.0 s" (total last)."""
    items = [kv for kv in timings.items() if kv[0] != "total"]
    if "total" in timings:
        items.append(("total", timings["total"]))
    return ", ".join("%s %.1f s" % kv for kv in items)


def text_table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, r in enumerate(rows):
        out.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def markdown_table(rows):
    def esc(s):
        return s.replace("|", "\\|")
    out = ["| " + " | ".join(esc(c) for c in rows[0]) + " |",
           "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows[1:]]
    return "\n".join(out)


def markdown(result):
    """The whole result as Markdown (tables, failures, proxy counts, timings)."""
    out = ["# Interop matrix: %s" % ("PASS" if result["ok"] else "FAIL"), "",
           "%s; %d message(s) per producer and codec; spec from %s." % (
               result["started"], result["count"], result["spec_source"]), ""]
    for s in result["setups"]:
        out.append("## %s" % s["name"])
        out.append("")
        out.append(s.get("description") or "")
        out.append("")
        if s["status"] != "ran":
            out.append("**%s**: %s" % (s["status"], s.get("error")))
            out.append("")
            continue
        out.append(markdown_table(matrix_rows(s)))
        out.append("")
        for lim in s.get("limits_applied") or []:
            out.append("- `limit`: " + lim)
        if s.get("limits_applied"):
            out.append("")
        if s.get("proxy_report"):
            out.append("Proxy, per API:")
            out.append("")
            out.append(markdown_table(proxy_rows(s["proxy_report"])))
            out.append("")
        out.append("Timings: " + timings_text(s["timings"]))
        out.append("")
    if result["failures"]:
        out.append("## Failures")
        out.append("")
        out += ["- " + f.replace("\n", " ") for f in result["failures"]]
        out.append("")
    if result["notes"]:
        out.append("## Notes")
        out.append("")
        out += ["- " + n.replace("\n", " ") for n in result["notes"]]
        out.append("")
    out.append("Timings: %s." % timings_text(result["timings"]))
    return "\n".join(out) + "\n"


def write_json(path, result):
    with open(path, "w") as f:
        json.dump(result, f, indent=1, sort_keys=False)
        f.write("\n")

"""The five records every producer script sends, in this order, to partition 0
of topic "fixtures" (shared by the Python producer scripts and by
produce_decode.py --expect; kafkajs_producer.js holds the same list).

Each record: (key, value, headers, timestamp_ms); None is null. Record 4's
header value is null where the client can send a null header value.
"""

TOPIC = "fixtures"
PARTITION = 0
CODECS = ("none", "gzip", "snappy", "lz4", "zstd")

RECORDS = [
    (b"k1", b"v1", [], 1700000000000),
    (None, b"v2", [("h1", b"x")], 1700000000001),
    (b"k3", None, [], 1700000000002),
    (b"", b"", [("h2", None)], 1700000000003),
    (b"k5", b"abcdefghij" * 100, [("a", b"1"), ("b", b"2")], 1700000000004),
]

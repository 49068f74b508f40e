// Kafka's own record batch code (kafka-clients 4.4.0) as the judge of ours
// (issue 31, point 4). Driven over stdin/stdout by tests/src/bin/records_judge.rs,
// one JVM for a whole run:
//
//   kafka SEED COUNT   Kafka writes its batches: every fixed case (each kind with
//                      each codec) and COUNT random ones from SEED. For each case:
//                        case NAME HEX
//                        <Kafka's listing of those bytes>
//                        end
//                      then `done`.
//   read NAME HEX      Kafka reads our bytes: <Kafka's listing> then `end`, or
//                      `error CLASS: MESSAGE` then `end` if Kafka refuses them.
//
// The listing is what Kafka's reader makes of the bytes (MemoryRecords.readableRecords,
// ensureValid on each batch, iteration of its records), one line per batch, one
// per record, then a `bytes` line. The Rust side prints the same listing from our
// reader (Kafka's batches -> us) or from the values it built (ours -> Kafka), so
// that a difference is a differing line:
//
//   batch base_offset=B last_offset=L count=N partition_leader_epoch=E magic=2
//         codec=C timestamp_type=create|log_append transactional=T control=T
//         producer_id=P producer_epoch=PE base_sequence=S base_timestamp=BT
//         max_timestamp=MT delete_horizon=none|MS size=BYTES crc=CRC
//   record offset=O timestamp=TS key=HEX|null value=HEX|null headers=[KEYHEX:VALUEHEX|null,...]
//          [control=TYPE DETAILS]   (control batches only)
//   bytes total=N valid=V
//
// Keys, values and header keys are written in hex, so no byte of them can be
// taken for a separator. stdout carries only this protocol: System.out is
// pointed at stderr before any Kafka class runs (a library that prints would
// otherwise corrupt it).

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.message.KRaftVersionRecord;
import org.apache.kafka.common.message.LeaderChangeMessage;
import org.apache.kafka.common.message.SnapshotFooterRecord;
import org.apache.kafka.common.message.SnapshotHeaderRecord;
import org.apache.kafka.common.message.VotersRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.ControlRecordUtils;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;

public final class RecordsJudge {
    private static final HexFormat HEX = HexFormat.of();
    private static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};
    /** A fixed time, so that a run's batches are the same every time. */
    private static final long T0 = 1_700_000_000_000L;

    private RecordsJudge() {}

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
                StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] words = line.split(" ", 3);
            switch (words[0]) {
                case "kafka" -> {
                    writeKafkaCases(out, Long.parseLong(words[1]), Integer.parseInt(words[2]));
                    out.println("done");
                }
                case "read" -> {
                    byte[] bytes = words.length > 2 ? HEX.parseHex(words[2]) : new byte[0];
                    out.print(listingOrError(bytes));
                    out.println("end");
                }
                default -> {
                    out.println("error unknown command " + words[0]);
                    out.println("end");
                }
            }
            out.flush();
        }
    }

    // ------------------------------------------------------------ reading --

    /** Kafka's listing of the bytes, or its refusal as one `error` line. */
    static String listingOrError(byte[] bytes) {
        try {
            return listing(bytes);
        } catch (RuntimeException e) {
            return "error " + e.getClass().getSimpleName() + ": "
                    + String.valueOf(e.getMessage()).replace('\n', ' ') + "\n";
        }
    }

    static String listing(byte[] bytes) {
        MemoryRecords records = MemoryRecords.readableRecords(ByteBuffer.wrap(bytes));
        StringBuilder s = new StringBuilder();
        for (MutableRecordBatch batch : records.batches()) {
            batch.ensureValid();
            OptionalLong horizon = batch.deleteHorizonMs();
            long baseTimestamp = batch instanceof DefaultRecordBatch d ? d.baseTimestamp() : -1;
            s.append("batch base_offset=").append(batch.baseOffset())
                    .append(" last_offset=").append(batch.lastOffset())
                    .append(" count=").append(batch.countOrNull())
                    .append(" partition_leader_epoch=").append(batch.partitionLeaderEpoch())
                    .append(" magic=").append(batch.magic())
                    .append(" codec=").append(batch.compressionType().name)
                    .append(" timestamp_type=").append(timestampType(batch.timestampType()))
                    .append(" transactional=").append(batch.isTransactional())
                    .append(" control=").append(batch.isControlBatch())
                    .append(" producer_id=").append(batch.producerId())
                    .append(" producer_epoch=").append(batch.producerEpoch())
                    .append(" base_sequence=").append(batch.baseSequence())
                    .append(" base_timestamp=").append(baseTimestamp)
                    .append(" max_timestamp=").append(batch.maxTimestamp())
                    .append(" delete_horizon=")
                    .append(horizon.isPresent() ? Long.toString(horizon.getAsLong()) : "none")
                    .append(" size=").append(batch.sizeInBytes())
                    .append(" crc=").append(batch.checksum())
                    .append('\n');
            for (Record record : batch) {
                record.ensureValid();
                s.append("record offset=").append(record.offset())
                        .append(" timestamp=").append(record.timestamp())
                        .append(" key=").append(hex(record.key()))
                        .append(" value=").append(hex(record.value()))
                        .append(" headers=[");
                Header[] headers = record.headers();
                for (int i = 0; i < headers.length; i++) {
                    if (i > 0) {
                        s.append(',');
                    }
                    s.append(HEX.formatHex(headers[i].key().getBytes(StandardCharsets.UTF_8)))
                            .append(':')
                            .append(headers[i].value() == null ? "null" : HEX.formatHex(headers[i].value()));
                }
                s.append(']');
                if (batch.isControlBatch()) {
                    s.append(" control=").append(control(record));
                }
                s.append('\n');
            }
        }
        s.append("bytes total=").append(bytes.length).append(" valid=").append(records.validBytes())
                .append('\n');
        return s.toString();
    }

    static String timestampType(TimestampType type) {
        return switch (type) {
            case CREATE_TIME -> "create";
            case LOG_APPEND_TIME -> "log_append";
            default -> "none";
        };
    }

    static String hex(ByteBuffer buffer) {
        if (buffer == null) {
            return "null";
        }
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return HEX.formatHex(bytes);
    }

    /** What Kafka's control record readers make of a control record. */
    static String control(Record record) {
        ControlRecordType type = ControlRecordType.parse(record.key());
        return switch (type) {
            case ABORT, COMMIT -> type.name().toLowerCase() + " coordinator_epoch="
                    + EndTransactionMarker.deserialize(record).coordinatorEpoch();
            case LEADER_CHANGE -> {
                LeaderChangeMessage m = ControlRecordUtils.deserializeLeaderChangeMessage(record);
                StringBuilder s = new StringBuilder("leader_change leader=").append(m.leaderId())
                        .append(" voters=");
                m.voters().forEach(v -> s.append(v.voterId()).append(';'));
                s.append(" granting=");
                m.grantingVoters().forEach(v -> s.append(v.voterId()).append(';'));
                yield s.toString();
            }
            case SNAPSHOT_HEADER -> "snapshot_header last_contained_log_timestamp="
                    + ControlRecordUtils.deserializeSnapshotHeaderRecord(record).lastContainedLogTimestamp();
            case SNAPSHOT_FOOTER -> {
                ControlRecordUtils.deserializeSnapshotFooterRecord(record);
                yield "snapshot_footer";
            }
            case KRAFT_VERSION -> "kraft_version kraft_version="
                    + ControlRecordUtils.deserializeKRaftVersionRecord(record).kRaftVersion();
            case KRAFT_VOTERS -> {
                VotersRecord m = ControlRecordUtils.deserializeVotersRecord(record);
                StringBuilder s = new StringBuilder("kraft_voters voters=");
                m.voters().forEach(v -> s.append(v.voterId()).append('@')
                        .append(v.endpoints().size()).append(';'));
                yield s.toString();
            }
            default -> "unknown";
        };
    }

    // ------------------------------------------------------------ writing --

    /** The settings of one batch, as MemoryRecordsBuilder's constructor takes them. */
    static final class Spec {
        String codec = "none";
        int level = Integer.MIN_VALUE; // the codec's default level
        TimestampType timestampType = TimestampType.CREATE_TIME;
        long baseOffset = 0;
        long logAppendTime = RecordBatch.NO_TIMESTAMP;
        long producerId = RecordBatch.NO_PRODUCER_ID;
        short producerEpoch = RecordBatch.NO_PRODUCER_EPOCH;
        int baseSequence = RecordBatch.NO_SEQUENCE;
        boolean transactional = false;
        boolean control = false;
        int partitionLeaderEpoch = RecordBatch.NO_PARTITION_LEADER_EPOCH;
        long deleteHorizonMs = RecordBatch.NO_TIMESTAMP;
        long overrideLastOffset = -1;

        Spec codec(String c) { codec = c; return this; }
        Spec producer(long id, short epoch, int sequence) {
            producerId = id; producerEpoch = epoch; baseSequence = sequence; return this;
        }

        Compression compression() {
            return switch (codec) {
                case "none" -> Compression.NONE;
                case "gzip" -> level == Integer.MIN_VALUE ? Compression.gzip().build()
                        : Compression.gzip().level(level).build();
                case "snappy" -> Compression.snappy().build();
                case "lz4" -> level == Integer.MIN_VALUE ? Compression.lz4().build()
                        : Compression.lz4().level(level).build();
                case "zstd" -> level == Integer.MIN_VALUE ? Compression.zstd().build()
                        : Compression.zstd().level(level).build();
                default -> throw new IllegalArgumentException("codec " + codec);
            };
        }

        MemoryRecordsBuilder builder() {
            return new MemoryRecordsBuilder(new ByteBufferOutputStream(1024), RecordBatch.MAGIC_VALUE_V2,
                    compression(), timestampType, baseOffset, logAppendTime, producerId, producerEpoch,
                    baseSequence, transactional, control, partitionLeaderEpoch, Integer.MAX_VALUE,
                    deleteHorizonMs);
        }
    }

    /** One record to append: its offset relative to the base, and its fields. */
    record Rec(long offsetDelta, long timestamp, byte[] key, byte[] value, Header[] headers) {}

    static byte[] build(Spec spec, List<Rec> recs) {
        MemoryRecordsBuilder b = spec.builder();
        for (Rec r : recs) {
            b.appendWithOffset(spec.baseOffset + r.offsetDelta(), r.timestamp(), r.key(), r.value(),
                    r.headers());
        }
        if (spec.overrideLastOffset >= 0) {
            b.overrideLastOffset(spec.overrideLastOffset);
        }
        return bytes(b.build());
    }

    static byte[] bytes(MemoryRecords records) {
        ByteBuffer buffer = records.buffer().duplicate();
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Header[] headers(Object... keyValues) {
        Header[] out = new Header[keyValues.length / 2];
        for (int i = 0; i < out.length; i++) {
            Object v = keyValues[2 * i + 1];
            out[i] = new RecordHeader((String) keyValues[2 * i], v == null ? null : utf8((String) v));
        }
        return out;
    }

    static List<Rec> sequential(int n, long t0) {
        List<Rec> recs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            recs.add(new Rec(i, t0 + i * 7L, utf8("key-" + i), utf8("value-" + i + "-" + "x".repeat(i % 50)),
                    Record.EMPTY_HEADERS));
        }
        return recs;
    }

    /** Some compressible text and some random bytes that do not compress. */
    static byte[] large(int size, boolean compressible, long seed) {
        byte[] out = new byte[size];
        if (compressible) {
            byte[] text = utf8("the quick brown fox jumps over the lazy dog; ");
            for (int i = 0; i < size; i++) {
                out[i] = text[i % text.length];
            }
        } else {
            new SplittableRandom(seed).nextBytes(out);
        }
        return out;
    }

    static void emit(PrintStream out, String name, byte[] bytes) {
        out.println("case " + name + " " + HEX.formatHex(bytes));
        out.print(listingOrError(bytes));
        out.println("end");
    }

    static void writeKafkaCases(PrintStream out, long seed, int randomCount) {
        for (String codec : CODECS) {
            // Keys and values null, empty and long; a record without a timestamp.
            List<Rec> plain = new ArrayList<>();
            plain.add(new Rec(0, T0, utf8("k"), utf8("v"), Record.EMPTY_HEADERS));
            plain.add(new Rec(1, T0 + 5, null, utf8("no key"), Record.EMPTY_HEADERS));
            plain.add(new Rec(2, T0 - 3, utf8("tombstone"), null, Record.EMPTY_HEADERS));
            plain.add(new Rec(3, T0 + 9, new byte[0], new byte[0], Record.EMPTY_HEADERS));
            plain.add(new Rec(4, T0 + 1, null, null, Record.EMPTY_HEADERS));
            plain.add(new Rec(5, RecordBatch.NO_TIMESTAMP, utf8("no timestamp"), utf8("-1"), Record.EMPTY_HEADERS));
            plain.add(new Rec(6, T0 + 2, utf8("text"), large(65_536, true, 0), Record.EMPTY_HEADERS));
            plain.add(new Rec(7, T0 + 4, large(300, false, 1), large(100_000, false, 2), Record.EMPTY_HEADERS));
            emit(out, "plain/" + codec, build(new Spec().codec(codec), plain));

            List<Rec> withHeaders = new ArrayList<>();
            withHeaders.add(new Rec(0, T0, utf8("a"), utf8("1"), headers("trace", "abc", "empty", "", "none", null)));
            withHeaders.add(new Rec(1, T0 + 1, utf8("b"), utf8("2"), headers("dup", "x", "dup", "y")));
            withHeaders.add(new Rec(2, T0 + 2, utf8("c"), utf8("3"), headers("", "empty key", "clé-ü-✓", "ünïcødé")));
            withHeaders.add(new Rec(3, T0 + 3, utf8("d"), utf8("4"), Record.EMPTY_HEADERS));
            withHeaders.add(new Rec(4, T0 + 4, null, null, headers("long", "h".repeat(5000))));
            emit(out, "headers/" + codec, build(new Spec().codec(codec), withHeaders));

            emit(out, "idempotent/" + codec,
                    build(new Spec().codec(codec).producer(4_000, (short) 3, 17), sequential(10, T0)));

            Spec txn = new Spec().codec(codec).producer(4_001, (short) 0, 0);
            txn.transactional = true;
            emit(out, "transactional/" + codec, build(txn, sequential(5, T0)));

            // Offset gaps, as compaction leaves them, and the cleaner's override of
            // the last offset (records removed from the end).
            List<Rec> gaps = new ArrayList<>();
            long[] deltas = {0, 3, 4, 10, 11, 200};
            for (int i = 0; i < deltas.length; i++) {
                gaps.add(new Rec(deltas[i], T0 + i, utf8("g" + i), utf8("gap " + deltas[i]), Record.EMPTY_HEADERS));
            }
            Spec gapSpec = new Spec().codec(codec).producer(4_002, (short) 1, 100);
            gapSpec.baseOffset = 1_000;
            gapSpec.overrideLastOffset = 1_000 + 250;
            emit(out, "offset_gaps/" + codec, build(gapSpec, gaps));

            Spec lat = new Spec().codec(codec);
            lat.timestampType = TimestampType.LOG_APPEND_TIME;
            lat.logAppendTime = T0 + 999_000;
            emit(out, "log_append_time/" + codec, build(lat, sequential(4, T0)));

            // A compacted batch keeping tombstones until its delete horizon.
            List<Rec> horizon = new ArrayList<>();
            horizon.add(new Rec(0, T0, utf8("gone"), null, Record.EMPTY_HEADERS));
            horizon.add(new Rec(2, T0 + 10, utf8("kept"), utf8("v"), Record.EMPTY_HEADERS));
            horizon.add(new Rec(5, T0 + 20, utf8("gone too"), null, headers("h", "v")));
            Spec horizonSpec = new Spec().codec(codec);
            horizonSpec.deleteHorizonMs = T0 + 86_400_000L;
            emit(out, "delete_horizon/" + codec, build(horizonSpec, horizon));

            Spec epoch = new Spec().codec(codec);
            epoch.partitionLeaderEpoch = 42;
            epoch.baseOffset = 1L << 40;
            emit(out, "leader_epoch/" + codec, build(epoch, sequential(3, T0)));

            emit(out, "many/" + codec, build(new Spec().codec(codec), sequential(2_000, T0)));

            // A control batch through the builder with the codec (brokers write
            // markers uncompressed, but a reader must not care).
            Spec controlSpec = new Spec().codec(codec).producer(4_003, (short) 2, RecordBatch.NO_SEQUENCE);
            controlSpec.transactional = true;
            controlSpec.control = true;
            controlSpec.baseOffset = 77;
            MemoryRecordsBuilder cb = controlSpec.builder();
            cb.appendEndTxnMarker(T0, new EndTransactionMarker(ControlRecordType.COMMIT, 7));
            emit(out, "control_builder/" + codec, bytes(cb.build()));

            // Several batches in one records field.
            ByteBuffer multi = ByteBuffer.allocate(64 * 1024);
            for (int i = 0; i < 3; i++) {
                Spec s = new Spec().codec(codec);
                s.baseOffset = 100L * i;
                multi.put(build(s, sequential(i + 1, T0 + i)));
            }
            multi.flip();
            byte[] multiBytes = new byte[multi.remaining()];
            multi.get(multiBytes);
            emit(out, "multi_batch/" + codec, multiBytes);
        }

        // Compression levels (KIP-390): other frames, the same records.
        Object[][] levels = {{"gzip", 1}, {"gzip", 9}, {"lz4", 1}, {"lz4", 17}, {"zstd", -5}, {"zstd", 19}};
        for (Object[] l : levels) {
            Spec s = new Spec().codec((String) l[0]);
            s.level = (Integer) l[1];
            emit(out, "level/" + l[0] + "-" + l[1], build(s, sequential(50, T0)));
        }

        // The control batches brokers and the KRaft layer write.
        emit(out, "control/commit", bytes(MemoryRecords.withEndTransactionMarker(500, T0, 3, 4_004, (short) 5,
                new EndTransactionMarker(ControlRecordType.COMMIT, 11))));
        emit(out, "control/abort", bytes(MemoryRecords.withEndTransactionMarker(501, T0, 3, 4_004, (short) 5,
                new EndTransactionMarker(ControlRecordType.ABORT, 12))));
        LeaderChangeMessage leaderChange = new LeaderChangeMessage().setLeaderId(2)
                .setVoters(List.of(new LeaderChangeMessage.Voter().setVoterId(1),
                        new LeaderChangeMessage.Voter().setVoterId(2)))
                .setGrantingVoters(List.of(new LeaderChangeMessage.Voter().setVoterId(2)));
        emit(out, "control/leader_change", bytes(MemoryRecords.withLeaderChangeMessage(600, T0, 9,
                ByteBuffer.allocate(256), leaderChange)));
        emit(out, "control/snapshot_header", bytes(MemoryRecords.withSnapshotHeaderRecord(0, T0, 9,
                ByteBuffer.allocate(256), new SnapshotHeaderRecord().setLastContainedLogTimestamp(T0 - 1))));
        emit(out, "control/snapshot_footer", bytes(MemoryRecords.withSnapshotFooterRecord(10, T0, 9,
                ByteBuffer.allocate(256), new SnapshotFooterRecord())));
        emit(out, "control/kraft_version", bytes(MemoryRecords.withKRaftVersionRecord(11, T0, 9,
                ByteBuffer.allocate(256), new KRaftVersionRecord().setKRaftVersion((short) 1))));
        VotersRecord.EndpointCollection endpoints = new VotersRecord.EndpointCollection();
        endpoints.add(new VotersRecord.Endpoint().setName("CONTROLLER").setHost("localhost").setPort(9093));
        VotersRecord voters = new VotersRecord().setVoters(List.of(new VotersRecord.Voter().setVoterId(1)
                .setVoterDirectoryId(new Uuid(1L, 2L)).setEndpoints(endpoints)
                .setKRaftVersionFeature(new VotersRecord.KRaftVersionFeature()
                        .setMinSupportedVersion((short) 0).setMaxSupportedVersion((short) 1))));
        emit(out, "control/kraft_voters", bytes(MemoryRecords.withVotersRecord(12, T0, 9,
                ByteBuffer.allocate(512), voters)));

        // The header-only batch the log cleaner keeps for a producer's state.
        ByteBuffer empty = ByteBuffer.allocate(DefaultRecordBatch.RECORD_BATCH_OVERHEAD);
        DefaultRecordBatch.writeEmptyHeader(empty, RecordBatch.MAGIC_VALUE_V2, 4_005, (short) 2, 40, 500, 509, 7,
                TimestampType.CREATE_TIME, T0, true, false);
        emit(out, "empty/cleaner", empty.array());

        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < randomCount; i++) {
            emit(out, "random/" + seed + "-" + i, randomBatch(random));
        }
    }

    /** A batch of random settings and records; the same ones for the same seed. */
    static byte[] randomBatch(SplittableRandom r) {
        Spec s = new Spec().codec(CODECS[r.nextInt(CODECS.length)]);
        s.baseOffset = r.nextBoolean() ? r.nextLong(0, 1_000) : r.nextLong(0, 1L << 50);
        s.partitionLeaderEpoch = r.nextInt(4) == 0 ? -1 : r.nextInt(0, 1_000);
        if (r.nextInt(3) == 0) {
            s.producer(r.nextLong(0, 1L << 40), (short) r.nextInt(0, Short.MAX_VALUE), r.nextInt(0, Integer.MAX_VALUE / 2));
            s.transactional = r.nextBoolean();
        }
        if (r.nextInt(5) == 0) {
            s.timestampType = TimestampType.LOG_APPEND_TIME;
            s.logAppendTime = T0 + r.nextLong(0, 1L << 30);
        }
        // Independent of the timestamp type: the cleaner keeps a LogAppendTime batch's type.
        if (r.nextInt(5) == 0) {
            s.deleteHorizonMs = T0 + r.nextLong(0, 1L << 30);
        }
        List<Rec> recs = new ArrayList<>();
        int n = 1 + r.nextInt(r.nextInt(4) == 0 ? 300 : 20);
        long delta = 0;
        long t = T0 + r.nextLong(-1L << 30, 1L << 30);
        for (int i = 0; i < n; i++) {
            long timestamp = r.nextInt(20) == 0 ? RecordBatch.NO_TIMESTAMP : t + r.nextLong(-100_000, 100_000);
            Header[] headers = new Header[r.nextInt(4) == 0 ? r.nextInt(1, 5) : 0];
            for (int h = 0; h < headers.length; h++) {
                headers[h] = new RecordHeader(randomKey(r), r.nextInt(5) == 0 ? null : randomBytes(r, 40));
            }
            recs.add(new Rec(delta, timestamp, r.nextInt(6) == 0 ? null : randomBytes(r, 60),
                    r.nextInt(8) == 0 ? null : randomBytes(r, r.nextInt(10) == 0 ? 20_000 : 500), headers));
            delta += r.nextInt(4) == 0 ? r.nextInt(2, 1_000) : 1;
        }
        if (r.nextInt(6) == 0) {
            s.overrideLastOffset = s.baseOffset + delta - 1 + r.nextInt(0, 50);
        }
        return build(s, recs);
    }

    /** Random bytes, compressible (repeated runs) half the time. */
    static byte[] randomBytes(SplittableRandom r, int max) {
        byte[] out = new byte[r.nextInt(0, max + 1)];
        if (r.nextBoolean()) {
            r.nextBytes(out);
        } else {
            for (int i = 0; i < out.length; i++) {
                out[i] = (byte) ('a' + (i / 7) % 3);
            }
        }
        return out;
    }

    static String randomKey(SplittableRandom r) {
        String[] parts = {"trace", "id", "ü", "✓", "", "x-", "𝄞"};
        StringBuilder s = new StringBuilder();
        for (int i = r.nextInt(0, 4); i > 0; i--) {
            s.append(parts[r.nextInt(parts.length)]);
        }
        return s.toString();
    }
}

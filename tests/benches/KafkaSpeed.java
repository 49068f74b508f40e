// Kafka's generated message classes (kafka-clients 4.4.0), timed on the same bodies
// as the kafka-wire benches (issue 31, point 7). Run by java_speed.py, which writes
// the bodies (`KWIRE_BENCH_BODIES`, see side_by_side/mod.rs) and compiles this file
// with `javac --release 17 -Xlint:all -Werror` against Kafka's classpath.
//
//     java -cp CLASSES:KAFKA_CP KafkaSpeed BODIES_DIR [WARMUP_SECONDS]
//
// Each operation is what a Java client or broker does with the generated classes:
// decode = `new XData(new ByteBufferAccessor(body), version)`; encode = `size` then
// allocate then `write` with one `ObjectSerializationCache`, from the decoded value.
// Before any timing, each body is decoded (all bytes consumed) and re-encoded to the
// same bytes; a difference fails the run. Then all operations are warmed up together
// (C2 compiles them), then timed in interleaved batches of about 20 ms, rotating the
// order each round; the median batch gives ns per operation. Output, one line per
// operation: `RESULT <op> <ns per op> <body bytes>`.

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

public final class KafkaSpeed {
    private static final int ROUNDS = 31;
    private static final long BATCH_NANOS = 20_000_000L;

    /** Keeps each result alive so the JIT cannot drop the work. */
    private static volatile Object sink;

    private interface Op {
        Object run();
    }

    private static final class Bench {
        final String name;
        final int bytes;
        final Op op;
        int batch;
        final double[] samples = new double[ROUNDS];

        Bench(String name, int bytes, Op op) {
            this.name = name;
            this.bytes = bytes;
            this.op = op;
        }
    }

    private static ByteBuffer encode(ApiMessage message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = message.size(cache, version);
        ByteBuffer out = ByteBuffer.allocate(size);
        message.write(new ByteBufferAccessor(out), cache, version);
        out.flip();
        return out;
    }

    /** Decodes `body`, checks every byte was read and that it encodes back to `body`;
     *  returns the decoded value. */
    private static <M extends ApiMessage> M check(String name, byte[] body, short version,
                                                  Function<ByteBuffer, M> decode) {
        ByteBuffer in = ByteBuffer.wrap(body);
        M message = decode.apply(in);
        if (in.hasRemaining()) {
            throw new IllegalStateException(name + ": " + in.remaining()
                    + " bytes left after decoding");
        }
        ByteBuffer out = encode(message, version);
        byte[] again = new byte[out.remaining()];
        out.get(again);
        if (!Arrays.equals(body, again)) {
            throw new IllegalStateException(name + ": Kafka re-encodes " + again.length
                    + " bytes, different from the " + body.length + " bytes read");
        }
        return message;
    }

    private static double timeBatch(Op op, int batch) {
        long start = System.nanoTime();
        for (int i = 0; i < batch; i++) {
            sink = op.run();
        }
        return (double) (System.nanoTime() - start) / batch;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        double warmupSeconds = args.length > 1 ? Double.parseDouble(args[1]) : 10.0;

        byte[] metadata = Files.readAllBytes(dir.resolve("metadata_response_v12.bin"));
        byte[] produce = Files.readAllBytes(dir.resolve("produce_request_v9.bin"));
        byte[] fetch = Files.readAllBytes(dir.resolve("fetch_response_v16_1MiB.bin"));
        final short mv = 12;
        final short pv = 9;
        final short fv = 16;

        MetadataResponseData md = check("MetadataResponse v12", metadata, mv,
                b -> new MetadataResponseData(new ByteBufferAccessor(b), mv));
        ProduceRequestData pd = check("ProduceRequest v9", produce, pv,
                b -> new ProduceRequestData(new ByteBufferAccessor(b), pv));
        FetchResponseData fd = check("FetchResponse v16", fetch, fv,
                b -> new FetchResponseData(new ByteBufferAccessor(b), fv));

        // Each decode reads a fresh view of the body (a ByteBuffer has one position).
        List<Bench> benches = new ArrayList<>();
        benches.add(new Bench("metadata_v12/decode", metadata.length,
                () -> new MetadataResponseData(
                        new ByteBufferAccessor(ByteBuffer.wrap(metadata)), mv)));
        benches.add(new Bench("metadata_v12/encode", metadata.length, () -> encode(md, mv)));
        benches.add(new Bench("produce_v9/decode", produce.length,
                () -> new ProduceRequestData(
                        new ByteBufferAccessor(ByteBuffer.wrap(produce)), pv)));
        benches.add(new Bench("produce_v9/encode", produce.length, () -> encode(pd, pv)));
        benches.add(new Bench("fetch_v16_1MiB/decode", fetch.length,
                () -> new FetchResponseData(
                        new ByteBufferAccessor(ByteBuffer.wrap(fetch)), fv)));
        benches.add(new Bench("fetch_v16_1MiB/encode", fetch.length, () -> encode(fd, fv)));

        // Warm-up: every operation in turn until the time is spent, then the batch
        // size of each from its speed at the end of the warm-up.
        long warmupEnd = System.nanoTime() + (long) (warmupSeconds * 1e9);
        while (System.nanoTime() < warmupEnd) {
            for (Bench b : benches) {
                long start = System.nanoTime();
                while (System.nanoTime() - start < 50_000_000L) {
                    sink = b.op.run();
                }
            }
        }
        for (Bench b : benches) {
            double ns = timeBatch(b.op, 1000);
            b.batch = (int) Math.max(1, Math.min(Integer.MAX_VALUE, BATCH_NANOS / ns));
        }

        int n = benches.size();
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < n; i++) {
                Bench b = benches.get((round + i) % n);
                b.samples[round] = timeBatch(b.op, b.batch);
            }
        }
        for (Bench b : benches) {
            double[] s = b.samples.clone();
            Arrays.sort(s);
            double ns = s[ROUNDS / 2];
            System.out.printf("RESULT %s %.1f %d%n", b.name, ns, b.bytes);
            System.err.printf("%-24s %12.1f ns %10.0f MB/s  (min %.1f, max %.1f)%n",
                    b.name, ns, b.bytes / ns * 1e3, s[0], s[ROUNDS - 1]);
        }
    }
}

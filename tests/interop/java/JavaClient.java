// Kafka's own Java client (kafka-clients 4.4.0) as a client of the interop
// matrix, and of the security suites (contract: ../matrix/README.md, section
// "Kafka's Java client").
//
//   JavaClient produce --bootstrap B --producer P --topic T --codec C --count N
//   JavaClient consume --bootstrap B --topics T1,T2 --mode assign|group [--group G] --expect N
//   JavaClient admin --bootstrap B --topic T
//   JavaClient transactional-produce --bootstrap B --topic T --transactional-id X
//                                    --group G --count N
//   every command: [--timeout SECONDS] [--security-protocol PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL]
//                  [--sasl-mechanism M] [--username U] [--password P] [--ca FILE]
//                  [--oauth-token TOKEN]
//
// One file, compiled by ../matrix/clients/java_client.py with javac against the
// Kafka classpath, so that it needs no build tool. stdout carries only JSON
// lines; everything else (Kafka's logging included) goes to stderr: System.out
// is pointed at stderr before any Kafka class runs, and the JSON goes to the
// original stdout.
//
// Every command ends the process with Runtime.halt once its result is printed:
// exit 0 only if everything it checked held. A watchdog halts it (exit 1,
// after printing what it has to print) shortly before --timeout, so a client
// stuck on a broker that never answers cannot outlive its budget.

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.auth.login.AppConfigurationEntry;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.security.auth.AuthenticateCallbackHandler;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerToken;
import org.apache.kafka.common.security.oauthbearer.OAuthBearerTokenCallback;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

public final class JavaClient {
    static final String PROG = "java";
    static final String[] CODECS = {"none", "gzip", "snappy", "lz4", "zstd"};
    static final String FILLER = "abcdefghij";
    // Taken first thing: the timeout counts from here (the JVM's own start-up,
    // some 0.3 s, is the wrapper's to account for).
    static final long STARTED = System.nanoTime();

    public static void main(String[] argv) {
        Output out = new Output(new PrintStream(new FileOutputStream(FileDescriptor.out), false,
                StandardCharsets.UTF_8));
        // Kafka's logging (log4j's default console appender, or slf4j-simple)
        // writes to System.out as it finds it: make that stderr.
        System.setOut(System.err);
        Args args;
        try {
            args = Args.parse(argv);
        } catch (IllegalArgumentException e) {
            log("usage: " + e.getMessage());
            System.err.flush();
            Runtime.getRuntime().halt(2);
            return;
        }
        out.command = args.command;
        Deadline deadline = new Deadline(args.timeout, out);
        boolean ok;
        try {
            switch (args.command) {
                case "produce": ok = produce(args, out, deadline); break;
                case "consume": ok = consume(args, out, deadline); break;
                case "admin": ok = new AdminChecks(args, out, deadline).run(); break;
                case "transactional-produce":
                    ok = new TransactionChecks(args, out, deadline).run(); break;
                default: throw new IllegalStateException(args.command);
            }
        } catch (Exception e) {
            log("error: " + e);
            ok = false;
        }
        out.finish(ok);
    }

    static void log(String msg) {
        System.err.println(PROG + ": " + msg);
        System.err.flush();
    }

    // ---------------------------------------------------------------- spec --
    // The matrix's messages (../matrix/spec.py has the same).

    static String key(String producer, String codec, int i) {
        return String.format("%s-%s-%04d", producer, codec, i);
    }

    static String value(int i) {
        StringBuilder b = new StringBuilder(String.format("value-%04d-", i));
        char c = FILLER.charAt(i % 10);
        for (int n = 0; n < i % 200; n++) {
            b.append(c);
        }
        return b.toString();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // ----------------------------------------------------------- arguments --

    static final class Args {
        String command;
        final Map<String, String> opts = new HashMap<>();
        double timeout = 60.0;

        static final Set<String> COMMON = Set.of("bootstrap", "timeout", "security-protocol",
                "sasl-mechanism", "username", "password", "ca", "oauth-token");
        static final Map<String, Set<String>> OPTIONS = Map.of(
                "produce", Set.of("producer", "topic", "codec", "count"),
                "consume", Set.of("topics", "mode", "group", "expect"),
                "admin", Set.of("topic"),
                "transactional-produce", Set.of("topic", "transactional-id", "group", "count"));
        static final Map<String, Set<String>> REQUIRED = Map.of(
                "produce", Set.of("bootstrap", "producer", "topic", "codec", "count"),
                "consume", Set.of("bootstrap", "topics", "mode", "expect"),
                "admin", Set.of("bootstrap", "topic"),
                "transactional-produce", Set.of("bootstrap", "topic", "transactional-id", "group",
                        "count"));

        static Args parse(String[] argv) {
            if (argv.length == 0 || !OPTIONS.containsKey(argv[0])) {
                throw new IllegalArgumentException("first argument: one of " + OPTIONS.keySet());
            }
            Args a = new Args();
            a.command = argv[0];
            for (int i = 1; i < argv.length; i += 2) {
                String name = argv[i].startsWith("--") ? argv[i].substring(2) : null;
                if (name == null || !(COMMON.contains(name)
                        || OPTIONS.get(a.command).contains(name))) {
                    throw new IllegalArgumentException(a.command + ": unknown option " + argv[i]);
                }
                if (i + 1 >= argv.length) {
                    throw new IllegalArgumentException(argv[i] + " needs a value");
                }
                a.opts.put(name, argv[i + 1]);
            }
            for (String r : REQUIRED.get(a.command)) {
                if (!a.opts.containsKey(r)) {
                    throw new IllegalArgumentException(a.command + " needs --" + r);
                }
            }
            if (a.opts.containsKey("timeout")) {
                a.timeout = Double.parseDouble(a.opts.get("timeout"));
                if (!(a.timeout > 0)) {
                    throw new IllegalArgumentException("--timeout must be positive");
                }
            }
            if (a.command.equals("produce") && !List.of(CODECS).contains(a.get("codec"))) {
                throw new IllegalArgumentException("--codec: one of " + List.of(CODECS));
            }
            if (a.command.equals("consume")) {
                String mode = a.get("mode");
                if (!mode.equals("assign") && !mode.equals("group")) {
                    throw new IllegalArgumentException("--mode: assign or group");
                }
                if (mode.equals("group") && a.get("group") == null) {
                    throw new IllegalArgumentException("--mode group needs --group");
                }
                if (a.topics().isEmpty()) {
                    throw new IllegalArgumentException("--topics names no topic");
                }
            }
            return a;
        }

        String get(String name) {
            return opts.get(name);
        }

        int count(String name) {
            int n = Integer.parseInt(opts.get(name));
            if (n < 0) {
                throw new IllegalArgumentException("--" + name + " must not be negative");
            }
            return n;
        }

        List<String> topics() {
            List<String> out = new ArrayList<>();
            for (String t : opts.get("topics").split(",")) {
                if (!t.isEmpty()) {
                    out.add(t);
                }
            }
            return out;
        }

        /** bootstrap.servers, client.id and the security settings every client takes. */
        Properties base(String clientId) {
            Properties p = new Properties();
            p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, get("bootstrap"));
            p.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
            String protocol = opts.getOrDefault("security-protocol", "PLAINTEXT");
            p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
            if (get("ca") != null) {
                // Kafka reads a PEM file as a trust store directly (KIP-651).
                p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
                p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, get("ca"));
            }
            if (protocol.startsWith("SASL_")) {
                String mechanism = opts.getOrDefault("sasl-mechanism", "PLAIN");
                p.put(SaslConfigs.SASL_MECHANISM, mechanism);
                p.put(SaslConfigs.SASL_JAAS_CONFIG, jaas(mechanism));
                if (mechanism.equals("OAUTHBEARER") && get("oauth-token") != null) {
                    p.put(SaslConfigs.SASL_LOGIN_CALLBACK_HANDLER_CLASS, TokenHandler.class);
                }
            }
            return p;
        }

        String jaas(String mechanism) {
            switch (mechanism) {
                case "PLAIN":
                    return "org.apache.kafka.common.security.plain.PlainLoginModule required "
                            + credentials();
                case "SCRAM-SHA-256":
                case "SCRAM-SHA-512":
                    return "org.apache.kafka.common.security.scram.ScramLoginModule required "
                            + credentials();
                case "OAUTHBEARER":
                    // A given token is handed out by TokenHandler; without one,
                    // Kafka's client makes its own unsecured token for --username.
                    String module = "org.apache.kafka.common.security.oauthbearer."
                            + "OAuthBearerLoginModule required ";
                    if (get("oauth-token") != null) {
                        return module + "token=" + quote(get("oauth-token")) + ";";
                    }
                    return module + "unsecuredLoginStringClaim_sub="
                            + quote(opts.getOrDefault("username", "alice")) + ";";
                default:
                    throw new IllegalArgumentException("unknown --sasl-mechanism " + mechanism);
            }
        }

        String credentials() {
            if (get("username") == null || get("password") == null) {
                throw new IllegalArgumentException("this mechanism needs --username and --password");
            }
            return "username=" + quote(get("username")) + " password=" + quote(get("password"))
                    + ";";
        }

        static String quote(String s) {
            return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
    }

    // -------------------------------------------------------------- output --

    /** The only writer of stdout; finish() ends the process exactly once. */
    static final class Output {
        final PrintStream stdout;
        String command = "";
        final AtomicInteger acked = new AtomicInteger();
        int read;
        private boolean done;

        Output(PrintStream stdout) {
            this.stdout = stdout;
        }

        /** Prints one JSON line unless the process is already finishing. */
        synchronized void line(String json) {
            if (!done) {
                stdout.println(json);
            }
        }

        synchronized void message(ConsumerRecord<byte[], byte[]> r) {
            if (done) {
                return;
            }
            StringBuilder headers = new StringBuilder("[");
            for (Header h : r.headers()) {
                if (headers.length() > 1) {
                    headers.append(", ");
                }
                headers.append('[').append(Json.str(h.key())).append(", ")
                        .append(Json.str(text(h.value()))).append(']');
            }
            headers.append(']');
            stdout.println("{\"topic\": " + Json.str(r.topic()) + ", \"partition\": "
                    + r.partition() + ", \"offset\": " + r.offset() + ", \"key\": "
                    + Json.str(text(r.key())) + ", \"value\": " + Json.str(text(r.value()))
                    + ", \"headers\": " + headers + "}");
            read++;
        }

        synchronized int read() {
            return read;
        }

        /** Prints the produce result line, flushes, and halts: 0 if ok. */
        void finish(boolean ok) {
            synchronized (this) {
                if (done) {
                    return;
                }
                if (command.equals("produce")) {
                    stdout.println("{\"acked\": " + acked.get() + "}");
                }
                done = true;
                stdout.flush();
                if (stdout.checkError()) {
                    ok = false;
                }
            }
            System.err.flush();
            // halt, not exit: no shutdown hook or client thread may hold the
            // process past its budget.
            Runtime.getRuntime().halt(ok ? 0 : 1);
        }

        static String text(byte[] b) {
            // Undecodable bytes become U+FFFD, as the Python clients decode.
            return b == null ? null : new String(b, StandardCharsets.UTF_8);
        }
    }

    /** Time left until --timeout, and the watchdog that ends a stuck run. */
    static final class Deadline {
        final long end;

        Deadline(double timeoutSeconds, Output out) {
            end = STARTED + (long) (timeoutSeconds * 1e9);
            long grace = (long) (Math.min(0.5, timeoutSeconds / 10) * 1e9);
            Thread t = new Thread(() -> {
                long at = end - grace;
                while (true) {
                    long left = at - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    try {
                        Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, 1000));
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                log("timeout: giving up (watchdog)");
                out.finish(false);
            }, "watchdog");
            t.setDaemon(true);
            t.start();
        }

        /** Seconds left minus reserve, never below 0. */
        double left(double reserve) {
            return Math.max(0.0, (end - System.nanoTime()) / 1e9 - reserve);
        }

        /** A fifth of the whole timeout, 1 to 5 s: kept for commit and close. */
        double reserveForClose() {
            return Math.min(5.0, Math.max(1.0, (end - STARTED) / 1e9 / 5));
        }
    }

    static int ms(double seconds) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, seconds * 1000));
    }

    // ------------------------------------------------------------- produce --

    static boolean produce(Args args, Output out, Deadline deadline) throws Exception {
        String p = args.get("producer"), codec = args.get("codec"), topic = args.get("topic");
        int count = args.count("count");
        double budget = deadline.left(1.0);
        Properties props = args.base("matrix-java");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        // The Java default already, set so that it cannot silently change: an
        // InitProducerId, then sequence numbers the broker checks; with it up
        // to 5 requests in flight keep their order.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, codec);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        int request = ms(Math.min(15, budget / 2));
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, request);
        // delivery.timeout.ms must be at least linger.ms + request.timeout.ms.
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Math.max(ms(budget), request + 10));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, ms(budget));
        AtomicInteger failed = new AtomicInteger();
        // Set by a delivery that failed for a login or a permission: every
        // record after it would fail the same way, each only after a wait.
        AtomicBoolean refused = new AtomicBoolean();
        long t0 = System.nanoTime();
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props,
                new ByteArraySerializer(), new ByteArraySerializer());
        try {
            for (int i = 0; i < count && !refused.get(); i++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add("producer", utf8(p));
                headers.add("codec", utf8(codec));
                producer.send(new ProducerRecord<>(topic, null, utf8(key(p, codec, i)),
                        utf8(value(i)), headers), (RecordMetadata md, Exception e) -> {
                            // On the producer's I/O thread.
                            if (e == null) {
                                out.acked.incrementAndGet();
                                return;
                            }
                            if (e instanceof AuthenticationException
                                    || e instanceof AuthorizationException) {
                                refused.set(true);
                            }
                            if (failed.incrementAndGet() <= 5) {
                                log("delivery failed: " + e);
                            }
                        });
            }
            producer.flush();
        } finally {
            log(String.format("%d of %d acked, %d failed, in %.2fs", out.acked.get(), count,
                    failed.get(), (System.nanoTime() - t0) / 1e9));
            producer.close(Duration.ofMillis(ms(Math.min(2.0, deadline.left(0.5)))));
        }
        return out.acked.get() == count;
    }

    // ------------------------------------------------------------- consume --

    static Properties consumerProps(Args args, String group, String isolation) {
        Properties props = args.base("matrix-java");
        if (group != null) {
            props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        }
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10000);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1000);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        return props;
    }

    /** Partitions of topic from metadata, retried for up to 10 s. */
    static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic,
            Deadline deadline) throws InterruptedException {
        long giveUp = System.nanoTime()
                + (long) (Math.min(10.0, deadline.left(deadline.reserveForClose())) * 1e9);
        Exception error = null;
        while (true) {
            try {
                List<PartitionInfo> infos = consumer.partitionsFor(topic,
                        Duration.ofMillis(ms(Math.max(0.1, (giveUp - System.nanoTime()) / 1e9))));
                if (infos != null && !infos.isEmpty()) {
                    List<TopicPartition> out = new ArrayList<>();
                    for (PartitionInfo info : infos) {
                        out.add(new TopicPartition(topic, info.partition()));
                    }
                    out.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
                    return out;
                }
            } catch (AuthenticationException | AuthorizationException e) {
                throw e; // asking again cannot help
            } catch (Exception e) {
                error = e;
            }
            if (System.nanoTime() >= giveUp) {
                log("no partitions for topic " + topic + ": " + error);
                return List.of();
            }
            Thread.sleep(200);
        }
    }

    static boolean consume(Args args, Output out, Deadline deadline) throws Exception {
        boolean group = args.get("mode").equals("group");
        int expect = args.count("expect");
        double reserve = deadline.reserveForClose();
        Properties props = consumerProps(args, group ? args.get("group") : null,
                "read_uncommitted");
        // Never more than still missing in one poll, so nothing beyond the
        // N-th is handed out (the rest of a poll is dropped anyway).
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Math.max(1, Math.min(500, expect)));
        long t0 = System.nanoTime();
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props,
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Map<TopicPartition, Long> last = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
        boolean ok;
        try {
            if (group) {
                consumer.subscribe(args.topics());
            } else {
                List<TopicPartition> all = new ArrayList<>();
                for (String topic : args.topics()) {
                    all.addAll(partitions(consumer, topic, deadline));
                }
                consumer.assign(all);
                consumer.seekToBeginning(all);
            }
            while (out.read() < expect) {
                double left = deadline.left(reserve);
                if (left <= 0) {
                    log("timeout after " + out.read() + " of " + expect + " messages");
                    break;
                }
                ConsumerRecords<byte[], byte[]> records =
                        consumer.poll(Duration.ofMillis(ms(Math.min(0.5, left))));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    if (out.read() >= expect) {
                        break; // beyond the N-th: dropped
                    }
                    out.message(r);
                    last.put(new TopicPartition(r.topic(), r.partition()), r.offset());
                }
            }
            log(String.format("read %d of %d in %.2fs", out.read(), expect,
                    (System.nanoTime() - t0) / 1e9));
            ok = out.read() == expect;
            if (group && !last.isEmpty()) {
                Map<TopicPartition, OffsetAndMetadata> offsets = new LinkedHashMap<>();
                for (Map.Entry<TopicPartition, Long> e : last.entrySet()) {
                    offsets.put(e.getKey(), new OffsetAndMetadata(e.getValue() + 1));
                }
                try {
                    consumer.commitSync(offsets,
                            Duration.ofMillis(ms(Math.max(0.5, deadline.left(1.0)))));
                    log("committed " + offsets);
                } catch (Exception e) {
                    log("commit failed: " + e);
                    ok = false;
                }
            }
        } finally {
            consumer.close(CloseOptions.timeout(
                    Duration.ofMillis(ms(Math.min(3.0, deadline.left(0.5))))));
        }
        return ok;
    }

    // ---------------------------------------------------------------- checks --

    /**
     * One JSON line per check: {"check": NAME, "ok": true|false, ...what was seen}.
     * A check that throws is a failed check with the exception as "error".
     */
    abstract static class Checks {
        final Args args;
        final Output out;
        final Deadline deadline;
        boolean allOk = true;

        Checks(Args args, Output out, Deadline deadline) {
            this.args = args;
            this.out = out;
            this.deadline = deadline;
        }

        interface Body {
            void run(Json.Obj seen) throws Exception;
        }

        /** Runs body; it fills `seen` and throws Failed (or anything) if a value is wrong. */
        boolean check(String name, Body body) {
            Json.Obj seen = new Json.Obj();
            boolean ok;
            try {
                body.run(seen);
                ok = true;
            } catch (Failed f) {
                seen.put("problem", f.getMessage());
                ok = false;
            } catch (Exception e) {
                seen.put("error", cause(e).toString());
                ok = false;
            }
            Json.Obj line = new Json.Obj().put("check", name).put("ok", ok);
            line.putAll(seen);
            out.line(line.toString());
            if (!ok) {
                log("check " + name + " failed: " + line);
            }
            allOk &= ok;
            return ok;
        }

        /** An admin client's settings: every call bounded by the time left. */
        Properties adminProps(String clientId) {
            Properties props = args.base(clientId);
            double left = Math.max(1, deadline.left(1.0));
            // default.api.timeout.ms may not be below request.timeout.ms.
            props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms(Math.min(15, left)));
            props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms(left));
            return props;
        }

        Duration within(double atMost) {
            return Duration.ofMillis(ms(Math.max(0.1, Math.min(atMost, deadline.left(1.0)))));
        }

        <T> T get(KafkaFuture<T> f) throws Exception {
            try {
                return f.get((long) (Math.max(0.1, deadline.left(1.0)) * 1000),
                        TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw (Exception) e.getCause();
            }
        }

        /** Expects f to fail with `want`; returns the exception. */
        Exception fails(KafkaFuture<?> f, Class<? extends Exception> want) throws Exception {
            try {
                Object v = get(f);
                throw new Failed("succeeded (" + v + "), want " + want.getSimpleName());
            } catch (Failed e) {
                throw e;
            } catch (Exception e) {
                if (!want.isInstance(e)) {
                    throw new Failed("failed with " + e + ", want " + want.getSimpleName());
                }
                return e;
            }
        }

        static Throwable cause(Throwable e) {
            while (e instanceof ExecutionException && e.getCause() != null) {
                e = e.getCause();
            }
            return e;
        }
    }

    /** A value that is not what a check wants. */
    static final class Failed extends Exception {
        private static final long serialVersionUID = 1L;

        Failed(String msg) {
            super(msg);
        }
    }

    static void want(boolean cond, String what) throws Failed {
        if (!cond) {
            throw new Failed(what);
        }
    }

    static void wantEq(Object got, Object want, String what) throws Failed {
        if (!java.util.Objects.equals(got, want)) {
            throw new Failed(what + ": " + got + ", want " + want);
        }
    }

    // --------------------------------------------------------------- admin --

    /**
     * The admin client's calls on a fresh topic, each answer checked by value:
     * describe cluster; create topics (and again: TopicExistsException); list
     * and describe topics; describe configs, alter them incrementally (set,
     * delete, an invalid value refused) and describe them again; list offsets
     * (earliest, latest, by timestamp, max timestamp) after producing ten
     * records with known timestamps; delete topics (and again:
     * UnknownTopicOrPartitionException).
     */
    static final class AdminChecks extends Checks {
        static final int PARTITIONS = 3;
        static final String RETENTION = "3600000";
        static final int RECORDS = 10;
        static final long BASE_TS = 1_700_000_000_000L;

        AdminChecks(Args args, Output out, Deadline deadline) {
            super(args, out, deadline);
        }

        boolean run() {
            String topic = args.get("topic");
            try (Admin admin = Admin.create(adminProps("matrix-java-admin"))) {
                Set<Integer> nodes = new HashSet<>();
                Uuid[] topicId = {null};
                check("describe-cluster", seen -> {
                    DescribeClusterResult r = admin.describeCluster();
                    String clusterId = get(r.clusterId());
                    Collection<Node> ns = get(r.nodes());
                    Node controller = get(r.controller());
                    seen.put("cluster_id", clusterId);
                    List<String> addrs = new ArrayList<>();
                    for (Node n : ns) {
                        nodes.add(n.id());
                        addrs.add(n.id() + "@" + n.host() + ":" + n.port());
                    }
                    seen.put("nodes", addrs);
                    seen.put("controller", controller == null ? null : controller.id());
                    want(clusterId != null && !clusterId.isEmpty(), "no cluster id");
                    want(!ns.isEmpty(), "no nodes");
                    for (Node n : ns) {
                        want(n.id() >= 0 && n.port() > 0 && !n.host().isEmpty(), "node " + n);
                    }
                    want(controller != null && nodes.contains(controller.id()),
                            "controller " + controller + " is not among the nodes");
                });
                check("create-topics", seen -> {
                    NewTopic nt = new NewTopic(topic, PARTITIONS, (short) 1)
                            .configs(Map.of("retention.ms", RETENTION));
                    CreateTopicsResult r = admin.createTopics(List.of(nt));
                    get(r.all());
                    int partitions = get(r.numPartitions(topic));
                    int rf = get(r.replicationFactor(topic));
                    topicId[0] = get(r.topicId(topic));
                    Config config = get(r.config(topic));
                    ConfigEntry retention = config.get("retention.ms");
                    seen.put("partitions", partitions).put("replication_factor", rf)
                            .put("topic_id", String.valueOf(topicId[0]))
                            .put("retention_ms", retention == null ? null : retention.value());
                    wantEq(partitions, PARTITIONS, "partitions");
                    wantEq(rf, 1, "replication factor");
                    want(topicId[0] != null && !topicId[0].equals(Uuid.ZERO_UUID), "no topic id");
                    want(retention != null, "retention.ms missing from the created topic's configs");
                    wantEq(retention.value(), RETENTION, "retention.ms");
                });
                check("create-topics-again", seen -> {
                    Exception e = fails(admin.createTopics(List.of(
                            new NewTopic(topic, PARTITIONS, (short) 1))).all(),
                            TopicExistsException.class);
                    seen.put("error", e.getClass().getSimpleName());
                });
                check("list-topics", seen -> {
                    Set<String> names = get(admin.listTopics().names());
                    seen.put("includes_topic", names.contains(topic));
                    want(names.contains(topic), topic + " not listed");
                });
                check("describe-topics", seen -> {
                    TopicDescription d = get(admin.describeTopics(List.of(topic))
                            .allTopicNames()).get(topic);
                    seen.put("topic_id", String.valueOf(d.topicId()))
                            .put("partitions", d.partitions().size()).put("internal", d.isInternal());
                    wantEq(d.name(), topic, "name");
                    wantEq(d.topicId(), topicId[0], "topic id (against create's)");
                    want(!d.isInternal(), "internal");
                    wantEq(d.partitions().size(), PARTITIONS, "partitions");
                    List<String> leaders = new ArrayList<>();
                    for (int i = 0; i < PARTITIONS; i++) {
                        TopicPartitionInfo p = d.partitions().get(i);
                        wantEq(p.partition(), i, "partition number");
                        want(p.leader() != null && nodes.contains(p.leader().id()),
                                "partition " + i + " leader " + p.leader());
                        want(p.replicas().contains(p.leader()) && p.isr().contains(p.leader()),
                                "partition " + i + " leader not in replicas and ISR");
                        leaders.add(i + ":" + p.leader().id());
                    }
                    seen.put("leaders", leaders);
                });
                check("describe-unknown-topic", seen -> {
                    Exception e = fails(admin.describeTopics(List.of(topic + "-none"))
                            .allTopicNames(), UnknownTopicOrPartitionException.class);
                    seen.put("error", e.getClass().getSimpleName());
                });
                ConfigResource res = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                check("describe-configs", seen -> {
                    Config c = get(admin.describeConfigs(List.of(res)).all()).get(res);
                    ConfigEntry retention = c.get("retention.ms");
                    ConfigEntry cleanup = c.get("cleanup.policy");
                    seen.put("retention_ms", entry(retention)).put("cleanup_policy", entry(cleanup))
                            .put("entries", c.entries().size());
                    want(retention != null && cleanup != null, "an entry is missing");
                    wantEq(retention.value(), RETENTION, "retention.ms");
                    wantEq(retention.source(), ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG,
                            "retention.ms source");
                    wantEq(cleanup.value(), "delete", "cleanup.policy");
                    wantEq(cleanup.source(), ConfigEntry.ConfigSource.DEFAULT_CONFIG,
                            "cleanup.policy source");
                });
                check("alter-configs", seen -> {
                    get(admin.incrementalAlterConfigs(Map.of(res, List.of(
                            new AlterConfigOp(new ConfigEntry("retention.ms", "7200000"),
                                    AlterConfigOp.OpType.SET),
                            new AlterConfigOp(new ConfigEntry("max.message.bytes", "2000000"),
                                    AlterConfigOp.OpType.SET)))).all());
                    Config c = describeUntil(admin, res, deadline, d ->
                            "2000000 (DYNAMIC_TOPIC_CONFIG)".equals(entry(d.get("max.message.bytes")))
                                    && "7200000 (DYNAMIC_TOPIC_CONFIG)".equals(entry(d.get("retention.ms"))));
                    seen.put("retention_ms", entry(c.get("retention.ms")))
                            .put("max_message_bytes", entry(c.get("max.message.bytes")));
                    wantEq(c.get("retention.ms").value(), "7200000", "retention.ms after SET");
                    wantEq(c.get("max.message.bytes").value(), "2000000",
                            "max.message.bytes after SET");
                    wantEq(c.get("max.message.bytes").source(),
                            ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, "its source");
                });
                check("alter-configs-delete", seen -> {
                    get(admin.incrementalAlterConfigs(Map.of(res, List.of(
                            new AlterConfigOp(new ConfigEntry("max.message.bytes", ""),
                                    AlterConfigOp.OpType.DELETE)))).all());
                    Config c = describeUntil(admin, res, deadline, d ->
                            "1048588 (DEFAULT_CONFIG)".equals(entry(d.get("max.message.bytes"))));
                    ConfigEntry e = c.get("max.message.bytes");
                    seen.put("max_message_bytes", entry(e))
                            .put("retention_ms", entry(c.get("retention.ms")));
                    // Back to the broker's default, Kafka's 1048588.
                    wantEq(e.source(), ConfigEntry.ConfigSource.DEFAULT_CONFIG,
                            "max.message.bytes source after DELETE");
                    wantEq(e.value(), "1048588", "max.message.bytes after DELETE");
                    wantEq(c.get("retention.ms").value(), "7200000", "retention.ms untouched");
                });
                check("alter-configs-invalid", seen -> {
                    Exception e = fails(admin.incrementalAlterConfigs(Map.of(res, List.of(
                            new AlterConfigOp(new ConfigEntry("retention.ms", "soon"),
                                    AlterConfigOp.OpType.SET)))).all(),
                            InvalidConfigurationException.class);
                    Config c = get(admin.describeConfigs(List.of(res)).all()).get(res);
                    seen.put("error", e.getClass().getSimpleName())
                            .put("retention_ms", entry(c.get("retention.ms")));
                    wantEq(c.get("retention.ms").value(), "7200000", "retention.ms untouched");
                });
                check("list-offsets", seen -> listOffsets(admin, topic, seen));
                check("delete-topics", seen -> {
                    get(admin.deleteTopics(List.of(topic)).all());
                    // Kafka removes a topic from metadata a moment after the
                    // answer: look for a few seconds.
                    long until = System.nanoTime() + (long) (Math.min(10, deadline.left(2)) * 1e9);
                    boolean listed = true;
                    while (listed && System.nanoTime() < until) {
                        listed = get(admin.listTopics().names()).contains(topic);
                        if (listed) {
                            Thread.sleep(100);
                        }
                    }
                    seen.put("still_listed", listed);
                    want(!listed, topic + " still listed after the delete");
                });
                check("delete-topics-again", seen -> {
                    Exception e = fails(admin.deleteTopics(List.of(topic)).all(),
                            UnknownTopicOrPartitionException.class);
                    seen.put("error", e.getClass().getSimpleName());
                });
            }
            return allOk;
        }

        /**
         * The resource's configs once {@code done} holds of them, or as they are
         * after a few seconds. Kafka's controller answers an alteration once it
         * has committed it; the broker that describes the configs applies it a
         * moment later, so a describe at once may still show the old values.
         */
        Config describeUntil(Admin admin, ConfigResource res, Deadline deadline,
                java.util.function.Predicate<Config> done) throws Exception {
            long until = System.nanoTime() + (long) (Math.min(10, deadline.left(2)) * 1e9);
            while (true) {
                Config c = get(admin.describeConfigs(List.of(res)).all()).get(res);
                if (done.test(c) || System.nanoTime() >= until) {
                    return c;
                }
                Thread.sleep(100);
            }
        }

        static String entry(ConfigEntry e) {
            return e == null ? null : e.value() + " (" + e.source() + ")";
        }

        /** Ten records with known timestamps to partition 0, then every OffsetSpec. */
        void listOffsets(Admin admin, String topic, Json.Obj seen) throws Exception {
            Properties props = args.base("matrix-java-admin-producer");
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, ms(Math.max(1, deadline.left(2.0))));
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props,
                    new ByteArraySerializer(), new ByteArraySerializer())) {
                for (int i = 0; i < RECORDS; i++) {
                    // Timestamps out of order at the end: max-timestamp must
                    // find the record with the largest one, not the last.
                    long ts = BASE_TS + (i == RECORDS - 1 ? 500 : i * 1000L);
                    producer.send(new ProducerRecord<>(topic, 0, ts, utf8("k" + i), utf8("v" + i)));
                }
                producer.flush();
            }
            TopicPartition p0 = new TopicPartition(topic, 0), p1 = new TopicPartition(topic, 1);
            Map<String, OffsetSpec> specs = new LinkedHashMap<>();
            specs.put("earliest", OffsetSpec.earliest());
            specs.put("latest", OffsetSpec.latest());
            specs.put("at_4500", OffsetSpec.forTimestamp(BASE_TS + 4500));
            specs.put("after_all", OffsetSpec.forTimestamp(BASE_TS + 100_000));
            specs.put("max_timestamp", OffsetSpec.maxTimestamp());
            Map<String, String> got = new LinkedHashMap<>();
            Map<String, ListOffsetsResult.ListOffsetsResultInfo> infos = new HashMap<>();
            for (Map.Entry<String, OffsetSpec> s : specs.entrySet()) {
                ListOffsetsResult.ListOffsetsResultInfo info =
                        get(admin.listOffsets(Map.of(p0, s.getValue())).partitionResult(p0));
                infos.put(s.getKey(), info);
                got.put(s.getKey(), info.offset() + "@" + info.timestamp());
            }
            ListOffsetsResult.ListOffsetsResultInfo empty =
                    get(admin.listOffsets(Map.of(p1, OffsetSpec.latest())).partitionResult(p1));
            got.put("partition_1_latest", String.valueOf(empty.offset()));
            seen.put("offsets", got);
            wantEq(infos.get("earliest").offset(), 0L, "earliest");
            wantEq(infos.get("latest").offset(), (long) RECORDS, "latest");
            // The first record at or after the timestamp: record 5 (BASE_TS + 5000).
            wantEq(infos.get("at_4500").offset(), 5L, "offset for timestamp +4500");
            wantEq(infos.get("at_4500").timestamp(), BASE_TS + 5000, "its timestamp");
            wantEq(infos.get("after_all").offset(), -1L, "offset for a timestamp after all");
            wantEq(infos.get("max_timestamp").offset(), (long) RECORDS - 2, "max timestamp's offset");
            wantEq(infos.get("max_timestamp").timestamp(), BASE_TS + (RECORDS - 2) * 1000L,
                    "max timestamp");
            wantEq(empty.offset(), 0L, "partition 1 latest");
        }
    }

    // -------------------------------------------------------- transactions --

    /**
     * A transactional producer's life, each step checked: initTransactions;
     * a committed transaction of N records; an aborted one of N records
     * (flushed first, so they are in the log); a committed one of N more that
     * also commits offsets for group G (sendOffsetsToTransaction); a second
     * producer with the same transactional.id fences the first. Then a
     * read_committed consumer reads exactly the 2N committed records and a
     * read_uncommitted one all 3N, and G's committed offset is the one sent.
     */
    static final class TransactionChecks extends Checks {
        TransactionChecks(Args args, Output out, Deadline deadline) {
            super(args, out, deadline);
        }

        boolean run() throws Exception {
            String topic = args.get("topic"), txnId = args.get("transactional-id");
            String group = args.get("group");
            int n = args.count("count");
            try (Admin admin = Admin.create(adminProps("matrix-java-txn-admin"))) {
                try {
                    get(admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all());
                } catch (TopicExistsException e) {
                    log("topic " + topic + " exists already");
                }
            }
            // Where this run's records will begin: the topic may hold an
            // earlier run's, which the reads below skip.
            Map<TopicPartition, Long> start;
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                    consumerProps(args, null, "read_uncommitted"), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                start = c.endOffsets(partitions(c, topic, deadline), within(10));
            }
            KafkaProducer<byte[], byte[]> producer = transactional(txnId);
            KafkaProducer<byte[], byte[]> second = null;
            TopicPartition p0 = new TopicPartition(topic, 0);
            long committedOffset = 1 + n; // any value: the check is that it arrives
            try {
                if (!check("init-transactions", seen -> producer.initTransactions())) {
                    return false;
                }
                check("commit", seen -> {
                    producer.beginTransaction();
                    send(producer, topic, "committed-1", n);
                    producer.commitTransaction();
                    seen.put("records", n);
                });
                check("abort", seen -> {
                    producer.beginTransaction();
                    send(producer, topic, "aborted", n);
                    producer.flush(); // in the log before the abort
                    producer.abortTransaction();
                    seen.put("records", n);
                });
                check("commit-with-offsets", seen -> {
                    // The group's metadata as a consumer of G that has not
                    // joined hands it out (generation -1, no member id), as
                    // in a consume-transform-produce loop on assigned partitions.
                    ConsumerGroupMetadata metadata;
                    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                            consumerProps(args, group, "read_committed"),
                            new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                        metadata = c.groupMetadata();
                    }
                    producer.beginTransaction();
                    send(producer, topic, "committed-2", n);
                    producer.sendOffsetsToTransaction(
                            Map.of(p0, new OffsetAndMetadata(committedOffset)), metadata);
                    producer.commitTransaction();
                    seen.put("records", n).put("offset_sent", committedOffset);
                });
                second = transactional(txnId);
                KafkaProducer<byte[], byte[]> zombieFencer = second;
                check("fenced", seen -> {
                    zombieFencer.initTransactions();
                    // Fenced either way: with transaction version 1 the
                    // first producer's AddPartitionsToTxn is refused
                    // (ProducerFencedException); with version 2 (Kafka 4's
                    // default, no AddPartitionsToTxn) its Produce is
                    // (InvalidProducerEpochException). send() reports it
                    // wrapped, commitTransaction() as itself.
                    try {
                        producer.beginTransaction();
                        send(producer, topic, "zombie", 1);
                        producer.commitTransaction();
                        throw new Failed("the first producer committed after the second's init");
                    } catch (org.apache.kafka.common.KafkaException e) {
                        Throwable c = e instanceof ProducerFencedException
                                || e instanceof InvalidProducerEpochException ? e : e.getCause();
                        if (!(c instanceof ProducerFencedException
                                || c instanceof InvalidProducerEpochException)) {
                            throw new Failed("failed with " + e + ", want ProducerFencedException"
                                    + " or InvalidProducerEpochException");
                        }
                        seen.put("error", c.getClass().getSimpleName());
                    }
                });
            } finally {
                producer.close(Duration.ZERO);
                if (second != null) {
                    second.close(within(2.0));
                }
            }
            check("read-committed", seen -> {
                List<String> keys = readAll(topic, "read_committed", start);
                seen.put("records", keys.size());
                wantKeys(keys, n, List.of("committed-1", "committed-2"));
            });
            check("read-uncommitted", seen -> {
                List<String> keys = readAll(topic, "read_uncommitted", start);
                seen.put("records", keys.size());
                wantKeys(keys, n, List.of("committed-1", "aborted", "committed-2"));
            });
            check("offsets-committed", seen -> {
                try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                        consumerProps(args, group, "read_committed"),
                        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
                    OffsetAndMetadata om = c.committed(Set.of(p0), within(10)).get(p0);
                    seen.put("offset", om == null ? null : om.offset());
                    want(om != null, "no committed offset for " + p0);
                    wantEq(om.offset(), committedOffset, "committed offset");
                }
            });
            return allOk;
        }

        KafkaProducer<byte[], byte[]> transactional(String txnId) {
            Properties props = args.base("matrix-java-txn");
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, txnId);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, ms(Math.min(20, deadline.left(2.0))));
            props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, ms(Math.min(10,
                    deadline.left(2.0))));
            props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, ms(Math.min(20,
                    Math.max(11, deadline.left(2.0)))));
            props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 30000);
            return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        }

        static void send(KafkaProducer<byte[], byte[]> p, String topic, String prefix, int n) {
            for (int i = 0; i < n; i++) {
                String k = String.format("%s-%04d", prefix, i);
                p.send(new ProducerRecord<>(topic, utf8(k), utf8("value of " + k)));
            }
        }

        /**
         * Every key of topic in `isolation`, from the offsets in `start` to the
         * end offsets it sees.
         */
        List<String> readAll(String topic, String isolation, Map<TopicPartition, Long> start)
                throws Exception {
            try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
                    consumerProps(args, null, isolation), new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                List<TopicPartition> tps = new ArrayList<>(start.keySet());
                c.assign(tps);
                for (TopicPartition tp : tps) {
                    c.seek(tp, start.get(tp));
                }
                // Under read_committed the end offset is the last stable offset.
                Map<TopicPartition, Long> end = c.endOffsets(tps, within(10));
                Map<TopicPartition, List<String>> keys = new TreeMap<>(
                        (a, b) -> Integer.compare(a.partition(), b.partition()));
                long until = System.nanoTime() + (long) (Math.min(20, deadline.left(3)) * 1e9);
                while (System.nanoTime() < until) {
                    boolean done = true;
                    for (TopicPartition tp : tps) {
                        done &= c.position(tp, within(5)) >= end.get(tp);
                    }
                    if (done) {
                        break;
                    }
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                        keys.computeIfAbsent(new TopicPartition(r.topic(), r.partition()),
                                k -> new ArrayList<>()).add(new String(r.key(),
                                        StandardCharsets.UTF_8));
                    }
                }
                List<String> all = new ArrayList<>();
                for (List<String> ks : keys.values()) {
                    all.addAll(ks);
                }
                return all;
            }
        }

        /**
         * keys (partition by partition) must hold prefix-0000..prefix-(n-1) of
         * each prefix exactly once, and within a partition the prefixes in the
         * order given, each's indices increasing.
         */
        static void wantKeys(List<String> keys, int n, List<String> prefixes) throws Failed {
            Map<String, Set<Integer>> seen = new HashMap<>();
            for (String p : prefixes) {
                seen.put(p, new HashSet<>());
            }
            for (String k : keys) {
                int dash = k.lastIndexOf('-');
                String prefix = k.substring(0, dash);
                want(seen.containsKey(prefix), "unexpected record " + k);
                want(seen.get(prefix).add(Integer.parseInt(k.substring(dash + 1))),
                        "duplicate " + k);
            }
            for (String p : prefixes) {
                wantEq(seen.get(p).size(), n, "records of " + p);
            }
            wantEq(keys.size(), n * prefixes.size(), "records in all");
        }
    }

    // ---------------------------------------------------------------- OAUTHBEARER --

    /**
     * Hands Kafka's OAUTHBEARER login the token given with --oauth-token (the
     * JAAS option `token`), as it is: its lifetime and principal are read from
     * its claims (exp, iat, sub) without checking anything, so that the broker
     * alone judges it, an expired one included.
     */
    public static final class TokenHandler implements AuthenticateCallbackHandler {
        private String token;

        @Override
        public void configure(Map<String, ?> configs, String mechanism,
                List<AppConfigurationEntry> entries) {
            for (AppConfigurationEntry e : entries) {
                Object t = e.getOptions().get("token");
                if (t != null) {
                    token = t.toString();
                }
            }
            if (token == null) {
                throw new IllegalArgumentException("no token option in sasl.jaas.config");
            }
        }

        @Override
        public void handle(Callback[] callbacks) throws UnsupportedCallbackException {
            for (Callback cb : callbacks) {
                if (cb instanceof OAuthBearerTokenCallback) {
                    ((OAuthBearerTokenCallback) cb).token(new GivenToken(token));
                } else {
                    throw new UnsupportedCallbackException(cb);
                }
            }
        }

        @Override
        public void close() {
        }
    }

    static final class GivenToken implements OAuthBearerToken {
        final String value;
        final String claims;

        GivenToken(String value) {
            this.value = value;
            String[] parts = value.split("\\.", -1);
            String c = "";
            if (parts.length == 3) {
                try {
                    c = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    c = "";
                }
            }
            claims = c;
        }

        Long number(String claim) {
            Matcher m = Pattern.compile("\"" + claim + "\"\\s*:\\s*(-?[0-9.]+)").matcher(claims);
            return m.find() ? (long) (Double.parseDouble(m.group(1)) * 1000) : null;
        }

        @Override
        public String value() {
            return value;
        }

        @Override
        public Set<String> scope() {
            return Collections.emptySet();
        }

        @Override
        public long lifetimeMs() {
            Long exp = number("exp");
            return exp != null ? exp : System.currentTimeMillis() + 3_600_000L;
        }

        @Override
        public String principalName() {
            Matcher m = Pattern.compile("\"sub\"\\s*:\\s*\"([^\"]*)\"").matcher(claims);
            return m.find() ? m.group(1) : "unknown";
        }

        @Override
        public Long startTimeMs() {
            return number("iat");
        }
    }

    // ---------------------------------------------------------------- JSON --

    static final class Json {
        static String str(String s) {
            if (s == null) {
                return "null";
            }
            StringBuilder b = new StringBuilder("\"");
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"': b.append("\\\""); break;
                    case '\\': b.append("\\\\"); break;
                    case '\n': b.append("\\n"); break;
                    case '\r': b.append("\\r"); break;
                    case '\t': b.append("\\t"); break;
                    default:
                        if (c < 0x20) {
                            b.append(String.format("\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                }
            }
            return b.append('"').toString();
        }

        static String value(Object v) {
            if (v == null) {
                return "null";
            }
            if (v instanceof Boolean || v instanceof Number) {
                return v.toString();
            }
            if (v instanceof Obj) {
                return v.toString();
            }
            if (v instanceof Map) {
                Obj o = new Obj();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    o.put(String.valueOf(e.getKey()), e.getValue());
                }
                return o.toString();
            }
            if (v instanceof Collection) {
                StringBuilder b = new StringBuilder("[");
                for (Object x : (Collection<?>) v) {
                    if (b.length() > 1) {
                        b.append(", ");
                    }
                    b.append(value(x));
                }
                return b.append(']').toString();
            }
            return str(v.toString());
        }

        /** A JSON object that keeps its keys in insertion order. */
        static final class Obj {
            final Map<String, Object> fields = new LinkedHashMap<>();

            Obj put(String k, Object v) {
                fields.put(k, v);
                return this;
            }

            void putAll(Obj o) {
                fields.putAll(o.fields);
            }

            @Override
            public String toString() {
                StringBuilder b = new StringBuilder("{");
                for (Map.Entry<String, Object> e : fields.entrySet()) {
                    if (b.length() > 1) {
                        b.append(", ");
                    }
                    b.append(str(e.getKey())).append(": ").append(value(e.getValue()));
                }
                return b.append('}').toString();
            }
        }
    }
}

// Kafka's generated message classes (kafka-clients 4.4.0) as the judge of our
// encodings: reads bytes and JSON with them and writes them back, one case per
// line, for the driver in tests/src/bin/kafka_judge/ (README.md beside this
// file).
//
// Started once per run and fed over stdin, so the JVM's start-up and warm-up
// are paid once. One request per line, fields separated by tabs; one answer
// line per request, in order:
//
//   versions KIND ID                 -> ok MIN MAX | refused absent
//   read KIND ID VERSION HEX         -> ok HEX JSON | refused WHY
//   json KIND ID VERSION JSON        -> ok HEX | refused WHY
//   transcode KIND ID FROM TO HEX    -> ok HEX | refused WHY
//
// KIND is request or response (ID: the API key) or header or data (ID: the
// schema's name, e.g. RequestHeader, LeaderChangeMessage). `read` reads HEX
// at VERSION with the generated class, refuses trailing bytes, writes it back
// (size, then write, with one ObjectSerializationCache) and converts it to
// JSON with the generated JsonConverter (records as their size, as Kafka's
// request logging does: `recordsSizeInBytes`). `json` reads JSON with the
// converter and writes the message. `transcode` reads at FROM and writes at
// TO: Kafka's rules for a field a version lacks. The version range is checked
// here: the generated top-level read does not check it. A refusal says the
// step that refused (`read: `, `write: `, `from JSON: `, `to JSON: `) and the
// exception Kafka threw (class and message), or the judge's own check.
// A line that is not a request is answered `bad WHY`; the driver counts that
// as a failure of the judge, never as a verdict.
//
// stdout carries only answers: System.out is pointed at stderr before any
// Kafka class runs.

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

public final class KafkaJudge {
    private static final String PACKAGE = "org.apache.kafka.common.message.";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A request the driver got wrong: answered `bad`, never a verdict. */
    private static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;

        BadRequest(String why) {
            super(why);
        }
    }

    /** What Kafka (or the judge's own check on its behalf) refused. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String why) {
            super(why);
        }
    }

    /** A generated message class and its JsonConverter's read and write. */
    private static final class Kind {
        final Class<? extends Message> type;
        final Method jsonRead;
        final Method jsonWrite;

        Kind(Class<? extends Message> type) throws BadRequest {
            this.type = type;
            try {
                Class<?> converter = Class.forName(type.getName() + "JsonConverter");
                jsonRead = converter.getMethod("read", JsonNode.class, short.class);
                jsonWrite = converter.getMethod("write", type, short.class, boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new BadRequest("no JsonConverter for " + type.getName() + ": " + e);
            }
        }

        Message create() throws BadRequest {
            try {
                return type.getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new BadRequest("cannot create " + type.getName() + ": " + e);
            }
        }
    }

    private final Map<String, Kind> kinds = new HashMap<>();

    public static void main(String[] args) throws IOException {
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), false,
                StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 20);
        BufferedWriter out = new BufferedWriter(
                new OutputStreamWriter(answers, StandardCharsets.UTF_8), 1 << 20);
        KafkaJudge judge = new KafkaJudge();
        String line;
        while ((line = in.readLine()) != null) {
            out.write(judge.answer(line));
            out.write('\n');
            // Answers go out in batches: flushed only when no request waits,
            // so a driver that writes many requests gets many answers per write.
            if (!in.ready()) {
                out.flush();
            }
        }
        out.flush();
    }

    private String answer(String line) {
        try {
            return "ok\t" + handle(line.split("\t", -1));
        } catch (Refused e) {
            return "refused\t" + oneLine(e.getMessage());
        } catch (BadRequest e) {
            return "bad\t" + oneLine(e.getMessage());
        }
    }

    private String handle(String[] f) throws BadRequest, Refused {
        if (f.length < 3) {
            throw new BadRequest("too few fields");
        }
        String op = f[0];
        switch (op) {
            case "versions": {
                expect(f, 3);
                Kind kind = kindOrNull(f[1], f[2]);
                if (kind == null) {
                    throw new Refused("absent");
                }
                Message m = kind.create();
                return m.lowestSupportedVersion() + "\t" + m.highestSupportedVersion();
            }
            case "read": {
                expect(f, 5);
                Kind kind = kind(f[1], f[2]);
                short version = version(f[3]);
                Message m = read(kind, version, unhex(f[4]));
                return hex(write(m, version)) + "\t" + json(kind, m, version);
            }
            case "json": {
                expect(f, 5);
                Kind kind = kind(f[1], f[2]);
                short version = version(f[3]);
                Message m = fromJson(kind, version, f[4]);
                return hex(write(m, version));
            }
            case "transcode": {
                expect(f, 6);
                Kind kind = kind(f[1], f[2]);
                Message m = read(kind, version(f[3]), unhex(f[5]));
                return hex(write(m, version(f[4])));
            }
            default:
                throw new BadRequest("unknown request " + op);
        }
    }

    private static void expect(String[] f, int count) throws BadRequest {
        if (f.length != count) {
            throw new BadRequest(f[0] + " takes " + count + " fields, not " + f.length);
        }
    }

    private Kind kind(String kind, String id) throws BadRequest {
        Kind k = kindOrNull(kind, id);
        if (k == null) {
            throw new BadRequest("Kafka has no " + kind + " " + id);
        }
        return k;
    }

    /** The generated class of a request, response, header or data schema; null if Kafka has none. */
    private Kind kindOrNull(String kind, String id) throws BadRequest {
        String key = kind + " " + id;
        Kind cached = kinds.get(key);
        if (cached != null) {
            return cached;
        }
        Class<? extends Message> type;
        try {
            switch (kind) {
                case "request":
                case "response": {
                    ApiMessageType api = apiType(Short.parseShort(id));
                    if (api == null) {
                        return null;
                    }
                    type = (kind.equals("request") ? api.newRequest() : api.newResponse()).getClass();
                    break;
                }
                case "header":
                    type = Class.forName(PACKAGE + id + "Data").asSubclass(Message.class);
                    break;
                case "data":
                    type = Class.forName(PACKAGE + id).asSubclass(Message.class);
                    break;
                default:
                    throw new BadRequest("unknown kind " + kind);
            }
        } catch (NumberFormatException e) {
            throw new BadRequest("not an API key: " + id);
        } catch (ClassNotFoundException | ClassCastException e) {
            return null;
        }
        Kind k = new Kind(type);
        kinds.put(key, k);
        return k;
    }

    private static ApiMessageType apiType(short key) {
        for (ApiMessageType t : ApiMessageType.values()) {
            if (t.apiKey() == key) {
                return t;
            }
        }
        return null;
    }

    private static short version(String text) throws BadRequest {
        try {
            return Short.parseShort(text);
        } catch (NumberFormatException e) {
            throw new BadRequest("not a version: " + text);
        }
    }

    /** The generated read does not check the version: the judge does, as a broker would. */
    private static void checkVersion(Message m, short version, String step) throws Refused {
        if (version < m.lowestSupportedVersion() || version > m.highestSupportedVersion()) {
            throw new Refused(step + "judge: version " + version + " is outside "
                    + m.lowestSupportedVersion() + "-" + m.highestSupportedVersion());
        }
    }

    private static Message read(Kind kind, short version, byte[] bytes) throws BadRequest, Refused {
        Message m = kind.create();
        checkVersion(m, version, "read: ");
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        try {
            m.read(new ByteBufferAccessor(buffer), version);
        } catch (RuntimeException e) {
            throw new Refused("read: " + describe(e));
        }
        if (buffer.hasRemaining()) {
            throw new Refused("read: judge: " + buffer.remaining() + " trailing bytes");
        }
        return m;
    }

    /** Kafka's two-pass write: the size (which fills the cache), then the bytes. */
    private static byte[] write(Message m, short version) throws BadRequest, Refused {
        checkVersion(m, version, "write: ");
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer;
        try {
            buffer = ByteBuffer.allocate(m.size(cache, version));
            m.write(new ByteBufferAccessor(buffer), cache, version);
        } catch (RuntimeException e) {
            throw new Refused("write: " + describe(e));
        }
        if (buffer.hasRemaining()) {
            throw new BadRequest("Kafka's size was " + buffer.capacity() + " but it wrote "
                    + buffer.position() + " bytes");
        }
        return buffer.array();
    }

    private static String json(Kind kind, Message m, short version) throws BadRequest, Refused {
        try {
            JsonNode node = (JsonNode) kind.jsonWrite.invoke(null, m, version, false);
            return MAPPER.writeValueAsString(node);
        } catch (InvocationTargetException e) {
            throw new Refused("to JSON: " + describe(e.getCause()));
        } catch (IllegalAccessException | IOException e) {
            throw new BadRequest("to JSON: " + e);
        }
    }

    private static Message fromJson(Kind kind, short version, String text) throws BadRequest, Refused {
        JsonNode node;
        try {
            node = MAPPER.readTree(text);
        } catch (IOException e) {
            throw new BadRequest("not JSON: " + e.getMessage());
        }
        checkVersion(kind.create(), version, "from JSON: ");
        try {
            return (Message) kind.jsonRead.invoke(null, node, version);
        } catch (InvocationTargetException e) {
            throw new Refused("from JSON: " + describe(e.getCause()));
        } catch (IllegalAccessException e) {
            throw new BadRequest("from JSON: " + e);
        }
    }

    private static String describe(Throwable e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private static String oneLine(String text) {
        return String.valueOf(text).replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 15];
            out[2 * i + 1] = DIGITS[bytes[i] & 15];
        }
        return new String(out);
    }

    private static byte[] unhex(String text) throws BadRequest {
        if (text.length() % 2 != 0) {
            throw new BadRequest("odd hex length");
        }
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int high = Character.digit(text.charAt(2 * i), 16);
            int low = Character.digit(text.charAt(2 * i + 1), 16);
            if (high < 0 || low < 0) {
                throw new BadRequest("not hex at " + 2 * i);
            }
            out[i] = (byte) (high << 4 | low);
        }
        return out;
    }
}

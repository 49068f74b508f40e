// Starts kroxylicious from its runtime library with one YAML configuration
// file, as kroxylicious-app's command line does (`--config FILE`): parse the
// file, start the proxy, block until the JVM is stopped. Maven Central serves
// kroxylicious-runtime here but not kroxylicious-app (its picocli front end),
// so kroxylicious.py runs this file with the runtime's jars on the class path,
// in the java launcher's source-file mode.
//
//     java -cp 'LIB/*' KroxyliciousLauncher.java config.yaml
//
// Prints "kroxylicious started" once every listener is bound.

import io.kroxylicious.proxy.KafkaProxy;
import io.kroxylicious.proxy.config.ConfigParser;
import io.kroxylicious.proxy.config.Configuration;
import io.kroxylicious.proxy.internal.config.Features;
import java.nio.file.Files;
import java.nio.file.Path;

public class KroxyliciousLauncher {
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: KroxyliciousLauncher CONFIG.yaml");
            System.exit(2);
        }
        ConfigParser parser = new ConfigParser();
        Configuration config = parser.parseConfiguration(Files.readString(Path.of(args[0])));
        try (KafkaProxy proxy = new KafkaProxy(parser, config, Features.defaultFeatures())) {
            proxy.startup();
            System.out.println("kroxylicious started");
            System.out.flush();
            proxy.block();
        }
    }
}

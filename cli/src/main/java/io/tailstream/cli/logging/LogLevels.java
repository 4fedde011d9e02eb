package io.tailstream.cli.logging;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.slf4j.event.Level;

/**
 * Log levels by logger name: a default and per-name prefixes, the longest matching prefix winning. Immutable.
 *
 * @param defaultLevel the level of a logger no prefix matches
 * @param byPrefix     levels by logger name prefix (a whole name or a package)
 */
record LogLevels(Level defaultLevel, Map<String, Level> byPrefix) {

    static final String RESOURCE = "tailstream-logging.properties";

    LogLevels {
        byPrefix = Map.copyOf(byPrefix);
    }

    /** Prefix of the system properties that override a level: {@code -Dtailstream.log.io.tailstream.x=debug}. */
    static final String PROPERTY_PREFIX = "tailstream.log.";

    /**
     * The levels of {@value #RESOURCE} on the class path (WARN for everything if there is none), overridden by
     * system properties {@value #PROPERTY_PREFIX}{@code <logger or default>}.
     */
    static LogLevels load() {
        Properties p = new Properties();
        try (InputStream in = LogLevels.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return from(p, System.getProperties());
    }

    /** The levels of {@code resource}, overridden by the {@value #PROPERTY_PREFIX} entries of {@code system}. */
    static LogLevels from(Properties resource, Properties system) {
        Map<String, String> all = new TreeMap<>();
        resource.stringPropertyNames().forEach(k -> all.put(k, resource.getProperty(k)));
        system.stringPropertyNames().stream().filter(k -> k.startsWith(PROPERTY_PREFIX))
                .forEach(k -> all.put(k.substring(PROPERTY_PREFIX.length()), system.getProperty(k)));
        Level def = Level.WARN;
        Map<String, Level> levels = new TreeMap<>();
        for (Map.Entry<String, String> e : all.entrySet()) {
            Level level = Level.valueOf(e.getValue().strip().toUpperCase(Locale.ROOT));
            if (e.getKey().equals("default")) {
                def = level;
            } else {
                levels.put(e.getKey(), level);
            }
        }
        return new LogLevels(def, levels);
    }

    /** The level of logger {@code name}. */
    Level levelOf(String name) {
        Level best = defaultLevel;
        int bestLength = -1;
        for (Map.Entry<String, Level> e : byPrefix.entrySet()) {
            String prefix = e.getKey();
            boolean matches = name.equals(prefix) || (name.startsWith(prefix) && name.charAt(prefix.length()) == '.');
            if (matches && prefix.length() > bestLength) {
                best = e.getValue();
                bestLength = prefix.length();
            }
        }
        return best;
    }
}

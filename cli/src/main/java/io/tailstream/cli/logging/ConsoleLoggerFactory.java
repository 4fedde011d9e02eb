package io.tailstream.cli.logging;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** One {@link Logger} per name, each at its configured level, all writing through one {@link LogSummary}. */
final class ConsoleLoggerFactory implements ILoggerFactory {

    private final LogLevels levels;
    private final LogSummary summary;
    private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();

    ConsoleLoggerFactory(LogLevels levels, LogSummary summary) {
        this.levels = levels;
        this.summary = summary;
    }

    /** Where every logger of this factory writes. */
    LogSummary summary() {
        return summary;
    }

    @Override
    public Logger getLogger(String name) {
        return loggers.computeIfAbsent(name, n -> new ConsoleLogger(n, levels.levelOf(n), summary));
    }

    /** A logger at a fixed level. Thread safe. */
    static final class ConsoleLogger extends LegacyAbstractLogger {

        private static final long serialVersionUID = 1L;

        private final int threshold;
        private final transient LogSummary summary;

        ConsoleLogger(String name, Level level, LogSummary summary) {
            this.name = name;
            this.threshold = level.toInt();
            this.summary = summary;
        }

        @Override
        public boolean isTraceEnabled() {
            return threshold <= Level.TRACE.toInt();
        }

        @Override
        public boolean isDebugEnabled() {
            return threshold <= Level.DEBUG.toInt();
        }

        @Override
        public boolean isInfoEnabled() {
            return threshold <= Level.INFO.toInt();
        }

        @Override
        public boolean isWarnEnabled() {
            return threshold <= Level.WARN.toInt();
        }

        @Override
        public boolean isErrorEnabled() {
            return threshold <= Level.ERROR.toInt();
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, org.slf4j.Marker marker, String messagePattern,
                                                   Object[] arguments, Throwable throwable) {
            String message = MessageFormatter.basicArrayFormat(messagePattern, arguments);
            summary.log(name, level, message, throwable);
        }
    }
}

package io.tailstream.cli.logging;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider of the {@code tailstream} command (found through {@code META-INF/services}): levels from
 * {@code tailstream-logging.properties}, lines on stderr through one {@link LogSummary}.
 */
public final class ConsoleLogProvider implements SLF4JServiceProvider {

    private ILoggerFactory factory;
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        factory = new ConsoleLoggerFactory(LogLevels.load(), LogSummary.toStderr());
    }
}

package io.tailstream.producer.target;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Hands out connections from several data sources in turn: the n-th {@link #getConnection()} comes from source
 * {@code n mod size}. Workers take one connection each for a whole step, so N workers end up spread evenly over the
 * endpoints. Thread safe.
 */
final class RoundRobinDataSource implements DataSource {

    private final List<DataSource> sources;
    private final AtomicInteger next = new AtomicInteger();

    RoundRobinDataSource(List<DataSource> sources) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("round robin over no data source");
        }
        this.sources = List.copyOf(sources);
    }

    private DataSource pick() {
        return sources.get(Math.floorMod(next.getAndIncrement(), sources.size()));
    }

    @Override
    public Connection getConnection() throws SQLException {
        return pick().getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return pick().getConnection(username, password);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return sources.get(0).getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        for (DataSource s : sources) {
            s.setLogWriter(out);
        }
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        for (DataSource s : sources) {
            s.setLoginTimeout(seconds);
        }
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return sources.get(0).getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no java.util.logging parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}

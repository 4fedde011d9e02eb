package io.tailstream.producer.workload;

import org.h2.jdbcx.JdbcDataSource;

/** Embedded in-memory H2 data sources for workload tests; each name is its own database, kept for the JVM. */
public final class H2Sources {

    private H2Sources() {}

    public static JdbcDataSource inMemory(String name) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
        ds.setUser("sa");
        return ds;
    }
}

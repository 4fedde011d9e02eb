/**
 * SQL over the archive: {@link io.tailstream.reporter.query.ArchiveDatabase} opens an in-memory DuckDB with one
 * view per dataset ({@code samples}, {@code blocks}, {@code windows}, {@code control}, {@code steps}, {@code runs};
 * columns in {@link io.tailstream.reporter.archive}), each with the hive partition key {@code run_id} as a VARCHAR
 * column. The report reads the archive through it; the {@code query}, {@code runs} and {@code compare} commands
 * (issue 5) will too.
 */
package io.tailstream.reporter.query;

package io.tailstream.reporter.archive;

import io.tailstream.reporter.query.ArchiveDatabase;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Proves from the archive alone that every sample block is there exactly once: block sequences per run and
 * producer from the {@code blocks} dataset, against the block counts producers declared in {@code run_ended}
 * (read from the {@code control} dataset). Thread safe (no state).
 */
public final class ArchiveVerifier {

    private ArchiveVerifier() {}

    /**
     * @param runIds the runs to check; empty means every run in the archive
     */
    public static List<BlockCheck> checkBlocks(Path archive, Collection<String> runIds) throws SQLException {
        try (ArchiveDatabase db = ArchiveDatabase.open(archive)) {
            return checkBlocks(db, runIds);
        }
    }

    static List<BlockCheck> checkBlocks(ArchiveDatabase db, Collection<String> runIds) throws SQLException {
        List<String> unreadable = db.problems().stream()
                .filter(p -> runIds.isEmpty() || runIds.contains(p.runId()))
                .map(io.tailstream.reporter.query.ArchiveProblem::describe).toList();
        if (!unreadable.isEmpty()) {
            throw new IllegalStateException("cannot check block sequences: " + String.join("; ", unreadable));
        }
        if (!db.has(ArchiveLayout.BLOCKS)) {
            return List.of();
        }
        String inRuns = runIds.isEmpty() ? "" : " run_id IN (" + String.join(", ",
                runIds.stream().map(ArchiveDatabase::sqlString).toList()) + ")";
        String filter = runIds.isEmpty() ? "" : " WHERE" + inRuns;
        Map<String, Long> declared = new HashMap<>();
        if (db.has(ArchiveLayout.CONTROL)) {
            String sql = "SELECT run_id, producer_id, CAST(json_extract(event, '$.blocksSent') AS BIGINT) "
                    + "FROM control WHERE type = 'run_ended'" + (runIds.isEmpty() ? "" : " AND" + inRuns);
            try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        declared.put(rs.getString(1) + "\u0000" + rs.getString(2), rs.getLong(3));
                    }
                }
            }
        }
        String sql = "SELECT run_id, producer_id, count(*), count(DISTINCT block_seq), max(block_seq) FROM blocks"
                + filter + " GROUP BY run_id, producer_id ORDER BY run_id, producer_id";
        List<BlockCheck> out = new ArrayList<>();
        try (PreparedStatement ps = db.connection().prepareStatement(sql)) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String run = rs.getString(1);
                    String producer = rs.getString(2);
                    long blocks = rs.getLong(3);
                    long distinct = rs.getLong(4);
                    long max = rs.getLong(5);
                    Long sent = declared.get(run + "\u0000" + producer);
                    long expected = Math.max(max + 1, sent == null ? 0 : sent);
                    out.add(new BlockCheck(run, producer, blocks, distinct, max, sent, blocks - distinct,
                            expected - distinct));
                }
            }
        }
        return out;
    }
}

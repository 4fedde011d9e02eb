package io.tailstream.producer.target;

import com.zaxxer.hikari.SQLExceptionOverride;
import io.tailstream.schemas.block.SampleStatus;
import java.sql.SQLException;

/**
 * Tells the pool to discard a connection whenever a statement on it failed with an error its dialect classifies as
 * a lost connection, besides the SQLStates the pool knows itself (class 08, 57P01, ...). Stateless and thread safe.
 */
final class LostConnectionEviction implements SQLExceptionOverride {

    private final Dialect dialect;

    LostConnectionEviction(Dialect dialect) {
        this.dialect = dialect;
    }

    // the interface's nested enum is named Override, so the annotation needs its full name
    @java.lang.Override
    public SQLExceptionOverride.Override adjudicate(SQLException e) {
        return dialect.classify(e) == SampleStatus.CONNECTION_LOST ? SQLExceptionOverride.Override.MUST_EVICT
                : SQLExceptionOverride.Override.CONTINUE_EVICT;
    }
}

package io.tailstream.producer.plan;

/**
 * A plan entry that remembers where it starts in the file, for errors found after binding; {@link LocatingModifier}
 * sets the line and column as Jackson reads the entry. Not thread safe; used once per parse.
 */
abstract class Located {
    int line;
    int column;
}

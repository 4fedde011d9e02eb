package io.tailstream.reporter.parquet;

import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BOOLEAN;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.DOUBLE;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * A flat Parquet table: its columns in order, how each is read from a row object of type {@code T}, and the
 * per-column encoding hints the writer applies.
 *
 * <p>Encodings with the v2 writer: columns are dictionary/RLE encoded unless declared with {@link
 * Builder#int64Sorted}, which turns the dictionary off so parquet-java falls back to {@code DELTA_BINARY_PACKED}
 * (the right encoding for time-sorted timestamps: consecutive deltas are tiny).
 *
 * <p>Immutable and thread safe once built; the row accessors it holds must be too.
 *
 * @param <T> the row type
 */
public final class TableSchema<T> {

    private final MessageType messageType;
    private final List<ColumnWriter<T>> writers;
    private final Set<String> noDictionary;

    private TableSchema(String name, List<Type> fields, List<ColumnWriter<T>> writers, Set<String> noDictionary) {
        this.messageType = new MessageType(name, fields);
        this.writers = List.copyOf(writers);
        this.noDictionary = Set.copyOf(noDictionary);
    }

    public static <T> Builder<T> builder(String name) {
        return new Builder<>(name);
    }

    public MessageType messageType() {
        return messageType;
    }

    /** Columns written without a dictionary (delta encoded). */
    public Set<String> noDictionaryColumns() {
        return noDictionary;
    }

    public List<String> columnNames() {
        return messageType.getFields().stream().map(Type::getName).toList();
    }

    /** Writes one row as one Parquet record; a null value of an optional column is left out (null). */
    void write(T row, RecordConsumer rc) {
        rc.startMessage();
        for (int i = 0; i < writers.size(); i++) {
            writers.get(i).write(row, rc, i);
        }
        rc.endMessage();
    }

    @FunctionalInterface
    private interface ColumnWriter<T> {
        void write(T row, RecordConsumer rc, int index);
    }

    /** Declares the columns in order. Column names must be unique. */
    public static final class Builder<T> {
        private final String name;
        private final List<Type> fields = new ArrayList<>();
        private final List<ColumnWriter<T>> writers = new ArrayList<>();
        private final Set<String> names = new HashSet<>();
        private final Set<String> noDictionary = new HashSet<>();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public Builder<T> int32(String column, ToIntFunction<T> get) {
            return required(Types.required(INT32).named(column), (row, rc) -> rc.addInteger(get.applyAsInt(row)));
        }

        public Builder<T> int64(String column, ToLongFunction<T> get) {
            return required(Types.required(INT64).named(column), (row, rc) -> rc.addLong(get.applyAsLong(row)));
        }

        /** An INT64 column whose values mostly rise (timestamps in a time-sorted file): delta encoded, no dictionary. */
        public Builder<T> int64Sorted(String column, ToLongFunction<T> get) {
            int64(column, get);
            noDictionary.add(column);
            return this;
        }

        /**
         * An optional INT64 column with mostly rising values, delta encoded; null where {@code present} is false
         * (no boxing per row, unlike {@link #optionalInt64}).
         */
        public Builder<T> optionalInt64Sorted(String column, Predicate<T> present, ToLongFunction<T> get) {
            add(Types.optional(INT64).named(column), (row, rc, i) -> {
                if (present.test(row)) {
                    rc.startField(column, i);
                    rc.addLong(get.applyAsLong(row));
                    rc.endField(column, i);
                }
            });
            noDictionary.add(column);
            return this;
        }

        public Builder<T> float64(String column, ToDoubleFunction<T> get) {
            return required(Types.required(DOUBLE).named(column), (row, rc) -> rc.addDouble(get.applyAsDouble(row)));
        }

        public Builder<T> bool(String column, Predicate<T> get) {
            return required(Types.required(BOOLEAN).named(column), (row, rc) -> rc.addBoolean(get.test(row)));
        }

        /** A required UTF-8 string column; a null value is an error naming the column. */
        public Builder<T> string(String column, Function<T, String> get) {
            return required(stringType(Types.required(BINARY), column), (row, rc) -> {
                String v = get.apply(row);
                if (v == null) {
                    throw new IllegalArgumentException("column " + column + " is required but the value is null");
                }
                rc.addBinary(Binary.fromString(v));
            });
        }

        public Builder<T> optionalString(String column, Function<T, String> get) {
            return optional(stringType(Types.optional(BINARY), column), get,
                    (rc, v) -> rc.addBinary(Binary.fromString(v)));
        }

        public Builder<T> optionalBool(String column, Function<T, Boolean> get) {
            return optional(Types.optional(BOOLEAN).named(column), get, RecordConsumer::addBoolean);
        }

        public Builder<T> optionalInt32(String column, Function<T, Integer> get) {
            return optional(Types.optional(INT32).named(column), get, RecordConsumer::addInteger);
        }

        public Builder<T> optionalInt64(String column, Function<T, Long> get) {
            return optional(Types.optional(INT64).named(column), get, RecordConsumer::addLong);
        }

        public Builder<T> optionalFloat64(String column, Function<T, Double> get) {
            return optional(Types.optional(DOUBLE).named(column), get, RecordConsumer::addDouble);
        }

        private Builder<T> required(Type field, BiConsumer<T, RecordConsumer> value) {
            String column = field.getName();
            add(field, (row, rc, i) -> {
                rc.startField(column, i);
                value.accept(row, rc);
                rc.endField(column, i);
            });
            return this;
        }

        private <V> Builder<T> optional(Type field, Function<T, V> get, BiConsumer<RecordConsumer, V> add) {
            String column = field.getName();
            add(field, (row, rc, i) -> {
                V v = get.apply(row);
                if (v != null) {
                    rc.startField(column, i);
                    add.accept(rc, v);
                    rc.endField(column, i);
                }
            });
            return this;
        }

        public TableSchema<T> build() {
            if (fields.isEmpty()) {
                throw new IllegalStateException("table " + name + " has no columns");
            }
            return new TableSchema<>(name, fields, writers, noDictionary);
        }

        private static PrimitiveType stringType(Types.PrimitiveBuilder<PrimitiveType> b, String column) {
            return b.as(LogicalTypeAnnotation.stringType()).named(column);
        }

        private void add(Type field, ColumnWriter<T> writer) {
            if (!names.add(field.getName())) {
                throw new IllegalArgumentException("table " + name + ": duplicate column " + field.getName());
            }
            fields.add(field);
            writers.add(writer);
        }
    }
}

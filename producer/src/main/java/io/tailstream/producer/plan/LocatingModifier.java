package io.tailstream.producer.plan;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import java.io.IOException;

/**
 * Records the start of every {@link Located} entry as Jackson reads it, by wrapping the entry's deserializer. Thread
 * safe: neither holds state; each sets the line and column on the entry it has just built.
 */
final class LocatingModifier extends BeanDeserializerModifier {
    @Override
    public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription desc,
                                                  JsonDeserializer<?> deserializer) {
        return Located.class.isAssignableFrom(desc.getBeanClass()) ? new Locating(deserializer) : deserializer;
    }

    private static final class Locating extends DelegatingDeserializer {
        Locating(JsonDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> newDelegatee) {
            return new Locating(newDelegatee);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            JsonLocation loc = p.currentTokenLocation();
            Object o = super.deserialize(p, ctxt);
            if (o instanceof Located l) {
                l.line = loc.getLineNr();
                l.column = loc.getColumnNr();
            }
            return o;
        }
    }
}

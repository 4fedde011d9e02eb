/**
 * Databases under test: {@link io.tailstream.producer.target.Target} (how to reach one, never logging its
 * password), {@link io.tailstream.producer.target.Dialect} (every SQL difference between products, so workloads
 * stay product-neutral), connection pools sized to the thread count, error classification by SQLState and vendor
 * code, and the metadata captured at step start.
 */
package io.tailstream.producer.target;

/**
 * JMH benchmarks of tailstream's hot paths. Each class's Javadoc says how to run it; the normal build compiles them
 * and runs none.
 */
package io.tailstream.benchmarks;

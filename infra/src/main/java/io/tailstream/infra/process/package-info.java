/** Child processes: JVMs started from this one, for Kafka nodes, stages run apart, tests and benchmarks. */
package io.tailstream.infra.process;

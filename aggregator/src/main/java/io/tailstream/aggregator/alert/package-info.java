/** Alerts to a webhook: stalls as they start and end, producers that go quiet. */
package io.tailstream.aggregator.alert;

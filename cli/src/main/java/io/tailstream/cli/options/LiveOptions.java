package io.tailstream.cli.options;

import io.tailstream.producer.plan.LiveView;
import io.tailstream.producer.plan.PlanException;
import io.tailstream.producer.plan.PlanFile;
import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * How a local {@code run} is watched while it runs: {@code --live} (the aggregator during the load, with its live
 * page and {@code /metrics}), {@code --live-http HOST:PORT} and {@code --alert-webhook URL}, on top of a plan's
 * {@code live}, {@code liveHttp} and {@code alertWebhook}.
 */
public final class LiveOptions {

    @Option(names = "--live", negatable = true,
            description = "Local run: run the aggregator during the load, at the lowest CPU priority, with its live"
                    + " page and /metrics (default: off, or live: true in a plan; --no-live turns a plan's off).")
    public Boolean live;

    @Option(names = "--live-http", paramLabel = "HOST:PORT",
            description = "With --live: where the live page listens (default: 127.0.0.1 on a free port; liveHttp in a"
                    + " plan).")
    public String liveHttp;

    @Option(names = "--alert-webhook", paramLabel = "URL",
            description = "With --live: POST a JSON alert to this URL when a stall starts and ends and when the"
                    + " producer goes quiet (alertWebhook in a plan).")
    public String alertWebhook;

    /**
     * The view of a run: the plan's ({@code planFile}, may be null) with these options on top.
     *
     * @param local the run is local and sends its samples (no {@code --bootstrap-servers}, no {@code --no-emit})
     * @param noEmit {@code --no-emit} was given, for the error's wording
     * @throws ParameterException for a bad value, or a combination the options do not allow
     */
    public LiveView view(CommandLine commandLine, Path planFile, boolean local, boolean noEmit) {
        LiveView fromPlan;
        try {
            fromPlan = planFile != null ? PlanFile.liveView(planFile) : LiveView.OFF;
        } catch (PlanException e) {
            throw new ParameterException(commandLine, e.getMessage(), e);
        }
        String address = null;
        URI webhook = null;
        try {
            address = liveHttp == null ? null : LiveView.address(liveHttp);
            webhook = alertWebhook == null ? null : LiveView.webhook(alertWebhook);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(commandLine, (address == null && liveHttp != null ? "--live-http "
                    : "--alert-webhook ") + e.getMessage(), e);
        }
        LiveView view = fromPlan.with(live, address, webhook);
        boolean detail = liveHttp != null || alertWebhook != null;
        if ((view.on() || detail) && !local) {
            throw new ParameterException(commandLine, "--live, --live-http and --alert-webhook watch a local run: with"
                    + " --bootstrap-servers run 'aggregate --http ... --alert-webhook ...' beside the cluster"
                    + (noEmit ? "; --no-emit sends nothing to watch" : ""));
        }
        if (!view.on() && detail) {
            throw new ParameterException(commandLine, "--live-http and --alert-webhook need --live");
        }
        return view;
    }
}

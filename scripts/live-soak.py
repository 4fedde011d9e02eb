#!/usr/bin/env python3
"""A live soak with stalls injected at known times: proof that `run --live` sees them as they happen.

Runs `tailstream run --live --alert-webhook URL` for one long step against a local MySQL/MariaDB, with a webhook
receiver of its own on 127.0.0.1. At the given times into the step it takes a global read lock (`ftwrl`: FLUSH
TABLES WITH READ LOCK) or a write lock on one table (`lock`: LOCK TABLES sbtest1 WRITE) for the given time, as root
over the server's socket (the `mariadb` client), and notes when the server granted it. Meanwhile it polls the live
page's /api/runs every 0.5 s, noting when each stall first shows there, and shortly before the end it renders the
live page with headless Chromium. At the end it matches stalls to injections and prints, per injection, how long
after the lock the stall showed on the page and the webhook's stall_started arrived; stalls matching no injection;
and the report's explanation of each stall (the counters that moved). Everything goes to OUT/live-soak.json.

Usage (from the repository root, after `./mvnw -pl cli -am package -DskipTests`; the tables loaded beforehand with
`tailstream prepare` and the same --tables/--table-size):
  export TAILSTREAM_MYSQL_PASSWORD=...
  scripts/live-soak.py --minutes 32 --inject 8m:ftwrl:10s,16m:lock:10s,24m:ftwrl:10s,28m:lock:10s --out soak/

Python 3 standard library only; needs `mariadb` (or `mysql`) and, for the screenshot, `chromium` on the PATH.
"""
import argparse
import html
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def duration_s(text):
    m = re.fullmatch(r"(\d+)(ms|s|m|h)", text)
    if not m:
        raise argparse.ArgumentTypeError("not a duration: " + text)
    return int(m.group(1)) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def injections(text):
    out = []
    for part in text.split(","):
        at, kind, hold = part.split(":")
        if kind not in ("ftwrl", "lock"):
            raise argparse.ArgumentTypeError("kind must be ftwrl or lock, was " + kind)
        out.append({"at_s": duration_s(at), "kind": kind, "hold_s": duration_s(hold)})
    return sorted(out, key=lambda i: i["at_s"])


class Receiver(http.server.BaseHTTPRequestHandler):
    alerts = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Receiver.alerts.append({"receivedAtMs": int(time.time() * 1000), "body": json.loads(body)})
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=32, help="measured minutes of the step (default 32)")
    ap.add_argument("--warmup", default="60s")
    ap.add_argument("--inject", type=injections, required=True,
                    help="AT:KIND:HOLD,... times into the step (warm-up included), e.g. 8m:ftwrl:10s")
    ap.add_argument("--url", default="jdbc:mariadb://127.0.0.1:3306/tailstream_test")
    ap.add_argument("--database", default="tailstream_test", help="the schema of the sysbench tables")
    ap.add_argument("--user", default="tailstream")
    ap.add_argument("--password-env", default="TAILSTREAM_MYSQL_PASSWORD")
    ap.add_argument("--workload", default="oltp_read_write")
    ap.add_argument("--threads", default="8")
    ap.add_argument("--tables", default="8")
    ap.add_argument("--table-size", default="10000")
    ap.add_argument("--jar", default="cli/target/tailstream-all.jar")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    client = shutil.which("mariadb") or shutil.which("mysql")
    if client is None:
        sys.exit("needs the mariadb (or mysql) client on the PATH")
    os.makedirs(a.out, exist_ok=True)

    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    webhook = "http://127.0.0.1:%d/alerts" % receiver.server_address[1]

    cmd = ["java", "-jar", a.jar, "run", "--url", a.url, "--user", a.user, "--password-env", a.password_env,
           "--workload", a.workload, "--threads", a.threads, "--tables", a.tables, "--table-size", a.table_size,
           "--warmup", a.warmup, "--duration", "%ds" % int(a.minutes * 60), "--report-interval", "10",
           "--live", "--alert-webhook", webhook, "--out", a.out]
    run = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    page = None
    step_started = threading.Event()
    state = {"step_start": None, "page": None}
    console = open(os.path.join(a.out, "console.log"), "w")

    def read_console():
        for line in run.stdout:
            console.write(line)
            console.flush()
            m = re.search(r"live page: (http://\S+/) ", line)
            if m:
                state["page"] = m.group(1)
            if line.startswith("== step 1 ") and state["step_start"] is None:
                state["step_start"] = time.time()
                step_started.set()

    threading.Thread(target=read_console, daemon=True).start()
    if not step_started.wait(600):
        run.kill()
        sys.exit("the step did not start within 10 minutes; see " + console.name)
    page = state["page"]
    t0 = state["step_start"]

    seen = {}  # stall key -> first time seen on the page, and the stall

    def poll():
        while run.poll() is None:
            try:
                with urllib.request.urlopen(page + "api/runs", timeout=5) as r:
                    runs = json.load(r)["runs"]
                for run_view in runs:
                    for step in run_view["steps"]:
                        for s in step["openStalls"] + step["endedStalls"]:
                            key = "%s/%d/%s/%d" % (run_view["run"], s["stepId"], s["kind"], s["startEpochMs"])
                            seen.setdefault(key, {"seenAtMs": int(time.time() * 1000), "stall": s})
                            seen[key]["stall"] = s
            except Exception:
                pass  # the aggregator lags behind the load or has stopped: ask again
            time.sleep(0.5)

    threading.Thread(target=poll, daemon=True).start()

    injected = []
    for inj in a.inject:
        delay = t0 + inj["at_s"] - time.time()
        if delay > 0:
            time.sleep(delay)
        if inj["kind"] == "ftwrl":
            sql = "FLUSH TABLES WITH READ LOCK; SELECT UNIX_TIMESTAMP(NOW(3)); SELECT SLEEP(%g); UNLOCK TABLES;"
        else:
            sql = "LOCK TABLES sbtest1 WRITE; SELECT UNIX_TIMESTAMP(NOW(3)); SELECT SLEEP(%g); UNLOCK TABLES;"
        out = subprocess.run([client, "-N", a.database, "-e", sql % inj["hold_s"]], capture_output=True, text=True,
                             check=True).stdout.split()
        locked = int(float(out[0]) * 1000)
        injected.append(dict(inj, lockedAtMs=locked, releasedAtMs=locked + int(inj["hold_s"] * 1000)))
        print("injected %s at %.1f s into the step, held %g s" % (inj["kind"], locked / 1000 - t0, inj["hold_s"]),
              flush=True)

    end = t0 + duration_s(a.warmup) + a.minutes * 60
    shot = os.path.join(a.out, "live-page.png")
    # before the step ends, at the lowest CPU priority as the live aggregator runs: a browser rendering at normal
    # priority takes the cores from the database for seconds, and the page shows that as a stall
    delay = end - 150 - time.time()
    if delay > 0:
        time.sleep(delay)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        profile = tempfile.mkdtemp()
        shooter = subprocess.Popen(["setsid", "chrt", "--idle", "0", chromium, "--headless", "--no-sandbox",
                                    "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + profile,
                                    "--virtual-time-budget=15000", "--window-size=1300,1400",
                                    "--screenshot=" + os.path.abspath(shot), page],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # only once setsid has made it a session of its own: before, its group is this script's (and its shell's)
        for _ in range(100):
            try:
                with open("/proc/%d/stat" % shooter.pid) as stat:
                    session = int(stat.read().rsplit(")", 1)[1].split()[3])
            except (OSError, ValueError, IndexError):
                break
            if session == shooter.pid:
                try:
                    with open("/proc/%d/autogroup" % shooter.pid, "w") as group:
                        group.write("19")
                except OSError:
                    pass  # no autogroups here: SCHED_IDLE alone
                break
            time.sleep(0.02)
        try:
            shooter.wait(timeout=140)
        except subprocess.TimeoutExpired:
            shooter.kill()
            print("the screenshot took more than 140 s at the lowest priority: none taken", flush=True)
        shutil.rmtree(profile, ignore_errors=True)
    code = run.wait()
    receiver.shutdown()

    stalls = {k: v for k, v in seen.items() if v["stall"]["endEpochMs"] > v["stall"]["startEpochMs"]}
    results = {"exit": code, "injections": [], "notInjected": []}
    matched = set()
    for inj in injected:
        over = [(k, v) for k, v in stalls.items() if v["stall"]["startEpochMs"] < inj["releasedAtMs"]
                and v["stall"]["endEpochMs"] > inj["lockedAtMs"] - 1000]
        first = min(over, key=lambda kv: kv[1]["stall"]["startEpochMs"]) if over else None
        alert = None
        if first:
            matched.update(k for k, _ in over)
            alert = next((x for x in Receiver.alerts if x["body"].get("type") == "stall_started"
                          and x["body"].get("startEpochMs") == first[1]["stall"]["startEpochMs"]
                          and x["body"].get("kind") == first[1]["stall"]["kind"]), None)
        results["injections"].append(dict(
            inj, stalls=[v["stall"] for _, v in over],
            pageAfterMs=first[1]["seenAtMs"] - inj["lockedAtMs"] if first else None,
            alertAfterMs=alert["receivedAtMs"] - inj["lockedAtMs"] if alert else None,
            stallStartAfterMs=first[1]["stall"]["startEpochMs"] - inj["lockedAtMs"] if first else None))
    results["notInjected"] = [v["stall"] for k, v in stalls.items() if k not in matched]
    results["alerts"] = Receiver.alerts
    report = os.path.join(a.out, "report.html")
    if os.path.exists(report):
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", open(report).read())).split())
        # each stall row of the report: kind, start, duration, then the counters that moved most around it
        results["explanations"] = re.findall(r"(?:hard|throughput|latency) \d{4}-\d\d-\d\dT[\d:]+Z \d+ s "
                                             r"(?:(?!(?:hard|throughput|latency) \d{4}-).){0,300}",
                                             text)
    json.dump(results, open(os.path.join(a.out, "live-soak.json"), "w"), indent=1)
    for r in results["injections"]:
        print("%-5s at %6.1f s: %d stall(s); stall start %s ms after the lock, on the page after %s ms, webhook"
              " after %s ms" % (r["kind"], r["lockedAtMs"] / 1000 - t0, len(r["stalls"]), r["stallStartAfterMs"],
                                r["pageAfterMs"], r["alertAfterMs"]))
    print("stalls matching no injection: %d" % len(results["notInjected"]))
    for e in results.get("explanations", []):
        print("report:", e[:300])
    print("exit %d; screenshot %s; details %s" % (code, shot, os.path.join(a.out, "live-soak.json")))


if __name__ == "__main__":
    main()

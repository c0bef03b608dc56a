#!/usr/bin/env python3
"""The calendar page with 500 events in its month: server time for the month, week and agenda
views over loopback, and (with --browser) what headless Chromium makes of the month page.

    Benchmarks/web/month.py --binary .build/release/jadwal [--events 500] [--requests 200] [--browser]

Goal (issue 9): a month view with 500 events in under 20 ms of server time; no long task in the
browser. Events are made through the JSON API (10% weekly, some all-day, some overlapping) in
Asia/Riyadh; pages are read with the browser's cookie (the session's access token).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from jadwal_server import Connection, JadwalServer  # noqa: E402

MONTH = "2027-03"


def make_events(server: JadwalServer, count: int) -> None:
    _, body = server.api.send("GET", "/api/v1/calendars")
    calendars = [c for c in json.loads(body)["calendars"] if "VEVENT" in c.get("components", ["VEVENT"])]
    rng = random.Random(7)
    for index in range(count):
        day = rng.randint(1, 31)
        hour = rng.randint(7, 21)
        draft = {"title": f"Event {index}", "start": f"{MONTH}-{day:02d}T{hour:02d}:{rng.choice(['00', '15', '30', '45'])}",
                 "location": "Riyadh" if index % 3 == 0 else None}
        if index % 20 == 0:
            draft = {"title": f"Trip {index}", "start": f"{MONTH}-{day:02d}", "allDay": True}
        elif index % 10 == 0:
            draft["rrule"] = "FREQ=WEEKLY;COUNT=4"
        calendar = calendars[index % len(calendars)]["id"]
        status, answer = server.api.send("POST", f"/api/v1/calendars/{calendar}/events", json.dumps(draft))
        if status != 201:
            sys.exit(f"creating event {index}: {status} {answer[:200]!r}")
        if index % 200 == 199:
            server.refresh()


def timed(server: JadwalServer, path: str, requests: int) -> tuple[float, float, int]:
    connection = Connection(server.port, "")
    cookie = {"Cookie": f"jadwal_access={server.access_token}"}
    samples = []
    size = 0
    for _ in range(requests):
        started = time.perf_counter()
        connection.http.request("GET", path, headers=cookie)
        response = connection.http.getresponse()
        body = response.read()
        samples.append((time.perf_counter() - started) * 1000)
        if response.status != 200:
            sys.exit(f"GET {path}: {response.status} {body[:200]!r}")
        size = len(body)
    samples.sort()
    return statistics.median(samples), samples[int(len(samples) * 0.99) - 1], size


def browser(server: JadwalServer, path: str) -> dict:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        base = f"http://127.0.0.1:{server.port}"
        driver.get(base + "/healthz")
        driver.add_cookie({"name": "jadwal_access", "value": server.access_token, "path": "/"})
        driver.execute_cdp_cmd("Performance.enable", {})
        driver.get(base + path)
        time.sleep(1)
        return driver.execute_script("""
            const nav = performance.getEntriesByType('navigation')[0];
            const longTasks = performance.getEntriesByType('longtask') || [];
            return {domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
                    items: document.querySelectorAll('.item').length, longTasks: longTasks.length};""")
    finally:
        driver.quit()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--browser", action="store_true", help="also load the month in headless Chromium")
    args = parser.parse_args()
    with JadwalServer(args.binary) as server:
        _ = server.api.send("PUT", "/api/v1/prayer-settings", json.dumps({"city": "Riyadh"}))
        make_events(server, args.events)
        server.wait_for_jobs()
        print(f"{args.events} events in {MONTH} (10% weekly x4, 5% all-day), prayer times on; {args.requests} requests each, one keep-alive connection")
        print(f"{'page':<40} {'p50 ms':>8} {'p99 ms':>8} {'bytes':>9}")
        for label, path in [("month", f"/calendar?view=month&date={MONTH}-15"), ("week", f"/calendar?view=week&date={MONTH}-15"),
                            ("day", f"/calendar?view=day&date={MONTH}-15"), ("agenda (30 days)", f"/calendar?view=agenda&date={MONTH}-01")]:
            p50, p99, size = timed(server, path, args.requests)
            print(f"{label:<40} {p50:8.2f} {p99:8.2f} {size:9d}")
            server.refresh()
        if args.browser:
            result = browser(server, f"/calendar?view=month&date={MONTH}-15")
            print(f"chromium, month page: DOMContentLoaded {result['domContentLoaded']:.0f} ms, load {result['load']:.0f} ms, "
                  f"{result['items']} items drawn, long tasks (>50 ms): {result['longTasks']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

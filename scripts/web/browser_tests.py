#!/usr/bin/env python3
"""The web app in a real browser: headless Chromium (Debian's chromium + chromedriver, driven by
Selenium) walks the real flows against a real `jadwal serve` on loopback, runs axe-core on every
screen (zero serious or critical violations allowed), checks that no request leaves for another
host, and writes a screenshot of each screen.

    scripts/web/browser_tests.py --binary .build/debug/jadwal [--screenshots DIR]

Exit status 0 when every check passes; each failure is printed with what was expected.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path

from axe_core_python.selenium import Axe
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Chromium's driver reports an element whose page was replaced as an "unknown error" ("Node with
# given id does not belong to the document"), not as a stale element: it is one, and every wait
# and retry here treats it so.
from selenium.webdriver.remote import errorhandler as _errorhandler  # noqa: E402

_check_response = _errorhandler.ErrorHandler.check_response


def _check_response_detached_is_stale(self, response):
    try:
        _check_response(self, response)
    except StaleElementReferenceException:
        raise
    except WebDriverException as error:
        if "does not belong to the document" in str(error):
            raise StaleElementReferenceException(error.msg) from error
        raise


_errorhandler.ErrorHandler.check_response = _check_response_detached_is_stale

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The screens with flows of their own, in scripts/web/flows/.
SCREEN_FLOWS: tuple[str, ...] = ("tasks", "conflicts", "settings", "connect", "calendars", "whatsapp_link", "events", "sharing", "push", "today", "account", "invitations", "plan")

CHROMIUM = os.environ.get("JADWAL_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("JADWAL_CHROMEDRIVER", "/usr/bin/chromedriver")


class Run:
    """The server, the browser and what the checks found."""

    def __init__(self, binary: str, shots: Path):
        self.shots = shots
        self.failures: list[str] = []
        self.passed = 0
        self.screens: list[Path] = []
        self.data = Path(tempfile.mkdtemp(prefix="jadwal-web-"))
        self.log_path = self.data / "server.log"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("JADWAL_")}
        extra: list[str] = []
        # With the bridge's Python, the server runs the WhatsApp bridge replaying a recorded link
        # (the library's own event objects) in place of WhatsApp's servers.
        self.whatsapp_python = os.environ.get("JADWAL_TEST_WHATSAPP_PYTHON")
        if self.whatsapp_python:
            bridge = Path(__file__).resolve().parents[2] / "bridges" / "whatsapp"
            env.update({"JADWAL_WHATSAPP_PYTHON": self.whatsapp_python, "JADWAL_WHATSAPP_BRIDGE_DIR": str(bridge),
                        "JADWAL_WHATSAPP_REPLAY": str(whatsapp_recording(self.whatsapp_python, bridge, self.data))})
            extra.append("--whatsapp-bridge")
        with open(self.log_path, "wb") as log:
            self.server = subprocess.Popen(
                [binary, "serve", "--hostname", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data / "data"),
                 "--public-url", self.base, "--log-level", "info",
                 # One loopback address is open to fetching, for the remote CalDAV account and the
                 # feed the calendars flow serves there; every other private address stays refused.
                 "--fetch-allow", "127.0.0.2/32", *extra],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        wait_until(lambda: http_ok(self.base + "/healthz"), 60, f"jadwal did not start; log {self.log_path}")
        options = Options()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-US"):
            options.add_argument(flag)
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_script_timeout(30)
        self.axe = Axe()

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            os.killpg(self.server.pid, signal.SIGTERM)
            try:
                self.server.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.server.pid, signal.SIGKILL)
            shutil.rmtree(self.data, ignore_errors=True)

    # Checks

    def check(self, condition: bool, what: str) -> bool:
        if condition:
            self.passed += 1
        else:
            self.failures.append(what)
            print(f"FAIL: {what}", flush=True)
        return condition

    def screen(self, name: str) -> None:
        """Axe on the page as it is now, the same-host rule, and a screenshot."""
        results = self.axe.run(self.driver)
        serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        for violation in serious:
            nodes = "; ".join(n.get("target", [""])[0] if n.get("target") else "" for n in violation["nodes"][:3])
            print(f"  axe {violation['id']} ({violation['impact']}): {violation['help']} — {nodes}")
        self.check(not serious, f"{name}: axe-core finds no serious or critical violations ({len(serious)} found)")
        hosts = self.driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => new URL(e.name).host)")
        foreign = sorted({h for h in hosts if h != f"127.0.0.1:{self.port}"})
        self.check(not foreign, f"{name}: no request to another host ({foreign})")
        path = self.shots / f"{len(self.screens) + 1:02d}-{name}.png"
        self.driver.save_screenshot(str(path))
        self.screens.append(path)

    # Helpers

    def open(self, path: str) -> None:
        self.driver.get(self.base + path)

    def find(self, css: str):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def wait_for(self, condition, what: str, timeout: float = 15) -> bool:
        try:
            # A click that navigates leaves the old page's elements behind for a moment: reading one
            # of them then is "not yet", not a failure.
            WebDriverWait(self.driver, timeout, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)).until(
                lambda d: condition())
            return self.check(True, what)
        except TimeoutException:
            return self.check(False, what + f" (page {self.driver.current_url})")

    def again_if_redrawn(self, step, tries: int = 5):
        """Runs a step that holds elements; when the page was replaced under it (Chromium says a
        stale element, or a node that "does not belong to the document"), waits for the page to
        load and runs the step again from the start."""
        for _ in range(tries - 1):
            try:
                return step()
            except StaleElementReferenceException:
                pass
            except WebDriverException as error:
                if "does not belong to the document" not in str(error):
                    raise
            time.sleep(0.3)
            WebDriverWait(self.driver, 15).until(lambda d: d.execute_script("return document.readyState === 'complete'"))
        return step()

    def set_value(self, css: str, value: str) -> None:
        """Sets a field the way typing does (date and time inputs take keys in the locale's order)."""
        self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); e.value = arguments[1];"
            "e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));",
            css, value)

    def api(self, method: str, path: str, body: dict | None = None) -> dict:
        """The JSON API from the page, with the browser's session and CSRF token (as the app's script calls it)."""
        # A page that is still loading (just after a redirect) can be replaced under the script,
        # which then never answers: wait until it has loaded and carries its token.
        WebDriverWait(self.driver, 15).until(lambda d: d.execute_script(
            "return document.readyState === 'complete' && !!document.querySelector('meta[name=\"csrf-token\"]')"))
        script = """const [method, path, body, done] = arguments;
            const csrf = document.querySelector('meta[name="csrf-token"]').content;
            fetch(path, {method, headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
                         body: body ? JSON.stringify(body) : undefined})
              .then(async r => done({status: r.status, body: await r.text()}), e => done({status: 0, body: String(e)}));"""
        try:
            return self.driver.execute_async_script(script, method, path, body)
        except TimeoutException:
            if method != "GET":
                raise
            # A read is safe to ask again when the page went away under the first one.
            return self.driver.execute_async_script(script, method, path, body)

    def magic_link(self, email: str, after: int) -> str | None:
        deadline = time.time() + 30
        while time.time() < deadline:
            links = re.findall(r"(http://127\.0\.0\.1:\d+/auth/magic\?token=[A-Za-z0-9_-]+)", self.log_path.read_text(errors="replace"))
            if len(links) > after:
                return links[-1]
            time.sleep(0.25)
        return None


def whatsapp_recording(python: str, bridge: Path, folder: Path) -> Path:
    """A link and one agreed conversation, written by the bridge's recorder. The pairing succeeds
    six seconds after the code, so the page shows the code and then follows it to linked."""
    now = int(time.time())
    spec = folder / "whatsapp-spec.json"
    spec.write_text(json.dumps({
        "code": "JDWL2026", "me": "966501234567@s.whatsapp.net", "partner": "966500000002@s.whatsapp.net", "pairAfter": 6,
        # Shown to a QR link before the pairing, turning once, as whatsmeow's `qr` callback does.
        "qrs": ["2@UmVwbGF5T25l,cmVmMQ==,aWRrZXkx,YWR2MQ==", "2@UmVwbGF5VHdv,cmVmMg==,aWRrZXky,YWR2Mg=="],
        "messages": [{"fromMe": False, "text": "Dinner tomorrow at 8pm?", "at": now - 120}, {"fromMe": True, "text": "Deal", "at": now - 60}],
    }))
    out = folder / "whatsapp-link.jsonl"
    subprocess.run([python, "-m", "jadwal_whatsapp.recording", str(spec), "--out", str(out)], cwd=bridge, check=True)
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def wait_until(condition, timeout: float, message: str) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise SystemExit(message)


def link_from_elsewhere(run: Run) -> None:
    """A link asked for somewhere else (by another app, or by someone sending theirs to a victim):
    the page names the account and waits for a click instead of pressing its own button."""
    before = len(re.findall(r"/auth/magic\?token=", run.log_path.read_text(errors="replace")))
    request = urllib.request.Request(run.base + "/api/v1/auth/email", data=b'{"email": "asked.elsewhere@example.com"}',
                                     headers={"Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request, timeout=10).read()
    link = run.magic_link("asked.elsewhere@example.com", before)
    if not run.check(link is not None, "a link asked for through the API appears in the log"):
        return
    run.driver.get(link)
    run.wait_for(lambda: "asked.elsewhere@example.com" in run.find("#signing-in-as").text, "the link page names the account it signs into")
    time.sleep(1.5)
    run.check(run.driver.current_url.startswith(run.base + "/auth/magic"), "opened in a browser that did not ask, the page does not sign in by itself")
    run.check(run.find("#other-browser").is_displayed(), "the page says the link was asked for elsewhere")
    run.screen("magic-link-elsewhere")


def sign_in(run: Run) -> None:
    run.open("/")
    run.check(run.find("html").get_attribute("dir") == "ltr", "sign-in page is left to right in English")
    run.screen("sign-in")
    before = len(re.findall(r"/auth/magic\?token=", run.log_path.read_text(errors="replace")))
    run.find("#email").send_keys("sara@example.com")
    run.find("form[action='/signin/email'] button").click()
    run.wait_for(lambda: "sara@example.com" in run.find("main").text, "check-your-email page names the address")
    run.screen("check-email")
    link = run.magic_link("sara@example.com", before)
    if not run.check(link is not None, "the magic link appears in the log emailer's output"):
        raise SystemExit(1)
    run.driver.get(link)
    # A first sign-in opens the first-run guide (scripts/web/flows/account.py walks it); skipped, the calendar.
    run.wait_for(lambda: run.driver.current_url.endswith("/welcome"), "the magic link signs the browser in and opens the first-run guide")
    run.screen("welcome")
    run.find("#skip-guide").click()
    run.wait_for(lambda: run.driver.current_url.endswith("/calendar"), "skipping the guide opens the calendar")
    cookies = {c["name"]: c for c in run.driver.get_cookies()}
    run.check(cookies.get("jadwal_refresh", {}).get("httpOnly") is True, "the session cookie is HTTP-only")
    # Scripts see only the screen-width mark (jadwal_screen), never a session cookie.
    visible = [c.split("=")[0].strip() for c in run.driver.execute_script("return document.cookie").split(";") if c.strip()]
    run.check(visible in ([], ["jadwal_screen"]), f"scripts cannot read the session cookies ({visible})")


def add_event(run: Run) -> None:
    run.find("a.add").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "event-form"), "Add event opens the form")
    save = run.find("#save")
    run.check(not save.is_enabled(), "Add is disabled while the title is empty")
    run.find("#title").send_keys("Dinner with Sara")
    run.set_value("#startTime", "20:00")
    run.set_value("#endTime", "19:00")
    run.wait_for(lambda: "before the start" in run.find("#endDate-error").text, "an end before the start is shown beside the field")
    run.check(not save.is_enabled(), "Add is disabled while the end is before the start")
    run.screen("event-form-invalid")
    run.set_value("#endTime", "21:30")
    run.wait_for(lambda: save.is_enabled(), "Add is enabled once the form is valid")
    run.find("#location").send_keys("Najd Village")
    save.click()
    run.wait_for(lambda: "view=week" in run.driver.current_url, "saving goes to the week of the event")
    run.wait_for(lambda: "Dinner with Sara" in run.find(".timegrid").text, "the new event is in the week view")
    run.screen("week")


def views(run: Run) -> None:
    for view in ("month", "day", "agenda"):
        run.find(f".views a[href*='view={view}']").click()
        run.wait_for(lambda: f"view={view}" in run.driver.current_url, f"the {view} view opens")
        run.wait_for(lambda: "Dinner with Sara" in run.find("main").text, f"the event is in the {view} view")
        run.screen(view)
    run.find(".views a[href*='view=month']").click()
    run.wait_for(lambda: "view=month" in run.driver.current_url and run.driver.find_elements(By.CSS_SELECTOR, "table.month a.item"),
                 "back to the month view")
    run.find("table.month a.item").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "event-form"), "clicking the event opens it for editing")
    title = run.find("#title")
    title.clear()
    title.send_keys("Dinner with Sara and Omar")
    run.find("#save").click()
    run.wait_for(lambda: "Dinner with Sara and Omar" in run.find("main").text, "the edited title is shown")


def navigation(run: Run) -> None:
    run.open("/calendar?view=month")
    heading = run.find("#cal-title").text
    run.find("a[rel='next']").click()
    run.wait_for(lambda: run.find("#cal-title").text != heading, "next shows the following month")
    run.set_value("#month-picker", "2027-03")
    run.find("form.picker button").click()
    run.wait_for(lambda: "March 2027" in run.find("#cal-title").text, "the month picker jumps to March 2027")
    run.find("a[href*='date=2027-03-10'].day-add").click()
    run.wait_for(lambda: run.find("#startDate").get_attribute("value") == "2027-03-10", "the + on a day adds an event on that day")
    # Keyboard: Tab from the top reaches the skip link first, and focus is visible.
    run.open("/calendar")
    run.find("body").send_keys("\ue004")
    focused = run.driver.switch_to.active_element
    run.check(focused.get_attribute("class") == "skip", "the first Tab reaches 'Skip to content'")


def notifications(run: Run) -> None:
    run.open("/calendar")
    run.find("#bell").click()
    run.wait_for(lambda: run.find("#notifications").is_displayed(), "the bell opens the notifications panel")
    run.wait_for(lambda: run.find("#notification-list li"), "the panel lists the notifications (or says there are none)")
    run.screen("notifications")
    run.find("body").send_keys("\ue00c")  # Escape
    run.wait_for(lambda: not run.find("#notifications").is_displayed(), "Escape closes the panel")


def phone(run: Run) -> None:
    """A phone's width (390 px): every main screen fits it, so nothing scrolls sideways but the
    week grid's own box, and stays accessible."""
    run.driver.set_window_size(390, 844)
    try:
        for path, name in (("/calendar?view=month", "phone-month"), ("/calendar?view=week", "phone-week"), ("/events/new", "phone-event-form"),
                           ("/conflicts", "phone-conflicts"), ("/tasks", "phone-tasks"), ("/settings", "phone-settings"),
                           ("/settings/prayer", "phone-prayer"), ("/settings/whatsapp", "phone-whatsapp"),
                           ("/settings/calendars", "phone-calendars"), ("/settings/account", "phone-account"), ("/welcome?step=place", "phone-welcome"),
                           ("/privacy", "phone-privacy")):
            run.open(path)
            run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "main"), f"{path} opens at a phone's width")
            overflow = run.driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            run.check(overflow <= 0, f"{path} fits a phone's width ({overflow} px too wide)")
            run.screen(name)
    finally:
        run.driver.set_window_size(1280, 900)


def arabic(run: Run) -> None:
    answer = run.api("PATCH", "/api/v1/me", {"language": "ar", "timeZone": "Asia/Riyadh"})
    run.check(answer["status"] == 200, f"the profile takes Arabic ({answer})")
    run.open("/calendar?view=month")
    html = run.find("html")
    run.check(html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar", "in Arabic the page is right to left")
    run.check(run.find("a.add").text == "أضف حدثًا", "the calendar speaks Arabic")
    # Mirrored: the first weekday column is on the right.
    first, last = run.driver.find_elements(By.CSS_SELECTOR, "table.month th")[0], run.driver.find_elements(By.CSS_SELECTOR, "table.month th")[-1]
    run.check(first.location["x"] > last.location["x"], "in Arabic the week runs right to left")
    run.screen("month-arabic")
    run.open("/calendar?view=week")
    run.screen("week-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the jadwal binary")
    parser.add_argument("--screenshots", default=None, help="folder for the screenshots (default: a new temporary folder)")
    parser.add_argument("--only", nargs="+", choices=SCREEN_FLOWS, default=None,
                        help="sign in and run only these screens' flows (a quick check while working on them)")
    args = parser.parse_args()
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not os.access(tool, os.X_OK):
            print(f"{tool} is missing: apt-get install -y chromium chromium-driver", file=sys.stderr)
            return 2
    shots = Path(args.screenshots or tempfile.mkdtemp(prefix="jadwal-screens-"))
    shots.mkdir(parents=True, exist_ok=True)
    run = Run(str(Path(args.binary).resolve()), shots)
    try:
        # Each screen's flows live in scripts/web/flows/<screen>.py as FLOWS, run in this order
        # after signing in; every flow starts from any page and may leave the browser anywhere.
        # A module's LAST flows end the session the others use, so they run after all of them.
        modules = [importlib.import_module(f"flows.{name}") for name in (args.only or SCREEN_FLOWS)]
        extra = [flow for module in modules for flow in module.FLOWS]
        last = [flow for module in modules for flow in getattr(module, "LAST", [])]
        flows = (sign_in, *extra, *last) if args.only else (
            link_from_elsewhere, sign_in, add_event, views, navigation, notifications, *extra, phone, arabic, *last)
        for flow in flows:
            try:
                flow(run)
            except SystemExit:
                raise
            except Exception as error:  # a flow that breaks is one failure, and the others still run
                # Where in the flow it broke (Selenium's own frames say nothing about that).
                frames = [f for f in traceback.extract_tb(error.__traceback__) if "/scripts/web/" in f.filename]
                where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
                run.check(False, f"{flow.__name__}{where}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
    finally:
        run.close()
    print("\nScreenshots:")
    for path in run.screens:
        print(f"  {path}")
    print(f"\n{run.passed} checks passed, {len(run.failures)} failed")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())

"""Settings → Calendars in the browser: make a calendar, import an .ics file into it through the
file input and see the report, rename, recolour and reorder it, hide it from the calendar views
and show it again, see a private feed address refused beside the field, delete the calendar
after the page that names what goes; the same by keyboard alone; and the page in Arabic, right
to left. Then a feed with a
refresh interval taken as to-dos, and another CalDAV account (a real Radicale on 127.0.0.2, the
one private address this server may fetch) connected, its calendars chosen, synced and
disconnected, with the form's problems said beside their fields."""
from __future__ import annotations

import datetime
import functools
import http.server
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from flows.keyboard import ENTER, SPACE, from_top, keys, press, retype, tab_to, type_into

PATH = "/settings/calendars"


def rows(run) -> list[str]:
    return [h.text for h in run.driver.find_elements(By.CSS_SELECTOR, ".calendar-row h3")]


def row(run, name: str):
    return next(r for r in run.driver.find_elements(By.CSS_SELECTOR, ".calendar-row") if r.find_element(By.CSS_SELECTOR, "h3").text == name)


def calendars(run) -> None:
    run.open("/settings")
    run.driver.find_element(By.CSS_SELECTOR, f".settings-nav a[href='{PATH}']").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "calendars-title"), "Settings links to the calendars page")
    run.check("Personal" in rows(run), f"the default calendars are listed ({rows(run)})")
    run.screen("calendars")

    # A new calendar, with a colour.
    run.find("#new-name").send_keys("Family")
    run.set_value("#new-color", "#993366")
    run.find("#create-calendar").click()
    run.wait_for(lambda: "The calendar is made." in run.find("main").text, "creating a calendar says so")
    run.check(rows(run)[-1] == "Family", f"the new calendar is last ({rows(run)})")

    # An export of another app, imported into it through the file input.
    tomorrow = datetime.date.today() + datetime.timedelta(days=1)
    day = tomorrow.strftime("%Y%m%d")
    folder = Path(tempfile.mkdtemp(prefix="jadwal-ics-"))
    export = folder / "family.ics"
    export.write_text("\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
        "BEGIN:VEVENT", "UID:picnic@example.com", "DTSTAMP:20260101T000000Z", f"DTSTART:{day}T090000Z", f"DTEND:{day}T110000Z",
        "SUMMARY:Family picnic", "END:VEVENT",
        "BEGIN:VEVENT", "UID:broken@example.com", "SUMMARY:Broken", "DTSTART:tomorrow-ish", "END:VEVENT",
        "END:VCALENDAR", ""]), encoding="utf-8")
    run.find("#import-file").send_keys(str(export))
    Select(run.find("#import-calendar")).select_by_visible_text("Family")
    run.find("#import-button").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".import-report"), "importing shows the report")
    report = run.find(".import-report").text
    run.check("Added: 1" in report and "broken@example.com" in report, f"the report counts the event and names the broken one ({report!r})")
    run.driver.execute_script("document.querySelector('.import-report').scrollIntoView()")
    run.screen("calendars-import-report")
    week = f"/calendar?view=week&date={tomorrow.isoformat()}"
    run.open(week)
    run.check("Family picnic" in run.find(".timegrid").text, "the imported event is in the week")
    run.find("a.manage").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "calendars-title"), "the calendar views link to the calendars page")

    # Rename, recolour and move it up.
    family = row(run, "Family")
    ident = family.get_attribute("id").removeprefix("calendar-")
    name = run.find(f"#name-{ident}")
    name.clear()
    name.send_keys("Family trips")
    run.set_value(f"#color-{ident}", "#0b6e4f")
    row(run, "Family").find_element(By.CSS_SELECTOR, "button.save").click()
    run.wait_for(lambda: "The calendar is saved." in run.find("main").text, "saving a calendar says so")
    run.check("Family trips" in rows(run), "the new name is shown")
    run.check(run.find(f"#color-{ident}").get_attribute("value") == "#0b6e4f", "the new colour is kept")
    before = rows(run).index("Family trips")
    row(run, "Family trips").find_element(By.CSS_SELECTOR, "button.up").click()
    run.wait_for(lambda: "The order is saved." in run.find("main").text, "moving a calendar says so")
    run.check(rows(run).index("Family trips") == before - 1, f"the calendar moved up ({rows(run)})")

    # Hidden from the views, then shown again.
    row(run, "Family trips").find_element(By.CSS_SELECTOR, "button.visibility").click()
    run.wait_for(lambda: "hidden from your calendar views" in run.find("main").text, "hiding a calendar says so")
    run.check("Hidden from the calendar views" in row(run, "Family trips").text, "the row says it is hidden")
    run.screen("calendars-hidden")
    run.open(week)
    run.check("Family picnic" not in run.find(".timegrid").text, "a hidden calendar's event leaves the week")
    run.check("hidden from these views: 1" in run.find(".hidden-note").text, "the week says a calendar is hidden")
    run.open(PATH)
    row(run, "Family trips").find_element(By.CSS_SELECTOR, "button.visibility").click()
    run.wait_for(lambda: "shown in your calendar views again" in run.find("main").text, "showing it again says so")
    run.open(week)
    run.check("Family picnic" in run.find(".timegrid").text, "shown again, the event is back in the week")

    # This server does not fetch private addresses: refused beside the field.
    run.open(PATH + "#subscribe")
    run.find("#feed-url").send_keys("http://127.0.0.1:9/feed.ics")
    run.find("#subscribe-button").click()
    run.wait_for(lambda: "will not fetch from that address" in run.find("#url-error").text, "a private feed address is refused beside the field")
    run.check(run.find("#feed-url").get_attribute("aria-invalid") == "true", "the field is marked invalid")
    run.driver.execute_script("document.getElementById('subscribe').scrollIntoView()")
    run.screen("calendars-subscribe-refused")

    # Deleting asks first, naming what goes.
    run.open(PATH)
    row(run, "Family trips").find_element(By.CSS_SELECTOR, "a.delete").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "confirm-delete"), "Delete asks first")
    run.check("events: 1" in run.find("#delete-consequence").text, f"the question names how many events go ({run.find('#delete-consequence').text!r})")
    run.screen("calendars-delete")
    run.find("#confirm-delete").click()
    run.wait_for(lambda: "The calendar is deleted." in run.find("main").text, "deleting says so")
    run.check("Family trips" not in rows(run), "the calendar is gone")


def calendars_keyboard(run) -> None:
    """The same page by keyboard alone: create, rename, recolour, hide and show, delete after its question."""
    run.open(PATH)
    # A colour input opens the browser's own chooser on Enter, a popup outside the page that
    # WebDriver cannot type into: the walk reaches the input by Tab and sets what the chooser
    # would return, as run.set_value does for dates.
    type_into(run, "#new-name", "Book club")
    tab_to(run, "#new-color", limit=1)
    run.set_value("#new-color", "#7a3e9d")
    tab_to(run, "#holds-events", limit=1)
    if tab_to(run, "#create-calendar", limit=1):
        keys(run, ENTER)
    run.wait_for(lambda: "The calendar is made." in run.find("main").text, "Enter on Create makes the calendar")
    if not run.check("Book club" in rows(run), f"the new calendar is listed ({rows(run)})"):
        return
    ident = row(run, "Book club").get_attribute("id").removeprefix("calendar-")
    anchor = f"#calendar-{ident}"

    # Rename and recolour; Shift+Tab back from Save to mend the name before saving.
    from_top(run)
    if tab_to(run, f"#name-{ident}", limit=150):
        retype(run, "Book clb")
    tab_to(run, f"#color-{ident}", limit=1)
    run.set_value(f"#color-{ident}", "#005a9c")
    tab_to(run, f"{anchor} button.save", limit=1)
    tab_to(run, f"#name-{ident}", backwards=True, limit=2)
    retype(run, "Book club (Thursdays)")
    if tab_to(run, f"{anchor} button.save", limit=2):
        keys(run, ENTER)
    run.wait_for(lambda: "The calendar is saved." in run.find("main").text, "Enter on Save saves the calendar")
    run.check("Book club (Thursdays)" in rows(run) and run.find(f"#color-{ident}").get_attribute("value") == "#005a9c",
              "the new name and colour are kept")
    tab_to(run, f"#name-{ident}", limit=1, what="saved, the page comes back at the calendar's row: the next Tab is there, not at the top")

    # Hidden, then shown again, from the row.
    if tab_to(run, f"{anchor} button.visibility", limit=5):
        keys(run, ENTER)
    run.wait_for(lambda: "hidden from your calendar views" in run.find("main").text, "Enter on Hide hides the calendar")
    run.check("Hidden from the calendar views" in row(run, "Book club (Thursdays)").text, "the row says it is hidden")
    if tab_to(run, f"{anchor} button.visibility", limit=6):
        keys(run, SPACE)
    run.wait_for(lambda: "shown in your calendar views again" in run.find("main").text, "Space on Show shows it again")

    # Deleting asks first; Enter on its button deletes.
    if tab_to(run, f"{anchor} a.delete", limit=10):
        keys(run, ENTER)
    run.wait_for(lambda: run.driver.find_elements(By.ID, "confirm-delete"), "Enter on Delete asks first")
    run.check(run.find("#delete-consequence").text == "It is empty. This cannot be undone.", "the question says what goes (nothing)")
    if press(run, "#confirm-delete"):
        run.wait_for(lambda: "The calendar is deleted." in run.find("main").text, "Enter on the question's button deletes the calendar")
        run.check("Book club (Thursdays)" not in rows(run), "the calendar is gone")


def calendars_arabic(run) -> None:
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.open(PATH)
    run.check(run.find("html").get_attribute("dir") == "rtl", "the calendars page is right to left in Arabic")
    run.check(run.find("h1").text == "التقاويم", "the calendars page speaks Arabic")
    run.screen("calendars-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


REMOTE_HOST = "127.0.0.2"


def free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def radicale(folder: Path) -> tuple[subprocess.Popen, str]:
    """A Radicale on 127.0.0.2 that takes any password for user alice, with one calendar, Work."""
    port = free_port(REMOTE_HOST)
    process = subprocess.Popen(
        [sys.executable, "-m", "radicale", "--server-hosts", f"{REMOTE_HOST}:{port}", "--auth-type", "none",
         "--rights-type", "owner_only", "--storage-filesystem-folder", str(folder / "collections")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://{REMOTE_HOST}:{port}/"
    body = ('<?xml version="1.0"?><C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop>'
            '<D:displayname>Work</D:displayname></D:prop></D:set></C:mkcalendar>').encode()
    deadline = time.time() + 30
    while True:
        try:
            request = urllib.request.Request(base + "alice/work/", data=body, method="MKCALENDAR")
            request.add_header("Authorization", "Basic YWxpY2U6YXBwLXBhc3N3b3Jk")  # alice:app-password
            urllib.request.urlopen(request, timeout=5).close()
            return process, base
        except OSError:
            if time.time() > deadline:
                process.kill()
                raise
            time.sleep(0.2)


def calendar_feeds_and_accounts(run) -> None:
    folder = Path(tempfile.mkdtemp(prefix="jadwal-remote-"))
    # A course feed served on 127.0.0.2, taken as to-dos and refreshed every 6 hours.
    due = (datetime.date.today() + datetime.timedelta(days=3)).strftime("%Y%m%d")
    (folder / "course.ics").write_text("\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Instructure//Canvas//EN", "X-WR-CALNAME:Algebra 101",
        "BEGIN:VEVENT", "UID:assignment-7@canvas", "DTSTAMP:20260101T000000Z", f"DTSTART:{due}T235900Z", f"DTEND:{due}T235900Z",
        "SUMMARY:Problem set 7", "END:VEVENT", "END:VCALENDAR", ""]), encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    feeds = http.server.ThreadingHTTPServer((REMOTE_HOST, 0), handler)
    threading.Thread(target=feeds.serve_forever, daemon=True).start()
    server, base = radicale(folder)
    try:
        run.open(PATH)
        run.find("#feed-url").send_keys(f"http://{REMOTE_HOST}:{feeds.server_address[1]}/course.ics")
        Select(run.find("#feed-refresh")).select_by_value("360")
        run.find("#feed-as-tasks").click()
        run.find("#subscribe-button").click()
        run.wait_for(lambda: "Subscribed." in run.find("main").text, "subscribing with an interval and as to-dos says so")
        listed = json.loads(run.api("GET", "/api/v1/external-calendars")["body"])["externalCalendars"]
        course = next((c for c in listed if c.get("kind") == "ics"), {})
        run.check(course.get("refreshMinutes") == 360 and course.get("asTasks") is True,
                  f"the feed keeps the chosen interval and takes its items as to-dos ({course})")

        # Connecting: each problem beside its field.
        run.find("#account-url").send_keys(base)
        run.find("#account-username").send_keys("alice")
        run.find("#connect-button").click()
        run.wait_for(lambda: run.find("#account-password").get_attribute("aria-invalid") == "true", "a missing app password is said beside its field")
        run.check("app password" in run.find("#accountPassword-error").text, "the password's problem says what is missing")
        url = run.find("#account-url")
        url.clear()
        url.send_keys("http://127.0.0.1:9/")
        run.find("#account-password").send_keys("app-password")
        run.find("#connect-button").click()
        run.wait_for(lambda: run.find("#account-url").get_attribute("aria-invalid") == "true", "a refused private address is said beside the address")
        run.check("does not fetch from its own network" in run.find("#accountURL-error").text, f"the rule is named ({run.find('#accountURL-error').text})")
        run.check(run.find("#account-password").get_attribute("value") == "", "the password is never put back in the page")
        url = run.find("#account-url")
        url.clear()
        url.send_keys(base)
        run.find("#account-password").send_keys("app-password")
        run.find("#connect-button").click()
        run.wait_for(lambda: "Connected." in run.find("main").text, "connecting says so", timeout=30)
        account = run.find(".account")
        run.check("alice" in account.text and REMOTE_HOST in account.text, f"the account is listed ({account.text!r})")
        box = account.find_element(By.CSS_SELECTOR, "input[name='mirror[]']")
        run.check(box.is_selected() and "Work" in account.text, "its calendar Work is listed and mirrored")
        run.check(f"Mirrored from {REMOTE_HOST}" in run.find("main").text, "the mirrored calendar's row names where it comes from")
        run.screen("calendars-account")

        # Unmirrored, then mirrored again; synced now; disconnected.
        account.find_element(By.CSS_SELECTOR, "input[name='mirror[]']").click()
        run.find(".account button.mirror-save").click()
        run.wait_for(lambda: "Saved which calendars are mirrored." in run.find("main").text, "saving the choice says so")
        run.check(f"Mirrored from {REMOTE_HOST}" not in run.find("main").text, "the unmirrored calendar is gone")
        run.find(".account input[name='mirror[]']").click()
        run.find(".account button.mirror-save").click()
        run.wait_for(lambda: f"Mirrored from {REMOTE_HOST}" in run.find("main").text, "mirroring it again brings its calendar back")
        run.find(".account button.account-refresh").click()
        run.wait_for(lambda: "Syncing now." in run.find("main").text, "syncing now says so")
        run.find(".account button.account-disconnect").click()
        run.driver.switch_to.alert.accept()
        run.wait_for(lambda: "Disconnected." in run.find("main").text, "disconnecting says so")
        run.check(not run.driver.find_elements(By.CSS_SELECTOR, ".account"), "the account is gone from the list")
    finally:
        feeds.shutdown()
        os.killpg(server.pid, 15)
        server.wait(10)


def calendar_accounts_arabic(run) -> None:
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.open(PATH + "#connect")
    run.check(run.find("html").get_attribute("dir") == "rtl", "the page is right to left in Arabic")
    run.check("ربط حساب" in run.find("#connect").text and "كلمة مرور التطبيق" in run.find("#connect").text, "the connect form is in Arabic")
    run.check("كما تطلب الخلاصة" in run.find("#subscribe").text, "the feed form's interval is in Arabic")
    run.screen("calendars-connect-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [calendars, calendars_keyboard, calendars_arabic, calendar_feeds_and_accounts, calendar_accounts_arabic]

"""Settings → Calendars in the browser: make a calendar, import an .ics file into it through the
file input and see the report, rename, recolour and reorder it, hide it from the calendar views
and show it again, see a private feed address refused beside the field, delete the calendar
after the page that names what goes, and the page in Arabic, right to left."""
from __future__ import annotations

import datetime
import tempfile
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

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


def calendars_arabic(run) -> None:
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.open(PATH)
    run.check(run.find("html").get_attribute("dir") == "rtl", "the calendars page is right to left in Arabic")
    run.check(run.find("h1").text == "التقاويم", "the calendars page speaks Arabic")
    run.screen("calendars-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [calendars, calendars_arabic]

"""Today, upcoming reminders and live views in a real browser. Today lists the day's events,
to-dos and prayers in order; a to-do is marked done with the keyboard where it stands, without
a reload. A clash carries a badge on the calendar's chip that leads to its conflict. Upcoming
reminders are snoozed, changed and removed. An open week and an open Today list take a change
written elsewhere (a phone over CalDAV, the API) without a reload, keeping their scroll position.
A phone's width lands on Today and opens the calendar at the day. Arabic, right to left."""
from __future__ import annotations

import base64
import datetime
import json
import time
import urllib.request

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def _body(answer: dict) -> dict:
    return json.loads(answer["body"]) if answer.get("body") else {}


def _calendar(run, slug: str) -> dict:
    return next(c for c in _body(run.api("GET", "/api/v1/calendars"))["calendars"] if c["slug"] == slug)


def _today(run) -> datetime.date:
    return datetime.date.fromisoformat(_body(run.api("GET", "/api/v1/today"))["date"])


def _event(run, title: str, start: str, end: str, **extra) -> dict:
    answer = run.api("POST", f"/api/v1/calendars/{_calendar(run, 'personal')['id']}/events", {"title": title, "start": start, "end": end, **extra})
    run.check(answer["status"] == 201, f"'{title}' is made through the API ({answer['status']}: {answer['body'][:200]})")
    return _body(answer)


def today(run) -> None:
    run.api("PATCH", "/api/v1/me", {"timeZone": "Asia/Riyadh"})
    run.api("PUT", "/api/v1/prayer-settings", {"city": "Riyadh"})
    day = _today(run)
    _event(run, "Team lunch", f"{day}T12:30", f"{day}T13:30")
    run.api("POST", "/api/v1/tasks", {"title": "Return library books", "due": f"{day}T18:00"})
    run.api("POST", "/api/v1/tasks", {"title": "Send the invoice", "due": (day - datetime.timedelta(days=2)).isoformat()})
    run.open("/today")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".today-list"), "Today opens with the day's list")
    run.check(run.find("nav a[aria-current='page']").get_attribute("href").endswith("/today"), "Today is the current section")
    # The list is redrawn live as the jobs its events queued finish: read whole, again if redrawn.
    def listed():
        rows = run.driver.find_elements(By.CSS_SELECTOR, ".today-list > li")
        return [(r.find_element(By.CSS_SELECTOR, ".entry-title").text, r.get_attribute("class")) for r in rows]

    entries = run.again_if_redrawn(listed)
    titles = [title for title, _ in entries]
    run.check(titles[0] == "Send the invoice" and "overdue" in entries[0][1], f"the overdue to-do leads the list ({titles})")
    kinds = [classes.split()[1] for _, classes in entries]
    run.check(kinds.count("kind-prayer") == 5, f"the day's five prayers are on the list ({kinds})")
    order = [t for t in titles if t in ("Team lunch", "Return library books")]
    run.check(order == ["Team lunch", "Return library books"], f"timed things in order ({titles})")
    run.screen("today")

    # Done with the keyboard, in place: the page is not reloaded.
    run.driver.execute_script("window.__stillHere = true")
    # The list is redrawn live after each change (the button keeps its id and focus): looked up afresh each time.
    def books():
        return next(r for r in run.driver.find_elements(By.CSS_SELECTOR, ".today-list > li") if "Return library books" in r.text)

    def check():
        return books().find_element(By.CSS_SELECTOR, "button.task-check")

    run.check(run.again_if_redrawn(lambda: check().get_attribute("aria-checked")) == "false", "the to-do is not done yet")

    def press():
        button = check()
        run.driver.execute_script("arguments[0].focus()", button)
        button.send_keys(Keys.SPACE)

    run.again_if_redrawn(press)
    run.wait_for(lambda: check().get_attribute("aria-checked") == "true" and "done" in books().get_attribute("class"),
                 "Space marks the to-do done where it stands")
    run.check(run.driver.execute_script("return window.__stillHere === true"), "marking it done did not reload the page")
    tasks = _body(run.api("GET", "/api/v1/tasks?status=completed"))["tasks"]
    run.check(any(t["title"] == "Return library books" for t in tasks), "the to-do is stored as done")
    run.wait_for(lambda: run.driver.switch_to.active_element == check(), "focus stays on the button")
    run.driver.switch_to.active_element.send_keys(Keys.SPACE)
    run.wait_for(lambda: check().get_attribute("aria-checked") == "false", "pressed again, it is not done")
    run.screen("today-marked")


def conflict_badge(run) -> None:
    day = _today(run) + datetime.timedelta(days=1)
    _event(run, "Budget review", f"{day}T10:00", f"{day}T11:00")
    _event(run, "Dentist", f"{day}T10:30", f"{day}T11:30")
    deadline = time.time() + 20
    badge = []
    while time.time() < deadline and not badge:
        run.open(f"/calendar?view=week&date={day}")
        badge = run.driver.find_elements(By.CSS_SELECTOR, ".timegrid a.conflict-badge")
        if not badge:
            time.sleep(1)
    if not run.check(bool(badge), "the clash is marked with a badge on the week's chip"):
        return
    # The week redraws itself live while the flow reads it: the badge and the chips are read in
    # one script, and the badge is found afresh right before it is pressed.
    label, chip_text = run.driver.execute_script(
        "const b = document.querySelector('.timegrid a.conflict-badge');"
        "return [b ? b.getAttribute('aria-label') : '',"
        " [...document.querySelectorAll('.timegrid .item.in-conflict')].map(e => e.textContent).join(' ')]")
    run.check("scheduling conflict" in (label or ""), f"the badge says what it is to screen readers ({label})")
    run.check("in a scheduling conflict" in chip_text, "the chip itself carries words for screen readers")
    run.screen("week-conflict-badge")

    for _ in range(3):
        try:
            badge = run.driver.find_element(By.CSS_SELECTOR, ".timegrid a.conflict-badge")
            run.driver.execute_script("arguments[0].focus()", badge)
            badge.send_keys(Keys.ENTER)
            break
        except StaleElementReferenceException:
            continue  # redrawn between finding and pressing: find it again
    run.wait_for(lambda: "/conflicts" in run.driver.current_url, "the badge opens the conflicts page")
    target = run.driver.current_url.split("#", 1)[-1]
    run.check(bool(run.driver.find_elements(By.ID, target)), f"at the conflict the badge named ({target})")


def reminders(run) -> None:
    day = _today(run) + datetime.timedelta(days=2)
    _event(run, "Car service", f"{day}T09:00", f"{day}T10:00", alarmMinutesBefore=15)
    run.open("/today")
    run.find("a[href='/reminders']").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".reminder"), "Today links to the upcoming reminders")
    card = next(c for c in run.driver.find_elements(By.CSS_SELECTOR, ".reminder") if "Car service" in c.text)
    run.check("15 min before the start" in card.text, f"the reminder says when it comes ({card.text})")
    run.screen("reminders")
    minutes = card.find_element(By.CSS_SELECTOR, "input[name=minutes]")
    minutes.clear()
    minutes.send_keys("30")
    minutes.send_keys(Keys.ENTER)
    run.wait_for(lambda: "Reminder changed." in run.find("main").text, "a new number of minutes is saved")
    card = next(c for c in run.driver.find_elements(By.CSS_SELECTOR, ".reminder") if "Car service" in c.text)
    run.check("30 min before the start" in card.text, "the change is shown")
    card.find_element(By.CSS_SELECTOR, "button[value='1h']").click()
    run.wait_for(lambda: "Snoozed." in run.find("main").text, "snoozing for an hour is saved")
    card = next(c for c in run.driver.find_elements(By.CSS_SELECTOR, ".reminder") if "Car service" in c.text)
    run.check("snoozed" in card.get_attribute("class"), "the reminder is shown as snoozed")
    run.screen("reminders-snoozed")
    run.driver.execute_script("window.confirm = () => true")
    card.find_element(By.CSS_SELECTOR, "form[action='/reminders/remove'] button").click()
    run.wait_for(lambda: "Reminder removed." in run.find("main").text, "removing asks first, then removes")
    run.check(not any("Car service" in c.text for c in run.driver.find_elements(By.CSS_SELECTOR, ".reminder")), "the reminder is gone")


def _caldav_put(run, name: str, text: str) -> int:
    me = _body(run.api("GET", "/api/v1/me"))
    password = _body(run.api("POST", "/api/v1/app-passwords", {"name": "live test phone"}))["password"]
    auth = base64.b64encode(f"{me['email']}:{password}".encode()).decode()
    url = f"{run.base}/dav/calendars/{me['id'].lower()}/personal/{name}"
    request = urllib.request.Request(url, data=text.encode(), method="PUT",
                                     headers={"Content-Type": "text/calendar; charset=utf-8", "Authorization": f"Basic {auth}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


def live(run) -> None:
    day = _today(run) + datetime.timedelta(days=3)
    run.open(f"/calendar?view=week&date={day}")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".timegrid"), "the week is open")
    time.sleep(1)  # the notification stream is open
    run.driver.execute_script("window.__stillHere = true; window.scrollTo(0, 400)")
    scrolled = run.driver.execute_script("return window.scrollY")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    ics = "\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Phone//EN", "BEGIN:VEVENT", "UID:live-phone-1", f"DTSTAMP:{stamp}",
        f"DTSTART;TZID=Asia/Riyadh:{day.strftime('%Y%m%d')}T150000", "DURATION:PT1H", "SUMMARY:Written on the phone", "END:VEVENT",
        "END:VCALENDAR", ""])
    run.check(_caldav_put(run, "live-phone-1.ics", ics) == 201, "a phone writes an event over CalDAV")
    run.wait_for(lambda: "Written on the phone" in run.find(".timegrid").text, "the open week shows it without a reload", timeout=10)
    run.check(run.driver.execute_script("return window.__stillHere === true"), "the page was not reloaded")
    run.check(abs(run.driver.execute_script("return window.scrollY") - scrolled) < 2, "the scroll position is kept")
    run.screen("week-live")

    # The Today list takes an event made through the API by another tab.
    run.open("/today")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "today-body"), "Today is open")
    time.sleep(1)
    run.driver.execute_script("window.__stillHere = true")
    now = _today(run)
    _event(run, "Added elsewhere", f"{now}T22:00", f"{now}T22:30")
    run.wait_for(lambda: "Added elsewhere" in run.find("#today-body").text, "the open Today list shows it without a reload", timeout=10)
    run.check(run.driver.execute_script("return window.__stillHere === true"), "Today was not reloaded")


def phone(run) -> None:
    run.driver.set_window_size(390, 844)
    try:
        run.open("/settings")  # any page: its script marks the narrow screen
        run.open("/")
        run.wait_for(lambda: run.driver.current_url.endswith("/today"), "on a phone, the app opens at Today")
        overflow = run.driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        run.check(overflow <= 0, f"Today fits a phone's width ({overflow} px too wide)")
        run.screen("phone-today")
        run.find("nav a[href='/calendar']").click()
        run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".calendar.view-day"), "on a phone, the calendar opens at the day")
        run.open("/reminders")
        overflow = run.driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        run.check(overflow <= 0, f"the reminders fit a phone's width ({overflow} px too wide)")
        run.screen("phone-reminders")
    finally:
        run.driver.set_window_size(1280, 900)
        run.open("/settings")  # wide again: the mark follows


def arabic(run) -> None:
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    try:
        run.open("/today")
        html = run.find("html")
        run.check(html.get_attribute("dir") == "rtl" and html.get_attribute("lang") == "ar", "Today in Arabic is right to left")
        run.check(run.find("#today-title").text == "اليوم", "Today speaks Arabic")
        run.screen("today-arabic")
        run.open("/reminders")
        run.check(run.find("#reminders-title").text == "التذكيرات القادمة", "the reminders speak Arabic")
        run.screen("reminders-arabic")
        run.open(f"/calendar?view=week&date={_today(run) + datetime.timedelta(days=1)}")
        badges = run.driver.find_elements(By.CSS_SELECTOR, ".timegrid a.conflict-badge")
        run.check(bool(badges) and "تعارض" in (badges[0].get_attribute("aria-label") or ""), "the conflict badge speaks Arabic")
        run.screen("week-arabic-badge")
    finally:
        run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [today, conflict_badge, reminders, live, phone, arabic]

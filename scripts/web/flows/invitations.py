"""Invitations in the browser: a meeting another person invites Sara to is on the Invitations page
with what it runs into in her calendar; she accepts it with the keyboard and proposes another
time; she invites that person from the event form and sees their answer, and keeps her meeting's
time when they propose another; invited events are marked in the week; a guest's emailed answer
link opens a page (without signing in) whose button records the answer once; and the page in
Arabic, right to left. axe-core runs on every screen."""
from __future__ import annotations

import datetime
import json
import re
import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from flows.sharing import api_as, other_person

PATH = "/invitations"


def card(run, title: str):
    # The page follows changes live: a card read while the list is redrawn is looked up again.
    for _ in range(20):
        try:
            return next(c for c in run.driver.find_elements(By.CSS_SELECTOR, "#received .invitation") if title in c.text)
        except (StaleElementReferenceException, StopIteration):
            time.sleep(0.25)
    return next(c for c in run.driver.find_elements(By.CSS_SELECTOR, "#received .invitation") if title in c.text)


def invitations(run) -> None:
    omar = other_person(run, "omar@example.com")
    omar_calendar = next(c for c in api_as(run, omar, "GET", "/api/v1/calendars")["calendars"] if c["slug"] == "personal")
    day = (datetime.date.today() + datetime.timedelta(days=3)).isoformat()
    # Times below are read in each person's zone: Omar's is set to Sara's (an earlier flow may have changed hers).
    zone = json.loads(run.api("GET", "/api/v1/me")["body"])["timeZone"]
    api_as(run, omar, "PATCH", "/api/v1/me", {"timeZone": zone})
    # Sara is busy at 10:30 that day: the invitation says so before she answers.
    sara_calendar = next(c for c in json.loads(run.api("GET", "/api/v1/calendars")["body"])["calendars"] if c["slug"] == "personal")
    run.api("POST", f"/api/v1/calendars/{sara_calendar['id']}/events", {"title": "Dentist", "start": f"{day}T10:30", "end": f"{day}T11:00"})
    meeting = api_as(run, omar, "POST", f"/api/v1/calendars/{omar_calendar['id']}/events", {
        "title": "Budget review", "start": f"{day}T10:00", "end": f"{day}T11:00",
        "attendees": [{"email": "sara@example.com", "name": "Sara"}]})

    run.open(PATH)
    invitation = card(run, "Budget review")
    text = invitation.text
    run.check("omar@example.com" in text and "not answered" in text, f"the invitation names who invites and that it is not answered ({text!r})")
    run.check("Dentist" in invitation.find_element(By.CSS_SELECTOR, ".invitation-clashes").text,
              "what it runs into in her calendar is shown before she answers")
    run.check(len(run.driver.find_elements(By.CSS_SELECTOR, "nav a[href='/invitations'][aria-current=page]")) == 1,
              "Invitations is in the main navigation, marked as the current page")
    run.screen("invitations")

    # Keyboard: the Accept button takes Enter.
    accept = invitation.find_element(By.CSS_SELECTOR, "button.answer-accepted")
    accept.send_keys(Keys.ENTER)
    run.wait_for(lambda: "Accepted. The organizer is told." in run.find("main").text, "accepting says so")
    run.check("accepted" in card(run, "Budget review").find_element(By.CSS_SELECTOR, ".answer").text, "the card shows the answer")
    organizers = api_as(run, omar, "GET", f"/api/v1/calendars/{omar_calendar['id']}/events/{meeting['name']}")
    run.check([a.get("partstat") for a in organizers["event"].get("attendees", [])] == ["accepted"],
              f"the organizer's meeting records her answer ({organizers['event'].get('attendees')!r})")

    # Propose another time: a bad time is refused beside the form, then sent.
    def propose(start: str, end: str) -> None:
        invitation = card(run, "Budget review")
        run.driver.execute_script("arguments[0].open = true; arguments[0].scrollIntoView({block: 'center'})",
                                  invitation.find_element(By.CSS_SELECTOR, "details.propose"))
        identifier = invitation.get_attribute("id").removeprefix("invitation-")
        run.set_value(f"#start-{identifier}", start)
        run.set_value(f"#end-{identifier}", end)
        invitation.find_element(By.CSS_SELECTOR, ".propose-form button[type=submit]").click()

    run.again_if_redrawn(lambda: propose("15:00", "14:00"))
    run.wait_for(lambda: "end after the start" in run.find("main").text, "a proposal ending before it starts is refused beside the form")
    run.screen("invitations-proposal-refused")
    run.again_if_redrawn(lambda: propose("15:00", "16:00"))
    run.wait_for(lambda: "Proposed. The organizer chooses" in run.find("main").text, "proposing says so")
    proposals = api_as(run, omar, "GET", "/api/v1/proposals")["proposals"]
    run.check([p["attendee"]["email"] for p in proposals] == ["sara@example.com"], f"the organizer sees the proposal ({proposals!r})")
    api_as(run, omar, "POST", f"/api/v1/proposals/{proposals[0]['id']}/decline", {})

    # The week marks the meeting as an invitation she accepted.
    run.open(f"/calendar?view=week&date={day}")
    marked = run.driver.execute_script(
        "return [...document.querySelectorAll('.timegrid .invited')].map(e => e.textContent).filter(t => t.includes('Budget review'))")
    run.check(bool(marked) and "Invitation, accepted" in marked[0],
              f"the week marks the invited event with its answer for screen readers too ({marked})")

    # Find a time: Omar lets Sara see his busy time and is at the gym 14:00-15:00; the form finds
    # times around 14:00 that suit both, and a time chosen fills the form without saving it.
    api_as(run, omar, "PUT", "/api/v1/free-busy/sharing", {"allow": ["sara@example.com"]})
    api_as(run, omar, "POST", f"/api/v1/calendars/{omar_calendar['id']}/events", {"title": "Gym", "start": f"{day}T14:00", "end": f"{day}T15:00"})
    run.open(f"/events/new?date={day}")
    run.find("#title").send_keys("Coffee")
    run.set_value("#startTime", "14:00")
    run.set_value("#endTime", "15:00")
    run.find("#attendees").send_keys("omar@example.com\nnobody@example.org")
    run.find("#find-time").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "find-time-results"), "Find a time answers on the form")
    results = run.find("#find-time-results").text
    run.check("omar@example.com: busy time taken into account" in results and "Gym" not in results,
              f"Omar's busy time counts, without what fills it ({results!r})")
    run.check("nobody@example.org: busy time not shared with you" in results, f"an address with no account says only that it is not shared ({results!r})")
    first = run.find("#find-slot-0")
    chosen = first.get_attribute("value")
    run.check(chosen and not chosen.startswith(f"{day}T14:"), f"the first time found is not during Omar's gym ({chosen!r})")
    run.check(run.driver.switch_to.active_element.get_attribute("id") == "find-time-title", "the answer's heading takes the focus")
    run.screen("event-form-find-time")
    first.send_keys(Keys.ENTER)
    run.wait_for(lambda: run.driver.find_elements(By.ID, "event-notice") and "Save to keep it" in run.find("#event-notice").text,
                 "a chosen time comes back in the form, not saved yet")
    run.check(run.find("#startTime").get_attribute("value") == chosen.split("/")[0][11:],
              f"the form's start is the time chosen ({run.find('#startTime').get_attribute('value')!r}, {chosen!r})")
    run.check(run.find("#title").get_attribute("value") == "Coffee" and "omar@example.com" in run.find("#attendees").get_attribute("value"),
              "what was typed is kept")

    # Sara invites Omar from the event form; his answer shows on her event.
    run.open(f"/events/new?date={day}")
    run.find("#title").send_keys("Planning lunch")
    run.set_value("#startTime", "12:00")
    run.set_value("#endTime", "13:00")
    run.find("#attendees").send_keys("not an address")
    run.find("#save").click()
    run.wait_for(lambda: "must be an email address" in run.find("#attendees-error").text, "a bad attendee is refused beside the field")
    run.check(run.find("#attendees").get_attribute("aria-invalid") == "true", "the refused field is marked invalid")
    run.screen("event-form-attendees-refused")
    run.find("#attendees").clear()
    run.find("#attendees").send_keys("Omar <omar@example.com>")
    run.find("#save").click()
    run.wait_for(lambda: "view=week" in run.driver.current_url, "the meeting is saved")
    received = api_as(run, omar, "GET", "/api/v1/invitations")["invitations"]
    lunch = next(i for i in received if i["title"] == "Planning lunch")
    api_as(run, omar, "POST", f"/api/v1/invitations/{lunch['id']}/reply", {"partstat": "tentative"})
    api_as(run, omar, "POST", f"/api/v1/invitations/{lunch['id']}/counter",
           {"start": f"{day}T11:00:00Z", "end": f"{day}T12:00:00Z", "comment": "Later?"})
    # Clicked in one script: Omar's answer redraws the live week.
    run.driver.execute_script(
        "[...document.querySelectorAll('.timegrid a')].find(a => a.innerText.includes(arguments[0])).click()", "Planning lunch")
    run.wait_for(lambda: "maybe" in run.find("#attendee-answers").text, "the event form shows Omar's answer")
    run.screen("event-form-answers")

    # Her meeting's proposal: she keeps the time.
    run.open(PATH + "#proposals")
    proposal = run.find("#proposals .invitation")
    # Who: Omar's own account name (he never set one, so "omar"), before what Sara typed for him.
    run.check("Later?" in proposal.text and "omar proposes" in proposal.text.lower(), f"the proposal shows who and why ({proposal.text!r})")
    run.screen("invitations-proposals")
    proposal.find_elements(By.CSS_SELECTOR, ".invitation-actions form")[1].find_element(By.TAG_NAME, "button").click()
    run.wait_for(lambda: "Kept at its time." in run.find("main").text, "keeping the time says so")

    # A guest outside the server: the emailed link opens a page that changes nothing until a button is pressed.
    guest = run.api("POST", f"/api/v1/calendars/{sara_calendar['id']}/events", {
        "title": "Site visit", "start": f"{day}T16:00", "end": f"{day}T17:00", "attendees": [{"email": "guest@example.net"}]})
    run.check(guest.get("status") == 201, f"the meeting with a guest is saved ({guest!r})")
    found = []

    def answer_link() -> bool:
        found[:] = re.findall(r"(http://127\.0\.0\.1:\d+/invitations/answer/[A-Za-z0-9_-]+\?lang=en&answer=accepted)",
                              run.log_path.read_text(errors="replace"))
        return bool(found)

    if run.wait_for(answer_link, "the guest's invitation email is sent (the log emailer shows it) with an Accept link", timeout=30):
        run.driver.get(found[-1])
        run.wait_for(lambda: "Site visit" in run.find("main").text, "the link's page shows the meeting")
        run.screen("invitation-answer-page")
        run.find("button.answer-accepted").click()
        run.wait_for(lambda: "Thank you" in run.find("main").text, "pressing Accept records the answer")
        run.driver.get(found[-1])
        run.wait_for(lambda: "used already" in run.find("main").text, "the link works once")


def invitations_arabic(run) -> None:
    # A signed-in page first: the previous flow ends on the email answer page, which has no CSRF token.
    run.open(PATH)
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.open("/settings")
    run.open(PATH)
    heading = run.find("h1").text
    run.check(heading == "الدعوات", f"the page speaks Arabic ({heading!r})")
    run.check(run.find("html").get_attribute("dir") == "rtl", "right to left")
    run.screen("invitations-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [invitations, invitations_arabic]

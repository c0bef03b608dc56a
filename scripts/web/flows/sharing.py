"""Sharing on Settings → Calendars in the browser: share a calendar by email (a bad address is
refused beside the field), change the share's access and stop it; accept a calendar another
person shared and see its events in the week, then leave it; choose who sees one's busy time
(a bad address refused); and the sharing parts in Arabic, right to left."""
from __future__ import annotations

import datetime
import json
import re
import urllib.request

from selenium.webdriver.common.by import By

PATH = "/settings/calendars"


def open_sharing(run, row):
    """Opens a calendar's sharing part (a <details>) and brings it into view."""
    details = row.find_element(By.CSS_SELECTOR, "details.share")
    run.driver.execute_script("arguments[0].open = true; arguments[0].scrollIntoView({block: 'center'})", details)
    return details


def personal_row(run):
    return next(r for r in run.driver.find_elements(By.CSS_SELECTOR, ".calendar-row") if r.find_element(By.CSS_SELECTOR, "h3").text == "Personal")


def api_as(run, token: str | None, method: str, path: str, body: dict | None = None) -> dict:
    """The JSON API as another person (a second account signed in by its own magic link)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(run.base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
        return json.loads(text) if text else {}


def other_person(run, email: str) -> str:
    before = len(re.findall(r"/auth/magic\?token=", run.log_path.read_text(errors="replace")))
    api_as(run, None, "POST", "/api/v1/auth/email", {"email": email})
    link = run.magic_link(email, before)
    token = link.split("token=", 1)[1] if link else ""
    return api_as(run, None, "POST", "/api/v1/auth/magic", {"token": token})["accessToken"]


def sharing(run) -> None:
    run.open(PATH)
    share = open_sharing(run, personal_row(run))
    field = share.find_element(By.CSS_SELECTOR, "input[name=email]")
    field.send_keys("not an address")
    share.find_element(By.CSS_SELECTOR, ".share-button").click()
    run.wait_for(lambda: "Enter the email address" in run.find("main").text, "a bad address is refused beside the field")
    run.check(personal_row(run).find_element(By.CSS_SELECTOR, "input[name=email]").get_attribute("aria-invalid") == "true",
              "the refused field is marked invalid")
    run.screen("sharing-refused")

    share = open_sharing(run, personal_row(run))
    field = share.find_element(By.CSS_SELECTOR, "input[name=email]")
    field.clear()
    field.send_keys("omar@example.com")
    share.find_element(By.CSS_SELECTOR, "label[for^=share-rw-]").click()
    share.find_element(By.CSS_SELECTOR, ".share-button").click()
    run.wait_for(lambda: "Shared. They will see it once they accept." in run.find("main").text, "sharing says so")
    open_sharing(run, personal_row(run))
    listed = personal_row(run).find_element(By.CSS_SELECTOR, ".share-list").text
    run.check("omar@example.com" in listed and "Can view and edit" in listed and "invited" in listed,
              f"the share is listed with its access and state ({listed!r})")
    run.screen("sharing-listed")
    open_sharing(run, personal_row(run)).find_element(By.CSS_SELECTOR, ".share-access-change").click()
    run.wait_for(lambda: "Access changed." in run.find("main").text, "changing access says so")
    listed = open_sharing(run, personal_row(run)).find_element(By.CSS_SELECTOR, ".share-list").text
    run.check("Can view" in listed and "Can view and edit" not in listed, f"the share is now view only ({listed!r})")
    open_sharing(run, personal_row(run)).find_element(By.CSS_SELECTOR, ".share-revoke").click()
    run.wait_for(lambda: "Sharing stopped." in run.find("main").text, "stopping says so")
    summary = personal_row(run).find_element(By.CSS_SELECTOR, "details.share summary").get_attribute("textContent")
    run.check("not shared" in summary, f"nobody is listed any more ({summary!r})")

    # Someone shares their calendar with this person: accept, see its event, leave.
    omar = other_person(run, "omar@example.com")
    calendars = api_as(run, omar, "GET", "/api/v1/calendars")["calendars"]
    personal = next(c for c in calendars if c["slug"] == "personal")
    tomorrow = datetime.date.today() + datetime.timedelta(days=1)
    api_as(run, omar, "POST", f"/api/v1/calendars/{personal['id']}/events",
           {"title": "Omar's football", "start": f"{tomorrow.isoformat()}T17:00", "end": f"{tomorrow.isoformat()}T18:00"})
    api_as(run, omar, "POST", f"/api/v1/calendars/{personal['id']}/shares", {"email": "sara@example.com", "access": "read"})
    run.open(PATH + "#shared-with-you")
    incoming = run.find("#shared-with-you").text
    run.check("Personal" in incoming and "omar@example.com" in incoming, f"the invitation is listed with who sent it ({incoming!r})")
    run.screen("sharing-incoming")
    run.find("#shared-with-you .share-accept").click()
    run.wait_for(lambda: "Accepted." in run.find("main").text, "accepting says so")
    run.open(f"/calendar?view=week&date={tomorrow.isoformat()}")
    run.check("Omar's football" in run.find(".timegrid").text, "the shared calendar's event is in the week")
    run.open(PATH + "#shared-with-you")
    run.find("#shared-with-you .share-leave").click()
    run.wait_for(lambda: "no longer shown to you" in run.find("main").text, "leaving says so")
    run.open(f"/calendar?view=week&date={tomorrow.isoformat()}")
    run.check("Omar's football" not in run.find(".timegrid").text, "after leaving, its events are gone from the week")

    # Busy time: a bad address refused beside the field, then named people saved.
    run.open(PATH + "#busy-time")
    run.find("label[for=busy-named]").click()
    run.find("#busy-allowed").send_keys("omar@example.com\nnot-an-address")
    run.find("#busy-save").click()
    run.wait_for(lambda: '"not-an-address" is not an email address.' in run.find("main").text,
                 "a bad address in the list is named")
    run.check(run.find("#busy-allowed").get_attribute("aria-invalid") == "true", "the list is marked invalid")
    run.find("#busy-allowed").clear()
    run.find("#busy-allowed").send_keys("omar@example.com")
    run.find("#busy-save").click()
    run.wait_for(lambda: "Saved who can see when you are busy." in run.find("main").text, "saving says so")
    saved = run.api("GET", "/api/v1/free-busy/sharing")
    run.check(saved.get("status") == 200 and "omar@example.com" in saved.get("body", ""), f"the API shows the same choice ({saved!r})")
    run.screen("sharing-busy-time")
    run.api("PUT", "/api/v1/free-busy/sharing", {"allow": "nobody"})


def sharing_arabic(run) -> None:
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.open("/settings")  # another page first: a new fragment alone would not load the page again
    run.open(PATH + "#busy-time")
    busy, incoming = run.find("#busy-title").get_attribute("textContent"), run.find("#incoming-title").get_attribute("textContent")
    run.check(busy == "من يرى أوقات انشغالك", f"the busy-time section speaks Arabic ({busy!r})")
    run.check(incoming == "تقويمات شاركها غيرك معك", f"the shared-with-you section speaks Arabic ({incoming!r})")
    run.screen("sharing-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [sharing, sharing_arabic]

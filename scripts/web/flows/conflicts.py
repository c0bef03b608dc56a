"""The conflicts screen in a real browser: two overlapping events added through the event form
become a conflict (found by the server's background check), drawn on a timeline; choosing a
suggested time previews it; Move moves the event in the calendar; Cancel asks first."""
from __future__ import annotations

import datetime
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait


def add(run, day: str, title: str, start: str, end: str) -> None:
    run.open(f"/events/new?date={day}")
    run.find("#title").send_keys(title)
    run.set_value("#startTime", start)
    run.set_value("#endTime", end)
    run.find("#save").click()
    run.wait_for(lambda: "view=week" in run.driver.current_url, f"'{title}' is saved through the event form")


def conflict_listed(run, title: str, timeout: float = 20) -> bool:
    """Reloads /conflicts until the background check has found the conflict."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        run.open("/conflicts")
        if any(title in h.text for h in run.driver.find_elements(By.CSS_SELECTOR, ".conflict h2")):
            return run.check(True, f"the conflict of '{title}' is listed")
        time.sleep(1)
    return run.check(False, f"the conflict of '{title}' is listed within {timeout} s")


def card(run, title: str):
    """The card of the conflict whose event has this title, or None."""
    return next((c for c in run.driver.find_elements(By.CSS_SELECTOR, "li.conflict") if c.find_element(By.CSS_SELECTOR, "h2").text == title), None)


def conflicts(run) -> None:
    run.api("PATCH", "/api/v1/me", {"timeZone": "Asia/Riyadh"})
    run.open("/conflicts")
    run.check(run.find("a[aria-current='page']").text == "Conflicts", "the navigation marks Conflicts as the current page")
    run.check("No scheduling conflicts ✓" in run.find("main").text, "with nothing overlapping the page says 'No scheduling conflicts ✓'")
    run.screen("conflicts-empty")

    day = (datetime.date.today() + datetime.timedelta(days=3)).isoformat()
    add(run, day, "Team meeting", "10:00", "11:00")
    add(run, day, "Dentist", "10:30", "11:30")
    if not conflict_listed(run, "Dentist"):
        return
    dentist = card(run, "Dentist")
    svg = dentist.find_element(By.CSS_SELECTOR, "svg[role='img']")
    run.check(svg.find_element(By.CSS_SELECTOR, "title").get_attribute("textContent").strip() != "", "the timeline has a title")
    run.check("Team meeting" in svg.find_element(By.CSS_SELECTOR, "desc").get_attribute("textContent"), "the timeline's description names what it runs into")
    labels = [t.get_attribute("textContent") for t in svg.find_elements(By.CSS_SELECTOR, "text.tl-label")]
    run.check("Dentist" in labels and "Team meeting" in labels, f"both blocks are drawn with their labels ({labels})")
    run.check("Team meeting" in dentist.find_element(By.CSS_SELECTOR, ".conflict-overlaps").text, "what it runs into is listed beside the timeline")
    radios = dentist.find_elements(By.CSS_SELECTOR, "input[name='slot']")
    if not run.check(len(radios) > 0, "suggested free times are listed as radio buttons"):
        return
    run.screen("conflicts")

    # Choosing a time moves the dashed preview block to it (the first suggestion is on the same day, near).
    radio = radios[0]
    slot_label = radio.get_attribute("data-label")
    run.driver.find_element(By.CSS_SELECTOR, f"label[for='{radio.get_attribute('id')}']").click()
    preview = dentist.find_element(By.CSS_SELECTOR, "rect.tl-preview")
    run.wait_for(lambda: preview.get_attribute("visibility") == "visible", "choosing a suggestion shows the preview on the timeline")
    run.check(preview.get_attribute("y") == radio.get_attribute("data-y") and float(preview.get_attribute("height")) > 0,
              "the preview sits where the chosen time falls")
    run.check(slot_label in dentist.find_element(By.CSS_SELECTOR, ".conflict-preview").text, "the preview is also said in words")
    # Keyboard: the next suggestion by arrow key moves the preview too.
    if len(radios) > 1:
        radios[0].send_keys("\ue015")  # Arrow down
        run.wait_for(lambda: radios[1].is_selected() and dentist.find_element(By.CSS_SELECTOR, ".conflict-preview").text.find(radios[1].get_attribute("data-label")) >= 0,
                     "arrow keys choose the next suggestion and the preview follows")
        run.driver.find_element(By.CSS_SELECTOR, f"label[for='{radio.get_attribute('id')}']").click()
    run.screen("conflicts-preview")

    # In Arabic: right to left, the timeline mirrored.
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.open("/conflicts")
    run.check(run.find("html").get_attribute("dir") == "rtl" and "تعارضات المواعيد" in run.find("h1").text, "the conflicts page in Arabic is right to left")
    arabic = card(run, "Dentist")
    arabic.find_element(By.CSS_SELECTOR, "input[name='slot'] + label").click()
    run.screen("conflicts-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})

    # Move to the first suggestion: the conflict is gone and the event is at the new time in the calendar.
    run.open("/conflicts")
    dentist = card(run, "Dentist")
    dentist.find_element(By.CSS_SELECTOR, "input[name='slot'] + label").click()
    dentist.find_element(By.CSS_SELECTOR, "form.conflict-move button[type='submit']").click()
    run.wait_for(lambda: "done=moved" in run.driver.current_url, "Move goes back to the list")
    run.check("Moved." in run.find("[role='status']").text, "the page says the event was moved")
    run.check("No scheduling conflicts ✓" in run.find("main").text, "with the conflict resolved none are left")
    run.screen("conflicts-moved")
    run.open(f"/calendar?view=day&date={day}")
    chips = [c.text for c in run.driver.find_elements(By.CSS_SELECTOR, ".day-col .item")]
    run.check(any("Dentist" in c and slot_label in c for c in chips), f"the calendar shows Dentist at {slot_label} ({chips})")

    # Cancel asks first: dismissing keeps the event, accepting removes it.
    add(run, day, "Gym", "10:15", "10:45")
    if not conflict_listed(run, "Gym"):
        return
    card(run, "Gym").find_element(By.CSS_SELECTOR, "button.danger").click()
    WebDriverWait(run.driver, 5).until(expected_conditions.alert_is_present())
    alert = run.driver.switch_to.alert
    run.check("Gym" in alert.text, "Cancel asks for confirmation, naming the event")
    alert.dismiss()
    run.check("done=" not in run.driver.current_url and card(run, "Gym") is not None, "dismissing the question cancels nothing")
    card(run, "Gym").find_element(By.CSS_SELECTOR, "button.danger").click()
    WebDriverWait(run.driver, 5).until(expected_conditions.alert_is_present())
    run.driver.switch_to.alert.accept()
    run.wait_for(lambda: "done=cancelled" in run.driver.current_url, "accepting cancels the event")
    run.open(f"/calendar?view=day&date={day}")
    run.check("Gym" not in run.find(".timegrid").text, "the cancelled event is gone from the calendar")


FLOWS = [conflicts]

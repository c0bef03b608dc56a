"""Events in the browser beyond the basics. Repeating events: opened from one of its days, the
form asks which events a change reaches (this event, this and following, all events); each choice
changes what the views show, a deletion asks the same question, asked in Arabic too, right to left.
The same choices by keyboard alone, editing in English and deleting in Arabic (where the arrow
keys run the other way). Labels: an event's own colour and categories from the form, shown on
the chip; a deadline (the end is the start) drawn as a marker; the category filter on the calendar
and on the task list; the week with them, and a duplicated event, in Arabic."""
from __future__ import annotations

import datetime
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from flows.keyboard import focused, from_top, keys, press, retype, tab_to


def _monday_in_two_weeks() -> datetime.date:
    today = datetime.date.today()
    return today + datetime.timedelta(days=14 - today.weekday())


def _personal(run) -> str:
    answer = run.api("GET", "/api/v1/calendars")
    return next(c["id"] for c in json.loads(answer["body"])["calendars"] if c["slug"] == "personal")


def _titles(run, first: datetime.date, series: str = "Reading club") -> list[str]:
    end = first + datetime.timedelta(days=35)
    answer = run.api("GET", f"/api/v1/events?start={first.isoformat()}&end={end.isoformat()}")
    return [e["summary"] for e in json.loads(answer["body"])["events"] if e["summary"].startswith(series)]


def _open_instance(run, day: datetime.date, title: str) -> bool:
    run.open(f"/calendar?view=week&date={day.isoformat()}")
    chips = [a for a in run.driver.find_elements(By.CSS_SELECTOR, ".timegrid a") if title in a.text and f"occurrence={day.isoformat()}" in (a.get_attribute("href") or "")]
    if not run.check(bool(chips), f"the week of {day} has a '{title}' chip that names its instance"):
        return False
    run.driver.execute_script("arguments[0].click()", chips[0])
    return run.wait_for(lambda: run.driver.find_elements(By.ID, "edit-scope"), "a repeating event opened from one day asks which events to change")


def repeating(run) -> None:
    first = _monday_in_two_weeks()
    days = [first + datetime.timedelta(weeks=n) for n in range(4)]
    created = run.api("POST", f"/api/v1/calendars/{_personal(run)}/events",
                      {"title": "Reading club", "start": f"{first.isoformat()}T18:00", "end": f"{first.isoformat()}T19:00",
                       "rrule": "FREQ=WEEKLY;COUNT=4"})
    if not run.check(created["status"] == 201, f"a weekly event is made through the API ({created})"):
        return

    # This event: the second week only.
    if not _open_instance(run, days[1], "Reading club"):
        return
    run.check(run.find("#startDate").get_attribute("value") == days[1].isoformat(), "the form shows the day that was opened")
    run.check(run.find("#scope-this").is_selected(), "'This event' is the preselected answer")
    run.screen("event-scope")
    title = run.find("#title")
    title.clear()
    title.send_keys("Reading club (library)")
    run.find("#save").click()
    run.wait_for(lambda: "view=week" in run.driver.current_url, "saving one event goes back to its week")
    run.wait_for(lambda: "Reading club (library)" in run.find(".timegrid").text, "the week shows the changed event")
    run.check(_titles(run, first) == ["Reading club", "Reading club (library)", "Reading club", "Reading club"],
              f"only that event changed ({_titles(run, first)})")

    # This and following: from the third week, a new title and an hour later.
    if not _open_instance(run, days[2], "Reading club"):
        return
    run.find("#scope-following").click()
    title = run.find("#title")
    title.clear()
    title.send_keys("Reading club (new term)")
    run.set_value("#startTime", "19:00")
    run.set_value("#endTime", "20:00")
    run.find("#save").click()
    run.wait_for(lambda: "Reading club (new term)" in run.find(".timegrid").text, "the week shows the new series")
    run.check(_titles(run, first) == ["Reading club", "Reading club (library)", "Reading club (new term)", "Reading club (new term)"],
              f"the third and fourth weeks changed ({_titles(run, first)})")

    # Delete one: the fourth week goes, the third stays.
    if not _open_instance(run, days[3], "Reading club (new term)"):
        return
    run.check(bool(run.driver.find_elements(By.ID, "delete-scope")), "deleting asks the same question")
    run.find("#delete-scope-this").click()
    run.find("#delete").click()
    WebDriverWait(run.driver, 5).until(expected_conditions.alert_is_present())
    run.driver.switch_to.alert.accept()
    run.wait_for(lambda: run.driver.current_url.endswith("/calendar"), "deleting goes back to the calendar")
    run.check(_titles(run, first) == ["Reading club", "Reading club (library)", "Reading club (new term)"],
              f"only the fourth week's event went ({_titles(run, first)})")

    # All events: the first series gets one title, the override keeps its own.
    if not _open_instance(run, days[0], "Reading club"):
        return
    run.find("#scope-all").click()
    title = run.find("#title")
    title.clear()
    title.send_keys("Reading club (autumn)")
    run.find("#save").click()
    run.wait_for(lambda: "Reading club (autumn)" in run.find(".timegrid").text, "the week shows the renamed series")
    run.check(_titles(run, first)[0] == "Reading club (autumn)" and len(_titles(run, first)) == 3, f"the series was renamed ({_titles(run, first)})")


def repeating_arabic(run) -> None:
    answer = run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.check(answer["status"] == 200, f"the profile takes Arabic ({answer})")
    try:
        day = _monday_in_two_weeks() + datetime.timedelta(weeks=2)
        if not _open_instance(run, day, "Reading club"):
            return
        run.check(run.find("html").get_attribute("dir") == "rtl", "the event form is right to left in Arabic")
        legend = run.find("#edit-scope legend").text
        run.check("متكرر" in legend and run.find("label[for='scope-following']").text == "هذا الحدث والأحداث التالية",
                  f"the question is asked in Arabic ({legend!r})")
        run.screen("event-scope-arabic")
    finally:
        run.api("PATCH", "/api/v1/me", {"language": "en"})


CHESS = "Chess evening"


def _chess_days() -> list[datetime.date]:
    """Five Tuesdays, weeks after the other flows' events."""
    first = _monday_in_two_weeks() + datetime.timedelta(weeks=5, days=1)
    return [first + datetime.timedelta(weeks=n) for n in range(5)]


def _open_by_keyboard(run, day: datetime.date, title: str) -> bool:
    """The week of `day`, Tab to the chip of that day's instance of `title`, Enter."""
    run.open(f"/calendar?view=week&date={day.isoformat()}")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".timegrid"), f"the week of {day} opens")
    # Other series have instances that day too (a daily routine): the chip is told by its title.
    href = run.driver.execute_script(
        "const a = [...document.querySelectorAll('.timegrid a.item')].find(a => a.innerText.includes(arguments[0])"
        " && a.getAttribute('href').includes('occurrence=' + arguments[1])); return a ? a.getAttribute('href') : null", title, day.isoformat())
    if not run.check(href is not None, f"the week of {day} has a '{title}' chip that names its instance"):
        return False
    if not press(run, f".timegrid a.item[href='{href}']", limit=150):
        return False
    return run.wait_for(lambda: run.driver.find_elements(By.ID, "edit-scope"), "Enter on the chip opens that day's event, asking which events to change")


def _choose(run, radio: str, key: str, times: int) -> None:
    """Arrow keys move the choice within a radio group, from the one Tab landed on."""
    for _ in range(times):
        keys(run, key)
    run.check(focused(run, radio) and run.find(radio).is_selected(), f"{radio} is chosen and has the focus ({times} arrow presses)")


def _delete_by_keyboard(run, radio: str, key: str, times: int) -> None:
    from_top(run)
    tab_to(run, "#delete-scope-this", limit=120)  # a group's first Tab lands on its chosen answer
    _choose(run, radio, key, times)
    if tab_to(run, "#delete", limit=1):
        keys(run, Keys.ENTER)
    WebDriverWait(run.driver, 5).until(expected_conditions.alert_is_present())
    run.driver.switch_to.alert.accept()  # the browser's own confirm dialog
    run.wait_for(lambda: run.driver.current_url.endswith("/calendar"), "deleting goes back to the calendar")


def repeating_keyboard(run) -> None:
    """A weekly event changed with Tab, Shift+Tab, the arrow keys and Enter alone: this and following, all events, this event's deletion."""
    days = _chess_days()
    created = run.api("POST", f"/api/v1/calendars/{_personal(run)}/events",
                      {"title": CHESS, "start": f"{days[0].isoformat()}T19:00", "end": f"{days[0].isoformat()}T21:00",
                       "rrule": "FREQ=WEEKLY;COUNT=5"})
    if not run.check(created["status"] == 201, f"a weekly event to walk by keyboard ({created['status']})"):
        return

    # This and following, from the third week: a new title, then down from "This event" to the next answer.
    if not _open_by_keyboard(run, days[2], CHESS):
        return
    from_top(run)
    if tab_to(run, "#title", limit=60):
        retype(run, f"{CHESS} (late)")
    tab_to(run, "#scope-this", limit=60)
    _choose(run, "#scope-following", Keys.ARROW_DOWN, 1)
    if tab_to(run, "#save", limit=1):
        keys(run, Keys.ENTER)
    run.wait_for(lambda: "view=week" in run.driver.current_url, "Enter on Save goes back to the week")
    run.check(_titles(run, days[0], CHESS) == [CHESS, CHESS] + [f"{CHESS} (late)"] * 3, f"the third week on changed ({_titles(run, days[0], CHESS)})")

    # All events, from the first: back from Save into the group with Shift+Tab.
    if not _open_by_keyboard(run, days[0], CHESS):
        return
    from_top(run)
    if tab_to(run, "#title", limit=60):
        retype(run, "Chess club")
    tab_to(run, "#save", limit=60)
    tab_to(run, "#scope-this", backwards=True, limit=1)
    _choose(run, "#scope-all", Keys.ARROW_DOWN, 2)
    if tab_to(run, "#save", limit=1):
        keys(run, Keys.ENTER)
    run.wait_for(lambda: "view=week" in run.driver.current_url, "Enter on Save goes back to the week")
    run.check(_titles(run, days[0], "Chess") == ["Chess club"] * 2 + [f"{CHESS} (late)"] * 3, f"the first series was renamed ({_titles(run, days[0], 'Chess')})")

    # Deleting this event, the answer the group starts on.
    if not _open_by_keyboard(run, days[1], "Chess club"):
        return
    _delete_by_keyboard(run, "#delete-scope-this", Keys.ARROW_DOWN, 0)
    run.check(_titles(run, days[0], "Chess") == ["Chess club"] + [f"{CHESS} (late)"] * 3, f"only the second week's event went ({_titles(run, days[0], 'Chess')})")


def repeating_keyboard_arabic(run) -> None:
    """Deleting by keyboard in Arabic: right to left, the left arrow moves on to the next answer."""
    days = _chess_days()
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    try:
        if not _open_by_keyboard(run, days[3], f"{CHESS} (late)"):
            return
        run.check(run.find("html").get_attribute("dir") == "rtl", "the event form is right to left")
        _delete_by_keyboard(run, "#delete-scope-following", Keys.ARROW_LEFT, 1)
        run.check(_titles(run, days[0], "Chess") == ["Chess club", f"{CHESS} (late)"], f"the fourth week on went ({_titles(run, days[0], 'Chess')})")
        if not _open_by_keyboard(run, days[2], f"{CHESS} (late)"):
            return
        _delete_by_keyboard(run, "#delete-scope-all", Keys.ARROW_LEFT, 2)
        run.check(_titles(run, days[0], "Chess") == ["Chess club"], f"the whole later series went ({_titles(run, days[0], 'Chess')})")
    finally:
        run.api("PATCH", "/api/v1/me", {"language": "en"})


def _add(run, day: datetime.date, title: str, start: str, end: str, color: str = "", categories: str = "") -> None:
    run.open(f"/events/new?date={day.isoformat()}")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "event-form"), f"the form opens to add '{title}'")
    run.find("#title").send_keys(title)
    run.set_value("#startTime", start)
    run.set_value("#endTime", end)
    run.driver.execute_script("document.getElementById('color').value = arguments[0]", color)
    if categories:
        run.find("#categories").send_keys(categories)
    run.wait_for(lambda: run.find("#save").is_enabled(), f"'{title}' can be saved")
    run.find("#save").click()
    run.wait_for(lambda: "view=week" in run.driver.current_url, f"saving '{title}' goes to its week")


def _chip(run, title: str):
    # Looked up in one script: the live view may redraw the grid between a lookup and a read.
    return run.driver.execute_script(
        "return [...document.querySelectorAll('.timegrid a.item')].find(a => a.innerText.includes(arguments[0])) || null", title)


def _chip_texts(run, title: str) -> list[str]:
    return run.driver.execute_script(
        "return [...document.querySelectorAll('.timegrid a.item')].map(a => a.innerText).filter(t => t.includes(arguments[0]))", title)


def labels(run) -> None:
    day = _monday_in_two_weeks() + datetime.timedelta(days=2)
    _add(run, day, "Swimming", "07:00", "08:00", color="seagreen", categories="Sport, Family")
    chip = _chip(run, "Swimming")
    run.check(chip is not None and "ev-color" in chip.get_attribute("class") and "evc-seagreen" in chip.get_attribute("class"),
              f"the chip carries the event's own colour ({chip.get_attribute('class') if chip else None})")
    dot = run.driver.execute_script("return getComputedStyle(arguments[0], '::before').backgroundColor", chip) if chip else None
    run.check(dot == "rgb(46, 139, 87)", f"the dot is sea green ({dot})")
    # A deadline: the end is the start; the form allows it and the week draws a marker.
    _add(run, day, "Report due", "17:00", "17:00", categories="Work")
    chip = _chip(run, "Report due")
    run.check(chip is not None and "deadline" in chip.get_attribute("class"), "a deadline is drawn as a marker")
    run.check(chip is not None and "Deadline" in chip.get_attribute("textContent"), "the marker says 'Deadline' to screen readers")
    run.screen("week-colour-deadline")

    # The category filter keeps the view and shows only what carries the category.
    run.open(f"/calendar?view=week&date={day.isoformat()}")
    options = [o.text for o in run.driver.find_elements(By.CSS_SELECTOR, "#category-filter option")]
    run.check({"Family", "Sport", "Work"} <= set(options), f"the filter offers the week's categories ({options})")
    run.driver.execute_script("document.getElementById('category-filter').value = 'Sport'")
    run.find(".category-filter button").click()
    run.wait_for(lambda: "category=Sport" in run.driver.current_url, "filtering by a category reloads the view")
    text = run.find(".timegrid").text
    run.check("Swimming" in text and "Report due" not in text, f"only events with the category are shown ({text[:120]!r})")
    run.find("a[rel='next']").click()
    run.wait_for(lambda: "category=Sport" in run.driver.current_url, "moving to the next week keeps the filter")
    run.screen("week-category-filter")

    # To-dos: categories in the form, a tag in the list, the same filter.
    run.open("/tasks")
    run.find("#title").send_keys("Buy goggles")
    run.find("#categories").send_keys("Sport")
    run.find("#add-task").click()
    run.wait_for(lambda: any("Sport" in t.text for t in run.driver.find_elements(By.CSS_SELECTOR, "#task-list .task .category")),
                 "the task list shows the task's category")
    run.driver.execute_script("document.getElementById('category').value = 'Sport'")
    run.find(".task-filters button").click()
    run.wait_for(lambda: "category=Sport" in run.driver.current_url, "the task list filters by category")
    titles = [a.text for a in run.driver.find_elements(By.CSS_SELECTOR, "#task-list .task-title")]
    run.check(titles == ["Buy goggles"], f"only the task with the category is listed ({titles})")
    run.screen("tasks-category-filter")


def opening_hour(run) -> None:
    """The week opens at the working day rather than midnight (a week without today: 08:00 unless set)."""
    day = _monday_in_two_weeks()
    run.open(f"/calendar?view=week&date={day.isoformat()}")
    hour = run.find(".timegrid").get_attribute("data-opening-hour")
    run.check(hour == "8", f"a week without today opens at 08:00 ({hour})")
    # At the top of the window, or as near as the page's length lets it come.
    top, scrolled, room = run.driver.execute_script(
        "return [document.getElementById('hour-8').getBoundingClientRect().top, window.scrollY,"
        " document.documentElement.scrollHeight - window.innerHeight]")
    run.check(scrolled > 0 and (abs(top) < 5 or abs(scrolled - room) < 2), f"the page is scrolled to 08:00 (its row at {top} px, {scrolled}/{room} px)")
    run.open("/calendar?view=day")
    now_hour = run.find(".timegrid").get_attribute("data-opening-hour")
    run.check(now_hour is not None and now_hour.isdigit(), f"today's day view opens near the current hour ({now_hour})")


def duplicate(run) -> None:
    day = _monday_in_two_weeks() + datetime.timedelta(days=3)
    _add(run, day, "Piano lesson", "16:00", "17:00", color="orchid", categories="Music")
    chip = _chip(run, "Piano lesson")
    if not run.check(chip is not None, "the lesson is in the week"):
        return
    run.driver.execute_script(
        "[...document.querySelectorAll('.timegrid a.item')].find(a => a.innerText.includes(arguments[0])).click()", "Piano lesson")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "duplicate"), "an event's page has a Duplicate button")
    original = run.driver.current_url
    run.find("#duplicate").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "event-notice") and run.driver.current_url != original,
                 "duplicating opens the copy, saying it is one")
    run.check(run.find("#title").get_attribute("value") == "Piano lesson" and run.find("#color").get_attribute("value") == "orchid"
              and run.find("#categories").get_attribute("value") == "Music", "the copy has the original's title, colour and categories")
    run.screen("event-duplicated")
    run.set_value("#startDate", (day + datetime.timedelta(days=1)).isoformat())
    run.set_value("#endDate", (day + datetime.timedelta(days=1)).isoformat())
    run.find("#save").click()
    run.wait_for(lambda: "view=week" in run.driver.current_url, "the copy is saved")
    run.wait_for(lambda: len(_chip_texts(run, "Piano lesson")) == 2,
                 f"the week has the lesson and its copy a day later ({_chip_texts(run, 'Piano lesson')})")


def labels_arabic(run) -> None:
    """The labelled week and a duplicated event, right to left."""
    day = _monday_in_two_weeks() + datetime.timedelta(days=2)
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    try:
        run.open(f"/calendar?view=week&date={day.isoformat()}")
        run.check(run.find("html").get_attribute("dir") == "rtl", "the week is right to left in Arabic")
        chip = _chip(run, "Report due")
        run.check(chip is not None and "موعد نهائي" in chip.get_attribute("textContent"), "the deadline marker is named in Arabic to screen readers")
        chip = _chip(run, "Swimming")
        run.check(chip is not None and "evc-seagreen" in chip.get_attribute("class"), "the chip keeps the event's own colour")
        run.check(run.find("label[for='category-filter']").text == "التصنيف", "the category filter speaks Arabic")
        run.screen("week-colour-deadline-arabic")
        run.open(f"/calendar?view=week&date={day.isoformat()}&category=Sport")
        text = run.find(".timegrid").text
        run.check("Swimming" in text and "Report due" not in text, "filtered by a category in Arabic, only its events are shown")
        run.screen("week-category-filter-arabic")

        _add(run, day + datetime.timedelta(days=2), "Oud lesson", "17:00", "18:00", color="slateblue", categories="Music")
        run.driver.execute_script(
            "[...document.querySelectorAll('.timegrid a.item')].find(a => a.innerText.includes(arguments[0])).click()", "Oud lesson")
        run.wait_for(lambda: run.driver.find_elements(By.ID, "duplicate"), "the event's page offers to duplicate it")
        press(run, "#duplicate")
        run.wait_for(lambda: run.driver.find_elements(By.ID, "event-notice"), "duplicating by keyboard opens the copy")
        run.check(run.find("#event-notice").text.startswith("هذه نسخة من الحدث") and run.find("html").get_attribute("dir") == "rtl",
                  "the copy says what it is in Arabic, right to left")
        run.screen("event-duplicated-arabic")
    finally:
        run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [repeating, repeating_arabic, repeating_keyboard, repeating_keyboard_arabic, labels, duplicate, labels_arabic, opening_hour]

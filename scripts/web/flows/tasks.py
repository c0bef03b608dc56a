"""The Tasks screen and the Routines editor in a real browser: add tasks (one refused first),
plan them, see where they went and find the Task Time blocks in the calendar's week; add a
routine (one refused first) and see it in the week; both screens in Arabic."""
from __future__ import annotations

import datetime

from selenium.webdriver.common.by import By


def _add_task(run, title: str, due: str, estimate: str, priority: str) -> None:
    run.find("#title").send_keys(title)
    run.driver.execute_script("document.getElementById('priority').value = arguments[0]", priority)
    run.set_value("#dueDate", due)
    estimate_field = run.find("#estimate")
    estimate_field.clear()
    estimate_field.send_keys(estimate)
    run.find("#add-task").click()


def tasks(run) -> None:
    run.open("/tasks")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "task-form"), "the Tasks page opens with its add form")
    run.check(run.find("nav a[aria-current='page']").get_attribute("href").endswith("/tasks"), "Tasks is the current section")
    today = datetime.date.today()
    # Bad input is answered beside the field, and what was typed stays.
    _add_task(run, "Write report", (today + datetime.timedelta(days=3)).isoformat(), "ninety", "high")
    run.wait_for(lambda: "whole minutes" in run.find("#estimate-error").text, "an estimate that is not a number is refused beside the field")
    run.check(run.find("#title").get_attribute("value") == "Write report", "the title typed stays after a refusal")
    run.check(run.find("#estimate").get_attribute("aria-invalid") == "true", "the refused field is marked invalid")
    run.screen("tasks-invalid")
    estimate = run.find("#estimate")
    estimate.clear()
    estimate.send_keys("90")
    run.find("#add-task").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "#task-list .task"), "the first task is listed")
    _add_task(run, "Prepare slides", (today + datetime.timedelta(days=5)).isoformat(), "45", "medium")
    run.wait_for(lambda: len(run.driver.find_elements(By.CSS_SELECTOR, "#task-list .task")) == 2, "the second task is listed")
    titles = [a.text for a in run.driver.find_elements(By.CSS_SELECTOR, "#task-list .task-title")]
    run.check(titles == ["Write report", "Prepare slides"], f"sorted by due date ({titles})")
    run.check("1 h 30 min" in run.find("#task-list").text, "the estimate is shown in hours and minutes")
    run.driver.execute_script("document.getElementById('list-title').scrollIntoView()")
    run.screen("tasks")

    run.find("#plan-tasks").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "plan-result"), "Plan my tasks shows where the tasks went")
    placed = run.find("#plan-placed").text
    run.check("Write report" in placed and "Prepare slides" in placed, f"both tasks got time ({placed})")
    run.check(len(run.driver.find_elements(By.CSS_SELECTOR, ".task-planned li")) >= 2, "each task lists its planned block")
    run.screen("tasks-plan")

    # The block's day links to that week of the calendar, where the Task Time block is.
    run.find("#plan-placed tbody a").click()
    run.wait_for(lambda: "view=week" in run.driver.current_url, "the placed day opens its week")
    blocks = run.driver.find_elements(By.CSS_SELECTOR, ".timegrid .item.kind-task")
    run.check(any("Write report" in b.text for b in blocks), f"the week shows the Task Time block ({[b.text for b in blocks]})")
    run.screen("tasks-week")

    # Done: it leaves the open list and is under Done.
    run.open("/tasks")
    run.find("#task-list .task-check").click()
    run.wait_for(lambda: len(run.driver.find_elements(By.CSS_SELECTOR, "#task-list .task")) == 1, "a task marked done leaves the open list")
    run.find("#status option[value='completed']").click()
    run.find(".task-filters button").click()
    run.wait_for(lambda: "status=completed" in run.driver.current_url and run.find("#task-list .task-check").get_attribute("aria-checked") == "true",
                 "the Done list shows it checked")


def routines(run) -> None:
    run.open("/settings/routines")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "add-routine"), "the Routines page opens")
    run.find("#add-routine").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "routine-form"), "Add a routine opens the form")
    run.find("#name").send_keys("Morning walk")
    run.find("#preset-custom").click()
    for day in range(1, 8):
        box = run.find(f"#day{day}")
        if box.is_selected():
            box.click()
    run.set_value("#start", "06:00")
    run.set_value("#end", "06:45")
    run.find("#save").click()
    run.wait_for(lambda: "at least one day" in run.find("#days-error").text, "no day chosen is refused beside the days")
    run.check(run.find("#name").get_attribute("value") == "Morning walk", "the name typed stays after a refusal")
    run.screen("routine-invalid")
    run.find("#preset-weekdays").click()
    run.check(run.find("#day1").is_selected() and not run.find("#day6").is_selected(), "the weekdays preset ticks Monday to Friday")
    run.find("#preset-daily").click()
    run.check(all(run.find(f"#day{d}").is_selected() for d in range(1, 8)), "every day ticks all seven")
    run.find("#save").click()
    run.wait_for(lambda: run.driver.current_url.endswith("/settings/routines") and "Morning walk" in run.find("#routine-list").text,
                 "the routine is listed")
    run.screen("routines")
    # The series starts today, so a whole week of it is next week's.
    run.open(f"/calendar?view=week&date={(datetime.date.today() + datetime.timedelta(days=7)).isoformat()}")
    items = run.driver.find_elements(By.CSS_SELECTOR, ".timegrid .item.kind-routine")
    run.check(sum("Morning walk" in i.text for i in items) == 7, f"next week shows the routine every day ({len(items)} routine items)")
    run.screen("routines-week")


def tasks_arabic(run) -> None:
    answer = run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.check(answer["status"] == 200, f"the profile takes Arabic ({answer})")
    run.open("/tasks?status=all")
    run.check(run.find("html").get_attribute("dir") == "rtl", "the Tasks page is right to left in Arabic")
    run.check(run.find("#plan-tasks").text == "خطّط مهامي", "the Tasks page speaks Arabic")
    title, check = run.find("#task-list .task-title"), run.find("#task-list .task-check")
    run.check(check.location["x"] > title.location["x"], "in Arabic the done button is on the right of the title")
    run.driver.execute_script("document.getElementById('list-title').scrollIntoView()")
    run.screen("tasks-arabic")
    run.open("/settings/routines/new")
    run.check(run.find("#preset-daily + label").text == "كل يوم", "the routine form speaks Arabic")
    run.screen("routine-form-arabic")
    run.open("/settings/routines")
    run.screen("routines-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [tasks, routines, tasks_arabic]

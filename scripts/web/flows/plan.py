"""Goals, the two-week plan, the questionnaire and the tracker in a real browser: answer the
questionnaire (one answer refused first) and skip it from a first-run link; add a goal (one
refused first), plan, accept and reject; change the goal by keyboard alone (its kind, so the
questionnaire's exercise time applies; one change refused first) and see a to-do the plan found no
time for, with why; the first-run guide's step that offers the questionnaire; add tracker entries
(one refused first), read the chart and its table, import an Apple Health export through the file
field; the screens in Arabic and at a phone's width."""
from __future__ import annotations

import datetime
import json
import tempfile
import zipfile
from pathlib import Path

from selenium.webdriver.common.by import By
from zoneinfo import ZoneInfo

from flows.account import press, type_into


def questionnaire(run) -> None:
    run.open("/settings")
    run.find("a[href='/settings/questionnaire']").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "questionnaire-form"), "Settings links to the questionnaire")
    run.set_value("#wake", "06:30")
    run.set_value("#sleep", "06:30")
    run.find("#exerciseTime option[value='morning']").click()
    run.find("#intensity-light").click()
    run.find("#save-questionnaire").click()
    run.wait_for(lambda: "different times" in run.find("#sleep-error").text, "the same time for sleep and waking is refused beside the field")
    run.check(run.find("#sleep").get_attribute("aria-invalid") == "true", "the refused field is marked invalid")
    run.check(run.find("#wake").get_attribute("value") == "06:30", "what was typed stays after a refusal")
    run.screen("questionnaire-invalid")
    run.set_value("#sleep", "22:45")
    run.set_value("#workStart", "09:00")
    run.set_value("#workEnd", "17:00")
    run.find("#save-questionnaire").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "questionnaire-saved"), "the answers are saved")
    run.check(run.find("#intensity-light").is_selected() and run.find("#sleep").get_attribute("value") == "22:45", "the saved answers are shown")
    run.screen("questionnaire")
    # A first-run step sends a person here with ?next=: skipping goes back there, answers kept.
    run.open("/settings/questionnaire?next=/calendar")
    run.find("#skip-questionnaire").click()
    run.wait_for(lambda: run.driver.current_url.endswith("/calendar"), "skipping returns where the person came from")
    answers = run.api("GET", "/api/v1/plan/questionnaire")
    run.check('"wake":"06:30"' in answers["body"], f"skipping keeps earlier answers ({answers['body']})")


def plan(run) -> None:
    run.open("/plan")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "goal-form"), "the plan page opens with its goal form")
    run.check(run.find("nav a[aria-current='page']").get_attribute("href").endswith("/plan"), "Plan is the current section")
    run.check(run.driver.find_elements(By.ID, "questionnaire-link"), "the plan page links to the questionnaire")
    run.find("#title").send_keys("Exercise")
    minutes = run.find("#minutes")
    minutes.clear()
    minutes.send_keys("0")
    run.find("#add-goal").click()
    run.wait_for(lambda: "1 to 1440" in run.find("#minutes-error").text, "a session of 0 minutes is refused beside the field")
    run.screen("plan-invalid")
    minutes = run.find("#minutes")
    minutes.clear()
    minutes.send_keys("45")
    run.find("#add-goal").click()
    run.wait_for(lambda: "Exercise" in run.find("#goal-list").text, "the goal is listed")
    run.find("#propose").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "#proposal-list li"), "planning lists proposals with their reasons")
    reasons = run.find("#proposal-list").text
    # The page's goal form sets no category, so the questionnaire's exercise time does not
    # apply; the spacing between sessions is what a reason can be relied on to say.
    run.check("after the last session" in reasons, f"a reason says why ({reasons[:200]})")
    run.screen("plan")
    run.find("#proposal-list li form button.primary").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "#accepted-list li"), "an accepted session is listed as accepted")
    run.driver.find_elements(By.CSS_SELECTOR, "#proposal-list li form button:not(.primary)")[0].click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "accepted-list"), "rejecting keeps the page")
    run.check(run.driver.find_elements(By.ID, "sessions"), "the page has a place to mark sessions done or skipped")
    run.screen("plan-accepted")


def goal_change(run) -> None:
    """The goal changed by keyboard alone: its kind becomes Exercise, so the questionnaire's
    morning exercise time applies; too long a session is refused beside the field first."""
    run.open("/plan")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "#goal-list a.goal-edit"), "each goal has a link to change it")
    press(run, "#goal-list a.goal-edit")
    run.wait_for(lambda: "edit=" in run.driver.current_url and "Change the goal" in run.find("#goal-form-title").text,
                 "the link opens the form with the goal in it")
    run.check(run.find("#title").get_attribute("value") == "Exercise" and run.find("#minutes").get_attribute("value") == "45",
              "the form holds the goal as it is")
    run.check(run.find("#category").get_attribute("value") == "other", "a goal made without a kind is General")
    press(run, "#category", key="Exercise")
    run.wait_for(lambda: run.find("#category").get_attribute("value") == "exercise", "typing on the list chooses Exercise")
    type_into(run, "#minutes", "2000")
    press(run, "#add-goal")
    run.wait_for(lambda: "1 to 1440" in run.find("#minutes-error").text, "a session too long is refused beside the field")
    run.check(run.find("#minutes").get_attribute("aria-invalid") == "true", "the refused field is marked invalid")
    run.check(run.find("#category").get_attribute("value") == "exercise", "the chosen kind stays after a refusal")
    run.screen("plan-change-invalid")
    type_into(run, "#minutes", "50")
    press(run, "#add-goal")
    run.wait_for(lambda: run.driver.current_url.rstrip("/").endswith("/plan") and "50 min" in run.find("#goal-list").text,
                 "the changed goal is listed")
    goals = json.loads(run.api("GET", "/api/v1/goals")["body"])["goals"]
    run.check(goals[0]["category"] == "exercise" and goals[0]["minutes"] == 50, f"the change is saved ({goals[0]})")
    press(run, "#propose")
    run.wait_for(lambda: "you prefer mornings" in run.find("#proposal-list").text,
                 "an exercise goal takes the questionnaire's morning as its reason")


def unplaced(run) -> None:
    """A to-do due within the hour that needs ten: the plan finds it no time and says why."""
    zone = json.loads(run.api("GET", "/api/v1/me")["body"])["timeZone"]
    due = (datetime.datetime.now(ZoneInfo(zone)) + datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    made = run.api("POST", "/api/v1/tasks", {"title": "Tax return", "due": due, "estimateMinutes": 600})
    run.check(made["status"] == 201, f"the to-do is made ({made['body'][:120]})")
    run.open("/plan")
    press(run, "#propose")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "unplaced-list"), "the to-dos without time are listed")
    text = run.find("#unplaced-list").text
    run.check("Tax return" in text and "needs 10 h before it is due" in text, f"the to-do is listed with why ({text})")
    run.check("Planned" in run.find("#plan-made").text, "the page says when the plan was made")
    run.screen("plan-unplaced")


def first_run_step(run) -> None:
    """The guide's step about your days links to the questionnaire, which comes back to the guide."""
    run.open("/welcome?step=chats")
    press(run, "#next-step")
    run.wait_for(lambda: "step=planner" in run.driver.current_url, "after chats the guide offers the planner's questions")
    run.check(run.find("#step-count").text == "Step 6 of 7", "it is the sixth step of seven")
    run.check(run.driver.find_elements(By.ID, "planner-answered"), "answers given before are acknowledged")
    run.screen("welcome-planner")
    press(run, "#open-questionnaire")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "questionnaire-form"), "the step opens the questionnaire")
    press(run, "#skip-questionnaire")
    run.wait_for(lambda: "step=notifications" in run.driver.current_url, "skipping the questions goes on with the guide")


# Zones without daylight saving (as of 2026), one per whole-hour offset from UTC.
STEADY_ZONES = {
    -11: "Pacific/Pago_Pago", -10: "Pacific/Honolulu", -9: "Pacific/Gambier", -8: "Pacific/Pitcairn", -7: "America/Phoenix",
    -6: "America/Regina", -5: "America/Bogota", -4: "America/La_Paz", -3: "America/Argentina/Buenos_Aires", -2: "Atlantic/South_Georgia",
    -1: "Atlantic/Cape_Verde", 0: "Africa/Abidjan", 1: "Africa/Lagos", 2: "Africa/Johannesburg", 3: "Asia/Riyadh", 4: "Asia/Dubai",
    5: "Asia/Karachi", 6: "Asia/Dhaka", 7: "Asia/Jakarta", 8: "Asia/Singapore", 9: "Asia/Tokyo", 10: "Australia/Brisbane",
    11: "Pacific/Guadalcanal", 12: "Pacific/Tarawa",
}


def _midday_zone() -> tuple[str, int, datetime.date]:
    """A zone where it is now about midday, its offset and its date: the checks of today's bar and
    of last night hold at any hour the run happens at (at 22:00 UTC it is already tomorrow in Riyadh)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    offset = 12 - now.hour  # -11 … +12
    return STEADY_ZONES[offset], offset, (now + datetime.timedelta(hours=offset)).date()


def _export(folder: Path, today: datetime.date, offset: int) -> Path:
    """A small export.zip in the Health app's layout, with last night in it (times at `offset` hours from UTC)."""
    night = today - datetime.timedelta(days=1)
    zone = f"{offset:+03d}00"
    xml = f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
]>
<HealthData locale="en_US">
 <ExportDate value="{today} 09:00:00 {zone}"/>
 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="{night} 23:10:00 {zone}" endDate="{today} 06:40:00 {zone}" value="HKCategoryValueSleepAnalysisAsleepCore"/>
 <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" sourceName="Watch" startDate="{night} 17:00:00 {zone}" endDate="{night} 17:30:00 {zone}"/>
</HealthData>
"""
    path = folder / "export.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("apple_health_export/export.xml", xml)
        archive.writestr("apple_health_export/export_cda.xml", "<ClinicalDocument/>")
    return path


def tracker(run) -> None:
    zone, offset, today = _midday_zone()
    kept = json.loads(run.api("GET", "/api/v1/me")["body"])["timeZone"]
    changed = run.api("PATCH", "/api/v1/me", {"timeZone": zone})
    run.check(changed["status"] == 200, f"the account takes the zone {zone} ({changed})")
    try:
        _tracker(run, today, offset)
    finally:
        run.api("PATCH", "/api/v1/me", {"timeZone": kept})


def _tracker(run, today: datetime.date, offset: int) -> None:
    run.open("/tracker")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "sleep-form"), "the tracker page opens with its forms")
    run.check(run.find("nav a[aria-current='page']").get_attribute("href").endswith("/tracker"), "Tracker is the current section")
    run.set_value("#sleep-bedtime", f"{today}T07:00")
    run.set_value("#sleep-wake", f"{today}T06:00")
    run.find("#add-sleep").click()
    run.wait_for(lambda: "after going to bed" in run.find("#sleepWake-error").text, "waking before bedtime is refused beside the field")
    run.screen("tracker-invalid")
    yesterday = today - datetime.timedelta(days=1)
    run.set_value("#sleep-bedtime", f"{yesterday - datetime.timedelta(days=1)}T23:00")
    run.set_value("#sleep-wake", f"{yesterday}T06:30")
    run.find("#add-sleep").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "#entry-list li"), "the night is listed")
    run.find("#exercise-kind").send_keys("run")
    run.find("#exercise-minutes").send_keys("35")
    run.find("#add-exercise").click()
    run.wait_for(lambda: len(run.driver.find_elements(By.CSS_SELECTOR, "#entry-list li")) == 2, "the run is listed")

    with tempfile.TemporaryDirectory() as folder:
        run.find("#health-file").send_keys(str(_export(Path(folder), today, offset)))
        run.find("#import-health").click()
        run.wait_for(lambda: run.driver.find_elements(By.ID, "import-report"), "the Health export is imported")
    report = run.find("#import-report").text
    run.check("1 nights and 1 workouts" in report, f"the report says what came in ({report})")

    run.open("/tracker?metric=sleep&period=day#progress")
    chart = run.find("svg#chart-metric")
    run.check(chart.get_attribute("role") == "img", "the chart is an image to assistive technology")
    run.check(run.find("#chart-metric-title").get_attribute("textContent").startswith("sleep"), "the chart has a title")
    run.check("Days in a row: 2 now" in run.find("#streak").text, f"the streak counts yesterday and today ({run.find('#streak').text})")
    bars = run.driver.find_elements(By.CSS_SELECTOR, "svg#chart-metric rect.chart-bar")
    heights = [float(b.get_attribute("height")) for b in bars]
    run.check(len(bars) == 14 and heights[-1] > 0, f"fourteen days, today's bar drawn ({heights}, {today}, offset {offset})")
    run.find("#progress details summary").click()
    rows = run.driver.find_elements(By.CSS_SELECTOR, "#chart-metric-table tbody tr")
    run.check(len(rows) == 14 and "7 h 30" in rows[0].text, f"the table gives the same numbers, newest first ({[r.text for r in rows[:3]]})")
    run.screen("tracker")


def arabic(run) -> None:
    answer = run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.check(answer["status"] == 200, f"the profile takes Arabic ({answer})")
    run.open("/tracker?metric=sleep&period=day")
    run.check(run.find("html").get_attribute("dir") == "rtl", "the tracker is right to left in Arabic")
    bars = run.driver.find_elements(By.CSS_SELECTOR, "svg#chart-metric rect.chart-bar")
    run.check(float(bars[-1].get_attribute("x")) < float(bars[0].get_attribute("x")), "in Arabic the newest bar is on the left: time runs right to left")
    run.screen("tracker-arabic")
    run.open("/plan")
    run.check("مهام بلا وقت" in run.find("#plan").text and "رياضة" in run.find("#goal-list").text,
              "the plan page's to-dos without time and the goal's kind in Arabic")
    run.screen("plan-arabic")
    run.open("/plan?edit=" + json.loads(run.api("GET", "/api/v1/goals")["body"])["goals"][0]["id"])
    run.check(run.find("#goal-form-title").text.startswith("تعديل الهدف"), "the goal form in Arabic, to change a goal")
    run.screen("plan-change-arabic")
    run.open("/settings/questionnaire")
    run.check(run.find("#skip-questionnaire").text == "تخطَّ الآن", "the questionnaire speaks Arabic")
    run.screen("questionnaire-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


def phone(run) -> None:
    run.driver.set_window_size(390, 844)
    try:
        for path, name in (("/plan", "phone-plan"), ("/tracker", "phone-tracker"), ("/settings/questionnaire", "phone-questionnaire")):
            run.open(path)
            run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "main"), f"{path} opens at a phone's width")
            overflow = run.driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            run.check(overflow <= 0, f"{path} fits a phone's width ({overflow} px too wide)")
            run.screen(name)
    finally:
        run.driver.set_window_size(1280, 900)


FLOWS = [questionnaire, plan, goal_change, unplaced, first_run_step, tracker, arabic, phone]

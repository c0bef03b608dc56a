"""The settings screen in a real browser: the profile (name, zone, the Hijri date in the calendar,
Arabic), an app password, an Easy Setup link with its QR code, notification choices.

`sign_out_everywhere` ends the session the other flows use, so it is in LAST: the runner
calls it after every other flow.
"""
from __future__ import annotations

import re

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def profile(run) -> None:
    run.open("/settings")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "profile"), "the settings page opens")
    run.check(run.find("#profile-title").text == "Profile", "settings starts with the profile")
    links = [a.get_attribute("href") for a in run.driver.find_elements(By.CSS_SELECTOR, ".settings-nav a")]
    run.check(all(any(link.endswith(path) for link in links) for path in ("/settings/prayer", "/settings/whatsapp", "/settings/routines")),
              "the section list links to prayer times, WhatsApp and routines")
    run.screen("settings")
    name = run.find("#name")
    name.clear()
    name.send_keys("Sara Al-Harbi")
    Select(run.find("#timeZone")).select_by_visible_text("Asia/Riyadh")
    hijri = run.find("#showHijri")
    if not hijri.is_selected():
        hijri.click()
    run.find("#save-profile").click()
    run.wait_for(lambda: "Your profile is saved." in run.find("main").text, "saving the profile says so")
    run.check(run.find("#name").get_attribute("value") == "Sara Al-Harbi", "the new name is kept")
    run.check(Select(run.find("#timeZone")).first_selected_option.text == "Asia/Riyadh", "the new time zone is kept")
    for view in ("month", "week", "day"):
        run.open(f"/calendar?view={view}&date=2026-09-22")
        run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".hijri"), f"the Hijri date is beside the Gregorian one ({view})")
        run.check("1448" in run.find(".hijri").text, f"the {view} view shows the Hijri year 1448")
    run.screen("calendar-hijri")


def app_password(run) -> None:
    run.open("/settings#app-passwords")
    run.find("#password-name").send_keys("Thunderbird")
    run.find("#create-password").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "new-password"), "creating an app password shows it")
    password = run.find("#new-password").get_attribute("value")
    run.check(re.fullmatch(r"[a-z2-9]{5}(-[a-z2-9]{5}){4}", password) is not None, "the password is a lookup id and four secret groups of five letters")
    run.check("shown only this once" in run.find(".new-password").text, "the page says the password is shown once")
    copy = run.find("button[data-copy='new-password']")
    copy.click()
    run.wait_for(lambda: copy.text == "Copied", "the copy button says it copied")
    run.screen("settings-app-password")
    run.open("/settings")
    run.check("Thunderbird" in run.find("#app-passwords table").text, "the app password is listed")
    run.check(password not in run.driver.page_source, "the list does not show the password again")


def easy_setup(run) -> None:
    run.open("/settings#easy-setup")
    run.find("#setup-name").send_keys("Sara's iPhone")
    run.find("#create-setup-link").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "setup-url"), "creating a setup link shows it")
    link = run.find("#setup-url").get_attribute("value")
    run.check(link.startswith(run.base + "/setup/") and link.endswith(".mobileconfig"), f"the link is absolute ({link})")
    run.check(run.find("#download-profile").get_attribute("href") == link, "Download profile opens the link")
    run.check(bool(run.driver.find_elements(By.CSS_SELECTOR, ".qr svg")), "the link is shown as a QR code (inline SVG)")
    run.screen("settings-easy-setup")


def notification_choices(run) -> None:
    run.open("/settings#notification-settings")
    box = run.find("#push-reminder")
    was = box.is_selected()
    box.click()
    run.find("#save-notifications").click()
    run.wait_for(lambda: "notification choices are saved" in run.find("main").text, "saving notification choices says so")
    run.check(run.find("#push-reminder").is_selected() != was, "the changed choice is kept")


def arabic(run) -> None:
    run.open("/settings")
    Select(run.find("#language")).select_by_value("ar")
    run.find("#save-profile").click()
    run.wait_for(lambda: run.find("html").get_attribute("dir") == "rtl", "choosing Arabic reloads settings right to left")
    run.check(run.find("h1").text == "الإعدادات", "settings speak Arabic")
    nav, body = run.find(".settings-nav"), run.find(".settings-body")
    run.check(nav.location["x"] > body.location["x"], "in Arabic the section list is on the right")
    run.screen("settings-arabic")
    # Back to English and no Hijri date, as the flows after this one expect.
    answer = run.api("PATCH", "/api/v1/me", {"language": "en", "showHijri": False})
    run.check(answer["status"] == 200, f"the API takes the language and the Hijri preference back ({answer['status']})")


def sign_out_everywhere(run) -> None:
    """Last of all flows: ends every session, this browser's too."""
    run.open("/settings#sign-out")
    button = run.find("#sign-out-everywhere")
    run.check("danger" in button.get_attribute("class"), "Sign out everywhere is the red button")
    button.click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "confirm-sign-out-everywhere"), "Sign out everywhere asks first")
    run.screen("settings-sign-out-everywhere")
    run.find("#confirm-sign-out-everywhere").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "form[action='/signin/email']"), "signed out, the sign-in page is shown")
    run.open("/settings")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "form[action='/signin/email']"), "settings now needs signing in again")


FLOWS = [profile, app_password, easy_setup, notification_choices, arabic]
LAST = [sign_out_everywhere]

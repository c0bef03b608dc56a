"""Owning one's account in a real browser: the first-run guide walked by keyboard alone in
English and Arabic, Settings → Your account and data (a new address confirmed from the emailed
link, the export), the privacy page in both languages, the calendar name beside every chip's
colour, and deleting an account. axe runs on every screen.

`delete_account` signs in an account of its own and deletes it, after every other flow (LAST).
"""
from __future__ import annotations

import json
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from flows.keyboard import keys, press, type_into


def link_in_log(run, path: str, after: int) -> str | None:
    deadline = time.time() + 30
    pattern = re.compile(r"(http://127\.0\.0\.1:\d+" + re.escape(path) + r"\?token=[A-Za-z0-9_-]+)")
    while time.time() < deadline:
        links = pattern.findall(run.log_path.read_text(errors="replace"))
        if len(links) > after:
            return links[-1]
        time.sleep(0.25)
    return None


def links_in_log(run, path: str) -> int:
    return len(re.findall(re.escape(path) + r"\?token=", run.log_path.read_text(errors="replace")))


def first_run_arabic(run) -> None:
    """The guide reopened from settings, its first steps in Arabic (right to left), then skipped."""
    run.open("/settings/account")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "open-guide"), "Your account and data links to the guide")
    press(run, "#open-guide")
    run.wait_for(lambda: run.driver.current_url.endswith("/welcome"), "the guide opens from settings")
    run.check(run.find("#step-count").text == "Step 1 of 7", "the guide starts at its first step")
    run.screen("welcome-language")
    # Arabic by keyboard: an arrow key moves between the radio buttons, Enter on the button saves.
    press(run, "#language-en", key=Keys.ARROW_DOWN)
    run.wait_for(lambda: run.find("#language-ar").is_selected(), "the arrow key chooses Arabic")
    press(run, "#save-step")
    run.wait_for(lambda: run.find("html").get_attribute("dir") == "rtl", "saving Arabic turns the guide right to left")
    run.check("step=zone" in run.driver.current_url and run.find("#step-count").text == "الخطوة 2 من 7", "in Arabic, the guide goes on to the time zone")
    steps = run.driver.find_elements(By.CSS_SELECTOR, ".welcome-steps a")
    run.check(steps[0].location["x"] > steps[-1].location["x"], "in Arabic the steps run right to left")
    run.screen("welcome-zone-arabic")
    run.open("/welcome?step=place")
    run.wait_for(lambda: "الرياض" in run.find("#place-proposal").text or "UTC" in run.find("#place-proposal").text,
                 "the place step speaks Arabic")
    run.screen("welcome-place-arabic")
    # The other steps, right to left too: the phone's setup link drawn as a QR code, chats, notifications.
    run.open("/welcome?step=phone")
    run.check(run.find("#step-count").text == "الخطوة 4 من 7" and run.find("#step-title").text == "هاتفك", "the phone step speaks Arabic")
    run.screen("welcome-phone-arabic")
    press(run, "#make-setup-link")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".qr svg"), "in Arabic, the setup link is shown as a QR code")
    run.check(run.find("html").get_attribute("dir") == "rtl" and run.find("#setup-url").get_attribute("dir") == "ltr",
              "the page stays right to left, the link itself left to right")
    run.screen("welcome-phone-link-arabic")
    press(run, "#next-step")
    run.wait_for(lambda: "step=chats" in run.driver.current_url, "in Arabic, the phone step goes on to chats")
    run.check(run.find("#step-title").text == "المحادثات" and run.find("#open-chats").text == "اربط واتساب", "the chats step speaks Arabic")
    run.screen("welcome-chats-arabic")
    press(run, "#next-step")
    run.wait_for(lambda: "step=planner" in run.driver.current_url, "in Arabic, the chats step goes on to the planner's questions")
    run.check(run.find("#step-title").text == "أيامك" and run.find("html").get_attribute("dir") == "rtl", "the planner step speaks Arabic")
    run.screen("welcome-planner-arabic")
    press(run, "#next-step")
    run.wait_for(lambda: "step=notifications" in run.driver.current_url, "in Arabic, the planner step goes on to notifications")
    run.check(run.find("#step-title").text == "الإشعارات" and run.find("#save-step").text == "احفظ وأنهِ", "the notifications step speaks Arabic")
    run.screen("welcome-notifications-arabic")
    press(run, "#skip-guide")
    run.wait_for(lambda: "/calendar" in run.driver.current_url, "Skip the guide opens the calendar")
    answer = run.api("GET", "/api/v1/first-run")
    run.check('"state":"skipped"' in answer["body"], f"the skip is remembered ({answer['body'][:80]})")
    # Your account and data, right to left.
    run.open("/settings/account")
    run.check(run.find("html").get_attribute("dir") == "rtl" and run.find("h1").text == "حسابك وبياناتك", "Your account and data in Arabic")
    run.screen("account-arabic")
    run.open("/settings/account/delete")
    run.check(run.find("#confirm-delete").text == "احذف حسابي وكل ما فيه", "the deletion page in Arabic")
    run.screen("account-delete-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


def first_run_keyboard(run) -> None:
    """Every step of the guide in English, by keyboard alone."""
    run.open("/welcome?step=zone")
    zone = run.find("#timeZone")
    browser_zone = run.driver.execute_script("return Intl.DateTimeFormat().resolvedOptions().timeZone")
    run.check(zone.get_attribute("value") == browser_zone, f"the zone is proposed from the browser ({browser_zone})")
    run.check(run.find("#timeZone-proposal").is_displayed() and browser_zone in run.find("#timeZone-proposal").text,
              "the page says the zone came from the browser")
    run.screen("welcome-zone")
    # Typing on a focused list picks the zone; Tab to the button, Enter saves.
    press(run, "#timeZone", key="Asia/Riyadh")
    run.wait_for(lambda: run.find("#timeZone").get_attribute("value") == "Asia/Riyadh", "typing chooses Asia/Riyadh")
    saved = run.api("GET", "/api/v1/prayer-settings")["status"] == 200
    press(run, "#save-step")
    run.wait_for(lambda: "step=place" in run.driver.current_url, "the zone step goes on to prayer times")
    if saved:  # another flow set a place: the guide keeps it unless a city is typed
        run.check("saved already" in run.find("#place-proposal").text, "a place saved before is shown, to keep or change")
    else:
        run.check("Riyadh" in run.find("#place-proposal").text and run.find("#city").get_attribute("value") == "Riyadh, SA",
                  "the place is proposed from the zone, waiting to be confirmed")
    run.screen("welcome-place")
    press(run, "#save-step")
    run.wait_for(lambda: "step=phone" in run.driver.current_url, "confirming the place goes on to the phone")
    answer = run.api("GET", "/api/v1/prayer-settings")
    run.check(answer["status"] == 200 and (saved or "Riyadh" in answer["body"]), "the confirmed place is saved")
    press(run, "#make-setup-link")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".qr svg"), "the setup link is shown as a QR code")
    run.screen("welcome-phone")
    press(run, "#next-step")
    run.wait_for(lambda: "step=chats" in run.driver.current_url, "the phone step goes on to chats")
    run.screen("welcome-chats")
    press(run, "#next-step")
    run.wait_for(lambda: "step=planner" in run.driver.current_url, "the chats step goes on to the planner's questions")
    press(run, "#next-step")
    run.wait_for(lambda: "step=notifications" in run.driver.current_url, "the planner step goes on to notifications")
    run.screen("welcome-notifications")
    press(run, "#push-reminder", key=Keys.SPACE)
    press(run, "#save-step")
    run.wait_for(lambda: "/calendar" in run.driver.current_url, "finishing the guide opens the calendar")
    answer = run.api("GET", "/api/v1/first-run")
    run.check('"state":"completed"' in answer["body"], "finishing is remembered")


def account_data(run) -> None:
    run.open("/settings")
    run.find(".settings-nav a[href='/settings/account']").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "address"), "Settings → Your account and data opens")
    run.screen("account")
    # A bad address is refused beside its field.
    type_into(run, "#new-email", "not an address")
    press(run, "#change-address")
    run.wait_for(lambda: "Enter an email address" in run.find("#email-error").text, "a bad address is refused beside the field")
    run.check(run.find("#new-email").get_attribute("aria-invalid") == "true", "the field is marked invalid")
    run.screen("account-bad-address")
    before = links_in_log(run, "/account/email")
    type_into(run, "#new-email", "sara.new@example.com")
    press(run, "#change-address")
    run.wait_for(lambda: "on its way" in run.find("#account-status").text, "asking for a new address says a link is on its way")
    link = link_in_log(run, "/account/email", before)
    if run.check(link is not None, "the confirmation link is emailed (the log mailer's output)"):
        run.driver.get(link)
        run.wait_for(lambda: "sara.new@example.com" in run.find("#link-question").text, "the link's page names the new address")
        run.screen("account-confirm-address")
        press(run, "#confirm-link")
        run.wait_for(lambda: run.driver.find_elements(By.ID, "link-done"), "confirming changes the address")
        run.open("/settings/account")
        run.check(run.find("#current-address").text == "sara.new@example.com", "the account signs in with the new address")
        # Back, so the flows after this one find the address they know.
        before = links_in_log(run, "/account/email")
        type_into(run, "#new-email", "sara@example.com")
        press(run, "#change-address")
        back = link_in_log(run, "/account/email", before)
        if back:
            run.driver.get(back)
            run.find("#confirm-link").click()
            run.wait_for(lambda: run.driver.find_elements(By.ID, "link-done"), "and back again")
    # The export, fetched as the download link does.
    answer = run.driver.execute_async_script(
        """const done = arguments[0];
        fetch('/settings/account/export').then(async r => done({status: r.status, type: r.headers.get('content-type'),
            size: (await r.arrayBuffer()).byteLength}), e => done({status: 0, type: String(e), size: 0}));""")
    run.check(answer["status"] == 200 and answer["type"] == "application/zip" and answer["size"] > 500, f"Download everything gives a zip ({answer})")


def privacy(run) -> None:
    run.open("/settings/account")
    press(run, "#privacy-link")
    run.wait_for(lambda: run.driver.current_url.endswith("/privacy"), "the privacy page opens from the account page")
    run.check(re.search(r"at most \d+ days", run.find("#retention-chats").text) is not None, "the privacy page gives the chat retention that applies")
    run.screen("privacy")
    run.open("/privacy?lang=ar")
    run.check(run.find("html").get_attribute("dir") == "rtl" and run.find("h1").text == "الخصوصية", "the privacy page in Arabic, right to left")
    run.screen("privacy-arabic")


def colour_cues(run) -> None:
    """Every chip names its calendar beside its colour: a tooltip, and text in the agenda."""
    run.open("/calendar")
    calendars = json.loads(run.api("GET", "/api/v1/calendars")["body"])["calendars"]
    personal = next(c["id"] for c in calendars if c["slug"] == "personal")
    today = run.driver.execute_script("const d = new Date(); return d.toISOString().slice(0, 10);")
    answer = run.api("POST", f"/api/v1/calendars/{personal}/events",
                     {"title": "Tea with Noor", "start": f"{today}T16:00", "end": f"{today}T17:00"})
    run.check(answer["status"] == 201, f"an event to look at ({answer['status']} {answer['body'][:120]})")
    # The views are redrawn live when the jobs the new event queued finish: read them again then.
    run.open("/calendar?view=month")
    titles = run.again_if_redrawn(lambda: [chip.get_attribute("title") for chip in run.driver.find_elements(By.CSS_SELECTOR, "table.month .item")])
    run.check(titles and all(titles), "every month chip names its calendar (title)")
    run.open("/calendar?view=agenda")
    names = run.again_if_redrawn(lambda: [e.text for e in run.driver.find_elements(By.CSS_SELECTOR, ".agenda-items .item .cal-name")])
    run.check(names and all(name.startswith("· ") for name in names), f"the agenda shows each event's calendar by name ({names[:3]})")
    run.screen("agenda-calendar-names")


def delete_account(run) -> None:
    """Last: an account of its own, signed in, through the guide's skip, deleted by typing its address."""
    before = len(re.findall(r"/auth/magic\?token=", run.log_path.read_text(errors="replace")))
    run.open("/")
    if run.driver.find_elements(By.CSS_SELECTOR, "header form[action='/signout'] button"):
        run.find("header form[action='/signout'] button").click()  # still signed in when run alone (--only)
        run.wait_for(lambda: run.driver.find_elements(By.ID, "email"), "signed out first")
    run.find("#email").send_keys("leaving@example.com")
    run.find("form[action='/signin/email'] button").click()
    link = run.magic_link("leaving@example.com", before)
    if not run.check(link is not None, "a sign-in link for the account to delete"):
        return
    run.driver.get(link)
    run.wait_for(lambda: run.driver.current_url.endswith("/welcome"), "a first sign-in opens the first-run guide")
    press(run, "#skip-guide")
    run.wait_for(lambda: "/calendar" in run.driver.current_url, "skipped, the calendar opens")
    run.open("/settings/account")
    press(run, "#delete-account")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "confirm-email"), "Delete my account asks first")
    run.check("3 calendars" in run.find("#delete-list").text, "the page says what goes")
    run.screen("account-delete")
    type_into(run, "#confirm-email", "someone@example.com")
    press(run, "#confirm-delete")
    run.wait_for(lambda: "Type leaving@example.com" in run.find("#confirm-email-error").text, "another address is refused beside the field")
    run.screen("account-delete-mismatch")
    type_into(run, "#confirm-email", "leaving@example.com")
    keys(run, Keys.ENTER)
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-done"), "typing the address deletes the account")
    run.screen("account-deleted")
    run.open("/settings")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "form[action='/signin/email']"), "deleted, the browser is signed out")
    deadline = time.time() + 15
    while time.time() < deadline and "Your Jadwal account was deleted" not in run.log_path.read_text(errors="replace"):
        time.sleep(0.25)
    run.check("Your Jadwal account was deleted" in run.log_path.read_text(errors="replace"), "a last email says the account was deleted")


FLOWS = [first_run_arabic, first_run_keyboard, account_data, privacy, colour_cues]
LAST = [delete_account]

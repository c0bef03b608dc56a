"""Settings → Connect WhatsApp → Link with phone number in the browser, with the server's bridge
replaying a recorded link: a wrong number said beside the field, the code and the steps, the page
following the state to linked on its own, the replayed chat listed, and unlinking. Then the same
with a QR code instead: the code drawn on the page, and the page following it to linked. A code
that expires: the page says so by itself and "Try again" gets a fresh code. Then all of it in
Arabic, right to left, by keyboard, with axe on every screen."""
from __future__ import annotations

import json
import sqlite3
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

from flows.keyboard import press, type_into


def link_whatsapp(run) -> None:
    run.open("/settings/whatsapp")
    if not run.whatsapp_python:
        run.check("does not run the WhatsApp bridge" in run.find("#link").text, "without the bridge the section says the server does not offer linking")
        return
    run.find("#link-phone").send_keys("0501234567")
    run.find("#link-button").click()
    run.wait_for(lambda: run.find("#link-phone").get_attribute("aria-invalid") == "true", "a number without its country code is refused beside the field")
    run.check("country code" in run.find("#link-phone-error").text, "the field's problem says what is missing")
    field = run.find("#link-phone")
    field.clear()
    field.send_keys("+966 50 123 4567")
    run.find("#link-button").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-code"), "asking for a code shows WhatsApp's code", timeout=30)
    run.check(run.find("#link-code").text == "JDWL-2026", f"the code is shown as WhatsApp groups it ({run.find('#link-code').text})")
    run.check(len(run.driver.find_elements(By.CSS_SELECTOR, ".link-steps li")) == 4, "the steps to enter it are listed")
    run.screen("whatsapp-link-code")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-linked"), "the page follows the link to linked by itself", timeout=30)
    run.check("+966501234567" in run.find("#link-linked").text, "the linked number is named")
    run.wait_for(lambda: (run.open("/settings/whatsapp") or True) and "966500000002@s.whatsapp.net" in run.find("main").text,
                 "the replayed chat is listed among the chats", timeout=20)
    run.screen("whatsapp-linked")
    run.find("#link-unlink").click()
    alert = run.driver.switch_to.alert
    alert.accept()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-form"), "unlinking brings back the number form")


def link_whatsapp_with_qr(run) -> None:
    if not run.whatsapp_python:
        return
    run.open("/settings/whatsapp")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-qr-button"), "the QR-code alternative is offered beside the number form")
    run.find("#link-qr-button").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "#link-qr svg"), "asking for a QR code draws WhatsApp's code", timeout=30)
    svg = run.find("#link-qr svg")
    run.check(svg.get_attribute("role") == "img" or bool(svg.find_elements(By.TAG_NAME, "title")), "the QR code has an accessible name")
    run.check(len(run.driver.find_elements(By.CSS_SELECTOR, ".link-steps li")) == 3, "the steps to scan it are listed")
    run.screen("whatsapp-link-qr")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-linked"), "the page follows the scanned code to linked by itself", timeout=30)
    run.find("#link-unlink").click()
    run.driver.switch_to.alert.accept()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-form"), "unlinking brings back the forms")


def _link(run) -> dict:
    return json.loads(run.api("GET", "/api/v1/whatsapp/link")["body"])


def _ask_for_code(run, number: str) -> bool:
    type_into(run, "#link-phone", number)
    press(run, "#link-button")
    return run.wait_for(lambda: run.driver.find_elements(By.ID, "link-code"), "asking for a code shows WhatsApp's code", timeout=30)


def _expire_code(run, account_id: str) -> None:
    """The code's three minutes pass: the server keeps no clock a test can move, so its expiry
    time is set in the past in the server's database, and the server, asked for the link, finds
    it expired by its own rule. Done as soon as the code shows, well before the replayed pairing
    (six seconds after the code)."""
    db = sqlite3.connect(run.data / "data" / "jadwal.sqlite", timeout=10)
    try:
        with db:
            moved = db.execute("UPDATE whatsapp_links SET expires_at = ? WHERE account_id = ? AND state = 'waiting'",
                               (int(time.time() * 1000) - 1000, account_id.upper())).rowcount
    finally:
        db.close()
    link = _link(run)
    run.check(moved == 1 and link["state"] == "expired", f"the code's time is past and the server calls it expired ({moved}, {link})")


def _expired_then_again(run, expired_text: str, try_again: str, name: str) -> None:
    """With a code showing: it expires, the page says so by itself, and "Try again" gets a fresh one."""
    first = _link(run)
    _expire_code(run, json.loads(run.api("GET", "/api/v1/me")["body"])["id"])
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-form") and expired_text in run.find("#link [role=alert]").text,
                 "the page follows the code to expired by itself and says so", timeout=15)
    run.check(run.find("#link-button").text == try_again, f"the form's button offers to try again ({run.find('#link-button').text})")
    run.check(run.find("#link-phone").get_attribute("value") == "+966501234567", "the number is kept for trying again")
    run.screen(name)
    press(run, "#link-button")
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-code"), "Try again shows a code again", timeout=30)
    again = _link(run)
    fresh = again["state"] == "waiting" and again["code"] and again["expiresAt"] > first["expiresAt"]
    run.check(bool(fresh), f"the code is a fresh one, with a later expiry ({first['expiresAt']} → {again.get('expiresAt')})")


def _unlink(run) -> None:
    press(run, "#link-unlink")
    WebDriverWait(run.driver, 5).until(expected_conditions.alert_is_present())
    run.driver.switch_to.alert.accept()  # the browser's own confirm dialog
    run.wait_for(lambda: run.driver.find_elements(By.ID, "link-form"), "unlinking brings back the number form")


def link_expired(run) -> None:
    if not run.whatsapp_python:
        return
    run.open("/settings/whatsapp")
    if _ask_for_code(run, "+966 50 123 4567"):
        _expired_then_again(run, "The code expired before it was entered", "Try again", "whatsapp-link-expired")
        run.wait_for(lambda: run.driver.find_elements(By.ID, "link-linked"), "the fresh code is followed to linked", timeout=30)
        _unlink(run)


def link_whatsapp_arabic(run) -> None:
    """The whole linking flow in Arabic, right to left, by keyboard: the form, a wrong number, the
    code, an expired code tried again, linked, unlinked; then the QR code."""
    if not run.whatsapp_python:
        return
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    try:
        run.open("/settings/whatsapp")
        run.check(run.find("html").get_attribute("dir") == "rtl" and run.find("#link-title").text == "الربط برقم الهاتف",
                  "the linking section speaks Arabic, right to left")
        run.check(run.find("#link-phone").get_attribute("dir") == "ltr", "the number is typed left to right")
        run.screen("whatsapp-link-arabic")
        type_into(run, "#link-phone", "0501234567")
        press(run, "#link-button")
        run.wait_for(lambda: run.find("#link-phone").get_attribute("aria-invalid") == "true", "in Arabic, a number without its country code is refused")
        run.check("رمز الدولة" in run.find("#link-phone-error").text, "the field's problem is said in Arabic")
        run.screen("whatsapp-link-error-arabic")
        if not _ask_for_code(run, "+966 50 123 4567"):
            return
        run.check(run.find("#link-code").get_attribute("dir") == "ltr" and run.find("#link-code").text == "JDWL-2026",
                  "the code reads left to right inside the Arabic page")
        steps = [li.text for li in run.driver.find_elements(By.CSS_SELECTOR, ".link-steps li")]
        run.check(len(steps) == 4 and steps[0] == "افتح واتساب على هاتفك.", f"the steps are in Arabic ({steps[:1]})")
        run.screen("whatsapp-link-code-arabic")
        _expired_then_again(run, "انتهت صلاحية الرمز", "حاول مجددًا", "whatsapp-link-expired-arabic")
        run.wait_for(lambda: run.driver.find_elements(By.ID, "link-linked"), "in Arabic, the page follows the link to linked", timeout=30)
        run.check("مرتبط بواتساب" in run.find("#link-linked").text, "linked, in Arabic")
        run.screen("whatsapp-linked-arabic")
        _unlink(run)

        press(run, "#link-qr-button")
        run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, "#link-qr svg"), "in Arabic, a QR code is drawn", timeout=30)
        title = run.driver.execute_script("const t = document.querySelector('#link-qr svg title'); return t ? t.textContent : ''")
        run.check(title == "رمز QR لربط واتساب", f"the QR code is named in Arabic ({title!r})")
        run.screen("whatsapp-link-qr-arabic")
        run.wait_for(lambda: run.driver.find_elements(By.ID, "link-linked"), "in Arabic, the scanned code is followed to linked", timeout=30)
        _unlink(run)
    finally:
        run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [link_whatsapp, link_whatsapp_with_qr, link_expired, link_whatsapp_arabic]

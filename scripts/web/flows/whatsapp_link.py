"""Settings → Connect WhatsApp → Link with phone number in the browser, with the server's bridge
replaying a recorded link: a wrong number said beside the field, the code and the steps, the page
following the state to linked on its own, the replayed chat listed, and unlinking. Then the same
with a QR code instead: the code drawn on the page, and the page following it to linked."""
from __future__ import annotations

from selenium.webdriver.common.by import By


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


FLOWS = [link_whatsapp, link_whatsapp_with_qr]

"""Settings → Prayer times and Settings → Connect WhatsApp in the browser: set the prayer method
and city and see the times; import a WhatsApp export through the file input with the progress
bar, see the summary, and see the extracted event in the calendar (English and Arabic)."""
from __future__ import annotations

import datetime
import json
import tempfile
from pathlib import Path
from zoneinfo import ZoneInfo

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

ZONE = "Asia/Riyadh"


def prayer_times(run) -> None:
    answer = run.api("PATCH", "/api/v1/me", {"timeZone": ZONE})
    run.check(answer["status"] == 200, f"the profile takes the Riyadh time zone ({answer['status']})")
    run.open("/settings/prayer")
    run.check("not said where you pray" in run.find("main").text, "before saving, the prayer page says no place is set")
    run.find("#city-search").send_keys("Jed")
    run.find("form.prayer-search button").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".city-matches a"), "the city search lists matches")
    run.screen("prayer-search")
    run.driver.find_element(By.LINK_TEXT, "Jeddah").click()
    run.wait_for(lambda: run.find("#city").get_attribute("value") == "Jeddah, SA", "picking a match fills the city field")
    Select(run.find("#method")).select_by_value("UmmAlQura")
    Select(run.find("#madhab")).select_by_value("Shafi")
    run.find("#prayer-save").click()
    run.wait_for(lambda: "saved=1" in run.driver.current_url, "saving goes back to the page with a status")
    times = run.driver.find_elements(By.CSS_SELECTOR, "#prayer-today time")
    run.check(len(times) == 6, f"today's five prayers and sunrise are shown ({len(times)})")
    api = json.loads(run.api("GET", "/api/v1/prayer-times")["body"])
    today = api["days"][0]["times"]
    shown = [t.get_attribute("datetime") for t in times]
    expected = [today[name] for name in ("fajr", "sunrise", "dhuhr", "asr", "maghrib", "isha")]
    run.check(shown == expected, f"the page's times are the API's ({shown} vs {expected})")
    run.check(len(run.driver.find_elements(By.CSS_SELECTOR, "table.prayer-week tbody tr")) == 7, "the week table has seven days")
    run.screen("prayer-times")

    # Use my location: granted (the browser's position set to Madinah), then the times follow it.
    run.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": run.base, "permissions": ["geolocation"]})
    run.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 24.4672, "longitude": 39.6112, "accuracy": 50})
    run.open("/settings/prayer")
    button = run.find("#use-location")
    run.check(button.is_displayed(), "the Use my location button is shown when the browser can locate")
    button.click()
    run.wait_for(lambda: run.find("#latitude").get_attribute("value") == "24.4672", "Use my location fills the latitude")
    run.check(run.find("#place-coordinates").is_selected(), "Use my location switches to coordinates")
    run.set_value("#timeZone", ZONE)  # the browser's own zone is UTC here
    Select(run.find("#method")).select_by_value("Egyptian")
    run.find("#prayer-save").click()
    run.wait_for(lambda: "saved=1" in run.driver.current_url, "coordinates are saved")
    settings = json.loads(run.api("GET", "/api/v1/prayer-settings")["body"])
    run.check(settings["method"] == "Egyptian" and abs(settings["latitude"] - 24.4672) < 1e-6, f"the API has the new method and place ({settings})")
    # Refused: the page says so and fills nothing.
    run.driver.execute_cdp_cmd("Browser.resetPermissions", {})
    run.driver.execute_cdp_cmd("Browser.setPermission", {"origin": run.base, "permission": {"name": "geolocation"}, "setting": "denied"})
    run.open("/settings/prayer")
    run.find("#use-location").click()
    run.wait_for(lambda: "was not shared" in run.find("#location-status").text, "a refused location is said on the page")
    run.check(run.find("#latitude").get_attribute("value").startswith("24.4672"), "a refused location changes no field")
    # Bad input is answered beside the field.
    run.find("#place-city").click()
    city = run.find("#city")
    city.clear()
    city.send_keys("Atlantis")
    run.find("#prayer-save").click()
    run.wait_for(lambda: "No city of that name" in run.find("#city-error").text, "an unknown city is answered beside the field")
    run.find("main .form-error a").click()  # the note at the top leads to the field
    run.screen("prayer-error")
    # The subscription link.
    run.find("#make-feed").click()
    run.wait_for(lambda: run.driver.find_elements(By.ID, "feed-webcal"), "the subscription link is made")
    run.check(run.find("#feed-webcal").get_attribute("value").startswith("webcal://"), "the link is a webcal:// address")
    run.driver.execute_script("document.getElementById('prayer-feed-title').scrollIntoView()")
    run.screen("prayer-feed")


def export_file(folder: Path, name: str, lines: list[str]) -> Path:
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def upload(run, path: Path, me: str = "") -> None:
    run.find("#export-file").send_keys(str(path))
    field = run.find("#me-name")
    field.clear()
    if me:
        field.send_keys(me)
    run.find("#import-button").click()


def whatsapp(run) -> None:
    # Written for today: messages just after midnight in Riyadh, agreeing on dinner tomorrow.
    today = datetime.datetime.now(ZoneInfo(ZONE)).date()
    tomorrow = today + datetime.timedelta(days=1)
    day = today.strftime("%d/%m/%Y")
    folder = Path(tempfile.mkdtemp(prefix="jadwal-exports-"))
    english = export_file(folder, "WhatsApp Chat with Layla.txt", [
        f"{day}, 00:01 - Layla Hassan: Dinner tomorrow at 8pm at Najd Village?",
        f"{day}, 00:02 - Sara Q.: Deal 👍",
    ])
    arabic = export_file(folder, "WhatsApp Chat with أبو فهد.txt", [
        f"[{day}, 12:01:10 AM] أبو فهد: نتعشى بكرة الساعة ٩ بالليل؟",
        f"[{day}, 12:02:45 AM] سارة: تمام",
    ])
    run.open("/settings/whatsapp")
    run.screen("whatsapp")
    # The chat shows "Sara Q.", not the profile's name: the page asks which participant is you.
    upload(run, english)
    run.wait_for(lambda: run.find("#me-choices").is_displayed(), "the participants are offered when the server cannot tell who you are")
    run.check("none has your profile's name" in run.find("#import-result").text, "the page says why it asks")
    run.screen("whatsapp-who-are-you")
    run.find("label[for='me-1']").click()
    run.find("#import-button").click()
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".import-summary"), "the import's summary is shown")
    run.check(run.find("#import-progress").get_attribute("value") == "100", "the progress bar ran to the end")
    summary = run.find(".import-summary").text
    run.check("Agreed" in summary and "Added" in summary and "Dinner" in summary, f"the summary names the agreed dinner ({summary!r})")
    run.wait_for(lambda: "Layla Hassan" in run.find("#chats").text, "the chat is listed without reloading")
    run.driver.execute_script("document.querySelector('.import-summary').scrollIntoView()")
    run.screen("whatsapp-summary")
    run.find(".summary-events a").click()
    run.wait_for(lambda: f"date={tomorrow.isoformat()}" in run.driver.current_url, "the summary links to the event's week")
    run.check("Dinner" in run.find(".timegrid").text, "the extracted event appears in the calendar")
    event = [item for item in run.driver.find_elements(By.CSS_SELECTOR, ".timegrid .item") if "Dinner" in item.text]
    if event:
        run.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", event[0])
    run.screen("whatsapp-event-in-week")

    # Arabic: the page in Arabic, an Arabic export with the name typed in.
    run.api("PATCH", "/api/v1/me", {"language": "ar"})
    run.open("/settings/whatsapp")
    run.check(run.find("html").get_attribute("dir") == "rtl", "the WhatsApp page is right to left in Arabic")
    upload(run, arabic, me="سارة")
    run.wait_for(lambda: run.driver.find_elements(By.CSS_SELECTOR, ".import-summary"), "the Arabic export is imported")
    run.check("متفق عليه" in run.find(".import-summary").text, "the Arabic summary says the plan was agreed")
    run.driver.execute_script("document.querySelector('.import-summary').scrollIntoView()")
    run.screen("whatsapp-arabic")
    run.find(".summary-events a").click()
    run.wait_for(lambda: "view=week" in run.driver.current_url, "the Arabic summary links to the week")
    run.open("/settings/prayer")
    run.check("مواقيت الصلاة" in run.find("h1").text, "the prayer page speaks Arabic")
    run.screen("prayer-arabic")
    run.api("PATCH", "/api/v1/me", {"language": "en"})


FLOWS = [prayer_times, whatsapp]

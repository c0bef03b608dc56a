-- wrk script: each request PUTs a new event (distinct name and UID) into one calendar, the way a
-- client uploads a calendar. One event in ten recurs weekly; all are in Asia/Riyadh with its
-- VTIMEZONE, like the CalDAV benchmark's data. Set CALENDAR and AUTH in the environment.
local calendar = os.getenv("CALENDAR")
local auth = os.getenv("AUTH")
local thread_counter = 0
local vtimezone = "BEGIN:VTIMEZONE\r\nTZID:Asia/Riyadh\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0300\r\nTZOFFSETTO:+0300\r\nTZNAME:+03\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"

function setup(thread)
    thread_counter = thread_counter + 1
    thread:set("prefix", "w" .. thread_counter)
end

local counter = 0
function request()
    counter = counter + 1
    local uid = prefix .. "-" .. counter
    local day = counter % 700
    local month = 1 + math.floor(day / 28) % 12
    local date = string.format("2026%02d%02dT%02d0000", month, 1 + day % 28, 8 + counter % 10)
    local rrule = (counter % 10 == 0) and "RRULE:FREQ=WEEKLY;COUNT=10\r\n" or ""
    local body = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Jadwal bench//EN\r\n" .. vtimezone ..
        "BEGIN:VEVENT\r\nUID:" .. uid .. "@bench\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;TZID=Asia/Riyadh:" .. date ..
        "\r\nDURATION:PT1H\r\nSUMMARY:Meeting " .. uid .. "\r\n" .. rrule .. "END:VEVENT\r\nEND:VCALENDAR\r\n"
    return wrk.format("PUT", calendar .. uid .. ".ics",
        { ["Content-Type"] = "text/calendar; charset=utf-8", ["Authorization"] = auth, ["If-None-Match"] = "*" }, body)
end

function done(summary, latency, requests)
    io.write(string.format("PUT %d events in %.1f s: %.0f events/s, p50 %.2f ms, p99 %.2f ms, errors %d (status %d)\n",
        summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
        summary.errors.status))
end

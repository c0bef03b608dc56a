-- wrk's side of bench.py --client wrk: each wrk thread PUTs its share of the events in a file
-- (one "name<TAB>body" line each, CRLF written as \r\n), then writes DONE_PREFIX<thread> and
-- stops. A connection whose thread has nothing left to send asks OPTIONS (unauthenticated,
-- answered without the database) until the last PUT of its thread is answered.
--   wrk -t T -c C -d 3600s -s put.lua URL -- EVENTS_FILE T HOME DONE_PREFIX AUTHORIZATION
local counter = 0

function setup(thread)
    thread:set("id", counter)
    counter = counter + 1
end

local items = {}
local next_item = 0
-- wrk asks thread 0 for one request before it starts, only to count it (script_verify_request).
local verified = false
local answered = 0
local home, done_prefix

function init(args)
    local file, threads = args[1], tonumber(args[2])
    home, done_prefix = args[3], args[4]
    local n = 0
    for line in io.lines(file) do
        if n % threads == id then
            local tab = line:find("\t", 1, true)
            items[#items + 1] = { line:sub(1, tab - 1), (line:sub(tab + 1):gsub("\\r\\n", "\r\n")) }
        end
        n = n + 1
    end
    wrk.headers["Authorization"] = args[5]
    wrk.headers["Content-Type"] = "text/calendar; charset=utf-8"
end

function request()
    if id == 0 and not verified then
        verified = true
        return wrk.format("OPTIONS", home, {}, nil)
    end
    next_item = next_item + 1
    local item = items[next_item]
    if item == nil then
        return wrk.format("OPTIONS", home, {}, nil)
    end
    return wrk.format("PUT", home .. item[1], nil, item[2])
end

function response(status, headers, body)
    if status == 200 then return end  -- an OPTIONS after this thread's last PUT
    if status ~= 201 and status ~= 204 then
        local failed = io.open(done_prefix .. "failed", "a")
        failed:write(tostring(status) .. " " .. tostring(body):sub(1, 200) .. "\n")
        failed:close()
    end
    answered = answered + 1
    if answered == #items then
        local done = io.open(done_prefix .. id, "w")
        done:write("done\n")
        done:close()
        wrk.thread:stop()
    end
end

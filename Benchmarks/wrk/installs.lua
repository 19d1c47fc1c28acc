-- wrk script: GET the resolved policy with a different installId on every request (cycling over INSTALLS,
-- default 5000), so the bounded per-resolution cache is exercised rather than one warm entry.
init = function(args)
    installs = tonumber(os.getenv("INSTALLS") or "5000")
    n = 0
    base = wrk.path:gsub("installId=[^&]*", "installId=%%s")
end

request = function()
    n = n + 1
    return wrk.format(nil, string.format(base, "install-" .. (n % installs)))
end

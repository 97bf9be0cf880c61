-- fib.lua -- benchmarks/perf.sh's recursive Fibonacci: nothing but Lua calls
-- (luaV_execute, luaD_precall, luaD_poscall, ...), the cheapest work per call
-- and so the worst case for any per-call profiler.  Deterministic: prints the
-- same line for every build.
-- usage: lua fib.lua [N]   (default 35)
local n = tonumber(arg and arg[1]) or 35

local function fib(k)
	if k < 2 then return k end
	return fib(k - 1) + fib(k - 2)
end

print(string.format("fib.lua: fib(%d) = %d", n, fib(n)))

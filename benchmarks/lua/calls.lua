-- calls.lua -- a deterministic, call-heavy workload for the Lua interpreter,
-- run by benchmarks/lua.sh under aprof and under gprof to compare call counts:
-- perf.sh's workloads (fib.lua, strings.lua, parser.lua, binary-trees.lua,
-- beside this file) at smaller sizes, run in turn.
--
-- Every C function of the interpreter must be called the same number of
-- times in every run, whatever the build: the workloads use no clock, no
-- random seed (an LCG instead) and no order of pairs() that matters; lua.sh
-- fixes what the interpreter itself takes from time and addresses.  Lua
-- errors and coroutines are left out by default: both leave C functions by
-- longjmp (luaD_throw); "lua calls.lua unwind" adds them.  Each workload
-- prints its checksum, the same for every build.
--
-- usage: lua calls.lua [unwind] [scale]

local unwind = arg and arg[1] == "unwind"
local scale = tonumber(arg and arg[2]) or 1
local dir = (arg and arg[0] or ""):match("^(.*/)") or ""

-- Runs workload NAME with the arguments ... as its own arg table.
local function run(name, ...)
	local chunk = assert(loadfile(dir .. name))
	local saved = arg
	arg = { [0] = name, ... }
	chunk(...)
	arg = saved
end

-- (unwind only) Errors and coroutines: C functions left by longjmp.
local function unwinding(n)
	local bad = { "return 1 +", "return (2 * 3", "return max(1, 2", "return 4 $ 5" }
	local errors = 0
	for i = 1, n do
		if not pcall(function() return assert(load(bad[1 + i % #bad]))() end) then
			errors = errors + 1
		end
	end
	local co = coroutine.wrap(function()
		for i = 1, n do coroutine.yield(i % 7) end
	end)
	local sum = 0
	for _ = 1, n do sum = sum + co() end
	print(string.format("calls.lua: unwinding %d errors, %d", errors, sum))
end

for _ = 1, scale do
	run("fib.lua", 27)
	run("strings.lua", 1)
	run("parser.lua", 700)
	run("binary-trees.lua", 10)
	if unwind then unwinding(500) end
end

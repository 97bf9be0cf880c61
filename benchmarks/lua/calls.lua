-- calls.lua -- a deterministic, call-heavy workload for the Lua interpreter,
-- run by benchmarks/lua.sh under aprof and under gprof to compare call counts.
--
-- Every C function of the interpreter must be called the same number of
-- times in every run, whatever the build: so no clock, no random seed (an
-- LCG instead), no order of pairs() that matters, no tables as keys; lua.sh
-- fixes what the interpreter itself takes from time and addresses.  Lua
-- errors and coroutines are left out by default: both leave C functions by
-- longjmp (luaD_throw), whose exits -finstrument-functions never reports;
-- "lua calls.lua unwind" adds them.  The run prints a checksum, the same
-- for every build.
--
-- usage: lua calls.lua [unwind] [scale]

local unwind = arg and arg[1] == "unwind"
local scale = tonumber(arg and arg[2]) or 1

local sum = 0                   -- a checksum of everything computed
local function add(x) sum = (sum + x) % 1000000007 end

-- A linear congruential generator: the same numbers in every run.
local seed = 12345
local function rand(m)
	seed = (seed * 1103515245 + 12345) % 2147483648
	return seed % m
end

---------------------------------------------------------------------------
-- 1. Recursion: many small Lua calls (luaD_precall, luaV_execute, ...).
local function fib(n)
	if n < 2 then return n end
	return fib(n - 1) + fib(n - 2)
end

local function ackermann(m, n)
	if m == 0 then return n + 1 end
	if n == 0 then return ackermann(m - 1, 1) end
	return ackermann(m - 1, ackermann(m, n - 1))
end

---------------------------------------------------------------------------
-- 2. Tables and strings: the table, string and GC machinery, and C
--    functions calling back into Lua (table.sort, string.gsub).
local function word()
	local cs = {}
	for j = 1, 3 + rand(6) do cs[j] = string.char(97 + rand(26)) end
	return table.concat(cs)
end

local function tables(n)
	local w = {}
	for i = 1, n do w[i] = word() end
	table.sort(w)
	table.sort(w, function(a, b)
		if #a ~= #b then return #a < #b end
		return a > b
	end)
	-- count first letters; the keys are sorted before they are used
	local counts, keys = {}, {}
	for _, s in ipairs(w) do
		local k = s:sub(1, 1)
		if not counts[k] then counts[k] = 0; keys[#keys + 1] = k end
		counts[k] = counts[k] + 1
	end
	table.sort(keys)
	local parts = {}
	for i, k in ipairs(keys) do parts[i] = string.format("%s=%d", k, counts[k]) end
	local line = table.concat(parts, ",")
	add(#line)
	-- string library: patterns, replacement functions, case, repetition
	local text = table.concat(w, " ", 1, 400)
	local vowels = select(2, text:gsub("[aeiou]", ""))
	local caps = text:gsub("%f[%a](%a)(%a*)", function(a, b) return a:upper() .. b end)
	local n2 = 0
	for a, b in caps:gmatch("(%u)(%l+)") do n2 = n2 + #b + a:byte() end
	local rev = {}
	for i = 1, 200 do rev[i] = w[i]:reverse():rep(2, "-") end
	add(vowels + n2 + #table.concat(rev))
	-- an array used as a stack and a queue
	local q = {}
	for i = 1, n do table.insert(q, i) end
	for i = 1, n - 400 do add(table.remove(q)) end
	for i = 1, 200 do add(table.remove(q, 1)) end
	for i = 1, 100 do table.insert(q, 1, i) end
	-- tables as records, with a metatable
	local Point = {}
	Point.__index = Point
	Point.__add = function(p, r) return setmetatable({ x = p.x + r.x, y = p.y + r.y }, Point) end
	function Point.new(x, y) return setmetatable({ x = x, y = y }, Point) end
	function Point:norm1() return math.abs(self.x) + math.abs(self.y) end
	local acc = Point.new(0, 0)
	for i = 1, n do acc = acc + Point.new(rand(100) - 50, rand(100) - 50) end
	add(acc:norm1())
end

---------------------------------------------------------------------------
-- 3. A recursive-descent parser for arithmetic expressions:
--      expr   = term { ("+" | "-") term }
--      term   = factor { ("*" | "/" | "%") factor }
--      factor = unary [ "^" factor ]
--      unary  = "-" unary | atom
--      atom   = number | name [ "(" expr { "," expr } ")" ] | "(" expr ")"

local function tokenize(s)
	local toks, pos = {}, 1
	while true do
		local a, b = s:find("^%s*", pos)
		pos = b + 1
		if pos > #s then break end
		local num = s:match("^%d+", pos)
		if num then
			toks[#toks + 1] = { k = "num", v = tonumber(num) }
			pos = pos + #num
		else
			local id = s:match("^[%a_][%w_]*", pos)
			if id then
				toks[#toks + 1] = { k = "id", v = id }
				pos = pos + #id
			else
				toks[#toks + 1] = { k = s:sub(pos, pos) }
				pos = pos + 1
			end
		end
	end
	toks[#toks + 1] = { k = "eof" }
	return toks
end

local Parser = {}
Parser.__index = Parser

function Parser.new(s) return setmetatable({ toks = tokenize(s), i = 1 }, Parser) end
function Parser:peek() return self.toks[self.i].k end
function Parser:next() local t = self.toks[self.i]; self.i = self.i + 1; return t end
function Parser:expect(k)
	local t = self:next()
	if t.k ~= k then error("expected " .. k .. " near token " .. (self.i - 1), 0) end
	return t
end

function Parser:expr()
	local e = self:term()
	while self:peek() == "+" or self:peek() == "-" do
		e = { op = self:next().k, e, self:term() }
	end
	return e
end

function Parser:term()
	local e = self:factor()
	while self:peek() == "*" or self:peek() == "/" or self:peek() == "%" do
		e = { op = self:next().k, e, self:factor() }
	end
	return e
end

function Parser:factor()
	local e = self:unary()
	if self:peek() == "^" then
		self:next()
		return { op = "^", e, self:factor() }
	end
	return e
end

function Parser:unary()
	if self:peek() == "-" then
		self:next()
		return { op = "neg", self:unary() }
	end
	return self:atom()
end

function Parser:atom()
	local t = self:next()
	if t.k == "num" then return { op = "num", v = t.v } end
	if t.k == "id" then
		if self:peek() == "(" then
			self:next()
			local call = { op = "call", name = t.v }
			call[1] = self:expr()
			while self:peek() == "," do self:next(); call[#call + 1] = self:expr() end
			self:expect(")")
			return call
		end
		return { op = "var", name = t.v }
	end
	if t.k == "(" then
		local e = self:expr()
		self:expect(")")
		return e
	end
	error("unexpected " .. t.k .. " at token " .. (self.i - 1), 0)
end

local funcs = {
	max = math.max, min = math.min,
	abs = function(x) return x < 0 and -x or x end,
}

local function eval(e, env)
	local op = e.op
	if op == "num" then return e.v end
	if op == "var" then return env[e.name] end
	if op == "neg" then return -eval(e[1], env) end
	if op == "call" then
		local args = {}
		for i = 1, #e do args[i] = eval(e[i], env) end
		return funcs[e.name](table.unpack(args))
	end
	local a, b = eval(e[1], env), eval(e[2], env)
	if op == "+" then return (a + b) % 65521 end
	if op == "-" then return (a - b) % 65521 end
	if op == "*" then return (a * b) % 65521 end
	if op == "/" then return b ~= 0 and a // b or a end
	if op == "%" then return b ~= 0 and a % b or a end
	if op == "^" then return (a % 7) ^ (b % 4) // 1 end
	error("bad node " .. tostring(op))
end

local function show(e)
	local op = e.op
	if op == "num" then return tostring(e.v) end
	if op == "var" then return e.name end
	if op == "neg" then return "-(" .. show(e[1]) .. ")" end
	if op == "call" then
		local args = {}
		for i = 1, #e do args[i] = show(e[i]) end
		return e.name .. "(" .. table.concat(args, ", ") .. ")"
	end
	return string.format("(%s %s %s)", show(e[1]), op, show(e[2]))
end

-- A random expression of depth at most D, as text.
local names = { "x", "y", "z" }
local function gen(d)
	local r = rand(10)
	if d == 0 or r < 2 then
		if rand(2) == 0 then return tostring(rand(100)) end
		return names[1 + rand(3)]
	end
	if r < 3 then return "-" .. gen(d - 1) end
	if r < 4 then return "(" .. gen(d - 1) .. ")" end
	if r < 5 then
		local f = ({ "max", "min", "abs" })[1 + rand(3)]
		if f == "abs" then return "abs(" .. gen(d - 1) .. ")" end
		return f .. "(" .. gen(d - 1) .. ", " .. gen(d - 1) .. ")"
	end
	local ops = { "+", "-", "*", "/", "%", "^" }
	return gen(d - 1) .. " " .. ops[1 + rand(6)] .. " " .. gen(d - 1)
end

local function parsing(n)
	local env = { x = 3, y = 14, z = 159 }
	for i = 1, n do
		local src = gen(6)
		local ast = Parser.new(src):expr()
		local v = eval(ast, env)
		-- round trip: the printed tree parses to the same value
		local v2 = eval(Parser.new(show(ast)):expr(), env)
		assert(v == v2, src)
		add(math.tointeger(v) or 0)
	end
end

---------------------------------------------------------------------------
-- 4. (unwind only) Errors and coroutines: C functions left by longjmp.
local function unwinding(n)
	local bad = { "1 +", "(2 * 3", "max(1, 2", "4 $ 5", "((((x))))) + 1" }
	local errors = 0
	for i = 1, n do
		local ok, msg = pcall(function()
			local p = Parser.new(bad[1 + i % #bad])
			local e = p:expr()
			p:expect("eof")
			return e
		end)
		if not ok then errors = errors + 1; add(#msg) end
	end
	local gen_co = coroutine.wrap(function()
		for i = 1, n do coroutine.yield(fib(i % 12)) end
	end)
	for i = 1, n do add(gen_co()) end
	add(errors)
end

---------------------------------------------------------------------------
for round = 1, scale do
	add(fib(30))
	add(ackermann(2, 300))
	tables(10000)
	parsing(1500)
	if unwind then unwinding(500) end
end
print(string.format("calls.lua: checksum %d", sum))

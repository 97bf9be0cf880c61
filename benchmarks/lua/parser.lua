-- parser.lua -- benchmarks/perf.sh's recursive-descent parser: random
-- arithmetic expressions are printed as text, tokenized with string
-- patterns, parsed by mutually recursive functions (expr, term, factor,
-- unary, atom) into trees of tables, evaluated, printed back and parsed
-- again.  Deterministic (a linear congruential generator); prints a checksum.
--      expr   = term { ("+" | "-") term }
--      term   = factor { ("*" | "/" | "%") factor }
--      factor = unary [ "^" factor ]
--      unary  = "-" unary | atom
--      atom   = number | name [ "(" expr { "," expr } ")" ] | "(" expr ")"
-- usage: lua parser.lua [N]   (expressions, default 5000)
local count = tonumber(arg and arg[1]) or 5000

local sum = 0
local function add(x) sum = (sum + x) % 1000000007 end

local seed = 12345
local function rand(m)
	seed = (seed * 1103515245 + 12345) % 2147483648
	return seed % m
end

local function tokenize(s)
	local toks, pos = {}, 1
	while true do
		local _, b = s:find("^%s*", pos)
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

-- A random expression of depth at most d, as text.
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

local env = { x = 3, y = 14, z = 159 }
for _ = 1, count do
	local src = gen(7)
	local ast = Parser.new(src):expr()
	local v = eval(ast, env)
	-- round trip: the printed tree parses to the same value
	local v2 = eval(Parser.new(show(ast)):expr(), env)
	assert(v == v2, src)
	add(math.tointeger(v) or 0)
end
print(string.format("parser.lua: checksum %d", sum))

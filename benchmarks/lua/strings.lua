-- strings.lua -- benchmarks/perf.sh's string and table workload: building
-- words, sorting them (table.sort calling back into Lua), counting them in a
-- hash table, string.format, patterns (gsub, gmatch, find), case, rep and
-- reverse, table.concat, insert and remove: Lua's string library, its
-- string interning (luaS_*), tables (luaH_*) and the C-to-Lua call path.
-- Deterministic: a linear congruential generator, no clock, and no pairs()
-- whose order matters; prints a checksum.
-- usage: lua strings.lua [ROUNDS]   (default 10)
local rounds = tonumber(arg and arg[1]) or 10

local sum = 0
local function add(x) sum = (sum + x) % 1000000007 end

local seed = 12345
local function rand(m)
	seed = (seed * 1103515245 + 12345) % 2147483648
	return seed % m
end

local function word()
	local cs = {}
	for j = 1, 3 + rand(6) do cs[j] = string.char(97 + rand(26)) end
	return table.concat(cs)
end

local function round(n)
	local w = {}
	for i = 1, n do w[i] = word() end
	table.sort(w)
	table.sort(w, function(a, b)
		if #a ~= #b then return #a < #b end
		return a > b
	end)
	-- word frequencies, then the distinct words in order
	local counts, keys = {}, {}
	for _, s in ipairs(w) do
		local k = s:sub(1, 2)
		if not counts[k] then counts[k] = 0; keys[#keys + 1] = k end
		counts[k] = counts[k] + 1
	end
	table.sort(keys)
	local parts = {}
	for i, k in ipairs(keys) do parts[i] = string.format("%s=%d", k, counts[k]) end
	add(#table.concat(parts, ","))
	-- patterns over a long text
	local text = table.concat(w, " ", 1, 2000)
	local vowels = select(2, text:gsub("[aeiou]", ""))
	local caps = text:gsub("%f[%a](%a)(%a*)", function(a, b) return a:upper() .. b end)
	local n2 = 0
	for a, b in caps:gmatch("(%u)(%l+)") do n2 = n2 + #b + a:byte() end
	local found, pos = 0, 1
	while true do
		local s, e = text:find("a%l*e", pos)
		if not s then break end
		found = found + 1
		pos = e + 1
	end
	add(vowels + n2 + found)
	-- small strings made and dropped
	local rev = {}
	for i = 1, 1000 do rev[i] = w[i]:reverse():rep(2, "-"):upper() end
	add(#table.concat(rev))
	local csv = {}
	for i = 1, 2000 do csv[i] = string.format("%d,%s,%5.2f", i, w[i], i / 7) end
	for _, line in ipairs(csv) do
		local id, name, v = line:match("^(%d+),(%a+),%s*([%d.]+)$")
		add(tonumber(id) + #name + math.floor(tonumber(v)))
	end
	-- an array as a stack and a queue
	local q = {}
	for i = 1, n do table.insert(q, i) end
	for _ = 1, n - 400 do add(table.remove(q)) end
	for _ = 1, 200 do add(table.remove(q, 1)) end
	for i = 1, 100 do table.insert(q, 1, i) end
	add(#q)
end

for _ = 1, rounds do round(20000) end
print(string.format("strings.lua: checksum %d", sum))

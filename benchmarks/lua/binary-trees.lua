-- binary-trees.lua -- benchmarks/perf.sh's allocation workload, after the
-- Computer Language Benchmarks Game's binary-trees: many short-lived tables,
-- so the garbage collector (luaC_*, sweep and mark) and the allocator
-- (l_alloc, realloc, free) do much of the work.  Deterministic.
-- usage: lua binary-trees.lua [N]   (maximum depth, default 15)
local N = tonumber(arg and arg[1]) or 15

local function bottom_up(depth)
	if depth == 0 then return {} end
	depth = depth - 1
	return { bottom_up(depth), bottom_up(depth) }
end

local function check(tree)
	if tree[1] then return 1 + check(tree[1]) + check(tree[2]) end
	return 1
end

local mindepth = 4
local maxdepth = math.max(mindepth + 2, N)
local out = {}
do
	local stretch = maxdepth + 1
	out[#out + 1] = string.format("stretch tree of depth %d\t check: %d", stretch, check(bottom_up(stretch)))
end
local longlived = bottom_up(maxdepth)
for depth = mindepth, maxdepth, 2 do
	local iters = 2 ^ (maxdepth - depth + mindepth)
	local c = 0
	for _ = 1, iters do c = c + check(bottom_up(depth)) end
	out[#out + 1] = string.format("%d\t trees of depth %d\t check: %d", iters, depth, c)
end
out[#out + 1] = string.format("long lived tree of depth %d\t check: %d", maxdepth, check(longlived))
print("binary-trees.lua: " .. table.concat(out, "; "))

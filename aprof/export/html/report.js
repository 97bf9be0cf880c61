/*
** report.js -- the page of aprof --format=html (doc/html-report.md).
** Reads the profile that aprof wrote into #aprof-data (--format=json's
** document, doc/aprof-json.md, as "profile" but with its contexts compact:
** "paths" and "contexts" as aprof/export/html.c writes them; and "view": decimals,
** unit, scale and each routine's first line) and draws: a flame graph of the
** exact contexts (d3-flame-graph), a sandwich of one routine from the
** split arcs, a sortable flat profile, the allocated types; search, focus
** and exclude with -F's patterns; a metric and a thread switch; with
** --diff ("old"), each frame coloured by its change.  With "#selftest" in
** the address it then plays a fixed script of actions and writes what it
** saw, as JSON, into #selftest (tests/e2e-html.sh reads it).
*/
'use strict';

/* Errors seen by the page, reported by the self-test (a page that works has none). */
const pageErrors = [];
window.addEventListener('error', (e) => pageErrors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => pageErrors.push(String(e.reason)));
const consoleError = console.error;
console.error = function (...args) {
	pageErrors.push(args.map(String).join(' '));
	consoleError.apply(console, args);
};

performance.mark('aprof-start');
const DATA = JSON.parse(document.getElementById('aprof-data').textContent);
performance.mark('aprof-parsed');
const P = DATA.profile;
const VIEW = DATA.view;
const META = P.metadata;
const ROUTINES = P.routines;
const SELFTEST = location.hash === '#selftest';

/*
** A profile's contexts as aprof/export/html.c writes them (X: "paths",
** "contexts", ROUTINES their routines).  The tree of history prefixes:
** node 0 the empty history, node i > 0 its parent's (always a smaller
** index) followed by routine routine[i].  The contexts in --format=json's
** order, node their history's.  HITS: the key of a pattern's matches.
*/
function contextsOf(x, routines, hits) {
	const n = x.paths.length / 2 + 1;
	const src = { n, parent: new Int32Array(n), routine: new Int32Array(n), contexts: [], routines, hits };
	src.parent[0] = src.routine[0] = -1;
	for (let i = 1; i < n; i++) {
		src.parent[i] = x.paths[2 * i - 2];
		src.routine[i] = x.paths[2 * i - 1] >> 1;
	}
	const c = x.contexts;
	for (let i = 0; i < c.length; i += 9)
		src.contexts.push({ thread: c[i], node: c[i + 1], calls: c[i + 2], recursive: c[i + 3],
			ticks: c[i + 4], allocs: c[i + 5], bytes: c[i + 6], freed: c[i + 7], peak: c[i + 8] });
	return src;
}
const NEW = contextsOf(P, ROUTINES, 'hits');
const CONTEXTS = NEW.contexts;
const NODE_ROUTINE = NEW.routine;
/* With --diff, the old profile's contexts; frames are paired by routine names. */
const OLD = P.old ? contextsOf(P.old, P.old.routines, 'oldHits') : null;

/*
** The metrics a context carries: key, label, its value in context C, and
** how a value is shown.  Heap metrics only where the run recorded the heap.
*/
const METRICS = [
	{ key: 'time', label: 'time', value: (c) => c.ticks, show: showTime },
	{ key: 'calls', label: 'calls', value: (c) => c.calls, show: showCount },
	{ key: 'bytes', label: 'allocated bytes', heap: true, value: (c) => c.bytes, show: showBytes },
	{ key: 'allocs', label: 'allocated blocks', heap: true, value: (c) => c.allocs, show: showCount },
	{ key: 'peak', label: 'live bytes at peak', heap: true, value: (c) => c.peak, show: showBytes },
	{ key: 'kept', label: 'kept bytes (never freed)', heap: true, value: (c) => c.bytes - c.freed, show: showBytes },
].filter((m) => !m.heap || META.heap);

function showTime(ticks) {
	const s = ticks / META.ticks_per_second;
	return s.toFixed(Math.max(VIEW.decimals, 2)) + ' s';
}
function showCount(n) { return n.toLocaleString('en-US'); }
function showBytes(n) { return n.toLocaleString('en-US') + ' B'; }
function pct(part, whole) { return whole > 0 ? (100 * part / whole).toFixed(2) + '%' : '-'; }

/* A value of the profile's own metric (routines, arcs) in the text report's unit and decimals. */
function showUnit(v) { return (v / VIEW.scale).toFixed(VIEW.decimals); }

/* The page's state: what is chosen; the zoom path is a stack of frame paths. */
const state = {
	metric: METRICS[0],
	thread: -1,        /* -1: all threads */
	merged: false,     /* recursion merged (each routine once per path) */
	focus: [],         /* -F patterns, compiled */
	exclude: [],       /* -E patterns, compiled */
	search: null,      /* compiled pattern or null */
	zooms: [],         /* paths zoomed into, the last shown */
	sandwich: -1,      /* routine shown in the sandwich, -1 if none */
};

/* ---- patterns as -F reads them: NAME, FILE:NAME, shell patterns ---- */

/*
** The shell pattern GLOB (*, ?, [...]) as an anchored RegExp; with PATH,
** '*' and '?' do not match a '/' (fnmatch's FNM_PATHNAME).
*/
function globRegExp(glob, path) {
	let re = '';
	for (let i = 0; i < glob.length; i++) {
		const ch = glob[i];
		if (ch === '*') re += path ? '[^/]*' : '.*';
		else if (ch === '?') re += path ? '[^/]' : '.';
		else if (ch === '[') {
			const end = glob.indexOf(']', i + 2);
			if (end < 0) { re += '\\['; continue; }
			re += '[' + glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
			i = end;
		} else re += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
	}
	return new RegExp('^' + re + '$');
}

/*
** TEXT compiled as symspec.c reads it: FILE:NAME at a single ':' (not
** "::"), the name matching a routine's name, or a copy's name without its
** tag, each with or without the parameter list; the file matching the file
** of the routine's lines or its unit, the whole path or its end from a
** component on.
*/
function compileSpec(text) {
	let file = null, fileEnd = null, name = text;
	for (let i = 0; i < text.length; i++) {
		if (text[i] !== ':') continue;
		if (text[i + 1] === ':') { i++; continue; }
		file = globRegExp(text.slice(0, i), false);
		fileEnd = globRegExp(text.slice(0, i), true);
		name = text.slice(i + 1);
		break;
	}
	const s = { text, file, fileEnd, name: globRegExp(name, false) };
	s.hits = Uint8Array.from(ROUTINES, (f) => routineMatches(s, f));
	if (OLD !== null) s.oldHits = Uint8Array.from(OLD.routines, (f) => routineMatches(s, f));
	return s;
}

/* True if routine R matches compiled pattern S (its hits, once compiled). */
function specMatches(s, r) { return s.hits[r] === 1; }

/* True if NAME or NAME without its parameter list matches RE. */
function nameMatches(re, name) {
	const paren = name.indexOf('(');
	return re.test(name) || (paren > 0 && re.test(name.slice(0, paren)));
}

/* True if PATH (null: unknown), whole or its end from a component on, matches S's file. */
function fileMatches(s, path) {
	if (path === null) return false;
	if (s.file.test(path)) return true;
	for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1))
		if (s.fileEnd.test(path.slice(i + 1))) return true;
	return false;
}

/* True if routine F ({name, base_name, file, unit}) matches S. */
function routineMatches(s, f) {
	if (!nameMatches(s.name, f.name) && !nameMatches(s.name, f.base_name)) return false;
	return s.file === null || fileMatches(s, f.file) || fileMatches(s, f.unit);
}

/* ---- the tree of contexts ---- */

/* Per node of SRC: 1 if a routine matching one of SPECS is active in its history. */
function activeIn(src, specs) {
	const a = new Uint8Array(src.n);
	for (let i = 1; i < src.n; i++)
		a[i] = a[src.parent[i]] || (specs.some((s) => s[src.hits][src.routine[i]] === 1) ? 1 : 0);
	return a;
}

/* The contexts of SRC chosen by the thread, focus and exclude settings. */
function chosenContexts(src) {
	const focus = state.focus.length > 0 ? activeIn(src, state.focus) : null;
	const exclude = state.exclude.length > 0 ? activeIn(src, state.exclude) : null;
	return src.contexts.filter((c) => (state.thread < 0 || c.thread === state.thread) &&
		(focus === null || focus[c.node]) && (exclude === null || !exclude[c.node]));
}

function newFrame(name, routine, up) {
	return { name, routine, up, value: 0, calls: 0, rec: 0, total: 0, kids: new Map(), children: [] };
}

/* A frame's path: its routines' names from the outermost joined by ';' ('' for the root). */
function pathOf(f) {
	const names = [];
	for (; f.up !== null; f = f.up) names.push(f.name);
	return names.reverse().join(';');
}

/*
** The flame graph's tree: one frame per path of routines (marks aside, as
** --format=folded merges them), threads merged unless one is chosen; each
** context's value is its frame's self value.  Merged recursion: a routine
** already on the path sends the context back to that frame, its calls
** counted as recursive.  The root frame is the program, its self value the
** time no instrumented routine was active.
*/
function buildTree(src) {
	const metric = state.metric;
	const root = newFrame(META.program, -1, null);
	/* Each node's frame, and whether its last step went back up a recursion. */
	const frame = new Array(src.n), back = new Uint8Array(src.n);
	frame[0] = root;
	for (let i = 1; i < src.n; i++) {
		const up = frame[src.parent[i]], r = src.routine[i];
		if (state.merged) {
			let a = up;
			while (a !== root && a.routine !== r) a = a.up;
			if (a !== root) { frame[i] = a; back[i] = 1; continue; }
		}
		let kid = up.kids.get(r);
		if (kid === undefined) {
			kid = newFrame(src.routines[r].name, r, up);
			up.kids.set(r, kid);
		}
		frame[i] = kid;
	}
	for (const c of chosenContexts(src)) {
		const f = frame[c.node];
		f.value += metric.value(c);
		if (back[c.node]) f.rec += c.calls + c.recursive;
		else { f.calls += c.calls; f.rec += c.recursive; }
	}
	finish(root);
	if (OLD !== null && src === NEW) pairOld(root, buildTree(OLD));
	return root;
}

/* Totals and children of the frames under ROOT; frames nothing reached left out. */
function finish(root) {
	(function sum(n) {
		n.total = n.value;
		for (const k of n.kids.values()) {
			n.total += sum(k);
			if (k.reached) n.children.push(k);
		}
		n.reached = n.calls + n.rec > 0 || n.value > 0 || n.children.length > 0;
		delete n.kids;
		return n.total;
	})(root);
	return root;
}

/*
** The sandwich's two trees of routine R, from the graph's frames (so in
** the chosen metric, thread, focus): every outermost frame of R merged
** with its callees below, by names; and their callers, innermost first,
** each chain ending in the frame's total.  Their roots are R's total.
*/
function sandwichTrees(r) {
	const name = ROUTINES[r].name;
	const callees = newFrame(name, r, null), callers = newFrame(name, r, null);
	function merge(dst, src) {
		dst.value += src.value;
		dst.calls += src.calls;
		dst.rec += src.rec;
		for (const k of src.children) {
			let d = dst.kids.get(k.name);
			if (d === undefined) dst.kids.set(k.name, d = newFrame(k.name, k.routine, dst));
			merge(d, k);
		}
	}
	(function walk(f) {
		for (const k of f.children) {
			if (k.routine !== r) { walk(k); continue; }
			merge(callees, k);
			let at = callers;
			for (let a = k.up; a.up !== null; a = a.up) {
				let d = at.kids.get(a.name);
				if (d === undefined) at.kids.set(a.name, d = newFrame(a.name, a.routine, at));
				d.calls += k.calls;
				at = d;
			}
			at.value += k.total;
			callers.calls += k.calls;
		}
	})(tree);
	return { callers: finish(callers), callees: finish(callees) };
}

/* Draws tree T into the element of SELECTOR, upward (callers) or downward. */
function drawSandwichGraph(selector, t, inverted) {
	const el = d3.select(selector);
	el.selectAll('*').remove();
	el.datum(t).call(flamegraph()
		.width(Math.max(600, document.getElementById('sandwich').clientWidth - 40))
		.cellHeight(18).inverted(inverted).selfValue(true).minFrameSize(1).transitionDuration(0)
		.sort((a, b) => d3.descending(a.value, b.value) || d3.ascending(a.data.name, b.data.name))
		.setLabelHandler(describe)
		.setColorMapper((d) => PALETTE[hashName(d.data.name) % PALETTE.length])
		.onClick((d) => { if (d.data.routine >= 0 && d.parent !== null) openSandwich(d.data.routine); }));
}

/*
** --diff: each frame's old total (that of the old frame of the same path
** of names, 0 if none) in .old; the largest change in diffMax.
*/
let diffMax = 0;
function pairOld(root, oldRoot) {
	diffMax = 0;
	(function pair(n, o) {
		n.old = o === undefined ? 0 : o.total;
		diffMax = Math.max(diffMax, Math.abs(n.total - n.old));
		const byName = o === undefined ? null : new Map(o.children.map((k) => [k.name, k]));
		for (const k of n.children) pair(k, byName === null ? undefined : byName.get(k.name));
	})(root, oldRoot);
}

/*
** A frame's colour for --diff: red for more, blue for less, white for no
** change (ColorBrewer's RdBu, readable with the common colour-vision
** deficiencies), strongest for the largest change; kept off the darkest
** ends so that black names stay readable.
*/
function diffColour(f) {
	const t = diffMax > 0 ? (f.total - f.old) / diffMax : 0;
	return d3.interpolateRdBu(0.5 - 0.35 * t);
}

/* ---- the flame graph ---- */

const PALETTE = ['#F2C46F', '#A6D6F3', '#7FD1B9', '#F6EE9A', '#8FBCE0', '#EFB48A', '#E3B5D0'];
const SEARCH_HIT = '#E69F00';
const SEARCH_MISS = '#DDDDDD';

function hashName(name) {
	let h = 0;
	for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) | 0;
	return Math.abs(h);
}

/* A frame's description: the tooltip, the details line, what a screen reader reads. */
function describe(d) {
	const f = d.data, m = state.metric, root = tree.total;
	const lines = [f.name];
	if (f.routine >= 0) {
		lines.push('calls ' + showCount(f.calls) + (f.rec > 0 ? ' + ' + showCount(f.rec) + ' recursive' : ''));
		const r = ROUTINES[f.routine];
		if (r.file !== null) lines.push(r.file + (VIEW.lines[f.routine] ? ':' + VIEW.lines[f.routine] : ''));
	}
	lines.push(m.label + ': self ' + m.show(f.value) + ', total ' + m.show(f.total) + ' (' + pct(f.total, root) + ')');
	if (OLD !== null && f.old !== undefined)
		lines.push('change: ' + (f.total >= f.old ? '+' : '-') + m.show(Math.abs(f.total - f.old)) +
			' (old total ' + m.show(f.old) + ')');
	return lines.join('\n');
}

let tree = buildTree(NEW);
performance.mark('aprof-tree');
const chart = flamegraph()
	.width(Math.max(600, document.getElementById('flame').clientWidth - 8))
	.cellHeight(18)
	.inverted(true)
	.selfValue(true)
	.sort((a, b) => d3.descending(a.value, b.value) || d3.ascending(a.data.name, b.data.name))
	.minFrameSize(1)
	.transitionDuration(0)
	.setLabelHandler(describe)
	.setColorMapper((d) => state.search !== null ? (d.highlight ? SEARCH_HIT : SEARCH_MISS)
		: OLD !== null ? diffColour(d.data) : PALETTE[hashName(d.data.name) % PALETTE.length])
	.setSearchMatch((d) => d.data.routine >= 0 && specMatches(state.search, d.data.routine))
	.setSearchHandler((results, sum, total) => {
		const n = new Set(results.map((d) => d.data.routine)).size;
		details.textContent = 'search ' + state.search.text + ': ' + results.length + ' frames of ' + n +
			' routines, ' + state.metric.show(sum) + ' = ' + pct(sum, total) + ' of ' + state.metric.label;
		lastSearch = { frames: results.length, routines: n, sum, total };
	})
	.setDetailsHandler((text) => { if (text) details.textContent = text; })
	.onClick((d) => {
		if (d.parent === null) state.zooms = [];
		else state.zooms.push(pathOf(d.data));
		if (d.data.routine >= 0) showSandwichButton(d.data.routine);
	});
const details = document.getElementById('details');
let lastSearch = null;
d3.select('#chart').datum(tree).call(chart);
performance.mark('aprof-graph');

/* Redraws the graph after a change of metric, thread, focus or recursion. */
function redraw() {
	tree = buildTree(NEW);
	state.zooms = [];
	chart.update(tree);
	if (state.search !== null) chart.search(state.search.text);
}

/* The rendered frame (hierarchy node) of PATH, or undefined. */
function frameNode(path) {
	return d3.select('#chart').datum().descendants().find((d) => pathOf(d.data) === path);
}

/* ---- the flat profile ---- */

/* Self bytes per routine (the contexts it ran in), for the bytes column. */
const selfBytes = new Array(ROUTINES.length).fill(0);
if (META.heap)
	for (const c of CONTEXTS)
		if (c.node > 0) selfBytes[NODE_ROUTINE[c.node]] += c.bytes;

const FLAT_COLUMNS = [
	{ key: 'share', label: '% ' + META.metric, get: (r) => r.self, show: (v) => pct(v, P.metadata.totals.value) },
	{ key: 'self', label: 'self ' + VIEW.unit, get: (r) => r.self, show: showUnit },
	{ key: 'total', label: 'total ' + VIEW.unit, get: (r) => r.total, show: showUnit },
	{ key: 'calls', label: 'calls', get: (r) => r.calls, show: showCount },
	{ key: 'recursive', label: 'recursive', get: (r) => r.recursive, show: showCount },
].concat(META.heap ? [{ key: 'bytes', label: 'self bytes', get: (r) => selfBytes[r.id], show: showCount }] : []);
let flatSort = FLAT_COLUMNS[1];
/* The rows drawn at first: the page of a large program opens fast, the rest a click away. */
const FLAT_FIRST = 200;
let flatAll = false;

function drawFlat() {
	const table = d3.select('#flat-table');
	table.selectAll('*').remove();
	table.append('caption').text('As the text report\'s flat profile (' + META.metric +
		', ' + VIEW.unit + '); click a heading to sort, a name for its sandwich');
	const head = table.append('thead').append('tr');
	for (const col of FLAT_COLUMNS)
		head.append('th').attr('scope', 'col').attr('data-key', col.key)
			.attr('aria-sort', col === flatSort ? 'descending' : null)
			.append('button').attr('type', 'button').text(col.label)
			.on('click', () => { flatSort = col; drawFlat(); });
	head.append('th').attr('scope', 'col').text('name');
	const all = ROUTINES.filter((r) => r.self > 0 || r.calls > 0 || r.total > 0)
		.sort((a, b) => d3.descending(flatSort.get(a), flatSort.get(b)) || d3.ascending(a.name, b.name));
	const rows = flatAll ? all : all.slice(0, FLAT_FIRST);
	const tr = table.append('tbody').selectAll('tr').data(rows).join('tr').attr('data-routine', (r) => r.id);
	for (const col of FLAT_COLUMNS)
		tr.append('td').attr('class', 'num').attr('data-key', col.key).text((r) => col.show(col.get(r)));
	tr.append('td').append('button').attr('type', 'button').attr('class', 'name')
		.text((r) => r.name + (r.cycle > 0 ? ' <cycle ' + r.cycle + '>' : ''))
		.on('click', (_, r) => openSandwich(r.id));
	if (rows.length < all.length)
		table.append('tfoot').append('tr').append('td').attr('colspan', FLAT_COLUMNS.length + 1)
			.append('button').attr('type', 'button').attr('id', 'flat-all')
			.text('show all ' + all.length + ' routines (' + (all.length - rows.length) + ' more)')
			.on('click', () => { flatAll = true; drawFlat(); });
}

/* ---- allocated types (--types), where the run recorded the heap ---- */

/* The history of path node N as aprof -S prints it: "main > run > big". */
function historyText(n) {
	const names = [];
	for (; n > 0; n = NEW.parent[n]) names.push(ROUTINES[NEW.routine[n]].name);
	return names.reverse().join(' > ');
}

/* As --types prints them: bytes, share, allocations, average size, kept, at peak, the top paths. */
function drawTypes() {
	if (!P.types) return;
	document.getElementById('types').hidden = false;
	const table = d3.select('#types-table');
	table.append('caption').text('As aprof --types prints them: each type with the contexts that allocated most of it');
	const head = table.append('thead').append('tr');
	for (const h of ['bytes', '%', 'allocs', 'avg size', 'kept', 'at peak', 'type'])
		head.append('th').attr('scope', 'col').text(h);
	const total = P.types.reduce((a, t) => a + t.bytes, 0);
	const body = table.append('tbody');
	for (const t of P.types) {
		const tr = body.append('tr').attr('class', 'type');
		for (const v of [showCount(t.bytes), pct(t.bytes, total), showCount(t.allocs),
			showCount(t.allocs > 0 ? Math.round(t.bytes / t.allocs) : 0), showCount(t.kept), showCount(t.peak)])
			tr.append('td').attr('class', 'num').text(v);
		tr.append('td').text(t.type === null ? '<unknown>' : t.type);
		for (const x of t.paths) {
			const row = body.append('tr').attr('class', 'type-path');
			row.append('td').attr('class', 'num').text(showCount(x.bytes));
			row.append('td').attr('colspan', 6).text('from ' + historyText(CONTEXTS[x.context].node));
		}
	}
}

/* ---- the sandwich: a routine's callers above, its callees below ---- */

function nameOf(r) { return r === null ? '<spontaneous>' : ROUTINES[r].name; }

/*
** Arc rows: the exact split values beside gprof's reading, which shares a
** routine's self and child values among its callers by their calls.
*/
function arcTable(sel, arcs, self, child, other, reading) {
	sel.selectAll('*').remove();
	const cap = sel.append('caption');
	const head = sel.append('thead').append('tr');
	for (const h of ['name', 'calls', self, child, 'gprof: self', 'gprof: child'])
		head.append('th').attr('scope', 'col').text(h);
	const tr = sel.append('tbody').selectAll('tr').data(arcs).join('tr')
		.attr('data-routine', (a) => a[other] === null ? -1 : a[other]);
	tr.append('td').append('button').attr('type', 'button').attr('class', 'name')
		.text((a) => nameOf(a[other]))
		.on('click', (_, a) => { if (a[other] !== null) openSandwich(a[other]); });
	tr.append('td').attr('class', 'num').attr('data-key', 'calls').text((a) => showCount(a.calls));
	tr.append('td').attr('class', 'num').text((a) => showUnit(a[self]));
	tr.append('td').attr('class', 'num').text((a) => showUnit(a[child]));
	tr.each(function (a) {
		const g = reading(a);
		const row = d3.select(this);
		row.classed('differs', Math.abs(g[0] - a[self]) + Math.abs(g[1] - a[child]) >= VIEW.scale * Math.pow(10, -VIEW.decimals));
		row.append('td').attr('class', 'num gprof').text(showUnit(g[0]));
		row.append('td').attr('class', 'num gprof').text(showUnit(g[1]));
	});
	return cap;
}

function openSandwich(r) {
	const f = ROUTINES[r];
	state.sandwich = r;
	const sw = document.getElementById('sandwich');
	sw.hidden = false;
	document.getElementById('sw-name').textContent = f.name;
	document.getElementById('sw-self-name').textContent = f.name;
	document.getElementById('sw-summary').textContent = 'calls ' + showCount(f.calls) +
		(f.recursive > 0 ? ' + ' + showCount(f.recursive) + ' recursive' : '') + '; self ' +
		showUnit(f.self) + ', children ' + showUnit(f.child) + ' ' + VIEW.unit + ' (' +
		META.metric + ')' + (f.file !== null ? '; ' + f.file + (VIEW.lines[r] ? ':' + VIEW.lines[r] : '') : '');
	const both = sandwichTrees(r);
	drawSandwichGraph('#sw-callers-graph', both.callers, false);
	drawSandwichGraph('#sw-callees-graph', both.callees, true);
	const callers = P.arcs.filter((a) => a.callee === r).sort((a, b) => b.calls - a.calls);
	const callees = P.arcs.filter((a) => a.caller === r).sort((a, b) => b.calls - a.calls);
	arcTable(d3.select('#sw-callers'), callers, 'self2', 'child2', 'caller', (a) =>
		f.calls > 0 ? [f.self * a.calls / f.calls, f.child * a.calls / f.calls] : [0, 0])
		.text('Callers of ' + f.name + ': self2 and child2 are what its exact contexts charge to each arc in; ' +
			'gprof\'s reading shares its self and children by calls (rows where they differ are marked)');
	arcTable(d3.select('#sw-callees'), callees, 'self1', 'child1', 'callee', (a) => {
		const g = ROUTINES[a.callee];
		return g.calls > 0 ? [g.self * a.calls / g.calls, g.child * a.calls / g.calls] : [0, 0];
	}).text('Callees of ' + f.name + ': self1 and child1 as its exact contexts charge them, beside gprof\'s reading');
	sw.scrollIntoView({ block: 'nearest' });
}

function closeSandwich() {
	state.sandwich = -1;
	document.getElementById('sandwich').hidden = true;
}

function showSandwichButton(r) {
	details.textContent = '';
	const b = document.createElement('button');
	b.type = 'button';
	b.textContent = 'sandwich of ' + ROUTINES[r].name;
	b.addEventListener('click', () => openSandwich(r));
	details.appendChild(b);
}

/* ---- controls ---- */

const metricSel = d3.select('#metric');
metricSel.selectAll('option').data(METRICS).join('option').attr('value', (m) => m.key).text((m) => m.label);
metricSel.on('change', function () {
	state.metric = METRICS.find((m) => m.key === this.value);
	redraw();
});
const threadSel = d3.select('#thread');
threadSel.selectAll('option').data([{ tid: -1 }].concat(META.threads)).join('option')
	.attr('value', (t, i) => i - 1)
	.text((t, i) => i === 0 ? 'all threads' : (i - 1) + ': ' + t.tid + (t.name ? ' ' + t.name : ''));
threadSel.on('change', function () { state.thread = Number(this.value); redraw(); });
d3.select('#merged').on('change', function () { state.merged = this.checked; redraw(); });

const searchBox = document.getElementById('search');
function setSearch(text) {
	searchBox.value = text;
	if (text.trim() === '') {
		state.search = null;
		lastSearch = null;
		chart.clear();
		details.textContent = '';
		return;
	}
	state.search = compileSpec(text.trim());
	chart.search(text);
}
searchBox.addEventListener('input', () => setSearch(searchBox.value));
d3.select('#focus').on('click', () => { if (state.search) { state.focus.push(state.search); redraw(); summary(); } });
d3.select('#exclude').on('click', () => { if (state.search) { state.exclude.push(state.search); redraw(); summary(); } });
d3.select('#reset').on('click', () => { state.focus = []; state.exclude = []; setSearch(''); redraw(); summary(); });

/* Escape: leave the search box, else close the sandwich, else zoom out one step. */
function back() {
	if (document.activeElement === searchBox) { searchBox.blur(); return; }
	if (state.sandwich >= 0) { closeSandwich(); return; }
	state.zooms.pop();
	const to = state.zooms.length > 0 ? frameNode(state.zooms[state.zooms.length - 1]) : undefined;
	if (to !== undefined) { state.zooms.pop(); chart.zoomTo(to); } else { state.zooms = []; chart.resetZoom(); }
}
document.addEventListener('keydown', (e) => {
	if (e.key === '/' && document.activeElement !== searchBox) { e.preventDefault(); searchBox.focus(); }
	else if (e.key === 'Escape') back();
});

function summary() {
	const t = META.totals;
	document.getElementById('title').textContent = 'aprof: ' + META.program;
	document.title = 'aprof: ' + META.program;
	let s = 'time ' + (t.ticks / META.ticks_per_second).toFixed(Math.max(VIEW.decimals, 2)) + ' s, ' +
		showCount(t.calls) + ' calls, ' + CONTEXTS.length + ' contexts, ' + META.threads.length + ' thread(s)';
	if (META.heap) s += ', ' + showCount(t.bytes) + ' bytes in ' + showCount(t.allocs) + ' blocks';
	if (state.focus.length > 0) s += '; focus ' + state.focus.map((x) => x.text).join(', ');
	if (state.exclude.length > 0) s += '; exclude ' + state.exclude.map((x) => x.text).join(', ');
	if (OLD !== null) s += '; --diff: frames red where the new profile has more, blue where less';
	document.getElementById('summary').textContent = s;
}

summary();
drawFlat();
drawTypes();
performance.mark('aprof-table');
document.getElementById('sw-close').addEventListener('click', closeSandwich);

/* An address may ask for a search and a sandwich: report.html?search=PATTERN&sandwich=NAME. */
const asked = new URLSearchParams(location.search);
if (!SELFTEST && asked.get('search')) setSearch(asked.get('search'));
if (!SELFTEST && asked.get('sandwich')) {
	const r = ROUTINES.findIndex((f) => f.name === asked.get('sandwich'));
	if (r >= 0) openSandwich(r);
}

/*
** Once drawn (the first paint after the graph and the table), the time
** since navigation in data-first-render (benchmarks/html.sh); later
** changes animate, the self-test's excepted.
*/
requestAnimationFrame(() => setTimeout(() => {
	document.body.dataset.firstRender = performance.now().toFixed(1);
	if (!SELFTEST) chart.transitionDuration(300);
}, 0));

/* ---- the self-test (#selftest): actions, and what the page showed after each ---- */

function sleep(ms) { return new Promise((ok) => setTimeout(ok, ms)); }

/* Waits until the frames' widths have stopped moving (d3's transitions run on timers). */
async function settle() {
	let last = '', same = 0;
	for (let i = 0; i < 100 && same < 3; i++) {
		await sleep(50);
		await new Promise((ok) => requestAnimationFrame(ok));
		const now = d3.selectAll('#chart rect').nodes().map((r) => r.getAttribute('width')).join();
		same = now === last ? same + 1 : 0;
		last = now;
	}
}

/* What frame PATH shows: calls, its title, its width as a share of the root frame's. */
function frameSeen(path) {
	const g = d3.selectAll('#chart g').filter((d) => pathOf(d.data) === path);
	const rootG = d3.selectAll('#chart g').filter((d) => d.parent === null);
	if (g.empty()) return null;
	const d = g.datum();
	return {
		calls: d.data.calls, rec: d.data.rec, title: g.select('title').text(),
		label: g.select('div').text(),
		width: Number(g.select('rect').attr('width')),
		share: Number(g.select('rect').attr('width')) / Number(rootG.select('rect').attr('width')),
		fill: g.select('rect').attr('fill'),
		change: OLD !== null ? d.data.total - d.data.old : null,
	};
}

function click(path) {
	const g = d3.selectAll('#chart g').filter((d) => pathOf(d.data) === path);
	g.node().dispatchEvent(new MouseEvent('click', { bubbles: true }));
}

/* Chooses metric KEY as the user does, through the select element. */
async function setMetric(k) {
	const sel = document.getElementById('metric');
	sel.value = k;
	sel.dispatchEvent(new Event('change'));
	await settle();
}

function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); }

async function selftest(leaf, zoomTo, widthPaths) {
	const out = { widthPaths };
	await settle();
	out.initial = frameSeen('main');
	/* Calls: exact, so every frame with calls is drawn whatever the clock said. */
	await setMetric('calls');
	out.chartWidth = chart.width();
	out.root = frameSeen('');
	out.main = frameSeen('main');
	out.leaf = frameSeen(leaf);
	out.beforeZoom = frameSeen(zoomTo);
	click(zoomTo);
	await settle();
	out.afterZoom = frameSeen(zoomTo);
	key('Escape');
	await settle();
	out.afterEscape = frameSeen(zoomTo);
	const share = ROUTINES.findIndex((r) => r.name === leaf.split(';').pop());
	openSandwich(share);
	out.sandwich = {
		name: document.getElementById('sw-name').textContent,
		callers: d3.selectAll('#sw-callers tbody tr').nodes().map((tr) =>
			[tr.cells[0].textContent, Number(tr.cells[1].textContent.replace(/,/g, ''))]),
		callees: d3.selectAll('#sw-callees tbody tr').nodes().map((tr) =>
			[tr.cells[0].textContent, Number(tr.cells[1].textContent.replace(/,/g, ''))]),
		callerFrames: d3.selectAll('#sw-callers-graph g').data()
			.map((d) => [pathOf(d.data), d.data.calls, d.data.total]),
		calleeRoot: d3.select('#sw-callees-graph g').datum().data.total,
	};
	key('Escape');
	out.sandwichClosed = document.getElementById('sandwich').hidden;
	key('/');
	out.slashFocus = document.activeElement === searchBox;
	setSearch('sha*');
	await settle();
	out.search = { details: details.textContent, frames: lastSearch && lastSearch.frames,
		share: lastSearch && lastSearch.sum / lastSearch.total,
		hits: d3.selectAll('#chart g rect').filter(function () { return this.getAttribute('fill') === SEARCH_HIT; }).size() };
	setSearch('');
	/* Focus and exclude as -F small and -E small would. */
	setSearch('small');
	document.getElementById('focus').click();
	await settle();
	out.focus = { root: tree.total, small: frameSeen('main;run;small'), big: frameSeen('main;run;big') };
	document.getElementById('reset').click();
	setSearch('small');
	document.getElementById('exclude').click();
	await settle();
	out.exclude = { root: tree.total, small: frameSeen('main;run;small'), big: frameSeen('main;run;big') };
	document.getElementById('reset').click();
	await settle();
	out.reset = tree.total;
	out.flat = d3.selectAll('#flat-table tbody tr').nodes().map((tr) => ({
		name: tr.cells[tr.cells.length - 1].textContent,
		self: tr.querySelector('[data-key=self]').textContent,
		calls: tr.querySelector('[data-key=calls]').textContent }));
	d3.select('#flat-table th[data-key=calls] button').node().click();
	out.types = d3.selectAll('#types-table tbody tr').nodes().map((tr) =>
		Array.from(tr.cells, (td) => td.textContent).join(' | '));
	out.flatByCalls = d3.select('#flat-table tbody tr').node().cells[FLAT_COLUMNS.length].textContent;
	out.metrics = METRICS.map((m) => m.key);
	out.calls = {};
	out.bytes = {};
	for (const p of out.widthPaths) out.calls[p] = frameSeen(p);
	if (METRICS.some((m) => m.key === 'bytes')) {
		await setMetric('bytes');
		for (const p of out.widthPaths) out.bytes[p] = frameSeen(p);
	}
	out.errors = pageErrors;
	const pre = document.getElementById('selftest');
	pre.textContent = JSON.stringify(out);
	pre.hidden = false;
}

/*
** The self-test of recursion merged (?merged=PATH,...): PATHs' frames and
** the graph's depth under the calls metric, as run and merged.
*/
async function selftestMerged(paths) {
	const out = { asRun: {}, merged: {} };
	await setMetric('calls');
	const depth = () => d3.select('#chart').datum().height;
	out.asRunDepth = depth();
	for (const p of paths) out.asRun[p] = frameSeen(p);
	const box = document.getElementById('merged');
	box.checked = true;
	box.dispatchEvent(new Event('change'));
	await settle();
	out.mergedDepth = depth();
	for (const p of paths) out.merged[p] = frameSeen(p);
	out.errors = pageErrors;
	return out;
}

if (SELFTEST && new URLSearchParams(location.search).get('merged')) {
	selftestMerged(new URLSearchParams(location.search).get('merged').split(','))
		.catch((e) => ({ errors: pageErrors.concat([String(e && e.stack || e)]) }))
		.then((out) => {
			const pre = document.getElementById('selftest');
			pre.textContent = JSON.stringify(out);
			pre.hidden = false;
		});
} else if (SELFTEST) {
	const q = new URLSearchParams(location.search);
	selftest(q.get('leaf') || 'main;run;big;share', q.get('zoom') || 'main;run;small',
		(q.get('widths') || 'main;run;keep,main;run;big').split(','))
		.catch((e) => {
			pageErrors.push(String(e && e.stack || e));
			const pre = document.getElementById('selftest');
			pre.textContent = JSON.stringify({ errors: pageErrors });
			pre.hidden = false;
		});
}

# benchmarks/debian-source.sh -- sourced by the benchmark scripts (lua.sh,
# perf.sh): fetch a Debian source package without touching the system's apt
# configuration.
#
#     . benchmarks/debian-source.sh
#     debian_source PACKAGE WORKDIR
#
# runs apt-get source PACKAGE in WORKDIR/src through a private sources list
# (Debian bookworm's deb-src), apt state and cache under WORKDIR/apt, and
# leaves the unpacked tree in WORKDIR/src.  Installs dpkg-dev (for
# dpkg-source) when missing, which needs root.  The caller checks first
# whether the tree is already there.  DEBIAN_SOURCE_SUITE overrides the suite
# (default bookworm).
#
#     lua_multiarch_header DIR
#
# writes DIR/lua5.4-deb-multiarch.h, which Debian's luaconf.h patch includes
# and Debian's own build would generate (left alone if unchanged, so builds
# depending on it are not redone).
#
#     jsoncpp_input RECORDS FILE
#
# writes FILE, a JSON document of RECORDS generated records, the same for
# the same RECORDS (a linear congruential generator from a fixed seed), for
# JsonCpp's test runner: perf.sh's and fentry.sh's input.  Left alone if it
# was made for RECORDS already (FILE.n says how many).

debian_source() {
	_ds_pkg=$1
	_ds_work=$2
	if ! command -v dpkg-source >/dev/null 2>&1; then
		if [ "$(id -u)" -ne 0 ]; then
			echo "debian-source.sh: dpkg-source (Debian package dpkg-dev) is needed; install it as root" >&2
			return 1
		fi
		echo "installing dpkg-dev"
		DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dpkg-dev ||
			return 1
	fi
	_ds_apt=$_ds_work/apt
	mkdir -p "$_ds_apt/state/lists/partial" "$_ds_apt/cache/archives/partial" "$_ds_work/src"
	echo "deb-src http://deb.debian.org/debian ${DEBIAN_SOURCE_SUITE:-bookworm} main" >"$_ds_apt/sources.list"
	set -- -o "Dir::Etc::SourceList=$_ds_apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o "Dir::State=$_ds_apt/state" -o "Dir::Cache=$_ds_apt/cache"
	# apt drops root for downloads to the _apt user, who may not write here
	[ "$(id -u)" -ne 0 ] || set -- "$@" -o APT::Sandbox::User=root
	apt-get -q "$@" update || return 1
	(cd "$_ds_work/src" && apt-get -q "$@" source "$_ds_pkg")
}


lua_multiarch_header() {
	_lm_arch=$(gcc -print-multiarch 2>/dev/null || true)
	[ -n "$_lm_arch" ] || _lm_arch=$(uname -m)-linux-gnu
	mkdir -p "$1"
	printf '#define DEB_HOST_MULTIARCH "%s"\n' "$_lm_arch" >"$1/new.h"
	if cmp -s "$1/new.h" "$1/lua5.4-deb-multiarch.h"; then
		rm "$1/new.h"
	else
		mv "$1/new.h" "$1/lua5.4-deb-multiarch.h"
	fi
}


jsoncpp_input() {
	[ -f "$2" ] && [ "$(sed -n 1p "$2.n" 2>/dev/null)" = "$1" ] && return 0
	awk -v n="$1" 'BEGIN {
		x = 12345; printf "[\n"
		for (i = 0; i < n; i++) {
			x = (x * 1103515245 + 12345) % 2147483648
			printf "%s{\"id\": %d, \"name\": \"item-%d\", \"price\": %d.%02d, \"tags\": [\"t%d\", \"t%d\", \"t%d\"], \"active\": %s, \"dims\": {\"w\": %d, \"h\": %d, \"d\": %d}, \"note\": null}",
				(i ? ",\n" : ""), i, x % 100000, x % 1000, x % 100, x % 7, x % 11, x % 13,
				(x % 2 ? "true" : "false"), x % 97, x % 89, x % 83
		}
		printf "\n]\n" }' >"$2" && echo "$1" >"$2.n"
}

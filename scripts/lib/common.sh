# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Common helpers of the series tooling: messages, configuration data,
# required tools and the locations everything else uses.
#
# Sourced by scripts/series and by the check units; never executed.

SERIES_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SERIES_CONFIGS=$(realpath -m -- "${SERIES_CONFIGS:-$SERIES_ROOT/configs}")
SERIES_CACHE=$(realpath -m -- "${SERIES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sae-series}")
SERIES_PROG=${SERIES_PROG:-series}

# Exit codes shared by the tooling and the check units.
if [ -z "${EX_PASS+set}" ]; then
	readonly EX_PASS=0 EX_FAIL=1 EX_USAGE=2 EX_SKIP=4 EX_WARN=250
fi

err() { printf '%s: error: %s\n' "$SERIES_PROG" "$*" >&2; }
warn() { printf '%s: warning: %s\n' "$SERIES_PROG" "$*" >&2; }
info() { printf '%s\n' "$*" >&2; }
die() { err "$*"; exit "$EX_FAIL"; }
die_usage() { err "$*"; printf "Try '%s help'.\n" "$SERIES_PROG" >&2; exit "$EX_USAGE"; }

# at_exit FUNCTION: run FUNCTION (a function, never a string of shell
# text) when the command exits, also on SIGINT and SIGTERM; the traps are
# set by the first call.  Functions read the variables they clean up.
SERIES_AT_EXIT=()
at_exit() {
	if [ ${#SERIES_AT_EXIT[@]} -eq 0 ]; then
		trap run_at_exit EXIT
		trap 'exit 130' INT
		trap 'exit 143' TERM
	fi
	SERIES_AT_EXIT+=("$1")
}
run_at_exit() {
	local f
	for f in "${SERIES_AT_EXIT[@]}"; do "$f" || true; done
}

# conf_load FILE PREFIX...
# Read KEY=VALUE lines from FILE into global variables.  Only keys that
# start with one of PREFIX are accepted; anything else, or a line that is
# not KEY=VALUE, is an error naming the file and line.  Values are taken
# literally: nothing is expanded or executed.
conf_load() {
	local file=$1 line key val n=0 ok p
	shift
	[ -r "$file" ] || die "cannot read configuration file $file"
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in '' | '#'*) continue ;; esac
		if [[ ! $line =~ ^([A-Z][A-Z0-9_]*)=(.*)$ ]]; then
			die "$file:$n: not a KEY=VALUE line: $line"
		fi
		key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]} ok=
		for p in "$@"; do
			[[ $key == "$p"* ]] && ok=1
		done
		[ -n "$ok" ] || die "$file:$n: unknown key $key (expected ${*}*)"
		printf -v "$key" '%s' "$val"
	done <"$file"
}

# conf_get FILE KEY: print the value of KEY in FILE (empty if absent).
conf_get() {
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		[[ $line == "$2="* ]] && { printf '%s\n' "${line#*=}"; return 0; }
	done <"$1"
	return 0
}

# have WHAT: WHAT is a command on PATH, or, if it starts with /, a file.
have() {
	case $1 in
	/*) [ -e "$1" ] ;;
	*) command -v "$1" >/dev/null 2>&1 ;;
	esac
}

# need_tools WHAT:PACKAGE...
# Make sure every WHAT (a command, or an absolute path for files such as
# development headers) is there.  Missing ones are installed from Debian
# when running as root (unless SERIES_NO_INSTALL=1); otherwise the exact
# apt-get line is printed and the tooling exits 2.
need_tools() {
	local spec cmd pkg missing=() pkgs=()
	for spec in "$@"; do
		cmd=${spec%%:*} pkg=${spec#*:}
		have "$cmd" && continue
		missing+=("$cmd")
		[[ " ${pkgs[*]} " == *" $pkg "* ]] || pkgs+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -eq 0 ] && [ "${SERIES_NO_INSTALL:-0}" != 1 ]; then
		info "installing ${pkgs[*]} (missing: ${missing[*]})"
		apt_install "${pkgs[@]}" || die "could not install Debian package(s) ${pkgs[*]} (needed for ${missing[*]})"
		for cmd in "${missing[@]}"; do
			have "$cmd" || die "$cmd still missing after installing ${pkgs[*]}"
		done
		return 0
	fi
	err "missing tool(s): ${missing[*]}"
	printf 'Install them with:\n  apt-get install %s\n' "${pkgs[*]}" >&2
	exit "$EX_USAGE"
}

# apt_install PACKAGE...: install Debian packages non-interactively.
apt_install() {
	local stamp=/var/lib/apt/periodic/series-update-stamp
	if [ ! -e "$stamp" ] || [ -z "$(find "$stamp" -mmin -360 2>/dev/null)" ]; then
		apt-get update -q >/dev/null || return 1
		mkdir -p "${stamp%/*}" && touch "$stamp"
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends "$@" >/dev/null
}

# Tools every subcommand that touches a kernel tree needs.
need_base_tools() {
	need_tools git:git make:make gcc:gcc flex:flex bison:bison bc:bc \
		perl:perl python3:python3 xz:xz-utils ccache:ccache \
		openssl:openssl pkg-config:pkg-config \
		/usr/include/openssl/ssl.h:libssl-dev /usr/include/libelf.h:libelf-dev
}

# now: seconds since the epoch, for durations.
now() { date +%s; }

# series_load_config: read the pinned base and the series identity.
series_load_config() {
	conf_load "$SERIES_CONFIGS/base.conf" BASE_
	conf_load "$SERIES_CONFIGS/series.conf" SERIES_
	# Absolute: checks run inside the kernel tree.
	SERIES_TREE=$(realpath -m -- "${SERIES_TREE:-$SERIES_CACHE/linux}")
	SERIES_BUILD=$(realpath -m -- "${SERIES_BUILD:-$SERIES_CACHE/build}")
	SERIES_RESULTS=$(realpath -m -- "${SERIES_RESULTS:-$SERIES_CACHE/results}")
	SERIES_JOBS=${SERIES_JOBS:-$(nproc)}
	[[ $SERIES_JOBS =~ ^[1-9][0-9]*$ ]] ||
		die_usage "SERIES_JOBS must be a positive number, not '$SERIES_JOBS'"
	CCACHE_DIR=$(realpath -m -- "${CCACHE_DIR:-$SERIES_CACHE/ccache}")
	export CCACHE_DIR
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	# No direct mode: a result found through its include files, not its
	# preprocessed text, can come with the dependency file of a compile
	# that found the same header contents under another path (a header
	# the series moves), and fixdep then fails on a file this step does
	# not have.  It happened with entries made in depend mode; the
	# preprocessed text names every path.  CCACHE_DIRECT=true turns it on.
	[ -n "${CCACHE_DIRECT:-}" ] || export CCACHE_NODIRECT=true
	# The move-aware cache in front of ccache (scripts/lib/mcache.py).
	MCACHE_DIR=$(realpath -m -- "${MCACHE_DIR:-$SERIES_CACHE/mcache}")
	export MCACHE_DIR
}

# tgit ARGS...: git in the kernel tree, with settings that make output
# independent of the user's configuration: no global or system config, no
# hooks, fixed diff and format options.
# How a commit becomes a patch, for export and for the per-patch checks
# alike.  -B90%/90% -M: a file split out of one that stays and is all but
# emptied (kvm.h into kvm-generic.h) shows as a copy with its real
# changes, not as a new file; a smaller split (sysreg.h) stays a plain diff.
PATCH_DIFF_OPTS=(--no-signature --zero-commit --stat=80 --stat-graph-width=20
	--summary -B90%/90% -M)

tgit() {
	GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
	git -C "$SERIES_TREE" -c core.hooksPath=/dev/null -c commit.gpgSign=false \
		-c am.messageid=false -c format.thread=false -c format.signOff=false \
		-c diff.context=3 -c diff.interHunkContext=0 \
		-c core.autocrlf=false -c core.safecrlf=false \
		-c core.abbrev=12 -c diff.algorithm=myers -c diff.renames=true \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c diff.relative=false -c format.signature= \
		-c format.coverLetter=false -c format.numbered=auto \
		-c format.useAutoBase=false -c am.threeWay=false \
		-c advice.detachedHead=false "$@"
}

# series_base_rev: the revision the stack applies to: SERIES_BASE in a
# user tree, else the base tag that 'base' made and verified.
series_base_rev() {
	if [ -n "${SERIES_BASE:-}" ]; then
		printf '%s\n' "$SERIES_BASE"
	else
		tgit rev-parse -q --verify "refs/tags/$BASE_TAG^{commit}" ||
			die "no base in $SERIES_TREE; run '$SERIES_PROG base'"
	fi
}

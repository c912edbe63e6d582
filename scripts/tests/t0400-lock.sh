# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the lock of the cache directory and of signals to a command.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

# Two series commands never work in one cache directory at once.
test_cache_lock() {
	mkdir -p c
	# A live holder: its pid and start time in the record.
	sleep 30 &
	local holder=$! start
	start=$(cut -d' ' -f22 "/proc/$holder/stat")
	printf 'pid %s start %s: series bisect, since 00:00:00\n' "$holder" "$start" >c/.series.owner
	expect_exit 1 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_contains out "another series command is using $PWD/c (pid $holder: series bisect, since 00:00:00); wait for it to finish"
	# Commands that leave the tree and the builds alone do not wait.
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" list
	# The same pid with another start time is another process: the
	# holder is gone, and its lock is taken over with a message.
	printf 'pid %s start 1: series bisect, since 00:00:00\n' "$holder" >c/.series.owner
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_contains out "taking over the lock of $PWD/c: pid $holder (series bisect, since 00:00:00) is gone"
	kill "$holder"
	wait "$holder" 2>/dev/null || true
	# A command that ends drops its record; the next one says nothing.
	[ ! -e c/.series.owner ] || fail "the lock record outlived its command: $(cat c/.series.owner)"
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_not_contains out "taking over"
	# The lock is the command's, not its children's: a child left running
	# (git gc --auto after base did) holds no descriptor of the lock file.
	# Here 'cache stats' runs a du that leaves a process behind.
	local tag=series-lock-$$ f
	mkdir -p fakebin
	printf '#!/bin/sh\nsh -c "sleep 30; : %s" >/dev/null 2>&1 &\necho 0\n' "$tag" >fakebin/du
	chmod +x fakebin/du
	expect_exit 0 out env PATH="$PWD/fakebin:$PATH" SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	pgrep -f "$tag" >/dev/null || fail "the fake du left nothing running"
	for f in /proc/[0-9]*/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" != "$PWD/c/.series.lock" ] || fail "$f: a process still has the lock file open"
	done
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_not_contains out "another series command"
	pkill -f "$tag" || true
	# An unknown command takes no lock.
	expect_exit 2 out env SERIES_CACHE="$PWD/d" "$SERIES" frobnicate
	[ ! -e d ] || fail "an unknown command made the cache directory"
}
TESTS+=(test_cache_lock)

# A signal to a series command stops the command at once, children
# included, and drops the lock; SIGKILL, which no trap sees, leaves the
# lock with the process that runs the command while it runs.
test_command_signals() {
	local tag=series-sig-$$ pid rc t0 sig sigs=() ignored=()
	mkdir -p c fakebin
	printf '#!/bin/sh\nsh -c "sleep 300; : %s"\necho 0\n' "$tag" >fakebin/du
	chmod +x fakebin/du
	# A signal ignored since this process started cannot be trapped
	# below it: it is left out, and the test is then a SKIP.
	for sig in TERM INT HUP; do
		if sig_ignored "$sig"; then ignored+=("$sig"); else sigs+=("$sig"); fi
	done
	for sig in "${sigs[@]}"; do
		set -m
		env PATH="$PWD/fakebin:$PATH" SERIES_CACHE="$PWD/c" "$SERIES" cache stats >out 2>&1 &
		pid=$!
		set +m
		for _ in $(seq 50); do pgrep -f "$tag" >/dev/null && break; sleep 0.1; done
		pgrep -f "$tag" >/dev/null || fail "the command did not start"
		t0=$(date +%s)
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		[ $(($(date +%s) - t0)) -le 5 ] || fail "SIG$sig took more than 5 s to stop the command"
		[ "$rc" -gt 128 ] || fail "exit status $rc after SIG$sig"
		sleep 0.2
		if pgrep -f "$tag" >/dev/null; then
			pkill -f "$tag"
			fail "a child of the command outlived SIG$sig"
		fi
		[ ! -e c/.series.owner ] || fail "the lock record outlived SIG$sig: $(cat c/.series.owner)"
	done
	# SIGKILL: the record names the process that runs the command.
	set -m
	env PATH="$PWD/fakebin:$PATH" SERIES_CACHE="$PWD/c" "$SERIES" cache stats >out 2>&1 &
	pid=$!
	set +m
	for _ in $(seq 50); do pgrep -f "$tag" >/dev/null && break; sleep 0.1; done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null || true
	expect_exit 1 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_contains out "another series command is using $PWD/c"
	local holder
	holder=$(sed -n 's/^pid \([0-9]*\) .*/\1/p' c/.series.owner)
	[ -n "$holder" ] && [ "$holder" != "$pid" ] || fail "the record names the killed process: $(cat c/.series.owner)"
	kill -TERM -- "-$holder"
	for _ in $(seq 50); do kill -0 "$holder" 2>/dev/null || break; sleep 0.1; done
	pkill -f "$tag" || true
	expect_exit 0 out env SERIES_CACHE="$PWD/c" "$SERIES" cache stats
	assert_contains out "is gone"
	[ ${#ignored[@]} = 0 ] || skip "ignored where this test runs, not tested: SIG${ignored[*]}"
}
TESTS+=(test_command_signals)

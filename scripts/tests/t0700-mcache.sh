# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the move-aware compile cache (scripts/lib/mcache.py) with
# the host gcc on a small source tree: a moved header hits, a changed token
# misses, a hit's object and dependency file are those of a fresh compile.

# mc_compile INCDIR: compile sub/a.c through mcache with INCDIR on the
# include path, as kbuild does (-Wp,-MMD), into sub/a.o; its log line is
# the last line of mc.log.
mc_compile() {
	"$SERIES_ROOT/scripts/lib/mcache.py" gcc -O2 -Wall -I"$1" -Wp,-MMD,sub/.a.o.d \
		-c sub/a.c -o sub/a.o 2>err
}

# mc_fresh INCDIR: the same compile without the cache, into fresh/.
mc_fresh() {
	mkdir -p fresh
	gcc -O2 -Wall -I"$1" -Wp,-MMD,fresh/.a.o.d -c sub/a.c -o fresh/a.o
}

mc_last() { tail -n 1 mc.log | cut -d' ' -f1; }

test_mcache() {
	export MCACHE_DIR=$PWD/cache MCACHE_LOG=$PWD/mc.log
	: >mc.log
	mkdir -p inc1 inc2 sub
	printf '#ifndef H_H\n#define H_H\nint f(void);\n#define K 3\n#endif\n' >inc1/h.h
	printf '#include <h.h>\nint g(void) { return K + f(); }\n' >sub/a.c

	mc_compile inc1
	assert_eq "$(mc_last)" miss "first compile"
	mc_fresh inc1
	cmp sub/a.o fresh/a.o || fail "a miss's object differs from a fresh compile"
	rm sub/a.o sub/.a.o.d
	mc_compile inc1
	assert_eq "$(mc_last)" hit "the same compile again"
	cmp sub/a.o fresh/a.o || fail "a hit's object differs from a fresh compile"
	cmp sub/.a.o.d fresh/.a.o.d || fail "a hit's dependency file differs from a fresh compile's"

	# A pure move: the header in another directory, comments and blank
	# lines added (its line numbers change): the same tokens, a hit.
	{ printf '/* moved */\n\n\n'; cat inc1/h.h; } >inc2/h.h
	rm -r inc1 sub/a.o
	mc_compile inc2
	assert_eq "$(mc_last)" hit "the moved header"
	mc_fresh inc2
	cmp sub/a.o fresh/a.o || fail "the moved header's hit differs from a fresh compile"
	assert_contains sub/.a.o.d "inc2/h.h" "dependency file after the hit"
	assert_not_contains sub/.a.o.d "inc1/" "dependency file after the hit"

	# One token changed: a miss, and the new object.
	sed -i 's/K 3/K 4/' inc2/h.h
	mc_compile inc2
	assert_eq "$(mc_last)" miss "a changed token"
	mc_fresh inc2
	cmp sub/a.o fresh/a.o || fail "the changed token's object differs from a fresh compile"

	# __FILE__ and __LINE__ expand in the text: a header that uses them
	# misses when it moves or its lines move.
	printf 'static inline const char *where(void) { return __FILE__; }\n#define LINE __LINE__\n' >inc2/w.h
	printf '#include <w.h>\nconst char *w(void) { return where(); }\nint l(void) { return LINE; }\n' >sub/a.c
	mc_compile inc2
	assert_eq "$(mc_last)" miss "__FILE__ first compile"
	mkdir inc3 && mv inc2/w.h inc3/w.h
	mc_compile inc3
	assert_eq "$(mc_last)" miss "a moved header that expands __FILE__"
	printf '\n#include <w.h>\nconst char *w(void) { return WHERE; }\nint l(void) { return LINE; }\n' >sub/a.c
	printf '#define WHERE "x"\n#define LINE __LINE__\n' >inc3/w.h
	mc_compile inc3
	assert_eq "$(mc_last)" miss "__LINE__ first compile"
	printf '\n\n#include <w.h>\nconst char *w(void) { return WHERE; }\nint l(void) { return LINE; }\n' >sub/a.c
	mc_compile inc3
	assert_eq "$(mc_last)" miss "__LINE__ on another line"

	# A header that moves out of a system directory: warnings that were
	# silenced there are not, so the state is part of the key.
	printf '#include <s.h>\nint g(void) { return S; }\n' >sub/a.c
	mkdir sys && printf '#define S 1\n' >sys/s.h
	"$SERIES_ROOT/scripts/lib/mcache.py" gcc -O2 -isystem sys -Wp,-MMD,sub/.a.o.d -c sub/a.c -o sub/a.o
	assert_eq "$(mc_last)" miss "system header first compile"
	mc_compile sys
	assert_eq "$(mc_last)" miss "the header no longer a system header"

	# An object that embeds another file with .incbin depends on that
	# file, which the text does not show: never kept, so a new blob is
	# in the next object.
	local n
	n=$(wc -l <mc.log)
	printf 'blob one\n' >sub/blob.bin
	printf 'asm(".pushsection .rodata\\n.incbin \\"sub/blob.bin\\"\\n.popsection");\n' >sub/a.c
	mc_compile inc2
	printf 'blob two\n' >sub/blob.bin
	mc_compile inc2
	grep -q 'blob two' sub/a.o || fail "the .incbin object kept the old blob"
	# Logged as uncached, with the key of the text (the pure-move
	# check compares it).
	assert_eq "$(wc -l <mc.log)" "$((n + 2))" "log lines of .incbin compiles"
	assert_eq "$(tail -n 1 mc.log | cut -d' ' -f1)" uncached "an .incbin compile's log line"
	[ -f "cache/$(tail -n 1 mc.log | cut -c10-11)/$(tail -n 1 mc.log | cut -c12-73).i.z" ] ||
		fail "the text of an uncached compile is not kept"

	# A compile with a diagnostic is never kept: it runs, and warns,
	# every time.
	printf 'int g(void) { int unused; return 0; }\n' >sub/a.c
	mc_compile inc2
	assert_eq "$(mc_last)" nostore "a compile that warns"
	assert_contains err "unused variable" "its warning"
	mc_compile inc2
	assert_eq "$(mc_last)" nostore "the compile that warns, again"
	assert_contains err "unused variable" "its warning, again"

	# Never cached: debug information (the object names paths and
	# lines); its text has a key all the same, which the options are
	# part of.
	printf 'int g(void) { return 1; }\n' >sub/a.c
	n=$(wc -l <mc.log)
	"$SERIES_ROOT/scripts/lib/mcache.py" gcc -O2 -g -c sub/a.c -o sub/a.o
	"$SERIES_ROOT/scripts/lib/mcache.py" gcc -O2 -g -c sub/a.c -o sub/a.o
	"$SERIES_ROOT/scripts/lib/mcache.py" gcc -O2 -Wa,-gdwarf-2 -c sub/a.c -o sub/a.o
	[ -s sub/a.o ] || fail "a debug compile did not run"
	assert_eq "$(tail -n +$((n + 1)) mc.log | cut -d' ' -f1 | tr '\n' ' ')" "uncached uncached uncached " \
		"log lines of debug compiles"
	assert_eq "$(tail -n +$((n + 1)) mc.log | cut -d' ' -f2 | sort -u | wc -l)" 2 "keys of -g twice and -Wa,-gdwarf-2"
	# Not cached at all: output other than an object, and no MCACHE_DIR.
	n=$(wc -l <mc.log)
	"$SERIES_ROOT/scripts/lib/mcache.py" gcc -O2 -S sub/a.c -o sub/a.s
	env -u MCACHE_DIR "$SERIES_ROOT/scripts/lib/mcache.py" gcc -O2 -c sub/a.c -o sub/a.o
	[ -s sub/a.s ] && [ -s sub/a.o ] || fail "a passed-through command did not run"
	assert_eq "$(wc -l <mc.log)" "$n" "log lines of passed-through commands"

	# A failing compile fails through the cache, with its message.
	printf 'int g(void) { return }\n' >sub/a.c
	expect_exit 1 out "$SERIES_ROOT/scripts/lib/mcache.py" gcc -c sub/a.c -o sub/a.o
	assert_contains out "error"
}
TESTS+=(test_mcache)

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Self-tests of the check units that judge a patch: sign-off, subject,
# the checkpatch allowlist, the semantic patches coccinelle runs,
# kernel-doc and sparse, on small git trees.
# Each test runs in its own empty directory ($TEST_WORK) in a subshell.

test_signoff() {
	local r=$SERIES_ROOT/scripts/checks/signoff/signoff.py me='A Sender' mail=a@example.org
	mkpatch() { # FROM TRAILER...: a patch file from FROM with these trailers
		local from=$1
		shift
		printf 'From: %s\nSubject: [PATCH] x: y\n\nWhy.\n\n' "$from"
		printf '%s\n' "$@"
		printf -- '---\n Signed-off-by: Not <a@trailer.example>\n'
	}
	judge() { # RC TEXT FROM TRAILER...: the judge of that patch exits RC, saying TEXT
		local rc=$1 text=$2
		shift 2
		mkpatch "$@" >t.patch
		expect_exit "$rc" out python3 "$r" t.patch "$me" "$mail"
		assert_contains out "$text"
	}
	local sob="Signed-off-by: $me <$mail>"
	judge 0 "author $me <$mail> signs off; 1 trailer(s), the last by the sender" "$me <$mail>" "$sob"
	# An author other than the sender, and a co-developer: both sign off.
	judge 0 "4 trailer(s), the last by the sender" "B Author <b@example.org>" \
		"Co-developed-by: C Dev <c@example.org>" "Signed-off-by: C Dev <c@example.org>" \
		"Signed-off-by: B Author <B@example.org>" "$sob"
	judge 1 "1 finding(s): no Signed-off-by" "$me <$mail>"
	judge 1 "FAIL the author B Author <b@example.org> does not sign off" "B Author <b@example.org>" "$sob"
	judge 1 "FAIL Co-developed-by C Dev <c@example.org> is not followed by their Signed-off-by" \
		"$me <$mail>" "Co-developed-by: C Dev <c@example.org>" "$sob"
	judge 1 "FAIL the last Signed-off-by is B Author <b@example.org>, not the sender $me <$mail>" \
		"$me <$mail>" "$sob" "Signed-off-by: B Author <b@example.org>"
	judge 1 "FAIL $me <$mail> signs off twice" "$me <$mail>" "$sob" "$sob"
	judge 1 "FAIL malformed trailer: Signed-off-by: $me" "$me <$mail>" "Signed-off-by: $me" "$sob"
	expect_exit 2 out python3 "$r" t.patch "$me"
	expect_exit 2 out python3 "$r" no-such.patch "$me" "$mail"
}
TESTS+=(test_signoff)

test_subject() {
	local r=$SERIES_ROOT/scripts/checks/subject/subject.py
	cat >t.conf <<'EOF'
# a comment
KVM: = virt/kvm/ include/linux/kvm*
KVM: s390: = arch/s390/kvm/
s390: = arch/s390/
EOF
	judge() { # RC TEXT SUBJECT CHANGES: the judge of that patch exits RC, saying TEXT
		printf 'From: A <a@example.org>\nSubject: [PATCH v2 3/9] %s\n\nWhy.\n' "$3" >p
		expect_exit "$1" out python3 "$r" t.conf p "$4"
		assert_contains out "$2"
	}
	printf 'M\tarch/s390/kvm/kvm-s390.c\nR100\tvirt/kvm/a.c\tvirt/kvm/b.c\n' >changes
	printf 'M\tinclude/linux/kvm_host.h\n' >changes2
	judge 0 "'KVM: s390:' names 1 of 3 touched file(s)" 'KVM: s390: Do a thing' changes
	judge 0 "'KVM:' names 2 of 3 touched file(s)" 'KVM: Do a thing' changes
	judge 1 "'KVM: s390:' names none of the 1 touched file(s) (first: include/linux/kvm_host.h)" \
		'KVM: s390: Do a thing' changes2
	judge 1 "unknown subject prefix 'kvm:' in 'kvm: Do a thing'" 'kvm: Do a thing' changes
	# The whole prefix is an entry: a sub-prefix the table lacks is a
	# finding, not the start of the summary; one it has is judged by its
	# own areas.
	judge 1 "unknown subject prefix 'KVM: s390: gnap:' in 'KVM: s390: gnap: Do a thing': not an entry of configs/subjects.conf; the table has 'KVM: s390:'" \
		'KVM: s390: gnap: Do a thing' changes
	judge 1 "unknown subject prefix 'Do' in 'Do a thing'" 'Do a thing' changes
	printf 'KVM: s390: gmap: = arch/s390/kvm/gmap/\n' >>t.conf
	judge 1 "'KVM: s390: gmap:' names none of the 3 touched file(s)" 'KVM: s390: gmap: Do a thing' changes
	printf 'M\tarch/s390/kvm/gmap/dat.h\n' >changes3
	judge 0 "'KVM: s390: gmap:' names 1 of 1 touched file(s)" 'KVM: s390: gmap: Do a thing' changes3
	printf 'KVM s390 = arch/s390/kvm/\n' >bad.conf
	expect_exit 2 out python3 "$r" bad.conf p changes
	assert_contains out "bad.conf:1: not 'PREFIX: = AREA...'"
	expect_exit 2 out python3 "$r" t.conf p
}
TESTS+=(test_subject)

test_checkpatch_allowlist() {
	local r=$SERIES_ROOT/scripts/checks/checkpatch/allow.py
	printf '# reasons\n0002-*.patch\tLONG_LINE\ta table that reads better wide\n*\tFILE_PATH_CHANGES\tthe maintainers check\n' >allow
	{
		printf 'a.c:3: WARNING:LONG_LINE: line length of 120 exceeds 100 columns\n+\tx\n\n'
		printf 'a.c:9: ERROR:FILE_PATH_CHANGES: made-up error of an accepted type\n\n'
		printf 'MAINTAINERS:1: WARNING:FILE_PATH_CHANGES: added, moved or deleted file(s)\n\n'
		printf 'new: 3, moved: 0\n'
	} >reports
	expect_exit 1 out python3 "$r" allow patches/0001-x.patch reports
	assert_contains out "counted: 2, accepted: 1"
	assert_contains out "accepted (FILE_PATH_CHANGES): the maintainers check"
	expect_exit 1 out python3 "$r" allow patches/0002-y.patch reports
	assert_contains out "counted: 1, accepted: 2"
	assert_contains out "a.c:9: ERROR:FILE_PATH_CHANGES"
	# The counted report comes first, for the unit's summary.
	[ "$(grep -m1 -E '(ERROR|WARNING|CHECK):' out)" = "a.c:9: ERROR:FILE_PATH_CHANGES: made-up error of an accepted type" ] ||
		fail "the counted report is not the first one"
	printf 'x\tLONG_LINE\n' >bad
	expect_exit 2 out python3 "$r" bad patches/0001-x.patch reports
	assert_contains out "bad:1: want 'PATCH TYPE REASON...'"
	# The allowlist of the repository: every line has a reason.
	expect_exit 0 out python3 "$r" "$SERIES_ROOT/configs/checkpatch-allowlist.conf" x.patch /dev/null
}
TESTS+=(test_checkpatch_allowlist)

test_coccinelle_select() {
	local r=$SERIES_ROOT/scripts/checks/coccinelle/select.py
	printf 'a.cocci\tkfree || vfree\nb.cocci\t\nc.cocci\tkmalloc\nd.cocci\t(x && y)\ne.cocci\tkfree_sensitive\n' >q
	printf 'void f(void *p)\n{\n\tkfree(p); /* kfree_sensitivex */\n}\n' >one.c
	printf '#define N 1\n' >two.h
	expect_exit 0 out python3 "$r" q one.c two.h
	assert_eq "$(tr '\n' ' ' <out)" 'a.cocci b.cocci d.cocci ' "semantic patches selected"
	expect_exit 0 out python3 "$r" q two.h
	assert_eq "$(tr '\n' ' ' <out)" 'b.cocci d.cocci ' "semantic patches for a file without their tokens"
	expect_exit 2 out python3 "$r" q
}
TESTS+=(test_coccinelle_select)

# The kernel-doc unit on a two-commit git tree with stand-ins for
# scripts/kernel-doc: Python's and Perl's message forms give the same
# verdict, a warning printed twice is one, and a kernel-doc that cannot
# run (a traceback, an exit status) fails instead of passing.
test_kernel_doc_unit() {
	local r=$SERIES_ROOT/scripts/checks/kernel-doc/run
	mkdir -p tree/scripts res
	printf 'int f(int a);\n' >tree/x.c
	tgit_t() { git -C tree -c user.name=t -c user.email=t@example.org "$@"; }
	# kd LANG BODY: scripts/kernel-doc, a LANG script that runs BODY (sh).
	kd() {
		printf '#!/usr/bin/env %s\n' "$1" >tree/scripts/kernel-doc
		printf '%s\n' "$2" >tree/kd.sh
	}
	run_kd() {
		(cd tree && SERIES_CHECK_RESULT_DIR=$PWD/../res SERIES_CHECK_CHANGES=$PWD/../changes \
			SERIES_CHECK_PARENT=HEAD~1 PATH=$PWD/../bin:$PATH bash "$r")
	}
	# The interpreters run the stand-in's body, whatever its language.
	mkdir -p bin
	printf '#!/bin/sh\nshift; exec sh "$(dirname "$0")/../tree/kd.sh" "$@"\n' >bin/python3
	cp bin/python3 bin/perl
	chmod +x bin/python3 bin/perl
	tgit_t init -q && tgit_t add x.c && tgit_t commit -qm base
	printf 'int f(int b);\n' >tree/x.c
	tgit_t commit -qam step
	printf 'M\tx.c\n' >changes
	# At the step (x.c says b), one warning, printed twice.
	kd python3 'grep -q "int b" "$2" || exit 0; for i in 1 2; do echo "Warning: $2:1 function parameter '"'"'b'"'"' not described in '"'"'f'"'"'" >&2; done'
	expect_exit 1 out run_kd
	assert_eq "$(cat res/summary)" "1 new warning(s): x.c: warning: function parameter 'b' not described in 'f'" "python form"
	kd perl 'grep -q "int b" "$2" || exit 0; echo "$2:1: warning: Function parameter or struct member '"'"'b'"'"' not described in '"'"'f'"'"'" >&2'
	expect_exit 1 out run_kd
	assert_contains res/summary "1 new warning(s): x.c: warning: Function parameter or struct member 'b'"
	kd python3 'exit 0'
	expect_exit 0 out run_kd
	assert_contains res/summary "no new warning on 1 touched C file(s)"
	kd python3 'echo "Traceback (most recent call last):" >&2'
	expect_exit 1 out run_kd
	assert_eq "$(cat res/summary)" "kernel-doc printed a line this check does not understand: Traceback (most recent call last):" "traceback"
	kd python3 'exit 3'
	expect_exit 1 out run_kd
	assert_eq "$(cat res/summary)" "kernel-doc exited with status 3 on x.c" "exit status"
	kd bash 'exit 0'
	expect_exit 1 out run_kd
	assert_contains res/summary "scripts/kernel-doc: no known interpreter in its first line"
}
TESTS+=(test_kernel_doc_unit)

# The sparse unit's helper on a two-commit git tree and a build directory
# made by hand, with a stand-in for sparse: what it runs at the parent
# (paths into the parent's extract, a moved source's own directory, the
# two-word -I), the set comparison, and its three ways of stopping.
test_sparse_units() {
	local r=$SERIES_ROOT/scripts/checks/sparse/sparse.py t=$PWD/tree b=$PWD/build
	mkdir -p tree/old tree/include tree/virt build/new
	printf 'int f(void)\n{\n\treturn 0;\n}\n' >tree/old/x.c
	printf '#define N 1\n' >tree/include/n.h
	printf '#define V 1\n' >tree/virt/v.h
	printf 'int f(void)\n{\n\treturn V;\n}\n' >tree/virt/y.c
	tgit_t() { git -C tree -c user.name=t -c user.email=t@example.org "$@"; }
	tgit_t init -q && tgit_t add . && tgit_t commit -qm base
	tgit_t mv old new
	printf 'int g(void)\n{\n\treturn 1;\n}\n' >>tree/new/x.c
	printf '#define M 2\n' >>tree/include/n.h
	printf '#define W 2\n' >>tree/virt/v.h
	tgit_t commit -qam step
	tgit_t diff --name-status -M HEAD~1 HEAD >changes
	assert_contains changes $'\told/x.c\tnew/x.c'
	{
		printf 'savedcmd_new/x.o := ccache gcc -Wp,-MMD,new/.x.o.d -nostdinc -I%s/include -I %s/virt' "$t" "$t"
		printf ' -include %s/include/n.h -I%s/new -Inew -DKBUILD_BASENAME='"'"'"x"'"'"' -c -o new/x.o %s/new/x.c\n\n' "$t" "$t" "$t"
		printf 'source_new/x.o := %s/new/x.c\n\ndeps_new/x.o := \\\n  %s/new/x.c \\\n  %s/include/n.h \\\n\n' "$t" "$t" "$t"
	} >build/new/.x.o.cmd
	# An object a Makefile reaches by "../", as arch/*/kvm do virt/kvm.
	mkdir -p build/virt
	{
		printf 'savedcmd_arch/k/../../virt/y.o := ccache gcc -nostdinc -I%s/include -I%s/arch/k -Iarch/k' "$t" "$t"
		printf ' -c -o arch/k/../../virt/y.o %s/arch/k/../../virt/y.c\n\n' "$t"
		printf 'source_arch/k/../../virt/y.o := %s/arch/k/../../virt/y.c\n\n' "$t"
		printf 'deps_arch/k/../../virt/y.o := \\\n  %s/arch/k/../../virt/y.c \\\n  %s/arch/k/../../virt/v.h \\\n\n' "$t" "$t"
	} >build/virt/.y.o.cmd
	# What the step's build links: vmlinux.a (a thin archive) and the
	# modules of modules.order.  An object left by another step is not,
	# though its dependencies name a touched header and it sorts first.
	: >build/new/x.o
	(cd build && ar cDPrST vmlinux.a new/x.o)
	mkdir -p build/arch/k build/a
	echo arch/k/m.o >build/modules.order
	echo arch/k/../../virt/y.o >build/arch/k/m.mod
	{
		printf 'savedcmd_a/z.o := gcc -c -o a/z.o %s/a/z.c\n\nsource_a/z.o := %s/a/z.c\n\n' "$t" "$t"
		printf 'deps_a/z.o := \\\n  %s/a/z.c \\\n  %s/include/n.h \\\n\n' "$t" "$t"
	} >build/a/.z.o.cmd
	# The stand-in: one warning per source and one in a header it does
	# not touch, one more for the step's g();
	# FAKE_PARENT says how it ends on the parent's source.
	cat >fake-sparse <<-'SH'
	#!/bin/sh
	for src; do :; done
	case $src in
	*parent-tree*)
		case ${FAKE_PARENT:-} in
		noopen) echo "$src:1:10: error: unable to open 'asm/x.h'"; exit 1 ;;
		die) echo "sparse: out of memory"; exit 1 ;;
		esac ;;
	esac
	[ "${FAKE_MARCH:-}" != 1 ] || { echo "sparse: error: invalid argument to '-march': '_zicsr'"; exit 1; }
	echo "$src:1:5: warning: symbol 'f' was not declared. Should it be static?"
	echo "${src%/*/*}/include/other.h:3:1: warning: noise in a header"
	grep -q 'g(void)' "$src" && echo "$src:6:5: warning: symbol 'g' was not declared. Should it be static?"
	exit 0
	SH
	chmod +x fake-sparse
	run_sp() { python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 --checkflags='-D__linux__ -m64' \
		--changes changes --out "$1" --jobs 2 --sparse "$PWD/fake-sparse"; }
	expect_exit 1 out run_sp o1
	assert_eq "$(head -n 1 out)" "1 new sparse warning(s): x.c: warning: symbol 'g' was not declared. Should it be static?" "summary"
	assert_contains out "include/n.h: through new/x.o (1 object(s) include it)"
	assert_contains out "virt/v.h: through virt/y.o (1 object(s) include it)"
	assert_eq "$(cat o1/objects)" $'new/x.o\tnew/x.c\told/x.c\nvirt/y.o\tvirt/y.c\tvirt/y.c' "objects"
	assert_contains o1/step/virt%y.o "-I$t/arch/k -Iarch/k $t/virt/y.c"
	local p=$PWD/o1/parent-tree
	# The parent's command: sources and include directories in the
	# parent's extract, the two-word -I too, the own directory the old
	# one, no dependency file.
	assert_contains o1/parent/new%x.o "-I$p/include -I $p/virt -include $p/include/n.h -I$p/old -Iold "
	assert_contains o1/parent/new%x.o " $p/old/x.c"
	assert_not_contains o1/parent/new%x.o "-Wp,-MMD"
	assert_contains o1/step/new%x.o "-D__linux__ -m64 -Wp,-MMD,new/.x.o.d -nostdinc -I$t/include -I $t/virt "
	assert_eq "$(cat o1/parent-warnings)" "other.h: warning: noise in a header
x.c: warning: symbol 'f' was not declared. Should it be static?
y.c: warning: symbol 'f' was not declared. Should it be static?" "parent set"
	[ -f "$p/old/x.c" ] && [ -f "$p/virt/v.h" ] || fail "the parent's extract lacks old/x.c or virt/v.h"
	# A parent that cannot open a header: the object is checked as new.
	expect_exit 1 out env FAKE_PARENT=noopen python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes --out o2 --sparse "$PWD/fake-sparse"
	assert_eq "$(head -n 1 out)" "2 new sparse warning(s): x.c: warning: symbol 'f' was not declared. Should it be static?" "summary"
	assert_contains out "new/x.o: its parent source does not compile for this arch (/"
	# Without a parent, only what it reports in touched files counts.
	assert_contains out "new/x.o: not counted, in files the patch does not touch: other.h: warning: noise in a header"
	# Any other failing status fails; sparse refusing an argument skips.
	expect_exit 1 out env FAKE_PARENT=die python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes --out o3 --sparse "$PWD/fake-sparse"
	assert_eq "$(head -n 1 out)" "sparse stopped with status 1 on the parent's new/x.o: sparse: out of memory" "summary"
	expect_exit 4 out env FAKE_MARCH=1 python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes --out o4 --sparse "$PWD/fake-sparse"
	assert_contains out "sparse cannot check this arch with kbuild's arguments: sparse: error: invalid argument to '-march'"
	# Nothing compiled here: a pass that says so.
	printf 'M\tdocs/x.txt\n' >changes2
	expect_exit 0 out python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes2 --out o5 --sparse "$PWD/fake-sparse"
	assert_eq "$(head -n 1 out)" "nothing touched is compiled on this arch" "summary"
	# A build directory whose build did not link: an error, not a pass.
	mkdir -p nolink
	expect_exit 1 out python3 "$r" --tree "$t" --build "$PWD/nolink" --parent HEAD~1 --srcarch x86 \
		--checkflags=-m64 --changes changes --out o7 --sparse "$PWD/fake-sparse"
	assert_contains out "cannot list the objects of this step: no vmlinux.a in $PWD/nolink"
	# CHECKFLAGS as the unit reads them from make: a define quoted for
	# its space (as mips quotes its compiler's) stays one argument.
	printf '%s\n' "CHECKFLAGS := -D__linux__ -D'__U8__'='unsigned char' -m64" >flags.mk
	local flags
	flags=$(make -s --no-print-directory -f flags.mk \
		--eval="$(<"$SERIES_ROOT/scripts/checks/sparse/checkflags.mk")" series-checkflags | tail -n 1)
	expect_exit 1 out python3 "$r" --tree "$t" --build "$b" --parent HEAD~1 --srcarch x86 \
		--checkflags="$flags" --changes changes --out o6 --sparse "$PWD/fake-sparse"
	assert_contains o6/step/new%x.o "fake-sparse -D__linux__ '-D__U8__=unsigned char' -m64 -Wp,-MMD"
}
TESTS+=(test_sparse_units)

# checkpatch.pl's report after a Python helper's traceback (spdxcheck.py
# failing on a line) is not read as the whole report: the unit fails,
# saying so, even where the tally that follows says nothing was found.
test_checkpatch_traceback() {
	/usr/bin/python3 -c 'import ply, git' 2>/dev/null ||
		skip "/usr/bin/python3 lacks ply or git (Debian packages python3-ply python3-git)"
	mkdir -p tree/scripts res
	cat >tree/scripts/checkpatch.pl <<'PL'
print "Traceback (most recent call last):\n  File \"scripts/spdxcheck.py\", line 6, in <module>\nModuleNotFoundError: No module named 'ply'\n";
print "total: 0 errors, 0 warnings, 0 checks, 10 lines checked\n";
PL
	printf 'Subject: [PATCH] x\n\n---\n' >x.patch
	(cd tree && expect_exit 1 ../out env SERIES_ROOT="$SERIES_ROOT" SERIES_CONFIGS="$SERIES_ROOT/configs" \
		SERIES_CHECK_RESULT_DIR="$TEST_WORK/res" SERIES_CHECK_PATCH="$TEST_WORK/x.patch" \
		"$SERIES_ROOT/scripts/checks/checkpatch/run")
	assert_eq "$(cat res/summary)" "a Python helper of checkpatch.pl failed (traceback in the log)" "summary"
}
TESTS+=(test_checkpatch_traceback)

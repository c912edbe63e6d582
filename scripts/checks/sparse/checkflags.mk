# SPDX-License-Identifier: GPL-2.0
# Given to kbuild with --eval: print CHECKFLAGS as the text make puts into
# sparse's command line, quotes included.  An arch may quote a define
# whose value holds a space (mips: -D'__UINT8_TYPE__'='unsigned char');
# a recipe's "echo" would let the shell take those quotes away.
series-checkflags: ; $(info $(CHECKFLAGS))

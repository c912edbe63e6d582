# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# module_snapshot NAME DIR: describe the module NAME of the loaded arch's
# current build in DIR, for module-compare.py: modinfo (the .modinfo
# strings), exports (the module's lines of Module.symvers: symbol, export
# type, namespace), and disasm/OBJECT (objdump -d of each object linked
# into it, named by its path relative to the tree).
module_snapshot() {
	local name=$1 dir=$2 ko mod o rel
	ko=$(awk -v n="$name" '{ f = $0; sub(/.*\//, "", f); if (f == n ".o") print }' \
		"$ARCH_BUILD_DIR/modules.order")
	[ -n "$ko" ] || { err "$ARCH_NAME: no module $name in modules.order"; return 1; }
	ko=$ARCH_BUILD_DIR/${ko%.o}.ko
	mod=${ko%.ko}.mod
	rm -rf "$dir" && mkdir -p "$dir/disasm"
	"${ARCH_CROSS_COMPILE}objcopy" -O binary --only-section=.modinfo "$ko" "$dir/modinfo.bin"
	tr '\0' '\n' <"$dir/modinfo.bin" | grep -v '^$' | LC_ALL=C sort >"$dir/modinfo"
	rm -f "$dir/modinfo.bin"
	awk -F'\t' -v m="${ko#"$ARCH_BUILD_DIR"/}" 'BEGIN { sub(/\.ko$/, "", m) }
		$3 == m { print $2 "\t" $4 "\t" $5 }' "$ARCH_BUILD_DIR/Module.symvers" |
		LC_ALL=C sort >"$dir/exports"
	for o in $(cat "$mod"); do
		rel=$(realpath -m --relative-to="$ARCH_BUILD_DIR" "$ARCH_BUILD_DIR/$o")
		"${ARCH_CROSS_COMPILE}objdump" -d --no-show-raw-insn "$ARCH_BUILD_DIR/$o" |
			tail -n +4 >"$dir/disasm/$(echo "$rel" | tr / %)"
	done
	echo "${ko#"$ARCH_BUILD_DIR"/}" >"$dir/path"
}

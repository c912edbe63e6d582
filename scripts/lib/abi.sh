# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# UAPI installation for the ABI checks (abi-arm64, abi-arm64-foreign).
# Needs common.sh and build.sh; ABI_INPUTS from configs/abi/*.conf.

# abi_input_key: identifies everything that an arch's installed UAPI
# headers depend on: the tracked files under $ABI_INPUTS ("{srcarch}" is
# the loaded arch's), the arch data and the compiler.  Two steps with the
# same key install the same headers.
abi_input_key() {
	local paths=() p
	for p in $ABI_INPUTS; do paths+=("${p//\{srcarch\}/$ARCH_SRCARCH}"); done
	{
		git ls-tree -r HEAD -- "${paths[@]}"
		cat "$SERIES_CONFIGS/arch/$ARCH_NAME.conf"
		"${ARCH_CROSS_COMPILE}gcc" --version | head -1
	} | sha1sum | cut -c1-40
}

# abi_install_headers DEST: headers_install of the checked-out tree for
# the loaded arch into DEST/include, from a scratch object directory.
abi_install_headers() {
	ARCH_BUILD_DIR=$SERIES_CACHE/abi/$ARCH_NAME
	rm -rf "$1"
	kmake -s headers_install INSTALL_HDR_PATH="$1"
}

# abi_header_list DIR: the installed header names under DIR/include.
abi_header_list() {
	(cd "$1/include" && find . -name '*.h' -printf '%P\n' | LC_ALL=C sort)
}

# abi_install_foreign DEST ROOT DIR: install the headers under ROOT/DIR of
# the tree (a view for foreign hosts, which headers_install skips) into
# DEST/include/DIR with the kernel's own headers_install.sh, run from the
# loaded arch's object directory that abi_install_headers prepared.
abi_install_foreign() {
	local dest=$1 root=$2 dir=$3 f
	while IFS= read -r f; do
		mkdir -p "$dest/include/$(dirname "$f")"
		(cd "$ARCH_BUILD_DIR" && sh "$SERIES_TREE/scripts/headers_install.sh" \
			"$SERIES_TREE/$root/$f" "$dest/include/$f") || return 1
	done < <(cd "$SERIES_TREE/$root" && find "$dir" -name '*.h' | LC_ALL=C sort)
}

# abi_dump STATE LOG OUT NAME HEADERS PREFIXES [ROOT DIR]: the ABI dump of
# HEADERS (and the list of installed headers) for the loaded arch, into
# OUT.dump and OUT.files; with ROOT DIR, the foreign view under ROOT/DIR is
# installed on top.  Made once per input key, kept in STATE.
abi_dump() {
	local state=$1 log=$2 out=$3 name=$4 headers=$5 prefixes=$6 root=${7:-} dir=${8:-}
	local key hdr args=() h p
	key=$(printf '%s\n' "$(abi_input_key)" "$name" "$headers" "$prefixes" "$root" "$dir" |
		sha1sum | cut -c1-40)
	mkdir -p "$state"
	if [ -s "$state/$key.dump" ] && [ -s "$state/$key.files" ]; then
		echo "$name: inputs unchanged (key $key): reusing the dump" >>"$log"
	else
		hdr=$(dirname "$out")/headers-$name
		if ! abi_install_headers "$hdr" >>"$log" 2>&1; then
			echo "headers_install failed for $ARCH_KBUILD"
			return 1
		fi
		if [ -n "$root" ] && ! abi_install_foreign "$hdr" "$root" "$dir" >>"$log" 2>&1; then
			echo "installing $root/$dir failed"
			return 1
		fi
		for h in $headers; do args+=(--header "$h"); done
		for p in $prefixes; do args+=(--prefix "$p"); done
		if ! python3 "$SERIES_ROOT/scripts/lib/abi-dump.py" --cc "${ARCH_CROSS_COMPILE}gcc" \
			--include "$hdr/include" "${args[@]}" "$state/$key.tmp" >>"$log" 2>&1; then
			echo "the ABI dump ($name) failed"
			return 1
		fi
		abi_header_list "$hdr" >"$state/$key.files"
		mv "$state/$key.tmp" "$state/$key.dump"
		rm -rf "$hdr"
	fi
	cp "$state/$key.dump" "$out.dump"
	cp "$state/$key.files" "$out.files"
	echo "$key" >"$out.key"
}

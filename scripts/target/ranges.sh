# shellcheck shell=bash disable=SC2154 # work, ir and the helpers are target-test.sh's
# SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)
# Sourced by scripts/target-test.sh: the dma-ranges case. QEMU's own virt
# tree has no dma-ranges, so every device's bus_dma_limit is 0 there, and
# an emitter writing a wrong dma-ranges, or none, would pass. This case
# boots the same machine with the description testdata/cases/
# qemu-virt-ranges: QEMU's dumped tree with its 32 virtio_mmio@... nodes
# moved into the simple-bus /bus@a000000 (one address and one size cell,
# identity ranges over their registers), on which the description states
# a dma-ranges window over the guest's RAM. of_dma_configure_id()
# (drivers/of/device.c, 6.1 and 6.12) gives each device below the bus the
# window's last bus address as its bus_dma_limit (of_dma_get_range(),
# drivers/of/address.c, reads the dma-ranges from the device's parent bus
# up); the masks are not narrowed for good, virtio_mmio_probe() sets its
# 64 bits after that. The description's verifier expects the limit it
# computes from the description (0x7fffffff for the two transports, 0
# for pcie@10000000 under the root), and targetplan derives the same from
# the description on its own. Two boots, in the background beside the
# board's (a guest running shell checks leaves most of its vCPUs idle):
#
#   ranges   the tree with the fragment: the device-tree, DMA and verifier
#            checks must pass, each transport's verifier line must show
#            the limit, virtio-rng on the bus must deliver bytes (by DMA,
#            check_hwrng), and the verifier of the same description with a
#            narrower window (size 0x20000000: 0x5fffffff) must refuse a
#            strict=1 load, naming the two transports on bus_dma_limit;
#   nowindow the same tree without the fragment's dma-ranges, all else
#            kept: the dma-ranges check, the verifier's strict load and
#            the two transports' verifier checks must fail, these on
#            bus_dma_limit alone (0x0 where 0x7fffffff is expected), and
#            nothing else.

rg_board=testdata/cases/qemu-virt-ranges
rg_name=qemu-virt-ranges
rg_c=qemu_virt_ranges
rg=$work/ranges

# ranges_tree prints QEMU's tree (dtc's dts) with its virtio_mmio@...
# nodes, children of the root, moved into bus@a000000, in their order and
# where the first of them was: their reg, two address and two size cells
# with zero upper cells in QEMU's tree, written in the bus's one and one.
ranges_tree() {
	dtc -q -I dtb -O dts "$1" | awk '
		/^\tvirtio_mmio@[0-9a-f]+ \{$/ { grab = 1; if (!at) at = ++n; moved++ }
		grab {
			if ($1 == "reg") {
				if ($3 != "<0x00" || $5 != "0x00" || NF != 6) { bad = $0; exit 1 }
				$0 = "\t\treg = <" $4 " " $6
			}
			body = body "\t" $0 "\n"
			if ($0 == "\t};") { grab = 0; body = body "\n" }
			next
		}
		{ line[++n] = $0 }
		END {
			if (bad != "" || !moved) { printf "no virtio_mmio node to move, or a reg not in 32 bits: %s\n", bad > "/dev/stderr"; exit 1 }
			for (i = 1; i <= n; i++) {
				if (i != at) { print line[i]; continue }
				print "\tbus@a000000 {"
				print "\t\tcompatible = \"simple-bus\";"
				print "\t\t#address-cells = <0x01>;"
				print "\t\t#size-cells = <0x01>;"
				print "\t\tranges = <0xa000000 0x00 0xa000000 0x4000>;"
				print ""
				printf "%s", body
				print "\t};"
				print ""
			}
		}'
}

# agrees BASE DTB succeeds when every node of the base tree BASE (the
# case's base.dts, the tree its go tests check the description against)
# is in DTB with each of BASE's properties the same; it names the first
# difference.
agrees() {
	dtc -q -I dts -O dtb -o "$rg/base.dtb" "$1"
	agrees_node "$rg/base.dtb" "$2" /
}
agrees_node() {
	local c p
	for p in $(fdtget -p "$1" "$3"); do
		[ "$(fdtget -t bx "$1" "$3" "$p")" = "$(fdtget -t bx "$2" "$3" "$p" 2>/dev/null)" ] || {
			echo "$3 $p: $(fdtget -t bx "$2" "$3" "$p" 2>&1 | tr '\n' ' ')is not the base tree's $(fdtget -t bx "$1" "$3" "$p")"
			return 1
		}
	done
	for c in $(fdtget -l "$1" "$3"); do
		agrees_node "$1" "$2" "${3%/}/$c" || return 1
	done
}

# ranges_prepare builds the case's trees, modules and initramfs.
ranges_prepare() {
	local t reg a s lim
	t=$(date +%s)
	mkdir -p "$rg"
	"$work/boardc" build -q -o "$rg/out" "$rg_board"
	rg_out=$rg/out/$rg_name
	go run ./internal/targetplan "$rg_board" >"$rg/plan"
	ranges_tree "$work/machine.dtb" >"$rg/machine.dts" || fail "$rg_name: cannot move QEMU's virtio_mmio nodes under a bus"
	dtc -q -I dts -O dtb -o "$rg/machine.dtb" "$rg/machine.dts"
	# Every transport's registers lie inside the bus's ranges.
	for n in $(fdtget -l "$rg/machine.dtb" /bus@a000000); do
		read -r a s <<<"$(fdtget -t x "$rg/machine.dtb" "/bus@a000000/$n" reg)"
		if [ $((0x$a)) -lt $((0xa000000)) ] || [ $((0x$a + 0x$s)) -gt $((0xa004000)) ]; then
			fail "$rg_name: /bus@a000000/$n reg $a $s is outside the bus's ranges"
		fi
	done
	reg=$(agrees "$rg_board/base.dts" "$rg/machine.dtb") ||
		fail "$rg_name: the booted tree is not the base tree the go tests use: $reg"
	fragment "$rg" "$rg_out" "$rg_name"
	grep -q '^/bus@a000000 dma-ranges ' "$rg/props" || fail "$rg_name: the fragment sets no dma-ranges on /bus@a000000"
	# The control's tree: the fragment's, without its dma-ranges.
	cp "$rg/board.dtb" "$rg/nowindow.dtb"
	fdtput -d "$rg/nowindow.dtb" /bus@a000000 dma-ranges
	# The masters the window limits, by the plan.
	awk '$1 == "limit" && $3 != "0x0" { print $2, $3 }' "$rg/plan" >"$rg/limited"
	[ -s "$rg/limited" ] || fail "$rg_name: the plan expects no master with a bus DMA limit"
	log "$rg_name: $(wc -l <"$rg/fragment.props") properties from the fragment over QEMU's tree with $(fdtget -l "$rg/machine.dtb" /bus@a000000 | wc -l) transports under /bus@a000000; $routes; bus DMA limits: $(tr '\n' ' ' <"$rg/limited")"

	# The DMA-layer module with this board's header, and its verifier,
	# by its generated Kbuild; beside them, the verifier of the same
	# description with the window halved.
	mkdir -p "$rg/mod" "$rg/neg/verify"
	cp scripts/target/module/boardc_target.c "$rg/mod/boardc_target_main.c"
	cp "$rg_out/boardc_$rg_c.h" "$rg_out/boardc_${rg_c}_verify.c" "$rg/mod/"
	{
		echo "obj-m := boardc_target.o"
		echo "boardc_target-y := boardc_target_main.o"
		echo "ccflags-y := -DBOARDC_HEADER='\"boardc_$rg_c.h\"' -DBOARDC_DMA_CAPS_LOOKUP=boardc_${rg_c}_dma_caps_lookup"
		cat "$rg_out/Kbuild"
	} >"$rg/mod/Kbuild"
	cp -r "$rg_board" "$rg/neg/case"
	soc=$rg/neg/case/board.cue
	sed -i 's/^\t\t\tdmaRanges: \[{child: 0x4000_0000, parent: 0x4000_0000, size: 0x4000_0000}\]$/\t\t\tdmaRanges: [{child: 0x4000_0000, parent: 0x4000_0000, size: 0x2000_0000}]/' "$soc"
	grep -q 'size: 0x2000_0000}]$' "$soc" ||
		fail "the window's negative control: $soc no longer states the window as it expects"
	"$work/boardc" build -q -o "$rg/neg/out" "$rg/neg/case"
	cp "$rg/neg/out/$rg_name/Kbuild" "$rg/neg/out/$rg_name/boardc_${rg_c}_verify.c" "$rg/neg/verify/"
	lim=$(go run ./internal/targetplan "$rg/neg/case" | awk '$1 == "limit" && $2 == "vnet" { print $3 }')
	[ "$lim" = 0x5fffffff ] || fail "the window's negative control: its plan gives vnet a limit of $lim, not 0x5fffffff"
	awk '{ print $1, "bus_dma_limit" }' "$rg/limited" >"$rg/verify-neg"
	kbuild "$rg/neg/verify" "$rg/kbuild-neg.log" "$rg_name's negative verifier" &
	kbuild "$rg/mod" "$rg/kbuild.log" "$rg_name's C and verifier"
	wait $! || fail "$rg_name's negative verifier did not build"

	# Its initramfs: the board's, with this board's plan, fragment,
	# outputs and modules, and the virtio modules alone.
	cp -a "$ir" "$rg/initramfs"
	rm -rf "$rg/initramfs/boardc/out" "$rg/initramfs/boardc/modules"/boardc_*.ko
	cp "$rg/plan" "$rg/props" "$rg/verify-neg" "$rg/initramfs/boardc/"
	cp -r "$rg_out" "$rg/initramfs/boardc/out"
	cp "$rg/mod/boardc_target.ko" "$rg/initramfs/boardc/modules/"
	cp "$rg/mod/boardc_${rg_c}_verify.ko" "$rg/initramfs/boardc/modules/boardc_verify.ko"
	cp "$rg/neg/verify/boardc_${rg_c}_verify.ko" "$rg/initramfs/boardc/modules/boardc_verify_neg.ko"
	grep -v '^boardc_' "$ir/boardc/load-order" >"$rg/initramfs/boardc/load-order"
	(cd "$rg/initramfs" && find . | cpio -o -H newc --quiet | gzip -1) >"$rg/initramfs.gz"
	log "$rg_name: trees, modules and initramfs in $(($(date +%s) - t))s"
}

# ranges_boot boots both guests, one after the other (in the background:
# the caller waits for it).
ranges_boot() {
	initrd=$rg/initramfs.gz
	boot dt "$rg/board.dtb" "$rg/ranges.log"
	boot dt "$rg/nowindow.dtb" "$rg/nowindow.log"
}

# ranges_results checks what the two guests printed.
ranges_results() {
	local key lim res missed
	sed 's/^/  ranges: /' "$rg/ranges.log.results" >&2
	rg_full=$(closing "$rg/ranges.log")
	read -r rg_pass _ rg_fail _ <<<"${rg_full//,/}"
	[ "$rg_fail" = 0 ] || fail "$rg_name: $rg_fail check(s) failed on the target"
	# Each limited master's verifier line shows the limit, non-zero, as
	# the kernel set it and as the description gives it.
	while read -r key lim; do
		grep -q "^ok verifier $key: .* bus_dma_limit=$lim/$lim\$" "$rg/ranges.log.results" ||
			fail "$rg_name: the verifier did not find $key's bus_dma_limit $lim"
	done <"$rg/limited"
	grep -q "^ok verifier negative:" "$rg/ranges.log.results" ||
		fail "$rg_name: the verifier of the narrower window did not refuse its load as it must"
	# The control: exactly the dma-ranges and the limited masters fail,
	# and the verifier's strict load; each master on its limit alone.
	closing "$rg/nowindow.log" >/dev/null
	sed -n 's/^/  nowindow: /p' "$rg/nowindow.log.results" | grep -E 'FAIL|passed' >&2 || true
	missed=
	grep -q '^FAIL dt /bus@a000000/dma-ranges:' "$rg/nowindow.log.results" || missed="$missed dt:/bus@a000000/dma-ranges"
	grep -q '^FAIL verifier strict:' "$rg/nowindow.log.results" || missed="$missed verifier:strict"
	while read -r key lim; do
		res=$(grep "^FAIL verifier $key: " "$rg/nowindow.log.results") || {
			missed="$missed verifier:$key"
			continue
		}
		# Each field a/b of its MISMATCH line agrees but bus_dma_limit,
		# which is 0x0 (printk's %#llx of 0) against the window's limit.
		echo "$res" | tr ' ;' '\n\n' | awk -F'[=/]' -v lim="$lim" '
			NF == 3 && $1 == "bus_dma_limit" { seen = 1; if ($2 != "0x0" || $3 != lim) bad = 1; next }
			NF == 3 && $1 ~ /^(coherent|dma_mask|coherent_mask)$/ && $2 != $3 { bad = 1 }
			END { exit !seen || bad }' || missed="$missed verifier:$key(not on bus_dma_limit=0x0/$lim alone: $res)"
	done <"$rg/limited"
	others=$(grep '^FAIL ' "$rg/nowindow.log.results" | grep -v '^FAIL dt /bus@a000000/dma-ranges:\|^FAIL verifier strict:' |
		grep -v "$(awk '{ printf "%s^FAIL verifier %s: ", s, $1; s = "\\|" }' "$rg/limited")" | cut -d: -f1 | tr '\n' ';' || true)
	[ -z "$missed" ] || fail "negative control: without the window these checks did not fail as they must:$missed"
	[ -z "$others" ] || fail "negative control: without the window other checks failed too: $others"
	log "$rg_name: $rg_full; bus DMA limits proven; without the window the dma-ranges, verifier strict and $(cut -d' ' -f1 "$rg/limited" | tr '\n' ' ')checks failed on bus_dma_limit alone"
}

# shellcheck shell=sh disable=SC2154 # plan, out and files are set by checks.sh
# SPDX-License-Identifier: (GPL-2.0-or-later OR MIT)
# Sourced by checks.sh, whose helpers and variables it uses.
# What the kernel shows of the description: device-tree properties, CPU
# topology, the DMA layer and the board's generated verifier module.

# --- device tree: every property the fragment sets or deletes --------------
check_props() {
	while read -r path name hex; do
		f=/proc/device-tree$path/$name
		if [ "$hex" = absent ]; then
			[ ! -e "$f" ]
			result "dt $path/$name" $? "deleted: $([ -e "$f" ] && echo "still present" || echo absent)"
			continue
		fi
		if [ ! -e "$f" ]; then
			result "dt $path/$name" 1 "absent from /proc/device-tree"
			continue
		fi
		[ "$hex" = - ] && hex=
		have=$(hexof "$f")
		if [ "$have" = "$hex" ]; then
			result "dt $path/$name" 0 "present, ${hex:-empty}"
		else
			result "dt $path/$name" 1 "is ${have:-empty}, want ${hex:-empty}"
		fi
	done </boardc/props
}

# --- CPU topology: the description's clusters are the kernel's --------------
check_clusters() {
	# shellcheck disable=SC2034 # the plan's record fields
	while read -r kind list rest; do
		[ "$kind" = cluster ] || continue
		for c in $(norm list "$list"); do
			f=/sys/devices/system/cpu/cpu$c/topology/cluster_cpus_list
			have=$(cat "$f" 2>/dev/null)
			[ "$(norm list "$have")" = "$(norm list "$list")" ]
			result "cluster cpu$c" $? "$f is ${have:-unreadable}, want $list"
		done
	done <"$plan"
}

# --- DMA layer: coherency and masks as the kernel sees them -----------------
check_dma() {
	paths=$(awk '$1 == "master" { printf "%s%s", sep, $3; sep = "," }' "$plan")
	if ! insmod /boardc/modules/boardc_target.ko "paths=$paths"; then
		result "dma module" 1 "boardc_target.ko did not load"
		return
	fi
	dmesg | sed -n 's/.*boardc-target: //p' >/tmp/dma
	while read -r kind key path state bits cbits setter; do
		[ "$kind" = master ] || continue
		want=0
		[ "$state" = coherent ] && want=1
		awk -v p="$path" '$1 == "dev" && $2 == p && $4 != "driver=-"' /tmp/dma >/tmp/bound
		if [ ! -s /tmp/bound ]; then
			result "coherent $key" 1 "no device bound to a driver at $path"
			continue
		fi
		bad=$(awk -v w="coherent=$want" '$5 != w { print $3 " " $5 }' /tmp/bound | tr '\n' ' ')
		if [ -z "$bad" ]; then
			result "coherent $key" 0 "$state: $(awk '{ printf "%s%s %s", s, $3, $5; s = ", " }' /tmp/bound)"
		else
			result "coherent $key" 1 "$state, but $bad"
		fi
		# The devices that do the DMA: the PCI devices behind a host
		# bridge, else the node's own device. A master whose bus driver
		# sets the masks on the devices it creates below the node's
		# (setter children: fsl-mc objects) keeps the OF default on the
		# node's device: the board's verifier checks the devices below.
		if [ "$setter" = children ]; then
			described=$(awk 'NR == 1 { sub(/^described=/, "", $8); print $8 }' /tmp/bound)
			[ "$described" = 0 ]
			result "c-table $key" $? "the bus driver sets the masks on the devices below; the generated C declares ${described} bits (0: none)"
			continue
		fi
		awk -v p="$path" 'NR > 1' /tmp/bound >/tmp/dmadevs
		[ -s /tmp/dmadevs ] || head -n 1 /tmp/bound >/tmp/dmadevs
		# A bridge whose endpoints' widths are not described (any): their
		# drivers set them, and nothing here says which.
		if [ "$bits" != any ]; then
			bad=$(awk -v w="dma_mask=$bits" -v c="coherent_mask=$cbits" '$6 != w || $7 != c { print $3 " " $6 " " $7 }' /tmp/dmadevs | tr '\n' ' ')
			if [ -z "$bad" ]; then
				result "dma-mask $key" 0 "$bits-bit streaming, $cbits-bit coherent: $(awk '{ printf "%s%s", s, $3; s = ", " }' /tmp/dmadevs)"
			else
				result "dma-mask $key" 1 "want $bits-bit streaming and $cbits-bit coherent masks, but $bad"
			fi
		fi
		# The generated C covers the masters whose driver does not set
		# its own masks, and no other.
		described=$(awk 'NR == 1 { sub(/^described=/, "", $8); print $8 }' /tmp/bound)
		if [ "$setter" = driver ]; then
			[ "$described" = 0 ]
			result "c-table $key" $? "the driver sets the masks; the generated C declares ${described} bits (0: none)"
		else
			[ "$described" = "$bits" ]
			result "c-table $key" $? "the generated C declares $described bits, the description $bits"
		fi
	done <"$plan"
}

# --- the board's generated verifier module ------------------------------------
# Loaded with strict=1, it must load (no mismatch, every master bound) and
# report each master ok; each of its lines is also checked per master: what
# the verifier expects (right of each "/") must be what the plan derives
# from the description (coherency, the mask widths it accepts, the bus DMA
# limit of the device, or of the PCI devices behind a host bridge), so that
# an emitter writing a wrong table cannot pass by agreeing with itself.
# A refused load prints each line twice: BusyBox's insmod, when
# finit_module() fails for any reason, tries again with init_module()
# (modutils/modutils.c, bb_init_module()), so the module's init runs twice.
check_verifier() {
	if insmod /boardc/modules/boardc_verify.ko strict=1 2>/tmp/verify.err; then
		result "verifier strict" 0 "boardc_verify.ko strict=1 loaded: $(dmesg | sed -n 's/.*boardc-verify: board //p' | tail -n 1)"
	else
		result "verifier strict" 1 "boardc_verify.ko strict=1 refused to load: $(dmesg | sed -n 's/.*boardc-verify: board //p' | tail -n 1)"
	fi
	dmesg | sed -n 's/.*boardc-verify: //p' >/tmp/verify
	awk '$1 == "limit" || $1 == "widths"' "$plan" >/tmp/verify.plan
	# shellcheck disable=SC2034 # the plan's record fields
	while read -r kind key path state bits cbits setter rest; do
		[ "$kind" = master ] || continue
		lines=$(awk -v k="$key" '($1 == "ok" || $1 == "MISMATCH") && $2 == k' /tmp/verify)
		if [ -z "$lines" ]; then
			result "verifier $key" 1 "no line: $(awk -v k="$key" '$2 == k' /tmp/verify)"
			continue
		elif echo "$lines" | grep -q '^MISMATCH'; then
			result "verifier $key" 1 "$(echo "$lines" | tr '\n' ';')"
			continue
		fi
		coh=0
		[ "$state" = coherent ] && coh=1
		own=$(awk -v k="$key" '$1 == "limit" && $2 == k { print $3 }' /tmp/verify.plan)
		pci=$(awk -v k="$key" '$1 == "limit" && $2 == k { print $4 }' /tmp/verify.plan)
		widths=$(awk -v k="$key" '$1 == "widths" && $2 == k { print $3, $4, $5, $6 }' /tmp/verify.plan)
		# A children master's own line has no masks (coherent= then
		# bus_dma_limit=); the devices below it take the PCI column's
		# limit, the walk from the master's node, and their widths by
		# object type, which the verifier checks itself. A PCI device's
		# line takes the PCI column's limit and the widths of the devices
		# below.
		wrong=$(echo "$lines" | awk -v c="$coh" -v w="$widths" -v own="$own" -v pci="$pci" -v s="$setter" '
			function want(f) { sub(/.*\//, "", f); return f }
			BEGIN { split(w, ws, " ") }
			$6 ~ /^bus_dma_limit=/ {
				if (s != "children" || want($5) != c || want($6) != own)
					printf "%s expects %s %s, the description coherent=%s bus_dma_limit=%s (masks on the devices below: %s); ", $4, $5, $6, c, own, s
				next
			}
			s == "children" {
				if (want($5) != c || want($8) != pci)
					printf "%s expects %s %s, the description coherent=%s bus_dma_limit=%s; ", $4, $5, $8, c, pci
				next
			}
			{
				below = $4 ~ /^[0-9a-f]+:[0-9a-f]+:[0-9a-f]+\.[0-9a-f]+$/
				d = below ? ws[3] : ws[1]
				cd = below ? ws[4] : ws[2]
				lim = below ? pci : own
				if (want($5) != c || want($6) != d || want($7) != cd || want($8) != lim)
					printf "%s expects %s %s %s %s, the description coherent=%s dma_mask=%s coherent_mask=%s bus_dma_limit=%s; ", $4, $5, $6, $7, $8, c, d, cd, lim
			}')
		if [ -n "$wrong" ]; then
			result "verifier $key" 1 "$wrong"
		else
			result "verifier $key" 0 "$(echo "$lines" | awk '{ printf "%s%s %s %s %s %s", s, $4, $5, $6, $7, $8; s = "; " }')"
		fi
	done <"$plan"
	# On a DPAA2 SoC: every online CPU with a DPIO of its own, and the
	# verifier's described count the plan's.
	dpios=$(awk '$1 == "dpio" { print $2 }' "$plan")
	if [ -n "$dpios" ]; then
		line=$(awk '$2 == "dpio" || $2 == "dpio:"' /tmp/verify)
		case $line in
		"ok dpio "*"described=$dpios") result "verifier dpio" 0 "$line" ;;
		*) result "verifier dpio" 1 "${line:-no line}, want ok and described=$dpios" ;;
		esac
	fi
}

# --- a master on a narrowed bus still does DMA --------------------------------
# check_hwrng reads 64 bytes from /dev/hwrng, whose current source must be
# virtio-rng ("virtio_rng.N", probe_common(),
# drivers/char/hw_random/virtio-rng.c, 6.1 and 6.12): its device writes
# every byte into a buffer the driver queues (request_entropy():
# sg_init_one(), virtqueue_add_inbuf()), so the bytes arrive only if the
# transport's DMA works.
check_hwrng() {
	cur=$(cat /sys/class/misc/hw_random/rng_current 2>/dev/null)
	case $cur in
	virtio_rng.*) ;;
	*)
		result "hwrng" 1 "the current hardware RNG is ${cur:-none}, not virtio-rng"
		return
		;;
	esac
	n=$(timeout 30 head -c 64 /dev/hwrng | wc -c)
	[ "$n" = 64 ]
	result "hwrng" $? "$cur gave $n of 64 bytes"
}

# --- negative control of the verifier ---------------------------------------
# boardc_verify_neg.ko is the board's verifier built from a description
# that is wrong on purpose (target-test.sh says which masters, in
# /boardc/verify-neg, one a line with the field their line must show
# differing: KEY [FIELD], FIELD dma_mask unless named): loaded with
# strict=1 after the real one is unloaded (both have the same name), it
# must refuse to load and report each of those masters as a MISMATCH
# whose FIELD=HAVE/WANT differs, and every other as ok.
check_verifier_negative() {
	[ -f /boardc/modules/boardc_verify_neg.ko ] || return 0
	name=boardc_$(awk '$1 == "board" { gsub(/-/, "_", $2); print $2 }' "$plan")_verify
	rmmod "$name" 2>/dev/null
	before=$(dmesg | grep -c 'boardc-verify: ')
	if insmod /boardc/modules/boardc_verify_neg.ko strict=1 2>/dev/null; then
		result "verifier negative" 1 "the verifier of a wrong description loaded with strict=1"
		rmmod "$name" 2>/dev/null
		return
	fi
	dmesg | grep 'boardc-verify: ' | sed -n "$((before + 1)),\$p" | sed 's/.*boardc-verify: //' >/tmp/verify.neg
	missed=
	keys=
	while read -r key field; do
		keys="$keys$key "
		awk -v k="$key" -v f="${field:-dma_mask}" '$1 == "MISMATCH" && $2 == k {
			for (i = 3; i <= NF; i++)
				if (index($i, f "=") == 1) {
					split(substr($i, length(f) + 2), v, "/")
					if (v[1] != v[2])
						found = 1
				}
		}
		END { exit !found }' /tmp/verify.neg || missed="$missed $key(${field:-dma_mask})"
	done </boardc/verify-neg
	others=$(awk -v neg=" $keys" '$1 == "MISMATCH" && index(neg, " " $2 " ") == 0 { print $2 }' /tmp/verify.neg | sort -u | tr '\n' ' ')
	[ -z "$missed" ] && [ -z "$others" ]
	result "verifier negative" $? "strict=1 refused; MISMATCH on $(awk '$1 == "MISMATCH" { print $2 }' /tmp/verify.neg | sort -u | tr '\n' ' ')(want ${keys}only)${missed:+, missing:$missed}"
}

# shellcheck shell=bash
# bench/cue-lib.sh: finding cue, shared by bench/run.sh and bench/edtlib.sh.

# CUE_VERSION is the cue the benchmarks install: the version boardc links.
CUE_VERSION=v0.17.1

# find_cue prints the path of cue: the one on PATH, else $(go env
# GOPATH)/bin/cue, which it installs (go install) when missing. With
# OPTIONAL=1 it prints nothing, rather than failing, when the install fails.
find_cue() {
	local cue
	cue=$(command -v cue || true)
	if [ -z "$cue" ]; then
		cue=$(go env GOPATH)/bin/cue
		if [ ! -x "$cue" ]; then
			echo "installing cue $CUE_VERSION (go install cuelang.org/go/cmd/cue@$CUE_VERSION)" >&2
			if ! go install "cuelang.org/go/cmd/cue@$CUE_VERSION" >&2; then
				[ "${OPTIONAL:-}" = 1 ] || return 1
				echo "cue: not installed" >&2
				return 0
			fi
		fi
	fi
	echo "$cue"
}

# shellcheck shell=sh disable=SC2034 # rc.common reads START, STOP, USE_PROCD
START=19
STOP=90
USE_PROCD=1
tune=${BOARDC_TUNE:-@tune@}

start_service() {
	sh "$tune" && return 0
	st=$?
	# 4: applied, with items missing (named in the log).
	[ "$st" = 4 ] && return 0
	return "$st"
}

stop_service() {
	sh "$tune" --revert
}

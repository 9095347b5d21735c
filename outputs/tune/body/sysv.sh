tune=${BOARDC_TUNE:-@tune@}

case ${1-} in
start | restart | reload)
	sh "$tune" && exit 0
	st=$?
	# 4: applied, with items missing (named above).
	[ "$st" = 4 ] && exit 0
	exit "$st"
	;;
stop) exec sh "$tune" --revert ;;
status) exec sh "$tune" --verify ;;
*)
	echo "usage: $0 start|stop|restart|status" >&2
	exit 2
	;;
esac

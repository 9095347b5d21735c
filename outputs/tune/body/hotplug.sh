case ${ACTION-} in
add | move) ;;
*) exit 0 ;;
esac
[ -n "${INTERFACE-}" ] || exit 0
tune=${BOARDC_TUNE:-@tune@}
sh "$tune" --interface "$INTERFACE" && exit 0
st=$?
[ "$st" = 4 ] && exit 0
exit "$st"

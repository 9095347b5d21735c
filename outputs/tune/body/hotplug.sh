[ "${ACTION-}" = add ] || exit 0
[ -n "${INTERFACE-}" ] || exit 0
tune=${BOARDC_TUNE:-@tune@}
sh "$tune" --interface "$INTERFACE" && exit 0
st=$?
[ "$st" = 4 ] && exit 0
exit "$st"

set -eu

irq=${2-}
case $irq in
'' | *[!0-9]*) exit 1 ;;
esac
names=$(BOARDC_IRQ=$irq awk -v find=names '@irq-actions.awk@' "${BOARDC_ROOT-}/proc/interrupts") || exit 1
while IFS= read -r name; do
	case $name in
	@pins@
	esac
done <<EOF
$names
EOF
exit 1

$1 ~ /^[0-9]+:$/ {
	for (i = NF; i > 1; i--) {
		a = $i
		if (i < NF && a !~ /,$/)
			break
		sub(/,$/, "", a)
		if (a == ENVIRON["BOARDC_IRQ"]) {
			n = $1
			sub(/:$/, "", n)
			print n
			break
		}
	}
}

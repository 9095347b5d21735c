$1 ~ /^[0-9]+:$/ {
	n = $1
	sub(/:$/, "", n)
	if (find == "names" && n != ENVIRON["BOARDC_IRQ"])
		next
	for (i = NF; i > 1; i--) {
		a = $i
		if (i < NF && a !~ /,$/)
			break
		sub(/,$/, "", a)
		if (find == "names")
			print a
		else if (a == ENVIRON["BOARDC_IRQ"]) {
			print n
			break
		}
	}
}

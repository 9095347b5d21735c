$1 ~ /^[0-9]+:$/ {
	n = $1
	sub(/:$/, "", n)
	if (find == "names" && n != ENVIRON["BOARDC_IRQ"])
		next
	split("", seen)
	for (i = NF; i > 1; i--) {
		a = $i
		if (i < NF && a !~ /,$/)
			break
		sub(/,$/, "", a)
		if (a in seen)
			continue
		seen[a] = 1
		if (find == "names")
			print a
		else
			print a " " n
	}
}

$1 == ENVIRON["BOARDC_IRQNUM"] ":" {
	for (i = NF; i > 1; i--) {
		a = $i
		if (i < NF && a !~ /,$/)
			break
		sub(/,$/, "", a)
		print a
	}
}

/^Current hardware settings:/ {
	cur = 1
	next
}
cur && ($1 == "RX:" || $1 == "TX:" || $1 == "Combined:") && $2 ~ /^[0-9]+$/ && $2 > 0 {
	k = tolower($1)
	sub(/:$/, "", k)
	out = out (out == "" ? "" : " ") k " " $2
}
END {
	if (!cur)
		exit 1
	print out
}

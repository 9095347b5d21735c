# key(s) is the action name s as the tail of a shell variable: letters
# and digits kept, "_", ".", ":", "@" and "-" as "_" and their hex code,
# any other character "__", which no name tune.sh looks up gives.
function key(s,    out, c, i) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (index("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", c))
			out = out c
		else if (c in hex)
			out = out "_" hex[c]
		else
			out = out "__"
	}
	return out
}
BEGIN {
	hex["_"] = "5f"
	hex["."] = "2e"
	hex[":"] = "3a"
	hex["@"] = "40"
	hex["-"] = "2d"
}
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
		if (find == "names") {
			print a
			continue
		}
		k = key(a)
		if (k in nums)
			nums[k] = nums[k] " " n
		else
			nums[k] = n
	}
}
END {
	if (find == "vars")
		for (k in nums)
			printf "%s%s=\"%s\"\n", prefix, k, nums[k]
}

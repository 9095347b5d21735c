package draft

import "testing"

// TestQuote pins the CUE literals of strings Go would quote with \x or
// octal escapes, which CUE does not have.
func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		lossy    bool
	}{
		{"plain", `"plain"`, false},
		{"a\x01b", `"a\u0001b"`, false},
		{"tab\there\nnl\r\a\b\f\v", `"tab\there\nnl\r\a\b\f\v"`, false},
		{`"q" \ \(x)`, `"\"q\" \\ \\(x)"`, false},
		{"B\u00f6ard \u20ac", "\"B\u00f6ard \u20ac\"", false},
		{"del\x7f zwsp\u200b bom\ufeff", `"del\u007F zwsp\u200B bom\uFEFF"`, false},
		{"tag\U000E0041", `"tag\U000E0041"`, false},
		{"bad\xff\xc3", "\"bad\ufffd\ufffd\"", true},
	} {
		got, lossy := quote(tc.in)
		if got != tc.want || lossy != tc.lossy {
			t.Errorf("quote(%q) = %s, %v; want %s, %v", tc.in, got, lossy, tc.want, tc.lossy)
		}
	}
}

// TestLabel pins which keys are quoted.
func TestLabel(t *testing.T) {
	for in, want := range map[string]string{
		"eth0": "eth0", "host_58000": "host_58000", "if": `"if"`, "for": `"for"`,
		"true": `"true"`, "null": `"null"`, "int": `"int"`, "len": `"len"`,
		"_hidden": `"_hidden"`, "#def": `"#def"`, "9lives": `"9lives"`, "a-b": `"a-b"`, "": `""`,
	} {
		if got := label(in); got != want {
			t.Errorf("label(%q) = %s, want %s", in, got, want)
		}
	}
}

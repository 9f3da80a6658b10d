#!/bin/sh
# mkgolden.sh - makes testdata/golden: small inputs (NAME.old, NAME.new)
# and GNU diff -u's patches of them (NAME.U<ctx>.diff), which TestGolden
# compares Unified's output with. Run from internal/diff/testdata with GNU
# diffutils (made with 3.8); the outputs are checked in, so the tests need
# no diff on the machine.
set -eu
cd "$(dirname "$0")/golden"
rm -f ./*.old ./*.new ./*.diff

seq_lines() { # seq_lines FROM TO: "line N" lines
	awk -v a="$1" -v b="$2" 'BEGIN { for (i = a; i <= b; i++) printf "line %d\n", i }'
}
# code N SEED: N code-like lines (a deterministic LCG picks the shapes).
code() {
	awk -v n="$1" -v s="$2" 'BEGIN {
		split("value index count result options buffer node entry path name", w, " ")
		for (i = 1; i <= n; i++) {
			s = (s * 1103515245 + 12345) % 2147483648; k = int(s / 65536) % 12
			t = int(s / 256) % 10 + 1; u = int(s / 4096) % 1000
			if (k < 2) print ""
			else if (k < 4) print "\t}"
			else if (k < 5) print "\treturn null;"
			else if (k < 7) printf "\tif (%s === %d) {\n", w[t], u
			else if (k < 10) printf "\tconst %s%d = %s(%d);\n", w[t], u, w[(t % 10) + 1], i
			else printf "function %s%d() {\n", w[t], u
		}
	}'
}

seq_lines 1 20 > change_middle.old
seq_lines 1 20 | sed 's/^line 10$/line ten/' > change_middle.new

seq_lines 1 10 > insert_start.old
{ echo "new first"; echo "new second"; seq_lines 1 10; } > insert_start.new
seq_lines 1 10 > insert_end.old
{ seq_lines 1 10; echo "new last"; } > insert_end.new

seq_lines 1 5 > delete_all.old
: > delete_all.new
: > from_empty.old
seq_lines 1 4 > from_empty.new

seq_lines 1 12 | head -c -1 > nonl_old.old
seq_lines 1 12 | sed 's/^line 2$/line two/' > nonl_old.new
seq_lines 1 12 > nonl_new.old
seq_lines 1 12 | sed 's/^line 11$/line eleven/' | head -c -1 > nonl_new.new
seq_lines 1 12 | head -c -1 > nonl_both.old
seq_lines 1 12 | sed 's/^line 10$/line ten/' | head -c -1 > nonl_both.new
seq_lines 1 6 | head -c -1 > nonl_only.old
seq_lines 1 6 > nonl_only.new
printf 'last' > nonl_last.old
printf 'last\nmore' > nonl_last.new

seq_lines 1 8 | sed 's/$/\r/' > crlf.old
seq_lines 1 8 | sed 's/$/\r/' | sed '3s/\r$//; 6s/line 6/line six/' > crlf.new

printf 'int a() {\n\treturn 1;\n}\n\nint b() {\n\treturn 2;\n}\n' > braces.old
printf 'int a() {\n\treturn 1;\n}\n\nint c() {\n\treturn 3;\n}\n\nint b() {\n\treturn 2;\n}\n' > braces.new
printf '}\n\n}\n\n}\n\n}\n' > blanks.old
printf '}\n\n}\n\n\n}\n}\n' > blanks.new

seq_lines 1 30 > two_near.old
seq_lines 1 30 | sed 's/^line 10$/X/; s/^line 17$/Y/' > two_near.new
seq_lines 1 30 > two_far.old
seq_lines 1 30 | sed 's/^line 10$/X/; s/^line 18$/Y/' > two_far.new

printf 'a\nb\nc\na\nb\nc\na\nb\nc\n' > dup_blocks.old
printf 'a\nb\nc\nd\na\nb\nc\n' > dup_blocks.new
printf 'x\ny\nx\ny\nx\n' > slide.old
printf 'x\ny\nx\ny\nx\ny\nx\n' > slide.new

code 300 7 > code.old
code 300 7 | sed '20s/.*/\tconst added = 1;/; 45d; 46d; 100s/^/\t/; 150a\
\t// inserted\
\treturn null;
; 220,224d; 290s/.*/}/' > code.new
code 300 11 > code_moved.old
{ code 300 11 | sed -n '101,150p'; code 300 11 | sed '101,150d'; } > code_moved.new

for old in *.old; do
	n=${old%.old}
	for u in 0 1 3; do
		diff -U$u --label a/old --label b/new "$n.old" "$n.new" > "$n.U$u.diff" || [ $? -eq 1 ]
	done
done

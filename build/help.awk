# help.awk - `make help` and `make check-help`, over the makefiles of
# $(MAKEFILE_LIST) (the Makefile, bindings/node/node.mk,
# conformance/conformance.mk, build/mk/*.mk).
#
# The convention: a target a person runs says what it does beside its rule,
#     target: prerequisites ## what it does, in one line
# `make help` prints those lines, file by file, in the makefiles' order.
# With -v check=1 (make check-help) it prints nothing on success and
# fails naming every .PHONY target that has no rule (a name that does
# nothing) or no `## ` line.

# A rule line: targets, then a colon that is not an assignment's (:=, ::=).
function rule_targets(line,    head) {
	if (line !~ /^[A-Za-z0-9_.%\/-][^=#:]*:([^=]|$)/) return ""
	head = line
	sub(/:.*/, "", head)
	return head
}

BEGIN { if (!check) print "make TARGET: the targets, by the makefile that defines them\n" }

FNR == 1 { file = FILENAME; continued = 0 }

# .PHONY: a b \
#         c d
continued || /^\.PHONY:/ {
	line = $0
	sub(/^\.PHONY:/, "", line)
	continued = line ~ /\\$/
	sub(/\\$/, "", line)
	n = split(line, names, /[ \t]+/)
	for (i = 1; i <= n; i++) if (names[i] != "" && !(names[i] in phony)) { phony[names[i]] = file; phonies[++nphony] = names[i] }
	next
}

/^[^\t]/ {
	head = rule_targets($0)
	if (head == "") next
	n = split(head, names, /[ \t]+/)
	doc = ""
	if (index($0, " ## ")) { doc = $0; sub(/^[^#]* ## /, "", doc) }
	for (i = 1; i <= n; i++) {
		t = names[i]
		if (t == "") continue
		ruled[t] = 1
		if (doc == "" || (t in documented)) continue
		documented[t] = doc
		if (!check) {
			if (file != shown) { printf "%s%s\n", (shown == "" ? "" : "\n"), file; shown = file }
			printf "  %-20s %s\n", t, doc
		}
	}
}

END {
	if (!check) exit 0
	bad = 0
	for (i = 1; i <= nphony; i++) {
		t = phonies[i]
		if (!(t in ruled)) { printf "%s: .PHONY target %s has no rule\n", phony[t], t; bad = 1 }
		else if (!(t in documented)) { printf "%s: .PHONY target %s has no `## what it does` beside its rule (make help)\n", phony[t], t; bad = 1 }
	}
	exit bad
}

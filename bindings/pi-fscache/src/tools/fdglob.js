// fd's `--glob` matching, as pi's find tool runs it (fd 10 with globset
// 0.4.x, `literal_separator(true)`, smart case), in JavaScript: the parser
// of globset's syntax, the regex globset builds, and fd's rule that a
// pattern without an upper-case letter matches regardless of ASCII case.
// fd matches these regexes in bytes mode ((?-u)): `?` is one byte, and only
// ASCII letters fold. So the regexes here are matched against "byte
// strings": the UTF-8 bytes of a path as Latin-1 characters (toBytes).
//
// fscache's glob gives the candidates (see candidateOf): a pattern fscache
// can answer exactly, or a superset that the regex then filters.

const SEP = "/";

/** A glob syntax error, with globset's message. */
export class GlobError extends Error {}

function fail(glob, msg) {
  return new GlobError(`error parsing glob '${glob}': ${msg}`);
}

// Tokens: {t:"lit", c}, {t:"any"}, {t:"star"}, {t:"rprefix"}, {t:"rsuffix"},
// {t:"rzero"}, {t:"class", neg, ranges:[[lo,hi]...]}, {t:"alt", alts:[tokens...]}.

/**
 * Parses a glob as globset 0.4 does (backslash escapes on, alternates may
 * nest as in globset >= 0.4.14). Throws a GlobError with globset's message.
 */
export function parseGlob(glob) {
  const chars = Array.from(glob);
  let i = 0;
  // stack of alternates being built: each is an array of token lists
  const stack = [[[]]];
  const cur = () => stack[stack.length - 1][stack[stack.length - 1].length - 1];
  const peek = () => (i < chars.length ? chars[i] : undefined);
  let prev;
  while (i < chars.length) {
    const c = chars[i++];
    switch (c) {
      case "?":
        cur().push({ t: "any" });
        break;
      case "*":
        parseStar(prev);
        break;
      case "[":
        parseClass();
        break;
      case "{":
        stack.push([[]]);
        break;
      case "}":
        if (stack.length <= 1) {
          throw fail(glob, "unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)");
        }
        {
          const alts = stack.pop();
          cur().push({ t: "alt", alts });
        }
        break;
      case ",":
        if (stack.length > 1) stack[stack.length - 1].push([]);
        else cur().push({ t: "lit", c });
        break;
      case "\\":
        if (i >= chars.length) throw fail(glob, "dangling '\\'");
        cur().push({ t: "lit", c: chars[i++] });
        break;
      default:
        cur().push({ t: "lit", c });
    }
    prev = c;
  }
  if (stack.length > 1) {
    throw fail(glob, "unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)");
  }
  return stack[0][0];

  function parseStar(prevChar) {
    const toks = cur();
    if (peek() !== "*") {
      toks.push({ t: "star" });
      return;
    }
    i++; // the second '*'
    if (toks.length === 0) {
      if (peek() !== undefined && peek() !== SEP) {
        toks.push({ t: "star" }, { t: "star" });
      } else {
        toks.push({ t: "rprefix" });
        if (peek() === SEP) i++;
      }
      return;
    }
    if (prevChar !== SEP) {
      if (stack.length <= 1 || (prevChar !== "," && prevChar !== "{")) {
        toks.push({ t: "star" }, { t: "star" });
        return;
      }
    }
    let isSuffix;
    const nx = peek();
    if (nx === undefined) isSuffix = true;
    else if ((nx === "," || nx === "}") && stack.length >= 2) isSuffix = true;
    else if (nx === SEP) {
      i++;
      isSuffix = false;
    } else {
      toks.push({ t: "star" }, { t: "star" });
      return;
    }
    const last = toks.pop();
    if (last && last.t === "rprefix") toks.push(last);
    else if (last && last.t === "rsuffix") toks.push(last);
    else {
      if (last && !(last.t === "lit" && last.c === SEP)) toks.push(last);
      toks.push({ t: isSuffix ? "rsuffix" : "rzero" });
    }
  }

  function parseClass() {
    const ranges = [];
    let neg = false;
    if (peek() === "!" || peek() === "^") {
      neg = true;
      i++;
    }
    let first = true;
    let inRange = false;
    for (;;) {
      if (i >= chars.length) throw fail(glob, "unclosed character class; missing ']'");
      const c = chars[i++];
      if (c === "]") {
        if (first) ranges.push([c, c]);
        else break;
      } else if (c === "-") {
        if (first) ranges.push([c, c]);
        else if (inRange) {
          // "a--": the range ends in '-'
          addToRange(c);
          inRange = false;
        } else inRange = true;
      } else {
        if (inRange) {
          addToRange(c);
        } else ranges.push([c, c]);
        inRange = false;
      }
      first = false;
    }
    if (inRange) ranges.push(["-", "-"]);
    cur().push({ t: "class", neg, ranges });

    function addToRange(c) {
      const r = ranges[ranges.length - 1];
      if (r[0].codePointAt(0) > c.codePointAt(0)) {
        throw fail(glob, `invalid range; '${r[0]}' > '${c}'`);
      }
      r[1] = c;
    }
  }
}

const enc = new TextEncoder();

/** The UTF-8 bytes of s as a string of Latin-1 characters. */
export function toBytes(s) {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s;
  return Buffer.from(s, "utf8").toString("latin1");
}

function hex(b) {
  return "\\x" + b.toString(16).padStart(2, "0");
}

function litRegex(c, ci) {
  const bytes = enc.encode(c);
  let out = "";
  for (const b of bytes) {
    if (ci && ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a))) {
      out += `[${String.fromCharCode(b & ~0x20)}${String.fromCharCode(b | 0x20)}]`;
    } else out += hex(b);
  }
  return out;
}

function classRegex(tok, ci) {
  // globset writes the class's chars as escaped UTF-8 bytes inside one byte
  // class: a multi-byte char adds each of its bytes (and a range between two
  // spans from the last byte of one to the first of the other).
  const set = new Uint8Array(256);
  for (const [lo, hi] of tok.ranges) {
    const a = enc.encode(lo);
    const b = enc.encode(hi);
    if (lo === hi) {
      for (const x of a) set[x] = 1;
      continue;
    }
    for (let k = 0; k < a.length - 1; k++) set[a[k]] = 1;
    for (let k = 1; k < b.length; k++) set[b[k]] = 1;
    for (let x = a[a.length - 1]; x <= b[0]; x++) set[x] = 1;
  }
  if (ci) {
    for (let x = 0x41; x <= 0x5a; x++) {
      if (set[x] || set[x | 0x20]) set[x] = set[x | 0x20] = 1;
    }
  }
  let out = tok.neg ? "[^" : "[";
  let any = false;
  for (let x = 0; x < 256; x++) {
    if (!set[x]) continue;
    let y = x;
    while (y + 1 < 256 && set[y + 1]) y++;
    out += y > x ? `${hex(x)}-${hex(y)}` : hex(x);
    any = true;
    x = y;
  }
  if (!any) return tok.neg ? "[\\s\\S]" : "[^\\s\\S]";
  return out + "]";
}

function tokensRegex(toks, ci) {
  let re = "";
  for (const tok of toks) {
    switch (tok.t) {
      case "lit":
        re += litRegex(tok.c, ci);
        break;
      case "any":
        re += "[^/]";
        break;
      case "star":
        re += "[^/]*";
        break;
      case "rprefix":
        re += "(?:/?|[\\s\\S]*/)";
        break;
      case "rsuffix":
        re += "/[\\s\\S]*";
        break;
      case "rzero":
        re += "(?:/|/[\\s\\S]*/)";
        break;
      case "class":
        re += classRegex(tok, ci);
        break;
      case "alt":
        re += "(?:" + tok.alts.map((a) => tokensRegex(a, ci)).join("|") + ")";
        break;
    }
  }
  return re;
}

/** The JavaScript RegExp (over toBytes strings) of globset's regex of toks. */
export function globRegex(toks, ci) {
  if (toks.length === 1 && toks[0].t === "rprefix") return /^[\s\S]*$/; // "**"
  return new RegExp("^" + tokensRegex(toks, ci) + "$");
}

const UPPER = /\p{Uppercase}/u;

/**
 * fd's smart case: whether the glob's regex has an upper-case literal or a
 * class bound that is upper case (a class's bytes read as Latin-1, as fd 10
 * reads a byte class).
 */
export function hasUppercase(toks) {
  for (const tok of toks) {
    if (tok.t === "lit" && UPPER.test(tok.c)) return true;
    if (tok.t === "class") {
      for (const [lo, hi] of tok.ranges) {
        for (const ch of [lo, hi]) {
          for (const b of enc.encode(ch)) if (UPPER.test(String.fromCharCode(b))) return true;
        }
      }
    }
    if (tok.t === "alt" && tok.alts.some(hasUppercase)) return true;
  }
  return false;
}

// fscache's glob dialect: a literal char, escaped when it is special.
function fsLit(c, ci) {
  if (ci && /^[A-Za-z]$/.test(c)) return `[${c.toUpperCase()}${c.toLowerCase()}]`;
  if ("*?[]{}\\,!".includes(c)) return `[${c}]`;
  return c;
}

function simple(toks) {
  return toks.every((t) => t.t === "star" || t.t === "any" || (t.t === "lit" && t.c !== SEP));
}

/**
 * The pattern to ask fscache's glob for, and whether its answer is exactly
 * fd's (then no filtering is needed and maxResults can be used). Candidates
 * are always a superset of fd's matches: fd matches a basename against a
 * pattern without '/', and the absolute path against `**\/` + the pattern
 * otherwise; the final component of a full-path match is matched by the
 * tokens after the pattern's last '/'.
 */
export function candidateOf(toks, fullPath, ci) {
  let tail = toks;
  let exact = !fullPath;
  if (fullPath) {
    let k = toks.length - 1;
    while (k >= 0 && !(toks[k].t === "lit" && toks[k].c === SEP) && toks[k].t !== "rzero" && toks[k].t !== "rprefix") {
      k--;
    }
    if (k < 0) return { pattern: "**", exact: false };
    tail = toks.slice(k + 1);
    // "**/x*": fd's `**/` prefix plus the pattern's own: any absolute path
    // whose basename matches the tail, exactly the basename rule.
    exact = k === 0 && toks[0].t === "rprefix";
  }
  if (tail.length === 0 || !simple(tail)) return { pattern: "**", exact: false };
  let pat = "";
  for (const t of tail) {
    if (t.t === "star") pat += "*";
    else if (t.t === "any") {
      pat += "*"; // fd's `?` is one byte, fscache's one character
      exact = false;
    } else {
      pat += fsLit(t.c, ci);
      if (t.c.codePointAt(0) > 0x7f) exact = false;
    }
  }
  if (/^\*+$/.test(pat)) return { pattern: "**", exact: exact };
  return { pattern: "**/" + pat, exact };
}

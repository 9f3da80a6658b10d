// Random cases: patterns built from a grammar of the dialect, and token
// soups that exercise the parser's errors. Deterministic (fixed seeds).
let seed = 1;
function rnd() { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; }
function pick(a) { return a[Math.floor(rnd() * a.length)]; }

const chars = ['a', 'b', 'c', 'A', 'B', 'é', 'É', 'ß', '日', '_', ' ', '-', '.', 'K', 'k', 's', 'ſ', 'σ', 'ς', 'Σ', '1', '\t', 'x'];
const atoms = ['a', 'b', 'c', 'A', 'é', '日', '_', ' ', '-', '\\.', '\\w', '\\W', '\\d', '\\s', '\\S', '\\b', '\\B', '\\<', '\\>',
  '^', '$', '\\A', '\\z', '.', '[ab]', '[^a]', '[a-c]', '[[:alpha:]]', '[\\w-]', '\\pL', '\\p{Greek}', '[é-ö]', 'k', 's', 'σ',
  'ß', 'K', 'x', '[^\\s]', '\\x{E9}', '(?-u:\\w)', '(?-u:\\b)', '(?-u:.)', '[a&&[ab]]', '[\\w--\\d]'];
function gen(d) {
  if (d > 3) return pick(atoms);
  const r = rnd();
  if (r < 0.35) return pick(atoms);
  if (r < 0.55) { let s = ''; const n = 1 + Math.floor(rnd() * 4); for (let i = 0; i < n; i++) s += gen(d + 1); return s; }
  if (r < 0.65) return '(' + gen(d + 1) + '|' + gen(d + 1) + ')';
  if (r < 0.72) return '(?:' + gen(d + 1) + ')';
  if (r < 0.77) return '(?i:' + gen(d + 1) + ')';
  if (r < 0.80) return '(?-i:' + gen(d + 1) + ')';
  return '(?:' + gen(d + 1) + ')' + pick(['?', '*', '+', '{2}', '{1,3}', '{0,2}', '??', '*?', '{2,}']);
}
function text() {
  const lines = []; const n = 1 + Math.floor(rnd() * 6);
  for (let i = 0; i < n; i++) {
    let l = ''; const m = Math.floor(rnd() * 10);
    for (let j = 0; j < m; j++) l += pick(chars);
    if (rnd() < 0.1) l += '\r';
    if (rnd() < 0.1) l += '  ';
    lines.push(l);
  }
  let t = lines.join('\n'); if (rnd() < 0.7) t += '\n';
  let b = Buffer.from(t, 'utf8');
  if (rnd() < 0.15) {
    const i = Math.floor(rnd() * (b.length + 1));
    b = Buffer.concat([b.slice(0, i), Buffer.from([pick([0xff, 0xc3, 0xe2, 0x80, 0xe9])]), b.slice(i)]);
  }
  return b;
}
const toks = ['(', ')', '[', ']', '{', '}', '\\', '?', '*', '+', '|', '^', '$', '.', 'a', 'b', '-', '&&', '--', '~~', ':', 'P', '<',
  '>', '=', '!', '1', '2', ',', 'x', 'u', 'p', '{2}', '{1,2}', '\\p{', '(?', '(?P<', '#', ' ', '\n', 'é', 'i', '-u', '\\w', '\\d',
  '\\b', '[:alpha:]', '\\x', '\\u{', 'U', 's', 'm', 'R', '(?x)', '(?i)', '9', '0', '\\{', '\\}', '\\(', '\\)', '%', '\\<', '\\>',
  '\\A', '\\z', '\\Q', '\\E', '\\k', '\\g', '\\h'];

const cases = [];
for (let i = 0; i < 700; i++) {
  let p = gen(0);
  if (rnd() < 0.1) p = pick(['(?i)', '(?m)', '(?s)', '(?U)']) + p;
  const o = {};
  if (rnd() < 0.25) o.ignoreCase = true;
  if (rnd() < 0.2) o.multiline = true;
  if (rnd() < 0.2) o.mode = 'filesWithMatches';
  else if (rnd() < 0.1) o.mode = 'count';
  else if (rnd() < 0.2) o.context = Math.floor(rnd() * 3);
  if (rnd() < 0.1) o.maxColumns = Math.floor(rnd() * 8);
  cases.push({ pattern: p, content: [...text()], options: o });
}
const errText = [...Buffer.from('ab a(b) [x]{2} é\nAB\n\n:P<>=!12,xup\n%{}\\ \r\n')];
for (let i = 0; i < 500; i++) {
  let p = ''; const n = 1 + Math.floor(rnd() * 8);
  for (let j = 0; j < n; j++) p += pick(toks);
  const o = {};
  if (rnd() < 0.3) o.ignoreCase = true;
  if (rnd() < 0.2) o.multiline = true;
  if (rnd() < 0.2) o.mode = 'filesWithMatches';
  cases.push({ pattern: p, content: errText, options: o });
}
module.exports = cases;

// Cases replayed against the reference by gen_reference.js.
const B = (s) => Buffer.from(s, 'latin1');
const I = { ignoreCase: true };
const M = { multiline: true };
const FWM = { mode: 'filesWithMatches' };
const CNT = { mode: 'count' };
const cases = [];
const add = (pattern, content, options, name) => cases.push({ pattern, content, options, name });

// ---- errors ----
for (const p of [
  '(?=a)', '(?!a)', '(?<=a)b', '(?<!a)', '\\1', '\\0', '\\9', '[z-a]', '[a', '[', '*a', '{2}', 'a{2,1}',
  'a{3,2}', '\\p{Foo}', '\\p{^L}', '(?P<n>a)(?P<n>b)', '\\q', '\\e', '\\é', '(foo[', '\\x7', '\\xZ',
  '\\x', '\\x{}', '\\x{110000}', '\\u{D800}', '\\U{1F600}', '(?P<>a)', '(?P<1a>a)', '(?P<a', '(?z)',
  '(?i-i)', '(?-)', '(?i--m)', '(?)', 'a|*', '(*)', '[\\b]', '\\p{', '\\p', '\\pZ\\p\\d', '(?-u)\\pL',
  '(?-u)[é]', '\\p{foo=bar}', '\\p{gc=Foo}', '[a-\\d]', '[\\d-z]', '[[]', '[a[]', '\\', 'a\\',
  'a{4294967296}', '\\w{5000}', '\\w{10000}', 'a{4294967295}', '\\p{Foo}(', '(?=a)(', 'a)(?=a)',
  '(\\1', '(a{2,1}', 'x{2,1}(', '\\w{5000}(', 'a\n(?=b)', 'a\nb\n(?P<n>x)(?P<n>y)', '(?i', '(?i)(?',
  '(?P<n>', 'a)(?', '[[:alpha:]', '[a-]]', '(?:', '((?:a)', 'x{1,2}{3}(', '\\b{start}(?=x)',
  '(' .repeat(250) + 'a' + ')'.repeat(250), 'unclosed group[', '[]', '[^]', '\\8',
]) add(p, 'a\n');
add('(' .repeat(249) + 'a' + ')'.repeat(249), 'a\n');

// ---- braces ----
for (const [p, c] of [
  ['${platform}', 'a ${platform} b\n$\n'], ['interface X {}', 'interface X {}\n'], ['a{2}', 'aa\na{2}\n'],
  ['a{2,}', 'aa\na{2,}\n'], ['a{,2}', 'aa\na{,2}\n'], ['a{ 2 }', 'aa\na{ 2 }\n'], ['a{2, 3}', 'aa\na{2, 3}\n'],
  ['x{', 'x{\n'], ['}', 'a}\n'], ['{}', '{}\n'], ['a{b}', 'a{b}\n'], ['\\{', '{\n'], ['\\\\{', '\\{\n'],
  ['\\p{L}+', 'héllo\n'], ['\\x{41}', 'A\n'], ['\\u{41}', 'A\n'], ['\\u0041', 'A\n'], ['\\pL{2}', 'ab\na\n'],
  ['\\b{start}', 'a b{start}\n'], ['\\b{5}', 'ab\n'], ['{{x}}', '{{x}}\n'], ['f{1}{2}', 'ff\n'],
  ['\\p{Greek}{2}', 'αβ\n'], ['\\P{L}{2}', '12\n'], ['a{1,3}?b', 'aab\n'], ['"x": {', '"x": {\n'],
]) add(p, c);

// ---- parentheses retry ----
for (const [p, c] of [
  ['foo(', 'a foo( b\nfoo\n'], ['foo)', 'foo)\nfoo\n'], ['(', 'a(b\n'], [')', 'a)b\n'], ['(a))', 'a)b\n(a))\n'],
  ['((a)', '(a\n((a)\n'], ['\\(a)', '(a)\n'], ['[(]a)', '(a)\n'], ['(?i', '(?i\n'], ['a)(', 'a)(\n'],
  ['(?x)a(', 'a(\nx)a(\n'], ['(?i)a(', 'A(\ni)a(\n'], ['[(]a(', '(a(\n'], ['(?-u)\\pL(', '-u)a(\n'],
  ['fetchProvider(', 'x = fetchProvider(a)\n'], ['if (a', 'if (a) {\n'], ['(?x) a b # comment', 'ab\n'],
  ['(?x) a b', 'ab\na b\n'], ['(a|b', '(a|b\nb\n'],
]) add(p, c);

// ---- unicode classes, folding ----
for (const [p, c, o] of [
  ['STRASSE', 'straße\nstrasse\nSTRASSE\nſtraſſe\n', I], ['straße', 'STRASSE\nSTRAẞE\nstraße\n', I],
  ['ſ', 's\nS\nx\n', I], ['s', 'ſ\nS\n', I], ['σ', 'Σ\nς\nσ\n', I], ['k', 'K\nK\n', I], ['K', 'k\nK\n', I],
  ['i', 'İ\nı\nI\n', I], ['ǅ', 'Ǆ\nǆ\n', I], ['[a-z]+', 'K\nſ\n', I], ['[^k]', 'K\n', I],
  ['\\w+', 'é\n日本\n٣\n_\n'], ['^\\w+$', 'é\n日本\n٣\n_\n\u200d\n\u0301\n'], ['^\\d+$', '٣\n１２\n123\n'],
  ['^\\s+x$', '\u00a0x\n\u3000x\n\u0085x\n\u200bx\n\u000bx\n'], ['\\bfoo\\b', 'éfoo\nfooé\n foo \nfoo_\n日foo\n'],
  ['\\Bfoo', 'éfoo\nfoo\n'], ['é\\b', 'café\ncafé1\ncaféé\n'], ['\\<foo\\>', 'éfoo\nfoo\nfoo bar\n'],
  ['[[:alpha:]]', 'é\n', I], ['\\W', 'é\n'], ['(?i)Σ', 'ς\n'], ['(?i:a)B', 'Ab\nAB\n'], ['a(?-i)B', 'Ab\nAB\n', I],
  ['\\x{1F600}', '😀\n'], ['(?s).', 'a\n'], ['(?u:\\w)', 'é\n'], ['(?-u)\\w', 'é\nx\n'], ['(?-u:\\b)x', 'éx\n x\n'],
  ['\\bx', 'éx\n x\n'], ['\\pL', 'é\n'], ['\\p{Greek}', 'α\n'], ['\\p{sc=Greek}', 'α\n'], ['\\p{Script=Grek}', 'α\n'],
  ['\\p{Alphabetic}', 'α\n'], ['\\p{Lowercase_Letter}', 'α\nA\n'], ['\\p{lowercase letter}', 'α\n'], ['\\p{Any}', 'α\n'],
  ['\\p{ascii}', 'a\né\n'], ['\\p{Assigned}', 'a\n'], ['\\p{isGreek}', 'α\n'], ['\\p{Lu}', 'A\na\n'], ['\\PL', 'a\n1\n'],
  ['\\p{L}', 'x\n'], ['\\p{Han}', '日本\n'], ['\\p{Lower}', 'a\nA\n'], ['\\p{Upper}', 'a\nA\n'], ['\\p{White_Space}', 'a b\n'],
  ['\\p{gc=Nd}', '٣\n'], ['\\p{Nd}', '5\n'], ['\\p{sc}', '$\na\n'], ['\\p{Sc}', '€\n'], ['\\p{Cf}', '\u200b\n'],
  ['[[:word:]]', 'é\n'], ['[[:^alpha:]]', 'é\n1\n'], ['[[:foo:]]', 'f\n:\nx\n'], ['[]a]', ']\n'], ['[^]a]', ']\nb\n'],
  ['[a-]', '-\n'], ['[-a]', '-\n'], ['[\\]]', ']\n'], [']', ']\n'], ['[a&&b]', 'a&b\n'], ['[a-z&&[^aeiou]]+x', 'bcdx\n'],
  ['[a-z--b]', 'b\n'], ['[a-c~~b-d]', 'b\nd\n'], ['[\\w--\\d]', '1\na\n'], ['[[:upper:]]', 'a\n', I],
  ['\\p{Greek}', 'Ω\nω\n', I], ['[^\\p{Lu}]', 'A\na\n', I], ['\\P{Lu}', 'A\na\n', I], ['ß', 'ẞ\nss\n', I],
  ['\\u212A', 'k\nK\n', I], ['[K]', 'k\n', I], ['Ǳ', 'ǲ\nǳ\n', I], ['ﬀ', 'ff\nFF\n', I], ['µ', 'μ\nΜ\n', I],
  ['.', '\u2028\n'], ['a.b', 'a\u00a0b\n'], ['^.$', '😀\n'], ['^..$', 'é\n'], ['(?-u)^..$', 'é\n'],
]) add(p, c, o);

// ---- invalid UTF-8 ----
for (const [p, c, o] of [
  ['a', B('a\xff\xfeb\n')], ['a', B('a\xe2\x82b\xe2\x82\n')], ['a', B('a\xf0\x9f\x98b\xc0\xaf\xed\xa0\x80\n')],
  ['a.b', B('a\xffb\n')], ['a[^x]b', B('a\xffb\n')], ['a\\W?b', B('a\xffb\n')], ['(?-u)a.b', B('a\xffb\n')],
  ['(?-u:\\xff)', B('a\xffb\n')], ['(?-u:\\x{ff})', B('a\xffb\nÿ\n')], ['\\xff', B('a\xffb\nÿ\n')],
  ['caf.', B('caf\xe9\n')], ['\\bx\\b', B('\xffx\xff\n')], ['x\\B', B('x\xff\n')], ['a', B('a \xff \n')],
  ['a', B('\xff\xff\n  a\xc3\n')], ['\\S+$', B('ab\xff\n')], ['a', B('a\xe2\x80\xa8\n')],
  ['b', B('a\xff\nb\n'), { context: 1 }], ['a.c', B('a\xc3\xa9c\n')],
]) add(p, c, o);

// ---- lines ----
for (const [p, c, o] of [
  ['foo$', 'foo\r\nfoo\nfoo \n'], ['foo\\r$', 'foo\r\n'], ['^bar', 'foo\nbar\n'], ['^bar', 'foo\nbar\n', M],
  ['foo$', 'foo\nbar\n'], ['foo$', 'foo\r\nbar\n', M], ['\\Abar', 'foo\nbar\n'], ['foo\\z', 'foo\nbar\n'],
  ['foo\\nbar', 'foo\nbar\n'], ['foo\\nbar', 'foo\nbar\n', M], ['foo\\sbar', 'foo\nbar\n', M], ['foo[^x]bar', 'foo\nbar\n'],
  ['foo(?s:.)bar', 'foo\nbar\n', M], ['\\n', 'foo\nbar\n'], ['^', 'foo\nbar\n'], ['$', 'foo\nbar'], ['x*', 'foo\n\nbar'],
  ['^$', 'foo\n\nbar\n'], ['^$', 'foo\n\nbar\n', M], ['x*', 'a\n'], ['x*', ''], ['x*', '\n'], ['x*', 'a\n\n'], ['a', ''],
  ['a', 'a'], ['a', 'b\na'], ['', 'a\nb\n'], ['a', '\ta  \n  b\t\n'], ['a', 'a \t\u00a0\u3000\u2028\u0085\n'],
  ['a', 'a\u000b\u000c\r\r\n'], ['a', 'aaa a\n'], ['a|b', 'ab\nb\nc\n'], ['\\ ', ' \n'], ['^\\s*$', '  \n\t\nx\n'],
  ['(?m)^x$', 'x\r\n'], ['(?mR)^x$', 'x\r\n'], ['(?R)x$', 'x\r\n'], ['(?Rm).$', 'ab\r\n'], ['(?R).', '\r\n'],
  ['(?U)a+', 'aaa\n'], ['(?x) a b', 'ab\n'], ['(?x)a\\ b', 'a b\n'], ['(?x)[ ]', ' \n'], ['(?x)a # c\n b', 'ab\n'],
  ['a(?i)b|c', 'aB\nC\n'], ['(?i)a|b', 'B\n'], ['(a)(?i)b', 'aB\n'], ['((?i)a)b', 'AB\nAb\n'],
]) add(p, c, o);

// ---- maxColumns ----
for (const [p, c, o] of [
  ['a', 'aaaaaaaaaa bbbbbbbbbbbbb\n', { maxColumns: 10 }], ['b', 'aaaaaaaaaa bbbbbbbbbbbbb\n', { maxColumns: 10 }],
  ['a', 'aaaaaaaaaa\n', { maxColumns: 10 }], ['a', 'aaaaaaaaaaa\n', { maxColumns: 10 }],
  ['a', 'aaaaaaaaaa   \n', { maxColumns: 10 }], ['a', 'aaaaaaaéé\n', { maxColumns: 10 }],
  ['a', 'aaaaaaéééé\n', { maxColumns: 10 }], ['a', 'abcdef\n', { maxColumns: 0 }], ['a', 'a\n\na\n', { maxColumns: 0 }],
  ['a', 'abcdef\n', { maxColumns: 1 }], ['a', 'abcdef\n', { maxColumns: 3 }], ['a', 'abcdef\n', { maxColumns: 4 }],
  ['x', '0123456789\nx\n0123456789\n', { maxColumns: 5, context: 1 }], ['a', B('a\xff\xff\xff\xff\n'), { maxColumns: 6 }],
  ['a', 'a日本語テキスト\n', { maxColumns: 8 }], ['a', 'a😀😀😀\n', { maxColumns: 7 }],
]) add(p, c, o);

// ---- context, caps, modes ----
const t = 'a1\nx\na2\na3\nx\nx\na4\n';
for (const o of [
  {}, { context: 1 }, { contextBefore: 2 }, { contextBefore: 2, context: 5 }, { contextAfter: 1 }, { context: 3 },
  { maxCount: 0 }, { maxCount: 1 }, { maxCount: 2 }, { maxCount: 2, offset: 1 }, { maxCount: 2, context: 1 },
  { maxCount: 1, contextAfter: 3 }, { maxCount: 3, contextAfter: 3 }, { offset: 2, contextBefore: 2 },
  CNT, { mode: 'count', maxCount: 1 }, FWM,
]) add('a', t, o);
add('a', 'a  \n \t\nb\n\na\n', { context: 2 });
add('a', 'x\ny\na\n', { contextBefore: 5 });
add('a', 'a\ny\nz', { contextAfter: 5 });
add('a', 'a\ny\nz\n', { contextAfter: 5 });
add('q', 'a\nb\n', { context: 2 });

// ---- filesWithMatches: raw bytes ----
for (const [p, c] of [
  ['^bar', 'foo\nbar\n'], ['foo$', 'foo\nbar\n'], ['foo\\nbar', 'foo\nbar\n'], ['\\n', 'foo\nbar\n'],
  ['foo\\sbar', 'foo\nbar\n'], ['x*', ''], ['a', ''], ['o.b', 'foo\nbar\n'], ['o[^x]b', 'foo\nbar\n'], ['\\Abar', 'foo\nbar\n'],
  ['a\\z', 'a\n'], ['a$', 'a\n'], ['a', B('x\0a\n')], ['é', B('\xe9\n')], ['\\bé', 'é\n'], ['o\\r$', 'fo\r\n'],
]) { add(p, c, FWM); }
for (const [p, c] of [['^bar', 'foo\nbar\n'], ['foo$', 'foo\nbar\n'], ['foo\\nbar', 'foo\nbar\n'], ['o\\r?$', 'fo\r\n']]) {
  add(p, c, Object.assign({}, FWM, M));
}
add('^$', 'foo\n\nbar\n', CNT);
add('x*', 'a\nb', CNT);

module.exports = cases;

// Records the reference's answers for the Go tests to replay:
//
//   node gen_reference.js /path/to/pi_natives.linux-x64-modern.node
//   node gen_reference.js /path/to/pi_natives.linux-x64-modern.node cases_random.js random.json
//
// Each case greps one temporary file holding `content` with the reference
// (@oh-my-pi/pi-natives@14.9.9) and records what it answered. Hand-written
// cases are in cases.js (-> reference.json), generated ones in
// cases_random.js (-> random.json).
const fs = require('fs');
const os = require('os');
const path = require('path');
const addon = require(path.resolve(process.argv[2]));
const cases = require('./' + (process.argv[3] || 'cases.js'));
(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fscache-ref-'));
  const file = path.join(dir, 'f.txt');
  const out = [];
  for (const c of cases) {
    const content = typeof c.content === 'string' ? Buffer.from(c.content, 'utf8') : Buffer.from(c.content);
    fs.writeFileSync(file, content);
    const rec = { name: c.name || '', pattern: c.pattern, options: c.options || {}, content: content.toString('base64') };
    try {
      const r = await addon.grep(Object.assign({ pattern: c.pattern, path: file }, c.options || {}));
      rec.totalMatches = r.totalMatches;
      rec.matches = r.matches.map((m) => {
        const x = { lineNumber: m.lineNumber, line: m.line };
        if (m.truncated) x.truncated = true;
        if (m.matchCount !== undefined) x.matchCount = m.matchCount;
        if (m.contextBefore) x.contextBefore = m.contextBefore;
        if (m.contextAfter) x.contextAfter = m.contextAfter;
        return x;
      });
    } catch (e) {
      rec.error = e.message;
    }
    out.push(rec);
  }
  fs.rmSync(dir, { recursive: true });
  fs.writeFileSync(path.join(__dirname, process.argv[4] || 'reference.json'), JSON.stringify(out, null, process.argv[4] ? 0 : 1) + '\n');
  console.log(out.length, 'cases');
})();

// Records the reference's answers for internal/engine/testdata:
//   PI_NATIVES_NODE=/path/to/pi_natives.linux-x64-modern.node \
//     node recglob.js <scratch dir> <cases.json> <tree.json> > <answers.json>
// Each case is {fn, options}; options.path, when present, is relative to
// the fixture root. The root is written as "<root>" in the answers.
const m = require(process.env.PI_NATIVES_NODE);
const fs = require('fs');
const path = require('path');
const root = process.argv[2];
const cases = JSON.parse(fs.readFileSync(process.argv[3]));
const tree = JSON.parse(fs.readFileSync(process.argv[4]));
fs.rmSync(root, { recursive: true, force: true });
for (const e of tree) {
  const p = path.join(root, e.path);
  if (e.path.endsWith('/')) { fs.mkdirSync(p, { recursive: true }); continue; }
  fs.mkdirSync(path.dirname(p), { recursive: true });
  if (e.symlink) { fs.symlinkSync(e.symlink, p); continue; }
  let content = e.content ?? e.path + '\n';
  if (e.repeat) content = content.repeat(e.repeat);
  fs.writeFileSync(p, e.base64 ? Buffer.from(e.base64, 'base64') : content);
}
for (const e of tree) {
  if (e.mtime) { const t = e.mtime / 1000; fs.utimesSync(path.join(root, e.path), t, t); }
}
(async () => {
  const out = [];
  for (const c of cases) {
    const o = { ...c.options, path: c.options.path ? path.join(root, c.options.path) : root };
    try {
      const r = await m[c.fn](o);
      out.push({ ...c, want: JSON.parse(JSON.stringify(r).split(root).join('<root>')) });
    } catch (e) {
      out.push({ ...c, error: e.message });
    }
  }
  console.log(JSON.stringify(out, null, 1));
})();

// The part the recorders (recglob.js, reclw.js) share: writing a fixture
// tree and replaying cases against the reference.
const fs = require('fs');
const path = require('path');

// writeTree makes root (emptied first) hold tree's entries: "x/" is a
// directory; an entry with symlink is a link to it; a file holds content
// (its path and a newline when left out), repeated `repeat` times, or the
// bytes of base64.
function writeTree(root, tree) {
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
}

// replay calls m[c.fn] for each case {fn, options}, options.path made
// absolute under root, and returns the cases with their answer (want) or
// error message; root is written as "<root>" in answers, and in error
// messages too with scrubErrors.
async function replay(m, root, cases, { scrubErrors = false } = {}) {
  const out = [];
  for (const c of cases) {
    const o = { ...c.options, path: c.options.path ? path.join(root, c.options.path) : root };
    try {
      const r = await m[c.fn](o);
      out.push({ ...c, want: JSON.parse(JSON.stringify(r).split(root).join('<root>')) });
    } catch (e) {
      out.push({ ...c, error: scrubErrors ? e.message.split(root).join('<root>') : e.message });
    }
  }
  return out;
}

module.exports = { writeTree, replay };

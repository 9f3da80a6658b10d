// Records the reference's answers for internal/engine/testdata:
//   PI_NATIVES_NODE=/path/to/pi_natives.linux-x64-modern.node \
//     node recglob.js <scratch dir> <cases.json> <tree.json> > <answers.json>
// Each case is {fn, options}; options.path, when present, is relative to
// the fixture root. The root is written as "<root>" in the answers.
const m = require(process.env.PI_NATIVES_NODE);
const fs = require('fs');
const path = require('path');
const { writeTree, replay } = require('./record.js');
const root = process.argv[2];
const cases = JSON.parse(fs.readFileSync(process.argv[3]));
const tree = JSON.parse(fs.readFileSync(process.argv[4]));
writeTree(root, tree);
for (const e of tree) {
  if (e.mtime) { const t = e.mtime / 1000; fs.utimesSync(path.join(root, e.path), t, t); }
}
(async () => {
  const out = await replay(m, root, cases);
  console.log(JSON.stringify(out, null, 1));
})();

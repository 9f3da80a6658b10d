// Records pi-natives 18.2.3's answers for listWorkspace and grep maxCountPerFile:
//   PI_NATIVES_NODE=/work/refcache/package/pi_natives.linux-x64-modern.node \
//     node reclw.js <scratch dir> ws_cases.json ws_tree.json > ref_listworkspace.json
// Like recglob.js; besides `mtime` (ms) an entry may have `mtimeNs` ("sec.nanos"), set
// exactly with touch(1). Directories are listed ("x/") with their mtimes, so that every
// entry's mtime is fixed. Each case is {fn, options}; options.path is relative to the root.
const m = require(process.env.PI_NATIVES_NODE);
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { writeTree, replay } = require('./record.js');
const root = process.argv[2];
const cases = JSON.parse(fs.readFileSync(process.argv[3]));
const tree = JSON.parse(fs.readFileSync(process.argv[4]));
writeTree(root, tree);
for (const e of tree) {
  const p = path.join(root, e.path);
  if (e.mtimeNs) execFileSync('touch', ['-m', '-a', '-d', '@' + e.mtimeNs, p]);
  else if (e.mtime) { const t = e.mtime / 1000; fs.utimesSync(p, t, t); }
}
process.env.HOME = fs.mkdtempSync('/tmp/reclw-home');
process.env.XDG_CONFIG_HOME = path.join(process.env.HOME, '.config');
(async () => {
  const out = await replay(m, root, cases, { scrubErrors: true });
  console.log('[\n' + out.map((c) => JSON.stringify(c)).join(',\n') + '\n]');
})();

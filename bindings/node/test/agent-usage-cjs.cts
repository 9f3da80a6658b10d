// Type check only: the `require` entry (index.d.cts) declares the same API.
import fscache = require("fscache-native");

export async function cjsCaller(root: string): Promise<number> {
  const r = await fscache.glob({ pattern: "*.ts", path: root, fileType: fscache.FileType.File }, (err, m) => {
    if (err === null) void m.path;
  });
  const g = await fscache.grep({ pattern: "x", path: root, mode: fscache.GrepOutputMode.Count });
  const f = await fscache.fuzzyFind({ query: "x", path: root });
  fscache.invalidateFsScanCache(root);
  return r.totalMatches + g.totalMatches + f.totalMatches;
}

// The trees the benches share: Go's src, and generated trees made once under
// a directory (compare.mjs's --trees), so that every bench that asks for the
// same size gets the same tree.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function goSrc() {
  return path.join(execFileSync('go', ['env', 'GOROOT']).toString().trim(), 'src');
}

// A generated tree of about n files: packages/pNN/src/dNN/mod<i>file<j>.ts,
// a node_modules with a tenth of the files, a .gitignore'd dist/, hidden
// files. Made once; a marker file records completion.
export function genTree(dir, n) {
  const done = path.join(dir, '.complete');
  if (fs.existsSync(done)) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, '.gitignore'), 'dist/\n*.log\n');
  const perDir = 50;
  const dirs = Math.ceil(n / perDir);
  let made = 0;
  for (let d = 0; d < dirs && made < n; d++) {
    const top = d % 10 === 9 ? `node_modules/lib${d % 97}` : `packages/p${d % 40}`;
    const sub = path.join(dir, top, 'src', `d${d}`);
    fs.mkdirSync(sub, { recursive: true });
    for (let f = 0; f < perDir && made < n; f++, made++) {
      const name = f % 25 === 0 ? `.hidden${f}.ts` : f % 17 === 0 ? `mod${d % 10}file${f}.log` : `mod${d % 10}file${f}.ts`;
      fs.writeFileSync(path.join(sub, name), '');
    }
  }
  fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (let i = 0; i < 100; i++) fs.writeFileSync(path.join(dir, 'dist', `out${i}.js`), '');
  fs.writeFileSync(done, '');
  return dir;
}

// omp-fscache: omp's read with fscache's read cache (markers and diffs that
// keep omp's [path#TAG] header; omp's own read always runs first).
import registerRead from "./src/read.js";

export default function ompFscache(pi) {
  registerRead(pi);
}

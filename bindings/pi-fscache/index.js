// pi-fscache: pi's read, find, grep and ls served by fscache.
// The read cache (seed 001): src/read/; find, grep and ls: src/tools/.
import registerRead from "./src/read/index.js";
import registerTools from "./src/tools/index.js";

export default function piFscache(pi) {
  registerRead(pi);
  registerTools(pi);
}

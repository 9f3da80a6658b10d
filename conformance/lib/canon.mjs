// Canonical, JSON-safe form of a result: object keys sorted, and the values JSON cannot carry
// made visible (an own key holding `undefined` is not the same as a missing key for callers
// that test `"mtime" in m`).

export const UNDEF = "<undefined>";

export function canon(v) {
  if (v === undefined) return UNDEF;
  if (v === null || typeof v === "boolean" || typeof v === "string") return v;
  if (typeof v === "number") {
    if (Number.isNaN(v)) return "<NaN>";
    if (!Number.isFinite(v)) return v > 0 ? "<Infinity>" : "<-Infinity>";
    if (Object.is(v, -0)) return "<-0>";
    return v;
  }
  if (typeof v === "bigint") return `<bigint ${v}>`;
  if (typeof v === "function") return "<function>";
  if (Array.isArray(v)) return v.map(canon);
  if (typeof v === "object") {
    const out = {};
    for (const k of Object.keys(v).sort()) out[k] = canon(v[k]);
    return out;
  }
  return `<${typeof v}>`;
}

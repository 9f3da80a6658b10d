// Type-level usage of the read cache (fscache's own), as a pi package's
// read override writes it (checked by `make typecheck`, never run): the
// trusted hashes replayed into `bases`, the modes, pi's truncation kept,
// the meta recorded, errors by code.
import { readCache, readCacheResolve, readCacheStore } from "fscache-native";
import type { ReadCacheMeta, ReadCacheMode, ReadCacheOptions, ReadCacheResult, ReadCacheStoreInfo } from "fscache-native";

export async function read(
  cwd: string,
  args: { path: string; offset?: number; limit?: number },
  trusted: Map<string, Record<string, string>>,
  signal?: AbortSignal,
): Promise<{ text: string; details: { truncation?: unknown; readcache?: ReadCacheMeta } } | "baseline"> {
  const key = (await readCacheResolve({ path: args.path, cwd, offset: args.offset, limit: args.limit })).pathKey;
  const options: ReadCacheOptions = { ...args, cwd, pathKey: key, bases: trusted.get(key) ?? {}, signal, timeoutMs: 10_000 };
  const r: ReadCacheResult = await readCache(options).catch((err: Error & { code?: string }) => {
    // pi's own errors go to the model as they are; others name their code.
    if (err.code === "offset_beyond_eof" || err.name === "AbortError") throw err;
    throw new Error(`read cache (${err.code}): ${err.message}`);
  });
  const mode: ReadCacheMode = r.mode;
  if (mode === "baseline") return "baseline";
  if (r.meta) trusted.set(r.meta.pathKey, { ...trusted.get(r.meta.pathKey), [r.meta.scopeKey]: r.meta.servedHash });
  const by: "lines" | "bytes" | null | undefined = r.truncation?.truncatedBy;
  void by;
  return { text: r.text, details: { truncation: r.truncation, readcache: r.meta } };
}

// The text a marker or diff stood for, re-rendered from the store (the
// content it was served against, whatever the file holds now).
export async function resend(cwd: string, args: { path: string; offset?: number; limit?: number }, meta: ReadCacheMeta): Promise<string> {
  const r = await readCache({ ...args, cwd, pathKey: meta.pathKey, objectHash: meta.servedHash, lineCount: "lines" }).catch(
    (err: Error & { code?: string }) => {
      if (err.code === "object_missing") return null;
      throw err;
    },
  );
  return r?.text ?? "[the text this read showed is no longer in the read cache's store]";
}

export async function status(dir: string): Promise<string> {
  const s: ReadCacheStoreInfo = await readCacheStore({ dir });
  return `${s.objects} objects, ${s.bytes} bytes in ${s.dir}`;
}

// @ts-expect-error path is required
void readCache({ cwd: "/" });
// @ts-expect-error bases maps scope keys to hashes (strings)
void readCache({ path: "a", bases: { full: 1 } });
// @ts-expect-error exclude is an array of patterns
void readCache({ path: "a", exclude: "*.pem" });
// @ts-expect-error objectHash is a sha256 in hex (a string)
void readCache({ path: "a", objectHash: 1 });
// @ts-expect-error dir is required
void readCacheStore({});

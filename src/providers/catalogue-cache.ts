// The catalogue's cache on disk: one small JSON file per provider and base URL
// in $XDG_CACHE_HOME/awl/models/ (else ~/.cache/awl/models/), the folder 0700
// and the files 0600. It holds what the models endpoint said and when, never
// a key or a URL's credentials (the file is named by a hash of the base URL).
// Written whole and private (src/private-file.ts), so a reader never sees half,
// in a folder that is this user's alone (src/cache-folder.ts): a cache found
// anywhere else is not read. The folder also holds what refusals taught about
// models' thinking (thinking-lessons.ts), kept the same way.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { privateCacheFolder, trustedCacheFolder } from "../cache-folder";
import { writeFileAtomic } from "../private-file";
import type { ModelInfo } from "./model-info";
import type { ProviderName } from "./provider";

export interface CachedCatalogue {
  /** "ok": the provider's list; "none": the server has no models endpoint; "failed": the fetch failed (refused, timed out, garbage). */
  status: "ok" | "none" | "failed";
  /** When the endpoint answered (or failed), epoch ms. */
  fetchedAt: number;
  /** The server's host, for "where the list came from". */
  host: string;
  models: ModelInfo[];
  /** Why the fetch found no list, in a few words. */
  reason?: string;
}

/** One file of the models folder (a provider and base URL's catalogue, or the thinking lessons), and the environment that says where that folder is. */
export interface CacheFile {
  env: Record<string, string | undefined>;
  name: string;}

const FOLDER = "models";

export function cacheFile(env: Record<string, string | undefined>, provider: ProviderName, baseUrl: string): CacheFile {
  const hash = createHash("sha256").update(baseUrl).digest("hex").slice(0, 16);
  return { env, name: `${provider}-${hash}.json` };
}

/** A cache file's JSON, or undefined when there is none, it is not JSON, or its folder is not this user's alone. */
export function readCacheJson(file: CacheFile): unknown {
  const folder = trustedCacheFolder(file.env, FOLDER);
  if (!folder) return undefined;
  try {
    return JSON.parse(readFileSync(join(folder, file.name), "utf8"));
  } catch {
    return undefined;
  }
}

/** The cached catalogue, or undefined when there is none, its folder is not this user's alone, or it is not one awl wrote (then it is fetched again). */
export async function readCache(file: CacheFile): Promise<CachedCatalogue | undefined> {
  const value = readCacheJson(file);
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const statusOk = v.status === "ok" || v.status === "none" || v.status === "failed";
  if (!statusOk || typeof v.fetchedAt !== "number" || typeof v.host !== "string" || !Array.isArray(v.models)) return undefined;
  if (!v.models.every((m) => typeof m === "object" && m !== null && typeof (m as ModelInfo).id === "string")) return undefined;
  return value as CachedCatalogue;
}

/** Best effort: a cache that cannot be written (read-only home) costs a fetch next time, nothing more. A catalogue, or thinking-lessons.ts's file. */
export function writeCache(file: CacheFile, value: object): void {
  try {
    const folder = privateCacheFolder(file.env, FOLDER);
    if (folder) writeFileAtomic(join(folder, file.name), JSON.stringify(value));
  } catch {
    // Nothing to tell: the catalogue in memory is the same.
  }
}

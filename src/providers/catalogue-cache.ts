// The catalogue's cache on disk: one small JSON file per provider and base URL
// in $XDG_CACHE_HOME/awl/models/ (else ~/.cache/awl/models/), the folder 0700
// and the files 0600. It holds what the models endpoint said and when, never
// a key or a URL's credentials (the file is named by a hash of the base URL).
// Written whole to a temporary file and renamed, so a reader never sees half.
// The folder also holds what refusals taught about models' thinking
// (thinking-lessons.ts), written the same way.

import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
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

export function cacheDirectory(env: Record<string, string | undefined>): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(base, "awl", "models");
}

export function cacheFile(env: Record<string, string | undefined>, provider: ProviderName, baseUrl: string): string {
  const hash = createHash("sha256").update(baseUrl).digest("hex").slice(0, 16);
  return join(cacheDirectory(env), `${provider}-${hash}.json`);
}

/** The cached catalogue, or undefined when there is none or it is not one awl wrote (then it is fetched again). */
export async function readCache(file: string): Promise<CachedCatalogue | undefined> {
  let value: unknown;
  try {
    value = JSON.parse(await Bun.file(file).text());
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const statusOk = v.status === "ok" || v.status === "none" || v.status === "failed";
  if (!statusOk || typeof v.fetchedAt !== "number" || typeof v.host !== "string" || !Array.isArray(v.models)) return undefined;
  if (!v.models.every((m) => typeof m === "object" && m !== null && typeof (m as ModelInfo).id === "string")) return undefined;
  return value as CachedCatalogue;
}

/** Best effort: a cache that cannot be written (read-only home) costs a fetch next time, nothing more. A catalogue, or thinking-lessons.ts's file. */
export function writeCache(file: string, value: object): void {
  try {
    const dir = join(file, "..");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(value), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    // Nothing to tell: the catalogue in memory is the same.
  }
}

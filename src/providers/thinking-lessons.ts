// What refusals of the thinking configuration taught earlier runs, kept beside
// the model catalogues (thinking-lessons.json in their cache folder), so that a
// run starts knowing it: `--effort off` on a model the API said always thinks
// is then refused before any request, as for a model awl's own table knows.
// Best effort, as the catalogue cache is: a file that cannot be read or written
// costs one refused request, nothing more. It holds only flags, by model id.

import { readCacheJson, writeCache, type CacheFile } from "./catalogue-cache";
import { recallThinking, type ThinkingLessons } from "./thinking-forms";

/** The flags a refusal teaches (lessonOf); anything else in the file is ignored. */
const FLAGS = ["adaptive", "budget", "alwaysOn", "binds"] as const;

/**
 * Reads the lessons of earlier runs into this process, and keeps each new one
 * there (merged with what other runs kept meanwhile). Synchronous, so that a
 * lesson is on disk before a run that ends on it exits.
 */
export function recallThinkingLessons(env: Record<string, string | undefined>): void {
  const file: CacheFile = { env, name: "thinking-lessons.json" };
  recallThinking(readLessons(file), (lessons) => writeCache(file, { ...readLessons(file), ...lessons }));
}

function readLessons(file: CacheFile): ThinkingLessons {
  const value = readCacheJson(file);
  const lessons: ThinkingLessons = {};
  if (typeof value !== "object" || value === null) return lessons;
  for (const [model, fact] of Object.entries(value)) {
    if (typeof fact !== "object" || fact === null) continue;
    const flags = FLAGS.filter((flag) => typeof (fact as Record<string, unknown>)[flag] === "boolean").map((flag) => [flag, (fact as Record<string, boolean>)[flag]]);
    if (flags.length) lessons[model] = Object.fromEntries(flags);
  }
  return lessons;
}

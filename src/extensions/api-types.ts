// The extension API's types as a file an author's editor reads (awl.d.ts):
// api.ts itself, which imports nothing so that it stands alone. The compiled
// awl carries its text (build.ts defines AWL_API_TYPES); run from source, it
// is read beside this file.
import { readFileSync } from "node:fs";
import { join } from "node:path";

declare const AWL_API_TYPES: string;

export function apiTypes(): string {
  const source = typeof AWL_API_TYPES === "string" ? AWL_API_TYPES : readFileSync(join(import.meta.dir, "api.ts"), "utf8");
  return `// awl's extension API (docs/extensions.md), written by \`awl extensions types\`.\n// In an extension: import type { Awl } from "./awl"; export default (awl: Awl) => { … };\n\n${source}`;
}

// Which files in an extensions folder are extension modules: every `.ts`,
// `.js` or `.mjs` file, and every folder with an `index.ts` or `index.js`, in
// name order. Apart from the loader, so the trust question can list them
// without loading what imports them.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { configDir } from "../config-dir";

const MODULE = /^[^.].*(?<!\.d)\.(ts|js|mjs)$/;

/** The extension modules in `dir`, in name order: files, and folders with an index. */
export function extensionModules(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return []; // no folder: no extensions
  }
  const modules: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let folder = false;
    try {
      folder = statSync(path).isDirectory();
    } catch {
      continue; // a broken link: nothing to import
    }
    if (!folder) {
      if (MODULE.test(name)) modules.push(path);
      continue;
    }
    const index = ["index.ts", "index.js"].map((file) => join(path, file)).find((file) => existsSync(file));
    if (index) modules.push(index);
  }
  return modules;
}

/** The folder of the person's extensions. */
export function extensionsDir(env: Record<string, string | undefined> = process.env): string {
  return join(configDir(env), "extensions");
}

/** The folder of a project's extensions. */
export function projectExtensionsDir(cwd: string): string {
  return join(cwd, ".awl", "extensions");
}

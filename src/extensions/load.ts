// The person's extensions, imported at start (docs/extensions.md): every
// `.ts`, `.js` or `.mjs` file in $XDG_CONFIG_HOME/awl/extensions/, and every
// folder there with an `index.ts` or `index.js`, in name order; then, once the
// person trusts the project, the project's `.awl/extensions/`. The provider
// keys leave process.env before the first is imported, so no extension reads
// them. A module that fails to import, has no default function, throws from
// it, or does not finish within the time limit is named once and skipped:
// nothing it registered is kept.
import { takeKeys } from "../providers/registry";
import { addTools, builtinToolNames } from "../tools";
import { ExtensionHost, type Staged } from "./host";
import { extensionModules, extensionsDir, projectExtensionsDir } from "./modules";
import type { CodeScope } from "./trust";

/** How long one module may take to import and register (ms) unless AWL_EXTENSION_TIMEOUT says otherwise. */
const LOAD_MS = 10_000;

/** Whether any module was imported: its timers and sockets may outlive the command (main.ts then exits). */
let imported = false;

export function anyLoaded(): boolean {
  return imported;
}

/**
 * Imports the extensions `scope` lets run (the person's, then a trusted
 * project's) and adds what they registered; returns the host that stands
 * behind them (undefined when there are none). `notify` names each failure,
 * once.
 */
export async function loadExtensions(notify: (line: string) => void, cwd: string, scope: CodeScope, env: Record<string, string | undefined> = process.env): Promise<ExtensionHost | undefined> {
  const modules = [...(scope.person ? extensionModules(extensionsDir(env)) : []), ...(scope.project ? extensionModules(projectExtensionsDir(cwd)) : [])];
  if (!modules.length) return undefined;
  takeKeys(process.env);
  imported = true;
  const host = new ExtensionHost(notify, builtinToolNames(), env);
  const ms = Number(env.AWL_EXTENSION_TIMEOUT);
  const limit = Number.isFinite(ms) && ms > 0 ? ms : LOAD_MS;
  for (const path of modules) {
    const staged: Staged = { origin: path, tools: [], commands: [], renderers: [], handlers: [], open: true };
    const why = await loadOne(path, host, staged, limit);
    if (why) {
      staged.open = false;
      host.notLoaded(path, why);
    } else host.commit(staged);
  }
  addTools(host.tools);
  return host;
}

/** Imports one module and calls its default export with the API; why it failed, or undefined. */
async function loadOne(path: string, host: ExtensionHost, staged: Staged, limit: number): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`it did not finish loading in ${limit / 1000} s`), limit);
  });
  const load = (async () => {
    const module = (await import(path)) as { default?: unknown };
    if (typeof module.default !== "function") return "it has no default export that is a function (export default (awl) => { … })";
    await module.default(host.api(staged));
    return undefined;
  })().catch((error: unknown) => (error instanceof Error ? error.message.split("\n")[0]! : String(error)));
  try {
    return await Promise.race([load, late]);
  } finally {
    clearTimeout(timer);
  }
}

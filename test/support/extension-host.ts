// An ExtensionHost with modules loaded as load.ts loads them (each one's
// registrations kept once it has run), without files on disk: for tests that
// drive the real host, its handlers and renderers, through the real Agent.
import type { Awl } from "../../src/extensions/api";
import { ExtensionHost } from "../../src/extensions/host";
import { builtinToolNames } from "../../src/tools";

/** The host, with `modules` loaded in order as /ext/0.ts, /ext/1.ts…, and every failure it named. */
export function hostWith(modules: ((awl: Awl) => void)[], env: Record<string, string> = {}): { host: ExtensionHost; named: string[] } {
  const named: string[] = [];
  const host = new ExtensionHost((line) => named.push(line), builtinToolNames(), env);
  modules.forEach((module, i) => {
    const staged = { origin: `/ext/${i}.ts`, tools: [], commands: [], renderers: [], handlers: [], open: true };
    module(host.api(staged));
    host.commit(staged);
  });
  return { host, named };
}

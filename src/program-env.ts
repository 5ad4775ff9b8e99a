// The environment of a program awl starts for the person (an editor, a
// browser for an MCP sign-in) and of what a project's file may expand (an MCP
// server's config): awl's own, less the provider keys (from their table) and
// the secret-named variables, as bash gets it (tools/bash-env.ts).

import { keyVariables } from "./providers/registry";
import { bashEnvironment } from "./tools/bash-env";

export function programEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  return bashEnvironment(env, keyVariables());
}

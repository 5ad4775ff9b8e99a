// The model a file's `model:` line names, as Claude Code's agent definitions
// and Markdown commands write it: `sonnet`, `opus` or `haiku` (the newest of
// that family the built-in table lists for the provider in use), or an id.
// Subagents (run-child.ts) and Markdown commands (command-turn.ts) share it.

import type { ModelRef } from "../session";
import { UserError } from "../errors";
import { builtinModels } from "../providers/builtin-models";
import { family, newestFirst } from "../providers/model-family";
import type { ProviderName } from "../providers/provider";
import { parseModelSpec } from "../providers/models";

const ALIASES = ["sonnet", "opus", "haiku"];

export const isModelAlias = (name: string): boolean => ALIASES.includes(name);

/** The newest id of an alias's family that the built-in table lists for `provider`, or undefined when it lists none. */
export function aliasedModel(provider: ProviderName, alias: string): string | undefined {
  return newestFirst(builtinModels(provider).filter((m) => family(m.id) === `claude-${alias}`))[0]?.id;
}

/**
 * What a Markdown command's `model:` names, beside `current`: an alias, or a
 * spec as /model takes it (an id, provider/id). A UserError, in one line,
 * when it names none.
 */
export function namedModel(current: ModelRef, wanted: string): ModelRef {
  const name = wanted.trim();
  if (isModelAlias(name)) {
    const id = aliasedModel(current.provider, name);
    if (!id) throw new UserError(`${current.provider} has no ${name} model awl knows of; name the model by its id (or provider/id)`);
    return { provider: current.provider, model: id };
  }
  const parsed = parseModelSpec(name);
  return { provider: parsed.provider ?? current.provider, model: parsed.model };
}

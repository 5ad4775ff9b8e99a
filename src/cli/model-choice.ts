// Which provider/model a run uses: flags win; a resumed session
// keeps its activeModel(); a new one takes AWL_PROVIDER/AWL_MODEL, then
// the first provider whose key is set (providers/order.ts), then the
// provider's default: the newest of its default family that its catalogue
// lists (`newest`), else the built-in default.

import { defaultModel, parseModelSpec } from "../providers/models";
import { firstProvider, providerFromEnvironment } from "../providers/order";
import type { ProviderName } from "../providers/provider";
import { isProviderName, namesInWords } from "../providers/registry";
import { UsageError } from "../errors";
import type { ModelRef } from "../session";

/** The catalogue's default for a provider, when it has a list to pick from. */
export type NewestDefault = (provider: ProviderName) => string | undefined;

export function chooseModel(
  flags: { provider?: string; model?: string },
  resumed: ModelRef | undefined,
  env: Record<string, string | undefined> = process.env,
  newest: NewestDefault = () => undefined,
): ModelRef {
  const fromFlag = flags.model ? parseModelSpec(flags.model) : undefined;
  if (fromFlag?.provider && flags.provider && fromFlag.provider !== flags.provider) {
    throw new UsageError(`--model ${flags.model} is not a ${flags.provider} model (see awl --help)`);
  }
  const base = resumed ?? fromEnvironment(env, newest);
  const provider = flags.provider ?? fromFlag?.provider ?? base.provider;
  const model = fromFlag?.model ?? (provider === base.provider ? base.model : defaultModel(provider, {}, newest(provider)));
  return { provider, model };
}

/** Whether the model of a new session is the provider's default: nothing (no --model, no AWL_MODEL) named one. */
export function isDefaultModel(flags: { model?: string }, env: Record<string, string | undefined> = process.env): boolean {
  return !flags.model && !env.AWL_MODEL;
}

function fromEnvironment(env: Record<string, string | undefined>, newest: NewestDefault): ModelRef {
  const model = env.AWL_MODEL ? fromVariable("AWL_MODEL", env.AWL_MODEL) : undefined;
  const provider = env.AWL_PROVIDER || model?.provider || providerFromEnvironment(env) || firstProvider();
  if (!isProviderName(provider)) throw new UsageError(`AWL_PROVIDER=${provider} is not a provider awl knows: use ${namesInWords()}`);
  return { provider, model: model?.model ?? defaultModel(provider, {}, newest(provider)) };
}

/** A model spec from the environment: a refusal names the variable, which is where the fix goes. */
function fromVariable(name: string, spec: string): ReturnType<typeof parseModelSpec> {
  try {
    return parseModelSpec(spec);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${name}: ${error.message}`);
    throw error;
  }
}

// `awl models [--provider name] [--json]`: the models of the provider awl
// would use, newest first, the default among them, and where the list came
// from and how old it is. The one place, with /model, that says when the
// provider's list could not be had and the built-in table stands in; a stale
// list is refreshed first, so what it shows is current.

import { Catalogues } from "../providers/catalogue";
import { defaultModel } from "../providers/models";
import { modelRows } from "../ui/model-list";
import type { Args } from "./args";
import { chooseModel } from "./model-choice";

export async function models(args: Args, env: Record<string, string | undefined> = process.env): Promise<number> {
  const provider = chooseModel(args, undefined, env).provider;
  const catalogues = new Catalogues(env);
  const catalogue = catalogues.of(provider);
  await catalogue.load({ wait: true });
  const list = catalogue.models();
  const fallback = defaultModel(provider, {}, catalogues.newest(provider));
  if (args.json) {
    const answer = { provider, fromProvider: catalogue.listed !== undefined, source: catalogue.describeSource(), default: fallback, models: list };
    console.log(JSON.stringify(answer, null, 2));
    return 0;
  }
  const mark = (id: string) => (id === fallback ? "  (default)" : "");
  console.log([`${provider}'s models, newest first, ${catalogue.describeSource()}:`, ...modelRows(list, mark)].join("\n"));
  return 0;
}

// The effort a session runs at, and what it means for the model in use: the
// forms the model takes thinking in (providers/thinking-forms.ts), whether the
// effort can go to it at all, and a turn's thinking and max_tokens
// (providers/thinking-plan.ts).

import type { ModelInfo } from "../providers/model-info";
import { thinkingForms, type Effort, type ThinkingForms } from "../providers/thinking-forms";
import { planTurn, refuseEffort, type TurnPlan } from "../providers/thinking-plan";
import { UserError } from "../errors";
import type { ModelRef } from "../session";

export class ThinkingSettings {
  constructor(
    /** The effort in force: undefined when none was chosen (the model's default applies). */
    public effort: Effort | undefined,
    readonly modelInfo: (provider: string, model: string) => ModelInfo | undefined,
  ) {}

  /** How the model takes thinking: the catalogue's word, else what was learnt, else the built-in table. */
  forms({ provider, model }: ModelRef): ThinkingForms {
    return thinkingForms(provider, model, this.modelInfo(provider, model));
  }

  /** Why `effort` cannot go to the model, in one line; undefined when it can. */
  refusal(model: ModelRef, effort = this.effort): string | undefined {
    return refuseEffort(effort, this.forms(model), model.provider, model.model);
  }

  /** Sets the effort; one the model cannot take is refused (UserError) and the effort stays. */
  set(model: ModelRef, effort: Effort | undefined): void {
    const refusal = this.refusal(model, effort);
    if (refusal) throw new UserError(refusal);
    this.effort = effort;
  }

  /** The thinking and max_tokens of a turn of `model` starting now, in a window of `window` tokens. */
  plan(model: ModelRef, window: number, answer: number): TurnPlan {
    const outputLimit = this.modelInfo(model.provider, model.model)?.maxOutputTokens;
    return planTurn({ provider: model.provider, effort: this.effort, forms: this.forms(model), outputLimit, window, answer });
  }
}

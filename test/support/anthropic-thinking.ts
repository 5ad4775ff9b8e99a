// How each Claude model takes thinking, as the API enforces it (Anthropic's
// docs: "Adaptive thinking", "Effort", "Thinking", the Fable 5 migration
// guide, "Preserved thinking"). Written from those docs apart from awl's own
// table, so a test compares awl with the API, not awl with itself.
//
// - Opus 4.7 and later take only `thinking: {type: "adaptive"}`; Fable 5,
//   Mythos 5 and Mythos Preview also think always and refuse `disabled`.
// - Opus 4.6 and Sonnet 4.6 take both forms; older models only a budget.
// - `output_config.effort`: Opus 4.5 (low, medium, high); the 4.6 models add
//   max; Opus 4.7 and later add xhigh. Other models take no effort.
// - From Opus 4.7 on, thinking text is omitted unless `display: "summarized"`
//   is asked: the block comes back empty, with its signature.
// - Preserved thinking (Fable 5.1 and later, Opus/Sonnet/Haiku 5.5): a replayed
//   block is refused when anything before it (system, tools, earlier
//   messages) differs from the request that produced it.

import { createHash } from "node:crypto";
import type { Problem } from "./anthropic-protocol";
import { promptUnits } from "./prompt";
import type { Reply, Signer } from "./script";
import { blocksOf } from "./script";

export interface ModelThinking {
  adaptive: boolean;
  budget: boolean;
  alwaysOn: boolean;
  /** The effort levels it takes; empty: it takes no `output_config.effort`. */
  levels: readonly string[];
  hiddenText: boolean;
  binds: boolean;
}

const ALL = ["low", "medium", "high", "xhigh", "max"];
const NEWEST: ModelThinking = { adaptive: true, budget: false, alwaysOn: false, levels: ALL, hiddenText: true, binds: false };

export function modelThinking(model: string): ModelThinking {
  const is = (re: RegExp) => re.test(model);
  if (is(/^claude-(fable|mythos)-5-[12]/)) return { ...NEWEST, alwaysOn: true, binds: true };
  if (is(/^claude-(fable-5|mythos-)/)) return { ...NEWEST, alwaysOn: true };
  if (is(/^claude-(opus|sonnet|haiku)-5-5/)) return { ...NEWEST, binds: true };
  if (is(/^claude-(opus-5|sonnet-5|opus-4-8|opus-4-7)/)) return NEWEST;
  if (is(/^claude-(opus|sonnet)-4-6/)) return { ...NEWEST, budget: true, levels: ["low", "medium", "high", "max"], hiddenText: false };
  if (is(/^claude-opus-4-5/)) return { ...NEWEST, adaptive: false, budget: true, levels: ["low", "medium", "high"], hiddenText: false };
  return { ...NEWEST, adaptive: false, budget: true, levels: [], hiddenText: false };
}

const bad = (message: string): Problem => ({ status: 400, type: "invalid_request_error", message });

/** What the API refuses in a request's thinking form and effort level, for its model. */
export function checkThinkingForm(body: any, alwaysThinking: readonly string[] = []): Problem | null {
  const model = { ...modelThinking(String(body.model)), ...(alwaysThinking.includes(String(body.model)) && { alwaysOn: true }) };
  const type = body.thinking?.type;
  if (type === "enabled" && !model.budget)
    return bad('"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.');
  if (type === "adaptive" && !model.adaptive) return bad("adaptive thinking is not supported on this model");
  if (type === "disabled" && model.alwaysOn)
    return bad('"thinking.type.disabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.');
  const effort = body.output_config?.effort;
  if (effort !== undefined) {
    if (!model.levels.length) return bad("output_config.effort: This model does not support the effort parameter.");
    if (!model.levels.includes(effort)) return bad(`output_config.effort: Input should be ${model.levels.map((l) => `'${l}'`).join(", ")} for this model`);
  }
  return null;
}

/** The reply as the model's thinking display gives it: empty thinking text, signed all the same, unless summarized was asked. */
export function asDisplayed(reply: Reply, body: any): Reply {
  if (!modelThinking(String(body?.model)).hiddenText || body?.thinking?.display === "summarized") return reply;
  return { ...reply, blocks: blocksOf(reply).map((b) => (b.type === "thinking" ? { ...b, thinking: "" } : b)) };
}

/**
 * Preserved thinking: each thinking block a binding model signs is bound to
 * the prefix it was made after (system, tools, earlier messages, without
 * cache markers), and refused when replayed after any other.
 */
export class ThinkingBinding {
  /** signature -> the digest of the prefix it was produced after. */
  readonly #bound = new Map<string, string>();

  constructor(private readonly signer: Signer) {}

  /** The refusal of a request that replays a block after a changed prefix, or null. */
  check(body: any): Problem | null {
    if (!modelThinking(String(body.model)).binds) return null;
    for (const [i, message] of (body.messages as any[]).entries()) {
      if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
      for (const [j, block] of (message.content as any[]).entries()) {
        const bound = block.type === "thinking" ? this.#bound.get(block.signature) : undefined;
        if (bound !== undefined && bound !== prefixDigest(body, i))
          return bad(
            `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`,
          );
      }
    }
    return null;
  }

  /** Binds the thinking of an answer to the request it answers. */
  record(body: any, reply: Reply): void {
    if (!modelThinking(String(body?.model)).binds) return;
    const digest = prefixDigest(body, body.messages.length);
    for (const block of blocksOf(reply)) if (block.type === "thinking") this.#bound.set(this.signer.sign(block.thinking), digest);
  }
}

function prefixDigest(body: any, messages: number): string {
  const units = promptUnits("anthropic", { ...body, messages: body.messages.slice(0, messages) });
  const hash = createHash("sha256");
  for (const unit of units) hash.update(unit.section).update("\0").update(unit.json).update("\0");
  return hash.digest("hex");
}

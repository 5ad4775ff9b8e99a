// OpenAI's Responses API (POST /v1/responses), as the official OpenAPI
// document (CreateResponse, ResponseStreamEvent) and the docs describe it:
// its request checks, and the typed events of a streamed answer. Under
// `store: false` nothing is kept between requests, so an item sent with an id
// is refused as not found, and reasoning comes back only as the encrypted
// content the server issued, which it decrypts only for the key it issued it
// to. The SDK's types keep the event shapes honest.

import { createHmac, randomBytes } from "node:crypto";
import type { ResponseStreamEvent, ResponseUsage } from "openai/resources/responses/responses";
import type { OpenAIProblem } from "./openai-protocol";
import { type Reply, type TokenUsage, blocksOf, inputJson, pieces, randomId, stopOf } from "./script";

const bad = (message: string, param: string | null = null, code: string | null = null, status = 400): OpenAIProblem => ({
  status,
  message,
  type: "invalid_request_error",
  param,
  code,
});

/** CreateResponse's properties (ResponseCreateParams in the SDK). */
const PARAMS = new Set(
  "background conversation include input instructions max_output_tokens max_tool_calls metadata model parallel_tool_calls previous_response_id prompt prompt_cache_key prompt_cache_retention reasoning safety_identifier service_tier store stream stream_options temperature text tool_choice tools top_logprobs top_p truncation user".split(" "),
);
const INCLUDABLE = new Set([
  "file_search_call.results", "web_search_call.results", "web_search_call.action.sources", "message.input_image.image_url",
  "computer_call_output.output.image_url", "code_interpreter_call.outputs", "reasoning.encrypted_content", "message.output_text.logprobs",
]);
const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"];
/** The fields each input item kind takes (the OpenAPI document's InputItem variants awl can meet). */
const ITEM_FIELDS: Record<string, string[]> = {
  message: ["type", "role", "content", "phase", "id", "status"],
  function_call: ["type", "call_id", "name", "arguments", "id", "status"],
  function_call_output: ["type", "call_id", "output", "id", "status"],
  reasoning: ["type", "summary", "encrypted_content", "content", "id", "status"],
};
const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

/** Models that reason: they take `reasoning` and produce reasoning items (gpt-5-chat-latest, gpt-5's chat model, does not). */
export function reasons(model: string): boolean {
  return /^(o\d|gpt-5(?!-chat))/.test(model);
}

/**
 * Encrypted reasoning as the server issues it: the summary sealed for one
 * key. Real encrypted content is opaque and decrypts only for the
 * organization it was issued to; this one carries a MAC over the key and the
 * reasoning, so a copy sent with another key, or altered, is refused.
 */
export class ReasoningSealer {
  readonly #secret = randomBytes(32);

  /** Reasoning `model` made for `key`: another key, or another model, cannot open it (the API answers invalid_encrypted_content). */
  seal(key: string, model: string, reasoning: string): string {
    const body = Buffer.from(JSON.stringify({ r: reasoning, m: model, n: randomId(8) })).toString("base64");
    return `gAAAAA${body}.${this.#mac(key, body)}`;
  }

  /** The reasoning sealed in `content`, or undefined when it was not issued to `key` by `model`. */
  open(key: string, model: string, content: string): string | undefined {
    const match = /^gAAAAA([A-Za-z0-9+/=]+)\.([0-9a-f]+)$/.exec(content);
    if (!match || match[2] !== this.#mac(key, match[1]!)) return undefined;
    const sealed = JSON.parse(Buffer.from(match[1]!, "base64").toString()) as { r: string; m: string };
    return sealed.m === model ? sealed.r : undefined;
  }

  #mac(key: string, body: string): string {
    return createHmac("sha256", this.#secret).update(key).update("\0").update(body).digest("hex");
  }
}

export function validateResponses(body: any, options: { key: string; sealer: ReasoningSealer; knownModels?: string[] }): OpenAIProblem | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return bad("We could not parse the JSON body of your request.");
  for (const key of Object.keys(body)) if (!PARAMS.has(key)) return bad(`Unknown parameter: '${key}'.`, key, "unknown_parameter");
  if (typeof body.model !== "string" || !body.model) return bad("Missing required parameter: 'model'.", "model", "missing_required_parameter");
  if (body.store !== undefined && typeof body.store !== "boolean") return bad(`Invalid type for 'store': expected a boolean, but got ${typeof body.store} instead.`, "store", "invalid_type");
  if (body.stream !== undefined && typeof body.stream !== "boolean") return bad(`Invalid type for 'stream': expected a boolean, but got ${typeof body.stream} instead.`, "stream", "invalid_type");
  if (body.instructions !== undefined && body.instructions !== null && typeof body.instructions !== "string") return bad("Invalid type for 'instructions': expected a string.", "instructions", "invalid_type");
  if (body.prompt_cache_key !== undefined && typeof body.prompt_cache_key !== "string") return bad("Invalid type for 'prompt_cache_key': expected a string.", "prompt_cache_key", "invalid_type");
  if (body.max_output_tokens !== undefined && !(Number.isInteger(body.max_output_tokens) && body.max_output_tokens >= 16))
    return bad(`Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got ${body.max_output_tokens} instead.`, "max_output_tokens", "integer_below_min_value");
  if (body.include !== undefined) {
    if (!Array.isArray(body.include)) return bad("Invalid type for 'include': expected an array.", "include", "invalid_type");
    for (const [i, value] of body.include.entries())
      if (!INCLUDABLE.has(value)) return bad(`Invalid value: '${value}'. Supported values are: ${[...INCLUDABLE].map((v) => `'${v}'`).join(", ")}.`, `include[${i}]`, "invalid_value");
    if (body.include.includes("reasoning.encrypted_content") && !reasons(body.model)) return bad("Encrypted content is not supported with this model.", "include", "unsupported_parameter");
  }
  if (body.reasoning !== undefined && body.reasoning !== null) {
    if (!reasons(body.model)) return bad(`Unsupported parameter: 'reasoning.effort' is not supported with this model.`, "reasoning.effort", "unsupported_parameter");
    for (const key of Object.keys(body.reasoning)) if (!["effort", "summary", "generate_summary"].includes(key)) return bad(`Unknown parameter: 'reasoning.${key}'.`, `reasoning.${key}`, "unknown_parameter");
    if (body.reasoning.effort !== undefined && !EFFORTS.includes(body.reasoning.effort))
      return bad(`Invalid value: '${body.reasoning.effort}'. Supported values are: ${EFFORTS.map((e) => `'${e}'`).join(", ")}.`, "reasoning.effort", "invalid_value");
    if (body.reasoning.summary !== undefined && !["auto", "concise", "detailed"].includes(body.reasoning.summary))
      return bad(`Invalid value: '${body.reasoning.summary}'. Supported values are: 'auto', 'concise', and 'detailed'.`, "reasoning.summary", "invalid_value");
  }
  const tools = checkTools(body.tools);
  if (tools) return tools;
  const input = checkInput(body.input, body.store !== false, body.model, options);
  if (input) return input;
  if (options.knownModels && !options.knownModels.includes(body.model))
    return bad(`The model \`${body.model}\` does not exist or you do not have access to it.`, null, "model_not_found", 404);
  return null;
}

function checkTools(tools: unknown): OpenAIProblem | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return bad("Invalid type for 'tools': expected an array.", "tools", "invalid_type");
  for (const [i, tool] of tools.entries()) {
    if (tool?.type !== "function") return bad(`Invalid value: '${tool?.type}'. This test server knows only function tools.`, `tools[${i}].type`, "invalid_value");
    for (const key of Object.keys(tool)) if (!["type", "name", "description", "parameters", "strict"].includes(key)) return bad(`Unknown parameter: 'tools[${i}].${key}'.`, `tools[${i}].${key}`, "unknown_parameter");
    if (typeof tool.name !== "string") return bad(`Missing required parameter: 'tools[${i}].name'.`, `tools[${i}].name`, "missing_required_parameter");
    if (!TOOL_NAME.test(tool.name) || tool.name.length > 64) return bad(`Invalid 'tools[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `tools[${i}].name`, "invalid_value");
    // Strict mode needs every property required and no others allowed; awl's schemas have optional fields.
    if (tool.strict !== false && tool.parameters && (tool.parameters.additionalProperties !== false || Object.keys(tool.parameters.properties ?? {}).some((p) => !(tool.parameters.required ?? []).includes(p))))
      return bad(`Invalid schema for function '${tool.name}': In context=(), 'required' is required to be supplied and to be an array including every key in properties.`, `tools[${i}].parameters`, "invalid_function_parameters");
  }
  return null;
}

function checkInput(input: unknown, store: boolean, model: string, options: { key: string; sealer: ReasoningSealer }): OpenAIProblem | null {
  if (input === undefined || typeof input === "string") return null;
  if (!Array.isArray(input)) return bad("Invalid type for 'input': expected a string or an array.", "input", "invalid_type");
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const [i, item] of input.entries()) {
    const at = `input[${i}]`;
    const type = item?.type ?? (item?.role ? "message" : undefined);
    const fields = ITEM_FIELDS[type];
    if (!fields) return bad(`Invalid value: '${item?.type}'. This test server knows message, function_call, function_call_output and reasoning items.`, `${at}.type`, "invalid_value");
    for (const key of Object.keys(item)) if (!fields.includes(key)) return bad(`Unknown parameter: '${at}.${key}'.`, `${at}.${key}`, "unknown_parameter");
    // Nothing is stored under store: false, so no id can name a stored item.
    if (item.id !== undefined && !store)
      return bad(`Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`, `${at}`, null, 404);
    if (type === "message") {
      if (!["user", "assistant", "system", "developer"].includes(item.role)) return bad(`Invalid value: '${item.role}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`, `${at}.role`, "invalid_value");
      if (typeof item.content !== "string" && !Array.isArray(item.content)) return bad(`Invalid type for '${at}.content': expected one of a string or array of input content.`, `${at}.content`, "invalid_type");
      if (item.phase !== undefined && (item.role !== "assistant" || !["commentary", "final_answer"].includes(item.phase)))
        return bad(`Invalid value: '${item.phase}'. 'phase' is only supported on assistant messages, as 'commentary' or 'final_answer'.`, `${at}.phase`, "invalid_value");
    } else if (type === "function_call") {
      for (const key of ["call_id", "name", "arguments"]) if (typeof item[key] !== "string") return bad(`Missing required parameter: '${at}.${key}'.`, `${at}.${key}`, "missing_required_parameter");
      calls.add(item.call_id);
    } else if (type === "function_call_output") {
      if (typeof item.call_id !== "string" || typeof item.output !== "string") return bad(`Missing required parameter: '${at}.call_id'.`, `${at}.call_id`, "missing_required_parameter");
      if (!calls.has(item.call_id)) return bad(`No tool call found for function call output with call_id ${item.call_id}.`, "input", null);
      answered.add(item.call_id);
    } else {
      const problem = checkReasoning(item, input[i + 1], at, store, model, options);
      if (problem) return problem;
    }
  }
  for (const id of calls) if (!answered.has(id)) return bad(`No tool output found for function call ${id}.`, "input", null);
  return null;
}

function checkReasoning(item: any, next: any, at: string, store: boolean, model: string, options: { key: string; sealer: ReasoningSealer }): OpenAIProblem | null {
  if (!Array.isArray(item.summary) || item.summary.some((part: any) => part?.type !== "summary_text" || typeof part.text !== "string"))
    return bad(`Missing required parameter: '${at}.summary'.`, `${at}.summary`, "missing_required_parameter");
  if (!store && typeof item.encrypted_content !== "string")
    return bad(`Reasoning item ${at} has no encrypted content: without \`store\`, reasoning must be sent back with its \`encrypted_content\` (include 'reasoning.encrypted_content').`, `${at}.encrypted_content`, "missing_required_parameter");
  if (typeof item.encrypted_content === "string" && options.sealer.open(options.key, model, item.encrypted_content) === undefined)
    return bad(`The encrypted content ${item.encrypted_content.slice(0, 4)}...${item.encrypted_content.slice(-4)} could not be verified. Reason: Encrypted content could not be decrypted or parsed.`, null, "invalid_encrypted_content");
  // A reasoning item belongs to the output item that followed it.
  const follows = next && (next.type === "function_call" || next.type === "reasoning" || ((next.type ?? "message") === "message" && next.role === "assistant"));
  // The API names the item by its id; awl's carry none.
  if (!follows) return bad(`Item '${item.id ?? ""}' of type 'reasoning' was provided without its required following item.`, "input", null);
  return null;
}

/** An event before it is numbered (distributes over the union, so each kind keeps its fields). */
type Unsequenced<T> = T extends unknown ? Omit<T, "sequence_number"> : never;

/** The prompt-cache key a request is accounted under: the model, and the `prompt_cache_key` when given. */
export function cacheKeyOf(body: any, model: string): string {
  return typeof body?.prompt_cache_key === "string" ? `${model}\0${body.prompt_cache_key}` : model;
}

/** What an overflowing or failing response ends with, when it is not an HTTP error: an `error` event or `response.failed`. */
export type ResponsesFailure = { as: "errorEvent" | "failed"; code: string; message: string };

/**
 * The complete streamed answer, one string per SSE event. A thinking block is
 * a reasoning item (summary streamed only when asked for, encrypted content
 * only when included); stop "length" ends with `response.incomplete`, leaving
 * the last item cut off where it was.
 */
export function renderResponses(reply: Reply, model: string, usage: TokenUsage, body: any, seal: (reasoning: string) => string, failure?: ResponsesFailure): string[] {
  const frames: string[] = [];
  let sequence = 0;
  const emit = (event: Unsequenced<ResponseStreamEvent>) => {
    frames.push(`event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: sequence++ })}\n\n`);
  };
  const id = "resp_" + randomId(40);
  const response = (status: string, output: unknown[], extra: Record<string, unknown> = {}) =>
    ({ id, object: "response", created_at: Math.floor(Date.now() / 1000), status, model, output, usage: null, error: null, incomplete_details: null, store: body?.store ?? true, ...extra }) as any;
  emit({ type: "response.created", response: response("in_progress", []) });
  emit({ type: "response.in_progress", response: response("in_progress", []) });
  if (failure?.as === "errorEvent") {
    frames.push(`event: error\ndata: ${JSON.stringify({ type: "error", code: failure.code, message: failure.message, param: null, sequence_number: sequence++ })}\n\n`);
    return frames;
  }
  if (failure) {
    emit({ type: "response.failed", response: response("failed", [], { error: { code: failure.code, message: failure.message } }) });
    return frames;
  }
  const size = reply.chunk ?? 3;
  const stop = stopOf(reply);
  const summaries = typeof body?.reasoning?.summary === "string";
  const encrypted = Array.isArray(body?.include) && body.include.includes("reasoning.encrypted_content");
  const output: any[] = [];
  const blocks = blocksOf(reply).filter((b) => b.type !== "redactedThinking" && (b.type !== "thinking" || reasons(model)));
  for (const [n, block] of blocks.entries()) {
    const output_index = output.length;
    const cutOff = stop === "length" && n === blocks.length - 1;
    if (block.type === "thinking") {
      const item: any = { id: "rs_" + randomId(40), type: "reasoning", summary: [] };
      emit({ type: "response.output_item.added", output_index, item });
      if (summaries) {
        const part = { type: "summary_text" as const, text: "" };
        emit({ type: "response.reasoning_summary_part.added", item_id: item.id, output_index, summary_index: 0, part });
        for (const delta of pieces(block.thinking, size)) emit({ type: "response.reasoning_summary_text.delta", item_id: item.id, output_index, summary_index: 0, delta, obfuscation: "" } as any);
        emit({ type: "response.reasoning_summary_text.done", item_id: item.id, output_index, summary_index: 0, text: block.thinking });
        item.summary = [{ type: "summary_text", text: block.thinking }];
        emit({ type: "response.reasoning_summary_part.done", item_id: item.id, output_index, summary_index: 0, part: item.summary[0] });
      }
      if (encrypted) item.encrypted_content = seal(block.thinking);
      output.push(item);
      emit({ type: "response.output_item.done", output_index, item });
    } else if (block.type === "toolUse") {
      const args = inputJson(block.input);
      const item: any = { id: "fc_" + randomId(40), type: "function_call", status: "in_progress", call_id: block.id ?? "call_" + randomId(24), name: block.name, arguments: "" };
      emit({ type: "response.output_item.added", output_index, item: { ...item } });
      for (const delta of pieces(args, size)) emit({ type: "response.function_call_arguments.delta", item_id: item.id, output_index, delta } as any);
      output.push(item);
      if (cutOff) break;
      emit({ type: "response.function_call_arguments.done", item_id: item.id, output_index, name: block.name, arguments: args } as any);
      emit({ type: "response.output_item.done", output_index, item: { ...item, status: "completed", arguments: args } });
    } else if (block.type === "text" || block.type === "refusal") {
      const text = block.type === "text" ? block.text : block.refusal;
      const item: any = { id: "msg_" + randomId(40), type: "message", status: "in_progress", role: "assistant", content: [], phase: stop === "toolUse" ? "commentary" : "final_answer" };
      emit({ type: "response.output_item.added", output_index, item: { ...item } });
      const part = block.type === "text" ? { type: "output_text", text: "", annotations: [] } : { type: "refusal", refusal: "" };
      emit({ type: "response.content_part.added", item_id: item.id, output_index, content_index: 0, part } as any);
      const kind = block.type === "text" ? "response.output_text.delta" : "response.refusal.delta";
      for (const delta of pieces(text, size)) emit({ type: kind, item_id: item.id, output_index, content_index: 0, delta, logprobs: [] } as any);
      item.content = [block.type === "text" ? { type: "output_text", text, annotations: [] } : { type: "refusal", refusal: text }];
      output.push(item);
      if (cutOff) break;
      if (block.type === "text") emit({ type: "response.output_text.done", item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
      else emit({ type: "response.refusal.done", item_id: item.id, output_index, content_index: 0, refusal: text });
      emit({ type: "response.content_part.done", item_id: item.id, output_index, content_index: 0, part: item.content[0] } as any);
      emit({ type: "response.output_item.done", output_index, item: { ...item, status: "completed" } });
    }
  }
  const final = { usage: responseUsage(usage, blocks) };
  if (stop === "length") emit({ type: "response.incomplete", response: response("incomplete", output, { ...final, incomplete_details: { reason: "max_output_tokens" } }) });
  else emit({ type: "response.completed", response: response("completed", output, final) });
  return frames;
}

/** ResponseUsage: input_tokens is the whole prompt, cached_tokens the part read from the cache; reasoning tokens are part of the output. */
function responseUsage(usage: TokenUsage, blocks: ReturnType<typeof blocksOf>): ResponseUsage {
  const input = usage.input + usage.cacheRead;
  const reasoning = blocks.reduce((sum, b) => sum + (b.type === "thinking" ? Math.ceil(b.thinking.length / 4) : 0), 0);
  const output = Math.max(usage.output, reasoning);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reasoning },
    total_tokens: input + output,
  } as ResponseUsage;
}

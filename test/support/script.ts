// The protocol-neutral script a test gives the server: one Reply per request,
// whatever the endpoint. Each protocol module renders a Reply in its own wire
// format, so one script can drive a conversation that hops between providers.

import { createHmac, randomBytes } from "node:crypto";
import type { PromptUsage } from "./prompt-cache";

export type ReplyBlock =
  | { type: "text"; text: string }
  /** The server signs it (Anthropic) so it can verify the signature when the block comes back. */
  | { type: "thinking"; thinking: string }
  /** Anthropic only; `data` defaults to an opaque blob the server issues. OpenAI omits it. */
  | { type: "redactedThinking"; data?: string }
  /** `input` as a value (serialised with JSON.stringify) or as the exact JSON text to stream. */
  | { type: "toolUse"; id?: string; name: string; input: unknown }
  /**
   * The model declines (OpenAI: streamed in `delta.refusal`, then finish_reason
   * "stop"; Anthropic has no refusal block: its text, and stop_reason "refusal").
   */
  | { type: "refusal"; refusal: string };

export type StopKind = "stop" | "toolUse" | "length" | "refusal" | "context_window";

export type Fault =
  /** Answer with this HTTP error instead of a stream. */
  | { status: number; retryAfter?: number; retryAfterMs?: number; errorType?: string; message?: string; code?: string }
  /**
   * After `afterEvents` SSE events (pings and message_start count): send the
   * protocol's overloaded error event / destroy the connection / go silent
   * with the connection left open.
   */
  | { midStream: "overloaded" | "drop" | "stall"; afterEvents: number }
  /**
   * After `afterEvents` SSE events: a named `event: error` whose data is
   * `data` as JSON (wrapped `{error: {...}}`, bare `{message, type, code}`, or
   * `null`: the shapes the OpenAI SDK reads as the API's error), then the end.
   */
  | { midStream: "errorEvent"; afterEvents: number; data: unknown };

export interface Reply {
  /** Default: one text block "ok". */
  blocks?: ReplyBlock[];
  /** Default: "toolUse" if any toolUse block, else "stop". */
  stop?: StopKind;
  /**
   * Default: the prompt's tokens as the server counts them (prompt.ts), split
   * into uncached input and cache reads/writes as the API would report them,
   * and the reply's size for output. `input` is the uncached part on both
   * protocols (OpenAI's prompt_tokens is input + cacheRead).
   */
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
  /** Characters per text/thinking/JSON delta. Default 3. */
  chunk?: number;
  /** Write the bytes in random pieces, cutting inside events and UTF-8 characters. */
  splitBytes?: boolean;
  /** Pause between events. */
  delayMs?: number;
  fault?: Fault;
  /** Send this SSE body verbatim (protocol-quirk tests). */
  raw?: string;
  /**
   * Answer 200, but not with an event stream: "json" is the protocol's
   * non-streaming answer (a server that ignores `stream: true`); or any body
   * with its content type (a proxy's or captive portal's HTML page).
   */
  nonStream?: "json" | { contentType: string; body: string };
}

export function isHttpFault(fault: Fault | undefined): fault is Extract<Fault, { status: number }> {
  return fault !== undefined && "status" in fault;
}

export function blocksOf(reply: Reply): ReplyBlock[] {
  return reply.blocks ?? [{ type: "text", text: "ok" }];
}

export function stopOf(reply: Reply): StopKind {
  if (reply.stop) return reply.stop;
  const blocks = blocksOf(reply);
  return blocks.some((b) => b.type === "refusal") ? "refusal" : blocks.some((b) => b.type === "toolUse") ? "toolUse" : "stop";
}

/** Tool input as the JSON text the model would stream. */
export function inputJson(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

/** Splits text into pieces of `size` characters (never splitting a surrogate pair). */
export function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += Math.max(1, size)) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** A rough token count, only so default usage figures are plausible and non-zero. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** What a reply reports, in tokens: `input` uncached, beside the cache reads and writes. */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of cacheWrite written for an hour (Anthropic's ephemeral_1h_input_tokens). */
  cacheWrite1h: number;
}

/** The reply's scripted usage if it has one, else the prompt's as the server accounted it and the reply's size. */
export function usageOf(reply: Reply, prompt: PromptUsage): TokenUsage {
  if (reply.usage) return { input: reply.usage.input, output: reply.usage.output, cacheRead: reply.usage.cacheRead ?? 0, cacheWrite: reply.usage.cacheWrite ?? 0, cacheWrite1h: 0 };
  const produced = blocksOf(reply)
    .map((b) => (b.type === "text" ? b.text : b.type === "thinking" ? b.thinking : b.type === "toolUse" ? b.name + inputJson(b.input) : b.type === "refusal" ? b.refusal : ""))
    .join("");
  return { ...prompt, output: estimateTokens(produced) };
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export function randomId(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ALNUM[byte % ALNUM.length];
  return out;
}

/**
 * Issues and verifies thinking signatures and redacted-thinking data with a
 * per-server secret, as Anthropic does: a thinking block comes back accepted
 * only with the exact text the server produced and the signature it issued.
 */
export class Signer {
  readonly #secret = randomBytes(32);
  readonly #issuedRedacted = new Set<string>();

  sign(thinking: string): string {
    // Real signatures are long opaque base64 strings; two MACs give that shape.
    const mac = (label: string) => createHmac("sha256", this.#secret).update(label + "\0" + thinking).digest();
    return Buffer.concat([mac("sig"), mac("pad"), mac("pad2")]).toString("base64");
  }

  verify(thinking: string, signature: unknown): boolean {
    return typeof signature === "string" && signature === this.sign(thinking);
  }

  redacted(data?: string): string {
    const issued = data ?? "EmwKAhgBEgy" + randomBytes(96).toString("base64");
    this.#issuedRedacted.add(issued);
    return issued;
  }

  verifyRedacted(data: unknown): boolean {
    return typeof data === "string" && this.#issuedRedacted.has(data);
  }
}


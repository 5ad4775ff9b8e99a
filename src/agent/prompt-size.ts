// A prompt that cannot fit the model's window, however much of the
// conversation before it is compacted, is refused before anything is sent or
// logged: sending it would only compact what can be compacted, then fail with
// the API's "too long" anyway. The estimate is the one the agent sizes every
// request with (bytes / 4).

import { UserError } from "../errors";

/** The prompt is larger than what the window leaves for one: nothing was sent or written. */
export class PromptTooLarge extends UserError {}

export interface PromptRoom {
  model: string;
  window: number;
  /** Tokens every request carries whatever is compacted: the system prompt and the tool definitions. */
  fixed: number;
  /** Tokens kept free for the answer. */
  reserve: number;
}

/** Throws PromptTooLarge when `promptTokens` exceed what `room` leaves for a prompt. */
export function checkPromptSize(promptTokens: number, room: PromptRoom): void {
  const fits = Math.max(0, room.window - room.fixed - room.reserve);
  if (promptTokens <= fits) return;
  const n = (tokens: number) => tokens.toLocaleString("en-US");
  throw new PromptTooLarge(
    `This prompt is about ${n(promptTokens)} tokens, and ${room.model} (a window of ${n(room.window)}) has room for about ${n(fits)}: nothing was sent; shorten it or send it in parts`,
  );
}

// Opening a sign-in page: $BROWSER (a command, the URL after its words), else
// xdg-open or open where there is one, without the provider keys (as every
// program awl starts). A failure leaves the URL, which is always printed too.

import { programEnvironment } from "../program-env";

export function openBrowser(url: string, env: Record<string, string | undefined> = process.env): void {
  const command = env.BROWSER?.trim() ? env.BROWSER.trim().split(/\s+/) : [Bun.which("xdg-open") ?? Bun.which("open") ?? ""].filter(Boolean);
  if (command.length === 0) return;
  try {
    Bun.spawn([...command, url], { stdin: "ignore", stdout: "ignore", stderr: "ignore", env: programEnvironment(env) }).unref();
  } catch {
    // No browser here: the URL is on screen.
  }
}

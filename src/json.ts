/** True when `text` is one complete JSON value (a torn session line, a cut-off tool input are not). */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

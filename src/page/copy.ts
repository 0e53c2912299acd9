/**
 * The curl command's "Copy": says that it copied, or, where the browser refuses (a denied
 * permission, no clipboard outside a secure context), selects the command to be copied by hand.
 */
import { out } from "./dom.ts";

let clearing = 0;

function say(words: string, forAWhile: boolean): void {
  clearTimeout(clearing);
  out.copied.textContent = words;
  if (forAWhile) clearing = setTimeout(() => (out.copied.textContent = ""), 4000);
}

export async function copyCurl(): Promise<void> {
  try {
    await navigator.clipboard.writeText(out.curl.textContent ?? "");
    say("Copied.", true);
  } catch {
    getSelection()?.selectAllChildren(out.curl);
    say("This browser did not let the page copy: the command is selected, copy it with Ctrl+C (⌘C).", false);
  }
}

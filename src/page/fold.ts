/**
 * On a narrow screen the form folds to its name line once a search the person ran has answered, so
 * that the answer comes first (the page's CSS folds it only there); never after a search run as
 * they type (src/page/search.ts), which would move the name box under their fingers. "Options" unfolds it, and then it stays
 * open until a search is asked for with Enter. It never folds away the field in use, nor one whose
 * value the API refused.
 */
import { form, out } from "./dom.ts";

/** Whether "Options" opened the form, to stay open. */
let keptOpen = false;

function setFolded(folded: boolean): void {
  form.classList.toggle("folded", folded);
  out.options.setAttribute("aria-expanded", String(!folded));
}

export function foldAfterAnswer(): void {
  const active = document.activeElement;
  const inUse = active instanceof Element && active.closest(".more") !== null;
  if (!keptOpen && !inUse && form.querySelector(".more [aria-invalid=true]") === null) setFolded(true);
}

/** A search asked for with Enter: the form folds again after it. */
export function askedWithEnter(): void {
  keptOpen = false;
}

/** Opens the form to show a field (a refused value). */
export const unfold = (): void => setFolded(false);

/** The "Options" button. */
export function toggleOptions(): void {
  keptOpen = form.classList.contains("folded");
  setFolded(!keptOpen);
}

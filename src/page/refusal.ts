/**
 * A refused search (400) said next to the field it is about (src/page/explain.ts): the field marked
 * invalid, the words read with it (its aria-describedby), the form unfolded to show it; cleared by
 * the next answer. A parameter without a field of its own is told in the status line only.
 */
import { fields } from "./dom.ts";
import { explainRefusal } from "./explain.ts";
import { unfold } from "./fold.ts";

/** The text fields, by the parameter each sends (stateCode: the state). */
const FIELDS: Record<string, HTMLInputElement> = {
  name: fields.name,
  cityName: fields.city,
  country: fields.country,
  state: fields.state,
  stateCode: fields.state,
};

const errorOf = (field: HTMLInputElement): HTMLElement | null => document.getElementById(`${field.id}-error`);

export function clearRefusal(): void {
  for (const field of Object.values(FIELDS)) {
    field.removeAttribute("aria-invalid");
    const error = errorOf(field);
    if (error) error.hidden = true;
  }
}

/** Says what was refused of the search `sent`; the status line's words. */
export function showRefusal(message: string, sent: URLSearchParams): string {
  const { param, words } = explainRefusal(message, sent);
  const field = param === null ? undefined : FIELDS[param];
  const error = field && errorOf(field);
  if (!field || !error) return `Not searched: ${words}`;
  field.setAttribute("aria-invalid", "true");
  error.textContent = words;
  error.hidden = false;
  unfold();
  return `Not searched: see “${field.labels?.[0]?.textContent ?? field.name}”.`;
}

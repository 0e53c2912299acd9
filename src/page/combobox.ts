/**
 * The name box as a combobox, as WAI-ARIA's "Editable Combobox With List Autocomplete" (APG) has
 * it: the suggestions for the text typed (src/page/suggest.ts) in a listbox under it, the focus
 * staying in the box, the active option its aria-activedescendant and marked aria-selected (which
 * the styles show). Down and Up move through the options, round from the last to the first (closed,
 * they open the list on the first or the last option; Alt+Down opens it on none); Enter chooses the
 * active option, and with none searches the text as the form does; Escape closes the list (or
 * stops one on its way), and with no list empties the box, as APG's example and a search box in
 * Chromium and Safari do; Left, Right, Home and End go back to the text. Tab, or a click or a tap
 * elsewhere, closes the list. The list lies in the page's flow, under the box: it covers no field,
 * so that a press outside it reaches what it lands on, and a press on an option seen always chooses
 * it (pressing it leaves the focus in the box, so that the list is still there to be clicked).
 * Each option says the record's name (and the name that matched, when it is another, the typed
 * parts marked: src/page/matched.ts), where it is and a venue's kind.
 */
import { fields, out, span, valueOf } from "./dom.ts";
import { optionParts, placeRuns, type Run } from "./matched.ts";
import { cityById, whereIs, type Result } from "./places.ts";
import { afterPress, keepInPlace, watchPresses } from "./pointer.ts";

interface Handlers {
  /** Down or Up on a closed list that holds no suggestions for the text as it is: ask for them now. */
  want(): void;
  /** An option chosen. */
  choose(result: Result): void;
  /** Escape on a closed list: stops suggestions on their way; whether there were any (then the Escape was theirs). */
  dismiss(): boolean;
}

const box = fields.name;
const list = out.nameList;

let handlers: Handlers = { want: () => undefined, choose: () => undefined, dismiss: () => false };

/** The suggestions listed, and the text they were suggested for. */
let listed: { text: string; results: readonly Result[] } = { text: "", results: [] };

/** The index of the active option; -1 for none (Enter then searches the text). */
let active = -1;

const isOpen = (): boolean => !list.hidden;

function setActive(index: number): void {
  active = index;
  [...list.children].forEach((option, i) => {
    if (i === index) option.setAttribute("aria-selected", "true");
    else option.removeAttribute("aria-selected");
  });
  const option = list.children[index];
  if (option === undefined) return box.removeAttribute("aria-activedescendant");
  box.setAttribute("aria-activedescendant", option.id);
  option.scrollIntoView({ block: "nearest" });
}

function setOpen(open: boolean): void {
  list.hidden = !open;
  list.style.visibility = "";
  box.setAttribute("aria-expanded", String(open));
  setActive(-1);
}

export const closeList = (): void => setOpen(false);

/** Where a suggestion is, in words, and a venue's kind: "Berlin, State of Berlin, Germany · arena". */
function whereText(result: Result): string {
  if ("country" in result) return whereIs(result);
  return [result.city ? whereIs(result) : "no city", result.kind].join(" · ");
}

/** Writes `runs` into `parent`, the marked ones in <mark>: text only, never HTML. */
function writeRuns(parent: HTMLElement, runs: readonly Run[]): HTMLElement {
  parent.replaceChildren(
    ...runs.map((run) => {
      if (!run.marked) return run.text;
      const mark = document.createElement("mark");
      mark.textContent = run.text;
      return mark;
    }),
  );
  return parent;
}

const spanOf = (className: string, runs: readonly Run[]) => writeRuns(span("", className), runs);

/**
 * A venue's city in a suggestion lacks its country, as in a search (docs/api.md#result-pages):
 * named once the city is looked up, which the page remembers (src/page/places.ts), so that a
 * city's venues cost one lookup for all the keystrokes that suggest them. The place read stays marked.
 */
function nameCountry(result: Result, where: HTMLElement, place: string | null): void {
  if ("country" in result || result.city === undefined || "name" in result.city.country) return;
  void cityById(result.city.id).then((city) => {
    if (city) writeRuns(where, placeRuns(whereText({ ...result, city }), place));
  });
}

/**
 * An option: the record's name, the name that matched beside it when it is another ("Fuzhou ·
 * Hok-chiu-chhī"), the typed parts marked (src/page/matched.ts), then where it is, the place read
 * marked. Its name, as a screen reader reads it, says all of it.
 */
function option(result: Result, index: number): HTMLLIElement {
  const li = document.createElement("li");
  li.id = `name-option-${index}`;
  li.setAttribute("role", "option");
  const parts = optionParts(result.name, "matched" in result ? result.matched : undefined);
  li.append(spanOf("name", parts.name));
  if (parts.other) li.append(" · ", spanOf("matched", parts.other));
  const where = spanOf("where", placeRuns(whereText(result), parts.place));
  // The space keeps the two apart in the option's name, as a screen reader reads it.
  li.append(" ", where);
  nameCountry(result, where, parts.place);
  return li;
}

/**
 * Lists the suggestions for `text`, none active: open, closed when there are none. Not once the box
 * has lost the focus: the list is closing (onBlur).
 */
export function listSuggestions(text: string, results: readonly Result[]): void {
  if (document.activeElement !== box) return;
  listed = { text, results };
  list.replaceChildren(...results.map(option));
  setOpen(results.length > 0);
}

function choose(index: number): void {
  const chosen = listed.results[index];
  if (chosen === undefined) return;
  closeList();
  handlers.choose(chosen);
}

/** Down (1) or Up (-1). */
function move(step: 1 | -1, altKey: boolean): void {
  const count = listed.results.length;
  const first = step === 1 ? 0 : count - 1;
  if (isOpen()) return setActive(active === -1 ? first : (active + step + count) % count);
  if (count === 0 || listed.text !== valueOf(box)) return handlers.want();
  setOpen(true);
  if (!altKey) setActive(first);
}

function escape(): void {
  if (isOpen()) return closeList();
  // A list about to open is closed too: the text typed just before stays.
  if (handlers.dismiss() || box.value === "") return;
  box.value = "";
  // Emptied as if deleted: the page goes back to no search, as it does when the text is deleted.
  box.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "deleteContent" }));
}

function onKey(e: KeyboardEvent): void {
  if (e.isComposing) return; // the key belongs to an input method composing a character
  if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    e.preventDefault(); // the caret stays where it is
    move(e.key === "ArrowDown" ? 1 : -1, e.altKey);
  } else if (e.key === "Enter" && isOpen() && active !== -1) {
    e.preventDefault(); // not the form's search of the text
    choose(active);
  } else if (e.key === "Enter") closeList();
  else if (e.key === "Escape") {
    e.preventDefault(); // a search box's own Escape would empty it even with the list open
    escape();
  } else if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) setActive(-1);
}

/**
 * The focus left the box: the list closes, once the press that took the focus is over (its options
 * hidden meanwhile, its room kept: src/page/pointer.ts), what took the focus kept where it is.
 */
function onBlur(e: FocusEvent): void {
  if (!isOpen()) return;
  const kept = e.relatedTarget instanceof Element ? e.relatedTarget : null;
  list.style.visibility = "hidden";
  box.setAttribute("aria-expanded", "false");
  setActive(-1);
  afterPress(() => keepInPlace(kept, closeList));
}

/** Makes the name box a combobox whose list asks for suggestions and passes on the one chosen through `given`. */
export function combobox(given: Handlers): void {
  handlers = given;
  box.addEventListener("keydown", onKey);
  box.addEventListener("blur", onBlur);
  watchPresses();
  // A press on an option leaves the focus in the box (a mouse's, and a tap's, whose press is a mouse's too).
  list.addEventListener("mousedown", (e) => e.preventDefault());
  list.addEventListener("click", (e) => {
    const option = e.target instanceof Element ? e.target.closest("[role=option]") : null;
    if (option !== null) choose([...list.children].indexOf(option));
  });
}

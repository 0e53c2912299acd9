/**
 * Presses that take the focus from the name box while its list of suggestions is open
 * (src/page/combobox.ts). The list lies in the page's flow under the box, covering no field, so
 * that a press outside it lands on what the person sees; closing it takes its room away and moves
 * what lies below up. A press moves the focus at its mousedown (a tap's too, emulated once the touch
 * ends), before its release and its click: so the list keeps its room, its options hidden, until
 * the press is over, and the release and the click land on what was pressed (City, "Show map");
 * then it closes, what took the focus kept where it is on the screen as far as the page scrolls.
 */

/** A press held longer than this is over for the list: it closes, wherever the press is released. */
const PRESS_MS = 1000;

/** What waits for the press under way to end; null while none is pressed. */
let waiting: (() => void)[] | null = null;

let pressEnd = 0;

function pressOver(): void {
  clearTimeout(pressEnd);
  const run = waiting ?? [];
  waiting = null;
  run.forEach((f) => f());
}

/** Follows presses: from a mousedown (a mouse's or a tap's) until just after its click, or PRESS_MS. */
export function watchPresses(): void {
  addEventListener(
    "mousedown",
    () => {
      waiting ??= [];
      clearTimeout(pressEnd);
      pressEnd = setTimeout(pressOver, PRESS_MS);
    },
    { capture: true },
  );
  // After the click has reached what was pressed.
  addEventListener("click", () => setTimeout(pressOver, 0), { capture: true });
}

/** Runs `change` once the press under way is over; now when none is. */
export function afterPress(change: () => void): void {
  if (waiting === null) change();
  else waiting.push(change);
}

/** Runs `change` (the list closed), keeping `kept` where it is on the screen, as far as the page scrolls. */
export function keepInPlace(kept: Element | null, change: () => void): void {
  const before = kept?.getBoundingClientRect().top;
  change();
  if (kept && before !== undefined) scrollBy(0, kept.getBoundingClientRect().top - before);
}

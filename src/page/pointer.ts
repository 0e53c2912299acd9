/**
 * The mouse and the name's list of suggestions (src/page/combobox.ts), which covers what lies
 * under the name box (City, Country and State on a desktop). The list closes when the mouse, once
 * over the box or the list, leaves both (the strip between the two counts as the list's), so that
 * what it covered is there to click. A list that opens under a mouse at rest lets the mouse's
 * press through to what lies under it until the mouse moves: a click with no move since was aimed
 * before the list came. A finger has no pointer at rest: a tap chooses what it lands on, and a tap
 * elsewhere closes the list as the focus leaves the box.
 */

interface Point {
  x: number;
  y: number;
}

/** Where the mouse was last seen, in the window's coordinates; null until it moved over the page. */
let mouse: Point | null = null;

/** Whether the mouse was over the box or the open list when last seen. */
let over = false;

const within = (p: Point, r: DOMRect): boolean => p.x >= r.left && p.x <= r.right && p.y >= r.top && p.y <= r.bottom;

/** Whether the point is over the box, or over the list or the strip between the list and the box. */
function overBoxOrList(p: Point, box: HTMLElement, list: HTMLElement): boolean {
  const b = box.getBoundingClientRect();
  const l = list.getBoundingClientRect();
  return within(p, b) || within(p, new DOMRect(l.x, b.bottom, l.width, l.bottom - b.bottom));
}

/** The list just opened: whether the mouse is over it, and at rest over the list itself (its press then goes through). */
export function listOpened(box: HTMLElement, list: HTMLElement): void {
  over = mouse !== null && overBoxOrList(mouse, box, list);
  list.classList.toggle("at-rest", mouse !== null && within(mouse, list.getBoundingClientRect()));
}

/** Follows the mouse: `close` when it leaves the box and the open list. */
export function watchMouse(box: HTMLElement, list: HTMLElement, close: () => void): void {
  addEventListener(
    "pointermove",
    (e) => {
      if (e.pointerType !== "mouse") return;
      mouse = { x: e.clientX, y: e.clientY };
      if (list.hidden) return;
      list.classList.remove("at-rest"); // moved: the list takes the mouse's presses again
      const now = overBoxOrList(mouse, box, list);
      if (over && !now) close();
      over = now;
    },
    { passive: true },
  );
}

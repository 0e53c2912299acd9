/**
 * The name box's suggestions as the browser tests reach them: the combobox, its listbox and options
 * by their roles and names, a text typed into it a key at a time, and the list as a screen reader
 * reads it.
 */
import type { Page } from "playwright-core";
import { statusSays } from "./browser.ts";

export const nameBox = (page: Page) => page.getByRole("combobox", { name: "Name", exact: true });
export const listbox = (page: Page) => page.getByRole("listbox", { name: "Suggestions" });
export const options = (page: Page) => listbox(page).getByRole("option");

/** Types `text` at the end of the name a key at a time; waits for its list, and for the page's own search of the name. */
export async function typeName(page: Page, text: string): Promise<void> {
  await nameBox(page).press("End"); // focused from elsewhere, the caret is put at the start
  await nameBox(page).pressSequentially(text);
  await listbox(page).waitFor();
  const name = await nameBox(page).inputValue();
  await page.waitForURL((url) => url.searchParams.get("name") === name);
  await statusSays(page, /^[\d,]+ (venues|cities) named /);
}

/** Chooses the city search and types `text` into the name; waits for its list. */
export async function typeCity(page: Page, text: string): Promise<void> {
  await page.getByRole("radio", { name: "Cities" }).check();
  await typeName(page, text);
}

/** The list as a screen reader reads it: each option's name, [selected] after the active one (its parts after a colon). */
export async function readList(page: Page): Promise<string[]> {
  const snapshot = await listbox(page).ariaSnapshot();
  return [...snapshot.matchAll(/^\s+- option "(.*)"( \[selected\])?:?$/gm)].map(([, name, selected]) =>
    selected ? `${name} [selected]` : (name ?? ""),
  );
}

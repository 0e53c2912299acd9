/**
 * Headless Chromium (Debian's, at /usr/bin/chromium, through playwright-core) for the browser
 * tests, and their pages: each records the script errors it meets, which a test must not leave.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";
import { ROOT } from "../../scripts/tools/project.ts";

/** Where the screenshots go. */
export const SHOTS = join(ROOT, "test-results");

export const base = (): string => inject("base");

/** The screens the page is tested on, as issue 49 looks at it: a laptop's window and a phone's (CSS pixels). */
export const SIZES = [
  { screen: "desktop", viewport: { width: 1280, height: 800 } },
  { screen: "phone", viewport: { width: 390, height: 844 } },
] as const;

/** Script errors of the pages opened here: the page's script must run as served. */
export const errors: string[] = [];

function watch(p: Page): Page {
  p.on("pageerror", (error) => errors.push(String(error)));
  p.on("console", (message) => {
    // A 404 ("no matches") is logged as a failed load; anything else is the script's fault.
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      errors.push(message.text());
    }
  });
  return p;
}

export async function launch(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/**
 * One browser for the tests of a file: launched before the first, closed after the last, and after
 * each test the check that no page of it left a script error. Call it at the top of a test file;
 * it gives the browser to open pages in.
 */
export function browserPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(() => {
    expect(errors).toEqual([]);
  });
  return () => {
    if (browser === undefined) throw new Error("the browser is launched before the file's first test");
    return browser;
  };
}

/**
 * The search page in a browser context of its own, set up as given (viewport, location,
 * permissions), from `origin`, at `path` (a search in its address: /?type=cities&name=paris).
 */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
  origin = base(),
  path = "/",
): Promise<Page> {
  const context = await browser.newContext({ viewport: SIZES[0].viewport, ...options });
  const p = watch(await context.newPage());
  await p.goto(`${origin}${path}`);
  return p;
}

/** Opens the map where it waits behind "Show map" (a narrow screen). */
export async function showMap(page: Page): Promise<void> {
  const button = page.getByRole("button", { name: "Show map" });
  if (await button.isVisible()) await button.click();
}

/** Unfolds the form where a search folded it to its name line (a narrow screen). */
export async function openOptions(page: Page): Promise<void> {
  const button = page.getByRole("button", { name: "Options" });
  if ((await button.isVisible()) && (await button.getAttribute("aria-expanded")) === "false") await button.click();
}

/**
 * Leaves the name box with Tab, as a person does to get past its list of suggestions: the list
 * closes, giving back the room it took from what follows, and none opens for the name typed.
 */
export async function leaveName(page: Page): Promise<void> {
  await page.getByLabel("Name", { exact: true }).press("Tab");
}

/** Waits for the status line to say what `pattern` matches. */
export async function statusSays(page: Page, pattern: RegExp): Promise<void> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector("#status")?.textContent ?? ""),
    pattern.source,
  );
}

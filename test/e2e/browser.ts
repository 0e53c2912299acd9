/**
 * Headless Chromium (Debian's, at /usr/bin/chromium, through playwright-core) for the browser
 * tests, and their pages: each records the script errors it meets, which a test must not leave.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { inject } from "vitest";
import { ROOT } from "../../scripts/tools/project.ts";

/** Where the screenshots go. */
export const SHOTS = join(ROOT, "test-results");

export const base = (): string => inject("base");

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

/** The search page in a browser context of its own, set up as given (viewport, location, permissions). */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  const p = watch(await context.newPage());
  await p.goto(`${base()}/`);
  return p;
}

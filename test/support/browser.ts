// A real browser for the pages users see: Debian's Chromium (`apt-get install chromium`; .ci/run installs
// it) driven by Playwright's library (playwright-core, which downloads no browser of its own). Without a
// Chromium the browser tests skip, saying so. Screenshots go to docs/screenshots with
// UPDATE_SCREENSHOTS=1, otherwise to a temporary folder, where they are only checked to be PNG images.
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import { ROOT } from "./clients.js";
import { findExecutable } from "./executables.js";

/** The Chromium to drive: CHROMIUM_PATH, else `chromium` or `chromium-browser` on the PATH. */
export const CHROMIUM = findExecutable("CHROMIUM_PATH", ["chromium", "chromium-browser"]);

export const NO_CHROMIUM =
  "Chromium not found (install Debian's: apt-get install chromium; or set CHROMIUM_PATH): browser tests skipped";

/** Headless Chromium; the caller closes it. */
export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error(NO_CHROMIUM);
  return chromium.launch({ executablePath: CHROMIUM, headless: true });
}

/**
 * A fresh profile (no cookies) with a fixed window, as a user's browser. The emulators' certificates come
 * from this run's own CA, which Chromium's certificate store does not hold, so their errors are ignored;
 * the TLS of the emulators is tested elsewhere.
 */
export async function newBrowserProfile(browser: Browser): Promise<BrowserContext> {
  const profile = await browser.newContext({
    viewport: { width: 800, height: 600 },
    ignoreHTTPSErrors: true,
  });
  // A page that never shows what a step waits for fails the step well before the test's own timeout.
  profile.setDefaultTimeout(10_000);
  return profile;
}

let screenshots: string | undefined;
/** docs/screenshots with UPDATE_SCREENSHOTS=1, else one temporary folder per test file. */
function screenshotFolder(): string {
  screenshots ??=
    process.env.UPDATE_SCREENSHOTS === "1"
      ? join(ROOT, "docs", "screenshots")
      : mkdtempSync(join(tmpdir(), "lab-mcp-screenshots-"));
  mkdirSync(screenshots, { recursive: true });
  return screenshots;
}
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Takes a screenshot of what the page shows now as `<name>.png` and checks that it is a PNG image. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const file = join(screenshotFolder(), `${name}.png`);
  await page.screenshot({ path: file });
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), `${file} is not a PNG`).toBe(true);
  expect(bytes.length).toBeGreaterThan(1000);
  return file;
}

/**
 * A person's own browser (a fresh profile) opens `url` of a team server and, sent to the identity
 * provider emulator's page on the way, signs in there as `name`.
 */
export async function openSignedInAs(browser: Browser, name: string, url: string): Promise<Page> {
  const page = await (await newBrowserProfile(browser)).newPage();
  await page.goto(url);
  await page.getByRole("heading", { name: "Sign in to lab-mcp team server" }).waitFor();
  await page.getByLabel(name).check();
  await page.getByRole("button", { name: "Approve" }).click();
  return page;
}

// Headless Chromium for the page's tests, the bench and the screenshots: Debian's
// /usr/bin/chromium (never a downloaded browser) driven by playwright-core (pinned in
// web/package-lock.json), with a fresh profile each launch and nothing reaching out.
import { chromium } from "playwright-core";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

export const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--disable-dev-shm-usage"];

// A browser on a fresh, empty profile (more: further command-line switches); close()
// removes the profile.
export async function launch(viewport = { width: 1280, height: 800 }, extra = {}, more = []) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "pd-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: [...ARGS, ...more], viewport, ...extra,
  });
  const close = async () => {
    await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

// Every console message and page error of a page, kept for the caller to check.
export function watch(page, log) {
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") log.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => log.push(`pageerror: ${e.message}`));
  page.on("requestfailed", (r) => log.push(`requestfailed: ${r.url()} ${r.failure() && r.failure().errorText}`));
}

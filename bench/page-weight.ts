import { gzipSync, constants } from "node:zlib";
import { chromium, type Response } from "@playwright/test";

// The weight of a page's JavaScript as a real browser loads it: every script the page fetches until
// the network is quiet (its entry, the modules it preloads, the views it loads on first use), each
// counted as gzip at its strongest would send it (what the target counts), and as the server sent it.

/** design.md §9: the auth-flow page's JavaScript stays under 120 KB of gzip. */
export const pageWeightTargetBytes = 120_000;

export interface ScriptWeight {
  /** The script's path on the server. */
  path: string;
  /** Its size gzipped at level 9. */
  gzipBytes: number;
  /** Its size as the server sent it to the browser (Brotli, for one that takes it). */
  sentBytes: number;
}

export interface PageWeight {
  /** Where the browser ended up (an authorization request leads on to the flow page). */
  url: string;
  /** What the page loads to show its first step. */
  scripts: ScriptWeight[];
  totalGzipBytes: number;
  totalSentBytes: number;
  /** What it loads besides once the person starts typing: the later steps, loaded in the background. */
  laterGzipBytes: number;
}

const sumOf = (scripts: readonly ScriptWeight[], size: "gzipBytes" | "sentBytes" = "gzipBytes") =>
  scripts.reduce((sum, script) => sum + script[size], 0);

/** Resolves once `count` has not changed for half a second. */
async function quiet(count: () => number): Promise<void> {
  for (let seen = -1; seen !== count();) {
    seen = count();
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function isScript(response: Response): boolean {
  const type = response.headers()["content-type"] ?? "";
  return response.request().resourceType() === "script" || type.includes("javascript");
}

async function weigh(response: Response): Promise<ScriptWeight> {
  const path = new URL(response.url()).pathname;
  // The body as the page got it, decoded from whatever the server compressed it with.
  const body = await response.body();
  return {
    path,
    gzipBytes: gzipSync(body, { level: constants.Z_BEST_COMPRESSION }).length,
    sentBytes: (await response.request().sizes()).responseBodySize,
  };
}

/**
 * Loads `path` of the Vrata at `base` (https, its own CA) in Chromium and weighs the scripts it loads.
 * The flow page only shows a flow to the browser that started it, so give the authorization request
 * that starts one: the browser follows it to the flow page.
 */
export async function measurePageWeight(base: string, path: string): Promise<PageWeight> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
    ],
  });
  try {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const weighed = new Map<string, Promise<ScriptWeight>>();
    page.on("response", (response) => {
      if (isScript(response) && !weighed.has(response.url())) weighed.set(response.url(), weigh(response));
    });
    await page.goto(new URL(path, base).href, { waitUntil: "networkidle" });
    const scripts = await Promise.all(weighed.values());
    // The page was idle: wait for what the keystroke starts, then for quiet again.
    const laterScript = page.waitForResponse(isScript, { timeout: 5000 }).catch(() => undefined);
    await page.keyboard.press("a");
    if (await laterScript) await quiet(() => weighed.size);
    const later = (await Promise.all(weighed.values())).slice(scripts.length);
    return {
      url: page.url(),
      scripts,
      totalGzipBytes: sumOf(scripts),
      totalSentBytes: sumOf(scripts, "sentBytes"),
      laterGzipBytes: sumOf(later),
    };
  } finally {
    await browser.close();
  }
}

import path from "node:path";
import { test, type Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations } from "../fixtures.ts";

// Checks that hold on every page, whatever it shows: nothing wider than the screen, no text squeezed
// into a box narrower than its words (a name drawn one character per line), and no serious or
// critical accessibility violation. Each check gives readable findings, one string each, so a test
// asserts `toEqual([])` and a failure names the element and its text.

const thresholds = {
  /**
   * A word that would take at most this share of the viewport's width on one line fits any sensible
   * layout: breaking it means its box was squeezed.
   */
  shortWordShare: 0.5,
  /** A box a long word is broken in must hold at least this many ems (about as many characters) a line. */
  minimumLineEms: 8,
  /** Sub-pixel rounding: boxes may be off by this much without anything showing. */
  tolerancePx: 1,
};

export interface LayoutFindings {
  /** The document, elements or text reaching past the viewport's left or right edge. */
  readonly overflow: string[];
  /** Words broken inside a box too narrow for them, and text sticking out of its box. */
  readonly squeezedText: string[];
}

/**
 * Runs in the browser (Playwright sends its source), so it may use nothing from this module.
 *
 * Overflow: the document wider than the viewport, an element whose box reaches past the viewport's
 * left or right edge, or text that does; only the outermost such element is named. Content inside a
 * scroll container of its own (overflow-x auto or scroll) may be wider: the person scrolls it.
 *
 * Squeezed text: a word broken over several lines although it is short enough for any sensible layout
 * of this viewport, or broken into lines of only a few characters (a name drawn one character per
 * line); and text sticking out of the box that lays it out, unless that box clips or scrolls it. Words
 * are what the page language's word segmentation says, so a URL or an e-mail address may still wrap
 * at its dots, slashes and hyphens, and a word longer than half the screen may wrap in wide lines.
 */
function findLayoutProblems({ shortWordShare, minimumLineEms, tolerancePx }: typeof thresholds) {
  const viewport = document.documentElement.clientWidth;
  const overflow: string[] = [];
  const squeezedText: string[] = [];

  /** A CSS path from the nearest ancestor with an ID (or the body), readable in a report. */
  const selectorOf = (element: Element): string => {
    const steps: string[] = [];
    for (let current: Element | null = element; current && current !== document.body;) {
      if (current.id) {
        steps.unshift(`#${CSS.escape(current.id)}`);
        break;
      }
      const parent: Element | null = current.parentElement;
      const tag = current.localName;
      const sameTag = parent ? [...parent.children].filter((child) => child.localName === tag) : [];
      steps.unshift(sameTag.length > 1 ? `${tag}:nth-of-type(${sameTag.indexOf(current) + 1})` : tag);
      current = parent;
    }
    return steps.join(" > ") || "body";
  };
  const snippet = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim().slice(0, 60);
  const shown = (element: Element) =>
    element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  // Screen-reader-only content is clipped to a 1 px box by design.
  const tiny = (rect: DOMRect) => rect.width <= 1 || rect.height <= 1;
  const pastEdge = (rect: DOMRect) => rect.left < -tolerancePx || rect.right > viewport + tolerancePx;
  const span = (rect: DOMRect) => `${Math.round(rect.left)}…${Math.round(rect.right)} px`;
  const insideScrollContainer = (element: Element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      if (parent === document.body || parent === document.documentElement) return false;
      if (["auto", "scroll"].includes(getComputedStyle(parent).overflowX)) return true;
    }
    return false;
  };
  /** The box that lays a text's lines out: the nearest ancestor that is not inline. */
  const layoutBoxOf = (element: Element): Element => {
    for (let current: Element | null = element; current; current = current.parentElement) {
      const display = getComputedStyle(current).display;
      if (display !== "inline" && display !== "contents") return current;
    }
    return document.body;
  };
  const clipsBetween = (inner: Element, outer: Element) => {
    for (let current: Element | null = inner; current; current = current.parentElement) {
      if (getComputedStyle(current).overflowX !== "visible") return true;
      if (current === outer) return false;
    }
    return false;
  };

  const documentWidth = document.documentElement.scrollWidth;
  if (documentWidth > viewport) overflow.push(`the page is ${documentWidth} px wide`);

  const pastTheEdge: Element[] = [];
  for (const element of document.body.querySelectorAll("*")) {
    const svg = element.closest("svg");
    if ((svg && svg !== element) || !shown(element)) continue;
    if (pastTheEdge.some((outer) => outer.contains(element))) continue;
    const rect = element.getBoundingClientRect();
    if (tiny(rect) || !pastEdge(rect) || insideScrollContainer(element)) continue;
    pastTheEdge.push(element);
    overflow.push(`${selectorOf(element)} spans ${span(rect)}: "${snippet(element.textContent)}"`);
  }

  const segmenter = new Intl.Segmenter(document.documentElement.lang || "en", { granularity: "word" });
  const range = document.createRange();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = node.textContent ?? "";
    if (!parent || !text.trim() || parent.closest("svg") || !shown(parent)) continue;
    const box = layoutBoxOf(parent);
    const boxRect = box.getBoundingClientRect();
    if (tiny(boxRect)) continue;
    const fontSize = parseFloat(getComputedStyle(parent).fontSize);

    // Where the words are drawn (spaces at a line's end may hang past the box unseen), and the first
    // word broken in a box too narrow for it.
    let left = Infinity;
    let right = -Infinity;
    let squeezedWord: string | undefined;
    for (const { segment, index, isWordLike } of segmenter.segment(text)) {
      if (!isWordLike) continue;
      range.setStart(node, index);
      range.setEnd(node, index + segment.length);
      const lines: { top: number; width: number }[] = [];
      for (const rect of range.getClientRects()) {
        if (rect.width === 0 || rect.height === 0) continue;
        left = Math.min(left, rect.left);
        right = Math.max(right, rect.right);
        const line = lines.find((known) => Math.abs(known.top - rect.top) < rect.height / 2);
        if (line) line.width += rect.width;
        else lines.push({ top: rect.top, width: rect.width });
      }
      if (lines.length < 2 || squeezedWord !== undefined) continue;
      const natural = lines.reduce((sum, line) => sum + line.width, 0);
      const widest = Math.max(...lines.map((line) => line.width));
      if (natural <= viewport * shortWordShare || widest < minimumLineEms * fontSize)
        squeezedWord = `breaks "${segment.slice(0, 40)}" over ${lines.length} lines`;
    }
    if (left === Infinity) continue;
    const words = new DOMRect(left, boxRect.top, right - left, boxRect.height);

    if (
      pastEdge(words) &&
      !insideScrollContainer(parent) &&
      !pastTheEdge.some((outer) => outer.contains(parent))
    ) {
      pastTheEdge.push(parent);
      overflow.push(`text in ${selectorOf(parent)} spans ${span(words)}: "${snippet(text)}"`);
    }

    const sticksOut = Math.max(boxRect.left - words.left, words.right - boxRect.right);
    if (squeezedWord !== undefined) {
      squeezedText.push(
        `${selectorOf(parent)} ${squeezedWord} in a ${Math.round(boxRect.width)} px box: "${snippet(text)}"`,
      );
    } else if (sticksOut > tolerancePx && !clipsBetween(parent, box)) {
      // Text wider than its box spills over what is next to it.
      squeezedText.push(
        `${selectorOf(parent)}: text sticks out of its ${Math.round(boxRect.width)} px box by ` +
          `${Math.round(sticksOut)} px: "${snippet(text)}"`,
      );
    }
  }
  return {
    overflow: overflow.map((finding) => `${finding} (viewport ${viewport} px)`),
    squeezedText,
  };
}

/** What is wrong with the layout of the page as it is now; see {@link findLayoutProblems}. */
export function layoutFindings(page: Page): Promise<LayoutFindings> {
  return page.evaluate(findLayoutProblems, thresholds);
}

/**
 * The relative luminance (0 black … 1 white, as WCAG defines it) of the background the page's main
 * content is drawn on: that of the nearest element around `#main` (or the body) that paints one. A
 * canvas turns whatever colour syntax the style uses into RGB.
 */
export function mainBackgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const painted = (element: Element) => {
      const color = getComputedStyle(element).backgroundColor;
      return color !== "transparent" && color !== "rgba(0, 0, 0, 0)";
    };
    let element: Element | null = document.getElementById("main") ?? document.body;
    while (element && !painted(element)) element = element.parentElement;
    const context = document.createElement("canvas").getContext("2d");
    if (!element || !context) return 1;
    context.fillStyle = getComputedStyle(element).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [red = 255, green = 255, blue = 255] = context.getImageData(0, 0, 1, 1).data;
    const linear = (channel: number) => {
      const value = channel / 255;
      return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
  });
}

/**
 * Waits until the page has drawn what it loads: no request for a while, web fonts in, and two frames
 * painted after that.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/**
 * A full-page PNG of the page as it is now, `<name>.png` in the `screenshots` folder of the run's
 * output folder (`test-results/screenshots/`), also attached to the test for the HTML report.
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const testInfo = test.info();
  const file = path.join(testInfo.project.outputDir, "screenshots", `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
  return file;
}

/**
 * Writes the page's screenshot, then checks its layout and accessibility. The checks are soft: a test
 * reports all that is wrong with its page, not only the first thing.
 */
export async function checkPage(page: Page, screenshotName: string): Promise<void> {
  await saveScreenshot(page, screenshotName);
  const { overflow, squeezedText } = await layoutFindings(page);
  expect.soft(overflow, `${screenshotName}: horizontal overflow`).toEqual([]);
  expect.soft(squeezedText, `${screenshotName}: text in a box narrower than its words`).toEqual([]);
  expect
    .soft(
      await seriousAccessibilityViolations(page),
      `${screenshotName}: serious or critical accessibility violations`,
    )
    .toEqual([]);
}

const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** Checks the page and saves its screenshot at a phone's and a desktop's width. */
export async function checkAtBothWidths(page: Page, name: string): Promise<void> {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await checkPage(page, `${name}-${viewport.width}`);
  }
}

/**
 * Checks the page at both widths in the light scheme, then in the dark one (screenshots `<name>-dark-…`),
 * and leaves it light again.
 */
export async function checkInBothSchemes(page: Page, name: string): Promise<void> {
  await checkAtBothWidths(page, name);
  await page.emulateMedia({ colorScheme: "dark" });
  await checkAtBothWidths(page, `${name}-dark`);
  await page.emulateMedia({ colorScheme: "light" });
}

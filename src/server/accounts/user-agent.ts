/** What a person recognizes a browser by: its name and the system it runs on, when the user agent says. */
export interface Device {
  browser?: string;
  os?: string;
  /** A phone or a tablet. */
  mobile: boolean;
}

// The major browsers and systems, tried in order: a user agent names the engines it is compatible
// with too (Edge says Chrome and Safari, Chrome says Safari), so the most specific comes first.
const browsers: readonly (readonly [string, RegExp])[] = [
  ["Edge", /\bEdg(?:e|A|iOS)?\/\d/],
  ["Opera", /\b(?:OPR|Opera|OPiOS)\/\d/],
  ["Samsung Internet", /\bSamsungBrowser\/\d/],
  ["Vivaldi", /\bVivaldi\/\d/],
  ["Brave", /\bBrave\/\d/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/\d/],
  ["Chrome", /(?:\bHeadless|\b)(?:Chrome|CriOS)\/\d/],
  ["Chromium", /\bChromium\/\d/],
  ["Safari", /\bVersion\/[\d.]+.*\bSafari\/\d/],
];

const systems: readonly (readonly [string, RegExp])[] = [
  ["iPadOS", /\biPad\b/],
  ["iOS", /\b(?:iPhone|iPod)\b/],
  ["Android", /\bAndroid\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["Windows", /\bWindows\b/],
  ["macOS", /\bMac OS X\b|\bMacintosh\b/],
  ["Linux", /\bLinux\b|\bX11\b/],
];

const firstMatch = (list: readonly (readonly [string, RegExp])[], userAgent: string) =>
  list.find(([, pattern]) => pattern.test(userAgent))?.[0];

/** The browser and system a user agent names; neither when it names none Vrata knows. */
export function deviceOf(userAgent: string): Device {
  const browser = firstMatch(browsers, userAgent);
  const os = firstMatch(systems, userAgent);
  const mobile = /\bMobile\b|\biPad\b|\bAndroid\b|\bTablet\b/.test(userAgent);
  return { ...(browser && { browser }), ...(os && { os }), mobile };
}

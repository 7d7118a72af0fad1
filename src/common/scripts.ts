// Look-alike names mix scripts: "pаypal" with a Cyrillic "а" reads as "paypal". Unicode Technical
// Standard #39 §5.2 calls a string "highly restrictive" when one script covers it, or one of the
// combinations East Asian writing uses with Latin. Characters of Common and Inherited script (digits,
// punctuation, combining marks) go with every script. Script_Extensions is used, as TR39 §5.1 asks,
// so a character several scripts share (the prolonged sound mark "ー" of Hiragana and Katakana) goes
// with each of them.

/**
 * Every script (ISO 15924 code) this runtime's regular expressions know, Unknown (unassigned and
 * private-use characters) included. A script missing here refuses its names, never lets one mix.
 */
export const unicodeScripts = (
  "Latn Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Berf Bhks Bopo Brah Brai Bugi " +
  "Buhd Cakm Cans Cari Cham Cher Chrs Copt Cpmn Cprt Cyrl Deva Diak Dogr Dsrt Dupl Egyp Elba Elym " +
  "Ethi Gara Geor Glag Gong Gonm Goth Gran Grek Gujr Gukh Guru Hang Hani Hano Hatr Hebr Hira Hluw " +
  "Hmng Hmnp Hung Ital Java Kali Kana Kawi Khar Khmr Khoj Kits Knda Krai Kthi Lana Laoo Lepc Limb " +
  "Lina Linb Lisu Lyci Lydi Mahj Maka Mand Mani Marc Medf Mend Merc Mero Mlym Modi Mong Mroo Mtei " +
  "Mult Mymr Nagm Nand Narb Nbat Newa Nkoo Nshu Ogam Olck Onao Orkh Orya Osge Osma Ougr Palm Pauc " +
  "Perm Phag Phli Phlp Phnx Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sidt Sind " +
  "Sinh Sogd Sogo Sora Soyo Sund Sunu Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Tayo Telu Tfng " +
  "Tglg Thaa Thai Tibt Tirh Tnsa Todr Tols Toto Tutg Ugar Vaii Vith Wara Wcho Xpeo Xsux Yezi Yiii " +
  "Zanb Zzzz"
).split(" ");

/**
 * The mixes TR39 allows in a highly restrictive string. They contain its augmented scripts (Han with
 * Hiragana and Katakana as Japanese, with Hangul as Korean, with Bopomofo), so those need no check
 * of their own.
 */
const eastAsianMixes = [
  ["Latn", "Hani", "Hira", "Kana"],
  ["Latn", "Hani", "Bopo"],
  ["Latn", "Hani", "Hang"],
];

/** Matches a string every character of which belongs to one of the scripts (or to every script). */
const coveredBy = (scripts: readonly string[]) =>
  new RegExp(`^[${scripts.map((script) => `\\p{scx=${script}}`).join("")}\\p{scx=Zyyy}\\p{scx=Zinh}]*$`, "u");

/** Made at first use: a process that checks no name does without their cost (20 ms, and memory). */
let allowedScriptSets: RegExp[] | undefined;

/** Whether the text is written in one script, or in one of the East Asian mixes with Latin (TR39 §5.2). */
export function isHighlyRestrictive(text: string): boolean {
  allowedScriptSets ??= [
    ...unicodeScripts.map((script) => coveredBy([script])),
    ...eastAsianMixes.map(coveredBy),
  ];
  return allowedScriptSets.some((pattern) => pattern.test(text));
}

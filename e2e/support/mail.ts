import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { codeIn } from "../../test/support/smtp.ts";

// The e-mail the end-to-end server sent: e2e/support/serve.ts writes each message it receives as a
// JSON file into $VRATA_E2E_MAIL_DIR (set by playwright.config.ts).

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/** The receiver refuses mail to this domain for good (550), as a server refuses a mailbox it will not take. */
export const refusedMailDomain = "@mail-refused.example";

function mailDir(): string {
  const dir = process.env.VRATA_E2E_MAIL_DIR;
  if (!dir) throw new Error("VRATA_E2E_MAIL_DIR is not set: run the tests with playwright.config.ts");
  return dir;
}

/** The e-mail received so far for the address (compared case-insensitively), oldest first. */
export async function mailsTo(to: string): Promise<Mail[]> {
  const dir = mailDir();
  const files = (await readdir(dir)).filter((name) => name.endsWith(".json")).sort();
  const mails = await Promise.all(
    files.map(async (name) => JSON.parse(await readFile(path.join(dir, name), "utf8")) as Mail),
  );
  const address = to.toLowerCase();
  return mails.filter((mail) => mail.to.some((recipient) => recipient.toLowerCase() === address));
}

/** Waits for the `count`th e-mail to the address and returns it. */
export async function waitForMail(to: string, count = 1, timeoutMs = 10_000): Promise<Mail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(to);
    const mail = mails[count - 1];
    if (mail) return mail;
    if (Date.now() > deadline) {
      throw new Error(
        `e-mail number ${count} to ${to} did not arrive in ${timeoutMs} ms (${mails.length} did)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The 6-digit code of a code e-mail, read from its `#code=` link. */
export function codeFrom(mail: Mail): string {
  return codeIn(mail);
}

/** The link of a code e-mail that opens the flow with the code filled in. */
export function codeLinkFrom(mail: Mail): string {
  const link = /https:\/\/\S+#code=\d+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no code link in the e-mail: ${mail.text}`);
  return link;
}

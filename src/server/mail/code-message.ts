import type { Locale } from "../../common/limits.ts";
import type { Message } from "./mailer.ts";

// The e-mail with a sign-in code, in the flow's language (design.md §6a: e-mails are rendered by the
// server in the person's language; everything else the server sends is codes).

interface CodeMessageInput {
  to: string[];
  code: string;
  link: string;
  title: string;
  appName: string;
  locale: Locale;
}

const texts: Record<Locale, (input: CodeMessageInput) => { subject: string; body: string }> = {
  en: ({ code, link, title, appName }) => ({
    subject: `Your code for ${title}`,
    body: [
      "Hi!",
      "",
      `Your code to sign in or sign up to ${appName} through ${title} is:`,
      "",
      code,
      "",
      `You can also open this link to enter the code: ${link}`,
      "",
      "The code is valid for 10 minutes. If you did not try to sign in or sign up, ignore this e-mail.",
    ].join("\n"),
  }),
  sl: ({ code, link, title, appName }) => ({
    subject: `Vaša koda za ${title}`,
    body: [
      "Pozdravljeni!",
      "",
      `Vaša koda za prijavo ali registracijo v ${appName} prek ${title} je:`,
      "",
      code,
      "",
      `Kodo lahko vnesete tudi tako, da odprete to povezavo: ${link}`,
      "",
      "Koda velja 10 minut. Če se niste poskušali prijaviti ali registrirati, to sporočilo prezrite.",
    ].join("\n"),
  }),
};

export function codeMessage(input: CodeMessageInput): Message {
  const { subject, body } = texts[input.locale](input);
  return { to: input.to, subject, text: body };
}

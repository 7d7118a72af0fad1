import { appNameInEmailMaxLength, type Locale } from "../../common/limits.ts";
import type { Message } from "./mailer.ts";

// The e-mail with a sign-in code, in the flow's language (design.md §6a: e-mails are rendered by the
// server in the person's language; everything else the server sends is codes). The instance's title
// is whatever its operator chose, so Slovenian never declines it: "storitev" carries the case.

interface CodeMessageInput {
  to: string[];
  code: string;
  link: string;
  /** This instance's name (set by its operator), and its public origin: who sends the e-mail. */
  title: string;
  issuer: string;
  appName: string;
  locale: Locale;
}

/** Anything a mail reader may turn into a link: a scheme, an address, a host name with a dot. */
const linkLike = /[a-z][a-z0-9+.-]*:|@|www\.|[\p{L}\p{N}-]\s*[.。．｡]\s*[\p{L}\p{N}]{2,}/iu;

/**
 * A name others chose (an app's, an organization's, an identity's) as an e-mail may quote it. Anyone
 * can name an application template or an organization, so the name must not be able to carry a link
 * or a message of its own: it is cut short, kept on one line, quoted, and
 * left out altogether when it looks like an address.
 */
export function nameForEmail(name: string): string | undefined {
  const oneLine = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (oneLine === "" || linkLike.test(oneLine)) return undefined;
  const characters = Array.from(oneLine);
  return characters.length > appNameInEmailMaxLength
    ? `${characters.slice(0, appNameInEmailMaxLength - 1).join("")}…`
    : oneLine;
}

const texts: Record<
  Locale,
  (input: CodeMessageInput, appName: string | undefined) => { subject: string; body: string }
> = {
  en: ({ code, link, title, issuer }, appName) => ({
    subject: `Your code for ${title}`,
    body: [
      "Hi!",
      "",
      appName === undefined
        ? `Your code to sign in or sign up to an app through ${title} is:`
        : `Your code to sign in or sign up to the app “${appName}” through ${title} is:`,
      "",
      code,
      "",
      `You can also open this link to enter the code: ${link}`,
      "",
      "The code is valid for 10 minutes. If you did not try to sign in or sign up, ignore this e-mail.",
      "",
      `This e-mail was sent by ${title} (${issuer}) because someone asked for a code for this address.`,
    ].join("\n"),
  }),
  sl: ({ code, link, title, issuer }, appName) => ({
    subject: `Vaša koda za storitev ${title}`,
    body: [
      "Pozdravljeni!",
      "",
      appName === undefined
        ? `Vaša koda za prijavo ali registracijo v aplikacijo prek storitve ${title} je:`
        : `Vaša koda za prijavo ali registracijo v aplikacijo „${appName}“ prek storitve ${title} je:`,
      "",
      code,
      "",
      `Kodo lahko vnesete tudi tako, da odprete to povezavo: ${link}`,
      "",
      "Koda velja 10 minut. Če se niste poskušali prijaviti ali registrirati, to sporočilo prezrite.",
      "",
      `To sporočilo je poslala storitev ${title} (${issuer}), ker je nekdo zahteval kodo za ta naslov.`,
    ].join("\n"),
  }),
};

export function codeMessage(input: CodeMessageInput): Message {
  const { subject, body } = texts[input.locale](input, nameForEmail(input.appName));
  return { to: input.to, subject, text: body };
}

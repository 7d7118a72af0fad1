import type { Locale } from "../../common/limits.ts";
import type { Message } from "./mailer.ts";

// The e-mail with the code that adds an address to an account, in the person's language. It names no
// account: whoever reads the mailbox learns only that someone asked to add the address somewhere.

interface AddressCodeMessageInput {
  to: string;
  code: string;
  /** This instance's name (set by its operator), and its public origin: who sends the e-mail. */
  title: string;
  issuer: string;
  locale: Locale;
}

const texts: Record<Locale, (input: AddressCodeMessageInput) => { subject: string; body: string }> = {
  en: ({ code, title, issuer }) => ({
    subject: `Your code to add this address at ${title}`,
    body: [
      "Hi!",
      "",
      `Someone asked to add this e-mail address to their account at ${title}. If it was you, enter this code on your account page:`,
      "",
      code,
      "",
      "The code is valid for 10 minutes. If it was not you, ignore this e-mail: without the code, the address is not added.",
      "",
      `This e-mail was sent by ${title} (${issuer}).`,
    ].join("\n"),
  }),
  sl: ({ code, title, issuer }) => ({
    subject: `Vaša koda za dodajanje naslova v storitvi ${title}`,
    body: [
      "Pozdravljeni!",
      "",
      `Nekdo je želel ta e-poštni naslov dodati svojemu računu v storitvi ${title}. Če ste bili to vi, to kodo vnesite na strani svojega računa:`,
      "",
      code,
      "",
      "Koda velja 10 minut. Če to niste bili vi, sporočilo prezrite: brez kode naslov ne bo dodan.",
      "",
      `To sporočilo je poslala storitev ${title} (${issuer}).`,
    ].join("\n"),
  }),
};

export function addressCodeMessage(input: AddressCodeMessageInput): Message {
  const { subject, body } = texts[input.locale](input);
  return { to: [input.to], subject, text: body };
}

import type { Locale } from "../../common/limits.ts";
import type { Message } from "./mailer.ts";

// The e-mail that tells an account's owner that an identity was shared with their address. It names
// neither the identity nor who shared it: both are chosen by other people, and the e-mail must not
// carry their words. The person sees the identity among their own when they sign in.

interface ShareMessageInput {
  to: string;
  /** This instance's name (set by its operator), and its public origin: who sends the e-mail. */
  title: string;
  issuer: string;
  /** Where the person's identities are listed. */
  link: string;
  locale: Locale;
}

const texts: Record<Locale, (input: ShareMessageInput) => { subject: string; body: string }> = {
  en: ({ title, issuer, link }) => ({
    subject: `An identity was shared with you on ${title}`,
    body: [
      "Hi!",
      "",
      `Someone shared an identity with this e-mail address on ${title}. You can now sign in to apps with it.`,
      "",
      `Sign in to see it among your identities: ${link}`,
      "",
      "If you do not know why, you can ignore this e-mail: the identity's admins can take the share back.",
      "",
      `This e-mail was sent by ${title} (${issuer}) to the address the identity was shared with.`,
    ].join("\n"),
  }),
  sl: ({ title, issuer, link }) => ({
    subject: `Nekdo je z vami delil identiteto (${title})`,
    body: [
      "Pozdravljeni!",
      "",
      `Nekdo je identiteto delil s tem e-poštnim naslovom prek storitve ${title}. Z njo se zdaj lahko prijavljate v aplikacije.`,
      "",
      `Prijavite se, da jo vidite med svojimi identitetami: ${link}`,
      "",
      "Če ne veste, zakaj, to sporočilo lahko prezrete: skrbniki identitete lahko deljenje prekličejo.",
      "",
      `To sporočilo je poslala storitev ${title} (${issuer}) na naslov, s katerim so delili identiteto.`,
    ].join("\n"),
  }),
};

export function shareMessage(input: ShareMessageInput): Message {
  const { subject, body } = texts[input.locale](input);
  return { to: [input.to], subject, text: body };
}

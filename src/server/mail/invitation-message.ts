import type { InvitationRole } from "../../common/api/invitation.ts";
import type { Locale } from "../../common/limits.ts";
import { nameForEmail } from "./code-message.ts";
import type { Message } from "./mailer.ts";

// The e-mail with an invitation to an organization, in the language the admin invited in. The names
// of the organization and of the admin are chosen by people, so they are quoted as code e-mails quote
// an app's name, and left out when they look like an address or a link.

interface InvitationMessageInput {
  to: string;
  organizationName: string;
  /** The inviting admin's identity as the organization shows it. */
  invitedBy: string;
  role: InvitationRole;
  /** The link that opens the invitation, with its token. */
  link: string;
  /** This instance's name (set by its operator), and its public origin: who sends the e-mail. */
  title: string;
  issuer: string;
  days: number;
  locale: Locale;
}

interface Names {
  organization: string | undefined;
  admin: string | undefined;
}

const texts: Record<
  Locale,
  (input: InvitationMessageInput, names: Names) => { subject: string; body: string }
> = {
  en: ({ role, link, title, issuer, days }, { organization, admin }) => {
    const where = organization === undefined ? "an organization" : `the organization “${organization}”`;
    return {
      subject:
        organization === undefined
          ? `You are invited to an organization on ${title}`
          : `You are invited to “${organization}” on ${title}`,
      body: [
        "Hi!",
        "",
        `${admin === undefined ? "An admin" : admin} invites you to join ${where} on ${title}, ` +
          `with an identity of your choice, as ${role === "admin" ? "an admin" : "a member"}.`,
        "",
        `Open this link, sign in or sign up, and choose the identity that accepts: ${link}`,
        "",
        `The link works once, for ${days} days. If you do not want to join, decline or ignore this e-mail.`,
        "",
        `This e-mail was sent by ${title} (${issuer}) because an admin of the organization invited this address.`,
      ].join("\n"),
    };
  },
  sl: ({ role, link, title, issuer, days }, { organization, admin }) => {
    const where = organization === undefined ? "v organizacijo" : `v organizacijo „${organization}“`;
    return {
      subject:
        organization === undefined
          ? `Vabilo v organizacijo (${title})`
          : `Vabilo v organizacijo „${organization}“ (${title})`,
      body: [
        "Pozdravljeni!",
        "",
        `${admin === undefined ? "Skrbnik organizacije" : admin} vas prek ${title} vabi ${where}: ` +
          `ena od vaših identitet, ki jo izberete sami, naj postane njena ${role === "admin" ? "skrbnica" : "članica"}.`,
        "",
        `Odprite to povezavo, se prijavite ali registrirajte in izberite identiteto, ki povabilo sprejme: ${link}`,
        "",
        `Povezavo lahko uporabite enkrat v naslednjih ${days} dneh. Če se ne želite pridružiti, povabilo zavrnite ali to sporočilo prezrite.`,
        "",
        `To sporočilo je poslal ${title} (${issuer}), ker je skrbnik organizacije povabil ta naslov.`,
      ].join("\n"),
    };
  },
};

export function invitationMessage(input: InvitationMessageInput): Message {
  const names = { organization: nameForEmail(input.organizationName), admin: nameForEmail(input.invitedBy) };
  const { subject, body } = texts[input.locale](input, names);
  return { to: [input.to], subject, text: body };
}

import fs from "node:fs/promises";
import type { FastifyBaseLogger } from "fastify";
import type { MailConfig } from "../config.ts";

export interface Message {
  to: string[];
  subject: string;
  text: string;
}

export interface Mailer {
  send: (message: Message) => Promise<void>;
}

/** Sends e-mail over SMTP, or, without an SMTP server configured, writes each message to the log. */
export async function createMailer(config: MailConfig | undefined, log: FastifyBaseLogger): Promise<Mailer> {
  if (!config) {
    log.warn("no SMTP server configured (--mail-host): e-mails, codes included, are written to the log");
    return {
      send: (message) => {
        log.info(
          { to: message.to, subject: message.subject },
          `e-mail not sent, no SMTP server:\n${message.text}`,
        );
        return Promise.resolve();
      },
    };
  }
  const password = config.passwordFile ? (await fs.readFile(config.passwordFile, "utf8")).trim() : undefined;
  // Loaded only when there is an SMTP server to send to.
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.port === 465,
    requireTLS: config.starttls && config.port !== 465,
    ignoreTLS: !config.starttls,
    ...(config.user && password ? { auth: { user: config.user, pass: password } } : {}),
  });
  return {
    send: async (message) => {
      await transport.sendMail({
        from: config.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}

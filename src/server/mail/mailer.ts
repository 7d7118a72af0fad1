import fs from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyBaseLogger } from "fastify";
import type { MailConfig } from "../config.ts";

export interface Message {
  to: string[];
  subject: string;
  text: string;
}

/** The SMTP server did not take a message, or does not answer as it should: `reason` says why. */
export class MailUnavailableError extends Error {
  override name = "MailUnavailableError";
  readonly server: string;
  readonly reason: string;

  constructor(server: string, reason: string) {
    super(`the SMTP server ${server} did not take the e-mail: ${reason}`);
    this.server = server;
    this.reason = reason;
  }
}

export interface Mailer {
  /** Sends the message, trying again a few times; throws {@link MailUnavailableError} when it cannot. */
  send: (message: Message) => Promise<void>;
  /** Connects and logs in to the SMTP server without sending; throws {@link MailUnavailableError}. */
  verify: () => Promise<void>;
  /** The SMTP server as `host:port`, or undefined when e-mails go to the log. */
  server: string | undefined;
}

// A person waits for the code step's answer: each attempt is bounded, and a retry starts only early
// enough that the last one ends well within a browser's patience (about 20 s at the worst).
const timeouts = { connectionTimeout: 3000, greetingTimeout: 3000, socketTimeout: 5000 };
const retryDelaysMs = [250, 1000];
const retryWindowMs = 5000;

/** What went wrong, for the log: a rejection by its SMTP reply code, never the addresses it names. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, responseCode } = error as Error & { code?: string; responseCode?: number };
  if (code === "EENVELOPE" || code === "EMESSAGE")
    return `the server refused the message${responseCode ? ` (${responseCode})` : ""}`;
  if (code === "EAUTH") return `the server refused the login${responseCode ? ` (${responseCode})` : ""}`;
  return error.message;
}

/** A rejection that the same message would meet again (a 5xx reply); anything else may pass later. */
const isPermanent = (error: unknown) => (error as { permanent?: boolean }).permanent === true;

/** An e-mail as a person reads it at a terminal, between lines that say where it begins and ends. */
export function readableMessage(message: Message): string {
  return [
    `----- e-mail to ${message.to.join(", ")}: ${message.subject}`,
    message.text,
    "----- end of e-mail",
    "",
  ].join("\n");
}

const toStandardOutput = (text: string) => void process.stdout.write(text);

/**
 * Sends e-mail over SMTP, or, without an SMTP server configured (development), writes each message to
 * the log. The log's entry names the message; its text follows as it is, through `print`, for the
 * person who copies the code from it. With an SMTP server no message's text ever reaches the log.
 */
export async function createMailer(
  config: MailConfig | undefined,
  log: FastifyBaseLogger,
  print: (text: string) => void = toStandardOutput,
): Promise<Mailer> {
  if (!config) {
    log.warn("no SMTP server configured (--mail-host): e-mails, codes included, are written to the log");
    return {
      send: (message) => {
        log.info({ to: message.to, subject: message.subject }, "e-mail not sent, no SMTP server");
        print(readableMessage(message));
        return Promise.resolve();
      },
      verify: () => Promise.resolve(),
      server: undefined,
    };
  }
  const server = `${config.host}:${config.port}`;
  const password = config.passwordFile ? (await fs.readFile(config.passwordFile, "utf8")).trim() : undefined;
  // Loaded only when there is an SMTP server to send to.
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.port === 465,
    requireTLS: config.starttls && config.port !== 465,
    ignoreTLS: !config.starttls,
    ...timeouts,
    ...(config.user && password ? { auth: { user: config.user, pass: password } } : {}),
  });
  const sendOnce = (message: Message) =>
    transport.sendMail({ from: config.from, to: message.to, subject: message.subject, text: message.text });
  return {
    send: async (message) => {
      const started = Date.now();
      for (let attempt = 0; ; attempt++) {
        try {
          await sendOnce(message);
          return;
        } catch (error) {
          const delay = retryDelaysMs[attempt];
          if (delay === undefined || isPermanent(error) || Date.now() - started + delay > retryWindowMs) {
            const reason = reasonOf(error);
            log.warn(
              { smtpServer: server, cause: reason, attempts: attempt + 1 },
              "an e-mail could not be sent",
            );
            throw new MailUnavailableError(server, reason);
          }
          await sleep(delay);
        }
      }
    },
    verify: async () => {
      try {
        await transport.verify();
      } catch (error) {
        throw new MailUnavailableError(server, reasonOf(error));
      }
    },
    server,
  };
}

import { SMTPServer } from "smtp-server";
import type { PemPair } from "../../src/server/http/tls-generate.ts";

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The body text, decoded from its transfer encoding, with `\n` line breaks. */
  text: string;
}

/** Quoted-printable (`=C5=A1`, soft breaks `=` at line ends) as the UTF-8 text it encodes. */
const decodeQuotedPrintable = (data: string) =>
  Buffer.from(
    data
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    "latin1",
  ).toString("utf8");

/** A single-part message's body as text, by its Content-Transfer-Encoding header. */
function decodeBody(headers: string, body: string): string {
  const encoding = /^Content-Transfer-Encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : body;
  return text.replace(/\r\n/g, "\n");
}

/** Undoes RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header value. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
      encoding.toLowerCase() === "b"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    )
    .replace(/\r\n[ \t]/g, " ");
}

/** The server's options that send its e-mail, in plain text, to a receiver on loopback. */
export const mailArgs = (port: number): string[] => [
  "--mail-host",
  "127.0.0.1",
  "--mail-port",
  String(port),
  "--no-mail-starttls",
];

export interface SmtpReceiverOptions {
  /**
   * Called with each message before the receiver accepts it, so whatever it does is done by the time
   * the sender's delivery succeeds; an error it throws refuses the message, which is then not kept.
   */
  onMessage?: (mail: ReceivedMail) => Promise<void>;
  /** The port to listen on (one that nothing listened on before, say); a free one when absent. */
  port?: number;
  /** A certificate to offer with STARTTLS; without it the receiver speaks only plain SMTP. */
  tls?: PemPair;
}

/**
 * A real SMTP server on loopback that keeps what it receives, for tests to read. The integration tests
 * read `messages`; the end-to-end server (e2e/support/serve.ts) writes each message out in `onMessage`.
 */
export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<{
  port: number;
  messages: ReceivedMail[];
  waitFor: (to: string, count?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: options.tls ? ["AUTH"] : ["STARTTLS", "AUTH"],
    ...(options.tls ? { key: options.tls.keyPem, cert: options.tls.certPem } : {}),
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const headerEnd = raw.indexOf("\r\n\r\n");
        const text = decodeBody(raw.slice(0, headerEnd), raw.slice(headerEnd + 4));
        const mail: ReceivedMail = {
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw,
          subject: decodeHeader(/^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? ""),
          text,
        };
        (options.onMessage?.(mail) ?? Promise.resolve()).then(
          () => {
            messages.push(mail);
            callback();
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  const waitFor = async (to: string, count = 1) => {
    for (let i = 0; i < 200; i++) {
      const received = messages.filter((message) =>
        message.to.some((address) => address.toLowerCase() === to.toLowerCase()),
      );
      const last = received[count - 1];
      if (last) return last;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`no e-mail number ${count} to ${to}`);
  };
  return { port, messages, waitFor, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The 6-digit code of a code e-mail, from its `#code=` link. */
export function codeIn(mail: Pick<ReceivedMail, "text">): string {
  const match = /#code=(\d{6})/.exec(mail.text);
  if (!match?.[1]) throw new Error("no code in the e-mail");
  return match[1];
}

import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The body text with quoted-printable soft breaks undone. */
  text: string;
}

/** A real SMTP server on loopback that keeps what it receives, for tests to read. */
export async function startSmtpReceiver(): Promise<{
  port: number;
  messages: ReceivedMail[];
  waitFor: (to: string, count?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
        const text = body
          .replace(/=\r\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        messages.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw, text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
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

export function codeIn(mail: ReceivedMail): string {
  const match = /#code=(\d{6})/.exec(mail.text);
  if (!match?.[1]) throw new Error("no code in the e-mail");
  return match[1];
}

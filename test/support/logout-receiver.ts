import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An app's back-channel logout endpoint on loopback: it keeps the logout tokens it is sent and can be
 * told to fail, as an app that is down would.
 */
export class LogoutReceiver {
  /** Every logout token received, oldest first. */
  readonly tokens: string[] = [];
  /** How many of the next deliveries are answered with 503. */
  failNext = 0;
  attempts = 0;
  readonly #server: http.Server;

  private constructor(server: http.Server) {
    this.#server = server;
  }

  static async start(): Promise<LogoutReceiver> {
    const server = http.createServer();
    const receiver = new LogoutReceiver(server);
    server.on("request", (request, response) => void receiver.#receive(request, response));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/backchannel-logout`;
  }

  async close(): Promise<void> {
    this.#server.close();
    await once(this.#server, "close");
  }

  async #receive(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    this.attempts += 1;
    if (this.failNext > 0) {
      this.failNext -= 1;
      response.writeHead(503).end();
      return;
    }
    this.tokens.push(new URLSearchParams(Buffer.concat(chunks).toString()).get("logout_token") ?? "");
    response.writeHead(200).end();
  }
}

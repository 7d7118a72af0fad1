import { once } from "node:events";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import type { PemPair } from "../../src/server/http/tls-generate.ts";

/** Where a receiver listens, and the certificate it answers HTTPS with (plain HTTP without one). */
export interface ReceiverOptions {
  host?: string;
  port?: number;
  certificate?: PemPair;
}

/**
 * An app's back-channel logout endpoint on loopback: it keeps the logout tokens it is sent and can be
 * told to fail, as an app that is down would. It counts every connection made to it, whatever came of
 * it.
 */
export class LogoutReceiver {
  /** Every logout token received, oldest first. */
  readonly tokens: string[] = [];
  /** How many of the next deliveries are answered with 503. */
  failNext = 0;
  attempts = 0;
  connections = 0;
  readonly #server: http.Server;

  private constructor(server: http.Server) {
    this.#server = server;
  }

  static async start({ host = "127.0.0.1", port = 0, certificate }: ReceiverOptions = {}) {
    const server = certificate
      ? https.createServer({ cert: certificate.certPem, key: certificate.keyPem })
      : http.createServer();
    const receiver = new LogoutReceiver(server);
    server.on("connection", () => (receiver.connections += 1));
    server.on("request", (request, response) => void receiver.#receive(request, response));
    server.listen(port, host);
    await once(server, "listening");
    return receiver;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/backchannel-logout`;
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

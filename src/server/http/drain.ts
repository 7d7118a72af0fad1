import type { FastifyPluginCallback } from "fastify";
import fp from "fastify-plugin";

/**
 * Whether this process is on its way out. From the moment a SIGTERM arrives, readiness answers 503 so
 * that load balancers send new requests elsewhere, and each HTTP/1.1 answer closes its connection so
 * that a proxy's pooled connections move to other instances; requests are still served as usual until
 * the drain delay has passed and the server stops taking connections.
 */
export class Drain {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  begin(): void {
    this.#draining = true;
  }
}

const closeConnectionsWhileDraining: FastifyPluginCallback<{ drain: Drain }> = (app, { drain }, done) => {
  app.addHook("onRequest", (request, reply, next) => {
    // HTTP/2 has no such header: its sessions are closed with GOAWAY once the server closes.
    if (drain.draining && request.raw.httpVersionMajor === 1) reply.header("connection", "close");
    next();
  });
  done();
};

export const drainPlugin = fp(closeConnectionsWhileDraining, { name: "drain" });

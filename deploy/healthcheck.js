// The container image's health check: exits 0 when Vrata on this machine answers GET /health/live with
// 200, else 1. Written for Node itself, as slim images have no curl. It asks over HTTPS first (Vrata's
// own TLS), then over plain HTTP (--behind-proxy), so it needs to know only the port: VRATA_PORT.
// Liveness rather than readiness: a database outage or a newer version's migrations make
// /health/ready answer 503 for reasons a restart of this container would not cure.
import http from "node:http";
import https from "node:https";

const port = Number(process.env.VRATA_PORT || 8080);

/** Whether Vrata answers 200 through this client within the time a health check has. */
function answers(client) {
  return new Promise((resolve) => {
    // The certificate is not checked: it names the public host, not localhost, and this asks only
    // whether the process serves.
    const request = client.get(
      { host: "localhost", port, path: "/health/live", rejectUnauthorized: false, timeout: 4000 },
      (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      },
    );
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(false));
  });
}

process.exit((await answers(https)) || (await answers(http)) ? 0 : 1);

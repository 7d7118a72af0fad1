import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { vrataCommand } from "../../test/support/command.ts";
import { freePort } from "../../test/support/ports.ts";
import { startTestServer } from "../../test/support/server.ts";
import { startSmtpReceiver } from "../../test/support/smtp.ts";
import { registerUpstreamClient } from "../../test/support/upstream.ts";
import { refusedMailDomain, type Mail } from "./mail.ts";
import { startSamlIdp } from "./saml-idp.ts";

// The end-to-end server (playwright.config.ts): a loopback SMTP receiver that writes each message it
// receives as a JSON file into $VRATA_E2E_MAIL_DIR, and the Vrata server sending its e-mail there.
// Arguments are passed on to the server: node e2e/support/serve.ts --port 18443 --data <folder>
//
// A second Vrata, started here, is the server's upstream OpenID Connect provider ("upstream" in its
// configuration file): specs sign up and link accounts through it as they would through Google. A
// SAML IdP (e2e/support/saml-idp.ts) is its SAML provider ("eid").

const mailDir = process.env.VRATA_E2E_MAIL_DIR;
if (!mailDir) {
  process.stderr.write("serve: set VRATA_E2E_MAIL_DIR to the folder for received e-mail\n");
  process.exit(2);
}
mkdirSync(mailDir, { recursive: true });

let received = 0;
const smtp = await startSmtpReceiver({
  onMessage: async (mail) => {
    if (mail.to.some((address) => address.endsWith(refusedMailDomain)))
      throw Object.assign(new Error("mailbox unavailable"), { responseCode: 550 });
    // Numbered in the order they arrive; renamed into place so readers never see half a file.
    const file = path.join(mailDir, String(++received).padStart(6, "0"));
    const content: Mail = { to: mail.to, subject: mail.subject, text: mail.text };
    await writeFile(`${file}.tmp`, JSON.stringify(content));
    await rename(`${file}.tmp`, `${file}.json`);
  },
});
process.stdout.write(`serve: SMTP receiver at 127.0.0.1:${smtp.port} writes e-mail to ${mailDir}\n`);

/** The value of a flag among this script's arguments. */
const argument = (name: string) => process.argv[process.argv.indexOf(name) + 1] ?? "";

// At 127.0.0.1, not localhost: cookies do not tell ports apart, so two servers on localhost would
// overwrite each other's sessions in the browser.
const upstreamPort = String(await freePort());
const upstream = await startTestServer({
  args: [
    "--title",
    "Upstream Vrata",
    "--port",
    upstreamPort,
    "--host",
    "127.0.0.1",
    "--issuer",
    `https://127.0.0.1:${upstreamPort}`,
  ],
});
const { clientId, clientSecret } = await registerUpstreamClient(
  upstream.issuer,
  `https://localhost:${argument("--port")}/auth/provider/upstream`,
);
const configDir = path.join(argument("--data"), "upstream-config");
mkdirSync(configDir, { recursive: true });
await writeFile(path.join(configDir, "client.secret"), clientSecret);
const samlIdp = await startSamlIdp(
  `https://localhost:${argument("--port")}/samlMetadata/eid`,
  path.join(argument("--data"), "tls", "ca.pem"),
);
await writeFile(path.join(configDir, "idp.xml"), samlIdp.metadata);
const configFile = path.join(configDir, "vrata.json");
await writeFile(
  configFile,
  JSON.stringify({
    providers: [
      {
        key: "upstream",
        type: "oidc",
        name: { en: "Upstream Vrata", sl: "Zgornja Vrata" },
        issuer: upstream.issuer,
        clientId,
        clientSecretFile: "client.secret",
      },
      {
        key: "eid",
        type: "saml",
        name: { en: "National eID", sl: "Nacionalna e-identiteta" },
        metadataFile: "idp.xml",
      },
    ],
  }),
);
process.stdout.write(`serve: upstream OpenID Connect provider at ${upstream.issuer}, and a SAML IdP\n`);

// In its own process group, so a signal sent to this script's group (Playwright's shutdown, Ctrl-C)
// reaches the server once, from here, and not twice: a second signal makes it exit without waiting.
const server = spawn(
  process.execPath,
  [
    ...vrataCommand,
    ...process.argv.slice(2),
    "--mail-host",
    "127.0.0.1",
    "--mail-port",
    String(smtp.port),
    "--no-mail-starttls",
    "--config",
    configFile,
    // No load balancer to turn away: a stop need not wait for one.
    "--drain-delay",
    "0",
  ],
  // The server discovers the upstream over TLS: it trusts the upstream's local CA.
  {
    stdio: "inherit",
    detached: true,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: upstream.tls?.caFile ?? "" },
  },
);

let running = true;
// Should this script end any other way, the server must not outlive it.
process.on("exit", () => {
  if (running) server.kill("SIGKILL");
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (running) server.kill(signal);
  });
}

server.on("error", (error) => {
  process.stderr.write(`serve: cannot start the server: ${error.message}\n`);
  running = false;
  void Promise.all([smtp.close(), upstream.dispose(), samlIdp.close()]).finally(() => process.exit(1));
});

server.on("exit", (code, signal) => {
  running = false;
  void Promise.all([smtp.close(), upstream.dispose(), samlIdp.close()]).finally(() => {
    if (signal) process.stderr.write(`serve: the server ended on ${signal}\n`);
    process.exit(code ?? 1);
  });
});

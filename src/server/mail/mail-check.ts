import type { FastifyBaseLogger } from "fastify";
import { MailUnavailableError, type Mailer } from "./mailer.ts";

/**
 * Tells the operator at start when the SMTP server cannot be used (not reached, the login refused, a
 * certificate not trusted). Vrata serves anyway: the server may come back, and each send tries again.
 */
export async function checkMailServer(mailer: Mailer, log: FastifyBaseLogger): Promise<void> {
  try {
    await mailer.verify();
  } catch (error) {
    if (!(error instanceof MailUnavailableError)) {
      log.error({ err: error }, "the SMTP server could not be checked");
      return;
    }
    log.warn(
      { smtpServer: error.server, cause: error.reason },
      `the SMTP server ${error.server} cannot be used (${error.reason}): e-mails, codes included, fail until it can`,
    );
  }
}

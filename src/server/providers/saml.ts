import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import type { RecordAssertionUse } from "./saml/assertion-uses.ts";
import { SamlError } from "./saml/errors.ts";
import type { SamlProviderSettings } from "./saml/settings.ts";
import type { SamlSpCredentials } from "./saml/sp-credentials.ts";
import { openSamlUpstream, samlComplete, samlStart, type SamlUpstream } from "./saml/upstream.ts";
import {
  UpstreamErrorAnswer,
  UpstreamRefused,
  UpstreamUnavailable,
  type Upstream,
  type UpstreamAnswer,
} from "./upstream.ts";

// A SAML identity provider as the flow and the account page use every provider: the plumbing's
// random state travels as the RelayState, and the AuthnRequest's ID is kept until the IdP answers.

/** The form fields of the IdP's HTTP-POST answer, as Fastify parsed them. */
const formOf = (request: FastifyRequest) =>
  (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<string, unknown>;

export class SamlProvider implements Upstream {
  readonly type = "saml";
  readonly key: string;
  readonly name: SamlProviderSettings["name"];
  readonly saml: SamlUpstream;

  private constructor(saml: SamlUpstream) {
    this.saml = saml;
    this.key = saml.settings.key;
    this.name = saml.settings.name;
  }

  /** Reads the IdP's metadata (a file now, a URL now and then again) and sets Vrata's side up. */
  static async open(
    settings: SamlProviderSettings,
    options: {
      issuer: string;
      title: string;
      credentials: SamlSpCredentials;
      recordAssertionUse: RecordAssertionUse;
      log: FastifyBaseLogger;
    },
  ): Promise<SamlProvider> {
    const saml = await openSamlUpstream(settings, {
      issuer: options.issuer,
      credentials: options.credentials,
      serviceName: { en: options.title, sl: options.title },
      recordAssertionUse: options.recordAssertionUse,
      log: options.log,
    });
    return new SamlProvider(saml);
  }

  async start(state: string): Promise<{ location: string; data: Record<string, unknown> }> {
    try {
      const { url, requestId } = await samlStart(this.saml, { relayState: state });
      return { location: url, data: { requestId } };
    } catch (error) {
      if (error instanceof SamlError && error.code === "samlIdpUnavailable")
        throw new UpstreamUnavailable(error.message);
      throw error;
    }
  }

  answerOf(request: FastifyRequest): UpstreamAnswer {
    const relayState = formOf(request).RelayState;
    return { state: typeof relayState === "string" ? relayState : undefined, error: undefined };
  }

  async finish(request: FastifyRequest, data: Record<string, unknown>, answer: UpstreamAnswer) {
    const form = formOf(request);
    try {
      const identity = await samlComplete(this.saml, {
        samlResponse: form.SAMLResponse,
        relayState: form.RelayState,
        expected: { requestId: String(data.requestId), relayState: answer.state ?? "" },
      });
      return {
        subject: identity.subject,
        profile: { ...identity.identity, emailVerified: false },
        claims: {
          nameId: identity.nameId?.value,
          nameIdFormat: identity.nameId?.format,
          ...identity.identity,
        },
      };
    } catch (error) {
      if (!(error instanceof SamlError)) throw error;
      if (error.code === "samlIdpRefused" || error.code === "samlIdpStatus")
        throw new UpstreamErrorAnswer(error.code === "samlIdpRefused" ? "denied" : "failed", error.message);
      throw new UpstreamRefused(`${error.code}: ${error.message}`, error.code);
    }
  }

  close(): void {
    this.saml.close();
  }
}

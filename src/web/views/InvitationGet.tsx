import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { useParams } from "react-router";
import { displayName } from "../../common/api/identity.ts";
import type { LinkInvitation } from "../../common/api/invitation.ts";
import { pathFor } from "../../common/routes.ts";
import { ApiError } from "../api.ts";
import { Button } from "../components/Button.tsx";
import { ErrorAction, ErrorPanel } from "../components/ErrorPanel.tsx";
import { MessagePanel } from "../components/MessagePanel.tsx";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useSignIn } from "../components/SignInButton.tsx";
import { TextSkeleton } from "../components/Skeleton.tsx";
import { ActionFeedback, useAction } from "../components/useAction.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { toTheMinute, useFormatTimestamp } from "../format.ts";
import { useTranslation } from "../i18n/index.ts";
import { createIdentity, identitiesQuery } from "../partials/identity/identityApi.ts";
import { IdentityForm } from "../partials/identity/IdentityForm.tsx";
import { answerLink, linkInvitationQuery } from "../partials/invitation/invitationApi.ts";
import { useSignedIn, useSignInError } from "../session.ts";

/** Why a link leads nowhere, by the server's error code. */
const goneStates = {
  invitationUsed: "used",
  invitationWithdrawn: "withdrawn",
  invitationExpired: "expired",
  notFound: "unknown",
} as const;

const goneState = (error: unknown) =>
  error instanceof ApiError && error.status < 500 && error.code in goneStates
    ? goneStates[error.code as keyof typeof goneStates]
    : undefined;

/** How the person answered, for the page that follows. */
type Answer = { accepted: true; identityName: string } | { accepted: false };

/**
 * The page an e-mailed invitation links to: a person not signed in is sent to sign in or sign up and
 * comes back here; then they choose which of their identities accepts (or create one), or decline.
 */
export function InvitationGet() {
  const { t } = useTranslation();
  const { token = "" } = useParams();
  const signedIn = useSignedIn();
  const signInError = useSignInError();
  const { signIn } = useSignIn();
  const invitation = useQuery({ ...linkInvitationQuery(token), enabled: signedIn });
  const [answer, setAnswer] = useState<Answer | null>(null);
  useDocumentTitle(t("invitationLink.title"));

  // Sent to sign in once; a failed sign-in stays here with its message and the sign-in button.
  const sentToSignIn = useRef(false);
  useEffect(() => {
    if (signedIn || signInError !== null || sentToSignIn.current) return;
    sentToSignIn.current = true;
    signIn();
  }, [signedIn, signInError, signIn]);

  const gone = goneState(invitation.error);
  if (gone) {
    return (
      <ErrorPanel
        tone="gone"
        title={t(`invitationLink.${gone}.heading`)}
        message={t(`invitationLink.${gone}.message`)}
      >
        <ErrorAction to={pathFor("IdentityList")}>{t("invitationLink.toIdentities")}</ErrorAction>
      </ErrorPanel>
    );
  }
  if (answer && invitation.data) return <Answered answer={answer} invitation={invitation.data} />;
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      {invitation.data === undefined && (
        <h1 className="text-3xl font-bold tracking-tight">{t("invitationLink.title")}</h1>
      )}
      <SignedInContent signedOutMessage={t("invitationLink.signedOut")} query={invitation}>
        {(data) => <InvitationAnswer token={token} invitation={data} onAnswered={setAnswer} />}
      </SignedInContent>
    </div>
  );
}

function Answered({ answer, invitation }: { readonly answer: Answer; readonly invitation: LinkInvitation }) {
  const { t } = useTranslation();
  const organizationLink = pathFor("OrganizationGet", { id: invitation.organizationId });
  return answer.accepted ? (
    <MessagePanel
      tone="done"
      level={1}
      heading={t("invitationLink.accepted.heading")}
      actions={<ErrorAction to={organizationLink}>{t("invitationLink.toOrganization")}</ErrorAction>}
    >
      <p>
        {t("invitationLink.accepted.message", {
          name: answer.identityName,
          organization: invitation.organizationName,
        })}
      </p>
    </MessagePanel>
  ) : (
    <MessagePanel
      tone="done"
      level={1}
      heading={t("invitationLink.declined.heading")}
      actions={<ErrorAction to={pathFor("IdentityList")}>{t("invitationLink.toIdentities")}</ErrorAction>}
    >
      <p>{t("invitationLink.declined.message")}</p>
    </MessagePanel>
  );
}

/** The choice "a new identity" among the person's own. */
const newIdentity = "new";

interface InvitationAnswerProps {
  readonly token: string;
  readonly invitation: LinkInvitation;
  readonly onAnswered: (answer: Answer) => void;
}

function InvitationAnswer({ token, invitation, onAnswered }: InvitationAnswerProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const formatTimestamp = useFormatTimestamp(toTheMinute);
  const identities = useQuery(identitiesQuery);
  const administered = (identities.data ?? []).filter((identity) => identity.canUpdate);
  const [chosen, setChosen] = useState<string | null>(null);
  const choice = chosen ?? administered[0]?.id ?? newIdentity;
  const action = useAction();
  const newIdentityHeading = useId();
  const name = { name: invitation.invitedBy };

  const accept = async (identityId: string, identityName: string) => {
    await answerLink(queryClient, token, identityId);
    onAnswered({ accepted: true, identityName });
  };

  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight break-words">
        {t("invitationLink.heading", { organization: invitation.organizationName })}
      </h1>
      <div className="flex flex-col gap-2">
        <p className="text-slate-800 dark:text-slate-200">
          {t(invitation.role === "admin" ? "invitationLink.asAdmin" : "invitationLink.asMember", name)}
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {t("invitationLink.expires", { date: formatTimestamp(invitation.expiresAt) })}
        </p>
      </div>
      {identities.data === undefined ? (
        <TextSkeleton />
      ) : (
        <fieldset className="flex min-w-0 flex-col gap-2">
          <legend className="mb-1 font-medium">{t("invitationLink.choose")}</legend>
          {[...administered, undefined].map((identity) => {
            const value = identity?.id ?? newIdentity;
            return (
              <label
                key={value}
                className="flex cursor-pointer items-center gap-3 rounded-md border border-slate-300 px-3 py-2.5 has-checked:border-blue-700 has-checked:bg-blue-50 dark:border-slate-600 dark:has-checked:border-blue-400 dark:has-checked:bg-blue-950"
              >
                <input
                  type="radio"
                  name="identity"
                  value={value}
                  checked={choice === value}
                  onChange={() => {
                    setChosen(value);
                    action.clear();
                  }}
                  className="accent-blue-700"
                />
                <span className="min-w-0 break-words">
                  {identity ? displayName(identity) : t("invitationLink.newIdentity")}
                </span>
              </label>
            );
          })}
        </fieldset>
      )}
      {choice === newIdentity ? (
        <section aria-labelledby={newIdentityHeading} className="flex flex-col gap-4">
          <h2 id={newIdentityHeading} className="text-xl font-semibold">
            {t("invitationLink.newIdentityTitle")}
          </h2>
          <IdentityForm
            labelledBy={newIdentityHeading}
            submitLabel={t("invitationLink.createAndAccept")}
            onSubmit={async (fields) => {
              const id = await createIdentity(fields);
              await accept(id, displayName({ id, ...fields }));
            }}
          />
        </section>
      ) : (
        <div className="flex flex-wrap gap-3">
          <Button
            {...action.button("accept")}
            onClick={() => {
              const identity = administered.find((candidate) => candidate.id === choice);
              if (identity) void action.run(() => accept(identity.id, displayName(identity)), "", "accept");
            }}
          >
            {t("invitationLink.accept")}
          </Button>
        </div>
      )}
      <div className="flex flex-col items-start gap-2 border-t border-slate-200 pt-4 dark:border-slate-700">
        <Button
          variant="secondary"
          {...action.button("decline")}
          onClick={() =>
            void action.run(
              async () => {
                await answerLink(queryClient, token, null);
                onAnswered({ accepted: false });
              },
              "",
              "decline",
            )
          }
        >
          {t("invitationLink.decline")}
        </Button>
      </div>
      <ActionFeedback action={action} />
    </>
  );
}

import type { ActivityType } from "../../../common/api/activity.ts";
import { StrokeIcon } from "../../components/icons.tsx";

const lines = { strokeLinecap: "round", strokeLinejoin: "round" } as const;

function SignInIcon() {
  return (
    <StrokeIcon>
      <path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4M4 12h11m-4-4 4 4-4 4" {...lines} />
    </StrokeIcon>
  );
}

function SignOutIcon() {
  return (
    <StrokeIcon>
      <path d="M10 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h4m5-12 4 4-4 4m4-4H9" {...lines} />
    </StrokeIcon>
  );
}

function IdentityIcon() {
  return (
    <StrokeIcon>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" {...lines} />
    </StrokeIcon>
  );
}

function OrganizationIcon() {
  return (
    <StrokeIcon>
      <path
        d="M4 21V5a1 1 0 0 1 1-1h9a1 1 0 0 1 1 1v16m0-11h4a1 1 0 0 1 1 1v10M3 21h18M8 8h3m-3 4h3m-3 4h3"
        {...lines}
      />
    </StrokeIcon>
  );
}

function TemplateIcon() {
  return (
    <StrokeIcon>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M3 9h18M9 9v11" {...lines} />
    </StrokeIcon>
  );
}

function BlockedIcon() {
  return (
    <StrokeIcon>
      <circle cx="12" cy="12" r="9" />
      <path d="m5.6 5.6 12.8 12.8" {...lines} />
    </StrokeIcon>
  );
}

function KeyIcon() {
  return (
    <StrokeIcon>
      <circle cx="8" cy="15" r="4" />
      <path d="m10.9 12.1 8.6-8.6M16 7l3 3m-5-1 2 2" {...lines} />
    </StrokeIcon>
  );
}

function OtherIcon() {
  return (
    <StrokeIcon>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 8v4l3 2" {...lines} />
    </StrokeIcon>
  );
}

const icons: Record<ActivityType, () => React.JSX.Element> = {
  signIn: SignInIcon,
  signOut: SignOutIcon,
  backchannelLogoutFailed: SignOutIcon,
  sessionEnd: SignOutIcon,
  appDisconnect: SignOutIcon,
  identityCreate: IdentityIcon,
  identityUpdate: IdentityIcon,
  identityUnblocked: IdentityIcon,
  organizationCreate: OrganizationIcon,
  organizationUpdate: OrganizationIcon,
  applicationTemplateCreate: TemplateIcon,
  applicationTemplateUpdate: TemplateIcon,
  applicationTemplateFollowed: TemplateIcon,
  identityBlocked: BlockedIcon,
  accountBlocked: BlockedIcon,
  identityRemoved: IdentityIcon,
  accountDeletionRequested: BlockedIcon,
  accountDeletionCancelled: IdentityIcon,
  credentialAdd: KeyIcon,
  credentialUpdate: KeyIcon,
  credentialRemove: KeyIcon,
};

/** The type of an entry at a glance, beside its headline (which says it in words). */
export function ActivityIcon({ type }: { readonly type: ActivityType }) {
  // A type this page does not know yet (a newer server's) gets a general one.
  const Icon = (icons as Partial<Record<string, () => React.JSX.Element>>)[type] ?? OtherIcon;
  const blocked = type === "identityBlocked" || type === "accountBlocked";
  return (
    <span
      className={`flex size-9 shrink-0 items-center justify-center rounded-full ${
        blocked
          ? "bg-red-50 text-red-700 dark:bg-red-950 dark:text-red-300"
          : "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300"
      }`}
    >
      <Icon />
    </span>
  );
}

import type { ReactNode } from "react";

// Decorative icons: always next to a text label, so hidden from assistive technology.

export function StrokeIcon({
  children,
  className = "size-5",
}: {
  readonly children: ReactNode;
  readonly className?: string;
}) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={`shrink-0 ${className}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

type IconProps = { readonly className?: string };

export function HomeIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M3 10.5 12 3l9 7.5M5 9v11h5v-6h4v6h5V9" />
    </StrokeIcon>
  );
}

export function GlobeIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.7 3.75 5.7 3.75 9S14.5 18.3 12 21c-2.5-2.7-3.75-5.7-3.75-9S9.5 5.7 12 3Z" />
    </StrokeIcon>
  );
}

export function IdentityIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
    </StrokeIcon>
  );
}

export function OrganizationIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M4 21V5a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v16M16 9h2a2 2 0 0 1 2 2v10M2 21h20M8 7h4M8 11h4M8 15h4" />
    </StrokeIcon>
  );
}

export function TemplateIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="m12 3 9 5-9 5-9-5 9-5Z" />
      <path d="m3 13 9 5 9-5" />
    </StrokeIcon>
  );
}

export function ActivityIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M3 12h4l3-8 4 16 3-8h4" />
    </StrokeIcon>
  );
}

export function MenuIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M4 6h16M4 12h16M4 18h16" />
    </StrokeIcon>
  );
}

export function CloseIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M6 6l12 12M18 6 6 18" />
    </StrokeIcon>
  );
}

export function ChevronDownIcon({ className = "size-4" }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="m6 9 6 6 6-6" />
    </StrokeIcon>
  );
}

export function ChevronRightIcon({ className = "size-4" }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="m9 6 6 6-6 6" />
    </StrokeIcon>
  );
}

export function PlusIcon({ className = "size-4" }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M12 5v14M5 12h14" />
    </StrokeIcon>
  );
}

export function InfoIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 8h.01" />
    </StrokeIcon>
  );
}

export function MailIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3.5 6.5 8.5 7 8.5-7" strokeLinecap="round" strokeLinejoin="round" />
    </StrokeIcon>
  );
}

export function CheckIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="m5 12.5 4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
    </StrokeIcon>
  );
}

export function AlertIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path
        d="M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.6A2 2 0 0 0 4.1 20.6h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </StrokeIcon>
  );
}

export function LinkOffIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path
        d="M9 15 15 9M10 6.5l1.3-1.3a4.2 4.2 0 0 1 6 6L16 12.5M14 17.5l-1.3 1.3a4.2 4.2 0 0 1-6-6L8 11.5M4 4l16 16"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </StrokeIcon>
  );
}

/** A door, for Vrata ("doors"). */
export function DoorIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M4 21h16M6 21V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v17" strokeLinejoin="round" />
      <path d="M14 12v.01" strokeLinecap="round" strokeWidth="3" />
    </StrokeIcon>
  );
}

/** A person and a key: a passkey. */
export function PasskeyIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <circle cx="9" cy="7.5" r="3.5" />
      <path d="M3 20v-1.5A5.5 5.5 0 0 1 8.5 13h1.5" />
      <circle cx="17" cy="14" r="2.5" />
      <path d="M17 16.5V21m0-2h2" />
    </StrokeIcon>
  );
}

/** Signing in somewhere else: an arrow leaving a box. */
export function ProviderIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M14 4h6v6" />
      <path d="M20 4l-9 9" />
      <path d="M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </StrokeIcon>
  );
}

/** An authenticator app: a phone showing a code. */
export function AuthenticatorAppIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <rect x="6" y="2.5" width="12" height="19" rx="2.5" />
      <path d="M9.5 11h1m2 0h1m-4 3h1m2 0h1M11 18.5h2" />
    </StrokeIcon>
  );
}

/** Two-step verification: a shield with a tick. */
export function ShieldCheckIcon({ className }: IconProps) {
  return (
    <StrokeIcon className={className}>
      <path d="M12 3 4.5 6v5.5c0 4.6 3.2 8.4 7.5 9.5 4.3-1.1 7.5-4.9 7.5-9.5V6Z" />
      <path d="m8.8 12 2.2 2.2 4.2-4.4" />
    </StrokeIcon>
  );
}

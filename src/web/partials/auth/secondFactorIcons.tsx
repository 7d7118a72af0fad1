import { StrokeIcon } from "../../components/icons.tsx";

// Pictures of the second factors the sign-in card offers, drawn like the other icons.

type IconProps = { readonly className?: string };

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

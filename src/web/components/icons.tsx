import type { ReactNode } from "react";

// Decorative icons: always next to a text label, so hidden from assistive technology.

function StrokeIcon({ children }: { readonly children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      {children}
    </svg>
  );
}

export function HomeIcon() {
  return (
    <StrokeIcon>
      <path d="M3 10.5 12 3l9 7.5M5 9v11h5v-6h4v6h5V9" strokeLinecap="round" strokeLinejoin="round" />
    </StrokeIcon>
  );
}

export function GlobeIcon() {
  return (
    <StrokeIcon>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.7 3.75 5.7 3.75 9S14.5 18.3 12 21c-2.5-2.7-3.75-5.7-3.75-9S9.5 5.7 12 3Z" />
    </StrokeIcon>
  );
}

export function MailIcon() {
  return (
    <StrokeIcon>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3.5 6.5 8.5 7 8.5-7" strokeLinecap="round" strokeLinejoin="round" />
    </StrokeIcon>
  );
}

export function CheckIcon() {
  return (
    <StrokeIcon>
      <path d="m5 12.5 4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
    </StrokeIcon>
  );
}

export function PlusIcon() {
  return (
    <StrokeIcon>
      <path d="M12 5v14M5 12h14" strokeLinecap="round" />
    </StrokeIcon>
  );
}

export function AlertIcon() {
  return (
    <StrokeIcon>
      <path
        d="M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.6A2 2 0 0 0 4.1 20.6h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </StrokeIcon>
  );
}

export function LinkOffIcon() {
  return (
    <StrokeIcon>
      <path
        d="M9 15 15 9M10 6.5l1.3-1.3a4.2 4.2 0 0 1 6 6L16 12.5M14 17.5l-1.3 1.3a4.2 4.2 0 0 1-6-6L8 11.5M4 4l16 16"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </StrokeIcon>
  );
}

/** A door, for Vrata ("doors"). */
export function DoorIcon() {
  return (
    <StrokeIcon>
      <path d="M4 21h16M6 21V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v17" strokeLinejoin="round" />
      <path d="M14 12v.01" strokeLinecap="round" strokeWidth="3" />
    </StrokeIcon>
  );
}

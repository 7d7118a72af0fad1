/** Vrata's mark, a door (the favicon's drawing). Decorative: the instance's title is written next to it. */
export function LogoMark({ className = "size-8" }: { readonly className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={`shrink-0 ${className}`}>
      <rect width="32" height="32" rx="7" className="fill-blue-900" />
      <path
        d="M10 26V8a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v18"
        fill="none"
        stroke="#fff"
        strokeWidth="2.5"
        strokeLinejoin="round"
      />
      <path d="M6 26h20" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <circle cx="18.5" cy="16.5" r="1.6" fill="#fff" />
    </svg>
  );
}

/** Small decorative icons used by the header, the benefit dialog and the intro page. */

interface IconProps {
  size?: number;
  className?: string;
}

/** The Duet mark: two overlapping voices. */
export function DuetMark({ size = 32, className }: IconProps) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="16" fill="#4f46e5" />
      <circle cx="24" cy="32" r="13" fill="#fff" opacity=".92" />
      <circle cx="40" cy="32" r="13" fill="#fb7185" opacity=".88" />
    </svg>
  );
}

/** A pen over a page: the writing assistant. */
export function WritingIcon({ size = 48, className }: IconProps) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <rect width="48" height="48" rx="14" fill="#eef2ff" />
      <rect x="12" y="10" width="20" height="27" rx="3" fill="#fff" stroke="#4f46e5" strokeWidth="2.5" />
      <path d="M16 17h12M16 22h12M16 27h7" stroke="#a5b4fc" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M36.5 20.5l3 3L29 34l-4.5 1.5L26 31z" fill="#4f46e5" stroke="#4f46e5" strokeWidth="1.5" strokeLinejoin="round" />
    </svg>
  );
}

/** A brush with paint dots: the drawing assistant. */
export function DrawingIcon({ size = 48, className }: IconProps) {
  return (
    <svg className={className} width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <rect width="48" height="48" rx="14" fill="#fff1f2" />
      <path
        d="M24 10c-8 0-14 6-14 13.5S16 37 23 37c3 0 3-2.5 2-4-1-1.6 0-3.5 2-3.5h3.5c4 0 7.5-2.5 7.5-7C38 15 32 10 24 10z"
        fill="#fff"
        stroke="#db2777"
        strokeWidth="2.5"
        strokeLinejoin="round"
      />
      <circle cx="18" cy="20" r="2.6" fill="#4f46e5" />
      <circle cx="24.5" cy="16.5" r="2.6" fill="#fb7185" />
      <circle cx="31" cy="19.5" r="2.6" fill="#f59e0b" />
      <circle cx="17" cy="27" r="2.6" fill="#10b981" />
    </svg>
  );
}

export function CloseIcon({ size = 20 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

export function MenuIcon({ size = 22 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M4 7h16M4 12h16M4 17h16" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

export function GiftIcon({ size = 18 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3.5" y="9" width="17" height="11.5" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M2.5 9h19M12 9v11.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <path
        d="M12 9c-1.5-3.5-5.5-5-6.5-2.5S9 9 12 9zm0 0c1.5-3.5 5.5-5 6.5-2.5S15 9 12 9z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function ExternalIcon({ size = 16 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M14 4h6v6M20 4l-9 9M18 14v4a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h4"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** A podium: the leaderboard. */
export function PodiumIcon({ size = 18 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M9 20V8h6v12M3 20v-7h6M15 20v-9h6v9M2 20h20"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The ShuTu mark: three rising bars on a blue tile. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" className="app-logo">
      <defs>
        <linearGradient id="shutu-logo" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4d8dff" />
          <stop offset="1" stopColor="#1f5cf0" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#shutu-logo)" />
      <rect x="7" y="16" width="4" height="9" rx="1" fill="#fff" opacity="0.75" />
      <rect x="14" y="11" width="4" height="14" rx="1" fill="#fff" opacity="0.9" />
      <rect x="21" y="7" width="4" height="18" rx="1" fill="#fff" />
    </svg>
  );
}

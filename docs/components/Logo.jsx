// The Pipewright mark: a pipe bent into a "P". Two variants, one shown per colour mode (see app/global.css).
function Mark({ stroke, fill }) {
  return (
    <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
      <rect x="1" y="1" width="30" height="30" rx="7" fill={fill} />
      <path
        d="M10 25V8h7.5a5.5 5.5 0 0 1 0 11H10"
        fill="none"
        stroke={stroke}
        strokeWidth="3.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="22" cy="24" r="2.2" fill={stroke} />
    </svg>
  );
}

export function Logo() {
  return (
    <span className="pw-logo">
      <span className="pw-logo-light" data-variant="light">
        <Mark stroke="#ffffff" fill="#0b7a5e" />
      </span>
      <span className="pw-logo-dark" data-variant="dark">
        <Mark stroke="#0b1512" fill="#00d6a1" />
      </span>
      <span className="pw-logo-text">Pipewright</span>
      <span className="pw-logo-tag">docs</span>
    </span>
  );
}

import { useId, useState } from 'react';

/** Outlined 16-px icons drawn as antd's UserOutlined / LockOutlined / Eye(Invisible)Outlined look, without loading antd. */
const ICONS = {
  user: 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9Zm0 1.5c-4.1 0-7.5 2.6-7.5 6v1h15v-1c0-3.4-3.4-6-7.5-6Z',
  lock: 'M7 10V7.5a5 5 0 0 1 10 0V10h1.5v11h-13V10H7Zm1.8 0h6.4V7.5a3.2 3.2 0 0 0-6.4 0V10Zm2.3 4v3.5h1.8V14h-1.8Z',
  eye: 'M12 5c-5 0-9 4.5-10 7 1 2.5 5 7 10 7s9-4.5 10-7c-1-2.5-5-7-10-7Zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9Zm0-2a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z',
  eyeOff:
    'M3.3 2 2 3.3l3.2 3.2C3.5 7.9 2.4 9.7 2 12c1 2.5 5 7 10 7 1.8 0 3.4-.5 4.8-1.4l3.9 3.9 1.3-1.3L3.3 2ZM12 16.5A4.5 4.5 0 0 1 7.9 10.2l1.5 1.5a2.5 2.5 0 0 0 2.9 2.9l1.5 1.5c-.5.2-1.1.4-1.8.4Zm10-4.5c-1-2.5-5-7-10-7-1.1 0-2.2.2-3.2.6l2.4 2.4A4.5 4.5 0 0 1 16.5 12.8l3 3c1.2-1.2 2.1-2.6 2.5-3.8Z',
} as const;

function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg className="login-icon" viewBox="0 0 24 24" width="16" height="16" fill="currentColor" aria-hidden="true">
      <path d={ICONS[name]} />
    </svg>
  );
}

interface LoginFieldProps {
  icon: 'user' | 'lock';
  type?: 'text' | 'password';
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  autoComplete: string;
  maxLength?: number;
  autoFocus?: boolean;
  /** The field's message under it (请输入账号): the field is outlined in red meanwhile. */
  error?: string;
}

/** One large input of the login form with its icon and its message; a password can be shown while typed. */
export function LoginField({ icon, type = 'text', value, onChange, placeholder, autoComplete, maxLength, autoFocus, error }: LoginFieldProps) {
  const [shown, setShown] = useState(false);
  const errorId = useId();
  return (
    <div className="login-field">
      <label className={`login-input${error ? ' login-input-error' : ''}`}>
        <Icon name={icon} />
        <input
          type={type === 'password' && !shown ? 'password' : 'text'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
          aria-label={placeholder}
          autoComplete={autoComplete}
          maxLength={maxLength}
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {type === 'password' && (
          <button type="button" className="login-eye" onClick={() => setShown((s) => !s)} aria-label={shown ? '隐藏密码' : '显示密码'} tabIndex={-1}>
            <Icon name={shown ? 'eye' : 'eyeOff'} />
          </button>
        )}
      </label>
      <div className="login-field-error" id={errorId} role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}

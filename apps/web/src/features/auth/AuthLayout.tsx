import type { ReactNode } from 'react';
import { t } from '../../shared/messages.ts';
import { Logo } from '../../shared/Logo.tsx';
import './login.css';

/** The signed-out screens' frame (登录, 修改初始密码): the brand panel on the left, the card on the right. */
export function AuthLayout({ systemName, children }: { systemName: string; children: ReactNode }) {
  return (
    <div className="login-page">
      <div className="login-hero">
        <div className="login-hero-brand">
          <Logo size={40} />
          <span>{systemName}</span>
        </div>
        <div className="login-hero-copy">
          <h2>{t.appSubtitle}</h2>
          <p>{t.appSlogan}</p>
        </div>
        <div className="login-hero-chart" aria-hidden="true">
          {[38, 62, 48, 80, 56, 92, 70].map((h, i) => (
            <span key={i} style={{ height: `${h}%` }} />
          ))}
        </div>
        <div className="login-hero-foot">{t.loginFooter(systemName)}</div>
      </div>
      <div className="login-panel">{children}</div>
    </div>
  );
}

import helmet from 'helmet';
import type { RequestHandler } from 'express';
import type { AccountsConfig } from '../accounts-config.ts';

/**
 * The Content-Security-Policy sources the Firebase web SDK needs: its script loader and sign-in
 * popup frames, its REST endpoints, Google accounts' profile pictures, and the emulator's origin
 * when there is one. With accounts off, none of them.
 */
function accountsCsp(accounts: AccountsConfig): { script: string[]; connect: string[]; frame: string[]; img: string[] } {
  if (accounts.mode === 'disabled') return { script: [], connect: [], frame: [], img: [] };
  const emulator = accounts.mode === 'emulator' ? [`http://${accounts.emulatorHost}`] : [];
  return {
    img: ['https://*.googleusercontent.com'],
    script: ['https://apis.google.com'],
    connect: ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', ...emulator],
    frame: [...new Set(['https://*.firebaseapp.com', `https://${accounts.web.authDomain}`]), ...emulator],
  };
}

/** Security headers: the page loads, connects and frames only what it needs. */
export function securityHeaders(accounts: AccountsConfig, corsOrigins: readonly string[]): RequestHandler {
  const csp = accountsCsp(accounts);
  return helmet({
    // Google sign-in's popup reports back through window.opener (Firebase requires this).
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:', 'blob:', ...csp.img],
        'script-src': ["'self'", ...csp.script],
        // 'self' covers the gateway's own ws:/wss: origin; other hosts only if configured.
        'connect-src': ["'self'", ...corsOrigins, ...csp.connect],
        'frame-src': ["'self'", ...csp.frame],
        // Duet is often run over plain HTTP on localhost; TLS is the proxy's business.
        'upgrade-insecure-requests': null,
      },
    },
  });
}

import type { ReactNode } from 'react';

import { BridgeError, errorMessage } from '../api';

/**
 * An error a person can act on: the message says what happened and what to do. Internal codes
 * (TRANSPORT, KEY, GATEWAY_REFUSED...) are for support: under a "Details" disclosure, never in
 * the sentence a clerk reads.
 */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  const code = error instanceof BridgeError ? error.code : undefined;
  const details = error instanceof BridgeError ? error.details : undefined;
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong>{title} </strong>}
      {errorMessage(error)}
      {code && (
        <details className="notice-details">
          <summary>Details for support</summary>
          <code>
            {code}
            {details !== undefined ? ` ${JSON.stringify(details)}` : ''}
          </code>
        </details>
      )}
    </div>
  );
}

export function Notice({
  kind,
  children,
}: {
  kind: 'info' | 'success' | 'warning';
  children: ReactNode;
}) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'warning' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

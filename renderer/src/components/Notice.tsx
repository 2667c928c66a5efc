import type { ReactNode } from 'react';

import { BridgeError, errorMessage } from '../api';

/** An error a person can act on: the message says what happened and what to do. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  const code = error instanceof BridgeError ? error.code : undefined;
  return (
    <div className="notice notice-error" role="alert">
      {title && <strong>{title} </strong>}
      {errorMessage(error)}
      {code && <span className="notice-code"> ({code})</span>}
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

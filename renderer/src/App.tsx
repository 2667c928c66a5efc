export function App() {
  const version = window.paydesk?.version;

  return (
    <div className="app">
      <header className="app-header">
        <span className="wordmark">Paydesk</span>
        {version !== undefined && <span className="app-version">Version {version}</span>}
      </header>

      <main className="app-main" aria-labelledby="welcome-title">
        <section className="welcome">
          <h1 id="welcome-title">Welcome to Paydesk</h1>
          <p className="lead">
            The back-office console for your card payment gateway, where support looks orders up and
            finance captures, voids and refunds.
          </p>
          <p>
            This build holds the gateway client: every operation of the payment API, signed and
            checked inside the desktop app, where your keys stay. The screens for these jobs arrive
            in a following release.
          </p>
        </section>
      </main>
    </div>
  );
}

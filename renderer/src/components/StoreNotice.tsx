// The banner of a read-only start: the database is damaged, read-only or in a folder Paydesk
// cannot write. It says what is wrong, where the file is and what to do (the message comes from
// main/store/errors.ts), and what still works meanwhile.

export function StoreNotice({ message, file }: { message?: string | undefined; file: string }) {
  return (
    <div className="notice notice-error store-notice" role="alert">
      <strong>Paydesk is read-only: its database cannot be written.</strong>
      <p>{message ?? `Check the database at ${file}.`}</p>
      <p>
        Meanwhile lookups and the journal still work; capture, void, refund and cancel are refused,
        and so are changes to profiles and keys, because nothing may be sent that the journal cannot
        record first.
      </p>
    </div>
  );
}

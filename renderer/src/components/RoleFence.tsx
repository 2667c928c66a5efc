// What the person's role (or a read-only database) does not allow: one line says why, and every
// control that would change something stays in view, disabled. Reading, choosing, copying and
// saving what the person may see keep working: a support person on Keys still picks a profile
// and copies its public key; on Batch still opens a past batch and saves its results.
//
// RoleFence puts the line on the screen and hands the fence down through context. A control that
// changes something lives in a FencedForm (its fields in one disabled fieldset) or is a
// FencedButton (ConfirmDialog's confirm button is one); everything else (Close, Done, copying,
// opening) is read-only by intent. This is the only place that reads the role for a screen: no
// screen calls useAllowed, so the rule is written once, and a role that changes while a form,
// an outcome or a confirmation is open takes its send buttons away at once. test/e2e/role-fence.test.ts walks every
// fenced screen as support and finance and fails on any enabled control it does not know to be
// read-only, so a changing control that forgets the fence cannot become usable silently. The
// main process and the database refuse what the role may not do anyway: this is the courtesy.

import { createContext, useContext, useId, type ComponentProps, type ReactNode } from 'react';

import { useAllowed, type Allowed } from '../session';

/** Why changing is not allowed here, and the id of the line that says so. */
export interface Fence {
  reason: string;
  reasonId: string;
}

/** The innermost RoleFence: what it fences for, and its fence (undefined where allowed). */
const FenceContext = createContext<{ need: keyof Allowed; fence: Fence | undefined } | undefined>(
  undefined,
);

export function RoleReason({ reason, id }: { reason: string; id?: string }) {
  return (
    <p className="role-reason" role="note" {...(id ? { id } : {})}>
      {reason}
    </p>
  );
}

/**
 * Fences what it holds for `need`. A part that fences itself (MoneyForm, the order's action
 * panel) may sit inside a screen fenced for the same need: the outer fence's line says why once.
 */
export function RoleFence({ need, children }: { need: keyof Allowed; children: ReactNode }) {
  const outer = useContext(FenceContext);
  if (outer?.need === need) return children;
  return <OwnFence need={need}>{children}</OwnFence>;
}

function OwnFence({ need, children }: { need: keyof Allowed; children: ReactNode }) {
  const allowance = useAllowed()[need];
  const id = useId();
  const fence = allowance.allowed ? undefined : { reason: allowance.reason, reasonId: `${id}-why` };
  return (
    <FenceContext.Provider value={{ need, fence }}>
      {fence && <RoleReason reason={fence.reason} id={fence.reasonId} />}
      {children}
    </FenceContext.Provider>
  );
}

/** The fence over this part of the screen; undefined where the person may change things. */
export function useFence(): Fence | undefined {
  return useContext(FenceContext)?.fence;
}

/**
 * A form that changes something (sends money, edits a profile, makes a key, loads a batch):
 * its fields sit in one fieldset, disabled and greyed when fenced, pointing at the reason.
 */
export function FencedForm({ children, ...form }: ComponentProps<'form'>) {
  const fence = useFence();
  return (
    <form {...form}>
      <fieldset
        className="role-fence"
        disabled={fence !== undefined}
        {...(fence ? { 'aria-describedby': fence.reasonId } : {})}
      >
        {children}
      </fieldset>
    </form>
  );
}

/** A lone button that changes something (Edit, Remove, Pay…, Cancel the batch): off when fenced. */
export function FencedButton({
  disabled,
  'aria-describedby': describedBy,
  ...button
}: ComponentProps<'button'>) {
  const fence = useFence();
  const described = [fence?.reasonId, describedBy].filter(Boolean).join(' ');
  return (
    <button
      type="button"
      {...button}
      disabled={fence !== undefined || disabled}
      {...(described ? { 'aria-describedby': described } : {})}
    />
  );
}

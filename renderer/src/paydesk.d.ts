import type { PaydeskApi } from '../../preload/index';

declare global {
  interface Window {
    /** Set by the preload inside Paydesk; absent when the page is opened in a plain browser. */
    readonly paydesk?: PaydeskApi;
  }
}

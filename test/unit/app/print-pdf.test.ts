// Printing the reconciliation's page to PDF in main, with electron mocked: a hidden window that
// runs no script and opens nothing, given the page as it was built, printed on A4, and
// destroyed afterwards, also when printing fails.

import { beforeEach, describe, expect, it, vi } from 'vitest';

const windows: FakeWindow[] = [];

class FakeWindow {
  readonly listeners = new Map<string, (event: { preventDefault(): void }) => void>();
  openHandler: (() => { action: string }) | undefined;
  destroyed = false;
  readonly webContents = {
    on: (name: string, listener: (event: { preventDefault(): void }) => void) => {
      this.listeners.set(name, listener);
    },
    setWindowOpenHandler: (handler: () => { action: string }) => {
      this.openHandler = handler;
    },
    printToPDF: vi.fn((_options: unknown) => Promise.resolve(Buffer.from('%PDF-1.7 fake'))),
  };
  readonly loadURL = vi.fn((_url: string) => Promise.resolve());
  constructor(readonly options: Record<string, unknown>) {
    windows.push(this);
  }
  destroy() {
    this.destroyed = true;
  }
}

vi.mock('electron', () => ({ BrowserWindow: FakeWindow }));

const { printHtmlToPdf } = await import('../../../main/print-pdf');

beforeEach(() => {
  windows.length = 0;
});

describe('printHtmlToPdf', () => {
  it('prints the page in a hidden window without script, then destroys it', async () => {
    const html = '<!doctype html><p>Reconciliation &amp; 100% #1</p>';
    const pdf = await printHtmlToPdf(html);
    expect(Buffer.from(pdf).toString()).toBe('%PDF-1.7 fake');
    const win = windows[0]!;
    expect(win.options).toMatchObject({
      show: false,
      webPreferences: {
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        javascript: false,
      },
    });
    const url = win.loadURL.mock.calls[0]![0];
    expect(url.startsWith('data:text/html;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(url.slice('data:text/html;charset=utf-8,'.length))).toBe(html);
    expect(win.webContents.printToPDF).toHaveBeenCalledWith({
      pageSize: 'A4',
      printBackground: true,
    });
    expect(win.openHandler?.()).toEqual({ action: 'deny' });
    const navigation = { preventDefault: vi.fn() };
    win.listeners.get('will-navigate')?.(navigation);
    expect(navigation.preventDefault).toHaveBeenCalled();
    expect(win.destroyed).toBe(true);
  });

  it('destroys the window when printing fails', async () => {
    const failing = printHtmlToPdf('<p>x</p>');
    windows[0]!.webContents.printToPDF.mockRejectedValueOnce(new Error('printing failed'));
    await expect(failing).rejects.toThrow('printing failed');
    expect(windows[0]!.destroyed).toBe(true);
  });
});

// The printable page of a reconciliation, printed to PDF by Chromium itself: a hidden window
// that runs no script and opens nothing, loaded with the page's HTML (built and tested in
// services/reconcile/report.ts), printed with webContents.printToPDF, then destroyed. Kept thin:
// everything worth testing is in the HTML; this is tested with electron mocked.

import { BrowserWindow } from 'electron';

export async function printHtmlToPdf(html: string): Promise<Uint8Array> {
  const win = new BrowserWindow({
    show: false,
    webPreferences: {
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      javascript: false,
      webSecurity: true,
    },
  });
  try {
    win.webContents.on('will-navigate', (event) => event.preventDefault());
    win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    await win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`);
    return await win.webContents.printToPDF({ pageSize: 'A4', printBackground: true });
  } finally {
    win.destroy();
  }
}

// Paydesk's own menu on Windows and Linux: Electron's default one offers Reload (which would drop
// the screen a clerk is on, mid-form) and Toggle Developer Tools (off in packaged builds anyway).
// Edit keeps the clipboard's shortcuts working in forms; View only zooms; Help says what this is.
// macOS keeps its application menu, which its users expect (Quit, Hide, the Edit shortcuts).

import type { MenuItemConstructorOptions } from 'electron';

export interface MenuDeps {
  version: string;
  /** Shows a short "About Paydesk" box. */
  about: () => void;
}

export function paydeskMenuTemplate(deps: MenuDeps): MenuItemConstructorOptions[] {
  return [
    {
      label: '&Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      label: '&Help',
      submenu: [{ label: `About Paydesk ${deps.version}`, click: deps.about }],
    },
  ];
}
